#!/usr/bin/env python3
"""Grades per second: the pure-Python solver against the compiled path, same puzzles.

Input: JSON lines from ``numplace generate --format json`` (fields ``puzzle`` and ``solution``), or
made on the spot when no file is given (slow: the generator certifies every puzzle).

    .venv/bin/numplace generate --count 1000 --seed 1 --format json > /tmp/graded.jsonl
    .venv/bin/python bench/bench_grade.py /tmp/graded.jsonl [--repeats 3] [--profile]

Each path grades every puzzle ``--repeats`` times (after one warm-up puzzle, so numba's compile or
cache load is not counted); the best pass is reported, since the machine may be shared. Both paths
must give the same grades; the script checks that on every puzzle and exits 1 if not.
``--profile`` adds, for the pure-Python path, how often each technique is tried and applies, and
its time share.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pipeline.board import Grid, parse
from pipeline.difficulty import logic
from pipeline.difficulty.grade import Grade, grade


def load(path: str | None, count: int) -> list[tuple[Grid, Grid]]:
    if path is None:
        out = subprocess.run([sys.executable, "-m", "pipeline", "generate", "--count", str(count), "--seed", "1",
                              "--format", "json"], capture_output=True, text=True, check=True).stdout
        lines = out.splitlines()
    else:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    rows = [json.loads(ln) for ln in lines if ln.strip()][:count]
    return [(parse(r["puzzle"]), parse(r["solution"])) for r in rows]


def timed(puzzles: list[tuple[Grid, Grid]], compiled: bool, repeats: int) -> tuple[float, list[Grade]]:
    grade(*puzzles[0], compiled=compiled)  # warm-up (compile / cache load)
    best = float("inf")
    grades: list[Grade] = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        grades = [grade(p, s, compiled=compiled) for p, s in puzzles]
        best = min(best, time.perf_counter() - t0)
    return best, grades


def profile(puzzles: list[tuple[Grid, Grid]]) -> None:
    """Calls, hits and time per technique of the pure-Python path."""
    calls: Counter[str] = Counter()
    hits: Counter[str] = Counter()
    spent: Counter[str] = Counter()
    saved = dict(logic._FINDERS)

    def wrap(name: str, f: Callable[..., Any]) -> Callable[..., Any]:
        def g(st: Any, ctx: Any) -> Any:
            t0 = time.perf_counter()
            r = f(st, ctx)
            spent[name] += time.perf_counter() - t0
            calls[name] += 1
            hits[name] += r is not None
            return r
        return g

    for name, f in saved.items():
        logic._FINDERS[name] = wrap(name, f)
    try:
        t0 = time.perf_counter()
        for p, s in puzzles:
            grade(p, s, compiled=False)
        total = time.perf_counter() - t0
    finally:
        logic._FINDERS.update(saved)
    k = len(puzzles)
    print(f"\n## profile of the pure-Python path ({1000 * total / k:.2f} ms/puzzle with timers)")
    print("| technique | tried/puzzle | applied/puzzle | ms/puzzle | share | µs/try |")
    print("|---|---|---|---|---|---|")
    for name in saved:
        if calls[name]:
            print(f"| {name} | {calls[name] / k:.2f} | {hits[name] / k:.2f} | {1000 * spent[name] / k:.3f} | "
                  f"{100 * spent[name] / total:.1f} % | {1e6 * spent[name] / calls[name]:.0f} |")
    rest = total - sum(spent.values())
    print(f"| (driver, state updates, trial and error, grading) | | | {1000 * rest / k:.3f} | "
          f"{100 * rest / total:.1f} % | |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("path", nargs="?", help="JSON lines of generated puzzles (default: generate them)")
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    puzzles = load(args.path, args.count)
    ref_s, ref = timed(puzzles, False, args.repeats)
    fast_s, fast = timed(puzzles, True, args.repeats)
    k = len(puzzles)
    levels = Counter(g.level for g in ref)
    print(f"# {k} puzzles ({', '.join(f'{lv} {c}' for lv, c in levels.items())}); best of {args.repeats}")
    print("| path | grades/s | ms/puzzle |")
    print("|---|---|---|")
    print(f"| pure Python (compiled=False) | {k / ref_s:.0f} | {1000 * ref_s / k:.2f} |")
    print(f"| compiled (compiled=True) | {k / fast_s:.0f} | {1000 * fast_s / k:.2f} |")
    print(f"speed-up x{ref_s / fast_s:.1f}")
    same = sum(a == b and a.steps == b.steps for a, b in zip(ref, fast, strict=True))
    print(f"identical grades (level, score, techniques, steps): {same}/{k}")
    if args.profile:
        profile(puzzles)
    if same != k:
        sys.exit(1)


if __name__ == "__main__":
    main()
