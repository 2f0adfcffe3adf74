"""Givens to add so that a puzzle with several solutions has one: what an editor does with a puzzle
that is not fit to print.

Contracts:

* :func:`givens_to_add` returns ``None`` for a puzzle with at most one solution; else a
  :class:`Additions`: cells and digits (taken from one of its solutions) whose addition leaves
  exactly one solution, checked by an exact count.
* The solutions are counted up to :data:`LIMIT`. When there are fewer (all are known), the
  additions are a smallest hitting set of the differences between one solution and all the others,
  tried for every solution as the one kept, by size up to :data:`EXACT_UP_TO`: then ``fewest`` is
  True (no smaller set of added givens makes the puzzle unique). Otherwise the cells are picked
  greedily (the cell that rules out most other solutions first), checked, and ``fewest`` is False.
* Only additions: changing a given is the repair's business (:func:`pipeline.solve.solver.repair`).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from pipeline.board import SYMBOLS, Grid, Variant, size_of_grid
from pipeline.solve import solver

#: Solutions counted, at most, to know them all.
LIMIT = 40
#: Sizes of added-given sets tried exhaustively (beyond: greedy).
EXACT_UP_TO = 2
#: Greedy rounds (each counts again with the additions so far) before giving up.
ROUNDS = 6


@dataclass(frozen=True)
class Additions:
    """Givens to add: ``cells`` (0-based cell, digit) in row-major order, the puzzle with them, whether
    they are proved the fewest, and how many solutions the puzzle has (``at_least``: the count hit
    :data:`LIMIT`)."""

    puzzle: Grid
    cells: tuple[tuple[int, int], ...]
    result: Grid
    unique: bool
    fewest: bool
    solutions: int
    at_least: bool

    def __str__(self) -> str:
        n = size_of_grid(self.puzzle)
        return " ".join(f"r{i // n + 1}c{i % n + 1}={SYMBOLS[d - 1]}" for i, d in self.cells)


def _mask(a: Grid, b: Grid) -> int:
    return sum(1 << i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y)


def _hitting(masks: list[int], k: int) -> tuple[int, ...] | None:
    """``k`` cells that meet every mask, or None."""
    union = 0
    for m in masks:
        union |= m
    cells = [i for i in range(union.bit_length()) if union >> i & 1]
    for combo in combinations(cells, k):
        pick = sum(1 << i for i in combo)
        if all(m & pick for m in masks):
            return combo
    return None


def _with(puzzle: Grid, solution: Grid, cells: tuple[int, ...]) -> Grid:
    out = list(puzzle)
    for i in cells:
        out[i] = solution[i]
    return tuple(out)


def givens_to_add(puzzle: Grid, *, variant: Variant | None = None) -> Additions | None:
    """The givens to add (see the module contract), or None when ``puzzle`` has at most one solution."""
    found = solver.count_solutions(puzzle, LIMIT, variant=variant)
    if found.count < 2:
        return None
    sols = list(found.solutions)
    complete = found.count < LIMIT
    for k in range(1, EXACT_UP_TO + 1):
        for t, target in enumerate(sols):
            masks = [_mask(target, s) for j, s in enumerate(sols) if j != t]
            combo = _hitting(masks, k)
            if combo is None:
                continue
            result = _with(puzzle, target, combo)
            unique = solver.count_solutions(result, 2, variant=variant).status == "unique"
            if unique:
                return Additions(puzzle, tuple((i, target[i]) for i in combo), result, True, complete or k == 1,
                                 found.count, not complete)
    target = sols[0]
    cells: list[int] = []
    for _ in range(ROUNDS):
        masks = [_mask(target, s) for s in sols if s != target]
        masks = [m for m in masks if not any(m >> i & 1 for i in cells)]
        while masks:
            best = max(range(len(puzzle)), key=lambda i: sum(m >> i & 1 for m in masks))
            cells.append(best)
            masks = [m for m in masks if not m >> best & 1]
        result = _with(puzzle, target, tuple(cells))
        again = solver.count_solutions(result, LIMIT, variant=variant)
        if again.count == 1:
            return Additions(puzzle, tuple(sorted((i, target[i]) for i in cells)), result, True, False,
                             found.count, not complete)
        sols = list(again.solutions)
    result = _with(puzzle, target, tuple(cells))
    return Additions(puzzle, tuple(sorted((i, target[i]) for i in cells)), result, False, False, found.count,
                     not complete)
