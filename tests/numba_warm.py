"""Compile the numba kernels the tests use once, before pytest-xdist starts its workers.

Each xdist worker keeps its own numba cache folder (``.cache/numba/<worker>``, see tests/conftest.py):
numba's on-disk cache is not safe when two processes compile signatures of one function at the same
moment. Left alone, every worker compiles nearly every kernel itself, so a fresh clone pays the
compilation once per worker. Instead the controller runs the two :data:`PARTS` below at once, each in
its own process and cache folder (the parts compile different kernels, split so that they take about
as long), and copies both folders into every worker's folder before the workers start. A kernel or
signature the parts miss is compiled by the worker that needs it, as before; nothing here is checked
by a test, it only moves work.

Run one part by hand: ``NUMBA_CACHE_DIR=/tmp/x python -m tests.numba_warm grader``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"


def _lines(name: str) -> list[str]:
    text = (DATA / name).read_text(encoding="utf-8")
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]


def grader() -> None:
    """The grader's probes and chain engines (every grader version), on 4x4 to 16x16 and a killer board."""
    from pipeline.board import parse
    from pipeline.difficulty.grade import grade
    from pipeline.difficulty.logic import solve_logically
    from pipeline.difficulty.techniques import ORDERS

    hard = [parse(ln.split(":")[0]) for ln in _lines("tdoku_test_puzzles.txt")[:12]]
    top = [parse(ln) for ln in _lines("top95.txt")[:4]]
    for puzzle in top + hard:
        grade(puzzle, compiled=True)
    for version in sorted(ORDERS):
        solve_logically(top[0], compiled=True, grader=version)
    for ln in _lines("golden_small.txt"):
        parts = ln.split(":")
        if len(parts) > 2 and parts[1] == "1":
            solve_logically(parse(parts[0]), compiled=True)


def generator() -> None:
    """Grids, removal, the compiled counters, canonical forms and grid numbers, variants."""
    from pipeline.board import board, parse
    from pipeline.generate.puzzle import make_puzzle
    from pipeline.generate.spec import Spec
    from pipeline.identity import canon, numbering
    from pipeline.verify import count_jit

    for size in (4, 6, 9):
        for method in ("weighted-lp", "weighted-ilp") if size == 9 else ("weighted-ilp",):
            made = make_puzzle(Spec(size=size, symmetry="rot180", minimal=True, grid_method=method), 1)
            assert isinstance(made.puzzle, tuple) and isinstance(made.solution, tuple)
            canon.canonical_key(made.puzzle)
            if size == 9:
                numbering.grid_number(made.solution)
                canon.canonical_grid(made.solution)
    make_puzzle(Spec(size=16, symmetry="rot180", minimal=False, hints_min=140, hints_max=160), 1)
    for ln in _lines("golden_small.txt")[-3:]:
        grid = parse(ln.split(":")[0])
        count_jit.independent_count(grid, board(round(len(grid) ** 0.5)), 2)


PARTS = {"grader": grader, "generator": generator}


if __name__ == "__main__":
    PARTS[sys.argv[1]]()
