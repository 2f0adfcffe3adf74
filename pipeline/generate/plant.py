"""Planting a single-digit pattern (generator version 6 on, :data:`pipeline.generate.version.PLANTED_DIGIT`):
a technique target of :data:`PLANTED` builds its puzzle around one digit left open, instead of
climbing toward the pattern from a puzzle that happens to be near it.

A single-digit technique (Simple Colors' colour chain, Empty Rectangle's box and line) acts on the
candidates of one digit ``d`` at a state where every easier row is stuck. It has something to work on
only when ``d`` is still open in many rows, columns and boxes there: a puzzle with few givens of ``d``.
So the attempt *plants* the digit:

1. *Draw the digit* (draw 6p of :mod:`pipeline.generate.puzzle`'s draw order, right after the orbit
   order; a technique target has no hints goal, draw 7): ``d = rng.integers(1, n + 1)``.
2. *Blank it first.* The orbits holding a cell whose solution is ``d`` are moved to the front of the
   removal order (in the order drawn), so the removal pass blanks them while the grid is nearly full,
   where nearly every removal keeps the puzzle unique: the puzzle starts with ``d`` given nowhere, or
   almost nowhere.
3. *Keep it blank.* The climb (:func:`pipeline.generate.steer.climb`) moves only the other orbits:
   a planted orbit blanked in step 2 is never filled again, so every candidate of the climb keeps
   ``d`` open and the path meets ``d``'s pattern once the other digits are placed.

The plant only makes the pattern likely. The puzzle is graded in full by the grader, which decides
whether it is made for the target (:func:`pipeline.generate.technique.made_for`); it is checked for
minimality (every orbit, the planted ones included, by the removal check) and certified by HiGHS like
every puzzle. The climb of a planted attempt can always repair a candidate to uniqueness: filling every
orbit it moves gives back the puzzle of step 2's end, which was unique.

Only targets measured to gain are planted (:data:`PLANTED`; ``bench/bench_technique.py``,
``docs/workbook.md``); every other target, and every set begun under an older generator, makes the very
puzzles it made before.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pipeline.board import Grid
from pipeline.generate.spec import Spec
from pipeline.generate.version import PLANTED_DIGIT

#: The targets whose attempts plant a digit (generator 6 on): single-digit patterns the solver's earlier
#: single-digit rows take first in most states where they have a step.
PLANTED: frozenset[str] = frozenset({"simple_colors"})

Orbit = tuple[int, ...]


def planted(spec: Spec) -> bool:
    """True when ``spec``'s attempts plant a digit: a target of :data:`PLANTED`, generator 6 on."""
    return (spec.generator >= PLANTED_DIGIT and spec.techniques is not None
            and any(n in PLANTED for n in spec.techniques))


def plant(spec: Spec, grid: Grid, orbits: list[Orbit], rng: np.random.Generator) -> tuple[list[Orbit], int | None]:
    """Steps 1-2 for an attempt of ``spec`` on ``grid``: the removal order and the planted digit. When
    :func:`planted`, one draw from ``rng`` (the digit) and ``orbits`` (the removal order drawn) with the
    orbits holding that digit of ``grid`` first, each part in its drawn order; otherwise ``orbits`` as it
    is and None, with no draw."""
    if not planted(spec):
        return orbits, None
    n = round(len(grid) ** 0.5)
    d = int(rng.integers(1, n + 1))
    first = [o for o in orbits if any(grid[i] == d for i in o)]
    return first + [o for o in orbits if not any(grid[i] == d for i in o)], d


def movable(grid: Grid, orbits: Sequence[Orbit], puzzle: Grid, digit: int | None) -> Sequence[Orbit]:
    """Step 3: the orbits the climb may move, in ``orbits``' order: all but those holding ``digit`` of
    ``grid`` that are blank in ``puzzle`` (the removal pass's result); ``orbits`` itself for no digit."""
    if digit is None:
        return orbits
    return [o for o in orbits if puzzle[o[0]] or not any(grid[i] == digit for i in o)]
