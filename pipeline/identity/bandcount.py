"""Counting the completions (rows 4-9) of a 9x9 top band, from scratch, and all grids from them.

* **Splits.** For each stack, every digit missing from a column of the top band goes to band 2 or
  band 3 in one of its two free columns: 56 "splits" per stack, numbered by the bit mask
  ``sum(2**(d-1) for digits d placed in the higher free column)`` ascending (:func:`split_rows`).
  A choice of one split per stack fixes the column sets of bands 2 and 3 (``P`` and ``Q``).
* **Fills of a band with given column sets.** Sort each column's three digits. A row is a
  *transversal* (one digit of each column, all nine digits); row 1 takes the smallest digit of
  column 1, row 2 the middle one, and row 3 is what is left (automatically a transversal). Each
  transversal is encoded by its choice of digit (0, 1, 2 = smallest, middle, largest) per column,
  read as the integer ``sum(choice[j] * 3**(8 - j))``; fills are ordered by (row 1 code, row 2 code)
  (:class:`Transversals`). ``f(P)``, the number of fills, is 6 times the pairs of disjoint
  transversals (the 6 row orders) and depends only on the *structure key* of the column sets
  (:func:`structure_keys`), so it is memoized per key (:func:`fill_table` hands the memo to the
  numbering tables).
* **Completions** of a band are the sum over all split triples of ``f(P) * f(Q)``
  (:func:`band_completions`); 72 arrangements of bands 2-3 act freely on them, so the
  *standardized* completions are that sum over 72 (:func:`band_count`).

Nothing is read from disk; :func:`count_grids` recounts every grid in a few seconds.
"""

from __future__ import annotations

import math
import operator
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pipeline.identity.bands import Band, band_classes, standard_bands
from pipeline.identity.standard import DIGITS

#: Splits per stack.
NSPLIT = 56
_P27 = 27 ** np.arange(8, -1, -1, dtype=np.int64)
# cell-occupancy bit masks of the 27 digit choices of one stack (a, b, c) -> bits (stack, column, choice)
_CELL = tuple(
    np.array(
        [
            (1 << (k * 9 + a)) | (1 << (k * 9 + 3 + b)) | (1 << (k * 9 + 6 + c))
            for a in range(3)
            for b in range(3)
            for c in range(3)
        ],
        dtype=np.int64,
    )
    for k in range(3)
)
_MASK_BITS = ((np.arange(512)[:, None] >> np.arange(9)[None, :]) & 1) == 1  # (512, 9): bit d of each mask
_DIGIT_BIT = 1 << np.arange(9)
_POPCOUNT = np.array([m.bit_count() for m in range(512)], dtype=np.int8)


def _check_band(band_rows: Sequence[Sequence[int] | str] | Sequence[int]) -> Band:
    """A band given as 3 rows (strings or digit sequences) or 27 digits, validated."""
    try:
        items = list(band_rows)
        if len(items) == 3 and not any(isinstance(x, int | np.integer) for x in items):
            flat = [int(ch) for row in items for ch in row]  # type: ignore[union-attr]
        else:
            flat = [operator.index(d) for d in items]  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ValueError("a band is 3 rows of 9 digits or a sequence of 27 digits") from None
    if len(flat) != 27:
        raise ValueError(f"a band has 3 rows of 9 digits (27 cells), got {len(flat)}")
    units = [tuple(range(9 * r, 9 * r + 9)) for r in range(3)]
    units += [tuple(9 * r + 3 * s + c for r in range(3) for c in range(3)) for s in range(3)]
    for u in units:
        if {flat[i] for i in u} != DIGITS:
            raise ValueError(f"not a valid band: cells {u[0]}..{u[-1]} do not hold 1..9 once each")
    return tuple(flat)


def tops(band: Band) -> np.ndarray:
    """``tops[k, d-1]`` = column (0..2) within stack k where digit d sits in the band."""
    t = [[0] * 9 for _ in range(3)]
    for r in range(3):
        for j in range(9):
            t[j // 3][band[9 * r + j] - 1] = j % 3
    return np.array(t, dtype=np.int64)


def splits(top: np.ndarray) -> np.ndarray:
    """The 56 splits of one stack as band-2 columns per digit, ordered by bit mask (module doc)."""
    return split_rows(top[None, :])[1]


def split_rows(tops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`splits` of every row of ``tops`` (n, 9) at once: ``(row, splits)``, the splits of all
    rows stacked (by row, each row's in mask order) and the row each belongs to."""
    lo = np.where(tops == 0, 1, 0)  # each digit's band-2 column when its mask bit is 0
    hi = np.where(tops == 2, 1, 2)  # ... and when it is 1 (never 0)
    # per row and mask: how many digits land in column 0 and in column 1, as popcounts of digit sets
    lo0, lo1, hi1 = ((x @ _DIGIT_BIT).astype(np.int16)[:, None] for x in (lo == 0, lo == 1, hi == 1))
    masks = np.arange(512, dtype=np.int16)
    unset = 511 ^ masks
    zeros = _POPCOUNT[unset & lo0]
    ones = _POPCOUNT[unset & lo1] + _POPCOUNT[masks & hi1]
    row, mask = np.nonzero((zeros == 3) & (ones == 3))
    return row, np.where(_MASK_BITS[mask], hi[row], lo[row])


def structure_keys(p1: np.ndarray, p2: np.ndarray, p3: np.ndarray) -> np.ndarray:
    """Structure keys of every combination ``p1[a], p2[b], p3[c]`` (broadcast on leading axes): the
    nine codes ``9 * p1 + 3 * p2 + p3`` of the digits (their columns in stacks 1-3), ascending, base 27."""
    codes = p1 * 9 + p2 * 3 + p3
    codes.sort(axis=-1)
    return codes @ _P27


def columns_of(pos: Sequence[np.ndarray]) -> list[list[int]]:
    """Sorted digit triple of each of the 9 columns, from per-stack column positions of the digits."""
    cols: list[list[int]] = []
    for k in range(3):
        order = (np.argsort(pos[k], kind="stable") + 1).tolist()
        cols.extend([order[0:3], order[3:6], order[6:9]])
    return cols


class Transversals:
    """Rows 1 and 2 candidates of a band with column sets ``cols`` (see the module docstring): the
    fills of the band are the pairs of disjoint transversals, ranked in (row 1, row 2) order."""

    def __init__(self, cols: list[list[int]]) -> None:
        bits = 1 << (np.array(cols, dtype=np.int64) - 1)
        m = [
            (bits[3 * k][:, None, None] | bits[3 * k + 1][None, :, None] | bits[3 * k + 2][None, None, :]).ravel()
            for k in range(3)
        ]
        fl, cm = [], []
        for a in (0, 1):
            u = (m[0][9 * a : 9 * a + 9, None, None] | m[1][None, :, None] | m[2][None, None, :]).ravel()
            f = np.flatnonzero(u == 511)
            fl.append(f)
            cm.append(_CELL[0][9 * a + f // 729] | _CELL[1][(f // 27) % 27] | _CELL[2][f % 27])
        self.cols = cols
        self.flat = fl
        self.dis = (cm[0][:, None] & cm[1][None, :]) == 0
        self.cum = np.concatenate([[0], np.cumsum(self.dis.sum(axis=1))])

    @property
    def total(self) -> int:
        """The number of (row 1, row 2) pairs, i.e. of fills with rows sorted by column 1."""
        return int(self.cum[-1])

    def rank(self, rows: Sequence[Sequence[int]]) -> int:
        """The rank of the fill whose rows 1 and 2 are ``rows[0]``, ``rows[1]``."""
        pos = []
        for a in (0, 1):
            ch = [self.cols[j].index(rows[a][j]) for j in range(9)]
            key = (ch[1] * 3 + ch[2]) * 729 + (ch[3] * 9 + ch[4] * 3 + ch[5]) * 27 + ch[6] * 9 + ch[7] * 3 + ch[8]
            pos.append(int(np.searchsorted(self.flat[a], key)))
        return int(self.cum[pos[0]]) + int(np.count_nonzero(self.dis[pos[0], : pos[1]]))

    def unrank(self, idx: int) -> list[list[int]]:
        """The three rows of the fill of rank ``idx`` (inverse of :meth:`rank`)."""
        p0 = int(np.searchsorted(self.cum, idx, side="right")) - 1
        p1 = int(np.flatnonzero(self.dis[p0])[idx - int(self.cum[p0])])
        out = []
        for a, p in ((0, p0), (1, p1)):
            f = int(self.flat[a][p])
            i, j, k = f // 729, (f // 27) % 27, f % 27
            ch = (a, i // 3, i % 3, j // 9, (j // 3) % 3, j % 3, k // 9, (k // 3) % 3, k % 3)
            out.append([self.cols[col][ch[col]] for col in range(9)])
        out.append([sum(self.cols[j]) - out[0][j] - out[1][j] for j in range(9)])
        return out


def _fills_of_key(key: int) -> int:
    """Number of ways to fill a 3x9 band whose column sets have structure ``key`` (:func:`structure_keys`)."""
    codes = (key // _P27) % 27
    return 6 * Transversals(columns_of([(codes // 3 ** (2 - k)) % 3 for k in range(3)])).total


_FILLS: dict[int, int] = {}


def _fills(keys: np.ndarray) -> np.ndarray:
    """:func:`_fills_of_key` of each key (memoized)."""
    uniq, inv = np.unique(keys, return_inverse=True)
    vals = np.empty(len(uniq), dtype=np.int64)
    for i, k in enumerate(uniq.tolist()):
        v = _FILLS.get(k)
        if v is None:
            v = _FILLS[k] = _fills_of_key(k)
        vals[i] = v
    return vals[inv].reshape(keys.shape)


def fill_table() -> tuple[np.ndarray, np.ndarray]:
    """Every structure key met so far (ascending, int64) and its number of fills (int32)."""
    keys = np.array(sorted(_FILLS), dtype=np.int64)
    return keys, np.array([_FILLS[int(k)] for k in keys], dtype=np.int32)


def split_products(band: Band) -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray]]:
    """``w[s1, s2, s3] = f(P) * f(Q)`` over all 56**3 splits, and the splits (band 2 / band 3)."""
    t = tops(band)
    ps = [splits(t[k]) for k in range(3)]
    qs = [3 - t[k][None, :] - ps[k] for k in range(3)]
    kp = structure_keys(ps[0][:, None, None, :], ps[1][None, :, None, :], ps[2][None, None, :, :])
    kq = structure_keys(qs[0][:, None, None, :], qs[1][None, :, None, :], qs[2][None, None, :, :])
    return _fills(kp) * _fills(kq), ps, qs


def band_completions(band_rows: Sequence[Sequence[int] | str] | Sequence[int]) -> int:
    """All completions (rows 4-9) of a valid top band, computed from scratch (~0.1-0.3 s)."""
    w, _, _ = split_products(_check_band(band_rows))
    return int(w.sum())


def band_count(band_rows: Sequence[Sequence[int] | str] | Sequence[int]) -> int:
    """Standardized completions of a top band: completions whose bands 2-3 are arranged by column 1
    (each band's column-1 triple ascending, the band with the smaller entry first). The 72 such
    arrangements act freely, so this is ``band_completions / 72``. Computed directly, no tables.

    ``band_rows``: three rows (strings like ``"123456789"`` or digit sequences) or 27 digits.
    ``band_count(["123456789", "456789123", "789123456"]) == 108_374_976``.
    """
    total = band_completions(band_rows)
    assert total % 72 == 0, "completions come in orbits of 72"
    return total // 72


@dataclass(frozen=True)
class GridCount:
    """Result of :func:`count_grids`."""

    n2: int  # standardized grids
    n0: int  # all grids = 9! * 72**2 * n2
    classes: int  # classes of standard bands that were counted
    distinct_counts: int  # distinct values among the 36,288 band counts
    seconds: float


def count_grids() -> GridCount:
    """Count all 9x9 grids from scratch: every standard band's completions (one count per class of
    bands with equal completions), summed. Takes ~5-10 s; uses no cache."""
    t0 = time.perf_counter()
    bands = standard_bands()
    bc = band_classes(column_sets=True)
    counts = [band_count(bands[r]) for r in bc.reps]
    n2 = sum(counts[c] for c in bc.cls)
    return GridCount(
        n2, math.factorial(9) * 72 * 72 * n2, len(bc.reps), len({counts[c] for c in bc.cls}), time.perf_counter() - t0
    )
