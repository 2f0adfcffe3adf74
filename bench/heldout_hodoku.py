#!/usr/bin/env python3
"""An external held-out set for grading agreement: puzzles HoDoKu's generator makes, rated by HoDoKu.

Runs under the *peers'* Python (hodoku-py is never a numplace dependency). numplace made none of
these puzzles, so agreement measured on them is not agreement with our own generator's habits.
Writes JSON lines ``{"puzzle", "hodoku_level", "hodoku_score", "source"}`` until each HoDoKu level
has ``--per-level`` puzzles or ``--minutes`` run out. Use one seed to study disagreements and
another, never looked at while tuning, to report agreement.

    /tmp/peers/bin/python bench/heldout_hodoku.py --seed 1001 --out /tmp/heldout/dev.jsonl
    /tmp/peers/bin/python bench/heldout_hodoku.py --seed 2002 --out /tmp/heldout/test.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from pathlib import Path

LEVELS = ["EASY", "MEDIUM", "HARD", "UNFAIR", "EXTREME"]


def main() -> None:
    from hodoku import Solver
    from hodoku.generator.generator import SudokuGenerator

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--per-level", type=int, default=40)
    ap.add_argument("--minutes", type=float, default=40.0)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()

    gen = SudokuGenerator(random.Random(args.seed))
    solver = Solver()
    counts: Counter[str] = Counter()
    deadline = time.monotonic() + 60 * args.minutes
    tried = 0
    with args.out.open("w") as out:
        while time.monotonic() < deadline and min(counts[lv] for lv in LEVELS) < args.per_level:
            puzzle = gen.generate_sudoku(symmetric=tried % 2 == 0)
            tried += 1
            if puzzle is None:
                continue
            r = solver.rate(puzzle)
            level = r.level.name if hasattr(r.level, "name") else str(r.level)
            if level not in LEVELS or counts[level] >= args.per_level:
                continue
            counts[level] += 1
            out.write(json.dumps({"puzzle": puzzle.replace("0", "."), "hodoku_level": level,
                                  "hodoku_score": r.score, "source": f"hodoku-generator seed {args.seed}"}) + "\n")
            out.flush()
    print(f"tried {tried}; kept " + ", ".join(f"{lv} {counts[lv]}" for lv in LEVELS))


if __name__ == "__main__":
    main()
