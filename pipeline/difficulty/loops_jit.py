"""Compiled twins of the nice-loop / AIC search of :mod:`.loops` (``_loops``), the hot part of grading a
puzzle that the older techniques cannot finish, and of its forcing net search.

Contracts
---------
* :func:`search` answers what :func:`pipeline.difficulty.loops._loops` searches: for each kind
  (discontinuous nice loop, AIC) the best chain as ``(start node, end node, depth)``, nodes numbered
  ``k * n * n + cell`` as there, and whether every chain was followed to its end. The same links
  (weak: one cell, or one digit in peer cells; strong: a bivalue cell, or a conjugate pair in a
  unit), the same layer-by-layer search of all starts together, the same stop (a chain of the
  wanted kind found, or no chain left) and the same order (most eliminations, then the start's
  cell and digit, then the end node), so the Python finder builds the very step it would have found.
* Boards up to 9x9 (one row of ``n^3`` flags per start); larger boards use the Python search.
* ``tests/difficulty/test_loops.py`` compares the two on every state of many solve paths.
* :func:`forcing_net` answers what :func:`pipeline.difficulty.loops._forcing_net_py` searches, on a
  board of any geometry (its peers and units passed in): the same premises in the same order, each
  settled by naked and hidden singles (:func:`_settle`, ``trial.settle`` step for step) to the one
  fixpoint, so the Python finder builds the same step. Used on killer boards;
  ``tests/difficulty/test_killer.py`` compares the two along killer solve paths.
"""

from __future__ import annotations

from functools import cache

import numba as nb
import numpy as np

from pipeline.board import board

#: Largest board side the compiled search takes.
MAX_N = 9


@nb.njit(cache=True, nogil=True)
def _search(cand: np.ndarray, peers: np.ndarray, units: np.ndarray, n: int,
            want: int) -> tuple[np.ndarray, bool]:  # pragma: no cover - compiled
    """``out[kind] = (found, start, end, depth)`` for kind 0 (discontinuous nice loop) and 1 (AIC),
    and whether the search ran out of chains. Links as adjacency lists; sets as stamped arrays."""
    ncells = n * n
    big = ncells * n
    wdeg = np.zeros(big, dtype=np.int64)
    wadj = np.empty((big, n + peers.shape[1]), dtype=np.int64)
    sdeg = np.zeros(big, dtype=np.int64)
    sadj = np.empty((big, 8), dtype=np.int64)
    for c in range(ncells):
        m = cand[c]
        if m == 0:
            continue
        cnt = 0
        for k in range(n):
            if m >> k & 1:
                cnt += 1
        for k in range(n):
            if not m >> k & 1:
                continue
            x = k * ncells + c
            for k2 in range(n):
                if k2 != k and m >> k2 & 1:
                    wadj[x, wdeg[x]] = k2 * ncells + c
                    wdeg[x] += 1
                    if cnt == 2:
                        sadj[x, sdeg[x]] = k2 * ncells + c
                        sdeg[x] += 1
            for j in range(peers.shape[1]):
                p = peers[c, j]
                if cand[p] >> k & 1:
                    wadj[x, wdeg[x]] = k * ncells + p
                    wdeg[x] += 1
    for u in range(units.shape[0]):
        for k in range(n):
            a = -1
            b = -1
            cnt = 0
            for j in range(units.shape[1]):
                c = units[u, j]
                if cand[c] >> k & 1:
                    cnt += 1
                    if a < 0:
                        a = c
                    else:
                        b = c
            if cnt == 2:
                xa = k * ncells + a
                xb = k * ncells + b
                dup = False
                for q in range(sdeg[xa]):
                    if sadj[xa, q] == xb:
                        dup = True
                if not dup:
                    sadj[xa, sdeg[xa]] = xb
                    sdeg[xa] += 1
                    sadj[xb, sdeg[xb]] = xa
                    sdeg[xb] += 1
    # starts: nodes with a strong link, in cell then digit order
    starts = np.empty(big, dtype=np.int64)
    nstarts = 0
    for c in range(ncells):
        for k in range(n):
            x = k * ncells + c
            if sdeg[x] > 0:
                starts[nstarts] = x
                nstarts += 1
    off_seen = np.zeros((nstarts, big), dtype=np.bool_)
    on_seen = np.zeros((nstarts, big), dtype=np.bool_)
    front = np.empty((nstarts, big), dtype=np.int64)
    nfront = np.ones(nstarts, dtype=np.int64)
    alive = np.ones(nstarts, dtype=np.bool_)
    new_on = np.empty(big, dtype=np.int64)
    mark = np.zeros(big, dtype=np.int64)  # mark[y] == stamp: y is weakly linked to the start
    reach = np.zeros(big, dtype=np.int64)  # reach[y] == stamp: y is weakly linked to such a node
    stamp = 0
    for r in range(nstarts):
        off_seen[r, starts[r]] = True
        front[r, 0] = starts[r]
    out = np.zeros((2, 4), dtype=np.int64)
    keys = np.zeros((2, 3), dtype=np.int64)  # (-eliminations, start rank, end) of the best of each kind
    nalive = nstarts
    depth = 0
    while nalive > 0 and out[want, 0] == 0:
        depth += 1
        for r in range(nstarts):
            if not alive[r]:
                continue
            a = starts[r]
            ca = a % ncells
            rank = ca * n + a // ncells
            non = 0
            for f in range(nfront[r]):
                x = front[r, f]
                for q in range(sdeg[x]):
                    y = sadj[x, q]
                    if not on_seen[r, y]:
                        on_seen[r, y] = True
                        new_on[non] = y
                        non += 1
            if non == 0:
                alive[r] = False
                nalive -= 1
                continue
            stamp += 1
            for q in range(wdeg[a]):
                mark[wadj[a, q]] = stamp
            for q in range(wdeg[a]):
                t = wadj[a, q]
                for q2 in range(wdeg[t]):
                    reach[wadj[t, q2]] = stamp
            for i in range(non):
                b = new_on[i]
                if b == a:
                    key0, key1, key2 = -1, rank, a
                    if out[0, 0] == 0 or (key0, key1, key2) < (keys[0, 0], keys[0, 1], keys[0, 2]):
                        out[0, 0], out[0, 1], out[0, 2], out[0, 3] = 1, a, a, depth
                        keys[0, 0], keys[0, 1], keys[0, 2] = key0, key1, key2
                    continue
                if reach[b] != stamp:
                    continue
                cnt = 0
                mine = False
                cb = b % ncells
                for q in range(wdeg[b]):
                    t = wadj[b, q]
                    if mark[t] == stamp:
                        cnt += 1
                        ct = t % ncells
                        if ct == ca or ct == cb:  # noqa: SIM109 - plain compares compile simply
                            mine = True
                if cnt == 0:
                    continue
                kind = 0 if mine else 1
                key0, key1, key2 = -cnt, rank, b
                if out[kind, 0] == 0 or (key0, key1, key2) < (keys[kind, 0], keys[kind, 1], keys[kind, 2]):
                    out[kind, 0], out[kind, 1], out[kind, 2], out[kind, 3] = 1, a, b, depth
                    keys[kind, 0], keys[kind, 1], keys[kind, 2] = key0, key1, key2
            nf = 0
            for i in range(non):
                x = new_on[i]
                for q in range(wdeg[x]):
                    y = wadj[x, q]
                    if not off_seen[r, y]:
                        off_seen[r, y] = True
                        front[r, nf] = y
                        nf += 1
            nfront[r] = nf
            if nf == 0:
                alive[r] = False
                nalive -= 1
    return out, nalive == 0


@cache
def _tables(n: int) -> tuple[np.ndarray, np.ndarray]:
    b = board(n)
    return np.array([sorted(p) for p in b.peers], dtype=np.int64), np.array(b.units, dtype=np.int64)


def search(cand: list[int], n: int, want: int) -> tuple[list[tuple[int, int, int] | None], bool]:
    """For kinds 0 (discontinuous nice loop) and 1 (AIC): ``(start, end, depth)`` of the best chain, or
    None; and whether every chain was followed to its end (see the module contracts). Classic boards
    of side up to :data:`MAX_N`; ``want`` is the kind whose first chain stops the search."""
    peers, units = _tables(n)
    out, done = _search(np.array(cand, dtype=np.int64), peers, units, n, want)
    found = [(int(out[k, 1]), int(out[k, 2]), int(out[k, 3])) if out[k, 0] else None for k in (0, 1)]
    return found, bool(done)


# ---------------------------------------------------------------------------------------------
# forcing nets
# ---------------------------------------------------------------------------------------------


@nb.njit(cache=True, nogil=True)
def _settle(cand: np.ndarray, queue: np.ndarray, top: int, peers: np.ndarray, units: np.ndarray,
            full: int) -> bool:  # pragma: no cover - compiled
    """:func:`pipeline.difficulty.trial.settle` step for step: the singles in ``queue[:top]`` spread to
    their peers (``-1`` pads a row), the last queued first; then hidden singles, unit by unit; until
    nothing is queued. False on a contradiction (a cell or unit left without a digit, or one cell the
    only place of two)."""
    while True:
        while top > 0:
            top -= 1
            i = queue[top]
            v = cand[i]
            for q in range(peers.shape[1]):
                j = peers[i, q]
                if j < 0:
                    break
                c = cand[j]
                if c & v:
                    c ^= v
                    if c == 0:
                        return False
                    cand[j] = c
                    if c & (c - 1) == 0:
                        queue[top] = j
                        top += 1
        for u in range(units.shape[0]):
            seen = 0
            twice = 0
            for q in range(units.shape[1]):
                c = cand[units[u, q]]
                twice |= seen & c
                seen |= c
            if seen != full:
                return False
            once = seen & ~twice
            if once:
                for q in range(units.shape[1]):
                    i = units[u, q]
                    c = cand[i]
                    h = c & once
                    if h and h != c:
                        if h & (h - 1):
                            return False
                        cand[i] = h
                        queue[top] = i
                        top += 1
        if top == 0:
            return True


@nb.njit(cache=True, nogil=True)
def _forcing_net(values: np.ndarray, cand: np.ndarray, peers: np.ndarray, units: np.ndarray,
                 n: int) -> tuple[int, int, int, np.ndarray]:  # pragma: no cover - compiled
    """The search of :func:`pipeline.difficulty.loops._forcing_net_py`: ``(1, cell, k, _)`` for the first
    candidate (cells, then digits ``k + 1``, ascending) whose placement settles into a contradiction;
    else ``(2, cell, -1, union)`` for the first cell with two or more candidates whose candidates'
    settled states, OR-ed (``union``), leave out a candidate of an open cell; else ``(0, -1, -1, _)``."""
    big = cand.shape[0]
    full = (1 << n) - 1
    masks = np.empty(big, dtype=np.int64)
    for i in range(big):
        masks[i] = (1 << (values[i] - 1)) if values[i] else cand[i]
    settled = np.zeros((big, n, big), dtype=np.int64)
    queue = np.empty(big + 1, dtype=np.int64)
    union = np.zeros(big, dtype=np.int64)
    for c in range(big):
        if values[c]:
            continue
        for k in range(n):
            if not (cand[c] >> k) & 1:
                continue
            trial = settled[c, k]
            trial[:] = masks
            trial[c] = 1 << k
            queue[0] = c
            if not _settle(trial, queue, 1, peers, units, full):
                return 1, c, k, union
    for c in range(big):
        m = cand[c]
        if values[c] or m & (m - 1) == 0:
            continue
        union[:] = 0
        for k in range(n):
            if (m >> k) & 1:
                for i in range(big):
                    union[i] |= settled[c, k, i]
        for i in range(big):
            if not values[i] and cand[i] & ~union[i]:
                return 2, c, -1, union
    return 0, -1, -1, union


def forcing_net(values: list[int], cand: list[int], peers: tuple[tuple[int, ...], ...],
                units: tuple[tuple[int, ...], ...], n: int) -> tuple[int, int, int, list[int]]:
    """:func:`_forcing_net` on a state of any board (``peers`` and ``units`` its geometry, as
    :mod:`pipeline.difficulty.candidates` holds it); ``union`` as a list."""
    kind, c, k, union = _forcing_net(np.array(values, dtype=np.int64), np.array(cand, dtype=np.int64),
                                     _peer_table(peers), _unit_table(units), n)
    return int(kind), int(c), int(k), union.tolist()


_PEER_TABLES: dict[tuple[tuple[int, ...], ...], np.ndarray] = {}


def _peer_table(peers: tuple[tuple[int, ...], ...]) -> np.ndarray:
    """Each cell's peers, one row per cell, padded with ``-1`` (cached per geometry, a few boards)."""
    table = _PEER_TABLES.get(peers)
    if table is None:
        if len(_PEER_TABLES) > 64:
            _PEER_TABLES.clear()
        width = max(len(p) for p in peers)
        table = np.full((len(peers), width), -1, dtype=np.int64)
        for i, p in enumerate(peers):
            table[i, : len(p)] = p
        _PEER_TABLES[peers] = table
    return table


@cache
def _unit_table(units: tuple[tuple[int, ...], ...]) -> np.ndarray:
    return np.array(units, dtype=np.int64)
