#!/usr/bin/env python3
"""numplace's grader beside HoDoKu's, in one run: agreement, guessing, cost.

Runs under the *peers'* Python (hodoku-py is never a numplace dependency); numplace is driven in
its own process (``--numplace-python``, this checkout on ``PYTHONPATH``), and with ``--base COMMIT``
also a base commit's grader (exported with ``git archive``), so "before" and "after" come from the
same run on the same puzzles. Printed, side by side:

1. **Agreement with HoDoKu on an external held-out set** (``--heldout``: JSON lines with ``puzzle``
   and ``hodoku_level``, e.g. made by ``bench/heldout_hodoku.py``, puzzles numplace did not make):
   the confusion matrix (``bench/grade_vs_hodoku.py``'s), exact and within-one agreement. Further
   plain puzzle files (``--extra``, one puzzle a line, e.g. top95) are rated by HoDoKu here.
2. **Trial and error in the default set's ``extreme`` puzzles**: ``numplace generate --count N --seed S
   --format json`` with the default config (``--mix FILE`` reuses such an output), graded by each
   side with the generator's solution; the share of ``extreme`` puzzles whose path needs
   ``trial_and_error``.
3. **Cost**: grading CPU time per puzzle (compiled kernels, after a warm-up, best of ``--repeats``
   passes) of each side on the held-out set and on the mix, and HoDoKu's CPU time per puzzle rating
   the held-out set; the ratio HoDoKu / numplace.

    /tmp/peers/bin/python bench/heldout_hodoku.py --seed 1001 --out /tmp/heldout/dev.jsonl
    numplace generate --count 4000 --seed 1 --format json > /tmp/mix.jsonl
    /tmp/peers/bin/python bench/bench_grading_peers.py --heldout /tmp/heldout/dev.jsonl \\
        --extra tests/data/top95.txt --mix /tmp/mix.jsonl --base main --cache /tmp/hodoku-ratings.json

Times are CPU seconds of the grading loop (``process_time``): on a shared machine the wall clock
mostly measures the other jobs, so compare the columns of one run, not figures of two runs.
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
sys.path.insert(0, str(ROOT / "bench"))
from grade_vs_hodoku import OURS, THEIRS, Rated, report  # noqa: E402  (the matrix, shared)

# Runs in each side's process: grade every file's puzzles (after one warm-up), print JSON.
WORKER = r"""
import json, sys, time
from pipeline.board import parse
from pipeline.difficulty.grade import grade
repeats, out = int(sys.argv[1]), {}
for path in sys.argv[2:]:
    rows = [json.loads(x) for x in open(path, encoding="utf-8") if x.strip()]
    pairs = [(parse(r["puzzle"]), parse(r["solution"]) if r.get("solution") else None) for r in rows]
    grade(*pairs[0], compiled=True)  # warm-up: numba's cache load (or compile) is not timed
    best = float("inf")
    for _ in range(repeats):
        c0 = time.process_time()
        grades = [grade(p, s, compiled=True) for p, s in pairs]
        best = min(best, time.process_time() - c0)
    out[path] = {"cpu": best, "grades": [[g.level, g.score, g.techniques, g.guesses] for g in grades]}
print(json.dumps(out))
"""


def _lines(path: Path) -> list[dict]:
    """JSON lines, or one plain puzzle a line (``#`` comments skipped)."""
    text = path.read_text(encoding="utf-8").splitlines()
    rows = []
    for line in text:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        rows.append(json.loads(line) if line.startswith("{") else {"puzzle": line.replace("0", ".")})
    return rows


def _side(python: str, pythonpath: Path, files: list[Path], repeats: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(pythonpath)}
    done = subprocess.run([python, "-c", WORKER, str(repeats), *map(str, files)], capture_output=True, text=True,
                          env=env, check=True, cwd=pythonpath)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _hodoku(rows: list[dict], cache: dict[str, list]) -> tuple[list[Rated], float, int]:
    """HoDoKu's rating of every row (from ``cache`` when there), the CPU seconds of those rated here
    and how many that was."""
    from hodoku import Solver  # the peer, from the benchmark venv

    solver = Solver()
    spent, rated, out = 0.0, 0, []
    for row in rows:
        if row["puzzle"] not in cache:
            c0 = time.process_time()
            r = solver.rate(row["puzzle"])
            spent += time.process_time() - c0
            rated += 1
            cache[row["puzzle"]] = [r.level.name, r.score]
        out.append(Rated(*cache[row["puzzle"]]))
    return out, spent, rated


def _agreement(rows: list[dict], grades: list, ratings: list[Rated]) -> float:
    same = sum(OURS.index(g[0]) == THEIRS.index(r.level.name) for g, r in zip(grades, ratings, strict=True))
    return 100 * same / len(rows)


def _as_rows(rows: list[dict], grades: list) -> list[dict]:
    """The rows as ``grade_vs_hodoku.report`` reads them, with one side's grades."""
    return [{"puzzle": r["puzzle"], "difficulty": g[0], "techniques": g[2]} for r, g in zip(rows, grades, strict=True)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--heldout", type=Path, required=True, help="JSON lines with puzzle and hodoku_level")
    ap.add_argument("--extra", type=Path, action="append", default=[], help="more puzzles, rated by HoDoKu here")
    ap.add_argument("--mix", type=Path, help="`numplace generate --format json` output (else made here)")
    ap.add_argument("--mix-count", type=int, default=4000)
    ap.add_argument("--mix-seed", type=int, default=1)
    ap.add_argument("--base", help="a commit graded as 'before' beside this checkout")
    venv = ROOT / ".venv" / "bin" / "python"  # a worktree without its own venv uses the main checkout's
    if not venv.exists():
        venv = ROOT.parent / "main" / ".venv" / "bin" / "python"
    ap.add_argument("--numplace-python", default=str(venv))
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--cache", type=Path, help="HoDoKu ratings of --extra puzzles by puzzle (JSON), kept")
    args = ap.parse_args()

    heldout = _lines(args.heldout)
    mix_path = args.mix
    with tempfile.TemporaryDirectory(prefix="numplace-peers-") as tmp:
        if mix_path is None:
            mix_path = Path(tmp) / "mix.jsonl"
            env = {**os.environ, "PYTHONPATH": str(ROOT)}
            made = subprocess.run([args.numplace_python, "-m", "pipeline", "generate", "--count", str(args.mix_count),
                                   "--seed", str(args.mix_seed), "--format", "json"], capture_output=True, text=True,
                                  env=env, check=True, cwd=ROOT).stdout
            mix_path.write_text(made, encoding="utf-8")
        mix = _lines(mix_path)
        extras = {p: _lines(p) for p in args.extra}
        keys: dict[Path, str] = {}
        for p, rows in extras.items():  # the worker reads JSON lines
            q = Path(tmp) / (p.stem + ".jsonl")
            q.write_text("".join(json.dumps({"puzzle": r["puzzle"]}) + "\n" for r in rows), encoding="utf-8")
            keys[p] = str(q)
        files = [args.heldout, mix_path, *map(Path, keys.values())]
        sides = {"after": ROOT}
        if args.base:
            base = Path(tmp) / "base"
            base.mkdir()
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.base, "pipeline"], capture_output=True,
                                     check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
            sides = {"before": base, "after": ROOT}
        graded = {name: _side(args.numplace_python, path, files, args.repeats) for name, path in sides.items()}

    cache: dict[str, list] = json.loads(args.cache.read_text()) if args.cache and args.cache.exists() else {}
    # HoDoKu's own time is measured on the held-out set, always rated afresh (the file's levels are checked)
    fresh: dict[str, list] = {}
    theirs, hodoku_cpu, _ = _hodoku(heldout, fresh)
    moved = sum(r.level.name != row["hodoku_level"] for r, row in zip(theirs, heldout, strict=True))
    extra_ratings = {p: _hodoku(rows, cache)[0] for p, rows in extras.items()}
    if args.cache:
        args.cache.write_text(json.dumps(cache))

    names = list(sides)
    labels = [f"{n} ({args.base if n == 'before' else 'this checkout'})" for n in names]
    print(f"# numplace {' vs '.join(labels)}; "
          f"HoDoKu = hodoku-py in the peers' venv; CPU times, best of {args.repeats} passes")
    print("# machine shared with other jobs: compare the columns of this run, not figures of other runs\n")
    for name in names:
        rows = _as_rows(heldout, graded[name][str(args.heldout)]["grades"])
        print(f"## {name}: held-out {args.heldout.name}")
        report(f"{args.heldout} graded by {name}", rows, theirs, hodoku_cpu)
        print()
        for p, rows_p in extras.items():
            rows = _as_rows(rows_p, graded[name][keys[p]]["grades"])
            print(f"## {name}: {p.name}")
            report(f"{p} graded by {name}", rows, extra_ratings[p], 0.0)
            print()

    print("## side by side\n")
    print("| | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    line = [f"{_agreement(heldout, graded[n][str(args.heldout)]['grades'], theirs):.1f} %" for n in names]
    print(f"| held-out {args.heldout.name} ({len(heldout)}): exact agreement with HoDoKu | " + " | ".join(line) + " |")
    for p, rows_p in extras.items():
        line = [f"{_agreement(rows_p, graded[n][keys[p]]['grades'], extra_ratings[p]):.1f} %" for n in names]
        print(f"| {p.name} ({len(rows_p)}): exact agreement with HoDoKu | " + " | ".join(line) + " |")
    line = []
    for n in names:
        g = graded[n][str(mix_path)]["grades"]
        ext = [x for x in g if x[0] == "extreme"]
        guess = sum(1 for x in ext if x[3] > 0)
        line.append(f"{guess} of {len(ext)} ({100 * guess / max(1, len(ext)):.0f} %)")
    print(f"| default mix ({len(mix)}): `extreme` needing trial and error | " + " | ".join(line) + " |")
    mixed = {n: Counter(x[0] for x in graded[n][str(mix_path)]["grades"]) for n in names}
    levels = [", ".join(f"{lv} {mixed[n][lv]}" for lv in OURS if mixed[n][lv]) for n in names]
    print("| default mix: levels | " + " | ".join(levels) + " |")
    ms = {n: 1000 * graded[n][str(args.heldout)]["cpu"] / len(heldout) for n in names}
    print("| held-out: numplace ms per puzzle | " + " | ".join(f"{ms[n]:.2f}" for n in names) + " |")
    mix_ms = {n: 1000 * graded[n][str(mix_path)]["cpu"] / len(mix) for n in names}
    print("| default mix: numplace ms per puzzle | " + " | ".join(f"{mix_ms[n]:.2f}" for n in names) + " |")
    hod_ms = 1000 * hodoku_cpu / len(heldout)
    print("| held-out: HoDoKu ms per puzzle | " + " | ".join(f"{hod_ms:.1f}" for _ in names) + " |")
    print("| held-out: HoDoKu / numplace time | " + " | ".join(f"{hod_ms / ms[n]:.0f}x" for n in names) + " |")
    if len(names) == 2:
        print(f"\nnumplace after / before, default mix: {mix_ms['after'] / mix_ms['before']:.2f}x; "
              f"held-out: {ms['after'] / ms['before']:.2f}x")
    if moved:
        print(f"\nnote: HoDoKu rated {moved} held-out puzzles otherwise than the file says (hodoku_level)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
