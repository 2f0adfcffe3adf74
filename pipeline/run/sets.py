"""What an output root holds, for ``numplace runs``: its sets, their runs and their stock; and what a
set or run folder still lacks, for the commands that publish it (:func:`require_complete`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline.errors import UserError
from pipeline.run import history, stock
from pipeline.run.layout import manifest_path, reserved
from pipeline.run.lock import SetLock
from pipeline.run.manifest import UNFINISHED, Manifest, runs_of, sum_counts


def overview(root: Path) -> list[dict[str, Any]]:
    """Every set under the output root ``root`` with its runs, for ``numplace runs``: per set ``set``, ``runs``
    (each ``run_id``, ``status``, ``start``, ``count``, ``puzzles`` written, ``levels`` (easy to extreme:
    :func:`by_level`), ``created_at``, ``unfinished``: stopped before its range was made, and so finished first
    by the next run of the set; a ``running`` run is unfinished when no process holds the set's lock),
    ``puzzles``, ``next_index`` (the first index the next run gets), ``unfinished`` (the run folders of the
    unfinished runs), ``stock`` (level -> stock puzzles not taken yet) and ``problems``
    (:func:`pipeline.run.history.review`: gaps in the set's ids, runs deleted by hand, runs that disagree on the
    keys that define a set; one line each)."""
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
                         "levels": by_level(sum_counts(s.get("levels", {}) for s in shards)),
                         "created_at": m.data.get("created_at"),
                         "unfinished": m.status in UNFINISHED and not (m.status == "running" and busy)})
        out.append({"set": set_dir.name, "runs": rows, "puzzles": sum(r["puzzles"] for r in rows),
                    "next_index": max(m.start + m.count for m in runs),
                    "unfinished": [str(m.run_dir) for m, r in zip(runs, rows, strict=True) if r["unfinished"]],
                    "stock": stock.levels(set_dir, runs), "problems": history.review(set_dir, runs)})
    return out


def by_level(counts: dict[str, int]) -> dict[str, int]:
    """``counts`` in the order of the levels, easy to extreme (:data:`~pipeline.difficulty.techniques.LEVELS`),
    then any other key by name: the same order for every run, whatever order its shards were written in."""
    from pipeline.difficulty.techniques import LEVELS

    return dict(sorted(counts.items(), key=lambda kv: (LEVELS.index(kv[0]) if kv[0] in LEVELS else len(LEVELS), kv[0])))


class IncompleteSet(UserError, ValueError):
    """A set or run folder to publish whose runs are not all complete (the message says what is
    missing and how to go on)."""


def missing(path: Path) -> list[str]:
    """What the set folder or run folder ``path`` lacks: one phrase per run that is not ``complete``
    (its status, the puzzles written of its range, failures). A part file, or a folder that holds no
    run, lacks nothing here."""
    if not path.is_dir():
        return []
    if manifest_path(path) is not None:
        found = [Manifest.read(path, strict=False)]
    else:
        found = [Manifest.read(d, strict=False) for d in sorted(path.iterdir())
                 if d.is_dir() and not reserved(d.name) and manifest_path(d) is not None]
    out = []
    for m in found:
        if m.status == "complete":
            continue
        records = [r for r in m.shards.values() if isinstance(r, dict)]
        written = sum(r.get("rows", 0) for r in records)
        failed = sum(len(r.get("failures", [])) for r in records)
        why = f", {failed} failed (not retried by --resume)" if failed else ""
        out.append(f"run {m.run_dir.name} is {m.status}: {written} of the {m.count} puzzles of indices "
                   f"{m.start}-{m.start + m.count - 1} written{why}")
    return out


def require_complete(paths: list[Path] | tuple[Path, ...], allow_incomplete: bool = False) -> None:
    """Raise :class:`IncompleteSet` naming what is missing when a run of a set or run folder in
    ``paths`` is not complete, unless ``allow_incomplete`` (``export`` and ``book`` call this first)."""
    if allow_incomplete:
        return
    lines = [f"{p}: {what}" for p in paths for what in missing(Path(p))]
    if lines:
        raise IncompleteSet(f"{'; '.join(lines)}; finish it first (numplace run CONFIG --resume RUN_DIR), or pass "
                            "--allow-incomplete to publish what is there")
