"""The YAML config: pydantic models with ``extra="forbid"``, loaded with ``yaml.safe_load``'s loader
(a :class:`yaml.SafeLoader` subclass that also refuses a key repeated in one mapping, aliases
(``*name``, so no alias bomb can expand) and nesting deeper than :data:`MAX_DEPTH`); a config file
may hold at most :data:`MAX_BYTES`.

:func:`load` turns every user mistake into one :class:`ConfigError` whose message names the field,
e.g. ``removel: unknown key (did you mean removal?)``. Nothing else in the package catches pydantic
errors. :func:`config_hash` identifies the set a config describes: keys that cannot change the puzzles
(``workers``, ``executor``, ``output.dir``) are left out, so a resumed run on another machine keeps its hash.

Designed grids (``grid.solution_symmetry``, ``grid.areas``) and clue patterns (``removal.pattern``)
are checked here as far as plain reasoning goes, each refusal saying why (:func:`image_problem`,
:func:`area_problem`, :func:`pattern_problem`); whether the integer program finds a grid at all is
asked once before the run (:func:`pipeline.generate.grid.design_problem`).
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from pipeline import symmetry
from pipeline.board import SYMBOLS, Board, Grid, PuzzleFormatError, Variant, board, make_variant, parse, variant_problem
from pipeline.difficulty.techniques import LEVELS
from pipeline.errors import UserError
from pipeline.symmetry import TAGS

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")

# The fewest givens a unique puzzle can have, where it is known (9x9: McGuire et al. 2012).
MIN_HINTS = {4: 4, 6: 8, 9: 17}


# Limits on what a config file may be (an alias bomb or a deep nest must end in one line, not in
# gigabytes or a RecursionError), and on how much of a bad value an error message echoes.
MAX_BYTES = 1_000_000
MAX_DEPTH = 32
ECHO_CHARS = 80


def echo(value: object) -> str:
    """``repr(value)`` for an error message, cut to :data:`ECHO_CHARS` characters plus ``…``."""
    text = repr(value)
    return text if len(text) <= ECHO_CHARS else text[:ECHO_CHARS] + "…"


class ConfigError(UserError, ValueError):
    """A config mistake; ``str(err)`` is one line naming the field."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CagesCfg(_Strict):
    """``board.cages`` (killer): cage sizes ``min_size``-``max_size`` (connected cells, distinct digits);
    ``singles: true`` allows one-cell cages; ``givens: false`` (the default) makes the cages alone
    decide the puzzle (no givens at all), ``givens: true`` removes givens on symmetry orbits after the
    cages are drawn, keeping those the cages need."""

    min_size: int = Field(default=2, ge=1, le=9, strict=True)
    max_size: int = Field(default=5, ge=1, le=16, strict=True)
    singles: bool = False
    givens: bool = False

    @model_validator(mode="after")
    def _sizes(self) -> CagesCfg:
        if self.min_size > self.max_size:
            raise ValueError(f"min_size ({self.min_size}) is greater than max_size ({self.max_size})")
        if self.min_size == 1 and not self.singles:
            raise ValueError("min_size 1 makes one-cell cages; say singles: true to allow them")
        return self


class BoardCfg(_Strict):
    """``board``: the side, the ``variant`` (``classic``, ``x``, ``hyper``, ``jigsaw``, ``killer`` or a
    combination such as ``x+hyper``, also as a list), the jigsaw ``regions`` (n*n labels, drawn as n
    lines) and the killer ``cages`` policy."""

    size: Literal[4, 6, 9, 16] = 9
    variant: str | list[str] = "classic"
    regions: str | None = None
    cages: CagesCfg | None = None

    @property
    def rules(self) -> Variant:
        """The variant's rules (kinds and regions; a killer set's cages are drawn per puzzle)."""
        return make_variant(self.variant, self.regions)


#: The position maps a solution grid may be symmetric under (every map of :data:`pipeline.symmetry.MAPS`
#: but the identity).
IMAGE_MAPS = tuple(m for m in symmetry.MAPS if m != "identity")


class SolutionSymmetryCfg(_Strict):
    """``grid.solution_symmetry``: the solution grid maps onto itself by the position map ``map`` with
    its digits relabelled by ``digits``: ``grid[map(r, c)] = p(grid[r, c])``. ``digits`` is ``reverse``
    (``d -> n + 1 - d``), ``identity``, or ``p(1) p(2) ... p(n)`` written as symbols (``987654321``)."""

    map: Literal[IMAGE_MAPS]  # type: ignore[valid-type]
    digits: str = "reverse"

    @field_validator("digits", mode="before")
    @classmethod
    def _digits_as_text(cls, v: object) -> object:
        """``digits: 987654321`` (unquoted, so YAML reads a number) is the permutation it spells."""
        return str(v) if isinstance(v, int) and not isinstance(v, bool) else v


class AreaCfg(_Strict):
    """One of ``grid.areas``: ``only`` (the digits appear in these cells and nowhere else), ``never``
    (nowhere in these cells) or ``somewhere`` (each of the digits at least once in these cells).
    ``cells``: ``r1c1-r3c3`` rectangles and ``r5c5`` cells joined by commas, or a drawn mask (``#``,
    ``X`` or ``1`` in, ``.`` or ``0`` out)."""

    cells: str
    digits: list[Annotated[int, Field(ge=1, strict=True)]] = Field(min_length=1)
    rule: Literal["only", "somewhere", "never"]


class GridCfg(_Strict):
    method: Literal["weighted-ilp", "uniform"] = "weighted-ilp"
    fixed: str | None = None
    keep_fixed: bool = False
    solution_symmetry: SolutionSymmetryCfg | None = None
    areas: tuple[AreaCfg, ...] = ()


class DedupCfg(_Strict):
    catalog: bool = True  # also reject puzzles already in the output root's catalog
    max_redraws: int = Field(default=50, ge=1, le=10_000, strict=True)


class HintsCfg(_Strict):
    target: int | None = Field(default=None, ge=1, strict=True)
    min: int | None = Field(default=None, ge=1, strict=True)
    max: int | None = Field(default=None, ge=1, strict=True)

    @model_validator(mode="after")
    def _one_form(self) -> HintsCfg:
        if self.target is not None and (self.min is not None or self.max is not None):
            raise ValueError("give either target or min/max, not both")
        if self.target is None and (self.min is None or self.max is None):
            raise ValueError("give target, or both min and max")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min ({self.min}) is greater than max ({self.max})")
        return self

    @property
    def bounds(self) -> tuple[int, int]:
        if self.target is not None:
            return self.target, self.target
        assert self.min is not None and self.max is not None
        return self.min, self.max


class RemovalCfg(_Strict):
    symmetry: Literal[(*TAGS, "random")] = "rot180"  # type: ignore[valid-type]
    minimal: bool | None = None
    hints: HintsCfg | None = None
    max_attempts: int = Field(default=20, ge=1, le=10_000, strict=True)
    time_limit: float = Field(default=60.0, gt=0)
    pattern: str | None = None

    @model_validator(mode="after")
    def _one_rule(self) -> RemovalCfg:
        if self.pattern is not None:
            if self.minimal:
                raise ValueError("removal.minimal: a pattern fixes the givens and nothing is removed; leave minimal "
                                 "out")
            if self.symmetry == "random":
                raise ValueError("removal.symmetry: a pattern has its own layout, it cannot be drawn at random; "
                                 "leave symmetry out")
            return self
        if self.minimal and self.hints is not None:
            raise ValueError("choose one stop rule: minimal: true or hints")
        if self.minimal is False and self.hints is None:
            raise ValueError("minimal: false needs a hints rule")
        return self

    @property
    def is_minimal(self) -> bool:
        return self.hints is None


class ScoreCfg(_Strict):
    min: float | None = Field(default=None, ge=0)
    max: float | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _order(self) -> ScoreCfg:
        if self.min is None and self.max is None:
            raise ValueError("give min, max or both")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min ({self.min}) is greater than max ({self.max})")
        return self


class DifficultyCfg(_Strict):
    levels: list[Literal[LEVELS]] | None = None  # type: ignore[valid-type]
    score: ScoreCfg | None = None
    quota: dict[Literal[LEVELS], Annotated[int, Field(ge=1, strict=True)]] | None = None  # type: ignore[valid-type]
    max_attempts: int = Field(default=200, ge=1, le=100_000, strict=True)
    steer: bool = Field(default=False, strict=True)

    @model_validator(mode="after")
    def _some_target(self) -> DifficultyCfg:
        if self.quota is not None:
            if self.levels or self.score is not None:
                raise ValueError("quota makes a mix of levels: give quota, or levels/score, not both")
            return self
        if not self.levels and self.score is None:
            raise ValueError("give levels, score, quota, or levels and score")
        return self


class OutputCfg(_Strict):
    dir: str = "outputs"
    shard_size: int = Field(default=500, ge=1, le=1_000_000, strict=True)

    @field_validator("dir")
    @classmethod
    def _dir(cls, v: str) -> str:
        """An empty (or blank) ``dir`` is refused: it would silently mean the working folder."""
        if not v.strip():
            raise ValueError("empty; name the output root folder (e.g. outputs, or . for the working folder)")
        return v


_ADDRESS = re.compile(r"^tcp://(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?):(?P<port>[0-9]{1,5})$")


def address_problem(text: str) -> str | None:
    """Why ``text`` is not a dask scheduler address ``tcp://HOST:PORT`` (a host name, an IPv4
    address or a bracketed IPv6 address, and a port 1-65535), or None if it is one. The form only:
    whether a scheduler listens there is found out when the run connects."""
    m = _ADDRESS.match(text)
    if m is None or not 1 <= int(m["port"]) <= 65535:
        return f"{echo(text)} is not a scheduler address like tcp://host:8786"
    return None


class ExecutorCfg(_Strict):
    """Where the workers run (``executor``). ``local``: worker processes of this machine (joblib /
    loky; ``workers`` of them). ``dask``: a dask.distributed cluster, either the one whose scheduler
    listens at ``scheduler`` (``tcp://host:8786``), or, without ``scheduler``, a LocalCluster of
    ``local_workers`` processes (default: ``workers``) started for the run. Never part of the config
    hash: a set may be continued on another executor and its puzzles are the same."""

    kind: Literal["local", "dask"] = "local"
    scheduler: str | None = None
    local_workers: int | None = Field(default=None, ge=1, le=4096, strict=True)

    @field_validator("scheduler")
    @classmethod
    def _address(cls, v: str | None) -> str | None:
        why = address_problem(v) if v is not None else None
        if why:
            raise ValueError(f"executor.scheduler: {why}")  # named here: the message starts with the value
        return v

    @model_validator(mode="after")
    def _fits_kind(self) -> ExecutorCfg:
        if self.kind == "local" and self.scheduler is not None:
            raise ValueError("executor.scheduler: only with kind: dask (the local executor has no scheduler)")
        if self.kind == "local" and self.local_workers is not None:
            raise ValueError("executor.local_workers: only with kind: dask (the local executor uses workers)")
        if self.scheduler is not None and self.local_workers is not None:
            raise ValueError("executor.local_workers: give scheduler (a running cluster) or local_workers "
                             "(a LocalCluster started for the run), not both")
        return self


#: Marks an override that removes a key of the config file (see :func:`load`).
DROP: Any = object()


def executor_overrides(kind: str | None, scheduler: str | None) -> dict[str, Any]:
    """The :func:`load` overrides for ``numplace run --executor KIND --scheduler ADDR``.

    ``--executor local`` replaces the file's executor section with ``{kind: local}``;
    ``--executor dask`` sets the kind and keeps the file's ``scheduler`` / ``local_workers``;
    ``--scheduler ADDR`` means ``kind: dask`` with that scheduler (the file's ``local_workers`` is
    dropped). Raises :class:`ConfigError` naming the flag for a bad value or a contradiction."""
    if kind is not None and kind not in ("local", "dask"):
        raise ConfigError(f"--executor: {echo(kind)} is not one of local, dask")
    if scheduler is not None:
        if kind == "local":
            raise ConfigError("--scheduler: only with --executor dask (the local executor has no scheduler)")
        why = address_problem(scheduler)
        if why:
            raise ConfigError(f"--scheduler: {why}")
        return {"executor.kind": "dask", "executor.scheduler": scheduler, "executor.local_workers": DROP}
    if kind == "local":
        return {"executor.kind": "local", "executor.scheduler": DROP, "executor.local_workers": DROP}
    return {"executor.kind": kind}


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
            cells = parse_mask(removal["pattern"], size)
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
        self._fits_variant(n)
        self._fits_design(n)
        if self.difficulty is not None and self.difficulty.steer:
            self._fits_steer()
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
            floor = MIN_HINTS.get(n) if self.board.rules.classic else None
            if floor is not None and hi < floor:
                raise ValueError(
                    f"removal.hints: no {n}x{n} puzzle with fewer than {floor} givens has a unique solution"
                )
        return self

    def _fits_steer(self) -> None:
        """``difficulty.steer`` climbs over orbit-minimal puzzles toward one range: it needs the minimal rule,
        a graded variant and levels or a score (a quota wants every level)."""
        if self.difficulty is not None and self.difficulty.quota is not None:
            raise ValueError("difficulty.steer: a quota takes puzzles of every level, so there is no one range to "
                             "steer toward (give levels or score)")
        if self.removal.pattern is not None or self.removal.hints is not None:
            key = "pattern" if self.removal.pattern is not None else "hints"
            raise ValueError(f"difficulty.steer: works on orbit-minimal puzzles; remove removal.{key} or set "
                             "difficulty.steer: false")
        if "killer" in self.board.rules.kinds:
            raise ValueError("difficulty.steer: killer puzzles are unrated, so there is no grade to steer by")

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
                p = digit_map(sym.digits, n)
            except ValueError as exc:
                raise ValueError(f"grid.solution_symmetry.digits: {exc}") from None
            why = image_problem(sym.map, p, n)
            if why:
                raise ValueError(f"grid.solution_symmetry: {why}")
        for k, area in enumerate(self.grid.areas):
            try:
                cells = parse_cells(area.cells, n)
            except ValueError as exc:
                raise ValueError(f"grid.areas.{k}.cells: {exc}") from None
            why = area_problem(cells, tuple(area.digits), area.rule, n)
            if why:
                raise ValueError(f"grid.areas.{k}: {why}")
        if self.grid.method == "uniform" and (sym is not None or self.grid.areas):
            raise ValueError("grid.method: uniform grids cannot honour grid.solution_symmetry or grid.areas "
                             "(use weighted-ilp)")

    def _fits_pattern(self, n: int) -> None:
        """``removal.pattern`` against the board and the other removal keys (raises ValueError)."""
        assert self.removal.pattern is not None
        try:
            cells = parse_mask(self.removal.pattern, n)
        except ValueError as exc:
            raise ValueError(f"removal.pattern: {exc}") from None
        why = pattern_problem(cells, n)
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
        return None if self.removal.pattern is None else parse_mask(self.removal.pattern, self.board.size)

    @property
    def image(self) -> tuple[str, tuple[int, ...]] | None:
        """``grid.solution_symmetry`` as (map name, ``(p(1), ..., p(n))``), or None."""
        sym = self.grid.solution_symmetry
        return None if sym is None else (sym.map, digit_map(sym.digits, self.board.size))

    @property
    def area_rules(self) -> tuple[tuple[tuple[int, ...], tuple[int, ...], Literal["only", "somewhere", "never"]], ...]:
        """``grid.areas`` as (cells, digits, rule) triples, cells and digits sorted."""
        n = self.board.size
        return tuple((parse_cells(a.cells, n), tuple(sorted(a.digits)), a.rule) for a in self.grid.areas)


# ---------------------------------------------------------------------------------------------
# Designed grids and clue patterns: parsing, and the refusals that plain reasoning can explain
# ---------------------------------------------------------------------------------------------

#: Characters of a drawn mask (``removal.pattern``, an area's ``cells``): a given / a cell in, a blank / out.
MASK_IN, MASK_OUT = "#Xx1", ".0"


def parse_mask(text: str, n: int) -> tuple[int, ...]:
    """The cells marked in a drawn mask: ``n`` lines of ``n`` characters (whitespace ignored; also one
    line of ``n*n``), :data:`MASK_IN` marks a cell, :data:`MASK_OUT` leaves it out. Returns the marked
    cells, sorted; raises ValueError naming the line and column of the first mistake."""
    lines = [re.sub(r"\s", "", line) for line in text.splitlines()]
    lines = [line for line in lines if line]
    if len(lines) > 1:
        for k, line in enumerate(lines):
            if len(line) != n:
                raise ValueError(f"line {k + 1} has {len(line)} cells; draw {n} lines of {n} cells")
    chars = "".join(lines)
    if len(chars) != n * n:
        raise ValueError(f"has {len(chars)} cells; a {n}x{n} board needs {n * n} ({n} lines of {n})")
    out = []
    for i, ch in enumerate(chars):
        if ch in MASK_IN:
            out.append(i)
        elif ch not in MASK_OUT:
            r, c = divmod(i, n)
            raise ValueError(f"line {r + 1}, column {c + 1}: {ch!r} is neither a given/cell (# X 1) nor a blank (. 0)")
    return tuple(out)


_CELL = re.compile(r"^r(\d+)c(\d+)$", re.IGNORECASE)


def parse_cells(text: str, n: int) -> tuple[int, ...]:
    """An area's cells: ``r1c1-r3c3`` rectangles (corners inclusive) and ``r5c5`` cells joined by
    commas (1-based), or a drawn mask (:func:`parse_mask`). Sorted, at least one; raises ValueError."""
    if all(ch in MASK_IN + MASK_OUT or ch.isspace() for ch in text):
        cells = parse_mask(text, n)
    else:
        found: set[int] = set()
        for part in text.split(","):
            ends = []
            for end in part.strip().split("-"):
                m = _CELL.match(end.strip())
                if m is None:
                    raise ValueError(f"{echo(part.strip())} is not a cell like r1c1 or a range like r1c1-r3c3")
                r, c = int(m[1]), int(m[2])
                if not (1 <= r <= n and 1 <= c <= n):
                    raise ValueError(f"{end.strip()} is off the board (rows and columns 1-{n})")
                ends.append((r - 1, c - 1))
            if len(ends) > 2:
                raise ValueError(f"{echo(part.strip())} is not a cell like r1c1 or a range like r1c1-r3c3")
            (r0, c0), (r1, c1) = ends[0], ends[-1]
            found.update(r * n + c for r in range(min(r0, r1), max(r0, r1) + 1)
                         for c in range(min(c0, c1), max(c0, c1) + 1))
        cells = tuple(sorted(found))
    if not cells:
        raise ValueError("no cells")
    return cells


def digit_map(text: str, n: int) -> tuple[int, ...]:
    """``grid.solution_symmetry.digits`` as ``(p(1), ..., p(n))``: ``reverse``, ``identity``, or the
    ``n`` symbols ``p(1) ... p(n)``; raises ValueError unless it is a permutation of the digits."""
    if text == "reverse":
        return tuple(range(n, 0, -1))
    if text == "identity":
        return tuple(range(1, n + 1))
    alphabet = SYMBOLS[:n]
    word = text.strip().upper()
    bad = [ch for ch in word if ch not in alphabet]
    missing = [ch for ch in alphabet if ch not in word]
    if bad or len(word) != n or missing:
        why = (f"{bad[0]!r} is not a digit of a {n}x{n} board" if bad else
               f"{len(word)} digits" if len(word) != n else f"{missing[0]} is missing")
        raise ValueError(f"{echo(text)} is not reverse, identity or a permutation of {alphabet} ({why})")
    return tuple(alphabet.index(ch) + 1 for ch in word)


def _cycles(perm: tuple[int, ...], members: list[int]) -> tuple[int, ...]:
    """Cycle lengths (longest first) of ``perm`` on ``members`` (a set it maps onto itself; 0-based)."""
    seen: set[int] = set()
    out = []
    for x in members:
        if x in seen:
            continue
        k, y = 0, x
        while y not in seen:
            seen.add(y)
            y = perm[y]
            k += 1
        out.append(k)
    return tuple(sorted(out, reverse=True))


def _words(lengths: tuple[int, ...], what: str) -> str:
    """Cycle lengths in words: ``(2, 2, 1)`` -> ``1 fixed cell and 2 swapped pairs``."""
    fixed, pairs, longer = lengths.count(1), lengths.count(2), [k for k in lengths if k > 2]
    parts = [f"{fixed} fixed {what}{'s' if fixed != 1 else ''}" if fixed else f"no fixed {what}"]
    if pairs:
        parts.append(f"{pairs} swapped pair{'s' if pairs != 1 else ''}")
    if longer:
        parts.append(f"{len(longer)} cycle{'s' if len(longer) != 1 else ''} of {longer[0]}")
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _unit_name(b: Board, k: int) -> str:
    kind, idx = divmod(k, b.n)
    return f"{('row', 'column', 'box')[kind]} {idx + 1}"


def image_problem(name: str, p: tuple[int, ...], n: int) -> str | None:
    """Why no grid of side ``n`` can satisfy ``grid[m(i)] = p(grid[i])`` for the map ``name`` and
    digit map ``p`` (``p[d - 1] = p(d)``), by reasoning a reader can follow; None when this reasoning
    finds no obstacle (the integer program has the last word before the run).

    The reasoning (seed 003's footnote: "a plain mirror image repeats digits in a row"): applying the
    map ``k`` times (``k`` its order) gives back every cell, so ``p`` applied ``k`` times must give back
    every digit. A unit that ``m^t`` maps onto itself holds every digit once, and the digit of a cell
    goes where ``p^t`` sends it, so ``p^t`` must split the digits into cycles of the same lengths as
    ``m^t`` splits the unit's cells (a digit in a shorter cycle would appear twice in the unit); two
    such units that ``m^t`` splits differently rule the map out for every ``p``. A cell that ``m^t``
    sends to another cell of one of its units needs ``p^t`` to move its digit: ``p^t`` cannot be the
    identity. A cell that ``m^t`` keeps in place needs a digit ``p^t`` keeps."""
    b = board(n)
    m = symmetry.permutation(name, n)
    order = 4 if name in ("rot90", "rot270") else 2
    pz = tuple(d - 1 for d in p)  # 0-based

    def power(perm: tuple[int, ...], t: int) -> tuple[int, ...]:
        out = tuple(range(len(perm)))
        for _ in range(t):
            out = tuple(perm[x] for x in out)
        return out

    back = power(pz, order)
    if any(back[d] != d for d in range(n)):
        d = next(d for d in range(n) if back[d] != d)
        trail = [d]
        for _ in range(order):
            trail.append(pz[trail[-1]])
        steps = " -> ".join(SYMBOLS[x] for x in trail)
        return (f"{name} applied {order} times gives back every cell, so the digit map applied {order} times must "
                f"give back every digit, but it sends {steps}")
    for t in range(1, order):
        mt, pt = power(m, t), power(pz, t)
        label = name if t == 1 else f"{name} applied {t} times"
        fixers = [(k, _cycles(mt, list(u))) for k, u in enumerate(b.units) if {mt[i] for i in u} == set(u)]
        kinds = {c for _, c in fixers}
        if len(kinds) > 1:
            (k1, c1), (k2, c2) = fixers[0], next(f for f in fixers if f[1] != fixers[0][1])
            return (f"{name} cannot hold on a {n}x{n} board with any digit map: {label} maps {_unit_name(b, k1)} "
                    f"onto itself with {_words(c1, 'cell')}, and {_unit_name(b, k2)} with {_words(c2, 'cell')}; "
                    "as each unit holds every digit once, the digit map would need both (seed 003's footnote: a "
                    "plain mirror image repeats digits in a row)")
        have = _cycles(pt, list(range(n)))
        if fixers and have != fixers[0][1]:
            k, want = fixers[0]
            unit = _unit_name(b, k)
            times = f" applied {t} times" if t > 1 else ""
            return (f"{label} maps {unit} onto itself with {_words(want, 'cell')}; each digit of {unit} goes where "
                    f"the digit map sends it, so the digit map{times} needs {_words(want, 'digit')} too (a digit in "
                    f"a shorter cycle would appear twice in {unit}), but it has {_words(have, 'digit')}")
        if all(pt[d] == d for d in range(n)):
            peer = next(((i, mt[i]) for i in range(n * n) if mt[i] != i and mt[i] in b.peers[i]), None)
            if peer is not None:
                (ra, ca), (rb, cb) = divmod(peer[0], n), divmod(peer[1], n)
                return (f"{label} sends r{ra + 1}c{ca + 1} to r{rb + 1}c{cb + 1}, a cell of the same unit, so the "
                        f"digit map must move its digit; {'it' if t == 1 else f'applied {t} times it'} moves none "
                        "(seed 003's footnote: with the same digits, a symmetric grid repeats a digit in a unit)")
        if any(mt[i] == i for i in range(n * n)) and all(pt[d] != d for d in range(n)):
            i = next(i for i in range(n * n) if mt[i] == i)
            return (f"{label} keeps r{i // n + 1}c{i % n + 1} in place, so its digit must be one the digit map keeps; "
                    "it keeps none")
    return None


def area_problem(cells: tuple[int, ...], digits: tuple[int, ...], rule: str, n: int) -> str | None:
    """Why an area rule cannot hold on any grid of side ``n``, by counting; None when counting finds no
    obstacle. ``only`` puts every copy of the digits (one per row, column and box) in the cells, so
    the cells must meet every row, column and box and number at least ``n`` per digit; ``never``
    puts them all outside, so the other cells must; ``somewhere`` needs a cell per digit."""
    if len(set(digits)) != len(digits):
        d = next(d for d in digits if digits.count(d) > 1)
        return f"digits: {d} is listed twice"
    if max(digits) > n:
        return f"digits: {max(digits)} is not a digit of a {n}x{n} board (1-{n})"
    if rule == "somewhere":
        if len(cells) < len(digits):
            them = "them" if len(cells) != 1 else "it"
            return (f"{len(cells)} cell{'s' if len(cells) != 1 else ''} cannot hold the {len(digits)} digits that "
                    f"must each appear in {them}")
        return None
    b = board(n)
    room = set(cells) if rule == "only" else set(range(n * n)) - set(cells)
    where = "the cells" if rule == "only" else "the other cells"
    for k, u in enumerate(b.units):
        if not room.intersection(u):
            verb = "miss" if rule == "only" else "cover all of"
            return (f"each digit appears once in every row, column and box, but the cells (rule {rule}) {verb} "
                    f"{_unit_name(b, k)}")
    need = n * len(digits)
    if len(room) < need:
        return (f"the {len(digits)} digit{'s' if len(digits) != 1 else ''} fill {need} cells ({n} each), {where} "
                f"number {len(room)} (rule {rule})")
    return None


def pattern_problem(cells: tuple[int, ...], n: int) -> str | None:
    """Why no puzzle whose givens are exactly ``cells`` can be unique, or None: fewer givens than the
    known minimum (:data:`MIN_HINTS`), or two rows of one band (two columns of one stack) without a
    given, since swapping them in a solution gives another solution that agrees with every given."""
    floor = MIN_HINTS.get(n)
    if floor is not None and len(cells) < floor:
        return (f"{len(cells)} givens; no {n}x{n} puzzle with fewer than {floor} givens has a unique solution "
                "(9x9: McGuire et al. 2012)")
    b = board(n)
    rows = {i // n for i in cells}
    cols = {i % n for i in cells}
    for kind, used, size in (("rows", rows, b.box_rows), ("columns", cols, b.box_cols)):
        for start in range(0, n, size):
            empty = [x for x in range(start, start + size) if x not in used]
            if len(empty) >= 2:
                group = "band" if kind == "rows" else "stack"
                return (f"{kind} {empty[0] + 1} and {empty[1] + 1} (one {group}) have no givens: swapping them in "
                        "a solution gives a second one, so no puzzle with this pattern is unique")
    return None


_SECTIONS: dict[str, type[BaseModel]] = {
    "": Config, "board": BoardCfg, "board.cages": CagesCfg, "grid": GridCfg,
    "grid.solution_symmetry": SolutionSymmetryCfg,
    "grid.areas": AreaCfg, "removal": RemovalCfg,
    "removal.hints": HintsCfg, "output": OutputCfg, "difficulty": DifficultyCfg, "difficulty.score": ScoreCfg,
    "dedup": DedupCfg, "executor": ExecutorCfg,
}


def _message(err: ValidationError) -> str:
    """One line for the first error: ``field.path: what is wrong``."""
    e = err.errors()[0]
    loc = [str(p) for p in e["loc"] if not str(p).startswith(("function-", "literal[", "int", "str"))]
    path = ".".join(loc)
    if e["type"] == "extra_forbidden":
        parent, key = ".".join(loc[:-1]), loc[-1]
        parent = re.sub(r"\.\d+(?=\.|$)", "", parent)  # grid.areas.2 -> the section of grid.areas
        fields = list(_SECTIONS[parent].model_fields) if parent in _SECTIONS else []
        near = difflib.get_close_matches(key, fields, n=1)
        hint = f" (did you mean {near[0]}?)" if near else f" (known keys: {', '.join(fields)})"
        return f"{path}: unknown key{hint}"
    if e["type"] == "missing":
        return f"{path}: required key is missing"
    msg = re.sub(r"^(Value error|Assertion failed), ", "", e["msg"])
    if ":" in msg.split(" ")[0]:  # message already names its field
        return msg
    if e["type"] == "literal_error":
        return f"{path}: {echo(e.get('input'))} is not allowed; {msg[0].lower()}{msg[1:]}"
    return f"{path}: {msg}" if path else msg


class _LoaderError(yaml.constructor.ConstructorError):
    """A config the loader refuses (``problem`` says why, ``problem_mark`` where): a key given twice
    in one mapping, an alias, or nesting deeper than :data:`MAX_DEPTH`."""


class _UniqueKeyLoader(yaml.SafeLoader):
    """``yaml.safe_load``'s loader (same tags, same safety) that also refuses:

    * a key repeated in one mapping (instead of keeping the last value);
    * any alias (``*name``, including merges ``<<: *name``): an alias bomb cannot expand, and no
      error message can echo an expansion; a lone anchor (``&name``) is harmless and allowed;
    * nesting deeper than :data:`MAX_DEPTH` mappings/sequences (no RecursionError).

    Aliases and depth are refused while composing, before any object is built."""

    _depth = 0

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise _LoaderError(None, None, f"alias *{event.anchor}: aliases are not allowed in a config "
                               "(write the value out)", event.start_mark)
        nested = self.check_event(yaml.MappingStartEvent, yaml.SequenceStartEvent)
        if nested and self._depth >= MAX_DEPTH:
            raise _LoaderError(None, None, f"nested more than {MAX_DEPTH} levels deep", self.peek_event().start_mark)
        self._depth += nested
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= nested

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":  # an inline merge (<<: {...}) may be overridden
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                repeated = key in seen
                seen.add(key)
            except TypeError:  # an unhashable key: the base class reports it
                continue
            if repeated:
                raise _LoaderError(None, None, f"duplicate key {echo(key)}", key_node.start_mark)
        return super().construct_mapping(node, deep=deep)


def validate(data: Any) -> Config:
    """Validate a parsed config mapping; raises :class:`ConfigError` with one line."""
    if not isinstance(data, dict):
        raise ConfigError("config must be a mapping of keys (name, seed, count, ...)")
    try:
        return Config.model_validate(data)
    except ValidationError as err:
        raise ConfigError(_message(err)) from None


def load(path: Path, overrides: dict[str, Any] | None = None) -> Config:
    """Read (:func:`read_yaml`), apply ``overrides`` (dotted keys, e.g. ``{"output.dir": "x"}``; a
    None value is no override, :data:`DROP` removes the key), validate. Every problem is one
    :class:`ConfigError` line naming the path, line or field."""
    data = read_yaml(path)
    if isinstance(data, dict):
        for dotted, value in (overrides or {}).items():
            if value is None:
                continue
            node = data
            *parents, leaf = dotted.split(".")
            for p in parents:
                node = node.setdefault(p, {}) if isinstance(node.get(p, {}), dict) else {}
            if value is DROP:
                node.pop(leaf, None)
            else:
                node[leaf] = value
    return validate(data)


def read_yaml(path: Path, what: str = "config") -> Any:
    """The YAML document at ``path``, read the one way every numplace YAML file is read (run and
    book configs). Every problem is one :class:`ConfigError` line naming the path (and the line):
    a missing or unreadable file (a folder, a symlink loop, no permission), a file over
    :data:`MAX_BYTES`, text that is not UTF-8, invalid YAML, a duplicate key, an alias, too deep a
    nest. ``what`` names the kind of file in the messages."""
    try:
        with open(path, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            raw = fh.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise ConfigError(f"{path}: {what} file not found") from None
    except OSError as exc:  # a folder, a symlink loop, no permission, ...
        why = exc.strerror or exc.__class__.__name__
        raise ConfigError(f"{path}: cannot read {what} ({why})") from None
    if len(raw) > MAX_BYTES:
        raise ConfigError(f"{path}: {what} file is too large ({max(size, len(raw)):,} bytes; at most "
                          f"{MAX_BYTES:,})")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: cannot read {what} (not UTF-8 text)") from None
    try:
        return yaml.load(text, Loader=_UniqueKeyLoader)  # a SafeLoader subclass: safe_load's safety
    except _LoaderError as exc:
        assert exc.problem_mark is not None
        raise ConfigError(f"{path}:line {exc.problem_mark.line + 1}: {exc.problem}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise ConfigError(f"{path}:{where}: {problem}") from None
    except RecursionError:  # the depth limit should come first; never a traceback
        raise ConfigError(f"{path}: nested too deeply") from None


#: Keys added to the config after runs already existed, with the value that means "as before": at
#: that value a key is left out of the hash, so a config that does not use it hashes as it did before
#: the key existed (a run made then still resumes, and the set's next run is not "another config").
#: A key that is added must be listed here with its default.
ADDED_KEYS: dict[tuple[str, ...], Any] = {
    # issue 16: variants
    ("board", "variant"): "classic",
    ("board", "regions"): None,
    ("board", "cages"): None,
    # issue 16: designed grids and clue patterns (the JSON form of each default: areas dump as a list)
    ("grid", "solution_symmetry"): None,
    ("grid", "areas"): [],
    ("removal", "pattern"): None,
    # issue 15: steering toward the requested difficulty
    ("difficulty", "steer"): False,
}


def hash_of(data: Mapping[str, Any]) -> str:
    """:func:`config_hash` of a config as ``Config.model_dump(mode="json")`` gave it (also one a
    manifest saved): excludes ``workers``, ``executor`` and ``output.dir`` (where and on how many
    processes puzzles are made never changes them) and :data:`ADDED_KEYS` at their old meaning."""
    data = dict(json.loads(json.dumps(data)))
    data.pop("workers", None)
    data.pop("executor", None)
    data["output"].pop("dir", None)
    for path, default in ADDED_KEYS.items():
        *parents, last = path
        holder: Any = data
        for key in parents:
            holder = holder.get(key) if isinstance(holder, dict) else None
        if isinstance(holder, dict) and last in holder and holder[last] == default:
            del holder[last]
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def config_hash(cfg: Config) -> str:
    """16 hex digits identifying the puzzle set (see :func:`hash_of`)."""
    return hash_of(cfg.model_dump(mode="json"))


def parse_workers(text: str, flag: str = "--workers") -> int | str:
    """A worker count as typed on the command line: ``auto`` or a whole number >= 1 (the same rule
    as the ``workers`` key); raises :class:`ConfigError` naming ``flag``."""
    if text == "auto":
        return text
    if text.isdigit() and int(text) >= 1:
        return int(text)
    raise ConfigError(f"{flag}: {echo(text)} is not 'auto' or a number of workers >= 1")


def worker_count(workers: int | str) -> int:
    """The number of worker processes ``workers`` (``auto`` or a number) stands for on this machine:
    ``auto`` is the CPUs this process may run on."""
    if workers == "auto":
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except AttributeError:  # not on Linux
            return max(1, os.cpu_count() or 1)
    return int(workers)
