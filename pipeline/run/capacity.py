"""How many distinct puzzles a 4x4 request can have at all, counted exactly before a run starts.

A 4x4 board has 288 grids, so a config can ask for more distinct puzzles than exist (the shipped
26 orthogonal orbit-minimal ones, say, where there are 7). :func:`distinct`
enumerates every grid and every set of whole orbits of the requested symmetry group as givens,
keeps the puzzles the request could produce (a unique solution; with ``minimal``, no orbit can go;
with a hints rule, the givens in range) and returns their dedup keys (canonical forms). Groups with
more than :data:`MAX_ORBITS` orbits (``none``: 16 single cells) would take too long
before a run, and 6x6 and larger boards are far too big to enumerate (6x6: about 39,000 grids up to
relabelling times 2^18 rot180 orbit subsets): for those no count is made (None), and the dedup
catalog is the guard (``docs/identity.md`` "Dedup" estimates where 6x6 runs out).
"""

from __future__ import annotations

import itertools
from functools import cache

from pipeline import symmetry
from pipeline.board import Grid, board
from pipeline.identity import canon


@cache
def _grids4() -> tuple[Grid, ...]:
    """The 12 complete 4x4 grids whose first row is 1234: every grid is one of them relabelled, and
    relabelling keeps both the layout of the givens and the canonical form."""
    b = board(4)
    out: list[Grid] = []
    cells = [0] * 16

    def fill(i: int) -> None:
        if i == 16:
            out.append(tuple(cells))
            return
        for d in ((i + 1,) if i < 4 else range(1, 5)):
            if all(cells[j] != d for j in b.peers[i] if j < i):
                cells[i] = d
                fill(i + 1)
        cells[i] = 0

    fill(0)
    return tuple(out)


MAX_ORBITS = 12


@cache
def distinct(tag: str, minimal: bool, hints_min: int | None = None,
             hints_max: int | None = None) -> frozenset[str] | None:
    """The dedup keys of the distinct 4x4 puzzles with at least the symmetry ``tag`` that a run
    could make: orbit-minimal ones when ``minimal``, else those with ``hints_min``..``hints_max``
    givens. None where no count is made (see the module docstring)."""
    orbits = symmetry.orbits(tag, 4)
    if len(orbits) > MAX_ORBITS:
        return None
    from pipeline.generate import count_jit  # numba: loaded for 4x4 runs only, not on import

    keys: set[str] = set()
    for grid in _grids4():
        for keep in itertools.product((False, True), repeat=len(orbits)):
            puzzle = [0] * 16
            for orb, given in zip(orbits, keep, strict=True):
                if given:
                    for i in orb:
                        puzzle[i] = grid[i]
            hints = sum(1 for d in puzzle if d)
            if not minimal and not ((hints_min or 0) <= hints <= (hints_max or 16)):
                continue
            if count_jit.count(tuple(puzzle), 2) != 1:
                continue
            if minimal and any(keep[k] and count_jit.count(_without(puzzle, orbits[k]), 2) == 1
                               for k in range(len(orbits))):
                continue
            key = canon.canonical_key(tuple(puzzle))
            if key is not None:
                keys.add(key)
    return frozenset(keys)


def _without(puzzle: list[int], cells: tuple[int, ...]) -> Grid:
    out = list(puzzle)
    for i in cells:
        out[i] = 0
    return tuple(out)
