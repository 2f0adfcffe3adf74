#!/usr/bin/env python3
"""Puzzles/s of `numplace run` on the default config, 1 worker vs 2 workers, in one invocation.

Each configuration runs as its own `numplace run` child process (start-up and imports included, as a
user sees it), writing to a temporary folder. Figures come from the wall clock of the child and
from the run's manifest (ILP solves and generation time per puzzle). Prints a table and the ratio.

    .venv/bin/python bench/bench_run.py [--count 120] [--config configs/default.yaml]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def one(config: Path, count: int, workers: int, out: Path) -> dict[str, float]:
    cmd = [sys.executable, "-m", "pipeline", "run", str(config), "--count", str(count),
           "--workers", str(workers), "--out", str(out)]
    t0 = time.perf_counter()
    res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if res.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed:\n{res.stderr}")
    manifest = json.loads(next(out.glob("*/*/_manifest.json")).read_text())
    totals = manifest["totals"]
    return {
        "wall_s": wall,
        "rate": totals["puzzles"] / wall,
        "run_rate": totals["puzzles"] / manifest["sessions"][-1]["seconds"],
        "ilp_per_puzzle": totals["ilp_solves"] / totals["puzzles"],
        "gen_ms": 1000 * totals["gen_seconds"] / totals["puzzles"],
        "rss_mb": manifest["sessions"][-1].get("worker_peak_rss_mb", float("nan")),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", type=Path, default=ROOT / "configs" / "default.yaml")
    ap.add_argument("--count", type=int, default=120)
    args = ap.parse_args()
    print(f"# numplace run bench: {args.config.name}, {args.count} puzzles, "
          f"{platform.python_version()} on {os.cpu_count()} cores, {time.strftime('%Y-%m-%d')}")
    rows = {}
    for workers in (1, 2):
        with tempfile.TemporaryDirectory() as tmp:
            rows[workers] = one(args.config, args.count, workers, Path(tmp))
    print(f"{'workers':>7} {'wall s':>8} {'puzzles/s':>10} {'(excl. start-up)':>17} {'ILP solves/puzzle':>18} "
          f"{'gen ms/puzzle':>14} {'peak RSS/worker MB':>19}")
    for w, r in rows.items():
        print(f"{w:>7} {r['wall_s']:>8.2f} {r['rate']:>10.2f} {r['run_rate']:>17.2f} {r['ilp_per_puzzle']:>18.1f} "
              f"{r['gen_ms']:>14.1f} {r['rss_mb']:>19.0f}")
    print(f"ratio 2 workers / 1 worker: {rows[2]['rate'] / rows[1]['rate']:.2f}x "
          f"(excl. start-up {rows[2]['run_rate'] / rows[1]['run_rate']:.2f}x)")


if __name__ == "__main__":
    main()
