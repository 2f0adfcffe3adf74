"""Steps 3-5 of :mod:`pipeline.generate.puzzle`: the uniqueness check a removal asks (ILP or the
compiled counter), the removal pass on orbits under the stop rule, and the honest minimality flags.

A failed removal is a proof that stays true: removing more givens later only adds solutions. So
:func:`remove` returns the orbits it proved non-removable, and :func:`minimality` checks only the
rest."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from pipeline.board import Grid, Variant
from pipeline.generate import count_jit
from pipeline.generate.spec import Spec
from pipeline.ilp.engine import Engine

Check = Callable[[Grid], bool]



def checker(eng: Engine, kind: str, variant: Variant | None = None) -> Check:
    """The removal check "is this puzzle still unique?" for engine ``kind`` under ``variant``'s rules
    (None: classic; ``eng`` must hold the same rules, killer cages included).

    ``ilp``: one HiGHS solve against the grid's no-good row. ``hybrid``: the compiled counter of
    :mod:`pipeline.generate.count_jit`, falling back to the ILP only when its node budget runs out. Both
    are exact, so both give the same answer and the same puzzles.
    """
    if kind == "ilp":
        return eng.unique_without
    if variant is not None and not variant.classic:
        def hybrid_variant(puzzle: Grid) -> bool:
            k = count_jit.count(puzzle, 2, variant=variant)
            return eng.unique_without(puzzle) if k < 0 else k == 1

        return hybrid_variant

    def hybrid(puzzle: Grid) -> bool:
        k = count_jit.count(puzzle, 2)
        return eng.unique_without(puzzle) if k < 0 else k == 1

    return hybrid



def _blank(puzzle: Sequence[int], cells: Sequence[int]) -> Grid:
    out = list(puzzle)
    for i in cells:
        out[i] = 0
    return tuple(out)



def hint_goal(spec: Spec, rng: np.random.Generator) -> tuple[int, int, int] | None:
    """(min, goal, max) for a hints stop rule; None for ``minimal``."""
    if spec.minimal or spec.hints_min is None or spec.hints_max is None:
        return None
    goal = int(rng.integers(spec.hints_min, spec.hints_max + 1))
    return spec.hints_min, goal, spec.hints_max



def remove(
    unique: Check, grid: Grid, orbits: Sequence[tuple[int, ...]], locked: set[int],
    goal: tuple[int, int, int] | None,
) -> tuple[Grid, set[tuple[int, ...]]]:
    """Steps 3-4: the removal pass. Returns the puzzle and the orbits proven non-removable."""
    puzzle = grid
    proven: set[tuple[int, ...]] = set()
    count = len(grid)
    for orb in orbits:
        if goal is not None and count <= goal[1]:
            break  # reached the goal
        if locked.intersection(orb):
            continue
        if goal is not None and count - len(orb) < goal[0]:
            continue  # would go below min; a smaller orbit later may still fit
        trial = _blank(puzzle, orb)
        if unique(trial):
            puzzle, count = trial, count - len(orb)
        else:
            proven.add(orb)
    return puzzle, proven



def minimality(
    unique: Check, puzzle: Grid, orbits: Sequence[tuple[int, ...]], proven: set[tuple[int, ...]]
) -> tuple[bool, bool]:
    """Step 5: (minimal, orbit_minimal), each established by proofs or fresh checks."""
    given = [orb for orb in orbits if puzzle[orb[0]]]
    for orb in given:
        if orb not in proven and unique(_blank(puzzle, orb)):
            return False, False  # an orbit can go, so a single given of it can too
    singles = {orb[0] for orb in proven if len(orb) == 1}
    for i, d in enumerate(puzzle):
        if d and i not in singles and unique(_blank(puzzle, (i,))):
            return False, True
    return True, True
