"""Step 6s of :mod:`pipeline.generate.puzzle` (``difficulty.steer``): when a minimal puzzle's grade
misses the requested difficulty, a local search over minimal puzzles of the *same* grid moves it
toward the range instead of throwing the grid away (after tdoku's generator, which climbs a loss over
puzzles while keeping uniqueness).

One step, from the current puzzle ``p`` (unique and orbit-minimal):

1. *Swap.* Blank one given orbit ``a`` (never a locked one) and fill one blank orbit ``b`` from the grid.
2. *Repair.* While the result has a second solution, fill one more blank orbit, drawn at random.
3. *Re-minimise.* Try every given orbit once, in a random order with ``b`` and the repairs last, and
   blank it when the puzzle stays unique. As in the removal pass, an orbit kept is proven
   non-removable for good (blanking more only adds solutions), so the result is orbit-minimal again.
4. *Grade and accept.* The candidate replaces ``p`` when its :func:`miss` is no worse.

The search stops at the first puzzle inside the range, or after ``steps`` steps (then the attempt is
rejected as before and the next grid is tried). Every uniqueness check is the caller's (the compiled
counter with the hybrid engine; the generator's keeps the second solutions it finds,
:func:`pipeline.generate.removal.witnessed`, exact); the puzzle the search returns is graded, checked for
minimality and certified by HiGHS like any other.

Draws (appended to the attempt's stream after draw 7, only when the first grade misses): per step
``rng.integers(len(given))`` (``a``), ``rng.integers(len(blank))`` (``b``), one
``rng.integers(len(blank))`` per repair, then ``rng.permutation(len(rest))`` for the order of step 3.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from pipeline.board import Grid
from pipeline.difficulty.grade import Grade
from pipeline.difficulty.techniques import LEVELS

#: Local-search steps one grid gets before the attempt moves on to a new grid. Fewer steps give up on
#: grids that were close to the range; more spend the time on climbs that are stuck, where a new grid
#: (a small share of an attempt's cost) does better. Of 30, 100 and 200 steps on 9x9 rot180 expert,
#: 100 made the most expert puzzles per second (``docs/difficulty.md`` "Steering: hard puzzles without
#: throwing grids away"; rates in ``docs/benchmarks.md`` "Hard puzzles on demand").
STEER_STEPS = 100

Miss = tuple[int, float]


def miss(grade: Grade, levels: Sequence[str] | None, score_min: float | None, score_max: float | None) -> Miss:
    """How far ``grade`` is from the range (smaller is closer; ``(0, 0.0)`` inside it).

    First the number of levels to the nearest wanted level; then, off the wanted levels, the score
    counted toward that level (a higher score is closer to the next level up, a lower one to the level
    down); on a wanted level, how far the score is outside ``[score_min, score_max]``."""
    k = LEVELS.index(grade.level)
    if levels:
        wanted = [LEVELS.index(level) for level in levels]
        nearest = min(wanted, key=lambda w: (abs(w - k), -w))
        if nearest != k:
            return abs(nearest - k), (-grade.score if nearest > k else grade.score)
    below = score_min - grade.score if score_min is not None and grade.score < score_min else 0.0
    above = grade.score - score_max if score_max is not None and grade.score > score_max else 0.0
    return 0, below + above


def _with(puzzle: Grid, grid: Grid, cells: Sequence[int], fill: bool) -> Grid:
    out = list(puzzle)
    for i in cells:
        out[i] = grid[i] if fill else 0
    return tuple(out)


def climb(
    unique: Callable[[Grid], bool], rate: Callable[[Grid], Grade], judge: Callable[[Grade], Miss],
    grid: Grid, puzzle: Grid, graded: Grade, orbits: Sequence[tuple[int, ...]], locked: set[int],
    rng: np.random.Generator, steps: int = STEER_STEPS,
) -> tuple[Grid, Grade]:
    """The local search of the module docstring from ``puzzle`` (unique, orbit-minimal, graded
    ``graded``): the best puzzle found and its grade, inside the range if ``judge`` reached ``(0, 0)``.

    ``unique`` is the removal check, ``rate`` the grader, ``judge`` the :func:`miss` of a grade;
    ``locked`` cells are never blanked. Returns ``(puzzle, graded)`` unchanged when no orbit can move."""
    best = judge(graded)
    free = [orb for orb in orbits if not locked.intersection(orb)]
    for _ in range(steps):
        if best == (0, 0.0):
            break
        given = [orb for orb in free if puzzle[orb[0]]]
        blank = [orb for orb in orbits if not puzzle[orb[0]]]
        if not given or not blank:
            break
        a = given[int(rng.integers(len(given)))]
        added = [blank[int(rng.integers(len(blank)))]]
        trial = _with(_with(puzzle, grid, a, False), grid, added[0], True)
        while not unique(trial):
            left = [orb for orb in orbits if not trial[orb[0]]]
            added.append(left[int(rng.integers(len(left)))])
            trial = _with(trial, grid, added[-1], True)
        rest = [orb for orb in free if trial[orb[0]] and orb not in added]
        for orb in [rest[int(k)] for k in rng.permutation(len(rest))] + added:  # added orbits were blank: never locked
            smaller = _with(trial, grid, orb, False)
            if unique(smaller):
                trial = smaller
        if trial == puzzle:
            continue
        marked = rate(trial)
        score = judge(marked)
        if score <= best:
            puzzle, graded, best = trial, marked, score
    return puzzle, graded
