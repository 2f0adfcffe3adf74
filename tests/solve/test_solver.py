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
        assert verify.independent_count(result.repaired, board(int(len(bad) ** 0.5)), 1) == 1
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


def _wrong_at_r9c9(k: int, digit: int) -> tuple[str, str]:
    """Norvig's hard puzzle ``k`` (unique) and the same puzzle with its given at r9c9 changed to ``digit``
    (unsolvable then): a thesis-style case of one wrong given."""
    from tests.golden import TOP95

    p = TOP95[k]
    assert p[80] != "." and p[80] != str(digit)
    return p, p[:80] + str(digit)


@pytest.mark.parametrize(("k", "digit", "other"), [(56, 3, (8, 6)), (23, 2, (6, 6)), (19, 2, (8, 8))])
def test_repair_prefers_a_unique_result(k: int, digit: int, other: tuple[int, int]) -> None:
    """One wrong given at r9c9 of a unique puzzle: the first minimum-change repair HiGHS finds changes
    another cell (``other``: r9c7, r7c7) or r9c9 to a third digit, and its result has several
    solutions; among the one-change repairs, putting r9c9 back is unique, and that one is returned."""
    from pipeline.ilp.engine import engine_for

    good, bad = _wrong_at_r9c9(k, digit)
    first = engine_for(9).closest(parse(bad)).grid
    assert first is not None
    changed = [(i // 9, i % 9) for i, d in enumerate(parse(bad)) if d and d != first[i]]
    assert changed == [other] and first[80] != int(good[80])  # the case: today's repair is not unique
    result = solver.repair(parse(bad))
    assert result.status == "repaired" and result.repaired_status == "unique" and result.note is None
    assert [(c.row, c.col, c.old, c.new) for c in result.changes] == [(8, 8, str(digit), good[80])]
    assert result.repaired == parse(good)
    assert verify.independent_count(result.repaired, board(9), 2) == 1


def test_repair_says_plainly_when_no_fewest_change_repair_is_unique() -> None:
    """Two 5s in an otherwise empty row: each of the 16 one-change repairs (either 5 to any of 8
    digits) leaves a puzzle with many solutions; every one is tried, and the note says none is unique."""
    bad = parse("55" + "." * 79)
    result = solver.repair(bad)
    assert result.status == "repaired" and result.repaired_status == "multiple" and len(result.changes) == 1
    assert result.note == "no repair with 1 change gives a unique puzzle"
    assert solver.as_json(result)["repair_note"] == result.note


def test_repair_says_when_the_search_for_a_unique_repair_gave_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """With one set of givens to look at and 3 counts to search it, "none" is not claimed."""
    monkeypatch.setattr(solver, "REPAIR_SETS", 1)
    monkeypatch.setattr(solver, "REPAIR_NODES", 3)
    result = solver.repair(parse("55" + "." * 79))
    assert result.repaired_status == "multiple"
    assert result.note == "no repair with 1 change found that gives a unique puzzle (not every one was tried)"


def test_closest_walks_the_sets_of_changed_givens() -> None:
    """The optimum first, then each call with ``keep`` and the sets found so far gives a repair that
    changes another set of givens, then ``infeasible``; the engine's rows are restored every time."""
    from pipeline.ilp.engine import engine_for

    eng = engine_for(9)
    rows = eng._h.getNumRow()
    p = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    bad = parse("55" + p[2:5] + "5" + p[6:])  # three 5s in row 1: keep one of them, change two
    givens = sum(1 for d in bad if d)
    out = eng.closest(bad)
    assert out.grid is not None
    sets = [frozenset(i for i, d in enumerate(bad) if d and d != out.grid[i])]
    assert len(sets[0]) == 2 and eng._h.getNumRow() == rows
    while (nxt := eng.closest(bad, givens - 2, sets)).status == "feasible":
        assert nxt.grid is not None and eng._h.getNumRow() == rows
        changed = frozenset(i for i, d in enumerate(bad) if d and d != nxt.grid[i])
        assert len(changed) == 2 and changed not in sets
        sets.append(changed)
    assert nxt.status == "infeasible" and eng._h.getNumRow() == rows
    assert set(sets) <= {frozenset({0, 1}), frozenset({0, 5}), frozenset({1, 5})}


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
                assert list(js)[5:] == ["repaired_puzzle", "repaired_status", "repair_note", "equally_good",
                                        "equally_good_more"]
                assert js["repaired_puzzle"] == row["repaired_puzzle"] and row["error"] is None
            else:
                assert list(js)[5:] == ["reason"] and js["reason"] == row["error"]
                assert row["repaired_puzzle"] is None
    assert solver.as_json(solver.repair(parse(clash)))["repaired_puzzle"] == p
    assert solver.as_json(solver.solve(parse(p)), found=7)["solutions_found"] == 7
