"""Re-verify a written set: schema, duplicates, the manifest's count, and every row independently.

Used by ``numplace check`` and by the tests; the per-row check is :func:`verify.verify_row`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from pipeline import verify
from pipeline.run import rows, store
from pipeline.run.manifest import MANIFEST, read_manifest


@dataclass
class Audit:
    path: Path
    files: int
    rows: int
    problems: list[str] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems


def audit(path: Path, max_reported: int = 20) -> Audit:
    """Check the set, run folder or part file at ``path``; raises StoreError for a bad path."""
    parts = store.part_files(path)
    frame = store.read_parts(parts)
    result = Audit(path, len(parts), frame.height)
    problems = result.problems
    problems += rows.schema_problems(frame)
    if problems:
        return result
    if frame.height == 0:
        problems.append("the set holds no puzzles")
    for col in ("puzzle_id", "puzzle"):
        dup = frame.filter(frame[col].is_duplicated())[col].unique().to_list()
        if dup:
            problems.append(f"{len(dup)} duplicated {col} value(s), e.g. {dup[0]}")
    bad = 0
    for row in frame.iter_rows(named=True):
        found = verify.verify_row(row)
        if found:
            bad += 1
            if bad <= max_reported:
                problems.append(f"{row['puzzle_id']}: {'; '.join(found)}")
    if bad > max_reported:
        problems.append(f"... and {bad - max_reported} more bad rows")
    manifest_path = path / MANIFEST if path.is_dir() else None
    if manifest_path is not None and manifest_path.is_file():
        manifest = read_manifest(path)
        expected = manifest.get("count")
        if manifest.get("status") == "complete" and expected != frame.height:
            problems.append(f"manifest says {expected} puzzles, the parts hold {frame.height}")
        elif manifest.get("status") != "complete":
            problems.append(f"run status is {manifest.get('status')!r}: "
                            f"{frame.height} of {expected} puzzles written (resume it with --resume)")
    h = pl.col("hints")
    mean, lo, hi = frame.select(h.mean().alias("mean"), h.min().alias("lo"), h.max().alias("hi")).row(0)
    result.stats = {
        "bad_rows": bad,
        "sizes": dict(Counter(frame["size"].to_list())),
        "hints_mean": round(mean or 0.0, 2),
        "hints_min": lo,
        "hints_max": hi,
        "symmetry": dict(Counter(frame["symmetry"].to_list()).most_common()),
        "minimal": int(frame["minimal"].sum()),
        "orbit_minimal": int(frame["orbit_minimal"].sum()),
    }
    return result
