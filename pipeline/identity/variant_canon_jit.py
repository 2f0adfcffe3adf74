"""Compiled kernel (numba) for the canonical form of plain 9x9 killer puzzles
(:mod:`pipeline.identity.variant_canon`).

:func:`killer9` scans every position map of the classic 9x9 group (``1296`` row maps times ``1296``
column maps times the transpose) and both digit maps (identity, complement ``d -> 10 - d``), and writes
the smallest image's map into ``best``. Exact: it finds the same minimum as the numpy reference
:func:`pipeline.identity.variant_canon._killer9_py` (the tests' oracle). Each cell of an image is
coded as (cage label by first appearance, the cage's sum, the given) in one integer; an image is
abandoned at its first cell larger than the best so far, and a whole block (transpose, row map,
flip) is skipped when the smallest code its first cell can have (over the nine cells of the line it
starts in) is above the smallest over all blocks. Contracts: C-contiguous inputs as the caller
builds them, no state between calls, the GIL released; numba caches the compiled code on disk.
"""

from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(cache=True, nogil=True, inline="always")
def _code(k: int, d: int, flip: int, sums: np.ndarray, sizes: np.ndarray, label: int) -> int:  # pragma: no cover
    if flip and d:
        d = 10 - d
    if k < 0:
        return d
    total = sizes[k] * 10 - sums[k] if flip else sums[k]
    return (label * 1024 + total) * 32 + d


@nb.njit(cache=True, nogil=True)
def killer9(p: np.ndarray, cage_of: np.ndarray, sums: np.ndarray, sizes: np.ndarray,
            rows: np.ndarray, cols: np.ndarray, best: np.ndarray) -> None:  # pragma: no cover
    """Write ``(row map, column map, transpose, flip)`` of the smallest image into ``best`` (int64[4]).
    ``p``: 81 givens (0 blank); ``cage_of``: each cell's cage or -1; ``sums``, ``sizes`` per cage;
    ``rows``, ``cols``: the line maps (int8, 1296 x 9)."""
    ncages = sums.shape[0]
    lb = np.empty((2, 9, 2), dtype=np.int64)
    low = 1 << 60
    for t in range(2):
        for line in range(9):
            for flip in range(2):
                m = 1 << 60
                for j in range(9):
                    s = line * 9 + j if t == 0 else j * 9 + line
                    c = _code(cage_of[s], p[s], flip, sums, sizes, 1)
                    if c < m:
                        m = c
                lb[t, line, flip] = m
                if m < low:
                    low = m
    out = np.empty(81, dtype=np.int64)
    cur = np.empty(81, dtype=np.int64)
    stamp = np.full(max(ncages, 1), -1, dtype=np.int64)
    lab = np.zeros(max(ncages, 1), dtype=np.int64)
    have = False
    trial = 0
    for t in range(2):
        for flip in range(2):
            for a in range(rows.shape[0]):
                if lb[t, rows[a, 0], flip] > low:
                    continue
                for b in range(cols.shape[0]):
                    trial += 1
                    nl = 0
                    state = 0  # 0: equal to the best so far, -1: already smaller
                    for i in range(9):
                        ri = rows[a, i]
                        for j in range(9):
                            cj = cols[b, j]
                            s = ri * 9 + cj if t == 0 else cj * 9 + ri
                            k = cage_of[s]
                            label = 0
                            if k >= 0:
                                if stamp[k] != trial:
                                    stamp[k] = trial
                                    nl += 1
                                    lab[k] = nl
                                label = lab[k]
                            x = _code(k, p[s], flip, sums, sizes, label)
                            if have and state == 0:
                                if x > out[i * 9 + j]:
                                    state = 1
                                    break
                                if x < out[i * 9 + j]:
                                    state = -1
                            cur[i * 9 + j] = x
                        if state == 1:
                            break
                    if state == 1:
                        continue
                    if not have or state == -1:
                        out[:] = cur
                        have = True
                        best[0] = a
                        best[1] = b
                        best[2] = t
                        best[3] = flip
