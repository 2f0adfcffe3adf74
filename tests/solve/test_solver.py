"""Issue 3: solve / count / repair as a library, over every size, with repairs of known size."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline import verify
from pipeline.board import board, format_line, parse, size_of
from pipeline.solve import solver
from tests.golden import SMALL, TDOKU

CASES = TDOKU + SMALL


def test_golden_set_is_broad() -> None:
    assert len(CASES) >= 30
    assert {size_of(p) for p, _, _ in CASES} == {4, 6, 9, 16}


@pytest.mark.heavy
@pytest.mark.parametrize(("puzzle", "count", "solution"), CASES, ids=lambda v: str(v)[:12])
def test_solve_status(puzzle: str, count: int, solution: str | None) -> None:
    result = solver.solve(parse(puzzle))
    assert result.status == {0: "none", 1: "unique"}.get(count, "multiple")
    if count == 0:
        assert result.solution is None and result.reason
    else:
        assert result.solution is not None
        assert verify.is_valid_solution(result.solution, board(size_of(puzzle)))
    if solution is not None:
        assert result.solution is not None and format_line(result.solution) == solution


def test_count_reports_up_to_the_limit() -> None:
    several = [(p, c) for p, c, _ in CASES if 2 < c < 40]
    assert several
    for puzzle, count in several[:4]:
        assert solver.count_solutions(parse(puzzle), limit=count + 5).count == count
        assert solver.count_solutions(parse(puzzle), limit=2).count == 2


def _corrupt(puzzle: tuple[int, ...], k: int, seed: int) -> tuple[int, ...] | None:
    """Change k givens, each to a digit that clashes with another given in its row, in k disjoint
    rows, columns and boxes. Each clash pair is disjoint, so at least k changes are needed, and
    reverting the k givens is a repair: the fewest changes is exactly k."""
    n = int(len(puzzle) ** 0.5)
    b = board(n)
    rng = np.random.default_rng(seed)
    out = list(puzzle)
    used_rows: set[int] = set()
    used_cols: set[int] = set()
    used_boxes: set[int] = set()
    touched: set[int] = set()
    for i in rng.permutation(len(puzzle)).tolist():
        if len(touched) == k:
            break
        r, c = divmod(i, n)
        if not puzzle[i] or r in used_rows or c in used_cols or b.box_of[i] in used_boxes or i in touched:
            continue
        others = [j for j in b.rows[r] if j != i and puzzle[j] and j not in touched]
        if not others:
            continue
        j = others[0]
        if any(b.box_of[j] == b.box_of[t] or j // n == t // n or j % n == t % n for t in touched):
            continue
        out[i] = puzzle[j]
        touched.add(i)
        used_rows.add(r)
        used_cols.add(c)
        used_boxes.add(b.box_of[i])
    return tuple(out) if len(touched) == k else None


@pytest.mark.heavy
@pytest.mark.parametrize(("n_cases", "k"), [(0, 1), (1, 2), (2, 3)])
def test_repair_finds_the_fewest_changes(n_cases: int, k: int) -> None:
    uniques = [(parse(p), parse(s)) for p, c, s in CASES if c == 1 and s and size_of(p) in (4, 6, 9)]
    picked = uniques[n_cases::5][:4]
    assert picked  # the loop below repairs some puzzles, not none
    for puzzle, _sol in picked:
        fewest = k if len(puzzle) > 16 else 1
        bad = next(b for seed in range(50) if (b := _corrupt(puzzle, fewest, seed)) is not None)
        assert solver.solve(bad).status == "none"
        result = solver.repair(bad)
        assert result.status == "repaired"
        assert len(result.changes) == fewest
        assert verify.count_solutions(result.repaired, board(int(len(bad) ** 0.5)), 1) == 1
        assert result.solution is not None
        assert all(g in (0, s) for g, s in zip(result.repaired, result.solution, strict=True))
        for ch in result.changes:
            i = ch.row * int(len(bad) ** 0.5) + ch.col
            assert format_line((bad[i],)) == ch.old and format_line((result.repaired[i],)) == ch.new


def test_repair_leaves_sound_puzzles_alone() -> None:
    p = next(c[0] for c in CASES if c[1] == 1)
    result = solver.repair(parse(p))
    assert result.status == "unique" and result.changes == () and result.repaired == parse(p)
    many = next(c for c in CASES if c[1] > 1)
    assert solver.repair(parse(many[0])).status == "multiple"


def test_reason_names_the_clash() -> None:
    p = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    bad = p[:6] + "5" + p[7:]  # a second 5 in row 1, column 7
    assert solver.solve(parse(bad)).reason == "row 1 has two 5s (columns 1 and 7)"


def test_json_and_batch_row_share_one_outcome() -> None:
    """`--format json` and a batch Parquet row are both built from `solver.outcome` (same values)."""
    from pipeline.solve import batch

    p = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    clash = "55" + p[2:]
    many = next(c[0] for c in CASES if c[1] > 2 and size_of(c[0]) == 9)
    for text in (p, clash, many):
        for mode in ("solve", "count", "repair"):
            grid = parse(text)
            result = solver.repair(grid) if mode == "repair" else solver.solve(grid, 5 if mode == "count" else 2)
            js, row = solver.as_json(result), batch.solve_one(text, mode, 5)
            assert list(row) == [k for k in batch.SCHEMA if k != "line"]
            for key in ("status", "solution", "solutions_found", "changes"):
                assert js[key] == row[key], (text, mode, key)
            assert row["puzzle"] == text and js["puzzle"] == format_line(grid)
            if mode == "repair":
                assert list(js)[5:] == ["repaired_puzzle", "repaired_status"]
                assert js["repaired_puzzle"] == row["repaired_puzzle"] and row["error"] is None
            else:
                assert list(js)[5:] == ["reason"] and js["reason"] == row["error"]
                assert row["repaired_puzzle"] is None
    assert solver.as_json(solver.repair(parse(clash)))["repaired_puzzle"] == p
    assert solver.as_json(solver.solve(parse(p)), found=7)["solutions_found"] == 7
