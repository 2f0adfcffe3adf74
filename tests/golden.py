"""The golden counts, read once and run against every solver and counter.

``puzzle:count[:solution]`` lines (``.`` = blank; ``#`` comments): tdoku's 43 9x9 puzzles and our
4x4, 6x6 and 16x16 file (provenance in ``tests/data/README.md``). The ILP engine, the compiled
counters, the verifier's counter, the pure-Python search and the CLI are each checked against these
same cases; ``TOP95`` is Norvig's hard list, read once for the tests that take it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pipeline.board import size_of
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


def case_name(puzzle: str, count: int, solution: str | None = None) -> str:
    """A golden case as its test id begins: the puzzle's first 12 characters and its count of solutions
    (``.5...9.2B.1C-1``), the name :func:`tests.costs.deep_cases` marks a case by."""
    return f"{puzzle[:12]}-{count}"


def dear_to_the_oracles(cases: list[tuple[str, int, str | None]]) -> list[Any]:
    """``cases`` with the one whose checks by the ILP or a pure-Python counter take the longest in
    the system tier: the 16x16 puzzle with 799 solutions (over a minute for the ILP to find six of
    them, tens of seconds for the verifier's pure-Python counter to count to 2, on a loaded 2-core
    machine). ``make test`` checks it on the compiled counters, exactly
    (``tests/verify/test_count_jit.py::test_golden_counts`` counts all 799); the parameters marked
    here run it through the ILP and the oracles in ``make test-system``."""
    return [pytest.param(*case, marks=pytest.mark.system) if size_of(case[0]) == 16 and case[1] > 1 else case
            for case in cases]
