"""Parquet on disk for runs: atomic part files, reading sets back, the catalog of dedup keys.

Layout of a run: ``<output.dir>/<set_name>/<run_id>/part-NNNNN.parquet`` plus ``manifest.json``
(:mod:`pipeline.run.manifest`). The columns are :data:`pipeline.run.rows.SCHEMA`.
Part ``k`` holds puzzle indices ``[k*shard_size, (k+1)*shard_size)`` in index order. Every file is
written under a temporary name in the same folder and renamed into place (atomic on POSIX), so a
reader sees a part or manifest whole or not at all. A part file existing means its shard is done.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import polars as pl

from pipeline.atomic import atomic_write
from pipeline.run.rows import SCHEMA


class StoreError(ValueError):
    """A path that is not what the command needs; the message names it."""


def part_name(shard: int) -> str:
    return f"part-{shard:05d}.parquet"


def write_part(run_dir: Path, shard: int, rows: Iterable[Mapping[str, Any]]) -> Path:
    """Write one shard's rows (already verified) as a part file, atomically."""
    frame = pl.DataFrame(list(rows), schema=SCHEMA)
    path = run_dir / part_name(shard)
    atomic_write(path, lambda tmp: frame.write_parquet(tmp, compression="zstd", statistics=True))
    return path


def done_shards(run_dir: Path) -> set[int]:
    """Shards whose part file exists (and so is complete: parts appear only by rename)."""
    out = set()
    for p in run_dir.glob("part-*.parquet"):
        try:
            out.add(int(p.stem.split("-")[1]))
        except (IndexError, ValueError):
            continue
    return out


def clean_temp(run_dir: Path) -> int:
    """Remove temp files a killed run left behind; returns how many."""
    n = 0
    for p in run_dir.glob(".*.tmp"):
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
    parts = sorted(path.glob("part-*.parquet")) or sorted(path.glob("*/part-*.parquet"))
    if not parts:
        raise StoreError(f"{path}: no part-*.parquet files here or in its run folders")
    return parts


def read_parts(parts: Iterable[Path]) -> pl.DataFrame:
    """Concatenate part files; raises :class:`StoreError` naming a file that is not readable."""
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

CATALOG = ".catalog"
CATALOG_SCHEMA: dict[str, pl.DataType] = {
    "key": pl.String(), "size": pl.Int32(), "set_name": pl.String(), "run_id": pl.String(),
    "puzzle_id": pl.String(),
}


def catalog_files(root: Path) -> list[str]:
    """Names of the catalog files under ``root`` (one per finished run), sorted."""
    folder = root / CATALOG
    return sorted(p.name for p in folder.glob("*.parquet")) if folder.is_dir() else []


def catalog_keys(root: Path, names: Iterable[str]) -> set[str]:
    """The dedup keys held by the catalog files ``names`` (a snapshot; missing files are skipped)."""
    keys: set[str] = set()
    for name in names:
        path = root / CATALOG / name
        if path.is_file():
            keys.update(pl.read_parquet(path, columns=["key"])["key"].to_list())
    return keys


def catalog_name(set_name: str, run_id: str) -> str:
    return f"{set_name}--{run_id}.parquet"


def write_catalog(root: Path, set_name: str, run_id: str, rows: list[dict[str, Any]]) -> None:
    """Record a run's keys. One file per run, written whole by rename: two runs never write the
    same file, so concurrent runs need no lock (neither sees the other's puzzles until both end)."""
    folder = root / CATALOG
    folder.mkdir(parents=True, exist_ok=True)
    frame = pl.DataFrame(rows, schema=CATALOG_SCHEMA)
    atomic_write(folder / catalog_name(set_name, run_id), lambda tmp: frame.write_parquet(tmp))


def read_catalog(root: Path) -> pl.DataFrame:
    """The whole catalog under ``root`` (empty frame if there is none)."""
    names = catalog_files(root)
    if not names:
        return pl.DataFrame(schema=CATALOG_SCHEMA)
    return pl.concat([pl.read_parquet(root / CATALOG / n) for n in names])
