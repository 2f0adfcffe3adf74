"""Everything that touches disk: the Parquet schema, atomic part files, the manifest, reading sets.

Layout of a run: ``<output.dir>/<set_name>/<run_id>/part-NNNNN.parquet`` plus ``manifest.json``.
Part ``k`` holds puzzle indices ``[k*shard_size, (k+1)*shard_size)`` in index order. Every file is
written under a temporary name in the same folder and renamed into place (atomic on POSIX), so a
reader sees a part or manifest whole or not at all. A part file existing means its shard is done.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import polars as pl

# The output contract (DESIGN.md "Output"); columns may be added, never renamed or re-typed.
SCHEMA: dict[str, pl.DataType] = {
    "puzzle_id": pl.String(),
    "set_name": pl.String(),
    "config_hash": pl.String(),
    "seed": pl.Int64(),
    "index": pl.Int64(),
    "size": pl.Int32(),
    "box_rows": pl.Int32(),
    "box_cols": pl.Int32(),
    "puzzle": pl.String(),
    "solution": pl.String(),
    "hints": pl.Int32(),
    "symmetry": pl.String(),
    "symmetry_requested": pl.String(),
    "minimal": pl.Boolean(),
    "orbit_minimal": pl.Boolean(),
    "ilp_solves": pl.Int32(),
    "gen_ms": pl.Float64(),
    "created_at": pl.Datetime("us", "UTC"),
    "numplace_version": pl.String(),
    "attempts": pl.Int32(),
    "difficulty": pl.String(),
    "difficulty_score": pl.Float64(),
    "techniques": pl.List(pl.String()),
    "logic_steps": pl.Int32(),
    "grid_number": pl.String(),
    "canonical_puzzle": pl.String(),
}

MANIFEST = "manifest.json"


class StoreError(ValueError):
    """A path that is not what the command needs; the message names it."""


def part_name(shard: int) -> str:
    return f"part-{shard:05d}.parquet"


def _atomic_write(path: Path, write: Any) -> None:
    """Call ``write(tmp_path)`` then rename the temp file onto ``path``."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        write(Path(tmp))
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_part(run_dir: Path, shard: int, rows: Iterable[Mapping[str, Any]]) -> Path:
    """Write one shard's rows (already verified) as a part file, atomically."""
    frame = pl.DataFrame(list(rows), schema=SCHEMA)
    path = run_dir / part_name(shard)
    _atomic_write(path, lambda tmp: frame.write_parquet(tmp, compression="zstd", statistics=True))
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


def write_manifest(run_dir: Path, manifest: Mapping[str, Any]) -> None:
    text = json.dumps(manifest, indent=2, sort_keys=False, default=str) + "\n"
    _atomic_write(run_dir / MANIFEST, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def read_manifest(run_dir: Path) -> dict[str, Any]:
    path = run_dir / MANIFEST
    if not path.is_file():
        raise StoreError(f"{run_dir}: not a numplace run folder (no {MANIFEST})")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise StoreError(f"{path}: unreadable manifest ({exc})") from None
    if not isinstance(data, dict) or "config" not in data:
        raise StoreError(f"{path}: not a numplace manifest (no config)")
    return data


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


def schema_problems(frame: pl.DataFrame) -> list[str]:
    """Columns of the contract that are missing or have another type."""
    out = []
    for name, dtype in SCHEMA.items():
        if name not in frame.columns:
            out.append(f"column {name} is missing")
        elif frame.schema[name] != dtype:
            out.append(f"column {name} is {frame.schema[name]}, expected {dtype}")
    return out


def write_table(path: Path, rows: list[dict[str, Any]], schema: Mapping[str, pl.DataType]) -> None:
    """Write ``rows`` to the Parquet file ``path`` atomically (its folder must exist)."""
    if not path.parent.is_dir():
        raise StoreError(f"{path.parent}: no such folder for the output file")
    frame = pl.DataFrame(rows, schema=dict(schema))
    _atomic_write(path, lambda tmp: frame.write_parquet(tmp, compression="zstd"))


def write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (its folder must exist)."""
    if not path.parent.is_dir():
        raise StoreError(f"{path.parent}: no such folder for the output file")
    _atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def read_puzzle_column(path: Path) -> list[str]:
    """The ``puzzle`` column of a Parquet or CSV file, as strings (null -> empty string)."""
    try:
        if path.suffix == ".parquet":
            frame = pl.read_parquet(path, columns=None)
        else:
            frame = pl.read_csv(path, infer_schema_length=0)
    except Exception as exc:  # polars raises several types for damaged files
        raise StoreError(f"{path}: cannot read it as {path.suffix[1:].upper()} ({exc.__class__.__name__})") from None
    if "puzzle" not in frame.columns:
        raise StoreError(f"{path}: no 'puzzle' column (columns: {', '.join(frame.columns) or 'none'})")
    return ["" if v is None else str(v) for v in frame["puzzle"].to_list()]


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
    _atomic_write(folder / catalog_name(set_name, run_id), lambda tmp: frame.write_parquet(tmp))


def read_catalog(root: Path) -> pl.DataFrame:
    """The whole catalog under ``root`` (empty frame if there is none)."""
    names = catalog_files(root)
    if not names:
        return pl.DataFrame(schema=CATALOG_SCHEMA)
    return pl.concat([pl.read_parquet(root / CATALOG / n) for n in names])
