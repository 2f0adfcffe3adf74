#!/usr/bin/env python3
"""Where the time goes, per phase, for one worker: start-up, grid, removal, certification,
verification, Parquet. Also 16x16 seconds per puzzle. One process, one core, in one run.

    .venv/bin/python bench/profile_phases.py [--n 200] [--n16 5]

Phases per puzzle come from `generate.make_puzzle`'s own `phase_ms` (grid = the ILP random grid;
removal = the removal pass and the minimality checks; certify = the one ILP no-good solve), plus
`verify.verify_row` and `store.write_part` timed here. Start-up is measured in child processes.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def startup() -> dict[str, float]:
    def wall(*args: str) -> float:
        t0 = time.perf_counter()
        subprocess.run([sys.executable, *args], cwd=ROOT, check=True, capture_output=True)
        return time.perf_counter() - t0

    return {
        "python -c pass": wall("-c", "pass"),
        "import pipeline.cli": wall("-c", "import pipeline.cli"),
        "import engine+fastcount": wall("-c", "import pipeline.ilp.engine, pipeline.generate.fastcount"),
        "generate --count 1": wall("-m", "pipeline", "generate", "--count", "1"),
    }


def phases(n_puzzles: int, engine: str, size: int = 9) -> dict[str, float]:
    from pipeline import board, verify
    from pipeline.generate import fastcount
    from pipeline.generate.puzzle import make_puzzle
    from pipeline.generate.spec import Spec, puzzle_seed
    from pipeline.ilp.engine import engine_for
    from pipeline.run import runner, store

    t0 = time.perf_counter()
    engine_for(size)
    build = time.perf_counter() - t0
    t0 = time.perf_counter()
    fastcount.count((0,) * (size * size), 1)
    jit = time.perf_counter() - t0
    spec = Spec(size=size, symmetry="rot180", minimal=True, engine=engine)
    grid, removal, certify, ver, total, rows, orbmin = [], [], [], [], [], [], 0
    b = board.board(size)
    for i in range(n_puzzles):
        t0 = time.perf_counter()
        made = make_puzzle(spec, puzzle_seed(7, i))
        total.append(time.perf_counter() - t0)
        ph = made.phase_ms
        grid.append(ph["grid"])
        removal.append(ph["removal"])
        certify.append(ph["certify"])
        orbmin += bool(made.orbit_minimal)
        row = {"size": size, "puzzle": board.format_line(made.puzzle),
               "solution": board.format_line(made.solution), "hints": made.hints,
               "symmetry": made.symmetry, "symmetry_requested": made.symmetry_requested}
        t0 = time.perf_counter()
        assert verify.verify_row(row) == []
        ver.append((time.perf_counter() - t0) * 1000)
        rows.append(row)
    del b
    full_rows = [dict(r, puzzle_id=str(k), set_name="s", config_hash="h", seed=k, index=k, box_rows=3, box_cols=3,
                      minimal=False, orbit_minimal=True, ilp_solves=1, gen_ms=1.0,
                      created_at=dt.datetime.now(dt.UTC), numplace_version="x", attempts=1)
                 for k, r in enumerate(rows)]
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        store.write_part(Path(tmp), 0, full_rows, "profile")
        parquet = (time.perf_counter() - t0) * 1000 / n_puzzles
    _ = runner  # imported for the same import cost as a worker
    return {
        "engine build ms": build * 1000, "numba load ms": jit * 1000,
        "grid ms": statistics.mean(grid), "removal+minimality ms": statistics.mean(removal),
        "certify ms": statistics.mean(certify), "verify ms": statistics.mean(ver), "parquet ms": parquet,
        "make_puzzle ms": statistics.mean(total) * 1000, "puzzles/s (make+verify)":
            1000 / (statistics.mean(total) * 1000 + statistics.mean(ver)),
        "orbit-minimal %": 100 * orbmin / n_puzzles,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--n16", type=int, default=5, help="16x16 puzzles to time (0: skip)")
    args = ap.parse_args()
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})  # the other core than peer_bench's
    print(f"# phase profile, 9x9 rot180 orbit-minimal, {args.n} puzzles, one core, {time.strftime('%Y-%m-%d')}")
    for k, v in startup().items():
        print(f"start-up  {k:<28} {v * 1000:8.0f} ms")
    for engine in ("hybrid", "ilp"):
        n = args.n if engine == "hybrid" else max(10, args.n // 10)
        res = phases(n, engine)
        print(f"-- engine {engine} ({n} puzzles)")
        for k, v in res.items():
            print(f"   {k:<28} {v:10.2f}")
    if args.n16:
        res = phases(args.n16, "hybrid", size=16)
        print(f"-- 16x16 rot180 orbit-minimal, hybrid ({args.n16} puzzles)")
        print(f"   seconds per puzzle          {res['make_puzzle ms'] / 1000:10.2f}")
        print(f"   grid s / removal s / certify s  {res['grid ms'] / 1000:.2f} / "
              f"{res['removal+minimality ms'] / 1000:.2f} / {res['certify ms'] / 1000:.2f}; "
              f"verify s {res['verify ms'] / 1000:.2f}")
        print(f"   orbit-minimal %             {res['orbit-minimal %']:10.0f}")


if __name__ == "__main__":
    main()
