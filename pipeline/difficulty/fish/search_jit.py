"""Compiled probe of the fish (:mod:`.search`): basic fish and finned / sashimi fish, one search. It
answers whether the Python finder would return a step; a fin box is the block of its rows and columns
(classic geometry only), which is what the Python search finds on classic boxes.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.difficulty.candidates_jit import _first_combo, _next_combo, _popcount


@nb.njit(cache=True, nogil=True)
def _digit_lines(cand: np.ndarray, n: int, k: int, by_row: np.ndarray, by_col: np.ndarray) -> None:  # pragma: no cover
    """``fish._lines_of`` for digit ``k+1``, into ``by_row`` (per row, its columns holding the
    candidate, as bits) and ``by_col`` (per column, its rows)."""
    by_row[:] = 0
    by_col[:] = 0
    for r in range(n):
        for c in range(n):
            if cand[r * n + c] >> k & 1:
                by_row[r] |= 1 << c
                by_col[c] |= 1 << r


@nb.njit(cache=True, nogil=True)
def _fish(cand: np.ndarray, row_band: np.ndarray, col_band: np.ndarray, width: int, n: int, size: int, finned: bool,
          sashimi: bool) -> bool:  # pragma: no cover - compiled
    """``fish._fish(st, ctx, size) is not None`` (``finned`` False), or ``fish._finned_fish(st, ctx,
    size, sashimi) is not None`` (``finned`` True): some finned fish of ``size`` with eliminations, none
    of whose base lines is empty in the cover, whose kind (sashimi: a base line with at most one cover
    position) is ``sashimi``. A box is the block of its rows (``row_band``) and columns (``col_band``),
    the larger side ``width``: classic boxes only."""
    if not finned:
        return _fish_kinds(cand, row_band, col_band, width, n, size, False) != 0
    return _fish_kinds(cand, row_band, col_band, width, n, size, True) & (SASHIMI if sashimi else FINNED) != 0


#: The kinds :func:`_fish_kinds` reports, as bits: a basic fish (or a finned one that is not sashimi), a sashimi one.
FINNED = 1
SASHIMI = 2


@nb.njit(cache=True, nogil=True)
def _fish_kinds(cand: np.ndarray, row_band: np.ndarray, col_band: np.ndarray, width: int, n: int, size: int,
                finned: bool) -> int:  # pragma: no cover - compiled
    """The kinds of fish of ``size`` that :func:`_fish` would find, as bits: without ``finned``,
    :data:`FINNED` for a basic fish; with it, :data:`FINNED` for a finned fish that is not sashimi and
    :data:`SASHIMI` for a sashimi one (both kinds from one search: the walk asks the finned fish of a size
    and then the sashimi one of the same state)."""
    found = 0
    by_row = np.zeros(n, dtype=np.int64)
    by_col = np.zeros(n, dtype=np.int64)
    base = np.empty(n, dtype=np.int64)
    idx = np.empty(size, dtype=np.int64)
    combo = np.empty(size, dtype=np.int64)
    free_pos = np.empty(n, dtype=np.int64)
    ext = np.empty(size + 1, dtype=np.int64)
    most = size + width if finned else size  # positions the base lines may hold together
    for k in range(n):
        _digit_lines(cand, n, k, by_row, by_col)
        for orient in range(2):
            lines = by_row if orient == 0 else by_col
            cross = by_col if orient == 0 else by_row
            cnt = 0
            for li in range(n):
                if 2 <= _popcount(lines[li]) <= most:
                    base[cnt] = li
                    cnt += 1
            if cnt < size:
                continue
            # the combination walk of basic_jit's subsets, over base lines instead of cells
            _first_combo(idx, size)
            while True:
                union = 0
                bset = 0
                for q in range(size):
                    combo[q] = base[idx[q]]
                    union |= lines[combo[q]]
                    bset |= 1 << combo[q]
                nu = _popcount(union)
                if not finned and nu == size:  # a basic fish: the union is the cover
                    for cv in range(n):
                        if union >> cv & 1 and cross[cv] & ~bset:
                            return FINNED
                elif finned and size < nu <= most:
                    for b in range(n):
                        fl = row_band[b] if orient == 0 else col_band[b]
                        fp = col_band[b] if orient == 0 else row_band[b]
                        if not bset & fl or _popcount(union & ~fp) > size:  # no base line there, or no cover
                            continue
                        found |= _finned_box(lines, cross, combo, size, union, bset, fl, fp, n, found, free_pos, ext)
                        if found == FINNED | SASHIMI:
                            return found
                if not _next_combo(idx, size, cnt):
                    break
    return found


@nb.njit(cache=True, nogil=True)
def _finned_box(lines: np.ndarray, cross: np.ndarray, combo: np.ndarray, size: int, union: int, bset: int,
                fl: int, fp: int, n: int, known: int, free_pos: np.ndarray,
                ext: np.ndarray) -> int:  # pragma: no cover - compiled
    """For base lines ``combo`` (position union ``union``, line set ``bset``) and the fin box crossing
    lines ``fl`` and positions ``fp``: the kinds (:data:`FINNED` not sashimi, :data:`SASHIMI`: a base line
    with at most one cover position) of the covers with a fin, eliminations and no base line empty in the
    cover; the search stops once it has every kind not in ``known``. A cover eliminates exactly when it
    holds a position of the box with the digit off the base lines (``targets``), so no cover is tried
    when the union holds none."""
    if not bset & fl:
        return 0
    found = 0
    outside = 0  # base lines outside the fin box's band have no fins: all theirs is cover
    for q in range(size):
        if not fl >> combo[q] & 1:
            outside |= lines[combo[q]]
    must = (union & ~fp) | outside
    need = size - _popcount(must)
    if need < 0:
        return 0
    targets = 0  # the cover positions that would eliminate: a cell of the fin box off the base lines
    for p in range(n):
        if fp >> p & 1 and cross[p] & fl & ~bset:
            targets |= 1 << p
    if not union & targets:  # every cover lies in the union: none can eliminate
        return 0
    free = union & fp & ~must
    nfree = 0
    for p in range(n):
        if free >> p & 1:
            free_pos[nfree] = p
            nfree += 1
    if need < 0 or need > nfree:
        return 0
    _first_combo(ext, need)
    while True:
        cover = must
        for q in range(need):
            cover |= 1 << free_pos[ext[q]]
        if union & ~cover and cover & targets:  # there is a fin, and an elimination
            least = n + 1
            for q in range(size):
                least = min(least, _popcount(lines[combo[q]] & cover))
            if least > 0:
                found |= SASHIMI if least <= 1 else FINNED
                if (found | known) == FINNED | SASHIMI:
                    return found
        if not _next_combo(ext, need, nfree):
            return found
