"""The catalog's key index: exact dedup against millions of catalog keys without holding them.

A run dedups against every key of its catalog snapshot (:mod:`pipeline.run.store`). Reading them all
into a Python set costs seconds and gigabytes once a root holds ten million keys, so the catalog
keeps an index beside its entries, in ``<root>/_catalog/_index/`` (:data:`~pipeline.run.layout.INDEX`):

* **Segments** ``seg-<16 hex>.idx`` (:data:`~pipeline.run.layout.SEGMENT_GLOB`), immutable, each
  written whole by rename (:func:`pipeline.atomic.atomic_write`): a header naming the catalog entries
  it covers, each with the ``(size, mtime_ns, inode)`` of the entry file it was built from, then the
  64-bit hashes (:func:`key_hashes`) of their keys sorted ascending, and beside each hash the number
  of the entry it came from. The exact layout is :func:`pipeline.run.segment._encode`.
* Every segment carries a **CRC-32 of its header and arrays** (:func:`_encode`), checked when it
  is opened (:func:`read_segment`, once per file per process) with its structure: hashes ascending,
  every entry number inside the entry list, each entry's key count equal to the number of hashes
  that name it. A segment that fails (a flipped bit anywhere, cut short, another format, the first
  format, which had no checksum) is not trusted: it is logged, removed under the dedup lock and its
  entries are indexed again from the catalog entries (the source of truth). Once per segment file
  per process, the keys of one entry it covers (chosen at random) are read and hashed, and must be
  exactly the hashes the segment gives that entry (a segment whose checksum was made to match wrong
  contents is found so, whole or over the nights). ``numplace catalog``
  names such a segment and ``numplace catalog --repair`` removes and rebuilds it.
* A lookup hashes the night's keys, binary-searches every segment (``numpy.searchsorted`` on a
  memory map: only the pages a search touches are read) and **confirms every hit exactly** by
  reading the key column of the entry the hash came from (cached per entry), so a hash collision
  never refuses a puzzle: the decisions are those of a set of the keys themselves.
* A hash counts only while its entry is in the run's snapshot and the entry file still has the
  ``(size, mtime_ns, inode)`` recorded for it: an entry rewritten since (a resumed run's, one that
  ``numplace catalog --repair`` rebuilt) or deleted is simply not covered, and is read again.

Index maintenance happens under the root's dedup lock (:func:`~pipeline.run.lock.dedup_lock`): the
entries of a snapshot no valid segment covers (catalogs written before the index, the runs finished
since) are read whole (which is also the damage check of :func:`pipeline.run.store.check_catalog`),
and written as one new segment; then segments of the same size tier (factor 4) are merged, four or
more at a time, into one (never past :data:`MERGE_CAP` keys). A merge writes the new segment before
it removes the old ones, so a kill at any moment leaves segments that still cover every entry (some
twice: harmless). A segment that cannot be read or fails its checksum is ignored and removed, and
its entries are indexed again. Readers take no lock: a segment removed under a
reader's feet is found again by listing the folder anew (the merged one covers it).

Nothing here decides which entries count (the snapshot does) or what a key is
(:func:`pipeline.run.rows.dedup_key`): the index only answers "which of these keys does the snapshot
hold", exactly as ``key in catalog_keys(root, snapshot)`` would.
"""

from __future__ import annotations

import random
import secrets
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from pipeline.atomic import atomic_write
from pipeline.run.layout import CATALOG, INDEX, OLD_CATALOG, SEGMENT_GLOB, TEMP_GLOB
from pipeline.run.segment import (  # noqa: F401 (MAGIC, OLD_MAGIC, read_segment: this module's names too)
    _VERIFIED,
    MAGIC,
    OLD_MAGIC,
    BadSegment,
    Segment,
    Stamp,
    _encode,
    check_segment,
    read_segment,
)

if TYPE_CHECKING:
    import numpy.typing as npt

    Hashes = npt.NDArray[np.uint64]

#: Segments of the same tier (keys within a factor of :data:`TIER`) are merged this many at a time.
TIER = 4
#: A merge never makes a segment of more keys than this (its memory: about 32 bytes a key).
MERGE_CAP = 16_000_000
#: Keys hashed per batch (bounds the memory of :func:`key_hashes` on long keys).
BATCH = 65_536

_M1 = np.uint64(0xFF51AFD7ED558CCD)
_M2 = np.uint64(0xC4CEB9FE1A85EC53)
_GOLD = np.uint64(0x9E3779B97F4A7C15)
_SEED = np.uint64(0x6E756D706C616365)  # b"numplace"



def key_hashes(keys: Sequence[str]) -> Hashes:
    """The 64-bit hash of each key (its UTF-8 bytes), as a uint64 array in the order of ``keys``.

    Defined by numpy's wrap-around uint64 arithmetic alone (stable across versions and machines):
    ``h = (len * GOLD) ^ SEED``; for each little-endian 8-byte word ``w`` of the bytes (the last one padded with
    zeros): ``h = (h ^ w) * M1; h ^= h >> 32``; then murmur3's ``fmix64``. A key's hash does not depend
    on the other keys of the batch. Equal hashes need not mean equal keys: every hit is confirmed."""
    out = np.empty(len(keys), dtype=np.uint64)
    for at in range(0, len(keys), BATCH):
        out[at:at + BATCH] = _hash_batch(keys[at:at + BATCH])
    return out


def _hash_batch(keys: Sequence[str]) -> Hashes:
    raw = [k.encode() for k in keys]
    n = len(raw)
    if n == 0:
        return np.empty(0, dtype=np.uint64)
    lengths = np.fromiter(map(len, raw), dtype=np.int64, count=n)
    width = max(8, int(-(-int(lengths.max()) // 8) * 8))
    buf = np.zeros((n, width), dtype=np.uint8)
    fixed = np.array(raw, dtype=f"S{width}")  # zero-padded on the right (no key holds a NUL byte)
    buf[:] = fixed.view(np.uint8).reshape(n, width)
    words = buf.view("<u8")
    nwords = (lengths + 7) // 8
    with np.errstate(over="ignore"):
        h = (lengths.astype(np.uint64) * _GOLD) ^ _SEED
        for j in range(words.shape[1]):
            mixed = (h ^ words[:, j]) * _M1
            mixed ^= mixed >> np.uint64(32)
            h = np.where(j < nwords, mixed, h)
        h ^= h >> np.uint64(33)
        h *= _M1
        h ^= h >> np.uint64(33)
        h *= _M2
        h ^= h >> np.uint64(33)
    return h


def stamp(path: Path) -> Stamp | None:
    """``(size, mtime_ns, inode)`` of ``path``, or None when it is not a file."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ino) if stat.S_ISREG(st.st_mode) else None


def _build(entries: list[tuple[str, Stamp, Hashes]]) -> Segment:
    """A segment (in memory) of entries given with the hashes of their keys."""
    hashes = np.concatenate([h for _, _, h in entries]) if entries else np.empty(0, np.uint64)
    entry_of = np.repeat(np.arange(len(entries), dtype=np.uint32), [len(h) for _, _, h in entries])
    order = np.argsort(hashes, kind="stable")
    return Segment(None, [(name, st, len(h)) for name, st, h in entries], hashes[order], entry_of[order])


def _merge(parts: list[Segment], keep: set[tuple[str, Stamp]]) -> Segment:
    """One segment of the entries of ``parts`` that are in ``keep`` (each once)."""
    entries: list[tuple[str, Stamp, int]] = []
    hashes, owners = [], []
    taken: set[tuple[str, Stamp]] = set()
    for seg in parts:
        remap = np.full(len(seg.entries), -1, dtype=np.int64)
        for i, (name, st, n) in enumerate(seg.entries):
            if (name, st) in keep and (name, st) not in taken:
                taken.add((name, st))
                remap[i] = len(entries)
                entries.append((name, st, n))
        own = remap[np.asarray(seg.entry_of)]
        mask = own >= 0
        hashes.append(np.asarray(seg.hashes)[mask])
        owners.append(own[mask].astype(np.uint32))
    h = np.concatenate(hashes) if hashes else np.empty(0, np.uint64)
    e = np.concatenate(owners) if owners else np.empty(0, np.uint32)
    order = np.argsort(h, kind="stable")
    return Segment(None, entries, h[order], e[order])


def _save(folder: Path, seg: Segment) -> Segment:
    """Write ``seg`` as a new segment file in ``folder`` (by rename); returns it as read back."""
    path = folder / f"seg-{secrets.token_hex(8)}.idx"
    atomic_write(path, lambda tmp: _encode(seg.entries, seg.hashes, seg.entry_of, tmp))
    back = read_segment(path)
    if back is None:  # pragma: no cover - written just now
        raise OSError(f"{path}: the segment just written does not read back")
    return back


def _tier(keys: int) -> int:
    return max(0, int(keys).bit_length() // 2 - 6) if keys else 0  # factor 4 per tier, from 4,096 keys


# ---------------------------------------------------------------------------------------------
# The index of a snapshot
# ---------------------------------------------------------------------------------------------

class _Doubt(Exception):
    """A segment's arrays say something impossible: its entries are read instead."""


@dataclass
class KeyIndex:
    """The keys of a catalog snapshot, answered from segments: ``key in index`` and :meth:`hits`.

    ``read_keys(name)`` reads the key column of an entry (for exact confirmation; raises
    :class:`~pipeline.run.store.StoreError` for a damaged file). Build one with :func:`open_index`."""

    segments: list[Segment]
    valid: list[npt.NDArray[np.bool_]]  # per segment, per entry: counts for this snapshot
    read_keys: Callable[[str], list[str]]
    _confirmed: dict[str, frozenset[str]] = field(default_factory=dict)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and bool(self.hits([key]))

    def hits(self, keys: Iterable[str]) -> set[str]:
        """The keys of ``keys`` the snapshot holds (exactly: every hash hit is confirmed; a segment
        whose arrays say anything impossible is not trusted, and its entries are read instead)."""
        keys = list(dict.fromkeys(keys))
        found: set[str] = set()
        if not keys or not self.segments:
            return found
        want = key_hashes(keys)
        for seg, valid in zip(self.segments, self.valid, strict=True):
            if seg.keys == 0 or not valid.any():
                continue
            try:
                found |= self._seg_hits(seg, valid, keys, want, found)
            except _Doubt:
                names = [seg.entries[i][0] for i in np.flatnonzero(valid)]
                found |= {k for k in keys if any(k in self._entry_keys(n) for n in names)}
        return found

    def _seg_hits(self, seg: Segment, valid: npt.NDArray[np.bool_], keys: list[str], want: Hashes,
                  found: set[str]) -> set[str]:
        """The keys of ``keys`` (hashes ``want``) that ``seg``'s valid entries hold, confirmed; raises
        :class:`_Doubt` on an entry number outside the segment (a look-up never reads outside it)."""
        out: set[str] = set()
        pos = np.searchsorted(seg.hashes, want, side="left")
        inside = pos < seg.keys
        match = np.zeros(len(keys), dtype=bool)
        match[inside] = np.asarray(seg.hashes[pos[inside]]) == want[inside]
        for i in np.flatnonzero(match):
            if keys[i] in found:
                continue
            j = int(pos[i])
            while j < seg.keys and seg.hashes[j] == want[i]:
                e = int(seg.entry_of[j])
                if e >= len(seg.entries):
                    raise _Doubt
                if valid[e] and keys[i] in self._entry_keys(seg.entries[e][0]):
                    out.add(keys[i])
                    break
                j += 1
        return out

    def _entry_keys(self, name: str) -> frozenset[str]:
        if name not in self._confirmed:
            self._confirmed[name] = frozenset(self.read_keys(name))
        return self._confirmed[name]


def _entry_file(root: Path, name: str) -> Path:
    """The file of a catalog entry named as a manifest names it (see :func:`pipeline.run.store.catalog_files`)."""
    return root / name if "/" in name else root / OLD_CATALOG / name


def index_dir(root: Path) -> Path:
    """The index folder of the output root ``root``."""
    return root / CATALOG / INDEX


def list_segments(root: Path) -> list[Segment]:
    """The verified segments of ``root``'s index, largest first (bad ones are left out)."""
    return scan_segments(root)[0]


def scan_segments(root: Path) -> tuple[list[Segment], list[tuple[Path, str]]]:
    """The verified segments of ``root``'s index, largest first, and the bad segment files with why
    each is bad (:func:`check_segment`)."""
    good, bad = [], []
    for path in sorted(index_dir(root).glob(SEGMENT_GLOB)):
        try:
            good.append(check_segment(path))
        except BadSegment as exc:
            bad.append((path, str(exc)))
    return sorted(good, key=lambda s: (-s.keys, str(s.path))), bad


def drop_bad(bad: list[tuple[Path, str]], say: Callable[..., None] | None = None) -> list[str]:
    """Remove the bad segment files ``bad`` (call under the dedup lock); returns one line per file
    removed, also given to ``say`` (a run's log) as a warning. Their entries are indexed again."""
    lines = []
    for path, why in bad:
        try:
            path.unlink(missing_ok=True)
        except OSError:
            continue
        _VERIFIED.pop(path, None)
        line = (f"key index segment {path} is bad ({why}): removed; the catalog entries it covered are "
                f"indexed again from the entries themselves")
        lines.append(line)
        if say is not None:
            say(line, event="index_segment_removed", level="warning", path=str(path), why=why)
    return lines


def _cover(segments: list[Segment], want: dict[str, Stamp]) -> tuple[list[npt.NDArray[np.bool_]], set[str]]:
    """Per segment, which of its entries count (in ``want`` with the same stamp, the first segment
    that covers an entry taking it); and the names covered."""
    covered: set[str] = set()
    valid = []
    for seg in segments:
        v = np.zeros(len(seg.entries), dtype=bool)
        for i, (name, st, _) in enumerate(seg.entries):
            if name not in covered and want.get(name) == st:
                v[i] = True
                covered.add(name)
        valid.append(v)
    return valid, covered


class SeenKeys:
    """The dedup keys a run has taken: its snapshot's :class:`KeyIndex` and a set of the rest (the
    keys of its own parts, of published parts, of the puzzles it accepted). ``key in seen`` and
    ``seen.update(keys)`` behave as on a set holding all of them; :meth:`prefetch` asks the index for
    many keys in one vectorised lookup, so the ``in`` that follows is a dictionary look-up."""

    def __init__(self, index: KeyIndex | None, extra: set[str] | None = None) -> None:
        self.index = index
        self.extra: set[str] = extra if extra is not None else set()
        self._asked: set[str] = set()
        self._held: set[str] = set()

    def prefetch(self, keys: Iterable[str]) -> None:
        """Look ``keys`` up in the index at once (the answers are kept)."""
        if self.index is None:
            return
        new = [k for k in dict.fromkeys(keys) if k not in self._asked and k not in self.extra]
        if new:
            self._held |= self.index.hits(new)
            self._asked.update(new)

    def __contains__(self, key: object) -> bool:
        if key in self.extra:
            return True
        if self.index is None or not isinstance(key, str):
            return False
        if key not in self._asked:
            self.prefetch([key])
        return key in self._held

    def update(self, keys: Iterable[str]) -> None:
        self.extra.update(keys)


#: Entries read for a new segment are flushed as a segment file every this many keys (bounds the
#: memory of indexing a large catalog written before the index: about 30 bytes a key).
BUILD_CHUNK = 4_000_000


def open_index(root: Path, names: dict[str, Path], read_keys: Callable[[str], list[str]],
               lock: Callable[[], Any], say: Callable[..., None] | None = None) -> KeyIndex:
    """The index of the snapshot ``names`` (entry name -> its file; entries whose file has gone are
    not covered: the caller reads them from their run's parts), brought up to date first: bad
    segments (:func:`check_segment`, :func:`_spot_check`) are removed and told to ``say``; entries
    no trusted segment covers are read with ``read_keys`` (a damaged one raises: what was indexed
    before it stays valid) and indexed as new segments, and same-tier segments are merged, all under
    ``lock()`` (a context manager: the root's dedup lock). If the index cannot be written (a
    read-only or full device), the new segments are kept in memory for this run."""
    want = {name: st for name, path in names.items() if (st := stamp(path)) is not None}
    segments, bad = scan_segments(root)
    doubt = _spot_check(segments, want, read_keys)
    segments = [s for s in segments if s.path not in doubt]
    valid, covered = _cover(segments, want)
    if bad or doubt or len(covered) < len(want):
        with lock():
            segments, bad = scan_segments(root)  # another run may have indexed them meanwhile
            bad += [(s.path, doubt[s.path]) for s in segments if s.path in doubt]
            segments = [s for s in segments if s.path not in doubt]
            drop_bad(bad, say)
            valid, covered = _cover(segments, want)
            todo = [n for n in want if n not in covered]
            if todo:
                segments = _index_entries(root, segments, todo, want, read_keys, names)
                valid, covered = _cover(segments, want)
    return KeyIndex(segments, valid, read_keys)


#: Segment files this process has spot-checked against an entry (as :data:`_VERIFIED`).
_SPOT_CHECKED: set[tuple[Path, tuple[int, int, int, int] | None]] = set()


def _spot_check(segments: list[Segment], want: dict[str, Stamp],
                read_keys: Callable[[str], list[str]]) -> dict[Path, str]:
    """Segments whose hashes are not those of their entries' keys, with why: once per segment file
    per process, one entry it covers (chosen at random) is read and its keys' hashes must be exactly
    the hashes the segment gives that entry. The checksum finds damage; this finds a segment whose
    checksum was made to match wrong contents (by hand, or a bug), whole or in part, over the nights."""
    out: dict[Path, str] = {}
    for seg in segments:
        if seg.path is None:
            continue
        ident = (seg.path, _VERIFIED.get(seg.path))
        if ident in _SPOT_CHECKED:
            continue
        mine = [i for i, (name, st, n) in enumerate(seg.entries) if n and want.get(name) == st]
        if not mine:
            continue
        e = _RNG.choice(mine)
        expect = np.sort(key_hashes(read_keys(seg.entries[e][0])))
        held = np.sort(np.asarray(seg.hashes)[np.asarray(seg.entry_of) == e])
        if not np.array_equal(expect, held):
            out[seg.path] = f"its hashes of entry {seg.entries[e][0]} are not those of the entry's keys"
        else:
            _SPOT_CHECKED.add(ident)
    return out


_RNG = random.Random()


def _index_entries(root: Path, segments: list[Segment], todo: list[str], want: dict[str, Stamp],
                   read_keys: Callable[[str], list[str]], names: dict[str, Path]) -> list[Segment]:
    """``segments`` with new ones covering the entries ``todo`` (written to the folder when it can
    be, and then compacted)."""
    folder = index_dir(root)
    writable = True
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for p in folder.glob(TEMP_GLOB):
            p.unlink(missing_ok=True)  # left by a killed writer (writers hold the lock)
    except OSError:
        writable = False
    batch: list[tuple[str, Stamp, Hashes]] = []

    def flush() -> None:
        nonlocal writable
        seg = _build(batch)
        batch.clear()
        if writable:
            try:
                seg = _save(folder, seg)
            except OSError:
                writable = False
        segments.append(seg)

    for name, keys in _read_all(todo, read_keys):
        batch.append((name, want[name], key_hashes(keys)))  # the stamp taken before the read
        if sum(len(h) for _, _, h in batch) >= BUILD_CHUNK:
            flush()
    if batch:
        flush()
    if writable:
        try:
            return compact(root, segments, names)
        except OSError:
            pass
    return segments


def _read_all(todo: list[str], read_keys: Callable[[str], list[str]]) -> Iterator[tuple[str, list[str]]]:
    for name in todo:
        yield name, read_keys(name)


def compact(root: Path, segments: list[Segment], names: dict[str, Path] | None = None) -> list[Segment]:
    """Merge segments of the same size tier, :data:`TIER` or more at a time (never past
    :data:`MERGE_CAP` keys), keeping only the entries whose file (``names``, else
    ``<root>/<name>``) still has the stamp recorded; remove unreadable segment files. Call under the
    dedup lock. Returns the segments now in the folder, largest first."""
    folder = index_dir(root)
    drop_bad(scan_segments(root)[1])
    files = dict(names or {})
    while True:
        group = _mergeable(segments)
        if group is None:
            return sorted(segments, key=lambda s: (-s.keys, str(s.path)))
        keep = {(name, st) for seg in group for name, st, _ in seg.entries
                if stamp(files.get(name) or _entry_file(root, name)) == st}
        merged = _save(folder, _merge(group, keep))
        for seg in group:
            if seg.path is not None:
                seg.path.unlink(missing_ok=True)
        gone = {id(s) for s in group}
        segments = [s for s in segments if id(s) not in gone] + [merged]


def _mergeable(segments: list[Segment]) -> list[Segment] | None:
    """The smallest tier's group of :data:`TIER` or more segments that can merge (two or more whose
    keys add up to at most :data:`MERGE_CAP`), or None."""
    by_tier: dict[int, list[Segment]] = {}
    for seg in segments:
        if seg.path is not None:
            by_tier.setdefault(_tier(seg.keys), []).append(seg)
    for _, group in sorted(by_tier.items()):
        if len(group) < TIER:
            continue
        group = sorted(group, key=lambda s: s.keys)
        while len(group) > 1 and sum(s.keys for s in group) > MERGE_CAP:
            group.pop()
        if len(group) >= 2:
            return group
    return None


def segment_files(root: Path) -> list[Path]:
    """The segment files of ``root``'s index (for listings and checks)."""
    return sorted(index_dir(root).glob(SEGMENT_GLOB))


def remove_index(root: Path) -> int:
    """Remove every segment file of ``root``'s index (it is rebuilt on the next run); returns how many.
    Call under the dedup lock."""
    gone = 0
    for path in [*index_dir(root).glob(SEGMENT_GLOB), *index_dir(root).glob(TEMP_GLOB)]:
        path.unlink(missing_ok=True)
        gone += 1
    return gone
