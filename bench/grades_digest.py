#!/usr/bin/env python3
"""Every grade of the studio's Generate requests, one line per puzzle, to show that two source trees
grade alike (issue 39: the studio shows a puzzle before its grade; the grade must not change).

For each request (default: 30 X+hyper, 30 hyper and 10 16x16 puzzles, seed 5) prints the kind, the
index, the puzzle, and its level, score, techniques and logic steps, as the tree at hand makes them:
through :func:`pipeline.run.runner.stream_graded_later` (the page's path: made, then graded) where the
tree has it, else :func:`pipeline.run.runner.stream` (the tree before). Two trees that print the same
lines make the same puzzles with the same grades. Usage::

    PYTHONPATH=/tmp/before python bench/grades_digest.py > before.txt
    PYTHONPATH=. python bench/grades_digest.py > after.txt
    diff before.txt after.txt && echo same
"""

from __future__ import annotations

import argparse
import sys
import time

#: (name, board section, count)
REQUESTS = (("x+hyper", {"variant": "x+hyper"}, 30), ("hyper", {"variant": "hyper"}, 30), ("16x16", {"size": 16}, 10))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every count (e.g. 0.2 for a quick look)")
    args = ap.parse_args()
    from pipeline import config as cfgmod
    from pipeline.run import runner
    from pipeline.run.work import Made

    later = getattr(runner, "stream_graded_later", None)
    print(f"path: {'stream_graded_later' if later else 'stream'}", file=sys.stderr)
    for name, board, count in REQUESTS:
        cfg = cfgmod.validate({"name": "digest", "seed": args.seed, "count": max(1, round(count * args.scale)),
                               "workers": 1, "board": board})
        t0 = time.perf_counter()
        items = later(cfg) if later is not None else runner.stream(cfg, chunk=1)
        for item in items:
            if not isinstance(item, Made):
                print(f"{name} {item.index} failed: {item.failure}")
                continue
            r = item.row
            if r["difficulty"] is None:
                continue  # shown before its grade: its whole row follows
            print(f"{name} {item.index} {r['puzzle']} {r['difficulty']} {r['difficulty_score']:g} "
                  f"{','.join(r['techniques'])} {r['logic_steps']}")
        print(f"{name}: {time.perf_counter() - t0:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
