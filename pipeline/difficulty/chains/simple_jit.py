"""Compiled probes of the colouring and chains (:mod:`.simple`): simple colours, multi-colours,
X-chain and XY-chain. The chain probes run the Python finders' breadth-first search in the same neighbour order,
keeping the first parent of each state, so they drop exactly the chains the finders drop. :func:`xy_chain_choice`
goes on to grader 5's choice among the XY-chains (HoDoKu's comparator, as :func:`.simple._better`), so the
compiled solver's finder builds its step without the Python search (``tests/difficulty/test_twins.py``
compares the two).
"""

from __future__ import annotations

from functools import cache

import numba as nb
import numpy as np

from pipeline.board import board
from pipeline.difficulty.candidates_jit import _bitlen, _link_arrays, _popcount, _sees_both, _strong
from pipeline.difficulty.hodoku import INDEX_STRIDE


@nb.njit(cache=True, nogil=True)
def _simple_colors(cand: np.ndarray, units: np.ndarray, is_peer: np.ndarray, n: int) -> bool:  # pragma: no cover
    """``chains._simple_colors(st, ctx) is not None``: a 2-colourable component (3 cells or more) of
    the conjugate-pair graph of a digit with a colour wrap or a colour trap."""
    ncells = n * n
    la, lb, lk = _link_arrays(n)
    color = np.empty(ncells, dtype=np.int64)
    comp = np.empty(ncells, dtype=np.int64)
    stack = np.empty(ncells, dtype=np.int64)
    for k in range(n):
        cnt = _strong(cand, units, n, k, la, lb, lk)
        if cnt < 2:
            continue
        color[:] = -1
        for s0 in range(cnt):
            s = la[s0]
            if color[s] >= 0:
                continue
            color[s] = 0
            size = 0
            top = 0
            stack[top] = s
            top += 1
            ok = True
            while top:
                top -= 1
                c = stack[top]
                comp[size] = c
                size += 1
                for q in range(cnt):
                    if la[q] == c:
                        e = lb[q]
                    elif lb[q] == c:
                        e = la[q]
                    else:
                        continue
                    if color[e] < 0:
                        color[e] = 1 - color[c]
                        stack[top] = e
                        top += 1
                    elif color[e] == color[c]:
                        ok = False
            if not ok or size < 3:
                continue
            for x in range(size):  # wrap
                for y in range(size):
                    if color[comp[x]] == color[comp[y]] and is_peer[comp[x], comp[y]]:
                        return True
            for i in range(ncells):  # trap
                if not cand[i] >> k & 1:
                    continue
                inside = False
                see0 = False
                see1 = False
                for x in range(size):
                    c = comp[x]
                    if c == i:
                        inside = True
                    elif is_peer[c, i]:
                        if color[c] == 0:
                            see0 = True
                        else:
                            see1 = True
                if not inside and see0 and see1:
                    return True
    return False


@nb.njit(cache=True, nogil=True)
def _multi_colors(cand: np.ndarray, units: np.ndarray, is_peer: np.ndarray, n: int) -> bool:  # pragma: no cover
    """``chains._multi_colors(st, ctx) is not None``: two 2-coloured components A, B of one digit's
    conjugate pairs where a colour of A sees both colours of B (type 2), or where a colour of A sees a
    colour of B and a candidate outside A and B sees both other colours (type 1). Colour classes are
    numbered ``2 * component + colour``; ``sees[x, i]``: a cell of class ``x`` is a peer of cell ``i``."""
    ncells = n * n
    la, lb, lk = _link_arrays(n)
    color = np.empty(ncells, dtype=np.int64)
    comp = np.empty(ncells, dtype=np.int64)
    stack = np.empty(ncells, dtype=np.int64)
    sees = np.zeros((2 * ncells, ncells), dtype=np.bool_)
    meet = np.zeros((2, 2), dtype=np.bool_)  # meet[p, q]: colour p of A sees colour q of B
    for k in range(n):
        cnt = _strong(cand, units, n, k, la, lb, lk)
        if cnt < 2:
            continue
        color[:] = -1
        comp[:] = -1
        ncomp = 0
        for s0 in range(2 * cnt):
            s = la[s0] if s0 < cnt else lb[s0 - cnt]
            if color[s] >= 0:
                continue
            color[s] = 0
            comp[s] = ncomp
            top = 1
            stack[0] = s
            ok = True
            while top:
                top -= 1
                c = stack[top]
                for q in range(cnt):
                    if la[q] == c:
                        e = lb[q]
                    elif lb[q] == c:
                        e = la[q]
                    else:
                        continue
                    if color[e] < 0:
                        color[e] = 1 - color[c]
                        comp[e] = ncomp
                        stack[top] = e
                        top += 1
                    elif color[e] == color[c]:
                        ok = False
            if not ok:  # not 2-colourable: dropped, as the finder drops it
                for i in range(ncells):
                    if comp[i] == ncomp:
                        comp[i] = -2
            else:
                ncomp += 1
        if ncomp < 2:
            continue
        sees[: 2 * ncomp, :] = False
        for c in range(ncells):
            if comp[c] >= 0:
                x = 2 * comp[c] + color[c]
                for i in range(ncells):
                    if is_peer[c, i]:
                        sees[x, i] = True
        for a in range(ncomp):
            for b in range(ncomp):
                if a == b:
                    continue
                meet[:, :] = False
                for c in range(ncells):
                    if comp[c] == b:
                        for p in range(2):
                            if sees[2 * a + p, c]:
                                meet[p, color[c]] = True
                if (meet[0, 0] and meet[0, 1]) or (meet[1, 0] and meet[1, 1]):
                    return True  # type 2
                for p in range(2):
                    for q in range(2):
                        if not meet[p, q]:
                            continue
                        oa = 2 * a + 1 - p
                        ob = 2 * b + 1 - q
                        for i in range(ncells):
                            if cand[i] >> k & 1 and comp[i] != a and comp[i] != b and sees[oa, i] and sees[ob, i]:
                                return True  # type 1
    return False


@nb.njit(cache=True, nogil=True)
def _chain_ok(parent: np.ndarray, s: int, div: int, seen: np.ndarray, least: int) -> bool:  # pragma: no cover
    """The chain unwound from state ``s`` (cell = state // ``div``) has distinct cells and at least
    ``least`` of them."""
    seen[:] = False
    length = 0
    cur = s
    while cur >= 0:
        c = cur // div
        if seen[c]:
            return False
        seen[c] = True
        length += 1
        cur = parent[cur]
    return length >= least


# scratch and digit loop as in _simple_colors: each kernel allocates its own (kernels share no state)
# the conjugate-pair set-up of _simple_colors, repeated: each probe owns its scratch arrays and stays
# one kernel that reads as its Python finder (chains._x_chain)
@nb.njit(cache=True, nogil=True)
def _x_chain(cand: np.ndarray, units: np.ndarray, is_peer: np.ndarray, n: int) -> bool:  # pragma: no cover
    """``chains._x_chain(st, ctx) is not None``: the same breadth-first search (same neighbour order,
    first parent kept) meets an end with eliminations whose unwound chain has distinct cells."""
    ncells = n * n
    la, lb, lk = _link_arrays(n)
    parent = np.empty(2 * ncells, dtype=np.int64)  # state = 2 * cell + parity; -1 root, -2 unseen
    front = np.empty(2 * ncells, dtype=np.int64)
    nxt = np.empty(2 * ncells, dtype=np.int64)
    neigh = np.empty(ncells, dtype=np.int64)
    seen = np.zeros(ncells, dtype=np.bool_)
    has_link = np.zeros(ncells, dtype=np.bool_)
    for k in range(n):
        cnt = _strong(cand, units, n, k, la, lb, lk)
        if cnt < 2:
            continue
        has_link[:] = False
        for q in range(cnt):
            has_link[la[q]] = True
            has_link[lb[q]] = True
        for start in range(ncells):
            if not has_link[start]:
                continue
            parent[:] = -2
            parent[2 * start] = -1
            front[0] = 2 * start
            nf = 1
            while nf:
                nn = 0
                for f in range(nf):
                    c = front[f] // 2
                    p = front[f] % 2
                    nneigh = 0
                    if p == 0:  # strong links of c, in the order chains._x_chain's adjacency lists hold them
                        for q in range(cnt):
                            if la[q] == c:
                                neigh[nneigh] = lb[q]
                                nneigh += 1
                            elif lb[q] == c:
                                neigh[nneigh] = la[q]
                                nneigh += 1
                    else:
                        for e in range(ncells):
                            if cand[e] >> k & 1 and is_peer[c, e]:
                                neigh[nneigh] = e
                                nneigh += 1
                    for q in range(nneigh):
                        e = neigh[q]
                        s = 2 * e + 1 - p
                        if parent[s] != -2:
                            continue
                        parent[s] = front[f]
                        nxt[nn] = s
                        nn += 1
                        if p == 0 and e != start and _sees_both(cand, is_peer, k, start, e, -1, -1) and _chain_ok(
                                parent, s, 2, seen, 0):
                            return True
                front, nxt = nxt, front
                nf = nn
    return False


@nb.njit(cache=True, nogil=True)
def _xy_chain(cand: np.ndarray, is_peer: np.ndarray, n: int) -> bool:  # pragma: no cover - compiled
    """``chains._xy_chain(st, ctx) is not None``: :func:`_xy_walk` stopped at the first chain that
    eliminates."""
    return _xy_walk(cand, is_peer, n, True)[0] == 1


@nb.njit(cache=True, nogil=True)
def _xy_chain_choice(cand: np.ndarray, is_peer: np.ndarray, n: int) -> np.ndarray:  # pragma: no cover - compiled
    """Grader 5's XY-chain (``chains.xy_chain``): HoDoKu's choice among every chain of :func:`_xy_walk`
    (each start, each digit, the same breadth-first walk, first parent kept): the most cells
    eliminated, then the lowest index sum, then the fewest cells; the first found on a tie. Returns
    ``[found, digit, cells in the chain, cells eliminated, chain..., eliminated...]``."""
    return _xy_walk(cand, is_peer, n, False)


@nb.njit(cache=True, nogil=True)
def _xy_walk(cand: np.ndarray, is_peer: np.ndarray, n: int, first: bool) -> np.ndarray:  # pragma: no cover - compiled
    """The breadth-first search of ``chains._xy_chain`` over bivalue cells, from each start and digit.
    With ``first`` it returns at the first chain that eliminates (only ``out[0] = 1`` set); otherwise it
    walks them all and keeps :func:`_xy_chain_choice`'s choice in ``out`` (its layout)."""
    ncells = n * n
    parent = np.empty(n * ncells, dtype=np.int64)  # state = n * cell + digit index
    front = np.empty(n * ncells, dtype=np.int64)
    nxt = np.empty(n * ncells, dtype=np.int64)
    seen = np.zeros(ncells, dtype=np.bool_)
    out = np.zeros(4 + 2 * ncells, dtype=np.int64)
    best_count, best_sum, best_len = -1, 0, 0
    for start in range(ncells):
        if _popcount(cand[start]) != 2:
            continue
        for kx in range(n):
            if not cand[start] >> kx & 1:
                continue
            ky = _bitlen(cand[start] & ~(1 << kx)) - 1
            parent[:] = -2
            s0 = n * start + ky
            parent[s0] = -1
            front[0] = s0
            nf = 1
            while nf:
                nn = 0
                for f in range(nf):
                    c = front[f] // n
                    kv = front[f] % n
                    for e in range(ncells):
                        if not (is_peer[c, e] and _popcount(cand[e]) == 2 and cand[e] >> kv & 1):
                            continue
                        ko = _bitlen(cand[e] & ~(1 << kv)) - 1
                        s = n * e + ko
                        if parent[s] != -2:
                            continue
                        parent[s] = front[f]
                        nxt[nn] = s
                        nn += 1
                        if ko != kx or e == start:
                            continue
                        if first:
                            if _sees_both(cand, is_peer, kx, start, e, -1, -1) and _chain_ok(parent, s, n, seen, 3):
                                out[0] = 1
                                return out
                            continue
                        if not _chain_ok(parent, s, n, seen, 3):
                            continue
                        count, isum = 0, 0
                        for x in range(ncells):  # the eliminations, ascending: HoDoKu's index sum
                            if cand[x] >> kx & 1 and is_peer[start, x] and is_peer[e, x]:
                                isum += x * (1 + INDEX_STRIDE * count) + kx + 1
                                count += 1
                        if count == 0:
                            continue
                        length = 0
                        cur = s
                        while cur >= 0:
                            length += 1
                            cur = parent[cur]
                        if best_count >= 0 and not (count > best_count or (count == best_count and (
                                isum < best_sum or (isum == best_sum and length < best_len)))):
                            continue
                        best_count, best_sum, best_len = count, isum, length
                        out[0], out[1], out[2], out[3] = 1, kx + 1, length, count
                        cur = s
                        for j in range(length - 1, -1, -1):
                            out[4 + j] = cur // n
                            cur = parent[cur]
                        j = 0
                        for x in range(ncells):
                            if cand[x] >> kx & 1 and is_peer[start, x] and is_peer[e, x]:
                                out[4 + length + j] = x
                                j += 1
                front, nxt = nxt, front
                nf = nn
    return out


@cache
def _is_peer(n: int) -> np.ndarray:
    """The classic ``n`` x ``n`` board's peer relation as a flag matrix."""
    is_peer = np.zeros((n * n, n * n), dtype=np.bool_)
    for i, p in enumerate(board(n).peers):
        is_peer[i, sorted(p)] = True
    return is_peer


def xy_chain_choice(cand: list[int], n: int) -> tuple[tuple[int, ...], int, tuple[int, ...]] | None:
    """Grader 5's XY-chain on a classic board (:func:`_xy_chain_choice`): its cells in chain order, its
    digit and the cells that lose it (ascending), or None when there is none."""
    out = _xy_chain_choice(np.array(cand, dtype=np.int64), _is_peer(n), n)
    if not out[0]:
        return None
    length, count = int(out[2]), int(out[3])
    return (tuple(int(c) for c in out[4: 4 + length]), int(out[1]),
            tuple(int(c) for c in out[4 + length: 4 + length + count]))
