"""The fast path of ``numplace solve`` and ``rate``: exact solution search without the ILP.

:func:`find` returns up to ``limit`` solutions of a puzzle, or ``None`` when the search could not
decide within its node budgets (the caller then asks the ILP, :mod:`pipeline.ilp.engine`). It is
exact, never heuristic: candidates as bitmasks, naked and hidden singles to a fixpoint (the
grader's own propagation, :func:`pipeline.difficulty.trial.settle`), then a branch on the cell with
the fewest candidates, depth first, stopping at ``limit`` solutions. So
``len(find(p, 2))`` is 0, 1 or 2 exactly when the ILP would say none, unique or multiple; for a
unique puzzle the solution is the same grid, and for several solutions each one returned is a
solution (which ones differs: the search finds them in its own order, HiGHS in another).

Two tiers behind one contract:

1. :func:`search`, pure Python, with a small node budget (:data:`PY_WORK`). One process that
   solves one puzzle pays no compiler: importing numba and loading its cached kernels costs more
   than half a second of CPU here, more than the whole ``numplace solve P`` budget, while this
   search settles a typical 9x9 puzzle in a few milliseconds and top95's hardest in tens of them.
2. :func:`pipeline.generate.count_jit.solutions`, the compiled (numba) kernel of the removal
   loop, with a large budget (:data:`COMPILED_NODES`), for what the Python tier leaves undecided
   (hard 16x16 boards, many solutions), and straight away for a batch (``compiled_first``),
   whose worker pays the numba load once for all its puzzles.

Roads not taken: solving single puzzles with the ILP (a warm HiGHS model answers in ~2 ms, but
importing pyomo and building the model costs about a second per process); reusing
:mod:`pipeline.verify`'s counter (it is the independent checker and must stay independent of
what it checks); a numba-only path (its import alone is over the start-up budget).

Contracts: input is a :data:`~pipeline.board.Grid` of a supported size, 0 = blank, not
validated beyond its length; clashing givens give no solution. ``limit >= 1``.
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
#: Search nodes the compiled tier may visit (as the removal loop's budget, ~0.1-1 s of search).
COMPILED_NODES = 200_000


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


def find(puzzle: Grid, limit: int = 2, *, compiled_first: bool = False,
         variant: Variant | None = None) -> tuple[Grid, ...] | None:
    """Up to ``limit`` solutions of ``puzzle`` under ``variant`` (None = classic; see the module
    contract), or ``None`` when neither tier decided it within its budget. ``compiled_first`` skips
    the pure-Python tier (for batches); so do killer cages (only the compiled tier propagates sums)."""
    if not compiled_first and not (variant and variant.cages):
        found = search(puzzle, limit, variant=variant)
        if found is not None:
            return found
    from pipeline.generate import count_jit  # numba: loaded only when the Python tier gives up

    return count_jit.solutions(puzzle, limit, COMPILED_NODES, variant)
