"""Grids from the LP relaxation of the weighted objective (``grid.method: weighted-lp``), and the label
of where every grid came from (``grid_source``).

:func:`lp_grid` solves the LP relaxation of ``max w . x`` (the IP of
:meth:`pipeline.ilp.engine.Engine.random_grid`, the same weights and fixed cells):

* an *integral* optimum is the optimum of the IP itself (LP duality: no 0-1 point scores more than the
  relaxation), so that grid is returned, labelled ``ilp-optimal``;
* a *fractional* optimum is completed by the compiled search of :mod:`pipeline.generate.lpgrid_jit`
  with the priority ``round(LP value, 6) + 1e-7 * weight`` (LP value first, the weight breaks ties):
  the first grid that search meets, labelled ``lp-guided`` (a grid of the rules, not proven optimal);
* when that search passes its node budget, the same search again, branching on the cells with the
  fewest candidates first (still ``lp-guided``), then, past that budget too, the IP as ``weighted-ilp``
  solves it (its label then says which of ``ilp-optimal`` / ``ilp-incumbent`` it is).

It serves the classic boards of every size and the variants whose units the compiled search knows
(X, hyper, jigsaw; killer grids come from the units alone). A designed grid (solution symmetry, area
rules) has rows the search does not know: it comes from the IP, as with ``weighted-ilp``.

:data:`SOURCES` are the values of the ``grid_source`` column, each stating only what is true of the
grid (``docs/output.md``).
"""

from __future__ import annotations

import numpy as np

from pipeline.board import Grid, Variant
from pipeline.compiled import use_compiled
from pipeline.ilp.engine import Engine, Outcome
from pipeline.ilp.reduced import integral

#: grid_source -> what it says of the grid.
SOURCES: dict[str, str] = {
    "ilp-optimal": "the proven optimum of the weighted IP (an integral LP optimum, or HiGHS's status optimal)",
    "ilp-incumbent": "HiGHS's first improving solution of the weighted IP, not proven optimal",
    "lp-guided": "completed by the compiled search in the order of the LP relaxation's values, then the weights",
    "uniform": "an exactly uniform random 9x9 grid (a uniform grid number, unranked)",
    "fixed": "every cell fixed by grid.fixed: the grid is the fixed cells",
}

#: Search nodes the guided completion gets before the IP takes over.
GUIDED_NODES = 20_000
#: Nodes the pure-Python search may visit before the kernel takes the search over (where
#: :func:`pipeline.compiled.use_compiled` says Python: a one-shot ``generate`` then loads no numba for its grid).
PURE_NODES = 200


class _PastNodes(Exception):
    """The pure-Python search passed its node budget."""


def _pure_first(variant: Variant | None) -> bool:
    """True for a classic grid where :func:`pipeline.compiled.use_compiled` says Python: the
    pure-Python search answers first (as the removal check does)."""
    return (variant is None or variant.classic) and not use_compiled()


def _guided(cand: np.ndarray, prio: np.ndarray, variant: Variant | None, fewest: bool, pure: bool) -> Grid | None:
    """The guided search within :data:`GUIDED_NODES` nodes: the pure-Python one first when ``pure`` (a
    classic board), the kernel when that passes :data:`PURE_NODES` or when not ``pure``. Both visit the
    same nodes in the same order, so a search the pure one finishes is the kernel's answer too."""
    if pure:
        from pipeline.board import board

        b = board(prio.shape[1])
        try:
            return guided_py(cand, prio, [list(u) for u in b.units], [set(p) for p in b.peers], fewest,
                             node_limit=PURE_NODES)
        except _PastNodes:
            pass
    from pipeline.generate import lpgrid_jit  # numba: only where the method is used, past the pure tier

    return lpgrid_jit.guided(cand, prio, GUIDED_NODES, variant, fewest)


def ilp_source(out: Outcome, start: Grid | None) -> str:
    """The label of a grid the IP returned for the fixed cells ``start``."""
    if start is not None and all(start):
        return "fixed"
    return "ilp-optimal" if out.proven else "ilp-incumbent"


def priorities(values: np.ndarray, weights: np.ndarray, n: int) -> np.ndarray:
    """The search's priority table (cells x digits): the LP value rounded to 1e-6, then the weight."""
    return (np.round(values, 6) + 1e-7 * np.asarray(weights, dtype=float)).reshape(n * n, n)


def candidates(start: Grid, n: int) -> np.ndarray:
    """Candidate masks of ``start``: a given's bit, or every digit for an open cell."""
    digits = np.asarray(start, dtype=np.int64)
    full = (1 << n) - 1
    return np.where(digits > 0, np.left_shift(1, np.maximum(digits - 1, 0)), full).astype(np.uint32)


def lp_grid(eng: Engine, weights: np.ndarray, seed: int, start: Grid | None,
            variant: Variant | None = None) -> tuple[Outcome, str]:
    """The grid of the LP-first method (module docstring) and its ``grid_source``; the outcome is not
    ``feasible`` when the LP says there is no grid or a solve ran out of time."""
    n = eng.n
    relaxed = eng.relaxation(weights, seed, start)
    if isinstance(relaxed, Outcome):
        return relaxed, "fixed" if relaxed.status == "feasible" else "ilp-incumbent"
    if integral(relaxed):
        grid = tuple(int(d) + 1 for d in np.argmax(relaxed.reshape(n * n, n), axis=1))
        return Outcome("feasible", grid, True), "ilp-optimal"
    cand = candidates(start or (0,) * (n * n), n)
    prio = priorities(relaxed, weights, n)
    pure = _pure_first(variant)
    for fewest in (False, True):
        grid_or_none = _guided(cand, prio, variant, fewest, pure)
        if grid_or_none is not None:
            return Outcome("feasible", grid_or_none), "lp-guided"
    out = eng.random_grid(weights, seed, start)
    return out, ilp_source(out, start)


def guided_py(cand: np.ndarray, prio: np.ndarray, units: list[list[int]], peers: list[set[int]],
              fewest: bool = False, node_limit: int | None = None) -> Grid | None:
    """The pure-Python twin of :func:`pipeline.generate.lpgrid_jit.guided`: the same propagation (naked
    and hidden singles to a fixpoint), branching cell and candidate order, so the same nodes in the same
    order; the tests' oracle (no node budget) and a one-shot process's first search. Past ``node_limit``
    nodes it raises :class:`_PastNodes` (the kernel counts nodes the same way: one per search call)."""
    n = prio.shape[1]
    nodes = 0

    def settle(c: list[int]) -> bool:
        changed = True
        while changed:
            changed = False
            for i, v in enumerate(c):
                if v == 0:
                    return False
                if v & (v - 1) == 0:
                    for j in peers[i]:
                        if c[j] & v:
                            c[j] &= ~v
                            if c[j] == 0:
                                return False
                            changed = True
            for u in units:
                for d in range(n):
                    bit = 1 << d
                    where = [i for i in u if c[i] & bit]
                    if not where:
                        return False
                    if len(where) == 1 and c[where[0]] != bit:
                        c[where[0]] = bit
                        changed = True
        return True

    def best(v: int, p: np.ndarray) -> int:
        return max((d for d in range(n) if v >> d & 1), key=lambda d: (p[d], -d))

    def search(c: list[int]) -> Grid | None:
        nonlocal nodes
        nodes += 1
        if node_limit is not None and nodes > node_limit:
            raise _PastNodes
        if not settle(c):
            return None
        open_cells = [i for i, v in enumerate(c) if v & (v - 1)]
        if not open_cells:
            return tuple(v.bit_length() for v in c)
        cell = max(open_cells, key=lambda i: (-c[i].bit_count() if fewest else 0, prio[i, best(c[i], prio[i])], -i))
        rest = c[cell]
        while rest:
            d = best(rest, prio[cell])
            rest &= ~(1 << d)
            nxt = list(c)
            nxt[cell] = 1 << d
            found = search(nxt)
            if found is not None:
                return found
        return None

    return search([int(v) for v in cand])
