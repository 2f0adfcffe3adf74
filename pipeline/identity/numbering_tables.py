"""The tables behind the grid numbers: built from scratch, cached on disk, loaded once per process.

:func:`build_tables` computes everything :func:`pipeline.identity.numbering.grid_number` and
:func:`~pipeline.identity.numbering.grid_from_number` need (~10 s, about 1 MB compressed, < 5 MB
raw): the standard bands in pattern order (:mod:`pipeline.identity.bands`), their classes with the
map from each class representative's completions to the pattern's, and per class the cumulative
completions before each (split 1, split 2) and the fill counts of every structure key
(:mod:`pipeline.identity.bandcount`). The build checks that the counts add up to ``N2``.

The file is cached in the user cache directory as ``numbering-v{TABLE_VERSION}.npz`` holding a
SHA-256 of its own contents; a missing, unreadable or mismatching file is rebuilt, never trusted
(:mod:`pipeline.tablecache`). Loading (:class:`NumberingTables`) derives and checks the arrays the
compiled kernel takes; a table that does not make sense is rejected there, and then rebuilt.
"""

from __future__ import annotations

import functools

import numpy as np

from pipeline.identity.bandcount import NSPLIT, fill_table, split_products, split_rows, structure_keys, tops
from pipeline.identity.bands import Band, band_classes, standard_bands
from pipeline.identity.standard import N2
from pipeline.tablecache import Tables

#: Bump when the table layout or the order it encodes changes (old cache files are then ignored).
TABLE_VERSION = 1


def build_tables() -> dict[str, np.ndarray]:
    """Everything the grid numbers need, from scratch (~10 s).

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
        w, ps, _ = split_products(bands[r])
        keep = ps[0][:, 1] == 0  # digit 2 goes to column 1 of band 2
        w = w[keep] // 36
        per = w.sum(axis=2).ravel()
        prefixes.append(np.concatenate([[0], np.cumsum(per)]))
        counts.append(int(per.sum()))
    n2 = sum(counts[c] for c in bc.cls)
    if n2 != N2:
        raise RuntimeError(f"band counts sum to {n2}, expected {N2}")
    keys, fills = fill_table()
    return {
        "bands": np.array(bands, dtype=np.uint8),
        "band_class": np.array(bc.cls, dtype=np.uint8),
        "band_cols": np.array(bc.cols, dtype=np.uint8),
        "band_relabel": np.array(bc.relabel, dtype=np.uint8),
        "class_rep": np.array(bc.reps, dtype=np.int32),
        "class_count": np.array(counts, dtype=np.int64),
        "class_prefix": np.array(prefixes, dtype=np.int64),
        "fill_keys": keys,
        "fill_counts": fills,
    }


class NumberingTables:
    """Loaded tables plus the per-class split structures derived from them.

    Built when the file is loaded (and so checked then: a table that does not make sense raises
    ``ValueError``, ``KeyError`` or ``IndexError`` here, which makes :class:`~pipeline.tablecache.Tables`
    rebuild the file): the pattern ranges, the split structures ``p``/``q`` and ``kernel``, all that
    :func:`~pipeline.identity.numbering.grid_number` needs. The pure-Python views of the per-pattern
    arrays (``bands``, ``band_cols``, ``band_relabel``, ``pattern_of``) and ``split_index``, which
    only the reference ``_grid_number_py`` and :func:`band_table` read, are built on first use
    (the reference reads them through :meth:`pattern_index` and :meth:`split_of`, which build
    only what one lookup needs, so a process that numbers one grid stays cheap);
    ``grid_from_number`` reads single rows through :meth:`pattern`.
    """

    def __init__(self, a: dict[str, np.ndarray]) -> None:
        self.arrays = a
        self._split_cache: dict[tuple[int, int], dict[bytes, int]] = {}
        self._scans = 0
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
        top = np.array([tops(bands[r].tolist()) for r in a["class_rep"].tolist()], dtype=np.int64).reshape(-1, 9)
        row, p = split_rows(top)  # row 3 * class + stack
        q = 3 - top[row] - p
        keep = (row % 3 != 0) | (p[:, 1] == 0)  # stack 1: digit 2 goes to column 1 of band 2
        row, p, q = row[keep], p[keep], q[keep]
        ends = np.cumsum(np.bincount(row, minlength=len(top))).tolist()
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
        return [[self._splits(c, k) for k in range(len(ps))] for c, ps in enumerate(self.p)]

    def _splits(self, c: int, k: int) -> dict[bytes, int]:
        """``split_index[c][k]``, built alone (and kept) when the whole table is not built yet."""
        key = (c, k)
        if key not in self._split_cache:
            self._split_cache[key] = {bytes(row.astype(np.uint8)): i for i, row in enumerate(self.p[c][k])}
        return self._split_cache[key]

    def split_of(self, c: int, k: int, positions: bytes) -> int:
        """The split number of class ``c``, stack ``k`` with band-2 positions ``positions`` (as
        ``split_index[c][k][positions]``; builds only that class and stack's index)."""
        return self._splits(c, k)[positions]

    def pattern_index(self, band: bytes) -> int:
        """The pattern of a standard band given as its 27 digits (as ``pattern_of[band]``, ``KeyError``
        for a band that is not standard). The first few lookups of a process scan the bands (about a
        millisecond each, against tens for building :attr:`pattern_of`), so a process that numbers a
        grid or two by the reference does not build the dict; later lookups use it."""
        self._scans += 1
        if self._scans > 4 or "pattern_of" in self.__dict__:
            return self.pattern_of[band]
        bands = np.ascontiguousarray(self.arrays["bands"])
        if len(band) != bands.shape[1]:
            raise KeyError(band)
        hit = np.flatnonzero((bands == np.frombuffer(band, dtype=np.uint8)).all(axis=1))
        if not len(hit):
            raise KeyError(band)
        return int(hit[0])

    def pattern(self, p: int) -> tuple[Band, tuple[int, ...], tuple[int, ...]]:
        """``(bands[p], band_cols[p], band_relabel[p])`` read from the arrays (builds no list)."""
        a = self.arrays
        return tuple(a["bands"][p].tolist()), tuple(a["band_cols"][p].tolist()), tuple(a["band_relabel"][p].tolist())

    def _kernel_tables(self) -> tuple[np.ndarray, ...]:
        """The arrays :func:`pipeline.identity.numbering_jit.grid_rank` takes after ``(g, out)``, in its order."""
        outside = [i for i in range(27) if i % 9 >= 3]  # the 18 cells outside box 1, reading order
        powers = 9 ** np.arange(17, -1, -1, dtype=np.int64)
        band_keys = (self.arrays["bands"][:, outside].astype(np.int64) - 1) @ powers
        if np.any(np.diff(band_keys) <= 0):
            raise ValueError("bands are not in pattern order")
        k = len(self.p)
        split_p = np.zeros((k, 3, NSPLIT, 9), dtype=np.int64)
        split_q = np.zeros((k, 3, NSPLIT, 9), dtype=np.int64)
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
        """The fill counts of the structure keys ``keys``; ``RuntimeError`` if one is not in the tables."""
        last = len(self.fill_keys) - 1
        idx = np.searchsorted(self.fill_keys, keys)
        if np.any(idx > last) or np.any(self.fill_keys[np.minimum(idx, last)] != keys):
            raise RuntimeError("structure key missing from the tables")
        return self.fill_counts[idx]

    def s3_weights(self, c: int, s1: int, s2: int) -> tuple[np.ndarray, np.ndarray]:
        """``f(P)/6`` and ``f(Q)/6`` for the 56 third splits after (s1, s2) in class c."""
        p, q = self.p[c], self.q[c]
        fp = self.fills(structure_keys(p[0][s1][None, :], p[1][s2][None, :], p[2]))
        fq = self.fills(structure_keys(q[0][s1][None, :], q[1][s2][None, :], q[2]))
        return fp // 6, fq // 6


_TABLES = Tables(f"numbering-v{TABLE_VERSION}.npz", build_tables, NumberingTables)


def tables() -> NumberingTables:
    """The numbering tables, loaded from the cache or built (and cached) on first use."""
    return _TABLES.get()


def reset_tables() -> None:
    """Forget the loaded tables (the next use reloads or rebuilds them); for tests."""
    _TABLES.reset()


def band_table() -> list[tuple[Band, int]]:
    """All 36,288 standard top bands in pattern order with their standardized completion counts."""
    t = tables()
    return [(b, int(n)) for b, n in zip(t.bands, t.pattern_count.tolist(), strict=True)]
