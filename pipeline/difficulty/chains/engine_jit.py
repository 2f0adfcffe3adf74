"""Compiled twin of :mod:`.engine`'s search: grader 4's choice among every nice loop and AIC.

Contracts
---------
* :func:`choose` answers what :func:`.engine._choose_py` answers for a state of
  a board up to 9x9 of any geometry (its peers and units passed in): the chain HoDoKu's comparator
  puts first, as ``(kind, premise node, premise on, end node, links)``, or None. The same links
  (:func:`.loops_jit._links`), the same layers (one per link, a node counted at
  the first distance it is reached in each state, the first link leaving the premise's cell), the same
  chains and eliminations, the same order (most eliminations, index sum, links, then the order found)
  and the same lasso test on the same breadth-first path (links by node, first parent kept), so the
  Python finder builds the very step it would have found.
* ``tests/difficulty/test_chain_engine.py`` compares the two along solve paths, classic and variant.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.difficulty.chains.loops_jit import _links, _peer_table, _unit_table
from pipeline.difficulty.hodoku import INDEX_STRIDE

_KINDS = ("discontinuous_nice_loop", "aic", "continuous_nice_loop")


@nb.njit(cache=True, nogil=True)
def _bfs(a: int, on: bool, dist_max: int, ncells: int, wdeg: np.ndarray, wadj: np.ndarray, sdeg: np.ndarray,
         sadj: np.ndarray, stamp_on: np.ndarray, stamp_off: np.ndarray, stamp: int, queue: np.ndarray,
         parent: np.ndarray, starts: np.ndarray, depth_on: np.ndarray, depth_off: np.ndarray,
         qidx_on: np.ndarray, qidx_off: np.ndarray, tables: bool) -> int:  # pragma: no cover - compiled
    """Layers of premise ``(a, on)`` up to ``dist_max`` links: ``queue[starts[d - 1]:starts[d]]`` holds the
    nodes first reached at distance ``d`` (in the state ``on`` flipped ``d`` times), in the order found,
    each with its ``parent`` (index into ``queue``; the premise is ``queue[0]``); ``depth_on`` and
    ``depth_off`` hold the distance of each state reached; ``stamp_on``/``stamp_off`` mark the states seen
    under ``stamp``; ``qidx_on``/``qidx_off`` the queue index of each state reached. Grader 4 (not
    ``tables``): the first link leaves ``a``'s cell and a node's parent is the first that reached it;
    grader 5 (``tables``): the first link may stay in the cell and a node's parent is the lowest node of
    the layer before linked to it (:func:`.engine._layer_path`). Returns the number
    of layers."""
    ca = a % ncells
    queue[0] = a
    parent[0] = -1
    if on:  # the premise, at distance 0 (so the parent rule never mistakes it for a node of a layer)
        stamp_on[a], depth_on[a], qidx_on[a] = stamp, 0, 0
    else:
        stamp_off[a], depth_off[a], qidx_off[a] = stamp, 0, 0
    starts[0] = 0
    lo, hi, d = 0, 1, 0
    state = on
    while lo < hi and d < dist_max:
        end = hi
        for i in range(lo, hi):
            x = queue[i]
            deg = wdeg[x] if state else sdeg[x]
            for j in range(deg):
                y = wadj[x, j] if state else sadj[x, j]
                if d == 0 and not tables and y % ncells == ca:
                    continue
                if state:  # y is reached off
                    if stamp_off[y] == stamp:
                        if tables and depth_off[y] == d + 1 and x < queue[parent[qidx_off[y]]]:
                            parent[qidx_off[y]] = i
                        continue
                    stamp_off[y] = stamp
                    depth_off[y] = d + 1
                    qidx_off[y] = end
                else:
                    if stamp_on[y] == stamp:
                        if tables and depth_on[y] == d + 1 and x < queue[parent[qidx_on[y]]]:
                            parent[qidx_on[y]] = i
                        continue
                    stamp_on[y] = stamp
                    depth_on[y] = d + 1
                    qidx_on[y] = end
                queue[end] = y
                parent[end] = i
                end += 1
        if end == hi:
            break
        d += 1
        starts[d - 1] = hi
        starts[d] = end
        lo, hi = hi, end
        state = not state
    return d


@nb.njit(cache=True, nogil=True)
def _aic_ends(ka: int, ca: int, kb: int, cb: int, cand: np.ndarray, pm: np.ndarray, ncells: int, ec: np.ndarray,
              ed: np.ndarray) -> int:  # pragma: no cover - compiled
    """What an AIC from an "off" premise on node ``(ka, ca)`` to an end on node ``(kb, cb)`` eliminates, written
    to ``ec`` (cells) and ``ed`` (digits), sorted by digit, then cell; returns how many (0: nothing). The same
    digit: that digit from every cell seeing both ends (two at least, else nothing); two digits in two cells
    that see each other: each cell loses the other end's digit, when it holds it."""
    m = 0
    if kb == ka:
        if cb == ca:
            return 0
        for c in range(ncells):
            if pm[ca, c] and pm[cb, c] and cand[c] >> ka & 1:
                ec[m], ed[m] = c, ka + 1
                m += 1
        return m if m >= 2 else 0
    if not (cand[ca] >> kb & 1 and pm[ca, cb] and cand[cb] >> ka & 1):
        return 0
    if kb < ka:  # sorted by digit, then cell
        ec[0], ed[0], ec[1], ed[1] = ca, kb + 1, cb, ka + 1
    else:
        ec[0], ed[0], ec[1], ed[1] = cb, ka + 1, ca, kb + 1
    return 2


@nb.njit(cache=True, nogil=True)
def _index_sum(cells: np.ndarray, digits: np.ndarray, m: int) -> int:  # pragma: no cover - compiled
    """HoDoKu's index sum of ``m`` eliminations already sorted by digit, then cell."""
    s = 0
    for i in range(m):
        s += cells[i] * (1 + INDEX_STRIDE * i) + digits[i]
    return s


@nb.njit(cache=True, nogil=True)
def _count(m: int, n: int) -> int:  # pragma: no cover - compiled
    """The number of digits in candidate mask ``m``."""
    c = 0
    for k in range(n):
        c += m >> k & 1
    return c


@nb.njit(cache=True, nogil=True)
def _continuous(path: np.ndarray, d: int, on: bool, end_on: bool, cand: np.ndarray, pm: np.ndarray, n: int,
                ncells: int, mark: np.ndarray, mstamp: int, els: np.ndarray) -> int:  # pragma: no cover - compiled
    """The eliminations of the continuous nice loop ``path[0..d]`` (premise first, its state ``on``; the
    end's ``end_on``) as nodes in ``els`` (unsorted, each once: ``mark`` stamped ``mstamp``); returns their
    number. :func:`.engine._loop_elims`, step for step."""
    ca, ka, ke = path[0] % ncells, path[0] // ncells, path[d] // ncells
    first_on = not on
    m = 0
    for j in range(d + 1):
        x = path[j]
        c, kx = x % ncells, x // ncells
        x_on = on != (j % 2 == 1)
        two = j == 0 and first_on and end_on
        if not two and j > 0 and x_on and j <= d - 2 and path[j - 1] % ncells != c:
            # entered by a strong link, left by one (states alternate: path[j + 1] is off, path[j + 2] on)
            two = path[j + 1] % ncells == c and path[j + 2] % ncells != c
        if two:
            k1 = ka if j == 0 else kx
            k2 = ke if j == 0 else path[j + 2] // ncells
            for k in range(n):
                if cand[c] >> k & 1 and k != k1 and k != k2:
                    y = k * ncells + c
                    if mark[y] != mstamp:
                        mark[y] = mstamp
                        els[m] = y
                        m += 1
        if j > 0 and not x_on and path[j - 1] % ncells != c:
            cp = path[j - 1] % ncells
            for c2 in range(ncells):
                if c2 == ca or not (pm[cp, c2] and pm[c, c2] and cand[c2] >> kx & 1):
                    continue
                on_chain = False
                for t in range(d + 1):
                    if path[t] % ncells == c2:
                        on_chain = True
                        break
                if on_chain:
                    continue
                y = kx * ncells + c2
                if mark[y] != mstamp:
                    mark[y] = mstamp
                    els[m] = y
                    m += 1
    return m


@nb.njit(cache=True, nogil=True)
def _choose(cand: np.ndarray, peers: np.ndarray, units: np.ndarray, n: int,
            tables: bool) -> np.ndarray:  # pragma: no cover - compiled
    """``[found, kind, a, on, b, dist, m, path...]`` of the chosen chain (see the module contracts): its ``m``
    nodes, premise first, the path its lasso test read; ``tables``: grader 5's layers (the first link may
    stay in the premise's cell; a nice loop whose does is dropped)."""
    ncells = n * n
    big = ncells * n
    wdeg, wadj, sdeg, sadj = _links(cand, peers, units, n)
    for x in range(big):  # links by node, as the Python search walks them
        wadj[x, : wdeg[x]] = np.sort(wadj[x, : wdeg[x]])
        sadj[x, : sdeg[x]] = np.sort(sadj[x, : sdeg[x]])
    pm = np.zeros((ncells, ncells), dtype=np.bool_)
    for c in range(ncells):
        for j in range(peers.shape[1]):
            if peers[c, j] >= 0:
                pm[c, peers[c, j]] = True
    nodes = np.empty(big, dtype=np.int64)
    nn = 0
    for c in range(ncells):
        for k in range(n):
            if cand[c] >> k & 1:
                nodes[nn] = k * ncells + c
                nn += 1
    stamp_on = np.zeros(big, dtype=np.int64)
    stamp_off = np.zeros(big, dtype=np.int64)
    queue = np.empty(2 * big + 1, dtype=np.int64)
    parent = np.empty(2 * big + 1, dtype=np.int64)
    starts = np.empty(2 * big + 2, dtype=np.int64)
    depth_on = np.zeros(big, dtype=np.int64)
    depth_off = np.zeros(big, dtype=np.int64)
    qidx_on = np.zeros(big, dtype=np.int64)
    qidx_off = np.zeros(big, dtype=np.int64)
    path = np.empty(2 * big + 2, dtype=np.int64)
    mark = np.zeros(big, dtype=np.int64)  # eliminations of one offer, by node (stamped)
    # offers: key, kind, a, on, b, dist (nice loops first, then AICs: the order found)
    cap = 1024
    offers = np.empty((cap, 6), dtype=np.int64)
    aics = np.empty((cap, 6), dtype=np.int64)
    no, na = 0, 0
    ec = np.empty(big, dtype=np.int64)
    ed = np.empty(big, dtype=np.int64)
    els = np.empty(big, dtype=np.int64)
    mstamp = 0
    stamp = 0
    for pass_on in range(2):
        on = pass_on == 0
        for ia in range(nn):
            a = nodes[ia]
            ka, ca = a // ncells, a % ncells
            stamp += 1
            nl = _bfs(a, on, big * 2, ncells, wdeg, wadj, sdeg, sadj, stamp_on, stamp_off, stamp, queue, parent, starts,
                  depth_on, depth_off, qidx_on, qidx_off, tables)
            for d in range(3, nl + 1):
                lo, hi = starts[d - 1], starts[d]
                end_on = on != (d % 2 == 1)
                # nice loops: the layer's nodes in a's cell, by node
                for k in range(n):
                    if not cand[ca] >> k & 1:
                        continue
                    e = k * ncells + ca
                    if end_on:
                        if stamp_on[e] != stamp or depth_on[e] != d:
                            continue
                    elif stamp_off[e] != stamp or depth_off[e] != d:
                        continue
                    m = 0
                    kind = 0
                    if tables:  # grader 5: the chain's first and last links leave the cell; continuous loops too
                        j = d
                        i = qidx_on[e] if end_on else qidx_off[e]
                        while i >= 0:
                            path[j] = queue[i]
                            j -= 1
                            i = parent[i]
                        if path[1] % ncells == ca or path[d - 1] % ncells == ca:
                            continue
                        if e != a and ((on and not end_on and _count(cand[ca], n) == 2) or (not on and end_on)):
                            kind = 2
                            mstamp += 1
                            m = _continuous(path, d, on, end_on, cand, pm, n, ncells, mark, mstamp, els)
                            els[:m] = np.sort(els[:m])
                            for i in range(m):
                                ec[i], ed[i] = els[i] % ncells, els[i] // ncells + 1
                    if kind == 0:
                        if on and end_on != (e == a):
                            ec[0], ed[0], m = ca, ka + 1, 1
                        elif not on and end_on and e == a:
                            for k2 in range(n):
                                if k2 != ka and cand[ca] >> k2 & 1:
                                    ec[m], ed[m] = ca, k2 + 1
                                    m += 1
                        elif not on and not end_on and e != a:
                            ec[0], ed[0], m = ca, k + 1, 1
                    if m == 0:
                        continue
                    if no == offers.shape[0]:
                        offers = np.concatenate((offers, np.empty_like(offers)))
                    offers[no, 0] = ((100 - m) << 36) | (_index_sum(ec, ed, m) << 12) | d
                    offers[no, 1], offers[no, 2], offers[no, 3] = kind, a, 1 - pass_on
                    offers[no, 4], offers[no, 5] = e, d
                    no += 1
                if on or not end_on:
                    continue
                # AICs from an "off" premise: the layer's ends, by node
                na0 = na  # the layer's ends are offered unsorted, then put in node order (each node once)
                for b in queue[lo:hi]:
                    m = _aic_ends(ka, ca, b // ncells, b % ncells, cand, pm, ncells, ec, ed)
                    if m == 0:
                        continue
                    if na == aics.shape[0]:
                        aics = np.concatenate((aics, np.empty_like(aics)))
                    aics[na, 0] = ((100 - m) << 36) | (_index_sum(ec, ed, m) << 12) | d
                    aics[na, 1], aics[na, 2], aics[na, 3], aics[na, 4], aics[na, 5] = 1, a, 0, b, d
                    na += 1
                if na - na0 > 1:
                    aics[na0:na] = aics[na0:na][np.argsort(aics[na0:na, 4])]
    alls = np.concatenate((offers[:no], aics[:na]))
    order = np.argsort(alls[:, 0], kind="mergesort")  # stable: ties keep the order found
    left = np.zeros(ncells, dtype=np.bool_)
    path = np.empty(2 * big + 2, dtype=np.int64)
    out = np.zeros(7 + 2 * big + 2, dtype=np.int64)
    for r in order:
        kind, a, on, b, d = alls[r, 1], alls[r, 2], alls[r, 3] == 1, alls[r, 4], alls[r, 5]
        stamp += 1
        _bfs(a, on, d, ncells, wdeg, wadj, sdeg, sadj, stamp_on, stamp_off, stamp, queue, parent, starts,
                  depth_on, depth_off, qidx_on, qidx_off, tables)
        i = -1
        for j in range(starts[d - 1], starts[d]):
            if queue[j] == b:
                i = j
                break
        m = 0
        while i >= 0:
            path[m] = queue[i]
            m += 1
            i = parent[i]
        # the lasso test of chain_engine._lasso, walking the path from the premise
        left[:] = False
        last = -1
        start = a % ncells
        lasso = False
        for j in range(m - 1, -1, -1):
            c = path[j] % ncells
            if left[c]:
                lasso = True
                break
            if last != -1 and last != c and (kind == 1 or last != start):
                left[last] = True
            last = c
        if not lasso:
            out[0], out[1], out[2], out[3], out[4], out[5], out[6] = 1, kind, a, on, b, d, m
            for j in range(m):  # the path, premise first
                out[7 + j] = path[m - 1 - j]
            break
    return out


def choose(cand: list[int], n: int, peers: tuple[tuple[int, ...], ...], units: tuple[tuple[int, ...], ...],
           tables: bool = False) -> tuple[str, int, bool, int, int] | None:
    """The chosen chain of this state (see the module contracts), or None; ``tables``: grader 5's search."""
    got = choose_path(cand, n, peers, units, tables)
    return got[0] if got is not None else None


def choose_path(cand: list[int], n: int, peers: tuple[tuple[int, ...], ...], units: tuple[tuple[int, ...], ...],
                tables: bool = False) -> tuple[tuple[str, int, bool, int, int], list[tuple[int, bool]]] | None:
    """:func:`choose`'s chain and its path as ``(node, on)`` pairs, premise first: with ``tables``, the
    path :func:`.engine.tables_path` gives it (grader 5's parents, read in the lasso test); or None."""
    out = _choose(np.array(cand, dtype=np.int64), _peer_table(peers), _unit_table(units), n, tables)
    if not out[0]:
        return None
    on = bool(out[3])
    path = [(int(x), on != (j % 2 == 1)) for j, x in enumerate(out[7: 7 + int(out[6])].tolist())]
    return (_KINDS[int(out[1])], int(out[2]), on, int(out[4]), int(out[5])), path
