"""The fast path of the removal loop: a compiled exact solution counter (numba).

``count(puzzle, limit, node_limit)`` returns the number of solutions of ``puzzle`` capped at
``limit``, or ``-1`` when the search visited more than ``node_limit`` nodes (the caller then asks the
ILP). ``solutions(puzzle, limit, node_limit)`` is the same search returning the solutions found
(``None`` for ``-1``); ``numplace solve`` uses it (:mod:`pipeline.solve.fast`). Exact, not heuristic:
bitmask candidates per cell, naked and hidden singles to a fixpoint, then branch on the cell with
the fewest candidates; the search stops at ``limit`` solutions. Both run the one kernel
:func:`_search`. Works for every board of :mod:`pipeline.board` (n <= 25, candidates fit in 32 bits).

It shares no code with :mod:`pipeline.verify` (the pure-Python guard) or the ILP, so three
independent implementations stand behind every written puzzle: this counter decides removals, the
ILP certifies the finished puzzle, and the verifier re-checks it before it is written.
The first call in a process compiles the kernels (about a second; cached on disk by numba).
"""

from __future__ import annotations

from functools import cache

import numba as nb
import numpy as np

from pipeline.board import Grid, board, size_of_grid


@nb.njit(cache=True, nogil=True)
def _popcount(x: np.uint32) -> int:  # pragma: no cover - compiled
    c = 0
    while x:
        x &= x - np.uint32(1)
        c += 1
    return c


@nb.njit(cache=True, nogil=True)
def _propagate(cand: np.ndarray, peers: np.ndarray, units: np.ndarray, full: np.uint32) -> bool:  # pragma: no cover
    """Naked and hidden singles to a fixpoint, in place; False on a contradiction."""
    ncells = cand.shape[0]
    changed = True
    while changed:
        changed = False
        for i in range(ncells):
            v = cand[i]
            if v == 0:
                return False
            if v & (v - np.uint32(1)) == 0:
                for k in range(peers.shape[1]):
                    j = peers[i, k]
                    if cand[j] & v:
                        cand[j] &= ~v
                        if cand[j] == 0:
                            return False
                        changed = True
        for u in range(units.shape[0]):
            seen = np.uint32(0)
            once = np.uint32(0)
            for k in range(units.shape[1]):
                c = cand[units[u, k]]
                once = (once & ~c) | (c & ~seen)
                seen |= c
            if seen != full:
                return False
            if once:
                for k in range(units.shape[1]):
                    i = units[u, k]
                    h = cand[i] & once
                    if h and cand[i] != h:
                        if h & (h - np.uint32(1)):
                            return False
                        cand[i] = h
                        changed = True
    return True


@nb.njit(cache=True, nogil=True)
def _search(cand0: np.ndarray, peers: np.ndarray, units: np.ndarray, full: np.uint32,
            limit: int, node_limit: int, out: np.ndarray) -> int:  # pragma: no cover - compiled
    """Solutions capped at ``limit``, or -1 past ``node_limit`` nodes; the first ``out.shape[0]``
    solutions found are written to the rows of ``out`` as digits (1..n)."""
    ncells = cand0.shape[0]
    stack = np.empty((ncells + 1, ncells), dtype=np.uint32)
    cell_at = np.empty(ncells + 1, dtype=np.int64)
    rest_at = np.empty(ncells + 1, dtype=np.uint32)
    stack[0, :] = cand0
    depth = 0
    found = 0
    nodes = 0
    fresh = True  # stack[depth] was just set and must be propagated
    while depth >= 0:
        if fresh:
            nodes += 1
            if nodes > node_limit:
                return -1
            fresh = False
            cur = stack[depth]
            if not _propagate(cur, peers, units, full):
                depth -= 1
                continue
            best = -1
            best_k = 99
            for i in range(ncells):
                k = _popcount(cur[i])
                if 1 < k < best_k:
                    best = i
                    best_k = k
            if best < 0:
                if found < out.shape[0]:
                    for i in range(ncells):
                        d = 0
                        v = cur[i]
                        while v:
                            v >>= np.uint32(1)
                            d += 1
                        out[found, i] = d
                found += 1
                if found >= limit:
                    return found
                depth -= 1
                continue
            cell_at[depth] = best
            rest_at[depth] = cur[best]
        # try the next candidate of this level's branching cell
        rest = rest_at[depth]
        if rest == 0:
            depth -= 1
            continue
        bit = rest & (~rest + np.uint32(1))
        rest_at[depth] = rest ^ bit
        stack[depth + 1, :] = stack[depth]
        stack[depth + 1, cell_at[depth]] = bit
        depth += 1
        fresh = True
    return found


@cache
def _tables(n: int) -> tuple[np.ndarray, np.ndarray, np.uint32]:
    b = board(n)
    peers = np.array([sorted(p) for p in b.peers], dtype=np.int64)
    units = np.array(b.units, dtype=np.int64)
    return peers, units, np.uint32((1 << n) - 1)


def _run(puzzle: Grid, limit: int, node_limit: int, keep: int) -> tuple[int, np.ndarray]:
    """Run :func:`_search` on ``puzzle``, keeping the first ``keep`` solutions: (count, rows)."""
    n = size_of_grid(puzzle)
    peers, units, full = _tables(n)
    cand = np.full(n * n, full, dtype=np.uint32)
    for i, d in enumerate(puzzle):
        if d:
            cand[i] = np.uint32(1 << (d - 1))
    out = np.zeros((keep, n * n), dtype=np.uint8)
    return int(_search(cand, peers, units, full, limit, node_limit, out)), out


def count(puzzle: Grid, limit: int = 2, node_limit: int = 200_000) -> int:
    """Solutions of ``puzzle`` capped at ``limit``; ``-1`` if ``node_limit`` search nodes did not
    decide it. Contradictory givens give 0."""
    return _run(puzzle, limit, node_limit, 0)[0]


def solutions(puzzle: Grid, limit: int = 2, node_limit: int = 200_000) -> tuple[Grid, ...] | None:
    """The solutions of ``puzzle``, at most ``limit`` (in the search's order), or ``None`` if
    ``node_limit`` search nodes did not decide it. Contradictory givens give ``()``. Each solution
    is a search node, so at most ``min(limit, node_limit)`` rows of ``n * n`` bytes are held."""
    if limit < 1:
        raise ValueError("limit must be at least 1")
    found, out = _run(puzzle, limit, node_limit, min(limit, max(node_limit, 0)))
    if found < 0:
        return None
    return tuple(tuple(int(d) for d in row) for row in out[:found].tolist())
