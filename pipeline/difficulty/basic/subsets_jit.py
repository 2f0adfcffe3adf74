"""Compiled probes of the subsets (:mod:`.subsets`): naked and hidden subsets (locked ones included).
Each answers whether the Python finder would return a step (classic geometry only).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.difficulty.candidates_jit import _first_combo, _next_combo, _popcount


@nb.njit(cache=True, nogil=True)
def _naked_subset(cand: np.ndarray, units: np.ndarray, row_of: np.ndarray, col_of: np.ndarray,
                  box_of: np.ndarray, n: int, k: int, locked: bool,
                  hodoku: bool = False) -> bool:  # pragma: no cover - compiled
    """``subsets._naked_subset(st, k, locked, hodoku) is not None``."""
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
        _first_combo(idx, k)
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
                is_locked = ns >= 2 and k <= 3
                if hodoku or is_locked == locked:
                    found = False
                    hits = 0
                    for s in range(ns):
                        hit = False
                        for p in range(n):
                            j = units[shared[s], p]
                            inside = False
                            for q in range(k):
                                if cells[idx[q]] == j:
                                    inside = True
                            if not inside and cand[j] & m:
                                found = True
                                if shared[s] >= 2 * n or box_of[j] != box_of[c0]:
                                    hit = True
                        if hit:
                            hits += 1
                    if hodoku:
                        is_locked = is_locked and hits >= 2
                    if found and is_locked == locked:
                        return True
            if not _next_combo(idx, k, cnt):
                break
    return False


@nb.njit(cache=True, nogil=True)
def _hidden_subset(cand: np.ndarray, units: np.ndarray, n: int, k: int) -> bool:  # pragma: no cover - compiled
    """``subsets._hidden_subset(st, ctx, k) is not None`` (positions as bits of the unit's cell order)."""
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
        _first_combo(idx, k)
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
