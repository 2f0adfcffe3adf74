"""Make ``grader_paths.json``: every held grader version's solving path of a fixed set of puzzles.

Usage: python tests/data/make_grader_paths.py [OUT]   (run by hand, never by a test)

The puzzles: the first 12 of ``top95.txt``, the one-solution puzzles of ``tdoku_test_puzzles.txt`` and
the 40 puzzles of ``numplace generate --count 40 --seed 11 --format json`` (the tuning set), written
into the file itself. For each puzzle and each version of
:data:`pipeline.difficulty.techniques.ORDERS`: the pure-Python solver's path as a digest
(:func:`path_digest`), its level and score. ``tests/difficulty/test_rulebooks.py`` recomputes them,
compiled and pure, so an old grader's rules cannot change unnoticed.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def path_digest(steps: list) -> str:  # type: ignore[type-arg]
    """sha256 (16 hex digits) of a path: each step's technique, cells, placements, eliminations and words."""
    text = "\n".join(f"{s.technique}|{s.cells}|{s.placements}|{s.eliminations}|{s.detail}" for s in steps)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _lines(name: str) -> list[str]:
    return [x.strip() for x in (HERE / name).read_text(encoding="utf-8").splitlines()
            if x.strip() and not x.startswith("#")]


def main() -> None:
    from pipeline.board import parse
    from pipeline.difficulty.grade import grade_result
    from pipeline.difficulty.logic import solve_logically
    from pipeline.difficulty.techniques import ORDERS

    puzzles = _lines("top95.txt")[:12]
    puzzles += [x.split(":")[0] for x in _lines("tdoku_test_puzzles.txt") if x.split(":")[1] == "1"]
    made = subprocess.run([sys.executable, "-m", "pipeline", "generate", "--count", "40", "--seed", "11",
                           "--format", "json"], capture_output=True, check=True, text=True).stdout
    puzzles += [json.loads(x)["puzzle"] for x in made.splitlines() if x.strip()]
    rows = []
    for p in puzzles:
        row: dict[str, object] = {"puzzle": p}
        for v in sorted(ORDERS):
            res = solve_logically(parse(p), compiled=False, grader=v)
            g = grade_result(res)
            row[str(v)] = [path_digest(res.steps), g.level, g.score]
        rows.append(row)
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "grader_paths.json"
    out.write_text(json.dumps({"versions": sorted(ORDERS), "puzzles": rows}, indent=0) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
