"""Solve, count and repair one puzzle (the seeds' solver features, as a library): exact search first, the ILP
where the search runs out of budget and for repairs.

Contracts (after tdoku's header):

* Input is a :data:`~pipeline.board.Grid` of a supported size (4, 6, 9, 16), 0 = blank. Parse text
  with :func:`pipeline.board.parse` first; that is where bad symbols and lengths are reported.
* :func:`count_solutions` finds up to ``limit`` distinct solutions (``limit >= 1``); ``status`` is
  ``none`` / ``unique`` / ``multiple`` (``count == limit`` means *at least* that many), or
  ``timeout`` when a solve hit the engine's time limit.
* :func:`solve` is ``count_solutions(puzzle, 2)`` plus, for ``none``, a reason in words where one
  is visible without search (``row 1 has two 8s (columns 3 and 7)``; :func:`pipeline.board.conflict`,
  no solver involved), else a fixed sentence.
* Who answers: the exact search of :mod:`pipeline.solve.search` (pure Python, then the compiled
  counter), and the ILP only where both run out of their node budgets. Every tier is exact, so the
  count and status are the ILP's; a unique puzzle's solution is the same grid; with several
  solutions, which ones are listed depends on the tier (each is a solution). The ILP (pyomo,
  highspy) is imported only when it is needed: always for :func:`repair`'s changes, never for
  solving or counting an ordinary puzzle.
* :func:`repair` changes the fewest givens so that the puzzle has a solution (seed 003's penalty
  variables; seed 000's "keep as many givens as possible" has the same optimum). A sound puzzle is
  returned unchanged. Changes are 0-based ``(row, col, from, to)`` with symbols as characters.
  Among the optimal repairs one whose repaired puzzle is unique is preferred (the one HiGHS finds
  first when it is unique, else the first unique one of the optimal face as :func:`repair` walks
  it); ``repaired_status`` says whether the repaired puzzle is unique, and when it is not, ``note``
  says plainly that no repair with as few changes is (or none was found within the walk's bounds).
  Among repairs with equally few changes, one that changes only givens of the puzzle's clashes
  (:func:`pipeline.solve.why.clashes`, the ``--why`` cores) is preferred: the wrong given is one
  of them. ``alternatives`` lists other repairs found that are as good (as few changes, as much
  inside the clashes, unique when the chosen one is), so a caller can say the choice was not forced.
* Variants (``variant=``, :class:`~pipeline.board.Variant`, killer cages included): the compiled
  counter with the variant's units and cage propagation decides, the ILP with the variant's rows
  where its budget runs out; a repair is the same objective on the variant's IP. Classic puzzles
  take exactly the path above.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from pipeline.board import SYMBOLS, Grid, Variant, board, conflict, format_line, size_of_grid
from pipeline.ilp.result import CountResult
from pipeline.solve import search

if TYPE_CHECKING:
    from pipeline.ilp.engine import Engine

Status = Literal["unique", "multiple", "none", "repaired", "timeout"]


@dataclass(frozen=True)
class Change:
    """One given changed by :func:`repair` (0-based row and column; symbols as characters)."""

    row: int
    col: int
    old: str
    new: str

    def as_json(self) -> dict[str, object]:
        return {"row": self.row, "col": self.col, "from": self.old, "to": self.new}

    def __str__(self) -> str:
        return f"r{self.row + 1}c{self.col + 1}: {self.old} -> {self.new}"


@dataclass(frozen=True)
class SolveResult:
    status: Status
    puzzle: Grid
    solutions: tuple[Grid, ...]
    limit: int = 2
    reason: str | None = None

    @property
    def solution(self) -> Grid | None:
        return self.solutions[0] if self.solutions else None


@dataclass(frozen=True)
class RepairResult:
    status: Status  # "repaired" when givens changed; else the puzzle's own status
    puzzle: Grid
    repaired: Grid
    changes: tuple[Change, ...]
    solution: Grid | None
    repaired_status: Status
    solutions_found: int  # solutions of the repaired puzzle, counted up to 2
    #: set when the repaired puzzle is not unique: that no repair with as few changes is unique
    #: (``no repair with 1 change gives a unique puzzle``), or none was found so; else None
    note: str | None = None
    #: every other repair as good as this one (as few changes; unique when this one is), one per set of
    #: changed givens, each its changes; at most :data:`ALTERNATIVES` (``capped``: there are more)
    alternatives: tuple[tuple[Change, ...], ...] = ()
    #: every change is a given of the puzzle's clashes (:func:`pipeline.solve.why.clashes`)
    inside: bool = False
    #: :data:`ALTERNATIVES` were listed and there are more repairs as good
    capped: bool = False


def _variant(variant: Variant | None) -> Variant | None:
    return None if variant is None or variant.classic else variant


def count_solutions(puzzle: Grid, limit: int = 2, *, compiled_first: bool = False,
                    variant: Variant | None = None) -> CountResult:
    """Up to ``limit`` solutions of ``puzzle`` (see the module contract).

    ``compiled_first`` (for batches) goes straight to the compiled counter, skipping the
    pure-Python search that spares a one-puzzle process the numba load (:func:`pipeline.solve.search.find`).
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    variant = _variant(variant)
    if variant is None:
        found = search.find(puzzle, limit, compiled_first=compiled_first)
    else:
        from pipeline.generate import count_jit

        found = count_jit.solutions(puzzle, limit, variant=variant)
    if found is not None:
        return CountResult(len(found), limit, found)
    from pipeline.ilp.engine import engine_for  # only where the exact search ran out of budget

    return engine_for(size_of_grid(puzzle), variant=variant).certified_count(puzzle, limit)


def _status(result: CountResult) -> Status:
    return result.status  # type: ignore[return-value]


def solve(puzzle: Grid, limit: int = 2, *, compiled_first: bool = False, variant: Variant | None = None) -> SolveResult:
    """Solve ``puzzle``, telling unique from multiple (up to ``limit``) and none (with a reason).
    ``compiled_first``, ``variant``: as for :func:`count_solutions`."""
    result = count_solutions(puzzle, limit, compiled_first=compiled_first, variant=variant)
    reason = None
    if result.status == "none":
        reason = conflict(puzzle, _variant(variant)) or "the givens admit no solution (no two givens clash directly)"
    return SolveResult(_status(result), puzzle, result.solutions, limit, reason)


#: How many sets of givens to change, at most, :func:`repair` looks at for a unique repaired puzzle.
REPAIR_SETS = 32
#: How many puzzles :func:`repair` counts, at most, in one such set's search for a unique repair.
REPAIR_NODES = 256


def count_line(result: SolveResult) -> str:
    """The status as ``numplace solve --count`` prints it (a contract the studio shows verbatim):
    ``unique``, ``none``, ``timeout`` or ``multiple: [at least ]K solutions (limit L)``."""
    if result.status != "multiple":
        return result.status
    found = len(result.solutions)
    many = "at least " if found >= result.limit else ""
    return f"multiple: {many}{found} solutions (limit {result.limit})"


def repair(puzzle: Grid, *, compiled_first: bool = False, variant: Variant | None = None,
           core: Collection[int] | None = None) -> RepairResult:
    """Change the fewest givens so that ``puzzle`` has a solution (unchanged if it has one), preferring
    a repair whose result is unique; ``note`` says plainly when none is.

    The repair HiGHS finds first is kept when its result is unique. Otherwise the repairs with as
    few changes are looked through (:func:`_unique_on_face`) and the first unique one is returned;
    when there is none, or none was found within the bounds, the first repair is returned with a
    ``note``. The counts are :func:`count_solutions`'s (``compiled_first``, ``variant`` as there); the
    repair is the ILP's (for a variant: its rows, cages included, are kept; only givens change).
    ``core``: the givens of the puzzle's clashes to prefer changing (None: :func:`why.clashes`'s)."""
    n = size_of_grid(puzzle)
    variant = _variant(variant)
    first = count_solutions(puzzle, 2, compiled_first=compiled_first, variant=variant)
    if first.status in ("unique", "multiple"):
        return RepairResult(_status(first), puzzle, puzzle, (), first.solutions[0], _status(first), first.count)
    if first.status == "timeout":
        return RepairResult("timeout", puzzle, puzzle, (), None, "timeout", 0)
    from pipeline.ilp.engine import engine_for  # the repair IP: the one step only the ILP does

    engine = engine_for(n, variant=variant)
    out = engine.closest(puzzle)
    if out.status != "feasible" or out.grid is None:
        return RepairResult("timeout", puzzle, puzzle, (), None, "timeout", 0)
    if core is None:
        from pipeline.solve import why  # why counts with this module: imported here, not at the top

        try:
            core = why.clashes(puzzle, variant=variant).cells()
        except why.Undecided:
            core = frozenset()
    inside = frozenset(core)
    grid = out.grid
    givens = [i for i, d in enumerate(puzzle) if d]
    keep = sum(1 for i in givens if puzzle[i] == grid[i])
    pinned = [frozenset((i,)) for i in givens if i not in inside]  # keep every given outside the clashes
    if inside and any(puzzle[i] != grid[i] for i in givens if i not in inside):
        within = engine.closest(puzzle, keep, pinned)
        if within.status == "feasible" and within.grid is not None:
            grid = within.grid
    else:
        pinned = pinned if inside else []
    best = _repaired(puzzle, grid, compiled_first, variant)
    if best.repaired_status != "unique":
        best = _unique_on_face(engine, puzzle, best, compiled_first, variant)
    within_clashes = bool(inside) and all(c.row * n + c.col in inside for c in best.changes)
    others, capped = _alternatives(engine, puzzle, best, keep, compiled_first, variant)
    return replace(best, alternatives=others, inside=within_clashes, capped=capped)


#: At most this many other repairs as good as the chosen one are listed (``capped`` says there are more).
ALTERNATIVES = 12
#: Sets of changed givens looked at for them (each one ILP solve, cut off before the next).
ALTERNATIVE_SETS = 40


def _alternatives(engine: Engine, puzzle: Grid, best: RepairResult, keep: int, compiled_first: bool,
                  variant: Variant | None) -> tuple[tuple[tuple[Change, ...], ...], bool]:
    """Every other repair as good as ``best`` (as few changes: ``keep`` givens kept; unique when
    ``best`` is), and whether the list was cut at :data:`ALTERNATIVES`. The optimal face is walked
    with no-good cuts: each set of changed givens found is cut off before the next ILP solve (at most
    :data:`ALTERNATIVE_SETS` solves); when ``best`` is unique, each set (``best``'s too) is searched
    for every choice of digits that makes the puzzle unique (:func:`_unique_in_set`), each listed.
    Whether a change is inside the clashes does not matter here: the editor chooses."""
    n = size_of_grid(puzzle)
    seen = [frozenset(c.row * n + c.col for c in best.changes)]
    out: list[tuple[Change, ...]] = []

    def add(cells: frozenset[int], first: RepairResult) -> None:
        """Every unique repair changing ``cells`` (other digits too), or ``first`` when ``best`` is not unique."""
        if best.repaired_status != "unique":
            if first.changes != best.changes:
                out.append(first.changes)
            return
        every: list[RepairResult] = []
        _unique_in_set(puzzle, sorted(cells), compiled_first, variant, every)
        out.extend(r.changes for r in every if r.changes != best.changes and r.changes not in out)

    add(seen[0], best)
    for _ in range(ALTERNATIVE_SETS):
        found = engine.closest(puzzle, keep, seen)
        if found.status != "feasible" or found.grid is None:
            return tuple(out), False
        if len(out) >= ALTERNATIVES:
            return tuple(out[:ALTERNATIVES]), True
        other = _repaired(puzzle, found.grid, compiled_first, variant)
        cells = frozenset(c.row * n + c.col for c in other.changes)
        seen.append(cells)
        add(cells, other)
    return tuple(out[:ALTERNATIVES]), True


def _repaired(puzzle: Grid, grid: Grid, compiled_first: bool, variant: Variant | None) -> RepairResult:
    """The repair of ``puzzle`` that takes the givens' cells from ``grid``, its result counted up to 2."""
    n = size_of_grid(puzzle)
    changes = tuple(Change(i // n, i % n, SYMBOLS[d - 1], SYMBOLS[grid[i] - 1])
                    for i, d in enumerate(puzzle) if d and d != grid[i])
    repaired = tuple(grid[i] if d else 0 for i, d in enumerate(puzzle))
    after = count_solutions(repaired, 2, compiled_first=compiled_first, variant=variant)
    solution = after.solutions[0] if after.solutions else grid
    return RepairResult("repaired", puzzle, repaired, changes, solution, _status(after), after.count)


def _unique_on_face(engine: Engine, puzzle: Grid, first: RepairResult, compiled_first: bool,
                    variant: Variant | None) -> RepairResult:
    """A repair with as many changes as ``first`` whose result is unique, else ``first`` with a note.

    The sets of givens such a repair changes are walked with :meth:`Engine.closest` (``keep`` = the
    givens ``first`` keeps, each set found cut off), ``first``'s set first, at most
    :data:`REPAIR_SETS`; each set is searched by :func:`_unique_in_set`. The note says whether
    "none is unique" was proved or only that none was found within these bounds.
    """
    n = size_of_grid(puzzle)
    k = len(first.changes)
    keep = sum(1 for d in puzzle if d) - k
    sets = [frozenset(c.row * n + c.col for c in first.changes)]
    proved = True
    while True:
        found = _unique_in_set(puzzle, sorted(sets[-1]), compiled_first, variant)
        if isinstance(found, RepairResult):
            return found
        proved = proved and found
        if len(sets) == REPAIR_SETS:
            proved = False
            break
        out = engine.closest(puzzle, keep, sets)
        if out.status == "infeasible":
            break
        if out.status != "feasible" or out.grid is None:
            proved = False
            break
        sets.append(frozenset(i for i, d in enumerate(puzzle) if d and d != out.grid[i]))
    plural = "" if k == 1 else "s"
    note = (f"no repair with {k} change{plural} gives a unique puzzle" if proved
            else f"no repair with {k} change{plural} found that gives a unique puzzle (not every one was tried)")
    return replace(first, note=note)


def _unique_in_set(puzzle: Grid, cells: list[int], compiled_first: bool,
                   variant: Variant | None, every: list[RepairResult] | None = None) -> RepairResult | bool:
    """A unique repair of ``puzzle`` that changes exactly the givens ``cells`` (a set of the optimal
    face), or True when there is none, or False when the search passed :data:`REPAIR_NODES` counts.

    The repairs changing ``cells`` are exactly the solutions of the puzzle without their givens
    (keeping one of them would be a repair with fewer changes), and one is unique iff no other
    solution has its digits on ``cells``. So the digits of ``cells`` are tried one cell at a time,
    each partial puzzle counted up to 2 (a digit that clashes with a peer's given is not tried):
    none prunes, one solution is a unique repair (its digits on the remaining cells complete it),
    several go on to the next cell, and past the last cell they mean that pattern is not unique.
    With ``every`` (a list), each unique repair found is appended to it and the search goes on (the
    return value then says only whether the search finished).
    """
    grid = [0 if i in cells else d for i, d in enumerate(puzzle)]
    peers = board(size_of_grid(puzzle), variant.units_only if variant is not None else None).peers
    nodes = 0

    def search(j: int) -> RepairResult | bool:
        nonlocal nodes
        nodes += 1
        if nodes > REPAIR_NODES:
            return False
        counted = count_solutions(tuple(grid), 2, compiled_first=compiled_first, variant=variant)
        if counted.status == "timeout":
            return False
        if counted.count == 1:
            made = _repaired(puzzle, counted.solutions[0], compiled_first, variant)
            if every is None:
                return made
            every.append(made)
            return True
        if counted.count == 0 or j == len(cells):
            return True
        complete = True
        for d in range(1, size_of_grid(puzzle) + 1):
            if d == puzzle[cells[j]] or any(grid[p] == d for p in peers[cells[j]]):
                continue  # keeping a given of the set (no solution on the optimal face), or a clash
            grid[cells[j]] = d
            found = search(j + 1)
            if isinstance(found, RepairResult):
                return found
            complete = complete and found
            if nodes > REPAIR_NODES:
                break
        grid[cells[j]] = 0
        return complete and nodes <= REPAIR_NODES

    return search(0)


@dataclass(frozen=True)
class Outcome:
    """The fields every record of a solve, count or repair result shares, grids as one-line text.

    This is the one place they are computed; :func:`as_json` (``numplace solve --format json``) and
    :func:`pipeline.solve.batch.solve_one` (a batch Parquet row) only choose and name them.

    * ``status``: the result's status (``repaired`` when givens changed).
    * ``puzzle``: the input puzzle (:func:`~pipeline.board.format_line`).
    * ``solution``: the first solution found, or ``None`` (none, timeout).
    * ``solutions_found``: solutions counted (at most the limit; ``count == limit`` means at least
      that many); for a repair, those of the repaired puzzle, up to 2.
    * ``changes``: the repair's changed givens (empty for solve and count, and for a sound puzzle).
    * ``repaired_puzzle``: the repaired puzzle when givens changed, else ``None``.
    * ``repaired_status``: a repair's status of the repaired puzzle; ``None`` for solve and count.
    * ``reason``: solve and count only, why there is no solution; ``None`` otherwise.
    * ``note``: a repair only, when the repaired puzzle is not unique: that no minimum-change repair
      tried is (:attr:`RepairResult.note`); ``None`` otherwise.
    """

    status: Status
    puzzle: str
    solution: str | None
    solutions_found: int
    changes: tuple[Change, ...]
    repaired_puzzle: str | None
    repaired_status: Status | None
    reason: str | None
    note: str | None = None

    def changes_json(self) -> list[dict[str, object]]:
        """``changes`` as a list of ``{"row", "col", "from", "to"}`` (0-based, symbols as strings)."""
        return [c.as_json() for c in self.changes]


def outcome(result: SolveResult | RepairResult, found: int | None = None) -> Outcome:
    """The shared record of ``result`` (see :class:`Outcome`); ``found`` overrides a solve's count."""
    solution = format_line(result.solution) if result.solution else None
    if isinstance(result, RepairResult):
        return Outcome(result.status, format_line(result.puzzle), solution, result.solutions_found, result.changes,
                       format_line(result.repaired) if result.changes else None, result.repaired_status, None,
                       result.note)
    return Outcome(result.status, format_line(result.puzzle), solution,
                   len(result.solutions) if found is None else found, (), None, None, result.reason)


def as_json(result: SolveResult | RepairResult, found: int | None = None) -> dict[str, object]:
    """The JSON object of ``numplace solve --format json`` (a contract; keys in this order):
    ``{"status", "solution", "solutions_found", "changes", "puzzle"}`` from :func:`outcome`, then
    ``"repaired_puzzle", "repaired_status", "repair_note", "equally_good"`` (the other repairs as good,
    each a list of changes), ``"equally_good_more"`` (there are more than listed) for a repair or
    ``"reason"`` for a solve or count."""
    out = outcome(result, found)
    head: dict[str, object] = {
        "status": out.status,
        "solution": out.solution,
        "solutions_found": out.solutions_found,
        "changes": out.changes_json(),
        "puzzle": out.puzzle,
    }
    if isinstance(result, RepairResult):
        return {**head, "repaired_puzzle": out.repaired_puzzle, "repaired_status": out.repaired_status,
                "repair_note": out.note, "equally_good": [[c.as_json() for c in a] for a in result.alternatives],
                "equally_good_more": result.capped}
    return {**head, "reason": out.reason}
