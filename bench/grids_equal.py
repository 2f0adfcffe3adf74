#!/usr/bin/env python3
"""Step 1's grids of this checkout against another revision's, seed by seed: the same grid and
``grid_source`` for every seed, or the first seeds that differ (exit 1).

    .venv/bin/python bench/grids_equal.py [--ref b7ca466] [--count 10000] [--method weighted-lp]

The reference's ``pipeline`` package is taken out of git (``git archive REF pipeline``) into a temporary
folder and run by this interpreter with that folder first on ``PYTHONPATH``, so both sides run on the
same libraries; each side computes ``generate.puzzle.grid_of`` (9x9, rot180, the method given) for
seeds ``0..count-1`` in one process and prints one line per seed. A change to how grids are made
(e.g. a cheaper ``weighted-lp`` grid) must print ``equal``; else it needs a new generator
version (``pipeline/generate/version.py``). Also prints each side's CPU seconds per grid.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_SIDE = """import sys, time
from pipeline.generate.puzzle import grid_of
from pipeline.generate.spec import Spec
spec = Spec(size=9, symmetry="rot180", minimal=True, grid_method=sys.argv[2])
for seed in range(10**9, 10**9 + 20):  # loads the engine and compiles or loads the kernels: not timed
    grid_of(spec, seed)
t = time.process_time()
lines = []
for seed in range(int(sys.argv[1])):
    grid, source = grid_of(spec, seed)
    lines.append(f"{seed} {''.join(map(str, grid or ()))} {source}")
cpu = time.process_time() - t
print("\\n".join(lines))
print(f"cpu {cpu / max(1, int(sys.argv[1])) * 1e3:.3f}")
"""


def side(path: Path | None, count: int, method: str) -> tuple[list[str], str]:
    """One side's lines (seed, grid, source) and its CPU ms per grid; ``path``: the folder holding the
    reference's ``pipeline`` (None: this checkout)."""
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = str(path) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    res = subprocess.run([sys.executable, "-c", _SIDE, str(count), method], cwd=path or ROOT, env=env,
                         capture_output=True, text=True, check=True)
    *lines, cpu = res.stdout.splitlines()
    return lines, cpu.split()[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", default="b7ca466", help="the revision to compare with")
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--method", default="weighted-lp")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "archive", args.ref, "pipeline"], cwd=ROOT, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        ref, ref_cpu = side(Path(tmp), args.count, args.method)
    ours, our_cpu = side(None, args.count, args.method)
    print(f"{args.method}, seeds 0..{args.count - 1}: CPU ms per grid {args.ref} {ref_cpu}, this checkout {our_cpu}")
    differ = [(a, b) for a, b in zip(ref, ours, strict=True) if a != b]
    if not differ:
        print(f"equal: {len(ours)} grids")
        return 0
    print(f"DIFFERENT: {len(differ)} of {len(ours)} grids; the first:")
    for a, b in differ[:5]:
        print(f"  {args.ref}: {a}\n  here:    {b}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
