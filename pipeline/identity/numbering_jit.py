"""Compiled kernel (numba) for :func:`pipeline.identity.numbering.grid_number`.

:func:`grid_rank` computes the parts ``(A, B, C, D)`` of a grid's number (module docstring of
:mod:`pipeline.identity.numbering`; the number itself, above 2**63, is assembled in Python) with the
same tables and the same order as the pure-Python :func:`~pipeline.identity.numbering._grid_number_py`,
which the tests keep as its oracle. Step by step, as there:

1. validate (rows, columns, boxes hold 1..9 once);
2. standardize: ``A`` the rank of box 1, relabel so box 1 reads 1..9, ``B``/``C`` the arrangement
   numbers of row 1 and column 1, ``S`` the grid with those columns and rows put in standard order;
3. find the pattern ``p`` of ``S``'s top band by binary search in the sorted band keys (the 18
   cells outside box 1, base 9: sorted like the bands themselves, since box 1 is fixed);
4. rank the completion (rows 4-9) of ``S`` within its pattern: map it to the class representative,
   sort bands 2-3 by column 1, find the three splits, add the completions of the earlier splits
   (class prefix plus the third-split weights ``f(P)/6 * f(Q)/6``) and the ranks of the band-2 and
   band-3 fills among the fills with those column sets (pairs of disjoint transversals, counted).

Contract: ``g`` is 81 ``uint8``; the tables are the arrays :mod:`pipeline.identity.numbering_tables`
derives once from its cached file; no state is kept between calls. The first call ever compiles the kernel
(about 8 s on a shared 2-core machine); numba caches it on disk next to this file, and a later
process loads it in a few hundredths of a second.
"""

from __future__ import annotations

import numba as nb
import numpy as np

_NSPLIT = 56


@nb.njit(cache=True, nogil=True)
def _valid_grid(g: np.ndarray) -> bool:  # pragma: no cover - compiled
    """Whether ``g`` is a complete valid 9x9 grid."""
    rows = np.zeros(9, dtype=np.int32)
    cols = np.zeros(9, dtype=np.int32)
    boxes = np.zeros(9, dtype=np.int32)
    for i in range(81):
        d = np.int32(g[i])
        if d < 1 or d > 9:
            return False
        bit = np.int32(1) << d
        r = i // 9
        c = i % 9
        b = (r // 3) * 3 + c // 3
        if (rows[r] | cols[c] | boxes[b]) & bit:
            return False
        rows[r] |= bit
        cols[c] |= bit
        boxes[b] |= bit
    return True


@nb.njit(cache=True, nogil=True)
def _arrangement(v: np.ndarray) -> int:  # pragma: no cover - compiled
    """Arrangement number (0..71) of six distinct values (:func:`pipeline.identity.standard.arrangement_of`)."""
    out = 36 if min(v[0], v[1], v[2]) > min(v[3], v[4], v[5]) else 0
    for s in range(2):
        a, b, c = v[3 * s], v[3 * s + 1], v[3 * s + 2]
        r0 = (a > b) + (a > c)
        r1 = (b > a) + (b > c)
        # permutations(range(3)) order: (0,1,2) (0,2,1) (1,0,2) (1,2,0) (2,0,1) (2,1,0)
        idx = 2 * r0 + (1 if r1 > (1 if r0 == 0 else 0) else 0)
        out += idx * (6 if s == 0 else 1)
    return out


@nb.njit(cache=True, nogil=True)
def _fill_count(base: np.ndarray, p3: np.ndarray, fill_keys: np.ndarray,
                fill_counts: np.ndarray) -> int:  # pragma: no cover - compiled
    """Fills of a band whose digits sit in columns ``p1``/``p2``/``p3`` of stacks 1-3, given
    ``base = 9*p1 + 3*p2`` per digit; -1 if the structure key (the nine codes ``base + p3`` ascending,
    base 27: :func:`pipeline.identity.bandcount.structure_keys`) is not in ``fill_keys`` (sorted,
    searched without branches)."""
    counts = np.int64(0)  # 2 bits per code 0..26: how often it occurs (at most 3: a column holds 3 digits)
    for d in range(9):
        counts += np.int64(1) << (2 * (base[d] + p3[d]))
    key = np.int64(0)
    for code in range(27):
        for _ in range((counts >> (2 * code)) & 3):
            key = key * 27 + code
    lo = 0
    n = fill_keys.shape[0]
    while n > 1:
        half = n // 2
        lo = lo + half if fill_keys[lo + half] <= key else lo
        n -= half
    if fill_keys[lo] != key:
        return -1
    return fill_counts[lo]


@nb.njit(cache=True, nogil=True)
def _columns(p1: np.ndarray, p2: np.ndarray, p3: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """(9, 3) ascending digit triple of each column, from the column (0..2) of each digit per stack."""
    cols = np.empty((9, 3), dtype=np.int64)
    fill = np.zeros(9, dtype=np.int64)
    for k in range(3):
        pos = p1 if k == 0 else (p2 if k == 1 else p3)
        for d in range(9):
            col = 3 * k + pos[d]
            cols[col, fill[col]] = d + 1
            fill[col] += 1
    return cols


@nb.njit(cache=True, nogil=True)
def _transversals(cols: np.ndarray, a: int, keys: np.ndarray, cells: np.ndarray) -> int:  # pragma: no cover
    """Rows through ``cols`` (one digit per column, all nine digits) taking choice ``a`` in column 1,
    in ascending order of their code ``sum(choice[j] * 3**(8 - j))``: codes into ``keys``, occupied
    (column, choice) bits into ``cells`` (as many as fit); returns their number.

    The three columns of a stack hold disjoint digits (they make up a box), so any choice per
    column of one stack gives three distinct digits; stacks 1 and 2 are enumerated in code order and
    stack 3 is then forced (each of its columns must hold exactly one of the three digits left)."""
    # digit masks (bits 1..9) of each choice in stacks 1 and 2, and of the columns of stack 3
    m_first = np.empty(9, dtype=np.int64)
    for x1 in range(9):  # choices in columns 2-3 (column 1 takes choice a)
        m_first[x1] = (1 << cols[0, a]) | (1 << cols[1, x1 // 3]) | (1 << cols[2, x1 % 3])
    m_second = np.empty(27, dtype=np.int64)
    for x2 in range(27):  # choices in columns 4-6
        m_second[x2] = (1 << cols[3, x2 // 9]) | (1 << cols[4, (x2 // 3) % 3]) | (1 << cols[5, x2 % 3])
    c7 = (1 << cols[6, 0]) | (1 << cols[6, 1]) | (1 << cols[6, 2])
    c8 = (1 << cols[7, 0]) | (1 << cols[7, 1]) | (1 << cols[7, 2])
    c9 = (1 << cols[8, 0]) | (1 << cols[8, 1]) | (1 << cols[8, 2])
    n = 0
    for x1 in range(9):
        m0 = m_first[x1]
        for x2 in range(27):
            m1 = m_second[x2]
            if m0 & m1:
                continue
            left = 0x3FE ^ (m0 | m1)  # the three digits left: one in each column of stack 3?
            if (left & c7) == 0 or (left & c8) == 0 or (left & c9) == 0:
                continue
            x3 = 0
            for col in range(6, 9):
                hit = 0
                while not left & (1 << cols[col, hit]):
                    hit += 1
                x3 = x3 * 3 + hit
            if n < keys.shape[0]:
                keys[n] = (x1 * 27 + x2) * 27 + x3
                cells[n] = (
                    (1 << a) | (1 << (3 + x1 // 3)) | (1 << (6 + x1 % 3))
                    | (1 << (9 + x2 // 9)) | (1 << (12 + (x2 // 3) % 3)) | (1 << (15 + x2 % 3))
                    | (1 << (18 + x3 // 9)) | (1 << (21 + (x3 // 3) % 3)) | (1 << (24 + x3 % 3))
                )
            n += 1
    return n


@nb.njit(cache=True, nogil=True)
def _fill_rank(cols: np.ndarray, rows: np.ndarray, scratch: np.ndarray) -> int:  # pragma: no cover - compiled
    """Rank of a band fill (rows 1-2 of ``rows``, (3, 9) digits) among the fills with column sets
    ``cols``: fills ordered by (row 1 code, row 2 code), row 1 and row 2 disjoint transversals.
    ``scratch``: (4, m) int64 work space, replaced by a larger one if some band has more than ``m``
    transversals (none seen has more than 48)."""
    k0, c0, k1, c1 = scratch[0], scratch[1], scratch[2], scratch[3]
    n0 = _transversals(cols, 0, k0, c0)
    n1 = _transversals(cols, 1, k1, c1)
    if max(n0, n1) > k0.shape[0]:
        big = np.empty((4, max(n0, n1)), dtype=np.int64)
        k0, c0, k1, c1 = big[0], big[1], big[2], big[3]
        _transversals(cols, 0, k0, c0)
        _transversals(cols, 1, k1, c1)
    want = np.zeros(2, dtype=np.int64)
    for a in range(2):
        key = np.int64(0)
        for j in range(1, 9):
            ch = 0
            while cols[j, ch] != rows[a, j]:
                ch += 1
            key = key * 3 + ch
        want[a] = key
    pos0 = np.searchsorted(k0[:n0], want[0])
    pos1 = np.searchsorted(k1[:n1], want[1])
    rank = 0
    for p in range(pos0):
        for q in range(n1):
            if c0[p] & c1[q] == 0:
                rank += 1
    for q in range(pos1):
        if c0[pos0] & c1[q] == 0:
            rank += 1
    return rank


@nb.njit(cache=True, nogil=True)
def grid_rank(g: np.ndarray, out: np.ndarray, band_keys: np.ndarray, pattern_start: np.ndarray,
              band_class: np.ndarray, band_cols: np.ndarray, band_relabel: np.ndarray, split_p: np.ndarray,
              split_q: np.ndarray, class_prefix: np.ndarray, fill_keys: np.ndarray,
              fill_counts: np.ndarray) -> int:  # pragma: no cover - compiled
    """``out[:] = (A, B, C, D)`` of the grid ``g`` (81 ``uint8``); returns 0, or -1 if ``g`` is not a
    complete valid grid, or -2 if a table has no entry for it (inconsistent tables; never expected).

    Tables: ``band_keys`` (36288,) sorted int64 keys of the standard bands (the 18 cells outside
    box 1, digits - 1, base 9, reading order); ``pattern_start`` (36289,) first D of each pattern;
    ``band_class``, ``band_cols``, ``band_relabel`` as in the numbering tables; ``split_p``/``split_q``
    (K, 3, 56, 9) int64 band-2/band-3 column of each digit per class, stack and split (stack 1 has
    28 splits, the rest of its rows unused); ``class_prefix`` (K, 28*56+1); ``fill_keys``/``fill_counts``.
    """
    if not _valid_grid(g):
        return -1
    # 1. standardize: A, relabel by box 1, B and C, S
    sig = np.zeros(10, dtype=np.int64)
    box = np.empty(9, dtype=np.int64)
    for k in range(9):
        box[k] = g[9 * (k // 3) + k % 3]
        sig[box[k]] = k + 1
    fact = 40320
    a_rank = 0
    used = 0
    for i in range(9):
        x = box[i]
        smaller = 0
        for y in range(1, x):
            if not used & (1 << y):
                smaller += 1
        a_rank += smaller * fact
        used |= 1 << x
        if i < 8:
            fact //= 8 - i
    g1 = np.empty(81, dtype=np.int64)
    for i in range(81):
        g1[i] = sig[g[i]]
    six = np.empty(6, dtype=np.int64)
    for j in range(6):
        six[j] = g1[3 + j]
    b_arr = _arrangement(six)
    for j in range(6):
        six[j] = g1[9 * (3 + j)]
    c_arr = _arrangement(six)
    colsrc = np.empty(9, dtype=np.int64)
    rowsrc = np.empty(9, dtype=np.int64)
    for x, arr in ((0, b_arr), (1, c_arr)):
        src = colsrc if x == 0 else rowsrc
        swap, x2, x3 = arr // 36, (arr // 6) % 6, arr % 6
        src[0], src[1], src[2] = 0, 1, 2
        for s in range(2):
            xs = x2 if s == 0 else x3
            stk = (1 - s) if swap else s
            # PERMS3[xs] in permutations(range(3)) order
            f0 = xs // 2
            rest0 = 1 if f0 == 0 else 0
            rest1 = 2 if f0 != 2 else 1
            f1, f2 = (rest0, rest1) if xs % 2 == 0 else (rest1, rest0)
            src[3 + 3 * s] = 3 + 3 * stk + f0
            src[4 + 3 * s] = 3 + 3 * stk + f1
            src[5 + 3 * s] = 3 + 3 * stk + f2
    s_grid = np.empty(81, dtype=np.int64)
    for r in range(9):
        for j in range(9):
            s_grid[9 * rowsrc[r] + colsrc[j]] = g1[9 * r + j]
    # 2. the pattern of the top band
    key = np.int64(0)
    for i in range(27):
        if i % 9 >= 3:
            key = key * 9 + s_grid[i] - 1
    p = np.searchsorted(band_keys, key)
    if p >= band_keys.shape[0] or band_keys[p] != key:
        return -2
    # 3. the completion, mapped to the class representative, bands 2-3 sorted by column 1
    c = band_class[p]
    cinv = np.empty(9, dtype=np.int64)
    for j in range(9):
        cinv[band_cols[p, j]] = j
    relinv = np.zeros(10, dtype=np.int64)
    for x in range(10):
        relinv[band_relabel[p, x]] = x
    z = np.empty((6, 9), dtype=np.int64)
    for i in range(6):
        for j in range(9):
            z[i, j] = relinv[s_grid[9 * (3 + i) + cinv[j]]]
    order = np.arange(6)
    for h in range(2):  # first entries are distinct: sorting rows = sorting them by column 1
        for i in range(3 * h, 3 * h + 3):
            for j in range(i + 1, 3 * h + 3):
                if z[order[j], 0] < z[order[i], 0]:
                    order[i], order[j] = order[j], order[i]
    if z[order[3], 0] < z[order[0], 0]:
        for i in range(3):
            order[i], order[3 + i] = order[3 + i], order[i]
    band2 = np.empty((3, 9), dtype=np.int64)
    band3 = np.empty((3, 9), dtype=np.int64)
    for i in range(3):
        band2[i, :] = z[order[i]]
        band3[i, :] = z[order[3 + i]]
    # 4. the splits of band 2
    splits = np.empty(3, dtype=np.int64)
    pos = np.empty(9, dtype=np.int64)
    for k in range(3):
        for i in range(3):
            for m in range(3):
                pos[band2[i, 3 * k + m] - 1] = m
        nsplit = 28 if k == 0 else _NSPLIT
        found = -1
        for t in range(nsplit):
            same = True
            for d in range(9):
                if split_p[c, k, t, d] != pos[d]:
                    same = False
                    break
            if same:
                found = t
                break
        if found < 0:
            return -2
        splits[k] = found
    s1, s2, s3 = splits[0], splits[1], splits[2]
    rank = class_prefix[c, s1 * _NSPLIT + s2]
    base_p = np.empty(9, dtype=np.int64)
    base_q = np.empty(9, dtype=np.int64)
    for d in range(9):
        base_p[d] = 9 * split_p[c, 0, s1, d] + 3 * split_p[c, 1, s2, d]
        base_q[d] = 9 * split_q[c, 0, s1, d] + 3 * split_q[c, 1, s2, d]
    fq3 = 0
    for t in range(s3 + 1):
        fp = _fill_count(base_p, split_p[c, 2, t], fill_keys, fill_counts)
        fq = _fill_count(base_q, split_q[c, 2, t], fill_keys, fill_counts)
        if fp < 0 or fq < 0:
            return -2
        if t < s3:
            rank += (fp // 6) * (fq // 6)
        else:
            fq3 = fq // 6
    # 5. the fills of bands 2 and 3 among those with their column sets
    cols2 = _columns(split_p[c, 0, s1], split_p[c, 1, s2], split_p[c, 2, s3])
    cols3 = _columns(split_q[c, 0, s1], split_q[c, 1, s2], split_q[c, 2, s3])
    scratch = np.empty((4, 128), dtype=np.int64)
    rank += _fill_rank(cols2, band2, scratch) * fq3 + _fill_rank(cols3, band3, scratch)
    out[0] = a_rank
    out[1] = b_arr
    out[2] = c_arr
    out[3] = pattern_start[p] + rank
    return 0
