#!/usr/bin/env python3
"""Trial and error before and after: the grader of a base commit against this checkout, same puzzles.

Input: JSON lines from ``numplace generate --format json`` (``puzzle``, ``solution``). Each side
grades every puzzle in its own process (its own ``pipeline``: the base commit is exported with
``git archive`` into a temporary folder), with the compiled kernels (as a run grades) and the
generator's solution; the two sides alternate ``--repeats`` times and the best pass of each is
kept, so machine load hits both alike. Times are the grading loop's CPU time (``process_time``):
on a shared machine the wall clock mostly measures the other jobs. Reported, side by side:

* the share of ``extreme`` puzzles whose grade needs trial and error, before and after;
* grading time per puzzle on the whole mix, before and after, and the ratio;
* every puzzle whose grade changed, checked to have needed trial and error before (a path that
  never guessed must be the path it was);
* the levels after, as JSON lines (``--out``), for ``bench/grade_vs_hodoku.py``.

    numplace generate --count 700 --seed 12 --format json > /tmp/heldout.jsonl
    python bench/bench_guessing.py /tmp/heldout.jsonl --base b278dbe --out /tmp/heldout-after.jsonl
    /tmp/peers/bin/python bench/grade_vs_hodoku.py /tmp/heldout-after.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from pipeline.difficulty.techniques import LEVELS  # noqa: E402

# Runs inside each side's process: grade every puzzle (after one warm-up), print JSON.
WORKER = r"""
import json, sys, time
from pipeline.board import parse
from pipeline.difficulty.grade import grade
rows = [json.loads(x) for x in open(sys.argv[1], encoding="utf-8") if x.strip()]
pairs = [(parse(r["puzzle"]), parse(r["solution"])) for r in rows]
grade(*pairs[0], compiled=True)  # warm-up: numba's cache load (or compile) is not timed
t0, c0 = time.perf_counter(), time.process_time()
grades = [grade(p, s, compiled=True) for p, s in pairs]
secs, cpu = time.perf_counter() - t0, time.process_time() - c0
print(json.dumps({"secs": secs, "cpu": cpu, "grades": [[g.level, g.score, g.techniques] for g in grades]}))
"""


def run_side(pythonpath: Path, puzzles: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(pythonpath)}
    out = subprocess.run([sys.executable, "-c", WORKER, str(puzzles)], capture_output=True, text=True, env=env,
                         check=True, cwd=pythonpath).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("puzzles", type=Path)
    ap.add_argument("--base", default="b278dbe", help="the commit graded as 'before'")
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--out", type=Path, help="write the rows with the 'after' grades here (JSON lines)")
    args = ap.parse_args()
    rows = [json.loads(x) for x in args.puzzles.read_text(encoding="utf-8").splitlines() if x.strip()]
    with tempfile.TemporaryDirectory(prefix="numplace-base-") as tmp:
        base = Path(tmp)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.base, "pipeline"], capture_output=True,
                                 check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
        best: dict[str, float] = {"before": float("inf"), "after": float("inf")}
        passes: dict[str, list[float]] = {"before": [], "after": []}
        result: dict[str, dict] = {}
        for _ in range(args.repeats):
            for side, path in (("before", base), ("after", ROOT)):
                t0 = time.perf_counter()
                got = run_side(path, args.puzzles)
                print(f"# {side}: {got['cpu']:.2f} s CPU grading, {got['secs']:.2f} s wall "
                      f"({time.perf_counter() - t0:.1f} s with start-up)", file=sys.stderr)
                best[side] = min(best[side], got["cpu"])
                passes[side].append(got["cpu"])
                result[side] = got
    before, after = result["before"]["grades"], result["after"]["grades"]
    n = len(rows)

    def te(g: list) -> bool:
        return "trial_and_error" in g[2]

    print(f"# {n} puzzles from {args.puzzles}; base {args.base} vs this checkout; best of {args.repeats} passes each")
    print("# machine shared with other jobs: compare the two columns, not the absolute times\n")
    print("| | before | after |")
    print("|---|---|---|")
    for level in LEVELS:
        print(f"| {level} | {sum(g[0] == level for g in before)} | {sum(g[0] == level for g in after)} |")
    ext_b = [i for i, g in enumerate(before) if g[0] == "extreme"]
    te_b = sum(te(before[i]) for i in ext_b)
    ext_a = [i for i, g in enumerate(after) if g[0] == "extreme"]
    te_a = sum(te(after[i]) for i in ext_a)
    print(f"| extreme needing trial and error | {te_b} of {len(ext_b)} ({100 * te_b / max(1, len(ext_b)):.0f} %) "
          f"| {te_a} of {len(ext_a)} ({100 * te_a / max(1, len(ext_a)):.0f} %) |")
    print(f"| the before-extreme puzzles needing trial and error now | {te_b} | "
          f"{sum(te(after[i]) for i in ext_b)} |")
    print(f"| all puzzles needing trial and error | {sum(map(te, before))} | {sum(map(te, after))} |")
    print(f"| grading ms per puzzle (whole mix, CPU, best pass) | {1000 * best['before'] / n:.2f} | "
          f"{1000 * best['after'] / n:.2f} |")
    print(f"\nratio after / before (best passes): {best['after'] / best['before']:.2f}x; every pass, CPU s: "
          f"before {', '.join(f'{x:.2f}' for x in passes['before'])}; "
          f"after {', '.join(f'{x:.2f}' for x in passes['after'])}")
    changed = [i for i in range(n) if before[i] != after[i]]
    wrong = [i for i in changed if not te(before[i])]
    print(f"grades changed: {len(changed)}, every one needed trial and error before: {not wrong}")
    for i in wrong[:5]:
        print(f"  CHANGED WITHOUT GUESSING BEFORE: {rows[i]['puzzle']} {before[i]} -> {after[i]}")
    used: Counter[str] = Counter()
    for i in changed:
        used.update(set(after[i][2]) - set(before[i][2]))
    print("techniques the changed puzzles use now (puzzles): " + ", ".join(f"{k} {v}" for k, v in used.most_common()))
    moves = Counter((before[i][0], after[i][0]) for i in changed)
    print("level moves: " + ", ".join(f"{a}->{b} {v}" for (a, b), v in sorted(moves.items())))
    if args.out:
        with args.out.open("w", encoding="utf-8") as fh:
            for r, g in zip(rows, after, strict=True):
                fh.write(json.dumps({**r, "difficulty": g[0], "difficulty_score": g[1], "techniques": g[2]}) + "\n")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
