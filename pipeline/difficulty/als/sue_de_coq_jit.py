"""Compiled twin of :mod:`.sue_de_coq`: does a Sue de Coq with an elimination exist in this state?

:func:`exists` runs the search of :func:`.sue_de_coq._sue_de_coq` over the same
sets (intersection cells, line sets, and the box sets hodoku-py's depth-first walk reaches: every
proper prefix, in cell order, covers no more than it must) and answers whether one eliminates; the
Python finder, run only on a yes, builds the step. Classic boards up to 9x9.
"""

from __future__ import annotations

from functools import cache

import numba as nb
import numpy as np

from pipeline.board import board
from pipeline.difficulty.candidates_jit import _popcount


@nb.njit(cache=True, nogil=True)
def _eliminates(cand: np.ndarray, line_cells: np.ndarray, nl: int, box_cells: np.ndarray, nb_: int, c_set: int,
                d_set: int, e_set: int, v: int, d_dig: int, e_dig: int) -> bool:  # pragma: no cover - compiled
    """Sets are bits over positions: ``c_set`` and ``d_set`` over ``line_cells``, ``e_set`` over ``box_cells``
    (``c_set`` is mirrored there by cell identity)."""
    both = d_dig & e_dig & ~v
    box_gone = ((v | e_dig) & ~d_dig) | both
    line_gone = ((v | d_dig) & ~e_dig) | both
    for p in range(nl):
        if not (c_set >> p & 1) and not (d_set >> p & 1) and cand[line_cells[p]] & line_gone:
            return True
    for p in range(nb_):
        c = box_cells[p]
        if e_set >> p & 1:
            continue
        inter = False
        for q in range(nl):
            if c_set >> q & 1 and line_cells[q] == c:
                inter = True
        if not inter and cand[c] & box_gone:
            return True
    return False


@nb.njit(cache=True, nogil=True)
def _unsolved(cand: np.ndarray, units: np.ndarray, u: int, n: int,
              out: np.ndarray) -> int:  # pragma: no cover - compiled
    """Write the cells of unit ``u`` that still hold candidates into ``out``, in unit order; return how many."""
    k = 0
    for p in range(n):
        c = units[u, p]
        if cand[c]:
            out[k] = c
            k += 1
    return k


@nb.njit(cache=True, nogil=True)
def _exists(cand: np.ndarray, units: np.ndarray, n: int) -> bool:  # pragma: no cover - compiled
    line_cells = np.empty(n, dtype=np.int64)
    box_cells = np.empty(n, dtype=np.int64)
    full = (1 << n) - 1
    for line in range(2 * n):
        nl = _unsolved(cand, units, line, n, line_cells)
        for b in range(2 * n, 3 * n):
            nbx = _unsolved(cand, units, b, n, box_cells)
            inter = 0  # over line positions
            for p in range(nl):
                for q in range(nbx):
                    if line_cells[p] == box_cells[q]:
                        inter |= 1 << p
            if _popcount(inter) < 2:
                continue
            for c_set in range(1, 1 << nl):
                if c_set & ~inter or _popcount(c_set) < 2 or _popcount(c_set) > 3:
                    continue
                v = 0
                for p in range(nl):
                    if c_set >> p & 1:
                        v |= cand[line_cells[p]]
                n_plus = _popcount(v) - _popcount(c_set)
                if n_plus < 2:
                    continue
                for d_set in range(1, 1 << nl):
                    if d_set & c_set:
                        continue
                    d_dig = 0
                    d_size = 0
                    for p in range(nl):
                        if d_set >> p & 1:
                            d_dig |= cand[line_cells[p]]
                            d_size += 1
                    d_extra = _popcount(d_dig & ~v)
                    if not (d_dig & v and d_size > d_extra and d_size - d_extra < n_plus):
                        continue
                    need = n_plus - (d_size - d_extra)
                    allowed = full & ~(d_dig & v)
                    # box sources: not in C, not in D, holding only allowed digits
                    src = 0
                    for q in range(nbx):
                        c = box_cells[q]
                        if cand[c] & ~allowed:
                            continue
                        used = False
                        for p in range(nl):
                            if (c_set >> p & 1 or d_set >> p & 1) and line_cells[p] == c:
                                used = True
                        if not used:
                            src |= 1 << q
                    e_set = src
                    while e_set:
                        # the walk reaches e_set iff every proper prefix covers at most `need`
                        e_dig = 0
                        size = 0
                        ok = True
                        last = 0
                        for q in range(nbx):
                            if e_set >> q & 1:
                                last = q
                        for q in range(nbx):
                            if e_set >> q & 1:
                                e_dig |= cand[box_cells[q]]
                                size += 1
                                if q != last and size - _popcount(e_dig & ~v) > need:
                                    ok = False
                                    break
                        if ok and e_dig & v and size - _popcount(e_dig & ~v) == need and _eliminates(
                                cand, line_cells, nl, box_cells, nbx, c_set, d_set, e_set, v, d_dig, e_dig):
                            return True
                        e_set = (e_set - 1) & src
    return False


@cache
def _units(n: int) -> np.ndarray:
    return np.array(board(n).units[: 3 * n], dtype=np.int64)


def exists(cand: list[int], n: int) -> bool:
    """Whether :func:`.sue_de_coq._sue_de_coq` finds a step in the classic state ``cand``."""
    return bool(_exists(np.array(cand, dtype=np.int64), _units(n), n))
