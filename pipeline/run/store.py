"""Parquet on disk for runs: atomic part files, reading sets back, the catalog of dedup keys.

Layout (the output contract, ``docs/output.md``; every name is spelled in :mod:`pipeline.run.layout`):

* ``<output.dir>/<set>/<run_id>/part-NNNNN.parquet``: the puzzles. Part ``k`` of a run that starts at
  index ``s`` holds indices ``[s + k*shard_size, s + (k+1)*shard_size)`` in index order; each part
  carries ``numplace.schema_version`` and ``numplace.set_name`` in its Parquet key-value metadata.
  The columns are :data:`pipeline.run.rows.SCHEMA`.
* Beside the parts only underscore names: ``_manifest.json`` and ``_SUCCESS``
  (:mod:`pipeline.run.manifest`), so a run or set folder reads as a Hive-style dataset.
* ``<output.dir>/<set>/_lock`` (:mod:`pipeline.run.lock`) and ``<output.dir>/_catalog/*.keys``: no
  reader's ``*.parquet`` glob reaches them.

Every file is written under a temporary name in the same folder and renamed into place, so a reader
sees a part or manifest whole or not at all. A part file existing means its shard is done: the run's
manifest records the part's row count and the sha256 of its bytes (computed on the temporary file,
saved before the rename: :func:`write_part`'s ``before_rename``), which ``numplace check`` compares.

polars is imported by the functions that read or write Parquet, not on import, so a command that
only makes rows (``numplace generate``) never loads it.
"""

from __future__ import annotations

import fnmatch
import hashlib
import os
import time
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.atomic import atomic_write
from pipeline.errors import UserError
from pipeline.run.layout import (
    CATALOG,
    CATALOG_GLOB,
    DAMAGED,
    MANIFEST,
    OLD_CATALOG,
    OLD_CATALOG_GLOB,
    OLD_MANIFEST,
    PART_GLOB,
    SUCCESS,
    TEMP_GLOB,
    catalog_file_known,
    catalog_name,
    catalog_run,
    part_name,
    parts_in,
    reserved,
)
from pipeline.run.rows import SCHEMA_VERSION, dedup_key

if TYPE_CHECKING:
    import polars as pl

    from pipeline.run.keyindex import KeyIndex, SeenKeys


class StoreError(UserError, ValueError):
    """A path that is not what the command needs; the message names it."""


#: What :func:`write_part` hands to its ``before_rename`` callback about the part it wrote: the
#: file name, its row count and the sha256 (hex) of the file's bytes, as they will be on disk.
PartStats = dict[str, Any]


def write_part(run_dir: Path, shard: int, rows: Iterable[Mapping[str, Any]], set_name: str,
               before_rename: Callable[[PartStats], object] | None = None) -> Path:
    """Write one shard's rows (already verified) as a part file, atomically, with the schema
    version and the set name in its key-value metadata.

    ``before_rename`` (if given) is called with the part's :data:`PartStats` (``part``, ``rows``,
    ``sha256``) once the temporary file is complete and before it is renamed into place; whatever it
    records (the run's manifest) is thus saved before the part appears. If it raises, no part
    appears and the exception propagates (a full device as :class:`~pipeline.atomic.DiskFull`)."""
    import polars as pl

    from pipeline.run.rows import SCHEMA

    frame = pl.DataFrame(list(rows), schema=SCHEMA)
    path = run_dir / part_name(shard)
    meta = {"numplace.schema_version": str(SCHEMA_VERSION), "numplace.set_name": set_name}

    def write(tmp: Path) -> None:
        frame.write_parquet(tmp, compression="zstd", statistics=True, metadata=meta)
        if before_rename is not None:
            before_rename({"part": path.name, "rows": frame.height, "sha256": file_sha256(tmp)})

    atomic_write(path, write)
    return path


def file_sha256(path: Path) -> str:
    """The sha256 of the bytes of ``path``, as 64 hex digits (raises OSError if unreadable)."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def schema_version(part: Path) -> int:
    """The ``numplace.schema_version`` a part was written with (1 for parts written before parts
    carried it)."""
    import polars as pl

    try:
        meta = pl.read_parquet_metadata(part)
    except Exception as exc:  # polars raises several types for a damaged file
        raise StoreError(f"{part}: not a readable Parquet file ({exc.__class__.__name__})") from None
    return int(meta.get("numplace.schema_version", "1"))


def done_shards(run_dir: Path) -> set[int]:
    """Shards whose part file exists (and so is complete: parts appear only by rename)."""
    out = set()
    for p in run_dir.glob(PART_GLOB):
        try:
            out.add(int(p.stem.split("-")[1]))
        except (IndexError, ValueError):
            continue
    return out


def clean_temp(run_dir: Path) -> int:
    """Remove temp files a killed run left behind; returns how many."""
    n = 0
    for p in run_dir.glob(TEMP_GLOB):
        p.unlink(missing_ok=True)
        n += 1
    return n


def part_files(path: Path) -> list[Path]:
    """The part files a path stands for: a part file, a run folder, or a set folder of runs."""
    if not path.exists():
        raise StoreError(f"{path}: no such file or folder")
    if path.is_file():
        if path.suffix != ".parquet":
            raise StoreError(f"{path}: not a Parquet file")
        return [path]
    parts = parts_in(path) or sorted(path.glob(f"*/{PART_GLOB}"))
    if not parts:
        raise StoreError(f"{path}: no {PART_GLOB} files here or in its run folders")
    return parts


def read_parts(parts: Iterable[Path]) -> pl.DataFrame:
    """Concatenate part files; raises :class:`StoreError` naming a file that is not readable."""
    import polars as pl

    from pipeline.run.rows import SCHEMA

    frames = []
    for p in parts:
        try:
            frames.append(pl.read_parquet(p))
        except Exception as exc:  # polars raises several types for a damaged file
            raise StoreError(f"{p}: not a readable Parquet file ({exc.__class__.__name__})") from None
    return pl.concat(frames, how="diagonal_relaxed") if frames else pl.DataFrame(schema=SCHEMA)


# ---------------------------------------------------------------------------------------------
# The catalog of canonical puzzles under an output root (dedup across sets and runs)
# ---------------------------------------------------------------------------------------------

@cache
def _catalog_schema() -> dict[str, pl.DataType]:
    """:data:`CATALOG_SCHEMA`: the columns of a catalog file."""
    import polars as pl

    return {"key": pl.String(), "size": pl.Int32(), "set_name": pl.String(), "run_id": pl.String(),
            "puzzle_id": pl.String()}


def __getattr__(name: str) -> Any:
    """``CATALOG_SCHEMA``: built (and polars imported) on first access."""
    if name == "CATALOG_SCHEMA":
        return _catalog_schema()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def catalog_files(root: Path) -> list[str]:
    """The catalog files under ``root`` as paths relative to it, sorted: one per finished run whose
    run folder still exists (deleting a run folder unpublishes its puzzles)."""
    found = [p for p in (root / CATALOG).glob(CATALOG_GLOB)] + [p for p in (root / OLD_CATALOG).glob(OLD_CATALOG_GLOB)]
    runs: dict[str, set[str]] = {}  # set name -> its run folders: one listing per set, not a stat per entry
    out = []
    for p in found:
        set_name, run_id = catalog_run(p.name)
        if set_name not in runs:
            runs[set_name] = {d.name for d in _subdirs(root / set_name)} if set_name else set()
        if run_id in runs[set_name] or (root / set_name / run_id).is_dir():
            out.append(str(p.relative_to(root)))
    return sorted(out)


def unused_catalog_files(root: Path) -> list[str]:
    """One line per file in ``<root>/_catalog/`` that the catalog does not use, saying what it is:
    a name numplace does not write there (:func:`~pipeline.run.layout.catalog_file_known`), or an
    entry whose run folder does not exist under ``root`` (deleted, renamed, or not numplace's)."""
    folder = root / CATALOG
    if not folder.is_dir():
        return []
    out = []
    for p in sorted(folder.iterdir()):
        if not catalog_file_known(p.name):
            out.append(f"{p}: not a file numplace writes here (catalog entries are <set>--<run_id>.keys); it is "
                       f"ignored: move it out of {folder}")
        elif p.is_file() and p.name.endswith(CATALOG_GLOB.removeprefix("*")):
            set_name, run_id = catalog_run(p.name)
            if not (root / set_name / run_id).is_dir():
                out.append(f"{p}: an entry of run {run_id} of set {set_name}, but {root / set_name / run_id} does "
                           f"not exist (deleted, renamed, or not numplace's): its keys are ignored (numplace check "
                           f"{root / set_name} tells a deleted run's gap)")
    return out


def _catalog_path(root: Path, name: str) -> Path:
    """A catalog entry as a manifest records it: relative to the root, or (older manifests) a bare
    file name in the old catalog folder."""
    return root / name if "/" in name else root / OLD_CATALOG / name


def damaged_catalog(path: Path, root: Path, why: str) -> StoreError:
    """The one-line error for a damaged catalog file, with what to do."""
    return StoreError(f"{path}: damaged catalog file ({why}); run: numplace catalog --repair --out {root} "
                      f"(moves it to {root / CATALOG / DAMAGED} and rebuilds the entry from its run's parts)")


def _read_entry(path: Path, root: Path, columns: list[str] | None = None) -> pl.DataFrame:
    """One catalog file read whole (or ``columns`` of it); raises :class:`StoreError` naming a
    damaged file (not Parquet, or not the catalog's columns)."""
    import polars as pl

    try:
        frame = pl.read_parquet(path, columns=columns)
    except Exception as exc:  # polars raises several types for a damaged file
        raise damaged_catalog(path, root, f"not a readable Parquet file: {exc.__class__.__name__}") from None
    want = columns or list(_catalog_schema())
    wrong = [c for c in want if c not in frame.columns or frame.schema[c] != _catalog_schema()[c]]
    if wrong:
        raise damaged_catalog(path, root, f"column(s) {', '.join(wrong)} missing or of another type")
    return frame.select(want)


def entry_run(root: Path, name: str) -> Path:
    """The run folder a catalog entry ``name`` (as :func:`catalog_files` gives it) stands for."""
    set_name, run_id = catalog_run(Path(name).name)
    return root / set_name / run_id


def parts_in_entries(root: Path, names: Iterable[str], parts: Iterable[Path]) -> set[Path]:
    """The part files of ``parts`` whose keys the catalog entries ``names`` hold.

    A complete run's entry holds all its parts: the session that wrote its last part wrote the entry
    from them, then ``_SUCCESS``. Any other run's entry was written when one of its sessions closed,
    and a later session may have written more parts and been killed before it wrote the entry again
    (``kill -9``): of such a run a part is held only if the entry lists every ``puzzle_id`` of it
    (no file times are trusted: a copy or a ``touch`` changes them). Parts of runs whose entry has
    gone, and parts or entries that cannot be read, are not held. Take this before reading the
    entries' keys: an entry rewritten since holds at least as much."""
    entries = {entry_run(root, name): _catalog_path(root, name) for name in names}
    complete: dict[Path, bool] = {}
    ids: dict[Path, set[str]] = {}
    out: set[Path] = set()
    for p in parts:
        run_dir, entry = p.parent, entries.get(p.parent)
        if entry is None:
            continue
        if run_dir not in complete:
            complete[run_dir] = (run_dir / SUCCESS).is_file() and entry.is_file()
        if complete[run_dir]:
            out.add(p)
            continue
        try:
            if entry not in ids:
                ids[entry] = _ids_of(entry)
            if _ids_of(p) <= ids[entry]:
                out.add(p)
        except StoreError:
            continue
    return out


def _ids_of(path: Path) -> set[str]:
    """The ``puzzle_id`` column of a part or catalog file; raises :class:`StoreError` if it cannot be read."""
    import polars as pl

    try:
        return set(pl.read_parquet(path, columns=["puzzle_id"])["puzzle_id"].to_list())
    except Exception as exc:  # polars raises several types for a damaged file
        raise StoreError(f"{path}: {exc.__class__.__name__}") from None


def catalog_keys(root: Path, names: Iterable[str]) -> set[str]:
    """The dedup keys published by the catalog entries ``names`` (a snapshot), read whole into a set
    (runs use :func:`snapshot_keys`, which answers the same without holding them). The catalog is an
    index of the runs' parts: an entry whose file has gone is read from its run's part files
    instead, and only a run whose folder was deleted too has unpublished its puzzles (see
    :func:`missing_entries`). Raises :class:`StoreError` naming a damaged file."""
    keys: set[str] = set()
    for name in names:
        path = _catalog_path(root, name)
        if path.is_file():
            keys.update(_read_entry(path, root, ["key"])["key"].to_list())
        else:
            keys.update(part_keys(parts_in(entry_run(root, name))))
    return keys


def entry_ids(root: Path, name: str) -> dict[str, str]:
    """``puzzle_id -> dedup key`` of the catalog entry ``name`` (relative to ``root``, as
    :func:`catalog_files` gives it): what the run that wrote it published. Raises
    :class:`StoreError` naming a damaged file (``FileNotFoundError`` if it has gone)."""
    frame = _read_entry(_catalog_path(root, name), root, ["puzzle_id", "key"])
    return dict(zip(frame["puzzle_id"].to_list(), frame["key"].to_list(), strict=True))


def set_entries(root: Path, set_name: str) -> list[str]:
    """Every catalog entry of set ``set_name`` under ``root`` (relative to it, sorted), whether or not
    its run folder still exists (:func:`catalog_files` gives only those that do)."""
    found = sorted((root / CATALOG).glob(CATALOG_GLOB)) + sorted((root / OLD_CATALOG).glob(OLD_CATALOG_GLOB))
    return [str(p.relative_to(root)) for p in found if catalog_run(p.name)[0] == set_name]


def missing_entries(root: Path, names: Iterable[str]) -> list[str]:
    """The entries of ``names`` whose catalog file has gone (for a run to say so)."""
    return [n for n in names if not _catalog_path(root, n).is_file()]


def part_keys(parts: Iterable[Path]) -> set[str]:
    """The dedup keys of the puzzles in ``parts`` (files that have gone are skipped: their run
    folder was deleted, which unpublishes them)."""
    import polars as pl

    keys: set[str] = set()
    for p in parts:
        if p.is_file():
            frame = read_parts([p])
            if "canonical_puzzle" not in frame.columns:  # a part older than the column: exact copies only
                frame = frame.with_columns(pl.lit(None, pl.String()).alias("canonical_puzzle"))
            cols = [c for c in ("puzzle", "canonical_puzzle", "variant", "regions", "cages") if c in frame.columns]
            keys.update(dedup_key(r) for r in frame.select(cols).iter_rows(named=True))
    return keys


def uncataloged_parts(root: Path, names: Iterable[str]) -> list[str]:
    """Part files (relative to ``root``) of the runs under ``root`` that have no catalog entry among
    ``names``: runs still being made, or killed and never resumed. Finished parts count as
    published the moment they exist, so a new run dedups against these too."""
    entered = {entry_run(root, n) for n in names}
    out: list[str] = []
    for set_dir in _subdirs(root, hidden=True):
        for run_dir in _subdirs(set_dir, hidden=True):
            if run_dir in entered:
                continue
            listing = _names(run_dir)
            if MANIFEST in listing or OLD_MANIFEST in listing:
                out += [f"{set_dir.name}/{run_dir.name}/{n}" for n in _parts_of(listing)]
    return out


def _names(folder: Path) -> list[str]:
    """The names in ``folder`` (none if it is not a readable folder)."""
    try:
        return os.listdir(folder)
    except OSError:
        return []


def _subdirs(folder: Path, hidden: bool = False) -> list[Path]:
    """The folders in ``folder`` that are sets or runs (not :func:`~pipeline.run.layout.reserved`;
    with ``hidden``, reserved names too, but the catalog folders and ``.<run_id>.tmp`` folders: a
    set or run folder hidden by hand is read by the polars and duckdb globs, so its parts count),
    sorted by name; one directory listing, no stat per entry where the file system tells the type."""
    try:
        with os.scandir(folder) as it:
            found = [e.name for e in it if (not reserved(e.name) or (hidden and e.name not in (CATALOG, OLD_CATALOG)
                                                                      and not e.name.endswith(".tmp")))
                     and e.is_dir()]
    except OSError:
        return []
    return [folder / n for n in sorted(found)]


def _parts_of(listing: Iterable[str]) -> list[str]:
    """The part file names among the names of a run folder, sorted (as :func:`parts_in` gives them)."""
    return sorted(n for n in listing if fnmatch.fnmatchcase(n, PART_GLOB))


class PartsWatch:
    """The part files of every run folder under an output root, as ``uncataloged_parts(root, [])``
    lists them, for a run that asks again before each part it writes (other runs' new parts count
    as published): a folder is listed again only when its modification time changed since it was
    listed, or was within :attr:`SETTLE_NS` of the clock then (a change in the same tick of a
    coarse clock leaves the time as it was), so a root of thousands of runs costs one ``stat`` per
    folder per part, not one listing."""

    SETTLE_NS = 2_000_000_000

    def __init__(self, root: Path) -> None:
        self.root = root
        self._seen: dict[Path, tuple[int, list[str], list[str]]] = {}  # folder -> (mtime_ns, subfolders, names)

    def _list(self, folder: Path) -> tuple[list[str], list[str]]:
        """(sub-folders that are sets or runs, all names) of ``folder``, listed again only if it changed."""
        try:
            mtime = folder.stat().st_mtime_ns
        except OSError:
            self._seen.pop(folder, None)
            return [], []
        old = self._seen.get(folder)
        if old is not None and old[0] == mtime:
            return old[1], old[2]
        now = time.time_ns()
        names = _names(folder)
        subs = [p.name for p in _subdirs(folder, hidden=True)]
        if mtime < now - self.SETTLE_NS:
            self._seen[folder] = (mtime, subs, names)
        else:
            self._seen.pop(folder, None)
        return subs, names

    def parts(self) -> list[Path]:
        """The part files of the runs (folders with a manifest) of every set under the root, in the
        order of :func:`uncataloged_parts`."""
        out: list[Path] = []
        for set_name in self._list(self.root)[0]:
            set_dir = self.root / set_name
            for run_name in self._list(set_dir)[0]:
                run_dir = set_dir / run_name
                names = self._list(run_dir)[1]
                if MANIFEST in names or OLD_MANIFEST in names:
                    out += [run_dir / n for n in _parts_of(names)]
        return out


def check_catalog(root: Path, names: Iterable[str], say: Callable[..., None] | None = None) -> None:
    """Raise :class:`StoreError` naming the first damaged catalog file of ``names``, with what to do.
    A run calls this before it creates anything. Every entry the key index does not cover yet (see
    :func:`catalog_index`) is read whole, and indexed; an entry the index covers was read whole when
    it was indexed, and its file has not changed since (same size, mtime and inode). A bad index
    segment is removed, told to ``say`` (a run's log), and its entries are indexed again."""
    catalog_index(root, names, say)


def catalog_index(root: Path, names: Iterable[str], say: Callable[..., None] | None = None) -> KeyIndex:
    """The key index (:mod:`pipeline.run.keyindex`) of the catalog entries ``names`` (a snapshot)
    whose file exists, brought up to date under the root's dedup lock: ``key in index`` is
    ``key in catalog_keys(root, names)`` for those entries, without holding their keys. Raises
    :class:`StoreError` naming a damaged file (read whole when it is indexed)."""
    from pipeline.run import keyindex
    from pipeline.run.lock import dedup_lock

    files = {n: _catalog_path(root, n) for n in names}

    def read_keys(name: str) -> list[str]:
        keys: list[str] = _read_entry(files.get(name, _catalog_path(root, name)), root)["key"].to_list()
        return keys

    return keyindex.open_index(root, files, read_keys, lambda: dedup_lock(root), say)


def snapshot_keys(root: Path, names: Iterable[str]) -> SeenKeys:
    """The dedup keys published by the catalog entries ``names`` (a snapshot), as
    :func:`catalog_keys` gives them, held as a :class:`~pipeline.run.keyindex.SeenKeys`: the entries
    whose file exists through the key index, those whose file has gone from their run's part files."""
    from pipeline.run.keyindex import SeenKeys

    names = list(names)
    extra: set[str] = set()
    for name in missing_entries(root, names):
        extra.update(part_keys(parts_in(entry_run(root, name))))
    return SeenKeys(catalog_index(root, names), extra)


def clean_catalog_temp(root: Path, entry: str | None = None) -> list[Path]:
    """Remove the temp files (``.<entry>.XXXX.tmp``) a process killed while writing a catalog entry
    left in ``<root>/_catalog``: those of the entry named ``entry`` (a run cleans its own, since
    other runs may be writing theirs), or every one (``entry`` None: only while no run writes into
    ``root``). Returns the files removed."""
    folder = root / CATALOG
    pattern = f".{entry}.*.tmp" if entry is not None else TEMP_GLOB
    gone = [p for p in sorted(folder.glob(pattern)) if p.is_file()]
    for p in gone:
        p.unlink(missing_ok=True)
    return gone


def repair_catalog(root: Path) -> list[str]:
    """Remove the temp files of catalog entries a killed run left half-written; move every damaged
    catalog file under ``root`` (new ``_catalog/*.keys`` and old ``.catalog/*.parquet``) to
    ``<root>/_catalog/damaged/`` (kept, never deleted) and, where the run folder still exists, write
    its entry again from the run's part files; then remove every bad key index segment (a failed
    checksum, cut short, the first format) and index its entries again. Returns one line per file
    removed or moved, saying what was done. Only call it while no run writes into ``root``."""
    done = _repair_entries(root)
    done += _repair_index(root)
    return done


def bad_segments(root: Path) -> list[str]:
    """One line per bad key index segment of ``root`` (:func:`pipeline.run.keyindex.check_segment`),
    with what to do (``numplace catalog`` prints them; a run removes and rebuilds them itself)."""
    from pipeline.run import keyindex

    return [f"{path}: bad key index segment ({why}); it is not trusted: the next run, or numplace catalog "
            f"--repair --out {root}, removes it and indexes its entries again" for path, why in
            keyindex.scan_segments(root)[1]]


def _repair_index(root: Path) -> list[str]:
    """Remove the bad key index segments of ``root`` and index their entries again; one line each."""
    from pipeline.run import keyindex
    from pipeline.run.lock import dedup_lock

    if not keyindex.index_dir(root).is_dir():
        return []
    with dedup_lock(root):
        lines = keyindex.drop_bad(keyindex.scan_segments(root)[1])
    if lines:
        catalog_index(root, catalog_files(root))
        lines = [f"{line} (done: {len(keyindex.segment_files(root))} segment(s) now)" for line in lines]
    return lines


def _repair_entries(root: Path) -> list[str]:
    """:func:`repair_catalog`'s work on the catalog entries."""
    found = sorted((root / CATALOG).glob(CATALOG_GLOB)) + sorted((root / OLD_CATALOG).glob(OLD_CATALOG_GLOB))
    done = [f"removed {p}, a catalog entry left half-written by a killed run" for p in clean_catalog_temp(root)]
    for path in found:
        try:
            _read_entry(path, root)
            continue
        except StoreError:
            pass
        bin_dir = root / CATALOG / DAMAGED
        bin_dir.mkdir(parents=True, exist_ok=True)
        target = bin_dir / path.name
        k = 1
        while target.exists():
            k += 1
            target = bin_dir / f"{path.name}.{k}"
        path.rename(target)
        line = f"moved damaged {path} to {target}"
        set_name, run_id = catalog_run(path.name)
        run_dir = root / set_name / run_id
        parts = parts_in(run_dir) if set_name and run_id and run_dir.is_dir() else []
        if parts:
            frame = read_parts(parts)
            write_catalog(root, set_name, run_id, [
                {"key": dedup_key(r), "size": r["size"], "set_name": r["set_name"], "run_id": run_id,
                 "puzzle_id": r["puzzle_id"]} for r in frame.iter_rows(named=True)])
            line += f"; rebuilt {CATALOG}/{catalog_name(set_name, run_id)} from {len(parts)} part file(s) of {run_dir}"
        else:
            line += "; its run folder has no part files, so nothing was rebuilt"
        done.append(line)
    return done


def write_catalog(root: Path, set_name: str, run_id: str, rows: list[dict[str, Any]]) -> str:
    """Record a run's keys; returns the entry's name relative to ``root``. One file per run, written
    whole by rename: two runs never write the same file."""
    import polars as pl

    return write_catalog_frame(root, set_name, run_id, pl.DataFrame(rows, schema=_catalog_schema()))


def write_catalog_frame(root: Path, set_name: str, run_id: str, frame: pl.DataFrame) -> str:
    """:func:`write_catalog` of a frame of the catalog's columns (:data:`CATALOG_SCHEMA`, in order)."""
    folder = root / CATALOG
    folder.mkdir(parents=True, exist_ok=True)
    atomic_write(folder / catalog_name(set_name, run_id), lambda tmp: frame.write_parquet(tmp))
    return f"{CATALOG}/{catalog_name(set_name, run_id)}"


def read_catalog(root: Path) -> pl.DataFrame:
    """The catalog under ``root`` (every entry of a run folder that still exists; empty frame if none).
    Raises :class:`StoreError` naming a damaged file."""
    import polars as pl

    names = catalog_files(root)
    if not names:
        return pl.DataFrame(schema=_catalog_schema())
    return pl.concat([_read_entry(_catalog_path(root, n), root) for n in names])
