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

1. :func:`search` (:mod:`pipeline.generate.count`, where the removal loop asks it too), pure
   Python, with a small node budget (:data:`PY_WORK`). One process that
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

from pipeline.board import Grid, Variant
from pipeline.generate.count import PY_WORK, search  # the pure-Python tier, shared with the removal loop

__all__ = ["COMPILED_NODES", "PY_WORK", "find", "search"]

#: Search nodes the compiled tier may visit (as the removal loop's budget, ~0.1-1 s of search).
COMPILED_NODES = 200_000


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
