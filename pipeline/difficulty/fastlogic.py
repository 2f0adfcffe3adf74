"""Compiled kernels (numba) for the hot part of the logical solver: the singles, and a probe that
says whether a technique applies.

:func:`pipeline.difficulty.logic.solve_logically` spends its time on two things: placing naked and
hidden singles (the bulk of every path) and asking the techniques after them whether they apply,
which they mostly do not (a medium puzzle asks the locked pair a few times and gets one step; a hard
one asks every finned fish and chain after each step). This module does both in compiled code; the
Python solver stays the reference and builds every :class:`~pipeline.difficulty.logic.Step` itself.

Contracts
---------
* **State.** ``values`` (int64, 0 = blank) and ``cand`` (int64 bitmask, bit ``d-1`` for digit ``d``,
  ``0`` on solved cells) of one board, as :class:`~pipeline.difficulty.logic.Candidates` holds them.
  Every board of :mod:`pipeline.board` (up to 25x25: candidates fit in 25 bits, lines in 25 bits).
* **Singles** (:meth:`Kernel.advance`) are placed exactly as the Python driver would: after every
  placement it restarts from the naked single, so each step is the *first* naked single (lowest
  cell), else the first hidden single (units in scan order boxes, rows, columns; the lowest digit
  missing elsewhere in the unit; the first cell of the unit holding it). Each placement is reported
  as ``(cell, digit, unit)`` with ``unit = -1`` for a naked single.
* **Probes.** For each technique of :data:`PROBED` a kernel answers *whether* the Python finder
  would return a step in this state: the same conditions over the same candidates, without the
  search order (the existence of a pattern does not depend on it). The one exception is the chains,
  whose Python search keeps the first parent of each breadth-first state and drops chains that
  repeat a cell: their probes run the same search in the same neighbour order. The walk
  (:meth:`Kernel.walk`) goes through the techniques after the singles in solver order and stops at
  the first one that applies, or that it cannot probe (remote pair, trial and error); Python then
  runs that technique's finder, which finds *which* instance comes first, so steps, their order and
  their wording stay the Python solver's.
* Nothing here is trusted alone: ``tests/test_grade_compiled.py`` compares whole solve paths of the
  compiled and the pure-Python driver over thousands of puzzles of every size.

Roads not taken: returning the steps themselves from compiled code would also spare the Python
finder its one successful call per advanced step, at the price of reproducing every technique's
search order and wording (finned-fish enumeration, chain tie-breaks) to the step; the failing calls
are where the time went. Remote pairs stay in Python (cheap, and their path choice is fiddly).
The first call in a process compiles the kernels (tens of seconds; cached on disk by numba, then
about half a second to load), which is why :func:`~pipeline.difficulty.logic.solve_logically` only
switches to them after a number of solves (``AUTO_COMPILE_AFTER``).
"""

from __future__ import annotations

from functools import cache

import numba as nb
import numpy as np

from pipeline.board import board


@nb.njit(cache=True, nogil=True)
def _popcount(x: int) -> int:  # pragma: no cover - compiled
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@nb.njit(cache=True, nogil=True)
def _bitlen(x: int) -> int:  # pragma: no cover - compiled
    c = 0
    while x:
        x >>= 1
        c += 1
    return c


@nb.njit(cache=True, nogil=True)
def _next_combo(idx: np.ndarray, k: int, cnt: int) -> bool:  # pragma: no cover - compiled
    """Advance ``idx[:k]`` (ascending indices into ``range(cnt)``) to the next combination; False at the end."""
    t = k - 1
    while t >= 0 and idx[t] == cnt - k + t:
        t -= 1
    if t < 0:
        return False
    idx[t] += 1
    for q in range(t + 1, k):
        idx[q] = idx[q - 1] + 1
    return True


# ---------------------------------------------------------------------------------------------
# Probes: does the technique make progress? (same conditions as the Python finders)
# ---------------------------------------------------------------------------------------------


@nb.njit(cache=True, nogil=True)
def _naked_subset(cand: np.ndarray, units: np.ndarray, row_of: np.ndarray, col_of: np.ndarray,
                  box_of: np.ndarray, n: int, k: int, locked: bool) -> bool:  # pragma: no cover - compiled
    """``logic._naked_subset(st, k, locked) is not None``."""
    cells = np.empty(n, dtype=np.int64)
    idx = np.empty(k, dtype=np.int64)
    shared = np.empty(3, dtype=np.int64)
    for u in range(3 * n):
        cnt = 0
        for p in range(n):
            i = units[u, p]
            c = _popcount(cand[i])
            if 2 <= c <= k:
                cells[cnt] = i
                cnt += 1
        if cnt < k:
            continue
        for q in range(k):
            idx[q] = q
        while True:
            m = 0
            for q in range(k):
                m |= cand[cells[idx[q]]]
            if _popcount(m) == k:
                c0 = cells[idx[0]]
                same_r = True
                same_c = True
                same_b = True
                for q in range(1, k):
                    c = cells[idx[q]]
                    same_r = same_r and row_of[c] == row_of[c0]
                    same_c = same_c and col_of[c] == col_of[c0]
                    same_b = same_b and box_of[c] == box_of[c0]
                ns = 0
                if same_r:
                    shared[ns] = row_of[c0]
                    ns += 1
                if same_c:
                    shared[ns] = n + col_of[c0]
                    ns += 1
                if same_b:
                    shared[ns] = 2 * n + box_of[c0]
                    ns += 1
                if (ns >= 2 and k <= 3) == locked:
                    for s in range(ns):
                        for p in range(n):
                            j = units[shared[s], p]
                            inside = False
                            for q in range(k):
                                if cells[idx[q]] == j:
                                    inside = True
                            if not inside and cand[j] & m:
                                return True
            if not _next_combo(idx, k, cnt):
                break
    return False


@nb.njit(cache=True, nogil=True)
def _hidden_subset(cand: np.ndarray, units: np.ndarray, n: int, k: int) -> bool:  # pragma: no cover - compiled
    """``logic._hidden_subset(st, ctx, k) is not None`` (positions as bits of the unit's cell order)."""
    digs = np.empty(n, dtype=np.int64)
    pos_of = np.empty(n, dtype=np.int64)
    idx = np.empty(k, dtype=np.int64)
    for u in range(3 * n):
        cnt = 0
        for j in range(n):
            pos = 0
            for p in range(n):
                if cand[units[u, p]] >> j & 1:
                    pos |= 1 << p
            c = _popcount(pos)
            if 2 <= c <= k:
                digs[cnt] = j
                pos_of[cnt] = pos
                cnt += 1
        if cnt < k:
            continue
        for q in range(k):
            idx[q] = q
        while True:
            cm = 0
            dm = 0
            for q in range(k):
                cm |= pos_of[idx[q]]
                dm |= 1 << digs[idx[q]]
            if _popcount(cm) == k:
                for p in range(n):
                    if cm >> p & 1 and cand[units[u, p]] & ~dm:
                        return True
            if not _next_combo(idx, k, cnt):
                break
    return False


@nb.njit(cache=True, nogil=True)
def _fish(cand: np.ndarray, n: int, size: int) -> bool:  # pragma: no cover - compiled
    """``logic._fish(st, ctx, size) is not None``."""
    by_row = np.zeros(n, dtype=np.int64)
    by_col = np.zeros(n, dtype=np.int64)
    base = np.empty(n, dtype=np.int64)
    idx = np.empty(size, dtype=np.int64)
    for k in range(n):
        by_row[:] = 0
        by_col[:] = 0
        for r in range(n):
            for c in range(n):
                if cand[r * n + c] >> k & 1:
                    by_row[r] |= 1 << c
                    by_col[c] |= 1 << r
        for orient in range(2):
            lines = by_row if orient == 0 else by_col
            cross = by_col if orient == 0 else by_row
            cnt = 0
            for li in range(n):
                c = _popcount(lines[li])
                if 2 <= c <= size:
                    base[cnt] = li
                    cnt += 1
            if cnt < size:
                continue
            for q in range(size):
                idx[q] = q
            while True:
                cover = 0
                bset = 0
                for q in range(size):
                    cover |= lines[base[idx[q]]]
                    bset |= 1 << base[idx[q]]
                if _popcount(cover) == size:
                    for cv in range(n):
                        if cover >> cv & 1 and cross[cv] & ~bset:
                            return True
                if not _next_combo(idx, size, cnt):
                    break
    return False


@nb.njit(cache=True, nogil=True)
def _pointing(cand: np.ndarray, units: np.ndarray, row_of: np.ndarray, col_of: np.ndarray,
              box_of: np.ndarray, n: int) -> bool:  # pragma: no cover - compiled
    """``logic._pointing(st, ctx) is not None``."""
    for b in range(n):
        bu = 2 * n + b
        for k in range(n):
            first = -1
            one_row = True
            one_col = True
            for p in range(n):
                i = units[bu, p]
                if cand[i] >> k & 1:
                    if first < 0:
                        first = i
                    else:
                        one_row = one_row and row_of[i] == row_of[first]
                        one_col = one_col and col_of[i] == col_of[first]
            if first < 0:
                continue
            for line in range(2):
                if (one_row if line == 0 else one_col):
                    lu = row_of[first] if line == 0 else n + col_of[first]
                    for p in range(n):
                        j = units[lu, p]
                        if box_of[j] != b and cand[j] >> k & 1:
                            return True
    return False


@nb.njit(cache=True, nogil=True)
def _claiming(cand: np.ndarray, units: np.ndarray, row_of: np.ndarray, col_of: np.ndarray,
              box_of: np.ndarray, n: int) -> bool:  # pragma: no cover - compiled
    """``logic._claiming(st, ctx) is not None``."""
    for line in range(2 * n):
        for k in range(n):
            first = -1
            one_box = True
            for p in range(n):
                i = units[line, p]
                if cand[i] >> k & 1:
                    if first < 0:
                        first = i
                    else:
                        one_box = one_box and box_of[i] == box_of[first]
            if first < 0 or not one_box:
                continue
            bu = 2 * n + box_of[first]
            for p in range(n):
                j = units[bu, p]
                on_line = row_of[j] == line if line < n else col_of[j] == line - n
                if not on_line and cand[j] >> k & 1:
                    return True
    return False


# ---------------------------------------------------------------------------------------------
# Probes of the single-digit patterns, wings, finned fish, colours and chains
# ---------------------------------------------------------------------------------------------


@nb.njit(cache=True, nogil=True)
def _strong(cand: np.ndarray, units: np.ndarray, n: int, k: int, la: np.ndarray, lb: np.ndarray,
            lk: np.ndarray) -> int:  # pragma: no cover - compiled
    """Conjugate pairs of digit ``k+1`` as ``logic._Ctx.strong`` lists them: ``(la, lb)`` with
    ``la < lb``, sorted, ``lk`` the unit kinds as bits (1 row, 2 column, 4 box). Returns their number."""
    cnt = 0
    for u in range(3 * n):
        a = -1
        b = -1
        c = 0
        for p in range(n):
            i = units[u, p]
            if cand[i] >> k & 1:
                c += 1
                if c == 1:
                    a = i
                elif c == 2:
                    b = i
        if c != 2:
            continue
        lo = min(a, b)
        hi = max(a, b)
        bit = 1 << (u // n)
        found = False
        for q in range(cnt):
            if la[q] == lo and lb[q] == hi:
                lk[q] |= bit
                found = True
                break
        if not found:
            la[cnt] = lo
            lb[cnt] = hi
            lk[cnt] = bit
            cnt += 1
    for q in range(1, cnt):  # insertion sort by (a, b)
        a, b, kk = la[q], lb[q], lk[q]
        r = q - 1
        while r >= 0 and (la[r] > a or (la[r] == a and lb[r] > b)):
            la[r + 1], lb[r + 1], lk[r + 1] = la[r], lb[r], lk[r]
            r -= 1
        la[r + 1], lb[r + 1], lk[r + 1] = a, b, kk
    return cnt


@nb.njit(cache=True, nogil=True)
def _sees_both(cand: np.ndarray, is_peer: np.ndarray, k: int, a: int, b: int, skip1: int,
               skip2: int) -> bool:  # pragma: no cover - compiled
    """Some cell other than ``skip1``/``skip2`` holds candidate ``k+1`` and sees both ``a`` and ``b``."""
    for x in range(cand.shape[0]):
        if x != skip1 and x != skip2 and cand[x] >> k & 1 and is_peer[a, x] and is_peer[b, x]:
            return True
    return False


@nb.njit(cache=True, nogil=True)
def _turbot(cand: np.ndarray, units: np.ndarray, is_peer: np.ndarray, row_of: np.ndarray, col_of: np.ndarray,
            box_of: np.ndarray, n: int, kind: int) -> bool:  # pragma: no cover - compiled
    """``logic._turbot(st, ctx, kind) is not None``; kind 0 skyscraper, 1 two-string kite, 2 turbot fish."""
    la = np.empty(3 * n, dtype=np.int64)
    lb = np.empty(3 * n, dtype=np.int64)
    lk = np.empty(3 * n, dtype=np.int64)
    for k in range(n):
        cnt = _strong(cand, units, n, k, la, lb, lk)
        for x in range(cnt):
            for y in range(x + 1, cnt):
                a1, b1, k1, a2, b2, k2 = la[x], lb[x], lk[x], la[y], lb[y], lk[y]
                if a1 == a2 or a1 == b2 or b1 == a2 or b1 == b2:  # noqa: SIM109 (plain compares: compiled code)
                    continue
                for o1 in range(2):
                    aa = a1 if o1 == 0 else b1
                    bb = b1 if o1 == 0 else a1
                    for o2 in range(2):
                        cc = a2 if o2 == 0 else b2
                        ee = b2 if o2 == 0 else a2
                        if not is_peer[bb, cc]:
                            continue
                        if not _sees_both(cand, is_peer, k, aa, ee, bb, cc):
                            continue
                        if (k1 & 1 and k2 & 1 and col_of[bb] == col_of[cc]) or (
                                k1 & 2 and k2 & 2 and row_of[bb] == row_of[cc]):
                            got = 0
                        elif ((k1 & 1 and k2 & 2) or (k1 & 2 and k2 & 1)) and box_of[bb] == box_of[cc]:
                            got = 1
                        else:
                            got = 2
                        if got == kind:
                            return True
    return False


@nb.njit(cache=True, nogil=True)
def _empty_rectangle(cand: np.ndarray, row_of: np.ndarray, col_of: np.ndarray, box_of: np.ndarray,
                     row_band: np.ndarray, col_band: np.ndarray, n: int) -> bool:  # pragma: no cover - compiled
    """``logic._empty_rectangle(st, ctx) is not None``."""
    ncells = n * n
    for k in range(n):
        for b in range(n):
            nbx = 0
            for i in range(ncells):
                if box_of[i] == b and cand[i] >> k & 1:
                    nbx += 1
            if nbx < 2:
                continue
            for r in range(n):
                if not row_band[b] >> r & 1:
                    continue
                for c in range(n):
                    if not col_band[b] >> c & 1:
                        continue
                    off = False  # a box candidate outside row r and column c
                    off_r = False  # ... outside row r
                    off_c = False  # ... outside column c
                    for i in range(ncells):
                        if box_of[i] == b and cand[i] >> k & 1:
                            if row_of[i] != r and col_of[i] != c:
                                off = True
                            if row_of[i] != r:
                                off_r = True
                            if col_of[i] != c:
                                off_c = True
                    if off or not off_r or not off_c:
                        continue
                    for c2 in range(n):
                        if col_band[b] >> c2 & 1 or not cand[r * n + c2] >> k & 1:
                            continue
                        cnt = 0
                        other = -1
                        for r2 in range(n):
                            if cand[r2 * n + c2] >> k & 1:
                                cnt += 1
                                if r2 != r:
                                    other = r2
                        if cnt != 2 or row_band[b] >> other & 1:
                            continue
                        if cand[other * n + c] >> k & 1:
                            return True
                    for r3 in range(n):
                        if row_band[b] >> r3 & 1 or not cand[r3 * n + c] >> k & 1:
                            continue
                        cnt = 0
                        other = -1
                        for c3 in range(n):
                            if cand[r3 * n + c3] >> k & 1:
                                cnt += 1
                                if c3 != c:
                                    other = c3
                        if cnt != 2 or col_band[b] >> other & 1:
                            continue
                        if cand[r * n + other] >> k & 1:
                            return True
    return False


@nb.njit(cache=True, nogil=True)
def _w_wing(cand: np.ndarray, units: np.ndarray, is_peer: np.ndarray, n: int) -> bool:  # pragma: no cover
    """``logic._w_wing(st, ctx) is not None``."""
    ncells = n * n
    la = np.empty((n, 3 * n), dtype=np.int64)
    lb = np.empty((n, 3 * n), dtype=np.int64)
    lk = np.empty(3 * n, dtype=np.int64)
    nl = np.full(n, -1, dtype=np.int64)  # links of each digit, computed when first needed
    for a in range(ncells):
        m = cand[a]
        if _popcount(m) != 2:
            continue
        for b in range(a + 1, ncells):
            if cand[b] != m or is_peer[a, b]:
                continue
            for kx in range(n):
                if not m >> kx & 1:
                    continue
                ky = _bitlen(m & ~(1 << kx)) - 1
                if not _sees_both(cand, is_peer, ky, a, b, -1, -1):
                    continue
                if nl[kx] < 0:
                    nl[kx] = _strong(cand, units, n, kx, la[kx], lb[kx], lk)
                for q in range(nl[kx]):
                    p, r = la[kx, q], lb[kx, q]
                    if p == a or p == b or r == a or r == b:  # noqa: SIM109 (plain compares: compiled code)
                        continue
                    if (is_peer[p, a] and is_peer[r, b]) or (is_peer[p, b] and is_peer[r, a]):
                        return True
    return False


@nb.njit(cache=True, nogil=True)
def _xy_wing(cand: np.ndarray, peers: np.ndarray, is_peer: np.ndarray, n: int) -> bool:  # pragma: no cover
    """``logic._xy_wing(st, ctx) is not None``."""
    wings = np.empty(peers.shape[1], dtype=np.int64)
    for pivot in range(n * n):
        pm = cand[pivot]
        if _popcount(pm) != 2:
            continue
        nw = 0
        for q in range(peers.shape[1]):
            c = peers[pivot, q]
            if _popcount(cand[c]) == 2 and _popcount(cand[c] & pm) == 1:
                wings[nw] = c
                nw += 1
        for x in range(nw):
            for y in range(x + 1, nw):
                a, b = wings[x], wings[y]
                ma, mb = cand[a], cand[b]
                if ma & pm == mb & pm:
                    continue
                z = ma & ~pm
                if z != mb & ~pm:
                    continue
                if _sees_both(cand, is_peer, _bitlen(z) - 1, a, b, -1, -1):
                    return True
    return False


@nb.njit(cache=True, nogil=True)
def _xyz_wing(cand: np.ndarray, peers: np.ndarray, is_peer: np.ndarray, n: int) -> bool:  # pragma: no cover
    """``logic._xyz_wing(st, ctx) is not None``."""
    wings = np.empty(peers.shape[1], dtype=np.int64)
    for pivot in range(n * n):
        pm = cand[pivot]
        if _popcount(pm) != 3:
            continue
        nw = 0
        for q in range(peers.shape[1]):
            c = peers[pivot, q]
            if _popcount(cand[c]) == 2 and not cand[c] & ~pm:
                wings[nw] = c
                nw += 1
        for x in range(nw):
            for y in range(x + 1, nw):
                a, b = wings[x], wings[y]
                if cand[a] == cand[b]:
                    continue
                kz = _bitlen(cand[a] & cand[b]) - 1
                for i in range(n * n):
                    if cand[i] >> kz & 1 and is_peer[pivot, i] and is_peer[a, i] and is_peer[b, i]:
                        return True
    return False


@nb.njit(cache=True, nogil=True)
def _finned(cand: np.ndarray, row_band: np.ndarray, col_band: np.ndarray, width: int, n: int, size: int,
            sashimi: bool) -> bool:  # pragma: no cover - compiled
    """``logic._finned_fish(st, ctx, size, sashimi) is not None``: some finned fish of ``size`` with
    eliminations, none of whose base lines is empty in the cover, whose kind (sashimi: a base line with at
    most one cover position) is ``sashimi``."""
    by_row = np.zeros(n, dtype=np.int64)
    by_col = np.zeros(n, dtype=np.int64)
    base = np.empty(n, dtype=np.int64)
    idx = np.empty(size, dtype=np.int64)
    free_pos = np.empty(n, dtype=np.int64)
    ext = np.empty(size + 1, dtype=np.int64)
    max_union = size + width
    for k in range(n):
        by_row[:] = 0
        by_col[:] = 0
        for r in range(n):
            for c in range(n):
                if cand[r * n + c] >> k & 1:
                    by_row[r] |= 1 << c
                    by_col[c] |= 1 << r
        for orient in range(2):
            lines = by_row if orient == 0 else by_col
            cross = by_col if orient == 0 else by_row
            cnt = 0
            for li in range(n):
                c = _popcount(lines[li])
                if 2 <= c <= max_union:
                    base[cnt] = li
                    cnt += 1
            if cnt < size:
                continue
            for q in range(size):
                idx[q] = q
            while True:
                union = 0
                bset = 0
                for q in range(size):
                    union |= lines[base[idx[q]]]
                    bset |= 1 << base[idx[q]]
                nu = _popcount(union)
                if size < nu <= max_union:
                    for b in range(n):
                        fl = row_band[b] if orient == 0 else col_band[b]
                        fp = col_band[b] if orient == 0 else row_band[b]
                        if not bset & fl:
                            continue
                        outside = 0
                        for q in range(size):
                            li = base[idx[q]]
                            if not fl >> li & 1:
                                outside |= lines[li]
                        must = (union & ~fp) | outside
                        need = size - _popcount(must)
                        free = union & fp & ~must
                        nfree = 0
                        for p in range(n):
                            if free >> p & 1:
                                free_pos[nfree] = p
                                nfree += 1
                        if need < 0 or need > nfree:
                            continue
                        for q in range(need):
                            ext[q] = q
                        while True:
                            cover = must
                            for q in range(need):
                                cover |= 1 << free_pos[ext[q]]
                            if union & ~cover:  # there is a fin
                                tgt = False
                                for p in range(n):
                                    if (cover & fp) >> p & 1 and cross[p] & fl & ~bset:
                                        tgt = True
                                        break
                                if tgt:
                                    least = n + 1
                                    for q in range(size):
                                        least = min(least, _popcount(lines[base[idx[q]]] & cover))
                                    if least > 0 and (least <= 1) == sashimi:
                                        return True
                            if not _next_combo(ext, need, nfree):
                                break
                if not _next_combo(idx, size, cnt):
                    break
    return False


@nb.njit(cache=True, nogil=True)
def _simple_colors(cand: np.ndarray, units: np.ndarray, is_peer: np.ndarray, n: int) -> bool:  # pragma: no cover
    """``logic._simple_colors(st, ctx) is not None``: a 2-colourable component (3 cells or more) of
    the conjugate-pair graph of a digit with a colour wrap or a colour trap."""
    ncells = n * n
    la = np.empty(3 * n, dtype=np.int64)
    lb = np.empty(3 * n, dtype=np.int64)
    lk = np.empty(3 * n, dtype=np.int64)
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


@nb.njit(cache=True, nogil=True)
def _x_chain(cand: np.ndarray, units: np.ndarray, is_peer: np.ndarray, n: int) -> bool:  # pragma: no cover
    """``logic._x_chain(st, ctx) is not None``: the same breadth-first search (same neighbour order,
    first parent kept) meets an end with eliminations whose unwound chain has distinct cells."""
    ncells = n * n
    la = np.empty(3 * n, dtype=np.int64)
    lb = np.empty(3 * n, dtype=np.int64)
    lk = np.empty(3 * n, dtype=np.int64)
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
                    if p == 0:  # strong links of c, in the order logic's adjacency lists hold them
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
    """``logic._xy_chain(st, ctx) is not None``, by the same breadth-first search."""
    ncells = n * n
    parent = np.empty(n * ncells, dtype=np.int64)  # state = n * cell + digit index
    front = np.empty(n * ncells, dtype=np.int64)
    nxt = np.empty(n * ncells, dtype=np.int64)
    seen = np.zeros(ncells, dtype=np.bool_)
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
                        if ko == kx and e != start and _sees_both(cand, is_peer, kx, start, e, -1, -1) and _chain_ok(
                                parent, s, n, seen, 3):
                            return True
                front, nxt = nxt, front
                nf = nn
    return False


# ---------------------------------------------------------------------------------------------
# Dispatch, singles, driver entry points
# ---------------------------------------------------------------------------------------------

#: The techniques the kernels can probe; a technique's code is its index here.
PROBED: tuple[str, ...] = (
    "locked_pair", "locked_triple", "pointing", "claiming", "naked_pair", "naked_triple", "hidden_pair",
    "hidden_triple", "naked_quad", "hidden_quad", "x_wing", "swordfish", "jellyfish", "skyscraper",
    "two_string_kite", "turbot_fish", "empty_rectangle", "w_wing", "xy_wing", "xyz_wing", "finned_x_wing",
    "sashimi_x_wing", "simple_colors", "finned_swordfish", "sashimi_swordfish", "finned_jellyfish",
    "sashimi_jellyfish", "x_chain", "xy_chain",
)


@nb.njit(cache=True, nogil=True)
def _probe(cand: np.ndarray, peers: np.ndarray, units: np.ndarray, row_of: np.ndarray, col_of: np.ndarray,
           box_of: np.ndarray, is_peer: np.ndarray, row_band: np.ndarray, col_band: np.ndarray, width: int,
           n: int, t: int) -> bool:  # pragma: no cover - compiled
    """Does technique ``PROBED[t]`` make progress?"""
    if t == 0:
        return _naked_subset(cand, units, row_of, col_of, box_of, n, 2, True)
    if t == 1:
        return _naked_subset(cand, units, row_of, col_of, box_of, n, 3, True)
    if t == 2:
        return _pointing(cand, units, row_of, col_of, box_of, n)
    if t == 3:
        return _claiming(cand, units, row_of, col_of, box_of, n)
    if t == 4:
        return _naked_subset(cand, units, row_of, col_of, box_of, n, 2, False)
    if t == 5:
        return _naked_subset(cand, units, row_of, col_of, box_of, n, 3, False)
    if t == 6:
        return _hidden_subset(cand, units, n, 2)
    if t == 7:
        return _hidden_subset(cand, units, n, 3)
    if t == 8:
        return _naked_subset(cand, units, row_of, col_of, box_of, n, 4, False)
    if t == 9:
        return _hidden_subset(cand, units, n, 4)
    if t <= 12:
        return _fish(cand, n, t - 8)
    if t <= 15:
        return _turbot(cand, units, is_peer, row_of, col_of, box_of, n, t - 13)
    if t == 16:
        return _empty_rectangle(cand, row_of, col_of, box_of, row_band, col_band, n)
    if t == 17:
        return _w_wing(cand, units, is_peer, n)
    if t == 18:
        return _xy_wing(cand, peers, is_peer, n)
    if t == 19:
        return _xyz_wing(cand, peers, is_peer, n)
    if t == 20 or t == 21:
        return _finned(cand, row_band, col_band, width, n, 2, t == 21)
    if t == 22:
        return _simple_colors(cand, units, is_peer, n)
    if t <= 26:
        return _finned(cand, row_band, col_band, width, n, 3 + (t - 23) // 2, (t - 23) % 2 == 1)
    if t == 27:
        return _x_chain(cand, units, is_peer, n)
    return _xy_chain(cand, is_peer, n)


@nb.njit(cache=True, nogil=True)
def _walk(cand: np.ndarray, peers: np.ndarray, units: np.ndarray, row_of: np.ndarray, col_of: np.ndarray,
          box_of: np.ndarray, is_peer: np.ndarray, row_band: np.ndarray, col_band: np.ndarray, width: int,
          codes: np.ndarray, start: int) -> int:  # pragma: no cover - compiled
    """First position ``p >= start`` of ``codes`` that is not probed (``codes[p] < 0``: Python must
    try it) or whose technique applies; ``len(codes)`` if none."""
    n = units.shape[1]
    for p in range(start, codes.shape[0]):
        t = codes[p]
        if t < 0 or _probe(cand, peers, units, row_of, col_of, box_of, is_peer, row_band, col_band, width, n, t):
            return p
    return codes.shape[0]


@nb.njit(cache=True, nogil=True)
def _singles(values: np.ndarray, cand: np.ndarray, peers: np.ndarray, units: np.ndarray, scan: np.ndarray,
             hidden: bool, out: np.ndarray) -> int:  # pragma: no cover - compiled
    """Singles in place, each recorded as a row ``(cell, digit, unit)`` of ``out``; returns their number."""
    ncells = values.shape[0]
    n = units.shape[1]
    unsolved = 0
    for i in range(ncells):
        if values[i] == 0:
            unsolved += 1
    nsteps = 0
    while unsolved > 0:
        cell = -1
        d = 0
        unit = -1
        for i in range(ncells):
            m = cand[i]
            if m != 0 and m & (m - 1) == 0:
                cell = i
                d = _bitlen(m)
                break
        if cell < 0 and hidden:
            for s in range(scan.shape[0]):
                u = scan[s]
                once = 0
                twice = 0
                for p in range(n):
                    m = cand[units[u, p]]
                    twice |= once & m
                    once |= m
                h = once & ~twice
                if h:
                    low = h & -h
                    d = _bitlen(low)
                    for p in range(n):
                        i = units[u, p]
                        if cand[i] & low:
                            cell = i
                            break
                    unit = u
                    break
        if cell < 0:
            break
        bit = 1 << (d - 1)
        values[cell] = d
        cand[cell] = 0
        for q in range(peers.shape[1]):
            cand[peers[cell, q]] &= ~bit
        out[nsteps, 0] = cell
        out[nsteps, 1] = d
        out[nsteps, 2] = unit
        nsteps += 1
        unsolved -= 1
    return nsteps


@nb.njit(cache=True, nogil=True)
def _advance(values: np.ndarray, cand: np.ndarray, peers: np.ndarray, units: np.ndarray, scan: np.ndarray,
             row_of: np.ndarray, col_of: np.ndarray, box_of: np.ndarray, is_peer: np.ndarray, row_band: np.ndarray,
             col_band: np.ndarray, width: int, hidden: bool, codes: np.ndarray,
             out: np.ndarray) -> tuple[int, int]:  # pragma: no cover - compiled
    """:func:`_singles`, then (board not full) :func:`_walk` from 0; (singles placed, walk position)."""
    nsteps = _singles(values, cand, peers, units, scan, hidden, out)
    for i in range(values.shape[0]):
        if values[i] == 0:
            return nsteps, _walk(cand, peers, units, row_of, col_of, box_of, is_peer, row_band, col_band, width,
                                 codes, 0)
    return nsteps, codes.shape[0]


@cache
def _tables(n: int) -> tuple[tuple[np.ndarray, ...], int]:
    """(peers, units (rows, columns, boxes as in :func:`pipeline.board.board`), scan order (boxes,
    rows, columns), row_of, col_of, box_of, is_peer, row_band and col_band (per box, the rows and the
    columns it crosses, as bits)), and the larger box side."""
    b = board(n)
    peers = np.array([sorted(p) for p in b.peers], dtype=np.int64)
    units = np.array(b.units, dtype=np.int64)
    scan = np.array(list(range(2 * n, 3 * n)) + list(range(2 * n)), dtype=np.int64)
    cells = np.arange(n * n, dtype=np.int64)
    is_peer = np.zeros((n * n, n * n), dtype=np.bool_)
    for i, p in enumerate(b.peers):
        is_peer[i, sorted(p)] = True
    row_band = np.array([sum(1 << r for r in {i // n for i in bx}) for bx in b.boxes], dtype=np.int64)
    col_band = np.array([sum(1 << c for c in {i % n for i in bx}) for bx in b.boxes], dtype=np.int64)
    arrays = (peers, units, scan, cells // n, cells % n, np.array(b.box_of, dtype=np.int64), is_peer, row_band,
              col_band)
    return arrays, max(b.box_rows, b.box_cols)


def codes_for(names: tuple[str, ...]) -> np.ndarray:
    """The probe code of each technique name (its index in :data:`PROBED`), ``-1`` for one that is not probed."""
    return np.array([PROBED.index(t) if t in PROBED else -1 for t in names], dtype=np.int64)


class Kernel:
    """The compiled side of one solve: the state as arrays, synced from and to the Python lists.

    ``codes`` (from :func:`codes_for`) are the techniques after the singles, in the solver's order.
    """

    __slots__ = ("cand", "codes", "n", "tables", "width")

    def __init__(self, n: int, codes: np.ndarray) -> None:
        self.n = n
        self.tables, self.width = _tables(n)
        self.codes = codes
        self.cand = np.zeros(n * n, dtype=np.int64)

    def advance(self, values: list[int], cand: list[int],
                hidden: bool) -> tuple[list[int], list[int], list[tuple[int, int, int]], int]:
        """Singles, then the walk from position 0 (see the module contracts) on a copy of the state.

        Returns the new ``values`` and ``cand``, the singles placed as ``(cell, digit, unit)``
        (``unit = -1``: naked), and the first position of ``codes`` that Python must try (not
        probed, or probed and applies); ``len(codes)`` when none is left or the board is full.
        """
        peers, units, scan, row_of, col_of, box_of, is_peer, row_band, col_band = self.tables
        v = np.array(values, dtype=np.int64)
        c = np.array(cand, dtype=np.int64)
        out = np.empty((self.n * self.n, 3), dtype=np.int64)
        nsteps, pos = _advance(v, c, peers, units, scan, row_of, col_of, box_of, is_peer, row_band, col_band,
                               self.width, hidden, self.codes, out)
        self.cand = c
        placed = [(a, d, u) for a, d, u in out[:nsteps].tolist()]
        return v.tolist(), c.tolist(), placed, int(pos)

    def walk(self, start: int) -> int:
        """The walk from position ``start`` on the state of the last :meth:`advance` (unchanged since)."""
        peers, units, _, row_of, col_of, box_of, is_peer, row_band, col_band = self.tables
        return int(_walk(self.cand, peers, units, row_of, col_of, box_of, is_peer, row_band, col_band, self.width,
                         self.codes, start))
