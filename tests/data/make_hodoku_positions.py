#!/usr/bin/env python3
"""Positions for ``logic_positions.txt`` taken from HoDoKu's own solving paths (hodoku-py as oracle).

Runs under the *peers'* Python (hodoku-py is never a numplace dependency, and no test runs this):
for each puzzle of a file (one a line, or JSON lines with ``puzzle``) HoDoKu's solve loop runs step
by step; the state just before the first step of a wanted type is printed as one line of
``logic_positions.txt`` (mode ``find``): the digits (``+d`` for one placed on the way, not given),
the candidates removed beyond the digits' peers, and HoDoKu's eliminations (placements) as the
expected effects.

    /tmp/peers/bin/python tests/data/make_hodoku_positions.py /tmp/heldout/dev.jsonl MULTI_COLORS_1 \\
        multi_colors --limit 2

With ``--check`` the file holds position lines instead (found along numplace's own paths, for a type
HoDoKu's paths rarely reach): each state is loaded into HoDoKu's grid and HoDoKu's finder of the
wanted type is asked for its step there; the line is printed again only when HoDoKu's eliminations
are exactly the line's.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def _name(i: int) -> str:
    return f"r{i // 9 + 1}c{i % 9 + 1}"


def main() -> None:
    from hodoku.core.grid import BUDDIES, Grid
    from hodoku.core.types import SolutionType
    from hodoku.solver.solver import SudokuSolver, _apply_step
    from hodoku.solver.step_finder import SudokuStepFinder

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("puzzles", type=Path)
    ap.add_argument("types", help="HoDoKu SolutionType names, comma-separated")
    ap.add_argument("ours", help="our technique name, printed as the line's first field")
    ap.add_argument("--limit", type=int, default=3)
    ap.add_argument("--check", action="store_true", help="the file holds position lines: check them")
    args = ap.parse_args()
    wanted = {SolutionType[t] for t in args.types.split(",")}
    if args.check:
        _check(args.puzzles, wanted)
        return
    solver = SudokuSolver()
    found = 0
    for line in args.puzzles.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        puzzle = json.loads(line)["puzzle"] if line.startswith("{") else line
        grid = Grid()
        grid.set_sudoku(puzzle)
        finder = SudokuStepFinder(grid, solver._config.solve_search)
        steps = solver._config.solver_steps
        while not grid.is_solved():
            step = solver._find_next_step(finder, steps)
            if step is None:
                break
            if step.type in wanted:
                # a placed (not given) digit is written +d, as in HoDoKu's own load lines
                state = "".join(("" if grid.is_fixed(i) else "+") + str(v) if v else "."
                                for i, v in enumerate(grid.values))
                removed = []
                for i in range(81):
                    if grid.values[i]:
                        continue
                    seen = {grid.values[j] for j in range(81) if BUDDIES[i] >> j & 1 and grid.values[j]}
                    for d in range(1, 10):
                        if d not in seen and not grid.candidates[i] >> (d - 1) & 1:
                            removed.append(f"{_name(i)}:{d}")
                effects = [f"-{_name(c.index)}:{c.value}" for c in step.candidates_to_delete]
                effects += [f"+{_name(i)}:{v}" for i, v in zip(step.indices, step.values, strict=False)
                            if step.type.name.startswith(("FORCING", "BUG"))]
                print(f"{args.ours} | find | {state} | {' '.join(removed) or '-'} | {' '.join(sorted(effects))} | "
                      f"HoDoKu's solving path ({step.type.name}) of {puzzle} (hodoku-py as oracle, "
                      f"tests/data/make_hodoku_positions.py)")
                found += 1
                break
            _apply_step(grid, step)
        if found >= args.limit:
            break


def _cell(text: str) -> tuple[int, int]:
    """``r5c3:7`` -> (cell index, digit)."""
    rc, d = text.split(":")
    r, c = rc[1:].split("c")
    return (int(r) - 1) * 9 + int(c) - 1, int(d)


def _check(path: Path, wanted: set) -> None:
    from hodoku.core.grid import Grid
    from hodoku.solver.step_finder import SudokuStepFinder

    for raw in path.read_text(encoding="utf-8").splitlines():
        if "|" not in raw or raw.startswith("#"):
            continue
        _, _, state, removed, effects, _ = (f.strip() for f in raw.split("|"))
        grid = Grid()
        grid.set_sudoku(state)  # HoDoKu reads +d as placed, as the lines write it
        for t in removed.split():
            if t != "-":
                grid.del_candidate(*_cell(t))
        finder = SudokuStepFinder(grid)
        want = {_cell(t[1:]) for t in effects.split() if t.startswith("-")}
        for kind in sorted(wanted, key=lambda t: t.name):
            step = finder.get_step(kind)
            got = {(c.index, c.value) for c in step.candidates_to_delete} if step is not None else set()
            if got == want:
                print(raw)
                break
        else:
            print(f"# HoDoKu disagrees ({', '.join(t.name for t in wanted)}): {raw}")


if __name__ == "__main__":
    main()
