"""Compiled twins of the nice-loop / AIC search of :mod:`.loops` (``_loops``), the hot part of grading a
puzzle that the older techniques cannot finish, and of its forcing net search.

Contracts
---------
* :func:`search` answers what :func:`.loops._loops` searches: for each kind
  (discontinuous nice loop, AIC) the best chain as ``(start node, end node, depth)``, nodes numbered
  ``k * n * n + cell`` as there, and whether every chain was followed to its end. The same links
  (weak: one cell, or one digit in peer cells; strong: a bivalue cell, or a conjugate pair in a
  unit), the same layer-by-layer search of all starts together, the same stop (a chain of the
  wanted kind found, or no chain left) and the same order (most eliminations, then the start's
  cell and digit, then the end node), so the Python finder builds the very step it would have found.
* The loop search takes boards up to :data:`MAX_N` (one row of ``n^3`` flags per start); larger boards
  use the Python search. The forcing chains and nets (:func:`forcing_chain`, :func:`forcing_net`) take
  every classic board: the same search order as their Python finders, so the same step.
* ``tests/difficulty/test_loops.py`` compares the two on every state of many solve paths.
* :func:`forcing_net_board` is :func:`forcing_net` on a board of any geometry (its peers and units
  passed in, peers padded with ``-1``): the same premises in the same order, each settled by naked and
  hidden singles (:func:`_settle`, ``trial.settle`` step for step) to the one fixpoint, so the Python
  finder builds the same step. Used on killer boards; ``tests/difficulty/test_killer.py`` compares it
  with :func:`.loops._forcing_net_py` along killer solve paths.
"""

from __future__ import annotations

from functools import cache

import numba as nb
import numpy as np

from pipeline.board import board
from pipeline.difficulty.chains.loops import LOOP_SEARCH_MAX_N

#: Largest board side the compiled loop search takes (the forcing chains and nets take any).
MAX_N = LOOP_SEARCH_MAX_N


@nb.njit(cache=True, nogil=True)
def _links(cand: np.ndarray, peers: np.ndarray, units: np.ndarray,
           n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """The implication graph of :class:`.graph.Graph` as adjacency lists on nodes
    ``k * n * n + cell``: ``(wdeg, wadj, sdeg, sadj)``, the weak and the strong links of each node."""
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
                if p >= 0 and cand[p] >> k & 1:  # rows padded with -1 on boards of uneven peers
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
    return wdeg, wadj, sdeg, sadj


@nb.njit(cache=True, nogil=True)
def _search(cand: np.ndarray, peers: np.ndarray, units: np.ndarray, n: int,
            want: int) -> tuple[np.ndarray, bool]:  # pragma: no cover - compiled
    """``out[kind] = (found, start, end, depth)`` for kind 0 (discontinuous nice loop) and 1 (AIC),
    and whether the search ran out of chains. Links as adjacency lists; sets as stamped arrays."""
    ncells = n * n
    big = ncells * n
    wdeg, wadj, sdeg, sadj = _links(cand, peers, units, n)
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
# Forcing chains and nets
# ---------------------------------------------------------------------------------------------


@nb.njit(cache=True, nogil=True)
def _close(x: int, on: bool, stamp: int, wdeg: np.ndarray, wadj: np.ndarray, sdeg: np.ndarray, sadj: np.ndarray,
           on_mark: np.ndarray, off_mark: np.ndarray, qn: np.ndarray, qf: np.ndarray,
           seen_on: np.ndarray, seen_off: np.ndarray) -> tuple[int, int]:  # pragma: no cover - compiled
    """The closure of the premise "``x`` is ``on``" (``loops._closure``): nodes marked ``stamp`` in
    ``on_mark`` / ``off_mark`` and listed in ``seen_on`` / ``seen_off``; returns how many of each. The
    fixpoint does not depend on the order in which links are followed."""
    hn = 0
    hf = 0
    non = 0
    noff = 0
    if on:
        on_mark[x] = stamp
        qn[0] = x
        hn = 1
        seen_on[0] = x
        non = 1
    else:
        off_mark[x] = stamp
        qf[0] = x
        hf = 1
        seen_off[0] = x
        noff = 1
    while hn > 0 or hf > 0:
        if hn > 0:
            hn -= 1
            y = qn[hn]
            for q in range(wdeg[y]):
                z = wadj[y, q]
                if off_mark[z] != stamp:
                    off_mark[z] = stamp
                    qf[hf] = z
                    hf += 1
                    seen_off[noff] = z
                    noff += 1
        else:
            hf -= 1
            y = qf[hf]
            for q in range(sdeg[y]):
                z = sadj[y, q]
                if on_mark[z] != stamp:
                    on_mark[z] = stamp
                    qn[hn] = z
                    hn += 1
                    seen_on[non] = z
                    non += 1
    return non, noff


@nb.njit(cache=True, nogil=True)
def _broken(stamp: int, cand: np.ndarray, n: int, on_mark: np.ndarray, off_mark: np.ndarray,
            seen_on: np.ndarray, non: int, seen_off: np.ndarray, noff: int) -> tuple[int, int]:  # pragma: no cover
    """``loops._broken`` of one closure: ``(0, node)`` the lowest node both on and off, else ``(1, cell)``
    the lowest cell with every candidate off, else ``(-1, -1)``."""
    ncells = n * n
    both = -1
    for i in range(non):
        z = seen_on[i]
        if off_mark[z] == stamp and (both < 0 or z < both):
            both = z
    if both >= 0:
        return 0, both
    dead = -1
    for i in range(noff):
        c = seen_off[i] % ncells
        if dead >= 0 and c >= dead:
            continue
        m = cand[c]
        every = True
        for k in range(n):
            if m >> k & 1 and off_mark[k * ncells + c] != stamp:
                every = False
                break
        if every:
            dead = c
    if dead >= 0:
        return 1, dead
    return -1, -1


@nb.njit(cache=True, nogil=True)
def _forcing_chain(cand: np.ndarray, peers: np.ndarray, units: np.ndarray,
                   n: int) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """The first forcing chain of ``loops._forcing_chain``'s search order: ``res = (stage, a, why kind,
    why value, group, target)`` and, for stage 3, the eliminated nodes as 64-bit words. Stages: 0 none;
    1 premise ``a`` on is contradictory; 2 group ``group`` forces node ``target`` on; 3 group ``group``
    forces the nodes of the words off; 4 premise ``a`` off is contradictory. Groups are numbered as
    there: the cells with candidates ascending, then every (unit, digit)."""
    ncells = n * n
    big = ncells * n
    words = (big + 63) // 64
    wdeg, wadj, sdeg, sadj = _links(cand, peers, units, n)
    nodes = np.empty(big, dtype=np.int64)
    rank = np.full(big, -1, dtype=np.int64)
    nn = 0
    for c in range(ncells):
        for k in range(n):
            if cand[c] >> k & 1:
                x = k * ncells + c
                nodes[nn] = x
                rank[x] = nn
                nn += 1
    on_mark = np.zeros(big, dtype=np.int64)
    off_mark = np.zeros(big, dtype=np.int64)
    qn = np.empty(big, dtype=np.int64)
    qf = np.empty(big, dtype=np.int64)
    seen_on = np.empty(big, dtype=np.int64)
    seen_off = np.empty(big, dtype=np.int64)
    on_bits = np.zeros((nn, words), dtype=np.uint64)
    off_bits = np.zeros((nn, words), dtype=np.uint64)
    res = np.full(6, -1, dtype=np.int64)
    res[0] = 0
    elim = np.zeros(words, dtype=np.uint64)
    one = np.uint64(1)
    stamp = 0
    for r in range(nn):  # contradictions of "on" premises
        stamp += 1
        non, noff = _close(nodes[r], True, stamp, wdeg, wadj, sdeg, sadj, on_mark, off_mark, qn, qf,
                           seen_on, seen_off)
        kind, val = _broken(stamp, cand, n, on_mark, off_mark, seen_on, non, seen_off, noff)
        if kind >= 0:
            res[0], res[1], res[2], res[3] = 1, nodes[r], kind, val
            return res, elim
        for i in range(non):
            z = seen_on[i]
            on_bits[r, z >> 6] |= one << np.uint64(z & 63)
        for i in range(noff):
            z = seen_off[i]
            off_bits[r, z >> 6] |= one << np.uint64(z & 63)
    all_on = np.empty(words, dtype=np.uint64)
    all_off = np.empty(words, dtype=np.uint64)
    members = np.empty(n, dtype=np.int64)
    group = -1
    for gk in range(2):  # verities: the cells, then every (unit, digit)
        for gi in range(ncells if gk == 0 else units.shape[0] * n):
            nm = 0
            if gk == 0:
                if cand[gi] == 0:
                    continue
                for k in range(n):
                    if cand[gi] >> k & 1:
                        members[nm] = k * ncells + gi
                        nm += 1
            else:
                u, k = gi // n, gi % n
                for j in range(units.shape[1]):
                    c = units[u, j]
                    if cand[c] >> k & 1:
                        members[nm] = k * ncells + c
                        nm += 1
            group += 1
            if nm < 2:
                continue
            all_on[:] = on_bits[rank[members[0]]]
            all_off[:] = off_bits[rank[members[0]]]
            for i in range(1, nm):
                all_on &= on_bits[rank[members[i]]]
                all_off &= off_bits[rank[members[i]]]
            for i in range(nm):
                z = members[i]
                all_on[z >> 6] &= ~(one << np.uint64(z & 63))
            for w in range(words):
                if all_on[w]:
                    low = all_on[w]
                    b = 0
                    while not (low >> np.uint64(b)) & one:
                        b += 1
                    res[0], res[4], res[5] = 2, group, w * 64 + b
                    return res, elim
            for w in range(words):
                if all_off[w]:
                    res[0], res[4] = 3, group
                    elim[:] = all_off
                    return res, elim
    for r in range(nn):  # contradictions of "off" premises
        stamp += 1
        non, noff = _close(nodes[r], False, stamp, wdeg, wadj, sdeg, sadj, on_mark, off_mark, qn, qf,
                           seen_on, seen_off)
        kind, val = _broken(stamp, cand, n, on_mark, off_mark, seen_on, non, seen_off, noff)
        if kind >= 0:
            res[0], res[1], res[2], res[3] = 4, nodes[r], kind, val
            return res, elim
    return res, elim


@nb.njit(cache=True, nogil=True)
def _settle(cand: np.ndarray, queue: np.ndarray, qlen: int, peers: np.ndarray, units: np.ndarray,
            full: int) -> bool:  # pragma: no cover - compiled
    """:func:`pipeline.difficulty.trial.settle`, line for line (the same queue and unit order)."""
    while True:
        while qlen > 0:
            qlen -= 1
            i = queue[qlen]
            v = cand[i]
            for q in range(peers.shape[1]):
                j = peers[i, q]
                if j < 0:  # a row of a board whose cells have fewer peers is padded with -1
                    break
                c = cand[j]
                if c & v:
                    c ^= v
                    if not c:
                        return False
                    cand[j] = c
                    if not c & (c - 1):
                        queue[qlen] = j
                        qlen += 1
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
                        queue[qlen] = i
                        qlen += 1
        if not qlen:
            return True


@nb.njit(cache=True, nogil=True)
def _forcing_net(values: np.ndarray, cand: np.ndarray, peers: np.ndarray, units: np.ndarray,
                 n: int) -> tuple[int, int, int, np.ndarray]:  # pragma: no cover - compiled
    """The first forcing net of ``loops._forcing_net``'s search order: ``(1, cell, k, _)`` placing digit
    ``k + 1`` in ``cell`` settles into a contradiction; ``(2, cell, -1, union)`` the union of the settled
    states of the cell's candidates leaves out some candidate; ``(0, -1, -1, _)`` none."""
    ncells = n * n
    full = (1 << n) - 1
    masks = np.empty(ncells, dtype=np.int64)
    total = 0
    for c in range(ncells):
        masks[c] = (1 << (values[c] - 1)) if values[c] else cand[c]
        if not values[c]:
            for k in range(n):
                total += cand[c] >> k & 1
    settled = np.empty((total, ncells), dtype=np.int64)
    slot = np.full((ncells, n), -1, dtype=np.int64)
    queue = np.empty(2 * ncells + 2, dtype=np.int64)
    union = np.zeros(ncells, dtype=np.int64)
    s = 0
    for c in range(ncells):
        if values[c]:
            continue
        for k in range(n):
            if not cand[c] >> k & 1:
                continue
            trial = settled[s]
            trial[:] = masks
            trial[c] = 1 << k
            queue[0] = c
            if not _settle(trial, queue, 1, peers, units, full):
                return 1, c, k, union
            slot[c, k] = s
            s += 1
    for c in range(ncells):
        if values[c]:
            continue
        m = cand[c]
        cnt = 0
        for k in range(n):
            cnt += m >> k & 1
        if cnt < 2:
            continue
        union[:] = 0
        for k in range(n):
            if m >> k & 1:
                union |= settled[slot[c, k]]
        for i in range(ncells):
            if not values[i] and cand[i] & ~union[i]:
                return 2, c, -1, union
    return 0, -1, -1, union


def forcing_chain(cand: list[int], n: int) -> tuple[list[int], int]:
    """:func:`_forcing_chain` on a classic board of any size: ``(res, eliminated nodes as a bitset)``."""
    peers, units = _tables(n)
    res, words = _forcing_chain(np.array(cand, dtype=np.int64), peers, units, n)
    return [int(v) for v in res], int.from_bytes(words.astype("<u8").tobytes(), "little")


def forcing_net(values: list[int], cand: list[int], n: int) -> tuple[int, int, int, list[int]]:
    """:func:`_forcing_net` on a classic board of any size: ``(stage, cell, k, union)``."""
    peers, units = _tables(n)
    stage, c, k, union = _forcing_net(np.array(values, dtype=np.int64), np.array(cand, dtype=np.int64),
                                      peers, units, n)
    return int(stage), int(c), int(k), [int(v) for v in union]


def forcing_net_board(values: list[int], cand: list[int], peers: tuple[tuple[int, ...], ...],
                      units: tuple[tuple[int, ...], ...], n: int) -> tuple[int, int, int, list[int]]:
    """:func:`_forcing_net` on a state of any board (``peers`` and ``units`` its geometry, as
    :mod:`pipeline.difficulty.candidates` holds it; units of ``n`` cells each): ``(stage, cell, k, union)``."""
    stage, c, k, union = _forcing_net(np.array(values, dtype=np.int64), np.array(cand, dtype=np.int64),
                                      _peer_table(peers), _unit_table(units), n)
    return int(stage), int(c), int(k), [int(v) for v in union]


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
