"""Hard puzzles on demand: expert puzzles per second per core, numplace against QQWing.

QQWing's ``--difficulty expert`` output is rated by numplace's own grader (``numplace rate``), so
its effective rate is (puzzles/s) x (share our grader calls expert); numplace's rate is
``numplace generate --level expert`` (every puzzle verified, certified, graded), once filtering
(grids whose puzzle misses the level are dropped) and once with ``--steer`` (the local search of
``pipeline/generate/steer.py``). All run pinned to one CPU, one after the other, in this one
invocation; ``extreme`` is reported the same way. numplace is timed as the whole command (start-up
included) and as the marginal rate ``(N - N/2) / (t(N) - t(N/2))``, which leaves start-up out (the
first N/2 puzzles of a run of N are the puzzles of the run of N/2: seeds are per index).

QQWing is built from its public source outside this repository (see bench/bench_speed.sh) and
passed with ``--qqwing``; it is never a dependency.

Usage: .venv/bin/python bench/bench_expert.py --qqwing /tmp/qq/qqwing [--n 200] [--ours-n 30]
Figures: docs/benchmarks.md "Hard puzzles on demand".
"""

from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NUMPLACE = str(ROOT / ".venv" / "bin" / "numplace")


def _pinned(cmd: list[str]) -> tuple[float, str]:
    """Run ``cmd`` pinned to the first allowed CPU; wall seconds and stdout."""
    cpu = min(os.sched_getaffinity(0))
    t0 = time.perf_counter()
    out = subprocess.run(["taskset", "-c", str(cpu), *cmd], capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - t0, out


def _ratio(rate: float, peer: float) -> str:
    return f"{rate / peer:.2f}x" if peer > 0 else "n/a (QQWing made none)"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--qqwing", required=True, help="path to a QQWing binary built outside the repository")
    ap.add_argument("--n", type=int, default=200, help="QQWing expert puzzles to make and rate")
    ap.add_argument("--ours-n", type=int, default=30, help="numplace expert puzzles to make")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    qq_s, qq_out = _pinned([a.qqwing, "--generate", str(a.n), "--difficulty", "expert", "--one-line"])
    puzzles = [ln.strip() for ln in qq_out.splitlines() if len(ln.strip()) == 81]
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(puzzles) + "\n")
    rated = subprocess.run([NUMPLACE, "rate", f.name], capture_output=True, text=True).stdout.splitlines()
    Path(f.name).unlink()
    levels = collections.Counter(line.split(":", 1)[-1].split()[0] for line in rated if line.strip())
    ours: dict[tuple[str, str], tuple[float, int, float]] = {}
    for level in ("expert", "extreme"):
        for mode in ("filter", "steer"):
            cmd = [NUMPLACE, "generate", "--seed", str(a.seed), "--level", level, "--symmetry", "rot180", "--minimal",
                   *(["--steer"] if mode == "steer" else [])]
            half, _ = _pinned([*cmd, "--count", str(a.ours_n // 2)])
            s, out = _pinned([*cmd, "--count", str(a.ours_n)])
            ours[level, mode] = (s, len(out.split()), half)
    print(f"# hard puzzles on demand, one core each, {time.strftime('%Y-%m-%d %H:%M')}, "
          f"load average {os.getloadavg()[0]:.1f} at the end")
    print(f"qqwing --difficulty expert: {len(puzzles)} puzzles in {qq_s:.2f} s = {len(puzzles) / qq_s:.1f}/s; "
          f"numplace's grader rates them {dict(levels.most_common())}")
    for level in ("expert", "extreme"):
        share = levels.get(level, 0) / max(1, len(puzzles))
        eff = len(puzzles) / qq_s * share
        print(f"{level:8s} qqwing effective {eff:7.2f}/s ({share:.0%} of its output)")
        for mode in ("filter", "steer"):
            s, k, half = ours[level, mode]
            whole, marginal = k / s, (k - a.ours_n // 2) / max(1e-9, s - half)
            print(f"  numplace {mode:6s} {whole:7.2f}/s whole ({k} in {s:.1f} s, start-up included), "
                  f"{marginal:7.2f}/s marginal (the first {a.ours_n // 2} took {half:.1f} s)   numplace/qqwing "
                  f"{_ratio(whole, eff)} whole, {_ratio(marginal, eff)} marginal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
