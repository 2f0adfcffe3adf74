#!/usr/bin/env python3
"""Grading cost of each held grader version, side by side in one process: CPU ms per puzzle and the
ratio to grader 2 (the issue's budget: a new grader costs at most 2x grader 2 on the default mix).

Input: JSON lines from ``numplace generate --format json`` (``puzzle`` and ``solution``), e.g. the
default mix ``numplace generate --count 4000 --seed 1 --format json > /tmp/mix.jsonl``.

    .venv/bin/python bench/bench_grader_versions.py /tmp/mix.jsonl [--versions 2,5,6] [--repeats 3]

Every puzzle is graded once by every version untimed (numba compiles or loads every kernel a path
reaches), then ``--repeats`` passes in which each puzzle is graded by every version in turn
(``process_time`` around each grade), so a change of machine load during a pass hits all versions
alike. Per version: the best and the median pass. The machine may be shared: compare the columns of
one run, not the figures of two. Also prints how many levels and scores each version changes
against the first version listed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from pipeline.board import parse
from pipeline.difficulty.grade import grade


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("puzzles", type=Path, help="JSON lines with puzzle and solution")
    ap.add_argument("--versions", default="2,5,6", help="grader versions, comma-separated (first = baseline)")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    versions = [int(v) for v in args.versions.split(",")]
    rows = [json.loads(x) for x in args.puzzles.read_text(encoding="utf-8").splitlines() if x.strip()]
    pairs = [(parse(r["puzzle"]), parse(r["solution"])) for r in rows]
    grades = {v: [grade(p, s, grader=v) for p, s in pairs] for v in versions}  # warm: untimed
    passes: dict[int, list[float]] = {v: [] for v in versions}
    for _ in range(args.repeats):
        spent = dict.fromkeys(versions, 0.0)
        for p, s in pairs:
            for v in versions:
                t = time.process_time()
                grade(p, s, grader=v)
                spent[v] += time.process_time() - t
        for v in versions:
            passes[v].append(1000 * spent[v] / len(pairs))
    base = versions[0]
    print(f"# {len(pairs)} puzzles from {args.puzzles}; CPU ms per puzzle, {args.repeats} interleaved passes")
    print(f"| grader | best | median | best / grader {base} | levels changed | scores changed |")
    print("|---|---|---|---|---|---|")
    for v in versions:
        lv = sum(a.level != b.level for a, b in zip(grades[base], grades[v], strict=True))
        sc = sum(a.score != b.score for a, b in zip(grades[base], grades[v], strict=True))
        print(f"| {v} | {min(passes[v]):.3f} | {statistics.median(passes[v]):.3f} | "
              f"{min(passes[v]) / min(passes[base]):.2f}x | {lv} | {sc} |")


if __name__ == "__main__":
    main()
