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
  Among several optimal repairs the one HiGHS finds first is returned; ``repaired_status`` says
  whether the repaired puzzle is unique.
* Variants (``variant=``, :class:`~pipeline.board.Variant`, killer cages included): the compiled
  counter with the variant's units and cage propagation decides, the ILP with the variant's rows
  where its budget runs out; a repair is the same objective on the variant's IP. Classic puzzles
  take exactly the path above.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pipeline.board import SYMBOLS, Grid, Variant, conflict, format_line, size_of_grid
from pipeline.ilp.result import CountResult
from pipeline.solve import search

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

    return engine_for(size_of_grid(puzzle), variant=variant).count_solutions(puzzle, limit)


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


def count_line(result: SolveResult) -> str:
    """The status as ``numplace solve --count`` prints it (a contract the studio shows verbatim):
    ``unique``, ``none``, ``timeout`` or ``multiple: [at least ]K solutions (limit L)``."""
    if result.status != "multiple":
        return result.status
    found = len(result.solutions)
    many = "at least " if found >= result.limit else ""
    return f"multiple: {many}{found} solutions (limit {result.limit})"


def repair(puzzle: Grid, *, compiled_first: bool = False, variant: Variant | None = None) -> RepairResult:
    """Change the fewest givens so that ``puzzle`` has a solution (unchanged if it has one).
    The counts are :func:`count_solutions`'s (``compiled_first``, ``variant`` as there); the repair is
    the ILP's (for a variant: its rows, cages included, are kept; only givens change)."""
    n = size_of_grid(puzzle)
    variant = _variant(variant)
    first = count_solutions(puzzle, 2, compiled_first=compiled_first, variant=variant)
    if first.status in ("unique", "multiple"):
        return RepairResult(_status(first), puzzle, puzzle, (), first.solutions[0], _status(first), first.count)
    if first.status == "timeout":
        return RepairResult("timeout", puzzle, puzzle, (), None, "timeout", 0)
    from pipeline.ilp.engine import engine_for  # the repair IP: the one step only the ILP does

    out = engine_for(n, variant=variant).closest(puzzle)
    if out.status != "feasible" or out.grid is None:
        return RepairResult("timeout", puzzle, puzzle, (), None, "timeout", 0)
    grid = out.grid
    changes = tuple(
        Change(i // n, i % n, SYMBOLS[d - 1], SYMBOLS[grid[i] - 1])
        for i, d in enumerate(puzzle)
        if d and d != grid[i]
    )
    repaired = tuple(grid[i] if d else 0 for i, d in enumerate(puzzle))
    after = count_solutions(repaired, 2, compiled_first=compiled_first, variant=variant)
    solution = after.solutions[0] if after.solutions else grid
    return RepairResult("repaired", puzzle, repaired, changes, solution, _status(after), after.count)


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
    """

    status: Status
    puzzle: str
    solution: str | None
    solutions_found: int
    changes: tuple[Change, ...]
    repaired_puzzle: str | None
    repaired_status: Status | None
    reason: str | None

    def changes_json(self) -> list[dict[str, object]]:
        """``changes`` as a list of ``{"row", "col", "from", "to"}`` (0-based, symbols as strings)."""
        return [c.as_json() for c in self.changes]


def outcome(result: SolveResult | RepairResult, found: int | None = None) -> Outcome:
    """The shared record of ``result`` (see :class:`Outcome`); ``found`` overrides a solve's count."""
    solution = format_line(result.solution) if result.solution else None
    if isinstance(result, RepairResult):
        return Outcome(result.status, format_line(result.puzzle), solution, result.solutions_found, result.changes,
                       format_line(result.repaired) if result.changes else None, result.repaired_status, None)
    return Outcome(result.status, format_line(result.puzzle), solution,
                   len(result.solutions) if found is None else found, (), None, None, result.reason)


def as_json(result: SolveResult | RepairResult, found: int | None = None) -> dict[str, object]:
    """The JSON object of ``numplace solve --format json`` (a contract; keys in this order):
    ``{"status", "solution", "solutions_found", "changes", "puzzle"}`` from :func:`outcome`, then
    ``"repaired_puzzle", "repaired_status"`` for a repair or ``"reason"`` for a solve or count."""
    out = outcome(result, found)
    head: dict[str, object] = {
        "status": out.status,
        "solution": out.solution,
        "solutions_found": out.solutions_found,
        "changes": out.changes_json(),
        "puzzle": out.puzzle,
    }
    if isinstance(result, RepairResult):
        return {**head, "repaired_puzzle": out.repaired_puzzle, "repaired_status": out.repaired_status}
    return {**head, "reason": out.reason}
