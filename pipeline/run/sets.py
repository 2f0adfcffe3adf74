"""What an output root holds, for ``numplace runs``: its sets, their runs and their stock."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline.run import stock
from pipeline.run.lock import SetLock
from pipeline.run.manifest import UNFINISHED, runs_of, sum_counts


def overview(root: Path) -> list[dict[str, Any]]:
    """Every set under the output root ``root`` with its runs, for ``numplace runs``: per set
    ``set``, ``runs`` (each ``run_id``, ``status``, ``start``, ``count``, ``puzzles`` written,
    ``levels``, ``created_at``, ``unfinished``: stopped before its range was made, and so finished
    first by the next run of the set; a ``running`` run is unfinished when no process holds the set's
    lock), ``puzzles``, ``next_index`` (the first index the next run gets), ``unfinished`` (the run
    folders of the unfinished runs) and ``stock`` (level -> stock puzzles not taken yet)."""
    out = []
    for set_dir in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(("_", "."))):
        runs = runs_of(set_dir)
        if not runs:
            continue
        rows = []
        busy = SetLock.busy(set_dir)
        for m in runs:
            shards = m.data.get("shards", {}).values()
            rows.append({"run_id": m.run_dir.name, "status": m.status, "start": m.start, "count": m.count,
                         "puzzles": sum(s.get("rows", 0) for s in shards),
                         "levels": sum_counts(s.get("levels", {}) for s in shards),
                         "created_at": m.data.get("created_at"),
                         "unfinished": m.status in UNFINISHED and not (m.status == "running" and busy)})
        out.append({"set": set_dir.name, "runs": rows, "puzzles": sum(r["puzzles"] for r in rows),
                    "next_index": max(m.start + m.count for m in runs),
                    "unfinished": [str(m.run_dir) for m, r in zip(runs, rows, strict=True) if r["unfinished"]],
                    "stock": stock.levels(set_dir, runs)})
    return out
