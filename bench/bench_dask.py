#!/usr/bin/env python3
"""Puzzles/s of a run on the local executor (1 and 2 workers) and on dask (a LocalCluster of 2
worker processes), the default config, one invocation; plus tasks/s and bytes moved per puzzle.

Each configuration runs in its own child process (this script with ``--child``), writing to a
temporary folder: ``runner.run`` with the executor wrapped to count what crosses the process
boundary: tasks (chunks of indices, and redraws), the pickled task arguments (job, indices,
redraw number) and the pickled results (each item pickled alone: an upper bound of what a chunk's
result pickles to, the same for every executor; dask adds its own framing, a few hundred bytes per
task). With one local worker nothing crosses a process boundary; its figures say what would.
``wall`` is the child's run from loading the config to the summary (for dask: starting the
LocalCluster and its workers included); ``run`` is the manifest's session time (from the first
task to the last part): it includes the start-up of loky's workers, which start with the first
task, but not that of the LocalCluster's, which start (and import numplace) before it. Compare
executors by ``wall``.

    .venv/bin/python bench/bench_dask.py [--count 200] [--config configs/default.yaml]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import pickle
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SETUPS = {"local-1": ("local", 1), "local-2": ("local", 2), "dask-2": ("dask", 2)}


class Counting:
    """An executor that counts the tasks and bytes of the executor it wraps."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.where = inner, inner.where
        self.tasks = self.bytes_in = self.bytes_out = 0

    def map(self, job: Any, chunks: Sequence[list[int]], redraw: int = 0, ordered: bool = False) -> Iterator[Any]:
        self.tasks += len(chunks)
        self.bytes_in += sum(len(pickle.dumps((job, list(c), redraw))) for c in chunks)
        for items in self.inner.map(job, chunks, redraw, ordered):
            self.bytes_out += sum(len(pickle.dumps(it)) for it in items)
            yield items


def child(setup: str, config: Path, count: int, out: Path) -> dict[str, Any]:
    from pipeline import config as cfgmod
    from pipeline.run import execute, runner

    kind, workers = SETUPS[setup]
    counted: list[Counting] = []

    @contextlib.contextmanager
    def counting(cfg: Any, say: Any) -> Iterator[Counting]:
        with execute.open_executor(cfg, say) as ex:
            counted.append(Counting(ex))
            yield counted[-1]

    runner.open_executor = counting  # type: ignore[assignment]
    t0 = time.perf_counter()
    overrides = {"count": count, "workers": workers, "output.dir": str(out),
                 **cfgmod.executor_overrides(kind, None)}
    summary = runner.run(cfgmod.load(config, overrides))
    wall = time.perf_counter() - t0
    manifest = json.loads((summary.run_dir / "_manifest.json").read_text())
    (c,) = counted
    return {"setup": setup, "wall_s": wall, "run_s": manifest["sessions"][-1]["seconds"], "puzzles": summary.written,
            "status": summary.status, "tasks": c.tasks, "bytes_in": c.bytes_in, "bytes_out": c.bytes_out}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", type=Path, default=ROOT / "configs" / "default.yaml")
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--child", choices=list(SETUPS), help=argparse.SUPPRESS)
    ap.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.config, args.count, args.out)))
        return
    print(f"# numplace executor bench: {args.config.name}, {args.count} puzzles, "
          f"{platform.python_version()} on {os.cpu_count()} cores, {time.strftime('%Y-%m-%d %H:%M')}, "
          f"load average {os.getloadavg()[0]:.1f} at start")
    rows = {}
    for setup in SETUPS:
        with tempfile.TemporaryDirectory() as tmp:
            cmd = [sys.executable, __file__, "--child", setup, "--config", str(args.config), "--count",
                   str(args.count), "--out", tmp]
            res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
            if res.returncode != 0:
                sys.exit(f"bench: {setup} failed:\n{res.stderr[-3000:]}")
            rows[setup] = json.loads(res.stdout.strip().splitlines()[-1])
    print(f"{'executor':<9} {'wall s':>7} {'run s':>7} {'puzzles/s':>10} {'(run)':>7} {'tasks':>6} {'tasks/s':>8} "
          f"{'KB in/puzzle':>13} {'KB out/puzzle':>14}")
    for setup, r in rows.items():
        n = max(1, r["puzzles"])
        print(f"{setup:<9} {r['wall_s']:>7.2f} {r['run_s']:>7.2f} {n / r['wall_s']:>10.2f} {n / r['run_s']:>7.2f} "
              f"{r['tasks']:>6} {r['tasks'] / r['run_s']:>8.2f} {r['bytes_in'] / n / 1024:>13.3f} "
              f"{r['bytes_out'] / n / 1024:>14.3f}")
    base = rows["local-1"]
    for setup in ("local-2", "dask-2"):
        r = rows[setup]
        print(f"ratio {setup} / local-1: {base['wall_s'] / r['wall_s']:.2f}x wall, "
              f"{base['run_s'] / r['run_s']:.2f}x run")
    print(f"ratio dask-2 / local-2: {rows['local-2']['wall_s'] / rows['dask-2']['wall_s']:.2f}x wall, "
          f"{rows['local-2']['run_s'] / rows['dask-2']['run_s']:.2f}x run")


if __name__ == "__main__":
    main()
