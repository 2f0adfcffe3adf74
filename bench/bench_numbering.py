#!/usr/bin/env python3
"""Grid numbering and canonical forms: table build, query latency, throughput (one process).

Builds both tables from scratch in a temporary cache directory (so the figures include the build),
then times, per call: ``grid_number`` and ``grid_from_number`` (mean and worst over ``--queries``),
``uniform_grid``, ``canonical_grid``, ``canonical_puzzle`` and the batched ``canonical_puzzles``.
The compiled kernels' first call (compile, or load from numba's cache) is timed on its own first.
Compiled against reference figures: ``bench/bench_canon.py``.
Everything runs in this one process on one core, so rates are per core.

Puzzles for the canonical-puzzle figures: random 25-given puzzles cut from uniform grids (about
the hint count of minimal puzzles) and the 43 tdoku reference puzzles in tests/data.

    .venv/bin/python bench/bench_numbering.py [--queries 2000] [--grids 3000] [--puzzles 600]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TDOKU = ROOT / "tests" / "data" / "tdoku_test_puzzles.txt"


def per_call(fn, args) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """Mean and worst milliseconds of ``fn(a)`` over ``args``."""
    times = []
    for a in args:
        t0 = time.perf_counter()
        fn(a)
        times.append(time.perf_counter() - t0)
    return 1e3 * sum(times) / len(times), 1e3 * max(times)


def rate(fn, args) -> float:  # type: ignore[no-untyped-def]
    """Calls per second of ``fn(a)`` over ``args`` (best of 3 passes)."""
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        for a in args:
            fn(a)
        best = min(best, time.perf_counter() - t0)
    return len(args) / best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", type=int, default=2000)
    ap.add_argument("--grids", type=int, default=3000)
    ap.add_argument("--puzzles", type=int, default=600)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["NUMPLACE_CACHE_DIR"] = tmp
        from pipeline.board import parse
        from pipeline.identity import canon
        from pipeline.identity import numbering as nb

        print(
            f"numplace numbering/canon bench  python {platform.python_version()}  {platform.machine()}  "
            f"cpus={os.cpu_count()}"
        )
        t0 = time.perf_counter()
        t = nb.tables()
        build = time.perf_counter() - t0
        raw = sum(a.nbytes for a in t.arrays.values())
        disk = (Path(tmp) / f"numbering-v{nb.TABLE_VERSION}.npz").stat().st_size
        nb.reset_tables()
        t0 = time.perf_counter()
        nb.tables()
        load = time.perf_counter() - t0
        t0 = time.perf_counter()
        canon.tables()
        cbuild = time.perf_counter() - t0
        cdisk = (Path(tmp) / f"canon-v{canon.VERSION}.npz").stat().st_size
        print(
            f"numbering tables: build {build:.1f} s, load {load:.2f} s, {raw:,} bytes in memory arrays, "
            f"{disk:,} bytes on disk"
        )
        print(f"canon tables:     build {cbuild:.1f} s, {cdisk:,} bytes on disk")

        # the compiled kernels (grid_number, canonical forms): the first call compiles them or loads
        # numba's disk cache; timed here so the per-call figures below are warm
        t0 = time.perf_counter()
        nb.grid_number(nb.grid_from_number(0))
        t1 = time.perf_counter()
        canon.canonical_puzzle((1,) + (0,) * 80)
        t2 = time.perf_counter()
        print(f"first calls:      grid_number {t1 - t0:.2f} s, canonical_puzzle {t2 - t1:.2f} s "
              "(numba compile, or load from its cache)")

        rng = random.Random(12345)
        numbers = [rng.randrange(nb.N0) for _ in range(args.queries)]
        mean_u, worst_u = per_call(nb.grid_from_number, numbers)
        grids = [nb.grid_from_number(i) for i in numbers]
        mean_r, worst_r = per_call(nb.grid_number, grids)
        assert [nb.grid_number(g) for g in grids[:200]] == numbers[:200]
        print(f"grid_from_number: mean {mean_u:.3f} ms, worst {worst_u:.3f} ms  ({args.queries} queries)")
        print(f"grid_number:      mean {mean_r:.3f} ms, worst {worst_r:.3f} ms  ({args.queries} queries)")
        seeds = list(range(args.queries))
        print(f"uniform_grid:     {rate(nb.uniform_grid, seeds):,.0f} grids/s")

        cgrids = [nb.uniform_grid(s) for s in range(10**6, 10**6 + args.grids)]
        print(f"canonical_grid:   {rate(canon.canonical_grid, cgrids):,.0f} grids/s per core")

        puzzles = []
        for g in cgrids[: args.puzzles]:
            p = list(g)
            for i in rng.sample(range(81), 81 - 25):
                p[i] = 0
            puzzles.append(tuple(p))
        print(
            f"canonical_puzzle: {rate(canon.canonical_puzzle, puzzles):,.0f} puzzles/s per core "
            f"(25 givens, {len(puzzles)} puzzles)"
        )
        t0 = time.perf_counter()
        canon.canonical_puzzles(puzzles)
        print(f"canonical_puzzles (batched): {len(puzzles) / (time.perf_counter() - t0):,.0f} puzzles/s per core")
        if TDOKU.is_file():
            tdoku = []
            for line in TDOKU.read_text().splitlines():
                if line and not line.startswith("#"):
                    with contextlib.suppress(ValueError):
                        tdoku.append(canon.check_puzzle(parse(line.split(":")[0], 9)))
            print(
                f"canonical_puzzle: {rate(canon.canonical_puzzle, tdoku):,.0f} puzzles/s per core "
                f"(tdoku reference set, {len(tdoku)} puzzles without conflicts)"
            )


if __name__ == "__main__":
    main()
