#!/usr/bin/env python3
"""Where the time goes, per phase, for one worker: start-up, grid, removal, certification,
verification, Parquet. Also 16x16 seconds per puzzle, verification included. One process, one core.

    .venv/bin/python bench/profile_phases.py [--n 200] [--n16 5] [--oracle] [--hybrid-only] [--grid METHOD]

Phases per 9x9 puzzle, wall and CPU ms (CPU = `time.process_time`, the steadier figure on a shared
machine): grid, removal pass, grade and minimality checks (each by wrapping the function
`generate.puzzle` calls), certify + rest (the rest of `make_puzzle`), the row (`run.rows.build_row`,
its canonical form and grid number also timed alone), `verify.verify_row` and `store.write_part`;
`numba load ms` is the first call of the removal counter and of the verifier's counter (their kernels
come from numba's on-disk cache). Start-up is measured in child processes.

The 16x16 block (rot180, minimal rule, hybrid engine) times each phase in wall and CPU seconds (CPU =
this process's `time.process_time`, the steadier figure on a shared machine): grid, removal pass,
grade, minimality checks (each by wrapping the function `generate.puzzle` calls), certify (the rest
of `make_puzzle`), and `verify_row` (its uniqueness count is the compiled `verify.count_jit` counter).
`--oracle` also times the pure-Python counter `verify.independent_count` on each 16x16 puzzle, the
oracle of the compiled counter. Figures: docs/benchmarks.md "Per phase".
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parents[1]


def startup() -> dict[str, float]:
    def wall(*args: str) -> float:
        t0 = time.perf_counter()
        subprocess.run([sys.executable, *args], cwd=ROOT, check=True, capture_output=True)
        return time.perf_counter() - t0

    return {
        "python -c pass": wall("-c", "pass"),
        "import pipeline.cli": wall("-c", "import pipeline.cli"),
        "import engine+count_jit": wall("-c", "import pipeline.ilp.engine, pipeline.generate.count_jit"),
        "generate --count 1": wall("-m", "pipeline", "generate", "--count", "1"),
    }


def _warm_verifier() -> None:
    """Load the verifier's compiled counter (numba's on-disk cache), so that `verify ms` is per puzzle."""
    from pipeline import verify

    assert verify.verify_row({"size": 4, "puzzle": "1234341221434321", "solution": "1234341221434321",
                              "hints": 16, "symmetry": "full", "symmetry_requested": "none"}) == []


def phases(n_puzzles: int, engine: str, size: int = 9, grid_method: str = "weighted-lp") -> dict[str, float]:
    """Per 9x9 puzzle, mean ms: each phase of ``make_puzzle`` (wall and CPU), the row (``build_row``,
    with its canonical form and grid number also timed alone), ``verify_row`` and the Parquet write."""
    from pipeline import board, verify
    from pipeline.generate import count_jit
    from pipeline.generate.puzzle import make_puzzle
    from pipeline.generate.spec import Spec, puzzle_seed
    from pipeline.identity import canon, numbering
    from pipeline.ilp.engine import engine_for
    from pipeline.run import rows as rowmod
    from pipeline.run import runner, store

    t0 = time.perf_counter()
    engine_for(size)
    build = time.perf_counter() - t0
    t0 = time.perf_counter()
    count_jit.count((0,) * (size * size), 1)
    _warm_verifier()
    jit = time.perf_counter() - t0
    spec = Spec(size=size, symmetry="rot180", minimal=True, engine=engine, grid_method=grid_method)
    wall: dict[str, float] = {}
    cpu: dict[str, float] = {}

    def add(phase: str, w: float, c: float) -> None:
        wall[phase] = wall.get(phase, 0.0) + w
        cpu[phase] = cpu.get(phase, 0.0) + c

    def timed(phase: str, f: Callable[[], Any]) -> Any:
        t0, c0 = time.perf_counter(), time.process_time()
        out = f()
        add(phase, time.perf_counter() - t0, time.process_time() - c0)
        return out

    rows, orbmin = [], 0
    rowmod.build_row(make_puzzle(spec, puzzle_seed(7, 10**6)), set_name="s", config_hash="h", index=0, seed=0)
    for i in range(n_puzzles):
        clock = _PhaseClock()
        with clock.patched():
            made = timed("make_puzzle", lambda i=i: make_puzzle(spec, puzzle_seed(7, i)))
        for k in clock.wall:
            add(k, clock.wall[k], clock.cpu[k])
        orbmin += bool(made.orbit_minimal)
        row = timed("build_row", lambda i=i, made=made: rowmod.build_row(made, set_name="s", config_hash="h",
                                                                         index=i, seed=i))
        timed("  of which canonical_key", lambda made=made: canon.canonical_key(made.puzzle))
        timed("  of which grid_number", lambda made=made: numbering.grid_number(made.solution))
        timed("verify", lambda row=row: verify.verify_row(row))
        rows.append(row)
    rest = ("make_puzzle", "grid", "removal", "grade", "minimality")
    add("certify + rest", wall["make_puzzle"] - sum(wall.get(k, 0.0) for k in rest[1:]),
        cpu["make_puzzle"] - sum(cpu.get(k, 0.0) for k in rest[1:]))
    b = board.board(size)
    del b
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        store.write_part(Path(tmp), 0, rows, "profile")
        parquet = (time.perf_counter() - t0) * 1000 / n_puzzles
    _ = runner  # imported for the same import cost as a worker
    per = {k: (1000 * wall[k] / n_puzzles, 1000 * cpu[k] / n_puzzles) for k in wall}
    total = per["make_puzzle"][0] + per["build_row"][0] + per["verify"][0]
    total_cpu = per["make_puzzle"][1] + per["build_row"][1] + per["verify"][1]
    out: dict[str, float] = {"engine build ms": build * 1000, "numba load ms": jit * 1000}
    for k in ("grid", "removal", "grade", "minimality", "certify + rest", "make_puzzle", "build_row",
              "  of which canonical_key", "  of which grid_number", "verify"):
        out[f"{k} ms"] = per.get(k, (0.0, 0.0))[0]
        out[f"{k} ms CPU"] = per.get(k, (0.0, 0.0))[1]
    out |= {"parquet ms": parquet, "make+row+verify ms": total, "make+row+verify ms CPU": total_cpu,
            "puzzles/s (make+row+verify)": 1000 / total, "puzzles/s CPU": 1000 / total_cpu,
            "orbit-minimal %": 100 * orbmin / n_puzzles}
    return out


class _PhaseClock:
    """Wall and CPU seconds spent in the named functions of ``pipeline.generate.puzzle`` (patched while
    the clock is open; a name the module no longer has is skipped)."""

    NAMES: ClassVar[dict[str, str]] = {"_grid": "grid", "remove": "removal", "grade": "grade",
                                       "minimality": "minimality"}

    def __init__(self) -> None:
        self.wall: dict[str, float] = {}
        self.cpu: dict[str, float] = {}

    @contextlib.contextmanager
    def patched(self) -> Iterator[None]:
        from pipeline.generate import puzzle

        saved = {name: getattr(puzzle, name) for name in self.NAMES if hasattr(puzzle, name)}
        for name, f in saved.items():
            setattr(puzzle, name, self._timed(f, self.NAMES[name]))
        try:
            yield
        finally:
            for name, f in saved.items():
                setattr(puzzle, name, f)

    def _timed(self, f: Callable[..., Any], phase: str) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            t0, c0 = time.perf_counter(), time.process_time()
            try:
                return f(*args, **kwargs)
            finally:
                self.wall[phase] = self.wall.get(phase, 0.0) + time.perf_counter() - t0
                self.cpu[phase] = self.cpu.get(phase, 0.0) + time.process_time() - c0

        return run


def phases16(n_puzzles: int, oracle: bool) -> list[dict[str, tuple[float, float]]]:
    """Per 16x16 puzzle: phase -> (wall s, CPU s) for grid, removal, grade, minimality, certify (the
    rest of make_puzzle), make (all of make_puzzle), verify (verify_row) and, with ``oracle``, the
    pure-Python count."""
    from pipeline import board, verify
    from pipeline.generate import count_jit
    from pipeline.generate.puzzle import make_puzzle
    from pipeline.generate.spec import Spec, puzzle_seed
    from pipeline.ilp.engine import engine_for

    engine_for(16)
    count_jit.count((0,) * 256, 1)
    _warm_verifier()
    spec = Spec(size=16, symmetry="rot180", minimal=True, engine="hybrid")
    out = []
    for i in range(n_puzzles):
        clock = _PhaseClock()
        with clock.patched():
            t0, c0 = time.perf_counter(), time.process_time()
            made = make_puzzle(spec, puzzle_seed(7, i))
            make = (time.perf_counter() - t0, time.process_time() - c0)
        res = {k: (clock.wall.get(k, 0.0), clock.cpu.get(k, 0.0)) for k in _PhaseClock.NAMES.values()}
        res["certify"] = (make[0] - sum(w for w, _ in res.values()), make[1] - sum(c for _, c in res.values()))
        res["make"] = make
        row = {"size": 16, "puzzle": board.format_line(made.puzzle), "solution": board.format_line(made.solution),
               "hints": made.hints, "symmetry": made.symmetry, "symmetry_requested": made.symmetry_requested}
        t0, c0 = time.perf_counter(), time.process_time()
        assert verify.verify_row(row) == []
        res["verify"] = (time.perf_counter() - t0, time.process_time() - c0)
        if oracle:
            t0, c0 = time.perf_counter(), time.process_time()
            assert verify.independent_count(made.puzzle, board.board(16), 2) == 1
            res["pure-Python count"] = (time.perf_counter() - t0, time.process_time() - c0)
        out.append(res)
    return out


def report16(per: list[dict[str, tuple[float, float]]]) -> None:
    """Print :func:`phases16`'s figures: mean and median per puzzle, wall and CPU."""
    labels = {"grid": "grid (ILP)", "removal": "removal pass (count_jit)", "grade": "grade",
              "minimality": "minimality checks (count_jit)", "certify": "certify (ILP) + rest",
              "make": "make_puzzle", "verify": "verify_row (compiled count)",
              "pure-Python count": "pure-Python count (oracle)"}
    print(f"-- 16x16 rot180 orbit-minimal, hybrid ({len(per)} puzzles), seconds per puzzle")
    print(f"   {'':<32} {'wall mean':>9} {'median':>7} {'CPU mean':>9} {'median':>7}")
    for k in per[0]:
        wall, cpu = [p[k][0] for p in per], [p[k][1] for p in per]
        print(f"   {labels.get(k, k):<32} {statistics.mean(wall):9.3f} {statistics.median(wall):7.3f} "
              f"{statistics.mean(cpu):9.3f} {statistics.median(cpu):7.3f}")
    total = [(p["make"][0] + p["verify"][0], p["make"][1] + p["verify"][1]) for p in per]
    print(f"   {'seconds per puzzle (make+verify)':<32} {statistics.mean(t[0] for t in total):9.3f} "
          f"{statistics.median(t[0] for t in total):7.3f} {statistics.mean(t[1] for t in total):9.3f} "
          f"{statistics.median(t[1] for t in total):7.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--n16", type=int, default=5, help="16x16 puzzles to time (0: skip)")
    from pipeline.generate.version import NEW_SET_METHOD

    ap.add_argument("--grid", default=NEW_SET_METHOD,
                    help="grid.method of the 9x9 runs (default %(default)s, a new set's)")
    ap.add_argument("--hybrid-only", action="store_true", help="skip the 9x9 run with the ilp engine")
    ap.add_argument("--oracle", action="store_true", help="also time the pure-Python count on each 16x16 puzzle")
    args = ap.parse_args()
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})  # the other core than peer_bench's
    print(f"# phase profile, 9x9 rot180 orbit-minimal, {args.n} puzzles, one core, {time.strftime('%Y-%m-%d')}")
    for k, v in startup().items():
        print(f"start-up  {k:<28} {v * 1000:8.0f} ms")
    for engine in ("hybrid", "ilp")[: 1 if args.hybrid_only else 2]:
        n = args.n if engine == "hybrid" else max(10, args.n // 10)
        res = phases(n, engine, grid_method=args.grid)
        print(f"-- engine {engine}, grid.method {args.grid} ({n} puzzles), ms per puzzle: wall, CPU")
        for k, v in res.items():
            if k.endswith(" ms CPU"):
                continue
            cpu = res.get(f"{k} CPU")
            print(f"   {k:<32} {v:10.2f}" + (f" {cpu:10.2f}" if cpu is not None else ""))
    if args.n16:
        report16(phases16(args.n16, args.oracle))


if __name__ == "__main__":
    main()
