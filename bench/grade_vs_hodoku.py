#!/usr/bin/env python3
"""Agreement of numplace's difficulty levels with HoDoKu's (hodoku-py), as a confusion matrix.

Runs under the *peers'* Python (hodoku-py is never a numplace dependency). Input: JSON lines from
`numplace generate --format json` (each has `puzzle` and `difficulty`). Levels are paired in order:
easy=Easy, medium=Medium, hard=Hard, expert=Unfair, extreme=Extreme.

    .venv/bin/numplace generate --count 500 --seed 1 --format json > /tmp/graded.jsonl
    /tmp/peers/bin/python bench/grade_vs_hodoku.py /tmp/graded.jsonl [OTHER.jsonl ...]

Further files (the same puzzles in the same order, graded otherwise, e.g. by
``bench/bench_guessing.py --out``) get a matrix each against the same HoDoKu ratings, so HoDoKu
rates every puzzle once. ``--cache FILE`` (first) keeps HoDoKu's ratings (level, score) by puzzle in
a JSON file, read again on the next run.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the registry, from the peers' Python too
from pipeline.difficulty.techniques import HODOKU_LEVELS, LEVELS

OURS = list(LEVELS)
THEIRS = [h.upper() for h in HODOKU_LEVELS]


def main() -> None:
    from hodoku import Solver  # the peer, from the benchmark venv

    args = sys.argv[1:]
    cache_file = None
    if args[:1] == ["--cache"]:
        cache_file, args = Path(args[1]), args[2:]
    cache: dict[str, list] = json.loads(cache_file.read_text()) if cache_file and cache_file.exists() else {}
    with open(args[0], encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    solver = Solver()
    t0 = time.perf_counter()
    ratings = []
    for row in rows:
        if row["puzzle"] not in cache:
            rating = solver.rate(row["puzzle"])
            cache[row["puzzle"]] = [rating.level.name, rating.score]
        ratings.append(Rated(*cache[row["puzzle"]]))
    secs = time.perf_counter() - t0
    if cache_file:
        cache_file.write_text(json.dumps(cache))
    report(args[0], rows, ratings, secs)
    for other in args[1:]:
        with open(other, encoding="utf-8") as fh:
            more = [json.loads(line) for line in fh if line.strip()]
        assert [r["puzzle"] for r in more] == [r["puzzle"] for r in rows], f"{other}: not the same puzzles"
        print()
        report(other, more, ratings, secs)


class Rated:
    """HoDoKu's level (``.level.name``) and score of one puzzle."""

    def __init__(self, level: str, score: float) -> None:
        self.level = type("Level", (), {"name": level})
        self.score = score


def report(name: str, rows: list, ratings: list, secs: float) -> None:
    pairs: Counter[tuple[str, str]] = Counter()
    examples: dict[tuple[str, str], tuple[str, list[str], int]] = {}
    for row, rating in zip(rows, ratings, strict=True):
        theirs = rating.level.name
        key = (row["difficulty"], theirs)
        pairs[key] += 1
        examples.setdefault(key, (row["puzzle"], row["techniques"], int(rating.score)))
    agree = sum(pairs[(o, t)] for o, t in zip(OURS, THEIRS, strict=True))
    within1 = sum(v for (o, t), v in pairs.items() if abs(OURS.index(o) - THEIRS.index(t)) <= 1)
    print(f"# {len(rows)} puzzles from {name}; HoDoKu rated them in {secs:.1f} s")
    print("| numplace \\ HoDoKu | " + " | ".join(t.capitalize() for t in THEIRS) + " | total |")
    print("|---|" + "---|" * (len(THEIRS) + 1))
    for o in OURS:
        counts = [pairs[(o, t)] for t in THEIRS]
        print(f"| {o} | " + " | ".join(str(c) for c in counts) + f" | {sum(counts)} |")
    totals = [sum(pairs[(o, t)] for o in OURS) for t in THEIRS]
    print("| total | " + " | ".join(str(c) for c in totals) + f" | {len(rows)} |")
    print(f"\nexact agreement {agree}/{len(rows)} = {100 * agree / len(rows):.1f} %; "
          f"within one level {100 * within1 / len(rows):.1f} %")
    print("\nfirst example of each disagreement (puzzle, our techniques, HoDoKu score):")
    for (o, t), (puzzle, techniques, score) in sorted(examples.items()):
        if OURS.index(o) != THEIRS.index(t):
            print(f"  ours {o} / HoDoKu {t} ({pairs[(o, t)]}x): {puzzle}  ours: {techniques[-3:]}  "
                  f"hodoku score {score}")


if __name__ == "__main__":
    main()
