#!/usr/bin/env python3
"""Start-up and one-shot solving speed of the CLI, as a user sees it.

Each figure is a whole child process, interpreter start and imports included, on a warm cache
(one warm-up run first, so numba's on-disk cache and the .pyc files exist):

* ``numplace --help``, ``numplace rate P`` and ``numplace solve P`` for one 9x9 puzzle P:
  wall seconds (min and median over ``--runs``) and CPU seconds (user + sys of the child, min);
* ``numplace solve top95.txt --workers 1``: Norvig's 95 hard puzzles (tests/data/top95.txt),
  the whole command's wall time divided by 95, in ms per puzzle (min and median);
* ``numplace generate --count 1`` (default grids, then ``--grid uniform`` and ``--grid weighted-ilp``): the
  generator's start-up, which every whole-command figure of ``bench_speed.sh`` carries (one puzzle is a few ms of it);
* ``python -c pass``: the interpreter alone, the floor under every figure.

Each row gives wall seconds (min, median, max) and CPU seconds (min). ``--only WORD`` keeps the rows
whose task contains WORD (repeatable), e.g. ``--only generate --only rate``.

On a shared machine wall time includes waiting for a core; the CPU column is the steadier figure.
The children run without ``PYTHONDONTWRITEBYTECODE`` (a user's Python caches bytecode), or with
``PYTHONDONTWRITEBYTECODE=1`` under ``--dont-write-bytecode`` (many container images set it: then only the
``.pyc`` files written at set-up, ``python -m pipeline.run.kernels``, spare the children compiling).
Peers run side by side when given: ``--peer NAME=COMMAND``, where COMMAND may use ``{puzzle}`` (one
puzzle: timed like ``solve P``) or ``{file}`` (the top95 file: timed per puzzle), e.g.
``--peer "py-sudoku=/tmp/peers/bin/python -c 'from sudoku import Sudoku; ...{puzzle}...'"``.
``--root DIR`` times another checkout's ``python -m pipeline`` (e.g. a copy from before a change).

    .venv/bin/python bench/bench_startup.py [--runs 7] [--root DIR] [--only WORD ...] [--peer NAME=COMMAND ...]
                                            [--dont-write-bytecode]
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
P = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
TOP95 = ROOT / "tests" / "data" / "top95.txt"


def _children_cpu() -> float:
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime


def timed(cmd: list[str], cwd: Path, runs: int, no_writes: bool = False) -> tuple[list[float], list[float]]:
    """(wall seconds, CPU seconds) of ``runs`` runs of ``cmd`` after one warm-up, with
    ``PYTHONDONTWRITEBYTECODE=1`` when ``no_writes``; exits on failure (exit codes 0 and 1 are answers:
    ``solve`` exits 1 for a puzzle without a solution)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if no_writes:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    walls: list[float] = []
    cpus: list[float] = []
    for k in range(runs + 1):
        cpu0 = _children_cpu()
        t0 = time.perf_counter()
        res = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        if res.returncode not in (0, 1):
            sys.exit(f"bench: {shlex.join(cmd)} failed ({res.returncode}):\n{res.stderr[-2000:]}")
        if k:  # the first run warms the caches
            walls.append(wall)
            cpus.append(_children_cpu() - cpu0)
    return walls, cpus


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7, help="counted runs of each command (after one warm-up)")
    ap.add_argument("--root", type=Path, default=ROOT, help="checkout whose `python -m pipeline` to time")
    ap.add_argument("--only", action="append", default=[], metavar="WORD",
                    help="time only the rows whose task contains WORD (repeatable)")
    ap.add_argument("--peer", action="append", default=[], metavar="NAME=COMMAND",
                    help="a peer command with {puzzle} or {file} (repeatable)")
    ap.add_argument("--dont-write-bytecode", action="store_true",
                    help="run the children with PYTHONDONTWRITEBYTECODE=1")
    args = ap.parse_args()
    puzzles = sum(1 for ln in TOP95.read_text().splitlines() if ln.strip() and not ln.startswith("#"))
    ours = [sys.executable, "-m", "pipeline"]
    rows: list[tuple[str, str, list[str], int]] = [  # (who, task, command, puzzles)
        ("numplace", "--help", [*ours, "--help"], 0),
        ("numplace", "rate P", [*ours, "rate", P], 0),
        ("numplace", "solve P", [*ours, "solve", P], 0),
        ("numplace", "solve top95 (per puzzle)", [*ours, "solve", str(TOP95), "--workers", "1"], puzzles),
        ("numplace", "generate --count 1", [*ours, "generate", "--count", "1", "--seed", "1"], 0),
        ("numplace", "generate --count 1 uniform", [*ours, "generate", "--count", "1", "--seed", "1", "--grid",
                                                    "uniform"], 0),
        ("numplace", "generate --count 1 weighted-ilp", [*ours, "generate", "--count", "1", "--seed", "1", "--grid",
                                                         "weighted-ilp"], 0),
        ("python", "python -c pass (floor)", [sys.executable, "-c", "pass"], 0),
    ]
    for spec in args.peer:
        name, _, command = spec.partition("=")
        if "{file}" in command:
            rows.append((name, "top95 (per puzzle)", shlex.split(command.replace("{file}", str(TOP95))), puzzles))
        else:
            rows.append((name, "solve P", shlex.split(command.replace("{puzzle}", P)), 0))
    if args.only:
        rows = [r for r in rows if any(word in r[1] for word in args.only)]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"# numplace start-up bench: {args.root}, {args.runs} runs after 1 warm-up, Python "
          f"{platform.python_version()}, {os.cpu_count()} cores, load {load:.1f}, {time.strftime('%Y-%m-%d %H:%M')}"
          f"{', PYTHONDONTWRITEBYTECODE=1' if args.dont_write_bytecode else ''}")
    print(f"{'who':<12} {'task':<28} {'wall min':>9} {'wall med':>9} {'wall max':>9} {'cpu min':>8}  unit")
    for who, task, cmd, n in rows:
        walls, cpus = timed(cmd, args.root, args.runs, args.dont_write_bytecode)
        scale, unit = (1000 / n, "ms/puzzle") if n else (1.0, "s")
        print(f"{who:<12} {task:<28} {min(walls) * scale:>9.3f} {statistics.median(walls) * scale:>9.3f} "
              f"{max(walls) * scale:>9.3f} {min(cpus) * scale:>8.3f}  {unit}")


if __name__ == "__main__":
    main()
