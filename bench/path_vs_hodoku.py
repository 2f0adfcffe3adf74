#!/usr/bin/env python3
"""Our solve path beside HoDoKu's (hodoku-py), up to the first step where they part.

Runs under the *peers'* Python (hodoku-py is never a numplace dependency); our path comes from a
child process of numplace's own interpreter (``--ours``, default ``.venv/bin/python``; the checkout is
the current directory, put on its ``PYTHONPATH``). Singles are left out on both sides (both solvers
place every single before any other step, and the singles' end state does not depend on their
order), so the two lists of steps are compared by technique and removed candidates.

    /tmp/peers/bin/python bench/path_vs_hodoku.py /tmp/heldout/dev2.jsonl 139 153 [--grader 5]

Input: JSON lines with ``puzzle`` (e.g. a held-out set); the numbers are 0-based line numbers. For each
puzzle it prints the first non-single step where the paths part (ours and HoDoKu's, technique and
removed candidates), whether HoDoKu's own finder for our technique sees our step in that state, and
both levels and scores.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

SINGLES = {"full_house", "naked_single", "hidden_single"}
OURS_SINGLES = {"full_house", "naked_single", "hidden_single"}

#: Our technique names by HoDoKu's SolutionType value where the snake-cased value is not ours.
NAMES = {
    "Locked Candidates Type 1 (Pointing)": "pointing", "Locked Candidates Type 2 (Claiming)": "claiming",
    "Naked Quadruple": "naked_quad", "Hidden Quadruple": "hidden_quad", "2-String Kite": "two_string_kite",
    "Bivalue Universal Grave + 1": "bug_plus_1", "Simple Colors Trap": "simple_colors",
    "Simple Colors Wrap": "simple_colors", "Multi-Colors 1": "multi_colors", "Multi-Colors 2": "multi_colors",
    "Almost Locked Set XZ-Rule": "als_xz", "Almost Locked Set XY-Wing": "als_xy_wing",
    "Almost Locked Set XY-Chain": "als_xy_chain",
}


def _name(value: str) -> str:
    """Our name for HoDoKu's technique (its own, snake-cased, where we have none)."""
    own = re.sub(r"[^a-z0-9]+", "_", value.lower()).strip("_")
    return NAMES.get(value) or own.replace("uniqueness_test", "uniqueness")

_OUR_SIDE = r"""
import json, sys
from pipeline.board import parse
from pipeline.difficulty.grade import grade
for line in sys.stdin:
    p, g = json.loads(line)
    r = grade(parse(p), grader=g, compiled=False)
    print(json.dumps({"level": r.level, "score": r.score, "steps": [
        [s.technique, sorted(s.placements), sorted(s.eliminations)] for s in r.steps]}), flush=True)
"""


def _ours(puzzles: list[str], python: str, grader: int) -> list[dict]:
    env = dict(os.environ, PYTHONPATH=str(Path.cwd()))
    feed = "".join(json.dumps([p, grader]) + "\n" for p in puzzles)
    out = subprocess.run([python, "-c", _OUR_SIDE], input=feed, capture_output=True, text=True, env=env, check=True)
    return [json.loads(line) for line in out.stdout.splitlines()]


def _hodoku(puzzle: str) -> tuple[str, int, list[tuple[str, list, list]]]:
    from hodoku.solver.solver import SudokuSolver  # the peer, from the benchmark venv

    res = SudokuSolver().solve(puzzle)
    steps = []
    for s in res.steps:
        name = _name(s.type.value)
        placed = sorted(zip(s.indices, s.values, strict=True)) if name in SINGLES else []
        steps.append((name, placed, sorted((c.index, c.value) for c in s.candidates_to_delete)))
    return res.level.name, res.score, steps


def _not_single(steps: list, singles: set[str]) -> list:
    return [s for s in steps if s[0] not in singles]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("jsonl", type=Path)
    ap.add_argument("lines", type=int, nargs="+")
    ap.add_argument("--grader", type=int, default=5)
    ap.add_argument("--ours", default=".venv/bin/python")
    ap.add_argument("--all", action="store_true", help="print both whole paths (non-single steps)")
    args = ap.parse_args()
    rows = [json.loads(line) for line in args.jsonl.read_text().splitlines() if line.strip()]
    puzzles = [rows[i]["puzzle"] for i in args.lines]
    ours = _ours(puzzles, args.ours, args.grader)
    for i, p, o in zip(args.lines, puzzles, ours, strict=True):
        level, score, theirs = _hodoku(p)
        a = _not_single([[t, pl, [tuple(e) for e in el]] for t, pl, el in o["steps"]], OURS_SINGLES)
        b = _not_single([list(t) for t in theirs], SINGLES)
        k = 0
        while k < min(len(a), len(b)) and b[k][0] == a[k][0] and sorted(a[k][2]) == sorted(b[k][2]):
            k += 1
        print(f"== line {i}: HoDoKu {level} {score} | ours {o['level']} {o['score']:.0f}; "
              f"same first {k} non-single steps")
        if args.all:
            for j in range(max(len(a), len(b))):
                print(f"  {j:3d} ours {a[j][0] if j < len(a) else '-':28s} {_cands(a[j][2]) if j < len(a) else ''}")
                print(f"      hdk  {b[j][0] if j < len(b) else '-':28s} {_cands(b[j][2]) if j < len(b) else ''}")
        else:
            if k < len(a):
                print(f"  ours   {a[k][0]:28s} {_cands(a[k][2])}")
            if k < len(b):
                print(f"  HoDoKu {b[k][0]:28s} {_cands(b[k][2])}")
        sys.stdout.flush()


def _cands(el: list) -> str:
    return " ".join(f"r{c // 9 + 1}c{c % 9 + 1}<>{d}" for c, d in el)


if __name__ == "__main__":
    main()
