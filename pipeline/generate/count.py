"""The pure-Python tier of exact solution search: the first answer of ``numplace solve`` and ``rate``
and of the removal loop's uniqueness check in a process that has not loaded numba.

:func:`search` returns up to ``limit`` solutions of a puzzle in search order, or ``None`` when it could
not decide within its node budget (:data:`PY_WORK`); the caller then asks the compiled counter of
:mod:`pipeline.generate.count_jit` (whose answer, with its own budget, may send it on to the ILP). It is
exact, never heuristic: candidates as bitmasks, naked and hidden singles to a fixpoint (the grader's
own propagation, :func:`pipeline.difficulty.trial.settle`), then a branch on the cell with the fewest
candidates, depth first, stopping at ``limit`` solutions. So ``len(search(p, 2))``, when it is not
None, is the count :func:`pipeline.generate.count_jit.count` gives (0, 1 or 2), and the removal loop
and ``numplace solve`` take the same decisions whichever tier answers.

Why a pure-Python tier at all: importing numba and loading its cached kernels costs about 0.35 s of
CPU once per process, while this search settles a typical 9x9 puzzle in a fraction of a millisecond.
One-shot commands (``solve P``, ``rate P``, ``generate --count 1``) answer without numba; a batch
loads it once and runs the compiled kernels.

Contracts: input is a :data:`~pipeline.board.Grid` of a supported size, 0 = blank, not validated
beyond its length; clashing givens give no solution. ``limit >= 1``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from pipeline.board import CLASSIC, Grid, Variant, board, size_of_grid
from pipeline.difficulty.trial import settle  # the singles propagation, shared with trial and error

#: The pure-Python tier's budget in cell-nodes: it visits at most ``PY_WORK // (n * n)`` search
#: nodes (one propagation each, whose cost grows with the cells) before it gives up on a puzzle:
#: about 3,000 nodes for 9x9 and 1,000 for 16x16, a few tenths of a second at most.
PY_WORK = 250_000


class _Stop(Exception):
    """Ends a search early: ``limit`` solutions found (``budget`` False) or budget spent (True)."""

    def __init__(self, budget: bool) -> None:
        self.budget = budget


@dataclass(frozen=True)
class _Tables:
    """One board's static structure as plain lists (fastest to index from Python)."""

    peers: list[list[int]]
    units: list[list[int]]
    full: int  # the mask of all n digits
    cages: tuple[tuple[tuple[int, ...], int], ...] = ()  # killer cages: (cells, sum)


@lru_cache(maxsize=64)
def _tables(n: int, variant: Variant = CLASSIC) -> _Tables:
    b = board(n, variant)
    return _Tables([sorted(p) for p in b.peers], [list(u) for u in b.units], (1 << n) - 1,
                   tuple((c.cells, c.total) for c in b.cages))


def search(puzzle: Grid, limit: int = 2, node_limit: int | None = None,
           variant: Variant | None = None) -> tuple[Grid, ...] | None:
    """Up to ``limit`` solutions of ``puzzle`` under ``variant`` (None = classic) in pure Python, in
    search order, or ``None`` if ``node_limit`` search nodes (default: :data:`PY_WORK` ``// (n * n)``)
    did not decide it. Clashing givens give ``()``. Variant units and cage mates take part in the
    propagation; killer cage sums are only checked on full grids (the compiled tier propagates them)."""
    if limit < 1:
        raise ValueError("limit must be at least 1")
    t = _tables(size_of_grid(puzzle), variant or CLASSIC)
    if node_limit is None:
        node_limit = PY_WORK // len(puzzle)
    cand = [t.full] * len(puzzle)
    queue = []
    for i, d in enumerate(puzzle):
        if d:
            cand[i] = 1 << (d - 1)
            queue.append(i)
    found: list[Grid] = []
    nodes = 0

    def visit(cand: list[int], queue: list[int]) -> None:
        nonlocal nodes
        nodes += 1
        if nodes > node_limit:
            raise _Stop(budget=True)
        if not settle(cand, queue, t.peers, t.units, t.full):
            return
        best, fewest = -1, 99
        for i, c in enumerate(cand):
            if c & (c - 1):
                k = c.bit_count()
                if k < fewest:
                    best, fewest = i, k
                    if k == 2:
                        break
        if best < 0:  # every cell fixed and no contradiction: a solution (if the cage sums hold)
            grid = tuple(c.bit_length() for c in cand)
            if any(sum(grid[i] for i in cells) != total for cells, total in t.cages):
                return
            found.append(grid)
            if len(found) >= limit:
                raise _Stop(budget=False)
            return
        rest = cand[best]
        while rest:
            bit = rest & -rest
            rest ^= bit
            child = cand[:]
            child[best] = bit
            visit(child, [best])

    try:
        visit(cand, queue)
    except _Stop as stop:
        if stop.budget:
            return None
    return tuple(found)
