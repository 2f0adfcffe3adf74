"""Steps 3-5 of :mod:`pipeline.generate.puzzle`: the uniqueness check a removal asks (ILP or the
exact counters), the removal pass on orbits under the stop rule, and the honest minimality flags.

A failed removal is a proof that stays true: removing more givens later only adds solutions. So
:func:`remove` returns the orbits it proved non-removable, and :func:`minimality` checks only the
rest."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

import numpy as np

from pipeline.board import Grid, Variant
from pipeline.generate import count
from pipeline.generate.spec import Spec
from pipeline.ilp.engine import Engine

Check = Callable[[Grid], bool]



def checker(eng: Engine, kind: str, variant: Variant | None = None) -> Check:
    """The removal check "is this puzzle still unique?" for engine ``kind`` under ``variant``'s rules
    (None: classic; ``eng`` must hold the same rules, killer cages included).

    ``ilp``: one HiGHS solve against the grid's no-good row. ``hybrid``: the compiled counter of
    :mod:`pipeline.generate.count_jit`, falling back to the ILP only when its node budget runs out; on a
    classic board up to 9x9 a process that has not loaded numba asks the pure-Python tier
    (:func:`pipeline.generate.count.search`) first, for its first :data:`PURE_CHECKS` checks
    (:func:`_pure_first`), and the compiled counter only where that tier's budget runs out. All are
    exact, so all give the same answer and the same puzzles. The ILP is asked where the compiled
    counter runs out of its 200,000 nodes, as before; a puzzle the pure tier settles within its
    ~3,000 nodes (singles, then the cell with fewest candidates, as there) is far inside that budget, so ``ilp_solves``
    does not depend on which tier answered (``tests/cli/test_startup.py`` compares whole rows).
    """
    if kind == "ilp":
        return eng.unique_without
    if variant is not None and not variant.classic:
        def hybrid_variant(puzzle: Grid) -> bool:
            from pipeline.generate import count_jit  # numba: loaded on the first compiled check

            k = count_jit.count(puzzle, 2, variant=variant)
            return eng.unique_without(puzzle) if k < 0 else k == 1

        return hybrid_variant

    def hybrid(puzzle: Grid) -> bool:
        if len(puzzle) <= 81 and _pure_first():  # 4x4 to 9x9: 16x16 searches are the compiled tier's
            found = count.search(puzzle, 2)
            if found is not None:
                return len(found) == 1
        from pipeline.generate import count_jit  # numba: loaded on the first compiled check

        k = count_jit.count(puzzle, 2)
        return eng.unique_without(puzzle) if k < 0 else k == 1

    return hybrid


#: Removal checks a process answers in pure Python before it loads numba (about two puzzles' worth of
#: 9x9 removals, a few milliseconds each; loading numba and the kernels costs about 0.35 s of CPU).
PURE_CHECKS = 100
_checks = 0


def _pure_first() -> bool:
    """True while this process has not loaded numba and has asked fewer than :data:`PURE_CHECKS`
    checks: the pure-Python tier answers first. Once numba is loaded (by any module) its cost is paid,
    and the compiled counter answers."""
    global _checks
    _checks += 1
    return _checks <= PURE_CHECKS and "numba" not in sys.modules



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
