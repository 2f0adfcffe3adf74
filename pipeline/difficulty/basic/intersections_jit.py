"""Compiled probes of the intersections (:mod:`.intersections`): pointing and claiming. Each answers
whether the Python finder would return a step (classic geometry only).
"""

from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(cache=True, nogil=True)
def _pointing(cand: np.ndarray, units: np.ndarray, row_of: np.ndarray, col_of: np.ndarray,
              box_of: np.ndarray, n: int) -> bool:  # pragma: no cover - compiled
    """``intersections._pointing(st, ctx) is not None``."""
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


# _pointing's other direction (a line confined to a box), as intersections._claiming mirrors intersections._pointing
@nb.njit(cache=True, nogil=True)
def _claiming(cand: np.ndarray, units: np.ndarray, row_of: np.ndarray, col_of: np.ndarray,
              box_of: np.ndarray, n: int) -> bool:  # pragma: no cover - compiled
    """``intersections._claiming(st, ctx) is not None``."""
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
