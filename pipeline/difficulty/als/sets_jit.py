"""Compiled twin of :mod:`.sets`'s restricted commons: every RC of a list of ALS, as :func:`.sets._rcs` finds them.

The pairs loop is the ALS techniques' hot spot (a few hundred ALS, tens of thousands of pairs).
Cell sets of up to 81 cells are passed as two 64-bit words (cells 0-63, 64-127). The result is the
same list, in the same order, as the pure-Python loop (``tests/difficulty/test_als.py``).
"""

from __future__ import annotations

import numba as nb
import numpy as np

_LOW = (1 << 64) - 1


@nb.njit(cache=True, nogil=True)
def _pairs(cl: np.ndarray, ch: np.ndarray, dg: np.ndarray, wl: np.ndarray, wh: np.ndarray, bl: np.ndarray,
           bh: np.ndarray, out: np.ndarray) -> int:  # pragma: no cover - compiled
    """Fill ``out`` with ``(a, b, x, y)`` rows (``y = -1``: singly linked) and return how many; when
    ``out`` is too small, count only."""
    m = cl.shape[0]
    nd = wl.shape[1]
    cnt = 0
    for i in range(m):
        for j in range(i + 1, m):
            common = dg[i] & dg[j]
            if common == 0 or (cl[i] & cl[j]) != 0 or (ch[i] & ch[j]) != 0:
                continue
            x = -1
            for k in range(nd):
                if not (common >> k) & 1:
                    continue
                al = wl[i, k] | wl[j, k]
                ah = wh[i, k] | wh[j, k]
                if (al & ~(bl[i, k] & bl[j, k])) != 0 or (ah & ~(bh[i, k] & bh[j, k])) != 0:
                    continue
                if x < 0:
                    x = k
                    if cnt < out.shape[0]:
                        out[cnt, 0] = i
                        out[cnt, 1] = j
                        out[cnt, 2] = k
                        out[cnt, 3] = -1
                    cnt += 1
                else:
                    if cnt - 1 < out.shape[0]:
                        out[cnt - 1, 3] = k
                    break
    return cnt


def _words(x: int) -> tuple[int, int]:
    return x & _LOW, x >> 64


def rcs(cells: list[int], digits: list[int], where: list[dict[int, int]], around: list[dict[int, int]],
        n: int) -> list[tuple[int, int, int, int]]:
    """The RCs ``(a, b, x, y)`` of the ALS given by their ``cells`` and ``digits`` bitsets, per digit
    ``k`` the cells holding it (``where``) and those cells with the outside cells seeing all of them
    (``around``); ``y = -1`` when singly linked."""
    m = len(cells)
    cl = np.zeros(m, dtype=np.uint64)
    ch = np.zeros(m, dtype=np.uint64)
    wl = np.zeros((m, n), dtype=np.uint64)
    wh = np.zeros((m, n), dtype=np.uint64)
    bl = np.zeros((m, n), dtype=np.uint64)
    bh = np.zeros((m, n), dtype=np.uint64)
    for i in range(m):
        cl[i], ch[i] = _words(cells[i])
        for k, w in where[i].items():
            wl[i, k], wh[i, k] = _words(w)
            bl[i, k], bh[i, k] = _words(around[i][k])
    dg = np.array(digits, dtype=np.int64)
    out = np.empty((max(64, m * m // 8), 4), dtype=np.int64)  # room for most states: one pass
    cnt = _pairs(cl, ch, dg, wl, wh, bl, bh, out)
    if cnt > out.shape[0]:
        out = np.empty((cnt, 4), dtype=np.int64)
        _pairs(cl, ch, dg, wl, wh, bl, bh, out)
    return [(int(a), int(b), int(x), int(y)) for a, b, x, y in out[:cnt].tolist()]
