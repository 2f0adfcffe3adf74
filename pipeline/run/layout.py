"""The names of a set folder and an output root: every file and folder the run writes or reads.

Writers and readers of a set agree on these names alone (the output contract, ``docs/output.md``);
no other module spells them::

    <output.dir>/
        _catalog/<set>--<run_id>.keys       dedup keys of one finished run      CATALOG, catalog_name
        _catalog/damaged/                   entries moved aside by --repair     DAMAGED
        _catalog/_lock                      the root's dedup lock               CATALOG, LOCK
        _catalog/_index/seg-<16 hex>.idx    the catalog's key index (segments)  INDEX, SEGMENT_GLOB
        .catalog/<set>--<run_id>.parquet    the old catalog folder (still read) OLD_CATALOG
        <set>/
            _lock                           one run of the set at a time        LOCK
            _gaps.json                      gaps in the ids recorded as meant   GAPS
            _stock/<run_id>-<part>.stock    a quota run's surplus puzzles       STOCK, stock_name
            .<run_id>.tmp/<run_id>/         a run folder being made             holder_dir
            <run_id>/
                part-00000.parquet ...      the puzzles, one part per shard     part_name, part_shard, parts_in
                _manifest.json              the run's manifest                  MANIFEST, manifest_path
                manifest.json               (runs older than the underscores)   OLD_MANIFEST
                _SUCCESS                    the run is complete                 SUCCESS
                .<name>.XXXX.tmp            a file being written                TEMP_GLOB

A name that starts with ``_`` or ``.`` (:func:`reserved`) is never a set, a run or a part: no reader's
``*.parquet`` glob and no Hive-style reader takes it for puzzles. Catalog and stock files are Parquet
under another suffix for the same reason.
"""

from __future__ import annotations

from pathlib import Path

#: The manifest of a run folder (:mod:`pipeline.run.manifest`).
MANIFEST = "_manifest.json"
#: The manifest of runs written before the underscore names; still read, and kept by a resumed run.
OLD_MANIFEST = "manifest.json"
#: The empty file a complete run gets (the Hive/Spark convention).
SUCCESS = "_SUCCESS"
#: The set's lock file (:mod:`pipeline.run.lock`).
LOCK = "_lock"
#: The record of a set's gaps in its ids that were left on purpose (``numplace accept-gap``).
GAPS = "_gaps.json"
#: The set's stock folder (:mod:`pipeline.run.stock`) and the files in it.
STOCK = "_stock"
STOCK_GLOB = "*.stock"
#: The catalog folder of an output root (:mod:`pipeline.run.store`), the files in it, and the
#: folder of damaged entries that ``numplace catalog --repair`` moves aside (never deleted).
CATALOG = "_catalog"
CATALOG_GLOB = "*.keys"
DAMAGED = "damaged"
#: The folder of the catalog's key index (:mod:`pipeline.run.keyindex`) in the catalog folder, and
#: its segment files (``seg-<16 hex digits>.idx``; ``.seg-*.idx.XXXX.tmp`` while being written).
INDEX = "_index"
SEGMENT_GLOB = "seg-*.idx"
#: The catalog folder before the underscore names (``.catalog/<set>--<run_id>.parquet``; still read).
OLD_CATALOG = ".catalog"
OLD_CATALOG_GLOB = "*.parquet"
#: The part files of a run folder.
PART_GLOB = "part-*.parquet"
#: Files being written by :func:`pipeline.atomic.atomic_write` (``.<name>.XXXX.tmp``), and the
#: ``.<run_id>.tmp`` folders of run folders being made (:func:`holder_dir`).
TEMP_GLOB = ".*.tmp"


def part_name(shard: int) -> str:
    """The file name of part ``shard`` of a run: ``part-00007.parquet``."""
    return f"part-{shard:05d}.parquet"


def part_shard(part: Path) -> int | None:
    """The shard number of a part file named ``part-NNNNN.parquet`` (None for any other name)."""
    stem = part.name.removesuffix(".parquet")
    head, _, digits = stem.partition("-")
    return int(digits) if head == "part" and digits.isdigit() else None


def parts_in(folder: Path) -> list[Path]:
    """The part files directly in ``folder`` (a run folder), sorted by name (= by shard); none if the
    folder is not there, or goes while it is listed (a run folder being made is renamed into place)."""
    try:
        return sorted(folder.glob(PART_GLOB))
    except FileNotFoundError:
        return []


def manifest_path(run_dir: Path) -> Path | None:
    """The manifest file of ``run_dir`` (``_manifest.json``, else an old ``manifest.json``), or None."""
    for name in (MANIFEST, OLD_MANIFEST):
        if (run_dir / name).is_file():
            return run_dir / name
    return None


def holder_dir(set_dir: Path, run_id: str) -> Path:
    """The ``.<run_id>.tmp`` folder in which run folder ``run_id`` is made before it is renamed into
    ``set_dir`` (so a run folder without a manifest never exists)."""
    return set_dir / f".{run_id}.tmp"


def stock_name(run_id: str, part: int) -> str:
    """The stock file of part ``part`` of run ``run_id``: ``<run_id>-00007.stock``."""
    return f"{run_id}-{part:05d}.stock"


def catalog_name(set_name: str, run_id: str) -> str:
    """The catalog file of run ``run_id`` of set ``set_name``: ``<set>--<run_id>.keys``."""
    return f"{set_name}--{run_id}.keys"


def catalog_run(file_name: str) -> tuple[str, str]:
    """``(set name, run id)`` of a catalog file name (new ``.keys`` or old ``.parquet``); empty
    strings where the name has no ``--``."""
    set_name, _, run_id = file_name.rsplit(".", 1)[0].rpartition("--")
    return set_name, run_id


def reserved(name: str) -> bool:
    """Whether a file or folder name is one of the set's own (``_`` or ``.`` first): never a set, a
    run or a part."""
    return name.startswith(("_", "."))


def catalog_file_known(name: str) -> bool:
    """Whether a name in ``<root>/_catalog/`` is one numplace writes there: an entry
    ``<set>--<run_id>.keys``, the root's ``_lock``, the ``damaged/`` folder, the key index's
    ``_index/`` folder (:mod:`pipeline.run.keyindex`), a temp file being written
    (``.<name>.XXXX.tmp``). Everything else is foreign (``numplace catalog`` names it). The
    one list of those names: extend it here when numplace writes a new kind of file there."""
    if name in (LOCK, DAMAGED, INDEX) or (name.startswith(".") and name.endswith(".tmp")):
        return True
    set_name, run_id = catalog_run(name)
    return name.endswith(CATALOG_GLOB.removeprefix("*")) and bool(set_name) and bool(run_id)
