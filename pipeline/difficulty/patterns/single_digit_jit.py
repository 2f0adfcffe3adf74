"""Compiled probes of the single-digit patterns (:mod:`.single_digit`): skyscraper, 2-string kite,
turbot fish and empty rectangle. Each answers whether the Python finder would return a step.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.difficulty.candidates_jit import _link_arrays, _sees_both, _strong


@nb.njit(cache=True, nogil=True)
def _turbot(cand: np.ndarray, units: np.ndarray, is_peer: np.ndarray, row_of: np.ndarray, col_of: np.ndarray,
            box_of: np.ndarray, n: int, kind: int) -> bool:  # pragma: no cover - compiled
    """``single_digit._turbot(st, ctx, kind) is not None``; kind 0 skyscraper, 1 two-string kite, 2 turbot fish."""
    la, lb, lk = _link_arrays(n)
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
    """``single_digit._empty_rectangle(st, ctx) is not None``."""
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
                    # the row-link case: the column-link loop above, transposed (as in single_digit)
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
