#!/usr/bin/env python3
"""Grading cost, a base commit against this checkout, each side warm: CPU ms per puzzle side by side.

Like ``bench/bench_guessing.py`` but fair to numba's on-disk cache: the base commit is exported once
into ``--base-dir`` (kept between runs, so its compiled kernels are cached there as this checkout's
are), and each side's process grades every puzzle once untimed (compiles or loads every kernel a path
reaches, the loops' and the new rows' included) and then once timed (``process_time``). The sides
alternate ``--repeats`` times; the best pass of each is kept. Optionally writes both sides' grades.

    python bench/bench_grade_sides.py /tmp/mix700.jsonl --base 76940c8 --base-dir /tmp/numplace-base \\
        --out-before /tmp/before.jsonl --out-after /tmp/after.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

WORKER = r"""
import json, sys, time
from pipeline.board import parse
from pipeline.difficulty.grade import grade
rows = [json.loads(x) for x in open(sys.argv[1], encoding="utf-8") if x.strip()]
pairs = [(parse(r["puzzle"]), parse(r["solution"])) for r in rows]
grades = [grade(p, s, compiled=True) for p, s in pairs]  # warm: every kernel compiled or loaded
c0 = time.process_time()
for p, s in pairs:
    grade(p, s, compiled=True)
print(json.dumps({"cpu": time.process_time() - c0, "grades": [[g.level, g.score, g.techniques] for g in grades]}))
"""


def run_side(path: Path, puzzles: Path) -> dict:
    out = subprocess.run([sys.executable, "-c", WORKER, str(puzzles)], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(path)}, cwd=path).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("puzzles", type=Path, help="JSON lines with puzzle and solution")
    ap.add_argument("--base", required=True, help="the commit graded as 'before'")
    ap.add_argument("--base-dir", type=Path, required=True, help="where the base is exported (kept)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out-before", type=Path)
    ap.add_argument("--out-after", type=Path)
    args = ap.parse_args()
    if not (args.base_dir / "pipeline").is_dir():
        args.base_dir.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.base, "pipeline"], capture_output=True,
                                 check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(args.base_dir)], input=archive, check=True)
    sides = {"before": args.base_dir, "after": ROOT}
    passes: dict[str, list[float]] = {k: [] for k in sides}
    grades: dict[str, list] = {}
    for _ in range(args.repeats):
        for side, path in sides.items():
            got = run_side(path, args.puzzles)
            passes[side].append(got["cpu"])
            grades[side] = got["grades"]
            print(f"# {side}: {got['cpu']:.2f} s CPU", file=sys.stderr, flush=True)
    rows = [json.loads(x) for x in args.puzzles.read_text(encoding="utf-8").splitlines() if x.strip()]
    n = len(rows)
    best = {k: min(v) for k, v in passes.items()}
    print(f"# {n} puzzles; base {args.base} vs this checkout; warm processes, best of {args.repeats} passes")
    print(f"grading CPU ms per puzzle: before {1000 * best['before'] / n:.3f}, after {1000 * best['after'] / n:.3f}, "
          f"ratio {best['after'] / best['before']:.2f}x")
    print("every pass (CPU s): " + "; ".join(f"{k} {', '.join(f'{x:.2f}' for x in v)}" for k, v in passes.items()))
    changed = sum(a != b for a, b in zip(grades["before"], grades["after"], strict=True))
    print(f"grades changed: {changed} of {n}")
    for side, out in (("before", args.out_before), ("after", args.out_after)):
        if out:
            with out.open("w", encoding="utf-8") as fh:
                for r, g in zip(rows, grades[side], strict=True):
                    fh.write(json.dumps({**r, "difficulty": g[0], "difficulty_score": g[1], "techniques": g[2]}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
