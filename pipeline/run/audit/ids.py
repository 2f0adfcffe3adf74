"""The identity of each row and duplicates across the set: ids, seeds, and the keys the catalog holds.

:class:`Expect` is what a run's manifest says every row of the run must carry (set name, config hash,
a seed of its index, board size and variant, the design of :mod:`.design`). :func:`identity` checks a
row against it: ``puzzle_id`` is the id of ``index``; ``set_name`` and ``config_hash`` are the run's;
``seed`` is the seed of ``index`` from the set's seed, a redraw of it, or the seed the manifest's
``from_stock`` lists for a stock puzzle placed there. :class:`Findings` collects the row findings
(capped) and finds rows that share a ``puzzle_id`` or a dedup key (:func:`pipeline.run.rows.dedup_key`,
what the catalog holds: the same puzzle up to the validity-preserving group).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pipeline.board import Variant, make_variant
from pipeline.difficulty.techniques import GRADER_VERSION
from pipeline.generate.spec import puzzle_seed
from pipeline.run import rows
from pipeline.run.audit.design import RunDesign
from pipeline.run.audit.manifests import redraw_rounds
from pipeline.run.manifest import Manifest


@dataclass(frozen=True)
class Expect:
    """What a run's manifest says every row of the run must carry."""

    set_name: str | None
    config_hash: str | None
    config_seed: int | None
    board_size: int | None
    rounds: int  # redraws an index may have had (dedup or quota)
    stock: dict[int, int]  # index -> seed of the stock puzzle placed there
    design: RunDesign | None = None  # what the solution and the givens must honour (designed grids), if any
    rules: Variant | None = None  # board.variant and board.regions of the config (killer: without cages)
    grader_version: int = GRADER_VERSION  # the grading rules the run's rows were graded by

    @classmethod
    def of(cls, m: Manifest) -> Expect:
        cfg = m.config
        seed = cfg.get("seed")
        size = cfg.get("board", {}).get("size") if isinstance(cfg.get("board"), dict) else None
        stock: dict[int, int] = {}
        for pick in m.from_stock:
            if isinstance(pick.get("index"), int) and isinstance(pick.get("seed"), int):
                stock[pick["index"]] = pick["seed"]
        try:
            design = RunDesign.of(cfg)
        except ValueError:
            design = None  # a run finding (manifests.run_problems); the rows are not judged by it
        board_cfg: dict[str, Any] = cfg["board"] if isinstance(cfg.get("board"), dict) else {}
        try:
            rules: Variant | None = make_variant(board_cfg.get("variant"), board_cfg.get("regions"))
        except (TypeError, AttributeError):
            rules = None
        return cls(m.set_name, m.config_hash, seed if isinstance(seed, int) else None,
                   size if isinstance(size, int) else None, redraw_rounds(cfg), stock, design, rules,
                   m.grader_version)

    def seed_ok(self, index: int, seed: int) -> bool:
        """Whether ``seed`` is one a run could have given index ``index``: its own, a redraw's, or the
        listed stock puzzle's."""
        if self.config_seed is None:
            return True
        if seed == puzzle_seed(self.config_seed, index) or self.stock.get(index) == seed:
            return True
        return any(seed == puzzle_seed(self.config_seed, index, r) for r in range(1, self.rounds + 1))


class Findings:
    """Row findings in order, at most ``cap`` lines (then one line saying how many more rows), and
    what duplicate detection needs: the ids and dedup keys seen so far."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.lines: list[str] = []
        self.rows = 0  # rows with at least one finding
        self.ids: dict[str, str] = {}  # puzzle_id -> label of its part
        self.keys: dict[str, tuple[str, str, str]] = {}  # dedup key -> (puzzle_id, label, puzzle)

    def duplicates(self, puzzle_id: str, key: str, puzzle: str, label: str) -> list[str]:
        """Findings for a row whose ``puzzle_id`` or dedup ``key`` an earlier row already holds."""
        out = []
        if puzzle_id in self.ids:
            out.append(f"puzzle_id also used in {self.ids[puzzle_id]}")
        else:
            self.ids[puzzle_id] = label
        if key in self.keys:
            other, where, first = self.keys[key]
            same = "the same puzzle as" if first == puzzle else \
                "the same puzzle up to relabelling and symmetry (same canonical form) as"
            out.append(f"{same} {other} (in {where})")
        else:
            self.keys[key] = (puzzle_id, label, puzzle)
        return out

    def row(self, puzzle_id: object, label: str, found: list[str]) -> None:
        if not found:
            return
        self.rows += 1
        if self.rows <= self.cap:
            self.lines.append(f"{puzzle_id}: {'; '.join(found)} (in {label})")

    def close(self) -> list[str]:
        more = self.rows - self.cap
        return self.lines + ([f"... and {more} more rows with problems"] if more > 0 else [])


def identity(row: Mapping[str, Any], expect: Expect | None) -> list[str]:
    """``puzzle_id`` against ``index``; with the run's manifest, ``set_name``, ``config_hash``,
    ``seed`` and the board size too."""
    out = []
    set_name = expect.set_name if expect is not None and expect.set_name is not None else row["set_name"]
    index = row["index"]
    want = rows.puzzle_id(set_name, index)
    if row["puzzle_id"] != want:
        out.append(f"puzzle_id is not {want}, the id of index {index} of set {set_name}")
    if expect is None:
        return out
    if expect.set_name is not None and row["set_name"] != expect.set_name:
        out.append(f"set_name is {row['set_name']!r}, the run's manifest says {expect.set_name!r}")
    if expect.config_hash is not None and row["config_hash"] != expect.config_hash:
        out.append(f"config_hash is {row['config_hash']}, the run's manifest says {expect.config_hash}")
    if not expect.seed_ok(index, row["seed"]):
        out.append(f"seed {row['seed']} is not a seed of index {index} (set seed {expect.config_seed}, nor a "
                   "redraw or a stock puzzle the manifest lists)")
    if expect.board_size is not None and index not in expect.stock and row["size"] != expect.board_size:
        out.append(f"size is {row['size']}, the run's config has board size {expect.board_size}")
    if expect.rules is not None and index not in expect.stock:
        have = make_variant(row.get("variant"), row.get("regions"))
        if have.kinds != expect.rules.kinds:
            out.append(f"variant is {list(have.kinds)}, the run's config has {list(expect.rules.kinds)}")
        elif have.regions != expect.rules.regions:
            out.append("regions are not the run's board.regions")
    return out
