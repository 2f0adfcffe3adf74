#!/usr/bin/env python3
"""The grade as the pipeline calls it: CPU ms per puzzle, overall and by level, this checkout and a base.

Grades every puzzle of a JSON-lines file (fields ``puzzle`` and ``solution``, e.g. the rows of a
``numplace run configs/default.yaml --count 1200`` set) through the public API,
``grade(p, solution=s, unique=True, compiled=True)``, in a process of its own: once untimed (compiles
or loads every kernel a path reaches), then once timed, each puzzle with ``time.process_time``. This is
done ``--repeats`` times and each puzzle's best time is kept, since the machine may be shared (say its
load, ``uptime``, beside the figures). ``--base-dir`` runs a second checkout (a ``git worktree add
--detach`` or a ``git archive`` of the base commit) the same way on the same puzzles, the sides
alternating. Both sides' grades are compared path by path (every step's technique, cells, digits,
eliminations and wording), and the script exits 1 if any differs. ``--digest`` prints one sha256 over
every path of each side, for comparing checkouts by hand.

    python bench/bench_grade_api.py /tmp/set.jsonl [--base-dir /tmp/numplace-base] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from pipeline.difficulty.techniques import LEVELS  # noqa: E402  (imports nothing else)

WORKER = r"""
import hashlib, json, sys, time
from pipeline.board import parse
from pipeline.difficulty.grade import grade
rows = [json.loads(x) for x in open(sys.argv[1], encoding="utf-8") if x.strip()]
pairs = [(parse(r["puzzle"]), parse(r["solution"])) for r in rows]
repeats = int(sys.argv[2])
grades = [grade(p, solution=s, unique=True, compiled=True) for p, s in pairs]  # warm
levels = [g.level for g in grades]
best = [float("inf")] * len(pairs)
for _ in range(repeats):
    for i, (p, s) in enumerate(pairs):
        c0 = time.process_time()
        grade(p, solution=s, unique=True, compiled=True)
        best[i] = min(best[i], time.process_time() - c0)
paths = [repr((g.level, g.score, g.techniques, g.steps)) for g in grades]
print(json.dumps({"cpu": best, "levels": levels,
                  "digest": hashlib.sha256("\n".join(paths).encode()).hexdigest(), "paths": paths}))
"""
ORDER = LEVELS


def run_side(path: Path, puzzles: Path, repeats: int) -> dict:
    out = subprocess.run([sys.executable, "-c", WORKER, str(puzzles), str(repeats)], capture_output=True, text=True,
                         check=True, env={**os.environ, "PYTHONPATH": str(path)}, cwd=path).stdout
    return json.loads(out.strip().splitlines()[-1])


def table(name: str, side: dict) -> list[str]:
    cpu, levels = side["cpu"], side["levels"]
    rows = [f"| {name} | all | {len(cpu)} | {1000 * sum(cpu) / len(cpu):.3f} | 100 % |"]
    for lv in sorted(set(levels), key=lambda x: ORDER.index(x) if x in ORDER else 99):
        mine = [c for c, v in zip(cpu, levels, strict=True) if v == lv]
        rows.append(f"| {name} | {lv} | {len(mine)} | {1000 * sum(mine) / len(mine):.3f} | "
                    f"{100 * sum(mine) / sum(cpu):.0f} % |")
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("puzzles", type=Path, help="JSON lines with puzzle and solution")
    ap.add_argument("--base-dir", type=Path, help="a checkout of the base commit, run as 'before'")
    ap.add_argument("--repeats", type=int, default=3,
                    help="rounds (a process per side each); each puzzle's best time is kept")
    ap.add_argument("--digest", action="store_true", help="print the sha256 of every path")
    args = ap.parse_args()
    sides = {"this": ROOT} | ({"base": args.base_dir} if args.base_dir else {})
    results: dict[str, dict] = {}
    for _ in range(args.repeats):  # the sides alternate, one timed pass each per round
        for name, path in sides.items():
            got = run_side(path, args.puzzles.resolve(), 1)
            if name in results:
                got["cpu"] = [min(a, b) for a, b in zip(results[name]["cpu"], got["cpu"], strict=True)]
            results[name] = got
    print("| checkout | level | puzzles | CPU ms/puzzle | share |")
    print("|---|---|---|---|---|")
    for name, side in results.items():
        print("\n".join(table(name, side)))
    if args.digest:
        for name, side in results.items():
            print(f"{name} paths sha256 {side['digest']}")
    if "base" in results:
        this, base = results["this"], results["base"]
        same = sum(a == b for a, b in zip(this["paths"], base["paths"], strict=True))
        print(f"identical paths: {same}/{len(this['paths'])}; "
              f"mean CPU this/base = {sum(this['cpu']) / sum(base['cpu']):.2f}")
        return 0 if same == len(this["paths"]) else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
