#!/usr/bin/env python3
"""Canonical forms and grid numbers: the compiled kernels against the pure-Python references.

On the same ``--puzzles`` random 9x9 puzzles (``--givens`` givens cut at random from uniform
grids): canonical forms per second by ``canon.canonical_key`` (numba) and by the reference
``canon._canonical_key_py`` (numpy branch and bound; also its batched form), and grid numbers per
second of the puzzles' solutions by ``numbering.grid_number`` (numba) and ``numbering._grid_number_py``.
4x4 and 6x6 forms likewise on ``--small`` random puzzles each. Every compiled answer is checked
against the reference's. Rates are the best of ``--repeat`` passes (the reference: one pass), per
core, in this one process; per-call medians are printed too (robust on a shared machine).

First-call costs are measured in fresh interpreters: with an empty numba cache (the compile) and
again with the cache that run wrote (the load from disk), tables already cached in both.

    .venv/bin/python bench/bench_canon.py [--puzzles 2000] [--givens 25] [--small 300] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FIRST_CALL = """
import time
from pipeline.identity import canon, numbering
g = numbering.uniform_grid(1)
p = tuple(d if i % 3 else 0 for i, d in enumerate(g))
numbering.tables()
t0 = time.perf_counter(); canon.canonical_key(p); t1 = time.perf_counter()
canon.canonical_key((1,) + (0,) * 14 + (2,)); t2 = time.perf_counter()
numbering.grid_number(g); t3 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2)
"""


def first_calls(cache: str) -> list[float]:
    """Seconds of the first canonical_key (9x9), canonical_key (4x4) and grid_number in a fresh
    interpreter whose numba cache is ``cache``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    out = subprocess.run([sys.executable, "-c", FIRST_CALL], cwd=ROOT, env=env, check=True, capture_output=True,
                         text=True)
    return [float(x) for x in out.stdout.split()]


def best_rate(fn: Callable[[Any], object], args: Sequence[Any], repeat: int) -> float:
    """Calls per second of ``fn(a)`` over ``args``, best of ``repeat`` passes."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for a in args:
            fn(a)
        best = min(best, time.perf_counter() - t0)
    return len(args) / best


def median_us(fn: Callable[[Any], object], args: Sequence[Any]) -> float:
    """Median microseconds of one call ``fn(a)`` over ``args``."""
    times = []
    for a in args:
        t0 = time.perf_counter()
        fn(a)
        times.append(time.perf_counter() - t0)
    return 1e6 * statistics.median(times)


def small_grid(n: int, rng: random.Random) -> tuple[int, ...]:
    """A random complete grid of board ``n`` (backtracking, shuffled digits)."""
    from pipeline.board import board

    b = board(n)
    g = [0] * (n * n)

    def fill(i: int) -> bool:
        if i == n * n:
            return True
        for d in rng.sample(range(1, n + 1), n):
            if all(g[j] != d for j in b.peers[i]):
                g[i] = d
                if fill(i + 1):
                    return True
        g[i] = 0
        return False

    fill(0)
    return tuple(g)


def cut(g: Sequence[int], givens: int, rng: random.Random) -> tuple[int, ...]:
    keep = set(rng.sample(range(len(g)), givens))
    return tuple(d if i in keep else 0 for i, d in enumerate(g))


def line(name: str, compiled: float, reference: float, unit: str, extra: str = "") -> None:
    print(f"{name:<28} compiled {compiled:>10,.0f} {unit}   reference {reference:>8,.0f} {unit}   "
          f"x{compiled / reference:,.0f}{extra}")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--puzzles", type=int, default=2000)
    ap.add_argument("--givens", type=int, default=25)
    ap.add_argument("--small", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    from pipeline.board import format_line
    from pipeline.identity import canon
    from pipeline.identity import numbering as nb

    load = os.getloadavg()
    print(f"numplace canon/numbering kernels bench  python {platform.python_version()}  {platform.machine()}  "
          f"cpus={os.cpu_count()}  load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    t0 = time.perf_counter()
    nb.tables()
    canon.tables()
    print(f"tables (loaded or built): {time.perf_counter() - t0:.1f} s")
    with tempfile.TemporaryDirectory() as tmp:
        cold = first_calls(tmp)
        warm = first_calls(tmp)
    print(f"first call, empty numba cache (compile): canonical_key 9x9 {cold[0]:.1f} s, 4x4 {cold[1]:.1f} s, "
          f"grid_number {cold[2]:.1f} s")
    print(f"first call, numba cache on disk (load):  canonical_key 9x9 {warm[0]:.2f} s, 4x4 {warm[1]:.2f} s, "
          f"grid_number {warm[2]:.2f} s")

    rng = random.Random(2026)
    solutions = [nb.uniform_grid(rng) for _ in range(args.puzzles)]
    puzzles = [cut(g, args.givens, rng) for g in solutions]
    canon.canonical_key(puzzles[0])
    nb.grid_number(solutions[0])

    keys = [canon.canonical_key(p) for p in puzzles]
    t0 = time.perf_counter()
    ref_keys = [canon._canonical_key_py(p) for p in puzzles]
    ref_rate = len(puzzles) / (time.perf_counter() - t0)
    assert keys == ref_keys, "compiled and reference canonical forms differ"
    t0 = time.perf_counter()
    batched = canon._canonical_puzzles_py(puzzles)
    batched_rate = len(puzzles) / (time.perf_counter() - t0)
    assert [format_line(f) for f in batched] == keys
    print(f"9x9: {len(puzzles)} puzzles with {args.givens} givens from uniform grids; "
          "every answer equals the reference's")
    line("canonical_key 9x9", best_rate(canon.canonical_key, puzzles, args.repeat), ref_rate, "/s",
         f"   (reference batched {batched_rate:,.0f}/s)")
    print(f"{'':<28} median {median_us(canon.canonical_key, puzzles):.1f} us per call compiled, "
          f"{median_us(canon._canonical_key_py, puzzles[:200]):.0f} us reference")

    numbers = [nb.grid_number(g) for g in solutions]
    t0 = time.perf_counter()
    ref_numbers = [nb._grid_number_py(g) for g in solutions]
    ref_rate = len(solutions) / (time.perf_counter() - t0)
    assert numbers == ref_numbers, "compiled and reference grid numbers differ"
    line("grid_number (solutions)", best_rate(nb.grid_number, solutions, args.repeat), ref_rate, "/s")
    print(f"{'':<28} median {median_us(nb.grid_number, solutions):.1f} us per call compiled, "
          f"{median_us(nb._grid_number_py, solutions[:200]):.0f} us reference")
    t0 = time.perf_counter()
    for g in solutions:
        canon.canonical_grid(g)
    print(f"canonical_grid (solutions)   {len(solutions) / (time.perf_counter() - t0):,.0f} /s (table method, "
          "pure Python, unchanged)")

    for n in (4, 6):
        grids = [small_grid(n, rng) for _ in range(60)]
        small = [cut(rng.choice(grids), rng.randint(n, n * n - n), rng) for _ in range(args.small)]
        canon.canonical_key(small[0])
        t0 = time.perf_counter()
        ref = [canon._canonical_key_py(p) for p in small]
        ref_rate = len(small) / (time.perf_counter() - t0)
        assert [canon.canonical_key(p) for p in small] == ref
        line(f"canonical_key {n}x{n}", best_rate(canon.canonical_key, small, args.repeat), ref_rate, "/s",
             f"   ({len(small)} puzzles)")


if __name__ == "__main__":
    main()
