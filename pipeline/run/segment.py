"""The segment files of the catalog's key index (:mod:`pipeline.run.keyindex`): their layout
(:func:`_encode`), and the check that a file is a whole, undamaged segment before anything trusts it
(:func:`check_segment`: a CRC-32 over the header and arrays, then the arrays' structure)."""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

    Hashes = npt.NDArray[np.uint64]

#: The first 8 bytes of a segment file, and the version of the format and of
#: :func:`pipeline.run.keyindex.key_hashes`.
MAGIC = b"NPKIDX2\n"
#: The first format (no checksum): still recognised, never trusted (its entries are indexed again).
OLD_MAGIC = b"NPKIDX1\n"
#: An entry file's identity when its segment was built: (size, mtime_ns, inode).
Stamp = tuple[int, int, int]

@dataclass
class Segment:
    """One segment: the entries it covers (name, stamp, key count), its sorted hashes and, beside
    each, the number of its entry."""

    path: Path | None
    entries: list[tuple[str, Stamp, int]]
    hashes: Hashes
    entry_of: npt.NDArray[np.uint32]

    @property
    def keys(self) -> int:
        return int(self.hashes.shape[0])


def _encode(entries: list[tuple[str, Stamp, int]], hashes: Hashes, entry_of: npt.NDArray[np.uint32],
            tmp: Path) -> None:
    """Write a segment: :data:`MAGIC`; the header's length as a little-endian uint64; the header (UTF-8
    JSON: ``{"keys": n, "entries": [[name, size, mtime_ns, inode, keys], ...]}``) padded with spaces
    to a multiple of 8 bytes; ``n`` little-endian uint64 hashes, ascending; ``n`` little-endian uint32
    entry numbers (positions in ``entries``); the CRC-32 (``zlib.crc32``) of every byte before it,
    as a little-endian uint32; :data:`MAGIC` again (a file cut short lacks it)."""
    head = json.dumps({"keys": int(hashes.shape[0]),
                       "entries": [[name, *st, n] for name, st, n in entries]}).encode()
    head += b" " * (-(len(MAGIC) + 8 + len(head)) % 8)
    blocks = [MAGIC, len(head).to_bytes(8, "little"), head,
              np.ascontiguousarray(hashes, dtype="<u8").tobytes(),
              np.ascontiguousarray(entry_of, dtype="<u4").tobytes()]
    crc = 0
    with open(tmp, "wb") as fh:
        for block in blocks:
            fh.write(block)
            crc = zlib.crc32(block, crc)
        fh.write(crc.to_bytes(4, "little"))
        fh.write(MAGIC)


class BadSegment(ValueError):
    """A segment file that is not a whole, verified segment of this format (the message says why)."""


#: Segment files verified by this process: path -> the ``(size, mtime_ns, inode, ctime_ns)`` it had
#: (segments are immutable and renamed into place, and no one can set a file's ctime, so the same
#: stamp is the same verified bytes).
_VERIFIED: dict[Path, tuple[int, int, int, int]] = {}


def read_segment(path: Path) -> Segment | None:
    """The segment at ``path`` (hashes and entry numbers memory-mapped), or None when the file is not
    a whole, verified segment of this version (:func:`check_segment` says why)."""
    try:
        return check_segment(path)
    except BadSegment:
        return None


def check_segment(path: Path) -> Segment:
    """The segment at ``path``, verified: its checksum, and hashes ascending, entry numbers inside
    the entry list, key counts matching; raises :class:`BadSegment` saying what is wrong."""
    try:
        st = path.stat()
        size = st.st_size
        with open(path, "rb") as fh:
            magic = fh.read(len(MAGIC))
            if magic == OLD_MAGIC:
                raise BadSegment("the first segment format, without a checksum")
            if magic != MAGIC:
                raise BadSegment("not a segment file (wrong first bytes)")
            hlen = int.from_bytes(fh.read(8), "little")
            if hlen > size:
                raise BadSegment("header longer than the file")
            raw_head = fh.read(hlen)
            fh.seek(size - len(MAGIC))
            if fh.read(len(MAGIC)) != MAGIC:
                raise BadSegment("cut short (no end marker)")
            at = len(MAGIC) + 8 + hlen
            if (size - at - 4 - len(MAGIC)) % 12:
                raise BadSegment("arrays of the wrong length")
            n = (size - at - 4 - len(MAGIC)) // 12
            ident = (size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)
            known = _VERIFIED.get(path) == ident
            if not known:
                _verify_crc(fh, at + 12 * n)
        head = json.loads(raw_head)
        entries = [(str(e[0]), (int(e[1]), int(e[2]), int(e[3])), int(e[4])) for e in head["entries"]]
    except BadSegment:
        raise
    except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
        raise BadSegment(f"unreadable ({exc.__class__.__name__})") from None
    if int(head["keys"]) != n or sum(e[2] for e in entries) != n:
        raise BadSegment("key counts do not match the arrays")
    if n == 0:
        seg = Segment(path, entries, np.empty(0, np.uint64), np.empty(0, np.uint32))
    else:
        seg = Segment(path, entries, np.memmap(path, dtype="<u8", mode="r", offset=at, shape=(n,)),
                      np.memmap(path, dtype="<u4", mode="r", offset=at + 8 * n, shape=(n,)))
    if not known:
        _verify_arrays(seg)
        _VERIFIED[path] = ident
    return seg


def _verify_crc(fh: Any, end: int) -> None:
    """Compare the CRC-32 of the first ``end`` bytes of the open segment ``fh`` with the one stored after them."""
    fh.seek(0)
    crc, left = 0, end
    while left > 0:
        block = fh.read(min(left, 1 << 22))
        if not block:
            raise BadSegment("cut short")
        crc = zlib.crc32(block, crc)
        left -= len(block)
    if fh.read(4) != crc.to_bytes(4, "little"):
        raise BadSegment("checksum mismatch (damaged)")


def _verify_arrays(seg: Segment) -> None:
    """Raise :class:`BadSegment` unless ``seg``'s hashes ascend, its entry numbers name its entries
    and each entry's key count is the number of hashes naming it."""
    if seg.keys == 0:
        return
    hashes = np.asarray(seg.hashes)
    if bool((hashes[1:] < hashes[:-1]).any()):
        raise BadSegment("hashes out of order")
    owners = np.asarray(seg.entry_of)
    if int(owners.max()) >= len(seg.entries):
        raise BadSegment("an entry number outside the entry list")
    counts = np.bincount(owners, minlength=len(seg.entries))
    if counts.tolist() != [e[2] for e in seg.entries]:
        raise BadSegment("entry key counts do not match the entry numbers")


