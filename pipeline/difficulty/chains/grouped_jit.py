"""Compiled twin of :mod:`.grouped`'s search: grader 6's choice among every nice loop and AIC with group nodes.

Contracts
---------
* :func:`choose` answers what :func:`.engine.choose_tables` answers over :class:`.grouped.GroupLinks` (as
  :func:`.grouped.grouped_loop` calls it) for a state of a board up to 9x9 of any geometry (its peers and
  units passed in; rows, columns, then boxes or regions, then any extra units): the chain HoDoKu's
  comparator puts first, as ``(kind, premise node, premise on, end node, links)``, or None (None too when
  the state has no group node, as there). The same nodes (the plain ones of :func:`.loops_jit._links`,
  then :func:`.grouped.groups`' group nodes ``n * N + g`` in HoDoKu's order), the same links, the same
  layers (:func:`.engine_jit._bfs` in grader 5's way: a node's parent is the lowest node of the layer
  before linked to it, the path :func:`.engine._layer_path` reads through the links into a node), the same
  nice loops (first and last links leaving the premise's cell, a group node seen by its first cell; the
  eliminations of :func:`.engine._loop_elims`, group nodes' cells on the chain and seen through all their
  cells), the same AICs, order and lasso test (a group node left marks all its cells), so the Python
  finder builds the very step it would have found.
* ``tests/difficulty/test_grouped.py`` compares the two along solve paths.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.difficulty.chains.engine_jit import _aic_ends, _bfs, _count, _index_sum
from pipeline.difficulty.chains.loops_jit import _links, _peer_table, _unit_table

_KINDS = ("discontinuous_nice_loop", "aic", "continuous_nice_loop")


@nb.njit(cache=True, nogil=True)
def _group_nodes(cand: np.ndarray, inunit: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                      np.ndarray, int]:  # pragma: no cover
    """The group nodes of :func:`.grouped.groups`, in its order: ``(digit, cells as flags, line, box)``
    of each (``inunit[u, c]``: cell ``c`` is in unit ``u``) and their number."""
    ncells = n * n
    cap = 2 * n * n * n
    gk = np.empty(cap, dtype=np.int64)
    gcell = np.zeros((cap, ncells), dtype=np.bool_)
    gline = np.empty(cap, dtype=np.int64)
    gbox = np.empty(cap, dtype=np.int64)
    ng = 0
    for line in range(2 * n):
        for k in range(n):
            for box in range(2 * n, 3 * n):
                cnt = 0
                for c in range(ncells):
                    if inunit[line, c] and inunit[box, c] and cand[c] >> k & 1:
                        cnt += 1
                if cnt < 2:
                    continue
                for c in range(ncells):
                    if inunit[line, c] and inunit[box, c] and cand[c] >> k & 1:
                        gcell[ng, c] = True
                gk[ng], gline[ng], gbox[ng] = k, line, box
                ng += 1
    return gk, gcell, gline, gbox, ng


@nb.njit(cache=True, nogil=True)
def _add(adj: np.ndarray, deg: np.ndarray, x: int, y: int) -> None:  # pragma: no cover - compiled
    """Link ``x`` to ``y`` in ``adj`` unless it is there already."""
    for j in range(deg[x]):
        if adj[x, j] == y:
            return
    adj[x, deg[x]] = y
    deg[x] += 1


@nb.njit(cache=True, nogil=True)
def _group_links(cand: np.ndarray, peers: np.ndarray, units: np.ndarray, inunit: np.ndarray, pm: np.ndarray,
                 n: int, gk: np.ndarray, gcell: np.ndarray, gline: np.ndarray, gbox: np.ndarray,
                 ng: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:  # pragma: no cover
    """The links of :class:`.grouped.GroupLinks` as sorted adjacency lists on the plain and group nodes:
    ``(wdeg, wadj, sdeg, sadj, gbud)``, ``gbud[g, c]``: cell ``c`` sees every cell of group ``g``."""
    ncells = n * n
    big = ncells * n
    total = big + ng
    pwdeg, pwadj, psdeg, psadj = _links(cand, peers, units, n)
    wdeg = np.zeros(total, dtype=np.int64)
    sdeg = np.zeros(total, dtype=np.int64)
    wadj = np.empty((total, pwadj.shape[1] + 4 * n + 8), dtype=np.int64)
    sadj = np.empty((total, psadj.shape[1] + 4 * n + 8), dtype=np.int64)
    for x in range(big):
        wdeg[x], sdeg[x] = pwdeg[x], psdeg[x]
        wadj[x, : wdeg[x]] = pwadj[x, : wdeg[x]]
        sadj[x, : sdeg[x]] = psadj[x, : sdeg[x]]
    gbud = np.zeros((max(ng, 1), ncells), dtype=np.bool_)
    for g in range(ng):
        k, x = gk[g], big + g
        for c2 in range(ncells):
            sees = True
            for c in range(ncells):
                if gcell[g, c] and not pm[c, c2]:
                    sees = False
                    break
            gbud[g, c2] = sees
        for c2 in range(ncells):  # the candidates seeing the whole group: weak both ways
            if gbud[g, c2] and cand[c2] >> k & 1:
                _add(wadj, wdeg, x, k * ncells + c2)
                _add(wadj, wdeg, k * ncells + c2, x)
        for h in range(2):  # box, then line: the one candidate left there beside the group: strong both ways
            house = gbox[g] if h == 0 else gline[g]
            cnt, last = 0, -1
            for c2 in range(ncells):
                if gbud[g, c2] and cand[c2] >> k & 1 and inunit[house, c2]:
                    cnt += 1
                    last = c2
            if cnt == 1:
                _add(sadj, sdeg, x, k * ncells + last)
                _add(sadj, sdeg, k * ncells + last, x)
    for g in range(ng):  # groups of one digit in one house sharing no cell: weak; the only one left: strong
        k, x = gk[g], big + g
        for h in range(2):
            house = gline[g] if h == 0 else gbox[g]
            cnt, other = 0, -1
            for g2 in range(ng):
                if g2 == g or gk[g2] != k or (gline[g2] != house and gbox[g2] != house):
                    continue
                shared = False
                for c in range(ncells):
                    if gcell[g, c] and gcell[g2, c]:
                        shared = True
                        break
                if shared:
                    continue
                _add(wadj, wdeg, x, big + g2)
                cnt += 1
                other = g2
            if cnt != 1:
                continue
            rest = False
            for c in range(ncells):
                if inunit[house, c] and cand[c] >> k & 1 and not gcell[g, c] and not gcell[other, c]:
                    rest = True
                    break
            if not rest:
                _add(sadj, sdeg, x, big + other)
    for x in range(total):  # links by node
        wadj[x, : wdeg[x]] = np.sort(wadj[x, : wdeg[x]])
        sadj[x, : sdeg[x]] = np.sort(sadj[x, : sdeg[x]])
    return wdeg, wadj, sdeg, sadj, gbud


@nb.njit(cache=True, nogil=True)
def _sees(x: int, c2: int, big: int, ncells: int, pm: np.ndarray, gbud: np.ndarray) -> bool:  # pragma: no cover
    """Whether cell ``c2`` sees node ``x`` (all of a group node's cells)."""
    return pm[x % ncells, c2] if x < big else gbud[x - big, c2]


@nb.njit(cache=True, nogil=True)
def _continuous(path: np.ndarray, d: int, on: bool, end_on: bool, cand: np.ndarray, pm: np.ndarray,
                gbud: np.ndarray, gcell: np.ndarray, cell_of: np.ndarray, digit_of: np.ndarray, n: int,
                mark: np.ndarray, mstamp: int, els: np.ndarray) -> int:  # pragma: no cover - compiled
    """The eliminations of the continuous nice loop ``path[0..d]`` as nodes in ``els`` (each once: ``mark``
    stamped ``mstamp``); returns their number. :func:`.engine._loop_elims` with group nodes, step for step."""
    ncells = n * n
    big = ncells * n
    ca, ka, ke = cell_of[path[0]], digit_of[path[0]], digit_of[path[d]]
    first_on = not on
    on_chain = np.zeros(ncells, dtype=np.bool_)
    for j in range(d + 1):
        x = path[j]
        if x < big:
            on_chain[x % ncells] = True
        else:
            on_chain |= gcell[x - big]
    m = 0
    for j in range(d + 1):
        x = path[j]
        c, kx = cell_of[x], digit_of[x]
        x_on = on != (j % 2 == 1)
        two = j == 0 and first_on and end_on
        if not two and j > 0 and x_on and j <= d - 2 and cell_of[path[j - 1]] != c:
            two = cell_of[path[j + 1]] == c and cell_of[path[j + 2]] != c
        if two:
            k1 = ka if j == 0 else kx
            k2 = ke if j == 0 else digit_of[path[j + 2]]
            for k in range(n):
                if cand[c] >> k & 1 and k != k1 and k != k2:
                    y = k * ncells + c
                    if mark[y] != mstamp:
                        mark[y] = mstamp
                        els[m] = y
                        m += 1
        if j > 0 and not x_on and cell_of[path[j - 1]] != c:
            xp = path[j - 1]
            for c2 in range(ncells):
                if c2 == ca or on_chain[c2] or not cand[c2] >> kx & 1:
                    continue
                if not (_sees(xp, c2, big, ncells, pm, gbud) and _sees(x, c2, big, ncells, pm, gbud)):
                    continue
                y = kx * ncells + c2
                if mark[y] != mstamp:
                    mark[y] = mstamp
                    els[m] = y
                    m += 1
    return m


@nb.njit(cache=True, nogil=True)
def _lasso(path: np.ndarray, m: int, aic: bool, cell_of: np.ndarray, gcell: np.ndarray, big: int,
           left: np.ndarray) -> bool:  # pragma: no cover - compiled
    """:func:`.engine._lasso` of the chain ``path[m - 1], ..., path[0]`` (premise last in the array)."""
    left[:] = False
    last, last_x = -1, -1
    start = cell_of[path[m - 1]]
    for j in range(m - 1, -1, -1):
        c = cell_of[path[j]]
        if left[c]:
            return True
        if last != -1 and last != c and (aic or last != start):
            if last_x < big:
                left[last] = True
            else:
                left |= gcell[last_x - big]
        last, last_x = c, path[j]
    return False


@nb.njit(cache=True, nogil=True)
def _choose(cand: np.ndarray, peers: np.ndarray, units: np.ndarray, n: int) -> np.ndarray:  # pragma: no cover
    """``[found, kind, a, on, b, dist, m, path...]`` of the chosen chain (see the module contracts): its
    ``m`` nodes, premise first, the path its lasso test read (:func:`.engine.tables_path`'s)."""
    ncells = n * n
    big = ncells * n
    out = np.zeros(7 + 2 * 2 * big + 2, dtype=np.int64)
    inunit = np.zeros((units.shape[0], ncells), dtype=np.bool_)
    for u in range(units.shape[0]):
        for j in range(units.shape[1]):
            inunit[u, units[u, j]] = True
    gk, gcell, gline, gbox, ng = _group_nodes(cand, inunit, n)
    if ng == 0:
        return out
    pm = np.zeros((ncells, ncells), dtype=np.bool_)
    for c in range(ncells):
        for j in range(peers.shape[1]):
            if peers[c, j] >= 0:
                pm[c, peers[c, j]] = True
    wdeg, wadj, sdeg, sadj, gbud = _group_links(cand, peers, units, inunit, pm, n, gk, gcell, gline, gbox, ng)
    total = big + ng
    cell_of = np.empty(total, dtype=np.int64)
    digit_of = np.empty(total, dtype=np.int64)
    for x in range(big):
        cell_of[x], digit_of[x] = x % ncells, x // ncells
    for g in range(ng):
        digit_of[big + g] = gk[g]
        for c in range(ncells):
            if gcell[g, c]:
                cell_of[big + g] = c
                break
    nodes = np.empty(big, dtype=np.int64)
    nn = 0
    for c in range(ncells):
        for k in range(n):
            if cand[c] >> k & 1:
                nodes[nn] = k * ncells + c
                nn += 1
    stamp_on = np.zeros(total, dtype=np.int64)
    stamp_off = np.zeros(total, dtype=np.int64)
    queue = np.empty(2 * total + 1, dtype=np.int64)
    parent = np.empty(2 * total + 1, dtype=np.int64)
    starts = np.empty(2 * total + 2, dtype=np.int64)
    depth_on = np.zeros(total, dtype=np.int64)
    depth_off = np.zeros(total, dtype=np.int64)
    qidx_on = np.zeros(total, dtype=np.int64)
    qidx_off = np.zeros(total, dtype=np.int64)
    path = np.empty(2 * total + 2, dtype=np.int64)
    mark = np.zeros(big, dtype=np.int64)
    cap = 1024
    offers = np.empty((cap, 6), dtype=np.int64)  # key, kind, a, on, b, dist: nice loops, then AICs
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
            nl = _bfs(a, on, total * 2, ncells, wdeg, wadj, sdeg, sadj, stamp_on, stamp_off, stamp, queue, parent,
                      starts, depth_on, depth_off, qidx_on, qidx_off, True)
            for d in range(3, nl + 1):
                lo, hi = starts[d - 1], starts[d]
                end_on = on != (d % 2 == 1)
                for k in range(n):  # nice loops: the layer's nodes in a's cell, by node
                    if not cand[ca] >> k & 1:
                        continue
                    e = k * ncells + ca
                    if end_on:
                        if stamp_on[e] != stamp or depth_on[e] != d:
                            continue
                    elif stamp_off[e] != stamp or depth_off[e] != d:
                        continue
                    j = d
                    i = qidx_on[e] if end_on else qidx_off[e]
                    while i >= 0:
                        path[j] = queue[i]
                        j -= 1
                        i = parent[i]
                    if cell_of[path[1]] == ca or cell_of[path[d - 1]] == ca:
                        continue
                    m = 0
                    kind = 0
                    if e != a and ((on and not end_on and _count(cand[ca], n) == 2) or (not on and end_on)):
                        kind = 2
                        mstamp += 1
                        m = _continuous(path, d, on, end_on, cand, pm, gbud, gcell, cell_of, digit_of, n, mark,
                                        mstamp, els)
                        els[:m] = np.sort(els[:m])
                        for i in range(m):
                            ec[i], ed[i] = els[i] % ncells, els[i] // ncells + 1
                    elif on and end_on != (e == a):
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
                    offers[no, 0] = ((100 - m) << 44) | (_index_sum(ec, ed, m) << 16) | d
                    offers[no, 1], offers[no, 2], offers[no, 3] = kind, a, 1 - pass_on
                    offers[no, 4], offers[no, 5] = e, d
                    no += 1
                if on or not end_on:
                    continue
                na0 = na  # AICs from an "off" premise: the layer's plain ends, offered, then put in node order
                for b in queue[lo:hi]:
                    if b >= big:
                        continue
                    m = _aic_ends(ka, ca, b // ncells, b % ncells, cand, pm, ncells, ec, ed)
                    if m == 0:
                        continue
                    if na == aics.shape[0]:
                        aics = np.concatenate((aics, np.empty_like(aics)))
                    aics[na, 0] = ((100 - m) << 44) | (_index_sum(ec, ed, m) << 16) | d
                    aics[na, 1], aics[na, 2], aics[na, 3], aics[na, 4], aics[na, 5] = 1, a, 0, b, d
                    na += 1
                if na - na0 > 1:
                    aics[na0:na] = aics[na0:na][np.argsort(aics[na0:na, 4])]
    alls = np.concatenate((offers[:no], aics[:na]))
    order = np.argsort(alls[:, 0], kind="mergesort")  # stable: ties keep the order found
    left = np.zeros(ncells, dtype=np.bool_)
    for r in order:
        kind, a, on, b, d = alls[r, 1], alls[r, 2], alls[r, 3] == 1, alls[r, 4], alls[r, 5]
        stamp += 1
        _bfs(a, on, d, ncells, wdeg, wadj, sdeg, sadj, stamp_on, stamp_off, stamp, queue, parent, starts,
             depth_on, depth_off, qidx_on, qidx_off, True)
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
        if not _lasso(path, m, kind == 1, cell_of, gcell, big, left):
            out[0], out[1], out[2], out[3], out[4], out[5], out[6] = 1, kind, a, on, b, d, m
            for j in range(m):  # the path, premise first
                out[7 + j] = path[m - 1 - j]
            break
    return out


def choose(cand: list[int], n: int, peers: tuple[tuple[int, ...], ...],
           units: tuple[tuple[int, ...], ...]) -> tuple[str, int, bool, int, int] | None:
    """The chosen chain of this state (see the module contracts), or None."""
    got = choose_path(cand, n, peers, units)
    return got[0] if got is not None else None


def choose_path(cand: list[int], n: int, peers: tuple[tuple[int, ...], ...], units: tuple[tuple[int, ...], ...]
                ) -> tuple[tuple[str, int, bool, int, int], list[tuple[int, bool]]] | None:
    """:func:`choose`'s chain and its path as ``(node, on)`` pairs, premise first (group nodes numbered
    as :class:`.grouped.GroupLinks` numbers them), as :func:`.engine.tables_path` gives it; or None."""
    out = _choose(np.array(cand, dtype=np.int64), _peer_table(peers), _unit_table(units), n)
    if not out[0]:
        return None
    on = bool(out[3])
    path = [(int(x), on != (j % 2 == 1)) for j, x in enumerate(out[7: 7 + int(out[6])].tolist())]
    return (_KINDS[int(out[1])], int(out[2]), on, int(out[4]), int(out[5])), path
