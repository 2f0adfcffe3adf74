"""Each part file of a run against its own schema and against its run's manifest.

:func:`read_part` reads one part and names what is wrong with it: not readable Parquet; not under the
contract of its ``numplace.schema_version`` (columns and types, no nulls where the contract has none:
:mod:`pipeline.run.rows`); its row count and the sha256 of its bytes differ from what the manifest
recorded when the part was written, and no recorded sha256 or no ``numplace.*`` key-value metadata
at all (both allowed only in a legacy run: :attr:`~pipeline.run.manifest.Manifest.legacy`); an
index outside the part's range of the run; a set name in its key-value metadata that is not the
run's. Only a part that is under its contract (``sound``) has its rows checked.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import polars as pl

from pipeline.run import rows, store
from pipeline.run.audit.manifests import Run, part_label
from pipeline.run.layout import part_shard

#: Columns that may be null (``docs/output.md``): the identity columns of boards without one.
_NULLABLE = rows.NULLABLE


@dataclass
class Part:
    """One part file as read: its rows (None when unreadable), whether they are under the contract
    of its schema version (columns, types, no stray nulls), and its findings."""

    path: Path
    frame: pl.DataFrame | None
    sound: bool
    problems: list[str]


def read_part(run: Run, part: Path) -> Part:
    """The part read, with its findings: not readable, its schema, its manifest record (rows,
    sha256), its index range, its set name."""
    label = part_label(run, part)
    try:
        meta = pl.read_parquet_metadata(part)
        frame = pl.read_parquet(part)
    except BaseException as exc:  # polars raises many types (a Rust panic too) for a damaged file
        if isinstance(exc, KeyboardInterrupt | SystemExit | GeneratorExit | MemoryError):
            raise
        return Part(part, None, False, [f"{label}: not a readable Parquet file ({exc.__class__.__name__})"])
    out: list[str] = []
    raw = meta.get("numplace.schema_version", "1")
    version = int(raw) if raw.isdigit() else rows.SCHEMA_VERSION
    if not raw.isdigit():
        out.append(f"{label}: numplace.schema_version {raw!r} in its key-value metadata is not a number")
    schema = rows.schema_problems(frame, version)
    nulls = [f"column {c} has {frame[c].null_count()} null value(s)" for c in rows.SCHEMA
             if c in frame.columns and c not in _NULLABLE and rows.ADDED_IN.get(c, 1) <= version
             and frame[c].null_count()]
    if schema or nulls:
        out.append(f"{label}: {'; '.join(schema + nulls)}")
    result = Part(part, frame, not (schema or nulls), out)
    m = run.manifest
    if m is None:
        return result
    k = part_shard(part)
    if k is None:
        out.append(f"{label}: not a part name (part-NNNNN.parquet)")
        return result
    rec = m.shards.get(str(k))
    if not isinstance(rec, dict):
        out.append(f"{label}: the manifest of {run.label} has no record of this part")
    else:
        if rec.get("rows") != frame.height:
            out.append(f"{label}: holds {frame.height} puzzles, the manifest records {rec.get('rows')}")
        want = rec.get("sha256")
        if want is None and not m.legacy:
            out.append(f"{label}: the manifest of {run.label} records no sha256 for it, so its bytes cannot be "
                       f"tied to the run (only a legacy run, whose manifest is the old manifest.json, has parts "
                       f"without one)")
        if want is not None:
            have = store.file_sha256(part)
            if have != want:
                out.append(f"{label}: not the file the run wrote (sha256 {have[:16]}..., the manifest records "
                           f"{str(want)[:16]}...)")
    lacking = [k for k in ("numplace.schema_version", "numplace.set_name") if k not in meta]
    if lacking and not m.legacy:
        out.append(f"{label}: no {' and no '.join(lacking)} in its key-value metadata: rewritten by another tool "
                   f"(every part numplace writes carries them; only a legacy run's may lack them)")
    name = meta.get("numplace.set_name")
    if name is not None and m.set_name is not None and name != m.set_name:
        out.append(f"{label}: written for set {name!r} (its key-value metadata), the manifest says {m.set_name!r}")
    size = m.shard_size
    if size and "index" in frame.columns and frame.schema["index"] == pl.Int64():
        lo = m.start + k * size
        hi = min(lo + size, m.start + m.count)
        idx = frame["index"].drop_nulls()
        stray = idx.filter((idx < lo) | (idx >= hi)).to_list()
        if stray and hi > lo:
            more = f" (and {len(stray) - 1} more)" if len(stray) > 1 else ""
            out.append(f"{label}: index {stray[0]}{more} is outside the part's range {lo}-{hi - 1}")
    return result
