"""How tests/data/als_positions.jsonl was made (kept for provenance; the tests do not run it).

Two steps, two Pythons:

1. ``python tests/data/make_als_positions.py states > /tmp/als-states.jsonl`` (numplace's venv): the
   states just before every step other than a single on the pure-Python solve paths of the
   one-solution puzzles of ``tdoku_test_puzzles.txt`` (hard puzzles, many of which reach the ALS rows).
2. ``/tmp/peers/bin/python tests/data/make_als_positions.py oracle /tmp/als-states.jsonl >
   tests/data/als_positions.jsonl`` (the peers' venv, with hodoku-py 0.2.1): HoDoKu's own step of each
   of Sue de Coq, ALS-XZ, ALS-XY-Wing, ALS-XY-Chain and Death Blossom in each state (its solve-path
   settings), as the eliminations it makes, or null. Kept: for each technique the first states where
   HoDoKu finds it (up to 8), and the first 6 states where it finds none of them.

Each line: ``source`` (tdoku puzzle line and step number), ``values`` (81 digits, 0 = blank),
``cand`` (81 candidate masks, bit d-1 for digit d) and ``hodoku`` (technique -> sorted [cell, digit]
eliminations, 0-based cells, or null).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

TECHNIQUES = {"sue_de_coq": "SUE_DE_COQ", "als_xz": "ALS_XZ", "als_xy_wing": "ALS_XY_WING",
              "als_xy_chain": "ALS_XY_CHAIN", "death_blossom": "DEATH_BLOSSOM"}


def states() -> None:
    from pipeline.board import parse
    from pipeline.difficulty.logic import Candidates, solve_logically

    lines = (Path(__file__).parent / "tdoku_test_puzzles.txt").read_text(encoding="utf-8").splitlines()
    for number, raw in enumerate(lines, 1):
        parts = raw.strip().split(":")
        if raw.startswith("#") or len(parts) < 2 or parts[1] != "1":
            continue
        puzzle = parse(parts[0])
        st = Candidates.from_grid(puzzle)
        for k, step in enumerate(solve_logically(puzzle, compiled=False, unique=True).steps, 1):
            if step.technique not in ("naked_single", "hidden_single", "trial_and_error"):
                print(json.dumps({"source": f"tdoku_test_puzzles.txt line {number}, before step {k}",
                                  "values": "".join(map(str, st.values)), "cand": st.cand}))
            st.apply(step)


def oracle(path: str) -> None:
    from hodoku.config import DEFAULT_CONFIG
    from hodoku.core.grid import Grid
    from hodoku.core.types import SolutionType
    from hodoku.solver.step_finder import SudokuStepFinder

    kept: dict[str, int] = dict.fromkeys(TECHNIQUES, 0)
    empty = 0
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        grid = Grid()
        grid.set_sudoku(row["values"].replace("0", "."))
        for i, mask in enumerate(row["cand"]):
            for d in range(1, 10):
                if row["values"][i] == "0" and not mask >> (d - 1) & 1 and grid.candidates[i] >> (d - 1) & 1:
                    grid.del_candidate(i, d)
        found = {}
        for name, kind in TECHNIQUES.items():
            step = SudokuStepFinder(grid, DEFAULT_CONFIG.solve_search).get_step(SolutionType[kind])
            found[name] = sorted({(c.index, c.value) for c in step.candidates_to_delete}) if step else None
        wanted = [t for t, f in found.items() if f is not None and kept[t] < 8]
        if wanted or (not any(found.values()) and empty < 6):
            for t in wanted:
                kept[t] += 1
            empty += not any(found.values())
            print(json.dumps({**row, "hodoku": found}))


if __name__ == "__main__":
    if sys.argv[1] == "states":
        states()
    else:
        oracle(sys.argv[2])
