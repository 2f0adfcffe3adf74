"""The golden counts, read once and run against every solver and counter.

``puzzle:count[:solution]`` lines (``.`` = blank; ``#`` comments): tdoku's 43 9x9 puzzles and our
4x4, 6x6 and 16x16 file (provenance in ``tests/data/README.md``). The ILP engine, the compiled
counters, the verifier's counter, the pure-Python search and the CLI are each checked against these
same cases; ``TOP95`` is Norvig's hard list, read once for the tests that take it.
"""

from __future__ import annotations

from pathlib import Path

from tests.conftest import DATA


def cases(path: Path) -> list[tuple[str, int, str | None]]:
    """The ``(puzzle, count, solution or None)`` cases of one golden file."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        puzzle, count, *sol = line.split(":")
        out.append((puzzle, int(count), sol[0] if sol else None))
    return out


TDOKU = cases(DATA / "tdoku_test_puzzles.txt")
SMALL = cases(DATA / "golden_small.txt")
#: Norvig's 95 hard 9x9 puzzles, one text line each (every one has exactly one solution).
TOP95 = [ln.strip() for ln in (DATA / "top95.txt").read_text(encoding="utf-8").splitlines()
         if ln.strip() and not ln.startswith("#")]
