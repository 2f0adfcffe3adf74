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
from pipeline.run.manifest import Manifest, manifest_path, runs_of


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
    problems += rows.schema_problems(frame, min(store.schema_version(p) for p in parts))
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
    problems += _manifest_problems(path)
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


def _manifest_problems(path: Path) -> list[str]:
    """What the manifests of the run folder or set folder ``path`` say against its parts: a run
    that is not complete, or a complete run whose parts hold another number of puzzles."""
    if not path.is_dir():
        return []
    runs = [Manifest.read(path)] if manifest_path(path) is not None else runs_of(path)
    out = []
    for m in runs:
        name, status = m.run_dir.name, m.status
        held = sum(pl.scan_parquet(p).select(pl.len()).collect().item() for p in m.run_dir.glob("part-*.parquet"))
        if status == "complete" and held != m.count:
            out.append(f"run {name}: manifest says {m.count} puzzles, the parts hold {held}")
        elif status == "incomplete":
            out.append(f"run {name} finished with failures: {held} of {m.count} puzzles written (failed puzzles "
                       f"are not retried by --resume; see its manifest)")
        elif status != "complete":
            out.append(f"run {name} is {status}: {held} of {m.count} puzzles written; finish it with "
                       f"numplace run CONFIG --resume {m.run_dir}")
    return out
