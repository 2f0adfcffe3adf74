"""Numbering all 9x9 Sudoku grids (the 2007 thesis scheme, exact, Python ints): grid <-> number.

Vocabulary (see :mod:`pipeline.board`): a grid is a row-major 81-tuple of digits 1..9. Every grid is
exactly one ``(A, B, C, S)`` of its standard form (:mod:`pipeline.identity.standard`: ``A`` the rank
of box 1, ``B``/``C`` the row-1/column-1 arrangement numbers, ``S`` a standardized grid), and

    grid_number(g) = A * N1 + (72 * B + C) * N2 + D,        N1 = N0 / 9! = 72**2 * N2

``D``, the rank of ``S`` among the ``N2`` standardized grids:

* **Patterns.** The 36,288 standard top bands (rows 1-3) in lexicographic order of their 27
  digits (:mod:`pipeline.identity.bands`); pattern ``p`` owns the half-open range
  ``[start_p, start_p + count_p)``.
* **Completions of a pattern** (rows 4-9). A completion depends on the top band only through
  its column sets, and column/stack permutations plus relabelling map completions of one band
  onto another's. So the 36,288 patterns fall into classes (130), each ranked through a
  representative ``R`` (the first pattern of the class): a completion of pattern ``T`` is sent to a
  completion of ``R`` by a stored column permutation and relabelling, and bands 2-3 are re-sorted by
  column 1 (this commutes with the map, so it is a bijection of standardized completions).
* **Order of the completions of a representative.** Completions are ordered by
  ``(split 1, split 2, split 3, band-2 fill, band-3 fill)``, splits and fills as defined and
  numbered in :mod:`pipeline.identity.bandcount`; in stack 1 only the 28 splits with digit 2 in
  column 1 of band 2 occur (that is what "band 2 before band 3" means once box 1 is 1..9). A split's
  weight is ``(f(P) / 6) * (f(Q) / 6)`` where ``f`` counts the fillings of a band with the given
  column sets (the 6 row orders are fixed by sorting the band by column 1).

The tables these steps read (:mod:`pipeline.identity.numbering_tables`) are built once and cached
on disk; the only constants are ``N2``/``N0``, which the build checks.

:func:`grid_number` runs once per 9x9 row of a set, so it is compiled: the same steps over the same
tables (plus arrays derived from them when they are loaded; the file is unchanged) in
:mod:`pipeline.identity.numbering_jit`, about 20 times faster than the pure-Python
:func:`_grid_number_py` (``bench/bench_canon.py``), which stays as the tests' oracle. A process
where :func:`pipeline.compiled.use_compiled` says Python (a one-shot command) answers with the reference
instead (a fraction of a millisecond each, against about 0.35 s of CPU to load numba and the
kernel), so ``numplace generate --count 1`` loads no compiler; the results are the same.
:func:`grid_from_number` (uniform grids, ``numplace`` queries) is not compiled.

The counting and table functions are re-exported here, so ``numbering.band_count``,
``numbering.count_grids``, ``numbering.tables`` and the constants keep their import path.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

import numpy as np

from pipeline.board import Grid
from pipeline.compiled import use_compiled
from pipeline.identity import standard
from pipeline.identity.bandcount import NSPLIT, Transversals, band_completions, band_count, columns_of, count_grids
from pipeline.identity.bands import Band, standard_bands
from pipeline.identity.numbering_tables import TABLE_VERSION, band_table, reset_tables, tables
from pipeline.identity.standard import N0, N1, N2, check_grid, perm_rank, perm_unrank
from pipeline.tablecache import cache_dir

# the names callers import from here, wherever they are defined
__all__ = [
    "N0", "N1", "N2", "TABLE_VERSION", "Band", "band_completions", "band_count", "band_table", "cache_dir",
    "check_grid", "count_grids", "grid_from_number", "grid_number", "perm_rank", "perm_unrank", "reset_tables",
    "standard_bands", "tables", "uniform_grid", "uniform_grids",
]


def _sort_bands(rows: list[list[int]]) -> list[list[int]]:
    """Rows 4-9 arranged by column 1: rows ascending within each band, smaller band first."""
    b2 = sorted(rows[0:3])
    b3 = sorted(rows[3:6])
    return b2 + b3 if b2[0][0] < b3[0][0] else b3 + b2


def _completion_rank(s: Sequence[int], p: int) -> int:
    """The rank of the completion (rows 4-9) of the standardized grid ``s`` within its pattern ``p``."""
    t = tables()
    c = t.band_class[p]
    _, cols, rel = t.pattern(p)
    cinv = standard.inverse(cols)
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
        splits.append(t.split_of(c, k, bytes(pos)))
    s1, s2, s3 = splits
    fp, fq = t.s3_weights(c, s1, s2)
    rank = int(t.class_prefix[c][s1 * NSPLIT + s2]) + int((fp[:s3] * fq[:s3]).sum())
    pk, qk = t.p[c], t.q[c]
    tr2 = Transversals(columns_of([pk[0][s1], pk[1][s2], pk[2][s3]]))
    tr3 = Transversals(columns_of([qk[0][s1], qk[1][s2], qk[2][s3]]))
    return rank + tr2.rank(band2) * int(fq[s3]) + tr3.rank(band3)


def _completion_unrank(r: int, p: int) -> list[list[int]]:
    """Rows 4-9 of the completion of rank ``r`` of pattern ``p`` (inverse of :func:`_completion_rank`)."""
    t = tables()
    c = t.band_class[p]
    prefix = t.class_prefix[c]
    q = int(np.searchsorted(prefix, r, side="right")) - 1
    s1, s2 = divmod(q, NSPLIT)
    r -= int(prefix[q])
    fp, fq = t.s3_weights(c, s1, s2)
    ends = np.cumsum(fp * fq)
    s3 = int(np.searchsorted(ends, r, side="right"))
    r -= int(ends[s3 - 1]) if s3 else 0
    i2, i3 = divmod(r, int(fq[s3]))
    pk, qk = t.p[c], t.q[c]
    z = Transversals(columns_of([pk[0][s1], pk[1][s2], pk[2][s3]])).unrank(i2)
    z += Transversals(columns_of([qk[0][s1], qk[1][s2], qk[2][s3]])).unrank(i3)
    _, cols, rel = t.pattern(p)
    return _sort_bands([[rel[row[cols[j]]] for j in range(9)] for row in z])
def grid_number(grid: Sequence[int]) -> int:
    """The number ``0 <= i < N0`` of a valid 9x9 grid (a bijection; inverse :func:`grid_from_number`).

    Raises ``ValueError`` (naming the problem) if ``grid`` is not a complete valid 9x9 grid.
    Compiled (:mod:`pipeline.identity.numbering_jit`) for a list or tuple of 81 small ints; anything
    else, and every error message, comes from :func:`_grid_number_py`, whose results it equals.
    """
    buf = None
    if isinstance(grid, tuple | list):
        try:
            buf = bytes(grid)
        except (TypeError, ValueError):
            buf = None
    if buf is None or len(buf) != 81 or not use_compiled():
        return _grid_number_py(grid)
    from pipeline.identity import numbering_jit  # numba: loaded on the first compiled call, not on import

    out = np.empty(4, dtype=np.int64)
    status = numbering_jit.grid_rank(np.frombuffer(buf, dtype=np.uint8), out, *tables().kernel)
    if status != 0:  # not a valid grid (the reference says why), or tables it cannot use
        return _grid_number_py(grid)
    a, b, c, d = out.tolist()
    return a * N1 + (72 * b + c) * N2 + d


def _grid_number_py(grid: Sequence[int]) -> int:
    """Reference for :func:`grid_number` in pure Python and numpy (the tests' oracle)."""
    g = check_grid(grid)
    a, b, c, s = standard.standardize(g)
    t = tables()
    p = t.pattern_index(bytes(s[:27]))
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
    return standard.unstandardize(a, b, c, s)


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
