"""The whole run config: :class:`Config`, its top-level keys and the checks that span sections.

Contracts: a :class:`Config` is valid as a whole, not only section by section: the board side, the
variant, the designed grid (:mod:`pipeline.config.design`), the clue pattern, the stop rule and
``difficulty.steer`` fit together, the grader can reach the ``difficulty`` target
(:mod:`pipeline.config.reach`), and every refusal is a ValueError whose sentence starts with the
key at fault (``removal.hints: ...``). ``Config.model_dump(mode="json")`` validates again to an equal
config (a manifest's saved config is a valid config). The keys: ``docs/config.md``.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from pipeline import symmetry
from pipeline.board import Grid, PuzzleFormatError, board, parse, variant_problem
from pipeline.config import design, reach, technique
from pipeline.config.messages import echo
from pipeline.config.sections import (
    BoardCfg,
    DedupCfg,
    DifficultyCfg,
    ExecutorCfg,
    GridCfg,
    OutputCfg,
    RemovalCfg,
    _Strict,
)

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")
#: Board sides made only as classic puzzles under a hints rule (:meth:`Config._fits_giant`).
GIANT_SIDES = (25,)


class Config(_Strict):
    name: str
    seed: int = Field(ge=0, le=2**63 - 1, strict=True)
    count: int = Field(ge=1, le=10_000_000, strict=True)
    board: BoardCfg = BoardCfg()
    grid: GridCfg = GridCfg()
    removal: RemovalCfg = RemovalCfg()
    workers: Any = "auto"
    output: OutputCfg = OutputCfg()
    engine: Literal["hybrid", "ilp"] = "hybrid"
    difficulty: DifficultyCfg | None = None
    dedup: DedupCfg = DedupCfg()
    executor: ExecutorCfg = ExecutorCfg()

    @model_validator(mode="before")
    @classmethod
    def _count_from_quota(cls, data: Any) -> Any:
        """With ``difficulty.quota`` the count may be left out (it is the quota's sum); given, it
        must agree."""
        if not isinstance(data, dict):
            return data
        diff = data.get("difficulty")
        quota = diff.get("quota") if isinstance(diff, dict) else None
        if not isinstance(quota, dict) or not all(type(v) is int for v in quota.values()):
            return data
        total = sum(quota.values())
        if any(v < 1 for v in quota.values()):
            return {**data, "count": data.get("count", 1)}  # the quota's own error names the level
        if data.get("count") is None:
            return {**data, "count": total}
        if data["count"] != total:
            raise ValueError(f"count: {echo(data['count'])} does not match difficulty.quota, which adds up to {total} "
                             "(leave count out)")
        return data

    @model_validator(mode="before")
    @classmethod
    def _pattern_layout(cls, data: Any) -> Any:
        """With ``removal.pattern`` and no ``removal.symmetry``, the symmetry is the pattern's own tag
        (written into the config, so a saved config validates again as it is). A pattern that cannot be
        read is left to the checks after validation, which name the mistake."""
        removal = data.get("removal") if isinstance(data, dict) else None
        if not isinstance(removal, dict) or not isinstance(removal.get("pattern"), str) or "symmetry" in removal:
            return data
        size = data["board"].get("size", 9) if isinstance(data.get("board"), dict) else 9
        if size not in (4, 6, 9, 16):
            return data
        try:
            cells = design.parse_mask(removal["pattern"], size)
        except ValueError:
            return data
        return {**data, "removal": {**removal, "symmetry": symmetry.symmetry_tag(cells, size)}}

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        if not _NAME.match(v):
            raise ValueError(
                f"{echo(v)} cannot name the output folder; use up to 100 letters, digits, '_', '.' or '-'"
            )
        return v

    @field_validator("workers")
    @classmethod
    def _workers(cls, v: object) -> object:
        if v == "auto" or (isinstance(v, int) and not isinstance(v, bool) and v >= 1):
            return v
        raise ValueError(f"{echo(v)} is not 'auto' or a number of workers >= 1")

    @model_validator(mode="after")
    def _fits_board(self) -> Config:
        n = self.board.size
        if n in GIANT_SIDES:
            self._fits_giant(n)
        self._fits_variant(n)
        self._fits_design(n)
        if self.difficulty is not None and self.difficulty.technique is not None:
            why = technique.board_problem(n, self.board.rules.kinds, self.difficulty.techniques)
            if why:
                raise ValueError(why)
            self._fits_steer("difficulty.technique")
        elif self.difficulty is not None and self.difficulty.steer:
            self._fits_steer()
        if self.difficulty is not None:
            cages = self.board.cages
            why = reach.target_problem(self.board.rules.kinds, self.killer_givens, self.difficulty.levels,
                                       list(self.difficulty.quota or ()), singles=bool(cages and cages.singles))
            if why:
                raise ValueError(why)
        if self.removal.pattern is not None:
            self._fits_pattern(n)
        if self.grid.fixed is not None:
            try:
                parse(self.grid.fixed, n)
            except PuzzleFormatError as exc:
                raise ValueError(f"grid.fixed: {exc}") from None
        elif self.grid.keep_fixed:
            raise ValueError("grid.keep_fixed: true needs grid.fixed")
        if self.grid.method == "uniform" and (n != 9 or self.grid.fixed is not None):
            raise ValueError("grid.method: uniform is for 9x9 boards without fixed cells (use weighted-ilp)")
        if self.removal.hints is not None:
            _, hi = self.removal.hints.bounds
            if self.grid.keep_fixed and self.grid.fixed is not None:
                # kept fixed cells lock their whole symmetry orbits (any tag, for symmetry: random)
                cells = {i for i, d in enumerate(parse(self.grid.fixed, n)) if d}
                tag = self.removal.symmetry
                locked = len(cells) if tag == "random" else sum(
                    len(o) for o in symmetry.orbits(tag, n) if cells.intersection(o))
                if locked > hi:
                    with_orbits = f" ({locked} with their {tag} orbits)" if locked != len(cells) else ""
                    raise ValueError(f"grid.keep_fixed: the {len(cells)} fixed cells of grid.fixed{with_orbits} stay "
                                     f"givens, more than removal.hints allows ({hi})")
            if hi > n * n:
                raise ValueError(f"removal.hints: {hi} is more than the {n * n} cells of a {n}x{n} board")
            floor = design.MIN_HINTS.get(n) if self.board.rules.classic else None
            if floor is not None and hi < floor:
                raise ValueError(
                    f"removal.hints: no {n}x{n} puzzle with fewer than {floor} givens has a unique solution"
                )
        return self

    def _fits_giant(self, n: int) -> None:
        """A 25x25 set is classic, drawn by a hints rule, without a design (raises ValueError): the removal's
        counter settles a 25x25 puzzle quickly only while about half its cells are given, so orbit-minimal
        25x25 puzzles (about 290 givens) would take hours each; designs and variants are untested there."""
        if not self.board.rules.classic:
            raise ValueError(f"board.variant: {n}x{n} boards are classic only")
        design_key = ("removal.pattern" if self.removal.pattern is not None else "grid.solution_symmetry"
                      if self.grid.solution_symmetry is not None else "grid.areas" if self.grid.areas else None)
        if design_key is not None:
            raise ValueError(f"{design_key}: not on {n}x{n} boards (classic grids with a hints rule only)")
        if self.removal.hints is None:
            raise ValueError(f"removal.hints: a {n}x{n} board needs a hints rule, e.g. {{min: 310, max: 330}} "
                             "(orbit-minimal puzzles of this size are beyond the removal's counter)")

    def _fits_steer(self, field: str = "difficulty.steer") -> None:
        """``difficulty.steer`` climbs over orbit-minimal puzzles toward a range (levels or score) or, with a
        quota, toward one of the quota's levels per puzzle: it needs the minimal rule and a variant with givens
        to move (not killer)."""
        if self.removal.pattern is not None or self.removal.hints is not None:
            key = "pattern" if self.removal.pattern is not None else "hints"
            undo = "set difficulty.steer: false" if field == "difficulty.steer" else f"remove {field}"
            why = "" if field == "difficulty.steer" else " (a technique is reached by steering)"
            raise ValueError(f"{field}: works on orbit-minimal puzzles{why}; remove removal.{key} or {undo}")
        if "killer" in self.board.rules.kinds:
            raise ValueError("difficulty.steer: steering moves givens, and a killer puzzle's grade lies in its "
                             "cages (give difficulty.levels or a quota without steer: killer puzzles are graded and "
                             "drawn until they fit)")

    def _fits_variant(self, n: int) -> None:
        """``board.variant``, ``board.regions`` and ``board.cages`` against the board and the keys that
        assume classic rules (raises ValueError)."""
        rules = self.board.rules
        why = variant_problem(n, rules)
        if why:
            raise ValueError(f"board.variant: {why}" if not why.startswith("board.") else why)
        killer = "killer" in rules.kinds
        if self.board.cages is not None and not killer:
            raise ValueError("board.cages: only a killer variant has cages (add killer to board.variant)")
        if killer and self.board.cages is not None and self.board.cages.max_size > n:
            raise ValueError(f"board.cages.max_size: {self.board.cages.max_size} cells cannot hold distinct digits "
                             f"of a {n}x{n} board (at most {n})")
        if rules.classic:
            return
        if self.grid.method == "uniform":
            raise ValueError("grid.method: uniform grids are classic 9x9 grids; a variant needs weighted-ilp")
        if killer and not self.killer_givens and (
                self.removal.pattern is not None or self.removal.hints is not None or self.removal.minimal is False):
            key = "pattern" if self.removal.pattern is not None else "hints" if self.removal.hints else "minimal"
            raise ValueError(f"removal.{key}: a killer puzzle without givens has nothing to remove (set "
                             "board.cages.givens: true to keep givens)")
        sym = self.grid.solution_symmetry
        if sym is not None and rules.regions is not None:
            m = symmetry.permutation(sym.map, n)
            b = board(n, rules)
            regions = {frozenset(u) for u in b.boxes}
            if any(frozenset(m[i] for i in u) not in regions for u in b.boxes):
                raise ValueError(f"grid.solution_symmetry: {sym.map} does not carry the jigsaw regions of "
                                 "board.regions onto regions, so no grid can be its own image (draw symmetric "
                                 "regions or choose another map)")

    @property
    def killer_givens(self) -> bool:
        """Whether a killer set keeps givens (``board.cages.givens``)."""
        return self.board.cages is not None and self.board.cages.givens

    def _fits_design(self, n: int) -> None:
        """``grid.solution_symmetry`` and ``grid.areas`` against the board (raises ValueError)."""
        sym = self.grid.solution_symmetry
        if sym is not None:
            try:
                p = design.digit_map(sym.digits, n)
            except ValueError as exc:
                raise ValueError(f"grid.solution_symmetry.digits: {exc}") from None
            why = design.image_problem(sym.map, p, n)
            if why:
                raise ValueError(f"grid.solution_symmetry: {why}")
        for k, area in enumerate(self.grid.areas):
            try:
                cells = design.parse_cells(area.cells, n)
            except ValueError as exc:
                raise ValueError(f"grid.areas.{k}.cells: {exc}") from None
            why = design.area_problem(cells, tuple(area.digits), area.rule, n)
            if why:
                raise ValueError(f"grid.areas.{k}: {why}")
        if self.grid.method == "uniform" and (sym is not None or self.grid.areas):
            raise ValueError("grid.method: uniform grids cannot honour grid.solution_symmetry or grid.areas "
                             "(use weighted-ilp)")

    def _fits_pattern(self, n: int) -> None:
        """``removal.pattern`` against the board and the other removal keys (raises ValueError)."""
        assert self.removal.pattern is not None
        try:
            cells = design.parse_mask(self.removal.pattern, n)
        except ValueError as exc:
            raise ValueError(f"removal.pattern: {exc}") from None
        why = design.pattern_problem(cells, n)
        if why:
            raise ValueError(f"removal.pattern: {why}")
        tag = symmetry.symmetry_tag(cells, n)
        asked = self.removal.symmetry  # the pattern's tag when left out (_pattern_layout)
        if not symmetry.contains(tag, asked):
            raise ValueError(f"removal.symmetry: the pattern's layout is {tag}, which lacks {asked} (leave symmetry "
                             "out: a pattern brings its own layout)")
        if self.removal.hints is not None:
            lo, hi = self.removal.hints.bounds
            if not lo <= len(cells) <= hi:
                rule = f"{lo}" if lo == hi else f"{lo}-{hi}"
                raise ValueError(f"removal.hints: the pattern has {len(cells)} givens, not {rule} (leave hints out: "
                                 "a pattern fixes the givens)")
        if self.grid.keep_fixed and self.grid.fixed is not None:
            fixed = parse(self.grid.fixed, n)
            outside = [i for i, d in enumerate(fixed) if d and i not in cells]
            if outside:
                r, c = divmod(outside[0], n)
                raise ValueError(f"grid.keep_fixed: the fixed cell r{r + 1}c{c + 1} is not a given of removal.pattern "
                                 "(with a pattern, keep_fixed needs every fixed cell in it)")

    @property
    def fixed_grid(self) -> Grid | None:
        return None if self.grid.fixed is None else parse(self.grid.fixed, self.board.size)

    @property
    def pattern_cells(self) -> tuple[int, ...] | None:
        """The given cells of ``removal.pattern`` (sorted), or None without a pattern."""
        return None if self.removal.pattern is None else design.parse_mask(self.removal.pattern, self.board.size)

    @property
    def image(self) -> tuple[str, tuple[int, ...]] | None:
        """``grid.solution_symmetry`` as (map name, ``(p(1), ..., p(n))``), or None."""
        sym = self.grid.solution_symmetry
        return None if sym is None else (sym.map, design.digit_map(sym.digits, self.board.size))

    @property
    def area_rules(self) -> tuple[tuple[tuple[int, ...], tuple[int, ...], Literal["only", "somewhere", "never"]], ...]:
        """``grid.areas`` as (cells, digits, rule) triples, cells and digits sorted."""
        n = self.board.size
        return tuple((design.parse_cells(a.cells, n), tuple(sorted(a.digits)), a.rule) for a in self.grid.areas)
