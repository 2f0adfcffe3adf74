"""The table of smallest band forms behind :func:`pipeline.identity.canon.canonical_grid`, and the
position maps of the band group it is built over.

For each of the 36,288 standard bands (:mod:`pipeline.identity.bands`) the table holds the smallest
form the band takes under row, column and stack permutations (relabelled by row 1) and every
position map that reaches it; only class representatives (416 classes under those moves) are
searched. :func:`build_tables` computes it in a few seconds; it is cached next to the numbering
tables as ``canon-v{VERSION}.npz`` with a SHA-256 of its contents (:mod:`pipeline.tablecache`), and
:class:`CanonTables` checks on loading that it was built for the same band list (a table that does
not match is rebuilt).
"""

from __future__ import annotations

import functools
import hashlib

import numpy as np

from pipeline.identity import numbering_tables
from pipeline.identity.bands import band_classes, standard_bands
from pipeline.identity.standard import PERMS3
from pipeline.tablecache import Tables

#: Bump when the table layout or the order it encodes changes (old cache files are then ignored).
VERSION = 1

#: The six row orders of a band, in ``PERMS3`` order.
ROWPERMS = np.array(PERMS3, dtype=np.int64)
_SP, _W0, _W1, _W2 = np.indices((6, 6, 6, 6)).reshape(4, -1)
#: All column maps respecting stacks: ``c[3s + i] = 3 * stackperm[s] + withinperm_s[i]``, in the
#: order of (stackperm, withinperm_0, withinperm_1, withinperm_2), each running through ``PERMS3``.
COLPERMS = (3 * ROWPERMS[_SP][:, :, None] + ROWPERMS[np.stack([_W0, _W1, _W2], axis=1)]).reshape(-1, 9)
_POW10_18 = 10 ** np.arange(17, -1, -1, dtype=np.int64)


def _digest(bands: np.ndarray) -> np.ndarray:
    """SHA-256 of a band list given as a (n, 27) uint8 array (what ``bands_sha256`` holds)."""
    return np.frombuffer(hashlib.sha256(np.ascontiguousarray(bands).tobytes()).digest(), np.uint8)


def band_digest() -> np.ndarray:
    """:func:`_digest` of :func:`~pipeline.identity.bands.standard_bands`, enumerated."""
    return _digest(np.array(standard_bands(), dtype=np.uint8))


def build_tables() -> dict[str, np.ndarray]:
    """Per standard band: the key of its smallest form and the position maps reaching it.

    ``min_key`` (36288,) int64: rows 2-3 of the smallest form read as an 18-digit decimal (row 1 is
    always 123456789); ``offsets`` (36289,) int32 into ``min_rows`` (M, 3) / ``min_cols`` (M, 9) uint8:
    the form is ``band[min_rows[i]][min_cols[j]]`` relabelled by row 1. ``bands_sha256`` identifies the
    band list the table is indexed by.
    """
    bands = standard_bands()
    bc = band_classes(column_sets=False)
    # smallest form of each class representative over the 6 * 1296 position maps
    rep_min: list[tuple[int, np.ndarray]] = []
    ridx = ROWPERMS[:, None, :, None] * 9 + COLPERMS[None, :, None, :]  # (6, 1296, 3, 9)
    ridx = ridx.reshape(-1, 27)
    ar = np.arange(len(ridx))[:, None]
    for r in bc.reps:
        band = np.array(bands[r], dtype=np.int64)
        cand = band[ridx]
        lab = np.zeros((len(cand), 10), dtype=np.int64)
        lab[ar, cand[:, :9]] = np.arange(1, 10)
        rel = lab[ar, cand]
        keys = rel[:, 9:] @ _POW10_18
        best = keys.min()
        rep_min.append((int(best), np.flatnonzero(keys == best)))
    min_key = np.empty(len(bands), dtype=np.int64)
    offsets = [0]
    rows_out: list[tuple[int, ...]] = []
    cols_out: list[tuple[int, ...]] = []
    for v in range(len(bands)):
        key, elems = rep_min[bc.cls[v]]
        min_key[v] = key
        rinv = np.argsort(bc.rows[v])
        cinv = np.argsort(bc.cols[v])
        for e in elems.tolist():
            rm, cm = ROWPERMS[e // 1296], COLPERMS[e % 1296]
            rows_out.append(tuple(rinv[rm].tolist()))
            cols_out.append(tuple(cinv[cm].tolist()))
        offsets.append(len(rows_out))
    return {
        "min_key": min_key,
        "offsets": np.array(offsets, dtype=np.int32),
        "min_rows": np.array(rows_out, dtype=np.uint8),
        "min_cols": np.array(cols_out, dtype=np.uint8),
        "bands_sha256": band_digest(),
    }


Maps = tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]


class CanonTables:
    """The loaded canon table, checked against the band list it is indexed by: ``bands_sha256`` must
    be the digest of :func:`~pipeline.identity.bands.standard_bands`, else ``ValueError`` (the file
    is then rebuilt). That list is read from the numbering tables (their checksummed, validated
    ``bands`` array) rather than enumerated again; only if those are unusable or hold another list
    is it enumerated. ``pattern_of`` and the position maps are built on first use."""

    def __init__(self, a: dict[str, np.ndarray]) -> None:
        stored = a["bands_sha256"].tobytes()
        try:
            bands: np.ndarray | None = numbering_tables.tables().arrays["bands"]
        except Exception:  # numbering's tables cannot be had: judge by the enumerated list alone
            bands = None
        if bands is None or _digest(bands).tobytes() != stored:
            bands = np.array(standard_bands(), dtype=np.uint8)
            if _digest(bands).tobytes() != stored:
                raise ValueError("canon table was built for another band list")
        self._bands = bands
        self.min_key = a["min_key"].tolist()
        self._arrays = a
        self._maps: dict[int, Maps] = {}

    @functools.cached_property
    def pattern_of(self) -> dict[bytes, int]:
        """Index of each standard band, keyed by its 27 digits as bytes (built on first use)."""
        raw, width = np.ascontiguousarray(self._bands).tobytes(), self._bands.shape[1]
        return {raw[i * width : (i + 1) * width]: i for i in range(len(self._bands))}

    def maps(self, p: int) -> Maps:
        """The (row map, column map) pairs of the smallest form of standard band ``p`` (read from the
        arrays on first use per band; only the pure-Python grid form reads them)."""
        out = self._maps.get(p)
        if out is None:
            a = self._arrays
            lo, hi = int(a["offsets"][p]), int(a["offsets"][p + 1])
            rows = [tuple(r) for r in a["min_rows"][lo:hi].tolist()]
            cols = [tuple(c) for c in a["min_cols"][lo:hi].tolist()]
            out = self._maps[p] = tuple(zip(rows, cols, strict=True))
        return out


_TABLES = Tables(f"canon-v{VERSION}.npz", build_tables, CanonTables)


def tables() -> CanonTables:
    """The canonical-band tables (cached on disk like the numbering tables)."""
    return _TABLES.get()


def reset_tables() -> None:
    """Forget the loaded tables (for tests)."""
    _TABLES.reset()
