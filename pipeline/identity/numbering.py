"""Counting and numbering all 9x9 Sudoku grids (the 2007 thesis scheme, exact, Python ints).

Vocabulary (see :mod:`pipeline.board`): a grid is a row-major 81-tuple of digits 1..9.

Standard form (DESIGN.md, "Facts to get right")
-----------------------------------------------
A grid is *standardized* by (1) relabelling digits so box 1 reads 1..9 in reading order,
(2) arranging the columns of stacks 2-3 so each stack's row-1 triple is ascending and the stack with
the smaller row-1 entry comes first (72 arrangements), (3) likewise arranging the rows of bands 2-3
by column 1 (72 arrangements). The three steps commute and act freely, so every grid is exactly one
``(A, B, C, S)``: ``A`` the rank of box 1's permutation (0..9!-1), ``B``/``C`` the row-1/column-1
arrangement numbers (0..71) and ``S`` a standardized grid; hence ``N0 = 9! * 72**2 * N2``.

    grid_number(g) = A * N1 + (72 * B + C) * N2 + D,        N1 = N0 / 9! = 72**2 * N2

Arrangement numbers: ``B = swap * 36 + x2 * 6 + x3`` where ``swap`` is 1 when the grid's stack 2 is
the standardized grid's stack 3, and ``x2``/``x3`` are the lexicographic indices (in
``itertools.permutations(range(3))`` order) of the column orders of the grid's stacks 2 and 3 relative
to the ascending order. ``C`` is the same for bands 2-3 read down column 1. ``A`` is the
lexicographic rank of box 1 read as a permutation of 1..9.

``D``, the rank of ``S`` among the ``N2`` standardized grids:

* **Patterns.** The 36,288 standard top bands (rows 1-3) in lexicographic order of their 27
  digits; pattern ``p`` owns the half-open range ``[start_p, start_p + count_p)``.
* **Completions of a pattern** (rows 4-9). A completion depends on the top band only through
  its column sets, and column/stack permutations plus relabelling map completions of one band
  onto another's. So the 36,288 patterns fall into classes (130), each ranked through a
  representative ``R`` (the first pattern of the class): a completion of pattern ``T`` is sent to a
  completion of ``R`` by a stored column permutation and relabelling, and bands 2-3 are re-sorted by
  column 1 (this commutes with the map, so it is a bijection of standardized completions).
* **Order of the completions of a representative.** For each stack, every digit missing from a
  column of the top band goes to band 2 or band 3 in one of its two free columns: 56 "splits" per
  stack, numbered by the bit mask ``sum(2**(d-1) for digits d placed in the higher free column)``
  ascending; in stack 1 only the 28 splits with digit 2 in column 1 of band 2 occur (that is what
  "band 2 before band 3" means once box 1 is 1..9). Completions are ordered by
  ``(split 1, split 2, split 3, band-2 fill, band-3 fill)``. A split's weight is
  ``(f(P) / 6) * (f(Q) / 6)`` where ``f`` counts the fillings of a band with the given column sets
  (the 6 row orders are fixed by sorting the band by column 1).
* **Fills of a band with given column sets.** Sort each column's three digits. A row is a
  *transversal* (one digit of each column, all nine digits); row 1 takes the smallest digit of
  column 1, row 2 the middle one, and row 3 is what is left (automatically a transversal). Each
  transversal is encoded by its choice of digit (0, 1, 2 = smallest, middle, largest) per column,
  read as the integer ``sum(choice[j] * 3**(8 - j))``; fills are ordered by (row 1 code, row 2 code).

Tables (built by :func:`build_tables` in ~10 s, about 1 MB compressed, < 5 MB raw) are cached in
:func:`cache_dir` as ``numbering-v{TABLE_VERSION}.npz`` holding a SHA-256 of their own contents; a
missing, unreadable or mismatching file is rebuilt, never trusted (:mod:`pipeline.tablecache`).
Everything else (band counts, classes) is computed by this module; the only constants are
``N2``/``N0``, which the build checks.

:func:`grid_number` runs once per 9x9 row of a set, so it is compiled: the same steps over the same
tables (plus arrays derived from them when they are loaded; the file is unchanged) in
:mod:`pipeline.identity.fastnumber`, about 20 times faster than the pure-Python
:func:`_grid_number_py` (``bench/bench_canon.py``), which stays as the tests' oracle.
:func:`grid_from_number` (uniform grids, ``numplace`` queries) is not compiled.
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
import random
import time
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from pipeline.board import Grid, conflict
from pipeline.identity import fastnumber
from pipeline.tablecache import Tables
from pipeline.tablecache import cache_dir as cache_dir  # re-exported

# ---------------------------------------------------------------------------------------------
# constants
# ---------------------------------------------------------------------------------------------

#: Standardized 9x9 grids (box 1 = 1..9, row 1 and column 1 arranged); Felgenhauer & Jarvis.
N2 = 3_546_146_300_288
#: Grids with a given box 1 (``N0 / 9!``).
N1 = 72 * 72 * N2
#: All 9x9 Sudoku grids.
N0 = math.factorial(9) * N1
#: Bump when the table layout or the order it encodes changes (old cache files are then ignored).
TABLE_VERSION = 1

_FACT = [math.factorial(k) for k in range(10)]
#: The six orders of three things, in ``itertools.permutations`` (lexicographic) order.
PERMS3: tuple[tuple[int, ...], ...] = tuple(itertools.permutations(range(3)))
_PERM3_INDEX = {p: i for i, p in enumerate(PERMS3)}
#: Cell indices of box 1 in reading order.
BOX1 = (0, 1, 2, 9, 10, 11, 18, 19, 20)
_UNITS: tuple[tuple[int, ...], ...] = (
    tuple(tuple(r * 9 + c for c in range(9)) for r in range(9))
    + tuple(tuple(r * 9 + c for r in range(9)) for c in range(9))
    + tuple(tuple((br + r) * 9 + bc + c for r in range(3) for c in range(3)) for br in (0, 3, 6) for bc in (0, 3, 6))
)
_ALL = frozenset(range(1, 10))
_NSPLIT = 56  # splits per stack
_NSPLIT1 = 28  # splits of stack 1 allowed in standard form
_P27 = 27 ** np.arange(8, -1, -1, dtype=np.int64)
_P3 = 3 ** np.arange(8, -1, -1, dtype=np.int64)
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


# ---------------------------------------------------------------------------------------------
# validation and small permutation helpers
# ---------------------------------------------------------------------------------------------


_ROW_KEY = tuple(16 * (i // 9) for i in range(81))
_COL_KEY = tuple(16 * (i % 9) for i in range(81))
_BOX_KEY = tuple(16 * (3 * (i // 27) + (i % 9) // 3) for i in range(81))


def check_grid(grid: Sequence[int]) -> Grid:
    """``grid`` as a tuple if it is a complete valid 9x9 grid, else ``ValueError`` saying why."""
    try:
        g = tuple(map(operator.index, grid))
    except TypeError:
        raise ValueError("a grid must be a sequence of 81 integer digits 1..9") from None
    if len(g) != 81:
        raise ValueError(f"a 9x9 grid has 81 cells, got {len(g)}")
    if min(g) < 1 or max(g) > 9:
        i = next(i for i, d in enumerate(g) if not 1 <= d <= 9)
        r, c = divmod(i, 9)
        what = "a blank" if g[i] == 0 else f"{g[i]}"
        raise ValueError(f"a complete grid needs digits 1..9; row {r + 1}, column {c + 1} holds {what}")
    if (
        len(set(map(operator.add, _ROW_KEY, g))) == 81
        and len(set(map(operator.add, _COL_KEY, g))) == 81
        and len(set(map(operator.add, _BOX_KEY, g))) == 81
    ):
        return g
    raise ValueError(f"not a valid Sudoku grid: {conflict(g)}")


def perm_rank(p: Sequence[int]) -> int:
    """Lexicographic rank of a permutation of ``1..len(p)`` (Lehmer code)."""
    n = len(p)
    rank = 0
    used = 0
    for i, x in enumerate(p):
        smaller = (x - 1) - bin(used & ((1 << (x - 1)) - 1)).count("1")
        rank += smaller * _FACT[n - 1 - i]
        used |= 1 << (x - 1)
    return rank


def perm_unrank(rank: int, n: int = 9) -> tuple[int, ...]:
    """Inverse of :func:`perm_rank`: the permutation of ``1..n`` with that lexicographic rank."""
    pool = list(range(1, n + 1))
    out = []
    for i in range(n - 1, -1, -1):
        q, rank = divmod(rank, _FACT[i])
        out.append(pool.pop(q))
    return tuple(out)


def _inverse(p: Sequence[int]) -> tuple[int, ...]:
    inv = [0] * len(p)
    for i, x in enumerate(p):
        inv[x] = i
    return tuple(inv)


def _arrangement(a: int) -> tuple[int, ...]:
    """Source index (0..8) in standard order for each position 0..8, for arrangement number ``a``."""
    swap, x2, x3 = a // 36, (a // 6) % 6, a % 6
    stk = (1, 0) if swap else (0, 1)
    src = [0, 1, 2]
    for s, x in ((0, x2), (1, x3)):
        src.extend(3 + 3 * stk[s] + PERMS3[x][i] for i in range(3))
    return tuple(src)


#: ``ARRANGEMENTS[a]``: for arrangement number ``a`` (0..71), the source index in standard order
#: of each of the 9 positions of row 1 (or column 1); see the module docstring.
ARRANGEMENTS = tuple(_arrangement(a) for a in range(72))


def _arrangement_of(v: Sequence[int]) -> int:
    """Arrangement number of the six values ``v`` (positions 3..8 of row 1 or column 1)."""
    s0, s1 = v[0:3], v[3:6]
    ranks = []
    for t in (s0, s1):
        srt = sorted(t)
        ranks.append(_PERM3_INDEX[(srt.index(t[0]), srt.index(t[1]), srt.index(t[2]))])
    return (36 if min(s0) > min(s1) else 0) + ranks[0] * 6 + ranks[1]


# ---------------------------------------------------------------------------------------------
# standard top bands and their classes
# ---------------------------------------------------------------------------------------------

Band = tuple[int, ...]  # 27 digits, rows 1-3 row-major


@cache
def standard_bands() -> tuple[Band, ...]:
    """The 36,288 top bands in standard form (box 1 = 1..9, row 1 arranged), lexicographic order."""
    out = []
    for s2 in itertools.combinations((5, 6, 7, 8, 9), 2):
        a = (4, *s2)
        b = tuple(x for x in range(4, 10) if x not in a)
        row0 = (1, 2, 3, *a, *b)
        for row1p in itertools.permutations((1, 2, 3, 7, 8, 9)):
            if set(row1p[:3]) & set(a) or set(row1p[3:]) & set(b):
                continue
            rest2 = sorted(_ALL - set(a) - set(row1p[:3]))
            rest3 = sorted(_ALL - set(b) - set(row1p[3:]))
            if set(rest2) | set(rest3) != {1, 2, 3, 4, 5, 6}:
                continue
            row1 = (4, 5, 6, *row1p)
            for p2 in itertools.permutations(rest2):
                if any(p2[i] in (row0[3 + i], row1[3 + i]) for i in range(3)):
                    continue
                for p3 in itertools.permutations(rest3):
                    if any(p3[i] in (row0[6 + i], row1[6 + i]) for i in range(3)):
                        continue
                    out.append((*row0, *row1, 7, 8, 9, *p2, *p3))
    out.sort()
    return tuple(out)


def _act(band: Band, rows: Sequence[int], cols: Sequence[int]) -> tuple[Band, tuple[int, ...]]:
    """``X[i][j] = tau(band[rows[i]][cols[j]])`` with ``tau`` making box 1 read 1..9; returns (X, tau)."""
    x = [band[9 * rows[i] + cols[j]] for i in range(3) for j in range(9)]
    tau = [0] * 10
    for k, cell in enumerate(BOX1):
        tau[x[cell]] = k + 1
    return tuple(tau[d] for d in x), tuple(tau)


def _standard_columns(x: Band) -> tuple[int, ...]:
    """Column order that puts a band with box 1 = 1..9 into standard form (row 1 arranged)."""
    s2 = sorted(range(3, 6), key=lambda j: x[j])
    s3 = sorted(range(6, 9), key=lambda j: x[j])
    if x[s3[0]] < x[s2[0]]:
        s2, s3 = s3, s2
    return (0, 1, 2, *s2, *s3)


_ID3 = (0, 1, 2)
_ID9 = tuple(range(9))
_GENERATORS = (
    ((1, 0, 2), _ID9),
    ((0, 2, 1), _ID9),
    (_ID3, (1, 0, 2, 3, 4, 5, 6, 7, 8)),
    (_ID3, (0, 2, 1, 3, 4, 5, 6, 7, 8)),
    (_ID3, (3, 4, 5, 0, 1, 2, 6, 7, 8)),
    (_ID3, (0, 1, 2, 6, 7, 8, 3, 4, 5)),
)


@dataclass(frozen=True)
class BandClasses:
    """Orbits of the standard bands; for band ``t`` with class ``cls[t]`` and representative
    ``R = bands[reps[cls[t]]]``: ``rows[t]``, ``cols[t]``, ``relabel[t]`` satisfy
    ``t = relabel(R[rows][cols])`` (only meaningful when the orbits use the band group alone) and,
    always, every completion ``Y`` (rows 4-9) of ``R`` gives the completion
    ``Y_t[i][j] = relabel[Y[i][cols[j]]]`` of ``t`` (a bijection of completions)."""

    cls: tuple[int, ...]
    reps: tuple[int, ...]
    rows: tuple[tuple[int, ...], ...]
    cols: tuple[tuple[int, ...], ...]
    relabel: tuple[tuple[int, ...], ...]


def band_classes(column_sets: bool) -> BandClasses:
    """Breadth-first orbits of :func:`standard_bands` under row swaps, column and stack swaps
    (re-standardized after each move), plus, if ``column_sets``, "same column sets" (two bands with
    the same digits in every column have literally the same completions)."""
    bands = standard_bands()
    index = {b: i for i, b in enumerate(bands)}
    groups: dict[tuple[frozenset[int], ...], list[int]] = {}
    if column_sets:
        for i, b in enumerate(bands):
            groups.setdefault(tuple(frozenset((b[j], b[9 + j], b[18 + j])) for j in range(9)), []).append(i)
    n = len(bands)
    cls = [-1] * n
    rows: list[tuple[int, ...]] = [_ID3] * n
    cols: list[tuple[int, ...]] = [_ID9] * n
    relabel: list[tuple[int, ...]] = [tuple(range(10))] * n
    reps: list[int] = []
    for start in range(n):
        if cls[start] >= 0:
            continue
        cid = len(reps)
        reps.append(start)
        cls[start] = cid
        todo = deque([start])
        while todo:
            u = todo.popleft()
            m, r, c, sg = bands[u], rows[u], cols[u], relabel[u]
            if column_sets:
                for v in groups[tuple(frozenset((m[j], m[9 + j], m[18 + j])) for j in range(9))]:
                    if cls[v] < 0:
                        cls[v], rows[v], cols[v], relabel[v] = cid, r, c, sg
                        todo.append(v)
            for rg, cg in _GENERATORS:
                x, _ = _act(m, rg, cg)
                cc = tuple(cg[k] for k in _standard_columns(x))
                x, tau = _act(m, rg, cc)
                v = index[x]
                if cls[v] < 0:
                    cls[v] = cid
                    rows[v] = tuple(r[k] for k in rg)
                    cols[v] = tuple(c[k] for k in cc)
                    relabel[v] = tuple(tau[sg[k]] for k in range(10))
                    todo.append(v)
    return BandClasses(tuple(cls), tuple(reps), tuple(rows), tuple(cols), tuple(relabel))


# ---------------------------------------------------------------------------------------------
# counting completions of a top band
# ---------------------------------------------------------------------------------------------


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
        if {flat[i] for i in u} != _ALL:
            raise ValueError(f"not a valid band: cells {u[0]}..{u[-1]} do not hold 1..9 once each")
    return tuple(flat)


def _tops(band: Band) -> np.ndarray:
    """``tops[k, d-1]`` = column (0..2) within stack k where digit d sits in the band."""
    t = [[0] * 9 for _ in range(3)]
    for r in range(3):
        for j in range(9):
            t[j // 3][band[9 * r + j] - 1] = j % 3
    return np.array(t, dtype=np.int64)


_MASK_BITS = ((np.arange(512)[:, None] >> np.arange(9)[None, :]) & 1) == 1  # (512, 9): bit d of each mask
_DIGIT_BIT = 1 << np.arange(9)
_POPCOUNT = np.array([m.bit_count() for m in range(512)], dtype=np.int8)


def _splits(top: np.ndarray) -> np.ndarray:
    """The 56 splits of one stack as band-2 columns per digit, ordered by bit mask (module doc)."""
    return _split_rows(top[None, :])[1]


def _split_rows(tops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_splits` of every row of ``tops`` (n, 9) at once: ``(row, splits)``, the splits of all
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


def _keys(p1: np.ndarray, p2: np.ndarray, p3: np.ndarray) -> np.ndarray:
    """Structure keys of every combination ``p1[a], p2[b], p3[c]`` (broadcast on leading axes)."""
    codes = p1 * 9 + p2 * 3 + p3
    codes.sort(axis=-1)
    return codes @ _P27


def _fills_of_key(key: int) -> int:
    """Number of ways to fill a 3x9 band whose column sets have structure ``key`` (see :func:`_keys`)."""
    codes = (key // _P27) % 27
    masks = []
    for k in range(3):
        pos = (codes // (3 ** (2 - k))) % 3
        bits = 1 << np.argsort(pos, kind="stable").reshape(3, 3)
        masks.append((bits[0][:, None, None] | bits[1][None, :, None] | bits[2][None, None, :]).ravel())
    cms = []
    for a in (0, 1):
        u = (masks[0][9 * a : 9 * a + 9, None, None] | masks[1][None, :, None] | masks[2][None, None, :]).ravel()
        fl = np.flatnonzero(u == 511)
        cms.append(_CELL[0][9 * a + fl // 729] | _CELL[1][(fl // 27) % 27] | _CELL[2][fl % 27])
    return 6 * int(np.count_nonzero((cms[0][:, None] & cms[1][None, :]) == 0))


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


def _split_products(band: Band) -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray]]:
    """``w[s1, s2, s3] = f(P) * f(Q)`` over all 56**3 splits, and the splits (band 2 / band 3)."""
    tops = _tops(band)
    ps = [_splits(tops[k]) for k in range(3)]
    qs = [3 - tops[k][None, :] - ps[k] for k in range(3)]
    kp = _keys(ps[0][:, None, None, :], ps[1][None, :, None, :], ps[2][None, None, :, :])
    kq = _keys(qs[0][:, None, None, :], qs[1][None, :, None, :], qs[2][None, None, :, :])
    return _fills(kp) * _fills(kq), ps, qs


def band_completions(band_rows: Sequence[Sequence[int] | str] | Sequence[int]) -> int:
    """All completions (rows 4-9) of a valid top band, computed from scratch (~0.1-0.3 s)."""
    w, _, _ = _split_products(_check_band(band_rows))
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


# ---------------------------------------------------------------------------------------------
# tables
# ---------------------------------------------------------------------------------------------


def build_tables() -> dict[str, np.ndarray]:
    """Everything :func:`grid_number` and :func:`grid_from_number` need, from scratch (~10 s).

    ``bands`` (36288, 27) uint8 patterns in order; ``band_class`` (36288,) uint8;
    ``band_cols`` (36288, 9) and ``band_relabel`` (36288, 10) uint8, the map from completions of the
    class representative to completions of the pattern; ``class_rep`` (K,) int32 pattern index;
    ``class_count`` (K,) int64 standardized completions; ``class_prefix`` (K, 28*56+1) int64
    cumulative completions before each (split 1, split 2); ``fill_keys`` (U,) int64 sorted structure
    keys and ``fill_counts`` (U,) int32 their fill counts. Raises ``RuntimeError`` if the total is
    not ``N2`` (it never is unless the code is broken).
    """
    bands = standard_bands()
    bc = band_classes(column_sets=True)
    prefixes, counts = [], []
    for r in bc.reps:
        w, ps, _ = _split_products(bands[r])
        keep = ps[0][:, 1] == 0  # digit 2 goes to column 1 of band 2
        w = w[keep] // 36
        per = w.sum(axis=2).ravel()
        prefixes.append(np.concatenate([[0], np.cumsum(per)]))
        counts.append(int(per.sum()))
    n2 = sum(counts[c] for c in bc.cls)
    if n2 != N2:
        raise RuntimeError(f"band counts sum to {n2}, expected {N2}")
    keys = np.array(sorted(_FILLS), dtype=np.int64)
    return {
        "bands": np.array(bands, dtype=np.uint8),
        "band_class": np.array(bc.cls, dtype=np.uint8),
        "band_cols": np.array(bc.cols, dtype=np.uint8),
        "band_relabel": np.array(bc.relabel, dtype=np.uint8),
        "class_rep": np.array(bc.reps, dtype=np.int32),
        "class_count": np.array(counts, dtype=np.int64),
        "class_prefix": np.array(prefixes, dtype=np.int64),
        "fill_keys": keys,
        "fill_counts": np.array([_FILLS[int(k)] for k in keys], dtype=np.int32),
    }


class _Tables:
    """Loaded tables plus the per-class split structures derived from them.

    Built when the file is loaded (and so checked then: a table that does not make sense raises
    ``ValueError``, ``KeyError`` or ``IndexError`` here, which makes :class:`~pipeline.tablecache.Tables`
    rebuild the file): the pattern ranges, the split structures ``p``/``q`` and ``kernel``, all that
    :func:`grid_number` needs. The pure-Python views of the per-pattern arrays (``bands``,
    ``band_cols``, ``band_relabel``, ``pattern_of``) and ``split_index``, which only the reference
    :func:`_grid_number_py` and :func:`band_table` read, are built on first use; :func:`grid_from_number`
    reads single rows through :meth:`pattern`.
    """

    def __init__(self, a: dict[str, np.ndarray]) -> None:
        self.arrays = a
        self.band_class: list[int] = a["band_class"].tolist()
        counts = a["class_count"][a["band_class"].astype(np.int64)]
        self.pattern_count = counts
        self.pattern_start = np.concatenate([[0], np.cumsum(counts)])
        if int(self.pattern_start[-1]) != N2:
            raise ValueError("tables do not add up to N2")
        self.class_prefix = a["class_prefix"]
        self.fill_keys = a["fill_keys"]
        self.fill_counts = a["fill_counts"].astype(np.int64)
        # per class and stack: band-2 / band-3 positions of each split (computed for all classes at once)
        bands = a["bands"]
        if bands.ndim != 2 or bands.shape[1] != 27 or bands.dtype != np.uint8:
            raise ValueError("bands are not rows of 27 uint8 digits")
        tops = np.array([_tops(bands[r].tolist()) for r in a["class_rep"].tolist()], dtype=np.int64).reshape(-1, 9)
        row, p = _split_rows(tops)  # row 3 * class + stack
        q = 3 - tops[row] - p
        keep = (row % 3 != 0) | (p[:, 1] == 0)  # stack 1: digit 2 goes to column 1 of band 2
        row, p, q = row[keep], p[keep], q[keep]
        ends = np.cumsum(np.bincount(row, minlength=len(tops))).tolist()
        cut = [slice(s, e) for s, e in zip([0, *ends[:-1]], ends, strict=True)]  # the rows of each (class, stack)
        self.p: list[list[np.ndarray]] = [[p[cut[i]] for i in range(c, c + 3)] for c in range(0, len(cut), 3)]
        self.q: list[list[np.ndarray]] = [[q[cut[i]] for i in range(c, c + 3)] for c in range(0, len(cut), 3)]
        self.kernel = self._kernel_tables()

    @functools.cached_property
    def bands(self) -> list[Band]:
        """The standard bands in pattern order as tuples (built on first use)."""
        return [tuple(r) for r in self.arrays["bands"].tolist()]

    @functools.cached_property
    def band_cols(self) -> list[tuple[int, ...]]:
        """Column map of each pattern from its class representative (built on first use)."""
        return [tuple(r) for r in self.arrays["band_cols"].tolist()]

    @functools.cached_property
    def band_relabel(self) -> list[tuple[int, ...]]:
        """Relabelling of each pattern from its class representative (built on first use)."""
        return [tuple(r) for r in self.arrays["band_relabel"].tolist()]

    @functools.cached_property
    def pattern_of(self) -> dict[bytes, int]:
        """Pattern index of each band, keyed by its 27 digits as bytes (built on first use)."""
        bands = np.ascontiguousarray(self.arrays["bands"])
        raw, width = bands.tobytes(), bands.shape[1] * bands.itemsize  # bytes(row) of each row, sliced at once
        return {raw[i * width : (i + 1) * width]: i for i in range(len(bands))}

    @functools.cached_property
    def split_index(self) -> list[list[dict[bytes, int]]]:
        """Per class and stack: split number by its band-2 positions as bytes (built on first use)."""
        return [[{bytes(row.astype(np.uint8)): i for i, row in enumerate(pk)} for pk in ps] for ps in self.p]

    def pattern(self, p: int) -> tuple[Band, tuple[int, ...], tuple[int, ...]]:
        """``(bands[p], band_cols[p], band_relabel[p])`` read from the arrays (builds no list)."""
        a = self.arrays
        return tuple(a["bands"][p].tolist()), tuple(a["band_cols"][p].tolist()), tuple(a["band_relabel"][p].tolist())

    def _kernel_tables(self) -> tuple[np.ndarray, ...]:
        """The arrays :func:`pipeline.identity.fastnumber.grid_rank` takes after ``(g, out)``, in its order."""
        outside = [i for i in range(27) if i % 9 >= 3]  # the 18 cells outside box 1, reading order
        powers = 9 ** np.arange(17, -1, -1, dtype=np.int64)
        band_keys = (self.arrays["bands"][:, outside].astype(np.int64) - 1) @ powers
        if np.any(np.diff(band_keys) <= 0):
            raise ValueError("bands are not in pattern order")
        k = len(self.p)
        split_p = np.zeros((k, 3, _NSPLIT, 9), dtype=np.int64)
        split_q = np.zeros((k, 3, _NSPLIT, 9), dtype=np.int64)
        for c in range(k):
            for st in range(3):
                split_p[c, st, : len(self.p[c][st])] = self.p[c][st]
                split_q[c, st, : len(self.q[c][st])] = self.q[c][st]
        return (
            band_keys,
            np.ascontiguousarray(self.pattern_start, dtype=np.int64),
            self.arrays["band_class"].astype(np.int64),
            self.arrays["band_cols"].astype(np.int64),
            self.arrays["band_relabel"].astype(np.int64),
            split_p,
            split_q,
            np.ascontiguousarray(self.class_prefix, dtype=np.int64),
            np.ascontiguousarray(self.fill_keys, dtype=np.int64),
            np.ascontiguousarray(self.fill_counts, dtype=np.int64),
        )

    def fills(self, keys: np.ndarray) -> np.ndarray:
        last = len(self.fill_keys) - 1
        idx = np.searchsorted(self.fill_keys, keys)
        if np.any(idx > last) or np.any(self.fill_keys[np.minimum(idx, last)] != keys):
            raise RuntimeError("structure key missing from the tables")
        return self.fill_counts[idx]

    def s3_weights(self, c: int, s1: int, s2: int) -> tuple[np.ndarray, np.ndarray]:
        """``f(P)/6`` and ``f(Q)/6`` for the 56 third splits after (s1, s2) in class c."""
        p, q = self.p[c], self.q[c]
        fp = self.fills(_keys(p[0][s1][None, :], p[1][s2][None, :], p[2]))
        fq = self.fills(_keys(q[0][s1][None, :], q[1][s2][None, :], q[2]))
        return fp // 6, fq // 6


_TABLES = Tables(f"numbering-v{TABLE_VERSION}.npz", build_tables, _Tables)


def tables() -> _Tables:
    """The numbering tables, loaded from the cache or built (and cached) on first use."""
    return _TABLES.get()


def reset_tables() -> None:
    """Forget the loaded tables (the next use reloads or rebuilds them); for tests."""
    _TABLES.reset()


def band_table() -> list[tuple[Band, int]]:
    """All 36,288 standard top bands in pattern order with their standardized completion counts."""
    t = tables()
    return [(b, int(n)) for b, n in zip(t.bands, t.pattern_count.tolist(), strict=True)]


# ---------------------------------------------------------------------------------------------
# fills of one band with given column sets
# ---------------------------------------------------------------------------------------------


def _columns_of(pos: Sequence[np.ndarray]) -> list[list[int]]:
    """Sorted digit triple of each of the 9 columns, from per-stack column positions of the digits."""
    cols: list[list[int]] = []
    for k in range(3):
        order = (np.argsort(pos[k], kind="stable") + 1).tolist()
        cols.extend([order[0:3], order[3:6], order[6:9]])
    return cols


class _Transversals:
    """Rows 1 and 2 candidates of a band with column sets ``cols`` (see the module docstring)."""

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
        return int(self.cum[-1])

    def rank(self, rows: Sequence[Sequence[int]]) -> int:
        pos = []
        for a in (0, 1):
            ch = [self.cols[j].index(rows[a][j]) for j in range(9)]
            key = (ch[1] * 3 + ch[2]) * 729 + (ch[3] * 9 + ch[4] * 3 + ch[5]) * 27 + ch[6] * 9 + ch[7] * 3 + ch[8]
            pos.append(int(np.searchsorted(self.flat[a], key)))
        return int(self.cum[pos[0]]) + int(np.count_nonzero(self.dis[pos[0], : pos[1]]))

    def unrank(self, idx: int) -> list[list[int]]:
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


def _sort_bands(rows: list[list[int]]) -> list[list[int]]:
    """Rows 4-9 arranged by column 1: rows ascending within each band, smaller band first."""
    b2 = sorted(rows[0:3])
    b3 = sorted(rows[3:6])
    return b2 + b3 if b2[0][0] < b3[0][0] else b3 + b2


# ---------------------------------------------------------------------------------------------
# numbering
# ---------------------------------------------------------------------------------------------


def _standardize(g: Grid) -> tuple[int, int, int, list[int]]:
    """``(A, B, C, S)`` of a valid grid (module docstring)."""
    box = [g[i] for i in BOX1]
    a = perm_rank(box)
    sig = [0] * 10
    for k, d in enumerate(box):
        sig[d] = k + 1
    g1 = [sig[d] for d in g]
    b = _arrangement_of(g1[3:9])
    c = _arrangement_of([g1[9 * r] for r in range(3, 9)])
    colsrc, rowsrc = ARRANGEMENTS[b], ARRANGEMENTS[c]
    s = [0] * 81
    for r in range(9):
        base = 9 * rowsrc[r]
        for j in range(9):
            s[base + colsrc[j]] = g1[9 * r + j]
    return a, b, c, s


def _completion_rank(s: Sequence[int], p: int) -> int:
    t = tables()
    c = t.band_class[p]
    _, cols, rel = t.pattern(p)
    cinv = _inverse(cols)
    relinv = [0] * 10
    for x, y in enumerate(rel):
        relinv[y] = x
    z = [[relinv[s[9 * (3 + i) + cinv[j]]] for j in range(9)] for i in range(6)]
    z = _sort_bands(z)
    band2, band3 = z[0:3], z[3:6]
    splits = []
    for k in range(3):
        pos = [0] * 9
        for row in band2:
            for m in range(3):
                pos[row[3 * k + m] - 1] = m
        splits.append(t.split_index[c][k][bytes(pos)])
    s1, s2, s3 = splits
    fp, fq = t.s3_weights(c, s1, s2)
    rank = int(t.class_prefix[c][s1 * _NSPLIT + s2]) + int((fp[:s3] * fq[:s3]).sum())
    pk, qk = t.p[c], t.q[c]
    tr2 = _Transversals(_columns_of([pk[0][s1], pk[1][s2], pk[2][s3]]))
    tr3 = _Transversals(_columns_of([qk[0][s1], qk[1][s2], qk[2][s3]]))
    return rank + tr2.rank(band2) * int(fq[s3]) + tr3.rank(band3)


def _completion_unrank(r: int, p: int) -> list[list[int]]:
    t = tables()
    c = t.band_class[p]
    prefix = t.class_prefix[c]
    q = int(np.searchsorted(prefix, r, side="right")) - 1
    s1, s2 = divmod(q, _NSPLIT)
    r -= int(prefix[q])
    fp, fq = t.s3_weights(c, s1, s2)
    ends = np.cumsum(fp * fq)
    s3 = int(np.searchsorted(ends, r, side="right"))
    r -= int(ends[s3 - 1]) if s3 else 0
    i2, i3 = divmod(r, int(fq[s3]))
    pk, qk = t.p[c], t.q[c]
    z = _Transversals(_columns_of([pk[0][s1], pk[1][s2], pk[2][s3]])).unrank(i2)
    z += _Transversals(_columns_of([qk[0][s1], qk[1][s2], qk[2][s3]])).unrank(i3)
    _, cols, rel = t.pattern(p)
    return _sort_bands([[rel[row[cols[j]]] for j in range(9)] for row in z])


def grid_number(grid: Sequence[int]) -> int:
    """The number ``0 <= i < N0`` of a valid 9x9 grid (a bijection; inverse :func:`grid_from_number`).

    Raises ``ValueError`` (naming the problem) if ``grid`` is not a complete valid 9x9 grid.
    Compiled (:mod:`pipeline.identity.fastnumber`) for a list or tuple of 81 small ints; anything
    else, and every error message, comes from :func:`_grid_number_py`, whose results it equals.
    """
    buf = None
    if isinstance(grid, tuple | list):
        try:
            buf = bytes(grid)
        except (TypeError, ValueError):
            buf = None
    if buf is None or len(buf) != 81:
        return _grid_number_py(grid)
    out = np.empty(4, dtype=np.int64)
    status = fastnumber.grid_rank(np.frombuffer(buf, dtype=np.uint8), out, *tables().kernel)
    if status != 0:  # not a valid grid (the reference says why), or tables it cannot use
        return _grid_number_py(grid)
    a, b, c, d = out.tolist()
    return a * N1 + (72 * b + c) * N2 + d


def _grid_number_py(grid: Sequence[int]) -> int:
    """Reference for :func:`grid_number` in pure Python and numpy (the tests' oracle)."""
    g = check_grid(grid)
    a, b, c, s = _standardize(g)
    t = tables()
    p = t.pattern_of[bytes(s[:27])]
    d = int(t.pattern_start[p]) + _completion_rank(s, p)
    return a * N1 + (72 * b + c) * N2 + d


def grid_from_number(i: int) -> Grid:
    """The grid numbered ``i`` (``0 <= i < N0``); ``ValueError`` if ``i`` is out of range or not an int."""
    if isinstance(i, bool) or not isinstance(i, int | np.integer):
        raise ValueError(f"a grid number must be an int, got {type(i).__name__}")
    i = int(i)
    if not 0 <= i < N0:
        raise ValueError(f"grid number {i} out of range [0, N0 = {N0})")
    a, rest = divmod(i, N1)
    bc, d = divmod(rest, N2)
    b, c = divmod(bc, 72)
    t = tables()
    p = int(np.searchsorted(t.pattern_start, d, side="right")) - 1
    lower = _completion_unrank(d - int(t.pattern_start[p]), p)
    top = t.pattern(p)[0]
    s = list(top) + [x for row in lower for x in row]
    box = perm_unrank(a)
    colsrc, rowsrc = ARRANGEMENTS[b], ARRANGEMENTS[c]
    out = []
    for r in range(9):
        base = 9 * rowsrc[r]
        for j in range(9):
            out.append(box[s[base + colsrc[j]] - 1])
    return tuple(out)


def uniform_grid(rng_or_seed: int | random.Random | np.random.Generator | None = None) -> Grid:
    """A grid drawn uniformly from all ``N0`` grids: a uniform number, unranked.

    An ``int`` (or ``None``) seeds ``random.Random(seed).randrange(N0)``; a ``random.Random`` or a
    ``numpy.random.Generator`` is used as given (numpy: 73-bit rejection sampling), so the result is
    a deterministic function of the seed or of the generator's state.
    """
    if isinstance(rng_or_seed, np.random.Generator):
        while True:
            words = rng_or_seed.integers(0, 1 << 32, size=3, dtype=np.uint64).tolist()
            i = ((words[0] << 64) | (words[1] << 32) | words[2]) & ((1 << 73) - 1)
            if i < N0:
                break
    elif isinstance(rng_or_seed, random.Random):
        i = rng_or_seed.randrange(N0)
    else:
        i = random.Random(rng_or_seed).randrange(N0)
    return grid_from_number(i)


def uniform_grids(count: int, seed: int) -> Iterable[Grid]:
    """``count`` independent uniform grids from one seed (deterministic)."""
    rng = random.Random(seed)
    for _ in range(count):
        yield grid_from_number(rng.randrange(N0))
