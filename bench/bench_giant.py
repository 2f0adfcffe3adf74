#!/usr/bin/env python3
"""Cost per puzzle of the giant sizes: 16x16 (configs/giant-16x16.yaml, rot180 orbit-minimal) and 25x25
(configs/giant-25x25.yaml, rot180, 310-330 givens), each puzzle made as a run makes it (the config's spec,
a new set's grid method) and verified, on one core.

    .venv/bin/python bench/bench_giant.py [--n16 8] [--n25 4] [--base CHECKOUT]

Per size: seconds per puzzle (``make_puzzle`` + ``verify_row``), min / median / max, wall and CPU (this
process's ``time.process_time``, the steadier figure on a shared machine), and the mean per phase:
grid, removal pass, grade, minimality checks (each timed by wrapping the function
``pipeline.generate.puzzle`` calls), certificate and the rest (what is left of ``make_puzzle``), and
verification. The compiled kernels are loaded before the first puzzle (a warm worker).

``--base CHECKOUT`` first runs this script on another checkout's ``pipeline`` (e.g. ``git archive`` of an
older commit unpacked in /tmp), in a child process on the same core, so the two tables come from one
invocation. Figures: docs/benchmarks.md "Giant sizes".
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = {16: "giant-16x16.yaml", 25: "giant-25x25.yaml"}
PHASES = {"_grid": "grid", "remove": "removal", "grade": "grade", "minimality": "minimality"}


@contextlib.contextmanager
def phase_clock(wall: dict[str, float], cpu: dict[str, float]) -> Iterator[None]:
    """Add the wall and CPU seconds spent in :data:`PHASES` of ``pipeline.generate.puzzle`` to the dicts."""
    from pipeline.generate import puzzle

    saved = {name: getattr(puzzle, name) for name in PHASES if hasattr(puzzle, name)}

    def timed(f: Callable[..., Any], phase: str) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            t0, c0 = time.perf_counter(), time.process_time()
            try:
                return f(*args, **kwargs)
            finally:
                wall[phase] = wall.get(phase, 0.0) + time.perf_counter() - t0
                cpu[phase] = cpu.get(phase, 0.0) + time.process_time() - c0

        return run

    for name, f in saved.items():
        setattr(puzzle, name, timed(f, PHASES[name]))
    try:
        yield
    finally:
        for name, f in saved.items():
            setattr(puzzle, name, f)


def measure(size: int, n: int) -> list[dict[str, tuple[float, float]]]:
    """Per puzzle: phase -> (wall s, CPU s), with ``make``, ``verify`` and ``total``."""
    import yaml

    from pipeline import board, config, verify
    from pipeline.generate import count_jit
    from pipeline.generate.puzzle import make_puzzle
    from pipeline.generate.spec import puzzle_seed
    from pipeline.generate.version import NEW_SET_METHOD
    from pipeline.run.plan import spec_of

    data = yaml.safe_load((ROOT / "configs" / CONFIGS[size]).read_text())
    try:
        cfg = config.validate(data)
    except config.ConfigError as exc:
        print(f"   {size}x{size}: this checkout refuses {CONFIGS[size]} ({exc})")
        return []
    spec = dataclasses.replace(spec_of(cfg), grid_method=NEW_SET_METHOD)
    count_jit.count((0,) * (size * size), 1)  # load the kernels: a warm worker
    out = []
    for i in range(n):
        wall: dict[str, float] = {}
        cpu: dict[str, float] = {}
        with phase_clock(wall, cpu):
            t0, c0 = time.perf_counter(), time.process_time()
            made = make_puzzle(spec, puzzle_seed(cfg.seed, i))
            make = (time.perf_counter() - t0, time.process_time() - c0)
        res = {k: (wall.get(k, 0.0), cpu.get(k, 0.0)) for k in PHASES.values()}
        rest = (make[0] - sum(w for w, _ in res.values()), make[1] - sum(c for _, c in res.values()))
        res["certificate + rest"] = rest
        row = {"size": size, "puzzle": board.format_line(made.puzzle), "solution": board.format_line(made.solution),
               "hints": made.hints, "symmetry": made.symmetry, "symmetry_requested": made.symmetry_requested}
        t0, c0 = time.perf_counter(), time.process_time()
        assert verify.verify_row(row) == [] and made.certified
        res["verify"] = (time.perf_counter() - t0, time.process_time() - c0)
        res["total"] = (make[0] + res["verify"][0], make[1] + res["verify"][1])
        res["_info"] = (float(made.hints), float(made.difficulty_score))
        print(f"   {size}x{size} #{i}: {made.hints} givens, {made.difficulty} {made.difficulty_score:g}, "
              f"{res['total'][0]:.2f} s wall, {res['total'][1]:.2f} s CPU", flush=True)
        out.append(res)
    return out


def report(size: int, per: list[dict[str, tuple[float, float]]]) -> None:
    print(f"-- {size}x{size} ({CONFIGS[size]}), {len(per)} puzzles, seconds per puzzle")
    tot_w, tot_c = [p["total"][0] for p in per], [p["total"][1] for p in per]
    print(f"   make + verify   wall min {min(tot_w):6.2f}  median {statistics.median(tot_w):6.2f}  "
          f"max {max(tot_w):6.2f}  mean {statistics.mean(tot_w):6.2f}")
    print(f"                   CPU  min {min(tot_c):6.2f}  median {statistics.median(tot_c):6.2f}  "
          f"max {max(tot_c):6.2f}  mean {statistics.mean(tot_c):6.2f}")
    print("   mean per phase  " + "  ".join(f"{k} {statistics.mean(p[k][1] for p in per):.3f}"
                                           for k in (*PHASES.values(), "certificate + rest", "verify")) + " (CPU s)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n16", type=int, default=8)
    ap.add_argument("--n25", type=int, default=4)
    ap.add_argument("--base", type=Path, help="another checkout, measured first in a child process")
    args = ap.parse_args()
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})
    if args.base is not None:
        print(f"# base: {args.base}", flush=True)
        env = {**os.environ, "PYTHONPATH": str(args.base)}
        subprocess.run([sys.executable, __file__, "--n16", str(args.n16), "--n25", str(args.n25)], env=env,
                       cwd=args.base, check=True)
        print(f"# this checkout: {ROOT}", flush=True)
    print(f"# giant sizes, one core, {time.strftime('%Y-%m-%d %H:%M')}, load average "
          f"{os.getloadavg()[0]:.1f}", flush=True)
    for size, n in ((16, args.n16), (25, args.n25)):
        per = measure(size, n) if n else []
        if per:
            report(size, per)
    print(f"# load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
