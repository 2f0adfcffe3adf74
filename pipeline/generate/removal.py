"""Steps 3-5 of :mod:`pipeline.generate.puzzle`: the uniqueness check a removal asks (ILP or the
exact counters), the removal pass on orbits under the stop rule, and the honest minimality flags.

A failed removal is a proof that stays true: removing more givens later only adds solutions. So
:func:`remove` returns the orbits it proved non-removable, and :func:`minimality` checks only the
rest."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from pipeline.board import Grid, Variant
from pipeline.compiled import use_compiled
from pipeline.generate import count
from pipeline.generate.spec import Spec
from pipeline.ilp.engine import Engine

Check = Callable[[Grid], bool]



def checker(eng: Engine, kind: str, variant: Variant | None = None) -> Check:
    """The removal check "is this puzzle still unique?" for engine ``kind`` under ``variant``'s rules
    (None: classic; ``eng`` must hold the same rules, killer cages included).

    ``ilp``: one HiGHS solve against the grid's no-good row. ``hybrid``: the compiled counter of
    :mod:`pipeline.generate.count_jit`, falling back to the ILP only when its node budget runs out; on a
    classic board up to 9x9 where :func:`pipeline.compiled.use_compiled` says Python (a one-shot
    command) the pure-Python tier (:func:`pipeline.generate.count.search`) answers first, and the
    compiled counter only where that tier's budget runs out. All are
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
        if len(puzzle) <= 81 and not use_compiled():  # 4x4 to 9x9: 16x16 searches are the compiled tier's
            found = count.search(puzzle, 2)
            if found is not None:
                return len(found) == 1
        from pipeline.generate import count_jit  # numba: loaded on the first compiled check

        k = count_jit.count(puzzle, 2)
        return eng.unique_without(puzzle) if k < 0 else k == 1

    return hybrid


#: Second solutions :func:`witnessed` keeps per grid (the most recent; a larger pool answers a few more
#: checks without a search, each one it holds costs a test of every check that finds none).
WITNESSES = 64
#: bytes.translate table: a cell's value -> b"0" for a blank, b"1" for a given (values up to 255).
_BITS = bytes([0x30] + [0x31] * 255)


def _cells(values: bytes) -> int:
    """The cells whose byte in ``values`` is non-zero, one bit each (the first cell the highest bit)."""
    return int(values.translate(_BITS), 2)


def witnessed(unique: Check, grid: Grid, kind: str, variant: Variant | None = None) -> Check:
    """``unique`` for puzzles whose givens are a subset of ``grid``, answered without a search whenever
    a second solution found earlier still fits (a *witness*).

    A puzzle is not unique when some solution other than ``grid`` agrees with all its givens. Each check
    that finds the puzzle not unique keeps that second solution (the cells where it differs from
    ``grid``; up to :data:`WITNESSES`, the last one used first); a later puzzle none of whose givens lies
    in those cells is answered "not unique" at once. Every other puzzle is searched by the compiled
    counter (``kind`` ``hybrid``), or by ``unique`` itself where the counter's node budget runs out and
    for ``kind`` ``ilp`` (returned as it is). Exact, so the answers (and the puzzles) are those of
    ``unique``; only the cost changes. The climb of :mod:`pipeline.generate.steer` asks about many
    neighbours of one puzzle, most of them not unique in the same few ways, so many of its checks end on
    a witness."""
    if kind != "hybrid" or max(grid) > 255:
        return unique
    from pipeline.generate import count_jit  # numba: the climb's checks are the compiled tier's

    sol = np.frombuffer(bytes(grid), dtype=np.uint8)
    rules = None if variant is None or variant.classic else variant
    kept: list[int] = []  # per witness, the cells where it differs from grid (as _cells gives them)

    def check(puzzle: Grid) -> bool:
        given = _cells(bytes(puzzle))
        for k, w in enumerate(kept):
            if not w & given:
                if k:
                    kept.insert(0, kept.pop(k))
                return False  # a witness agrees with every given
        found, out = count_jit.rows(puzzle, 2, variant=rules)
        if found < 0:  # past the counter's node budget: the caller's own check decides
            return unique(puzzle)
        if found < 2:
            return found == 1
        other = out[1] if (out[0] == sol).all() else out[0]
        kept.insert(0, _cells((other != sol).view(np.uint8).tobytes()))
        del kept[WITNESSES:]
        return False

    return check


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
