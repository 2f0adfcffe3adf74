"""Compiled kernels (numba) for the canonical forms of :mod:`pipeline.identity.canon`.

Two kernels, both exact (they compute the same minimum as the pure-numpy reference in
:mod:`pipeline.identity.canon`, which the tests keep as the oracle):

* :func:`canon9` - the smallest row-major form (blank = 0, digits relabelled by first appearance)
  of a 9x9 puzzle over all ``2 * 6**8`` position maps of the validity-preserving group.
* :func:`canon_small` - the same for 4x4 and 6x6 boards, over an explicit list of position maps.

Contracts: inputs are C-contiguous ``uint8`` digit arrays, tables are the numpy arrays the caller
built once (:mod:`pipeline.identity.canon` owns them); the kernels allocate their own scratch, keep
no state between calls and release the GIL. The first call ever compiles them (5 s for
:func:`canon9`, 3 s for :func:`canon_small` on a shared 2-core machine); numba caches the result on
disk next to this file, and a later process loads it in well under a second.

How :func:`canon9` searches (breadth first, row by row, as the reference does)
------------------------------------------------------------------------------
A *candidate* is a partial position map: an orientation ``v`` (the puzzle or its transpose), a
column map ``cp`` (one of the 1,296 that respect stacks), the rows placed so far and the labels
given to the digits met so far. Level ``k`` extends every candidate by each row the band structure
allows at position ``k`` and keeps those whose relabelled row is the smallest; after nine levels
every survivor spells the same, minimal, form.

Three exact reductions keep the candidate count small; none changes the minimum, because each only
drops a candidate whose every continuation is matched, digit for digit, by a kept one:

* *Free column maps.* While every row placed so far is blank, the column map does not matter yet:
  such a candidate stands for all 1,296 maps (``cp = -1``) and its next row only needs its
  pattern of givens, whose best arrangements come from the ``minkey``/``arg`` tables. A free and
  a fixed candidate never meet on one level (their prefixes differ: all-blank or not).
* *Blank rows.* Two blank rows of one band are interchangeable, and so are two wholly blank bands:
  only the first is tried.
* *Blank columns.* Likewise for blank columns of one stack and wholly blank stacks: only column
  maps that keep such columns (stacks) in ascending order are used.

Candidates are five int64 columns (orientation, column map, next label, rows placed and labels,
the last two packed 4 bits per entry), double-buffered and grown on demand; a row is compared with
the best so far digit by digit and dropped at its first larger digit.

Roads not taken. The reference's merging of candidates with equal futures past 4,096 candidates is
not needed: the only such duplicates are row orders that differ by interchangeable blank rows
(non-blank rows of a valid puzzle never read alike), and the blank-row reduction never makes them.
Not tried: depth-first search with a running bound, and keeping the column maps that tie on the
first row as one structured candidate, as dedicated minlex canonicalizers do; a 25-given puzzle
has a few hundred candidates at the first two levels, where most of the time goes.
"""

from __future__ import annotations

import numba as nb
import numpy as np

_BIG = np.int64(1) << np.int64(62)


@nb.njit(cache=True, nogil=True)
def _valid9(p: np.ndarray) -> int:  # pragma: no cover - compiled
    """Number of givens of a 9x9 puzzle, or -1 if a cell holds more than 9 or a unit repeats a digit."""
    rows = np.zeros(9, dtype=np.int32)
    cols = np.zeros(9, dtype=np.int32)
    boxes = np.zeros(9, dtype=np.int32)
    givens = 0
    for i in range(81):
        d = np.int32(p[i])
        if d > 9:
            return -1
        if d == 0:
            continue
        bit = np.int32(1) << d
        r = i // 9
        c = i % 9
        b = (r // 3) * 3 + c // 3
        if (rows[r] | cols[c] | boxes[b]) & bit:
            return -1
        rows[r] |= bit
        cols[c] |= bit
        boxes[b] |= bit
        givens += 1
    return givens


@nb.njit(cache=True, nogil=True, inline="always")
def _options(order: np.int64, k: int, opts: np.ndarray) -> int:  # pragma: no cover - compiled
    """Rows allowed at position ``k`` after the rows packed in ``order`` (4 bits each, position 0
    lowest), ascending into ``opts``; returns their number."""
    if k == 0:
        for r in range(9):
            opts[r] = r
        return 9
    prev = (order >> (4 * (k - 1))) & 15
    if k % 3 == 1:
        base = 3 * (prev // 3)
        m = 0
        for r in range(base, base + 3):
            if r != prev:
                opts[m] = r
                m += 1
        return 2
    if k % 3 == 2:
        opts[0] = 3 * (prev // 3) + 3 - prev % 3 - ((order >> (4 * (k - 2))) & 15) % 3
        return 1
    b0 = (order & 15) // 3
    if k == 3:
        m = 0
        for r in range(9):
            if r // 3 != b0:
                opts[m] = r
                m += 1
        return 6
    band = 3 - b0 - ((order >> 12) & 15) // 3
    for r in range(3):
        opts[r] = 3 * band + r
    return 3


@nb.njit(cache=True, nogil=True, inline="always")
def _reduce_blank(opts: np.ndarray, m: int, rmask: np.ndarray, whole: bool) -> int:  # pragma: no cover
    """Drop interchangeable blank options in place: all but the first blank row of a band and, when
    ``whole`` (the options are whole bands), all but the first wholly blank band. Returns the count."""
    seen_row = 0  # bit b: band b has given its blank row
    seen_band = False
    out = 0
    for i in range(m):
        r = opts[i]
        if rmask[r] == 0:
            b = r // 3
            if seen_row & (1 << b):
                continue
            if whole and rmask[3 * b] == 0 and rmask[3 * b + 1] == 0 and rmask[3 * b + 2] == 0:
                if seen_band:
                    continue
                seen_band = True
            seen_row |= 1 << b
        opts[out] = r
        out += 1
    return out


@nb.njit(cache=True, nogil=True, inline="always")
def _map_allowed(cols: np.ndarray, colblank: np.ndarray) -> bool:  # pragma: no cover - compiled
    """Whether the column map ``cols`` (source column of each position) keeps the blank columns of
    each stack, and the wholly blank stacks, in ascending order (one map of each set of maps that
    differ only by swapping blank columns or blank stacks)."""
    for t in range(3):
        for a in range(3):
            sa = cols[3 * t + a]
            if colblank[sa]:
                for b in range(a + 1, 3):
                    sb = cols[3 * t + b]
                    if colblank[sb] and sa > sb:
                        return False
    for t1 in range(3):
        s1 = cols[3 * t1] // 3
        if colblank[3 * s1] and colblank[3 * s1 + 1] and colblank[3 * s1 + 2]:
            for t2 in range(t1 + 1, 3):
                s2 = cols[3 * t2] // 3
                if colblank[3 * s2] and colblank[3 * s2 + 1] and colblank[3 * s2 + 2] and s1 > s2:
                    return False
    return True


@nb.njit(cache=True, nogil=True)
def canon9(p: np.ndarray, out: np.ndarray, colperms: np.ndarray, minkey: np.ndarray, arg_off: np.ndarray,
           arg_flat: np.ndarray, search_complete: bool) -> int:  # pragma: no cover - compiled
    """Canonical form of the 9x9 puzzle ``p`` (81 ``uint8``, 0 = blank) into ``out`` (81 ``uint8``).

    Returns 0 when ``out`` holds the form; -1 when ``p`` is not a puzzle (a cell above 9, or a digit
    twice in a row, column or box; ``out`` untouched); 1 when ``p`` is complete and
    ``search_complete`` is False (``out`` untouched: the caller's grid method is faster).
    Tables: ``colperms`` (1296, 9) source column of each position for every stack-respecting column
    map; ``minkey[mask]`` the smallest pattern key a row with givens ``mask`` (bit j = column j) can
    take, the pattern read with position 0 as the most significant of 9 bits; ``arg_flat[arg_off[mask]
    : arg_off[mask + 1]]`` the column maps reaching it.
    """
    givens = _valid9(p)
    if givens < 0:
        return -1
    if givens == 81 and not search_complete:
        return 1
    if givens == 0:
        out[:] = 0
        return 0
    ver = np.empty((2, 9, 9), dtype=np.uint8)
    rmask = np.zeros((2, 9), dtype=np.int32)
    for r in range(9):
        for c in range(9):
            d = p[9 * r + c]
            ver[0, r, c] = d
            ver[1, c, r] = d
            if d:
                rmask[0, r] |= 1 << c
                rmask[1, c] |= 1 << r
    # blank rows of each orientation (its blank columns are the other orientation's blank rows)
    anyblank = np.zeros(2, dtype=np.bool_)
    colblank = np.zeros((2, 9), dtype=np.bool_)
    for v in range(2):
        for r in range(9):
            if rmask[v, r] == 0:
                anyblank[v] = True
                colblank[1 - v, r] = True

    # candidates, one per index: orientation, column map (-1: free), next label, the rows placed
    # (4 bits per position) and the label of each digit (4 bits per digit, 0: not met yet)
    buf = np.empty((10, 256), dtype=np.int64)
    c_v, c_cp, c_nl, c_ord, c_lab = buf[0], buf[1], buf[2], buf[3], buf[4]
    n_v, n_cp, n_nl, n_ord, n_lab = buf[5], buf[6], buf[7], buf[8], buf[9]
    surv_i = np.empty(256, np.int64)
    surv_r = np.empty(256, np.int64)
    opts = np.empty(9, dtype=np.int64)
    bestpre = np.empty(9, dtype=np.int64)
    pow10 = np.empty(9, dtype=np.int64)
    for j in range(9):
        pow10[j] = 10 ** (8 - j)
    # before level 0: two free candidates, the puzzle and its transpose
    n = 2
    for v in range(2):
        c_v[v], c_cp[v], c_nl[v], c_ord[v], c_lab[v] = v, -1, 1, 0, 0
    free = True
    for k in range(9):
        # 1. every (candidate, allowed row): keep the pairs whose relabelled row is the smallest
        if surv_i.shape[0] < 9 * n:
            surv_i = np.empty(9 * n, np.int64)
            surv_r = np.empty(9 * n, np.int64)
        ns = 0
        best = _BIG
        for j in range(9):
            bestpre[j] = _BIG
        for i in range(n):
            v = c_v[i]
            m = _options(c_ord[i], k, opts)
            if anyblank[v] and k % 3 != 2:
                m = _reduce_blank(opts, m, rmask[v], k % 3 == 0)
            for o in range(m):
                r = opts[o]
                if free:
                    key = np.int64(minkey[rmask[v, r]])
                else:
                    cp = c_cp[i]
                    lab = c_lab[i]
                    nl = c_nl[i]
                    key = np.int64(0)
                    worse = False
                    for j in range(9):
                        d = np.int64(ver[v, r, colperms[cp, j]])
                        x = np.int64(0)
                        if d:
                            x = (lab >> (4 * d)) & 15
                            if x == 0:
                                x = nl
                                lab |= nl << (4 * d)
                                nl += 1
                        key = key * 10 + x
                        if key > bestpre[j]:
                            worse = True
                            break
                    if worse:
                        continue
                if key > best:
                    continue
                if key < best:
                    best = key
                    ns = 0
                    if not free:
                        for j in range(9):
                            bestpre[j] = best // pow10[j]
                surv_i[ns] = i
                surv_r[ns] = r
                ns += 1
        # 2. the survivors become the next level's candidates (a free one with a non-blank row
        # becomes one candidate per best column map of that row)
        total = 0
        for s in range(ns):
            mask = rmask[c_v[surv_i[s]], surv_r[s]]
            total += arg_off[mask + 1] - arg_off[mask] if free and mask else 1
        if total > n_v.shape[0]:
            size = max(total, 2 * n_v.shape[0])
            n_v, n_cp, n_nl = np.empty(size, np.int64), np.empty(size, np.int64), np.empty(size, np.int64)
            n_ord, n_lab = np.empty(size, np.int64), np.empty(size, np.int64)
        w = 0
        for s in range(ns):
            i, r = surv_i[s], surv_r[s]
            v = c_v[i]
            mask = rmask[v, r]
            order = c_ord[i] | (r << (4 * k))
            if free and mask:
                for a in range(arg_off[mask], arg_off[mask + 1]):
                    cp = np.int64(arg_flat[a])
                    if anyblank[1 - v] and not _map_allowed(colperms[cp], colblank[v]):
                        continue
                    lab = np.int64(0)
                    nl = 1
                    for j in range(9):
                        d = np.int64(ver[v, r, colperms[cp, j]])
                        if d:
                            lab |= nl << (4 * d)
                            nl += 1
                    n_v[w], n_cp[w], n_nl[w], n_ord[w], n_lab[w] = v, cp, nl, order, lab
                    w += 1
                continue
            cp = c_cp[i]
            lab = c_lab[i]
            nl = c_nl[i]
            if not free:
                for j in range(9):
                    d = np.int64(ver[v, r, colperms[cp, j]])
                    if d and (lab >> (4 * d)) & 15 == 0:
                        lab |= nl << (4 * d)
                        nl += 1
            n_v[w], n_cp[w], n_nl[w], n_ord[w], n_lab[w] = v, cp, nl, order, lab
            w += 1
        free = free and best == 0
        c_v, c_cp, c_nl, c_ord, c_lab, n_v, n_cp, n_nl, n_ord, n_lab = (
            n_v, n_cp, n_nl, n_ord, n_lab, c_v, c_cp, c_nl, c_ord, c_lab
        )
        n = w
    # every survivor spells the same form; write the first
    v = c_v[0]
    cp = c_cp[0]
    lab = c_lab[0]
    for k in range(9):
        r = (c_ord[0] >> (4 * k)) & 15
        for j in range(9):
            d = np.int64(ver[v, r, colperms[cp, j]])
            out[9 * k + j] = (lab >> (4 * d)) & 15 if d else 0
    return 0


@nb.njit(cache=True, nogil=True)
def canon_small(p: np.ndarray, maps: np.ndarray, n: int, out: np.ndarray) -> None:  # pragma: no cover
    """Smallest relabelled image of the puzzle ``p`` (``n*n`` ``uint8``, digits 0..n) over the position
    maps ``maps`` (M, n*n), written into ``out``: each map's image read cell by cell, digits labelled
    1, 2, ... by first appearance, compared with the best so far and abandoned at its first larger
    cell. The caller guarantees every digit is at most ``n``."""
    cells = maps.shape[1]
    lab = np.zeros(n + 1, dtype=np.uint8)
    cur = np.empty(cells, dtype=np.uint8)
    have = False
    for m in range(maps.shape[0]):
        lab[:] = 0
        nl = 1
        state = 0  # 0: equal to the best so far, -1: already smaller
        for i in range(cells):
            d = p[maps[m, i]]
            x = np.uint8(0)
            if d:
                x = lab[d]
                if x == 0:
                    x = np.uint8(nl)
                    lab[d] = x
                    nl += 1
            if have and state == 0:
                if x > out[i]:
                    state = 1
                    break
                if x < out[i]:
                    state = -1
            cur[i] = x
        if not have or state == -1:
            out[:] = cur
            have = True
