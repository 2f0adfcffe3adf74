"""A set's stock: verified puzzles a quota run made beyond a level that was already full.

They are not thrown away: ``<set>/_stock/<run_id>-<part>.stock`` holds them (Parquet with the row
schema; named so that no ``*.parquet`` glob, and no Hive-style reader, takes them for puzzles of the
set). A later run with a ``difficulty.quota`` takes from the stock first, oldest first (by run, then
part, then index), level by level in the order of :data:`~pipeline.difficulty.techniques.LEVELS`,
and places those puzzles at its first indices; its manifest lists them under ``from_stock`` (index,
seed, file), so no stock puzzle is used twice and a resumed run takes the same ones. A stock puzzle
keeps its ``seed`` and ``created_at``; it gets the new run's ``index``, ``puzzle_id`` and
``config_hash``, is verified again when used, and is still checked against the catalog.

polars is imported by the functions that read or write the stock, not on import (a run without a
quota, and ``numplace generate``, never touch it).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.atomic import atomic_write
from pipeline.difficulty.techniques import LEVELS
from pipeline.run import rows
from pipeline.run.layout import STOCK, STOCK_GLOB, stock_name
from pipeline.run.manifest import Manifest
from pipeline.run.rows import Row, puzzle_id

if TYPE_CHECKING:
    import polars as pl


def write(set_dir: Path, run_id: str, part: int, surplus: list[Row]) -> None:
    """Keep a part's surplus puzzles (nothing is written for none); whole or not at all."""
    if not surplus:
        return
    import polars as pl

    folder = set_dir / STOCK
    folder.mkdir(parents=True, exist_ok=True)
    frame = pl.DataFrame(surplus, schema=rows.SCHEMA)
    atomic_write(folder / stock_name(run_id, part), lambda tmp: frame.write_parquet(tmp, compression="zstd"))


def available(set_dir: Path, runs: list[Manifest]) -> pl.DataFrame:
    """Stock rows no run has taken yet, oldest first, with the file each comes from (``_file``)."""
    import polars as pl

    files = sorted((set_dir / STOCK).glob(STOCK_GLOB))
    if not files:
        return pl.DataFrame(schema={**rows.SCHEMA, "_file": pl.String()})
    used = {(u["file"], u["seed"]) for m in runs for u in m.data.get("from_stock", [])}
    frame = pl.concat([pl.read_parquet(f).with_columns(pl.lit(f.name).alias("_file")) for f in files])
    keep = [(f, s) not in used for f, s in zip(frame["_file"].to_list(), frame["seed"].to_list(), strict=True)]
    return frame.filter(pl.Series(keep, dtype=pl.Boolean))


def take(set_dir: Path, runs: list[Manifest], quota: dict[str, int], start: int) -> list[dict[str, Any]]:
    """The stock puzzles a new quota run starting at ``start`` uses: ``{"index", "seed", "file"}``,
    at indices ``start, start + 1, ...`` level by level."""
    import polars as pl

    stock = available(set_dir, runs)
    picks: list[dict[str, Any]] = []
    for level in LEVELS:
        want = quota.get(level, 0)
        if not want or stock.height == 0:
            continue
        for row in stock.filter(pl.col("difficulty") == level).head(want).iter_rows(named=True):
            picks.append({"index": start + len(picks), "seed": row["seed"], "file": row["_file"]})
    return picks


def rows_for(set_dir: Path, picks: list[dict[str, Any]], set_name: str, config_hash: str) -> dict[int, Row]:
    """The rows of ``picks``, each renumbered for the index it fills (``puzzle_id``, ``index``,
    ``set_name``, ``config_hash``); everything else as made."""
    import polars as pl

    out: dict[int, Row] = {}
    by_file: dict[str, list[dict[str, Any]]] = {}
    for p in picks:
        by_file.setdefault(p["file"], []).append(p)
    for name, wanted in by_file.items():
        frame = pl.read_parquet(set_dir / STOCK / name)
        found = {r["seed"]: r for r in frame.iter_rows(named=True)}
        for p in wanted:
            row = dict(found[p["seed"]])
            row.update(puzzle_id=puzzle_id(set_name, p["index"]), index=p["index"], set_name=set_name,
                       config_hash=config_hash)
            out[p["index"]] = row
    return out


def levels(set_dir: Path, runs: list[Manifest]) -> dict[str, int]:
    """Stock puzzles still available, per level (for ``numplace runs``)."""
    stock = available(set_dir, runs)
    counts = dict(stock.group_by("difficulty").len().iter_rows()) if stock.height else {}
    return {level: int(counts[level]) for level in LEVELS if level in counts}
