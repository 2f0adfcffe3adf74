"""The compiled search that completes a grid in the order of a priority table (numba): the kernel of
:mod:`pipeline.generate.lpgrid`, whose pure-Python :func:`pipeline.generate.lpgrid.guided_py` is its
oracle in the tests.

``guided(cand, prio, node_limit, variant)`` fills every cell of the candidate masks ``cand`` (bit
``d - 1`` for digit ``d``) under the rules of ``variant`` (classic, X, hyper, jigsaw; cages ignored:
grids come from the units alone) and returns the first grid met by this depth-first search, or None
when there is none or the search passed ``node_limit`` nodes:

* each node spreads naked and hidden singles to a fixpoint (the propagation of
  :mod:`pipeline.generate.count_jit`, shared, not copied);
* it branches on the open cell whose best candidate has the highest priority (the first such cell on
  a tie), and tries that cell's candidates from the highest priority down (the lower digit on a tie);
* with ``fewest``, it branches instead on an open cell with the fewest candidates (of those, the one
  whose best candidate has the highest priority, then the first): the order that finds a grid soonest
  on tightly constrained boards (X + jigsaw), still trying each cell's candidates by priority.

Deterministic: the grid depends only on ``cand``, ``prio`` and the variant.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.board import Variant
from pipeline.generate.count_jit import popcount, propagate, tables


@nb.njit(cache=True, nogil=True)
def _best(v: np.uint32, p: np.ndarray) -> int:  # pragma: no cover - compiled
    """The digit index (0-based) of the highest priority among the set bits of ``v``; -1 if none."""
    best, top = -1, -np.inf
    d = 0
    while v:
        if v & np.uint32(1) and p[d] > top:
            best, top = d, p[d]
        v >>= np.uint32(1)
        d += 1
    return best


@nb.njit(cache=True, nogil=True)
def _guided(cand0: np.ndarray, peers: np.ndarray, units: np.ndarray, full: np.uint32, prio: np.ndarray,
            node_limit: int, out: np.ndarray, fewest: bool) -> int:  # pragma: no cover - compiled
    """1 with the grid's digits (1..n) in ``out``, 0 when there is no grid, -1 past ``node_limit``."""
    ncells = cand0.shape[0]
    stack = np.empty((ncells + 1, ncells), dtype=np.uint32)
    cell_at = np.empty(ncells + 1, dtype=np.int64)
    rest_at = np.empty(ncells + 1, dtype=np.uint32)
    queue = np.empty(ncells, dtype=np.int64)
    one = np.uint32(1)
    stack[0, :] = cand0
    depth, nodes, fresh = 0, 0, True
    while depth >= 0:
        if fresh:
            nodes += 1
            if nodes > node_limit:
                return -1
            fresh = False
            cur = stack[depth]
            top = 0
            if depth == 0:
                for i in range(ncells):
                    v = cur[i]
                    if v == 0:
                        return 0
                    if v & (v - one) == 0:
                        queue[top] = i
                        top += 1
            else:
                queue[0] = cell_at[depth - 1]
                top = 1
            if not propagate(cur, peers, units, full, queue, top):
                depth -= 1
                continue
            cell, high, least = -1, -np.inf, 99
            for i in range(ncells):
                v = cur[i]
                if v & (v - one):
                    k = popcount(v) if fewest else 0
                    p = prio[i, _best(v, prio[i])]
                    if k < least or (k == least and p > high):
                        cell, high, least = i, p, k
            if cell < 0:
                for i in range(ncells):
                    d = 0
                    v = cur[i]
                    while v:
                        v >>= one
                        d += 1
                    out[i] = d
                return 1
            cell_at[depth] = cell
            rest_at[depth] = cur[cell]
        rest = rest_at[depth]
        if rest == 0:
            depth -= 1
            continue
        bit = one << np.uint32(_best(rest, prio[cell_at[depth]]))
        rest_at[depth] = rest ^ bit
        stack[depth + 1, :] = stack[depth]
        stack[depth + 1, cell_at[depth]] = bit
        depth += 1
        fresh = True
    return 0


def guided(cand: np.ndarray, prio: np.ndarray, node_limit: int = 100_000,
           variant: Variant | None = None, fewest: bool = False) -> tuple[int, ...] | None:
    """The first grid of the search (module docstring) from the candidate masks ``cand`` (one uint32
    per cell) with priorities ``prio`` (cells x digits), branching on the fewest candidates first with
    ``fewest``; None when there is none or past ``node_limit``."""
    n = prio.shape[1]
    peers, units, full = tables(n, variant.units_only if variant is not None else None)[:3]
    out = np.zeros(n * n, dtype=np.uint8)
    found = _guided(np.ascontiguousarray(cand, dtype=np.uint32), peers, units, full,
                    np.ascontiguousarray(prio, dtype=np.float64), node_limit, out, fewest)
    return tuple(int(d) for d in out) if found == 1 else None
