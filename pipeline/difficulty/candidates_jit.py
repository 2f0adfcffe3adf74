"""Compiled helpers the probes of :mod:`.logic_jit` share: bit counts, combinations, and the
conjugate pairs of a digit (:meth:`pipeline.difficulty.candidates._Ctx.strong`, in the same order).

Contracts: candidates as in :mod:`.logic_jit` (int64 bitmasks, bit ``d-1`` for digit ``d``); link
arrays ``la``, ``lb``, ``lk`` have room for ``3 * n`` links.
"""

from __future__ import annotations

import numba as nb
import numpy as np


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
def _first_combo(idx: np.ndarray, k: int) -> None:  # pragma: no cover - compiled
    """Set ``idx[:k]`` to the first combination, ``0 .. k-1`` (then :func:`_next_combo` walks on)."""
    for q in range(k):
        idx[q] = q


# verify/count_jit keeps its own copy on purpose: the verifier shares no code with what it checks
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


@nb.njit(cache=True, nogil=True)
def _link_arrays(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """Room for the conjugate pairs of one digit (``la``, ``lb``, ``lk`` of :func:`_strong`)."""
    return np.empty(3 * n, dtype=np.int64), np.empty(3 * n, dtype=np.int64), np.empty(3 * n, dtype=np.int64)


@nb.njit(cache=True, nogil=True)
def _strong(cand: np.ndarray, units: np.ndarray, n: int, k: int, la: np.ndarray, lb: np.ndarray,
            lk: np.ndarray) -> int:  # pragma: no cover - compiled
    """Conjugate pairs of digit ``k+1`` as ``candidates._Ctx.strong`` lists them: ``(la, lb)`` with
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
