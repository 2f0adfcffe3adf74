"""Sue de Coq and the ALS family (ALS-XZ, ALS-XY-Wing, ALS-XY-Chain, Death Blossom): HoDoKu's step in
HoDoKu's states, their place in the table, and soundness.

``tests/data/als_positions.jsonl`` holds 20 states from the solve paths of the hard one-solution
puzzles of ``tdoku_test_puzzles.txt`` with the step hodoku-py 0.2.1 (a port of HoDoKu) takes for each
of the five techniques there (made by ``tests/data/make_als_positions.py``; hodoku-py is never a test
dependency). Our finders must take the very same eliminations, with the pure-Python search and with
the compiled parts (restricted commons, the Sue de Coq probe).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.board import parse
from pipeline.difficulty.candidates import _Ctx
from pipeline.difficulty.grade import explain_step, grade
from pipeline.difficulty.logic import Candidates, find_step, solve_logically
from pipeline.difficulty.techniques import NOT_IN_SOLVER, TECHNIQUE_ORDER, TECHNIQUES
from pipeline.difficulty.trial import search_solution

DATA = Path(__file__).resolve().parents[1] / "data" / "als_positions.jsonl"
ROWS = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]
NEW = ("sue_de_coq", "als_xz", "als_xy_wing", "als_xy_chain", "death_blossom")


def state(row: dict) -> Candidates:
    return Candidates(9, [int(c) for c in row["values"]], list(row["cand"]))


def rc(name: str) -> int:
    r, c = name[1:].split("c")
    return (int(r) - 1) * 9 + int(c) - 1


def test_the_oracle_data_exercises_every_technique() -> None:
    for t in NEW:
        assert sum(row["hodoku"][t] is not None for row in ROWS) >= 5, t
    assert sum(not any(row["hodoku"].values()) for row in ROWS) >= 5


@pytest.mark.parametrize("compiled", [False, True])
@pytest.mark.parametrize("technique", NEW)
def test_each_finder_takes_hodokus_step(technique: str, compiled: bool) -> None:
    from pipeline.difficulty.logic import _FINDERS

    for row in ROWS:
        st = state(row)
        ctx = _Ctx(st)
        ctx.cache["jit"] = compiled
        step = _FINDERS[technique](st, ctx)
        got = [list(e) for e in step.eliminations] if step else None
        assert got == row["hodoku"][technique], (row["source"], technique)


@pytest.mark.parametrize("technique", NEW)
def test_eliminations_keep_the_solution(technique: str) -> None:
    for row in ROWS:
        st = state(row)
        solution = search_solution(st.copy())
        assert solution is not None
        step = find_step(st, technique)
        if step is not None:
            assert step.eliminations and not step.placements
            assert all(solution[c] != d for c, d in step.eliminations), (row["source"], step)


def row_of(source: str) -> dict:
    return next(r for r in ROWS if r["source"] == source)


# Hand-checked: A = r2c6 {5,7} and B = r1c6, r3c6, r7c6, r8c6, r9c6 {3,4,5,6,7,8} share 5 and 7, all in
# column 6; r2c6 is 5 or 7, so B holds the other one and its other digits {3,4,6,8} are locked in B:
# B's 6s (r7c6, r8c6, box 8) take the 6 of box 8 from r7c4 and r8c4.
def test_als_xz_doubly_linked_by_hand() -> None:
    step = find_step(state(row_of("tdoku_test_puzzles.txt line 10, before step 16")), "als_xz")
    assert step is not None
    assert set(step.cells) == {rc(x) for x in ("r2c6", "r1c6", "r3c6", "r7c6", "r8c6", "r9c6")}
    assert step.eliminations == ((rc("r7c4"), 6), (rc("r8c4"), 6))
    assert "doubly linked, restricted common 5 and 7" in step.detail


# Hand-checked: if the stem r7c6 is 3, r3c6 {3,8} is 8; if 6, r9c6 {6,8} is 8; if 7, the ALS r7c4, r7c5,
# r8c4, r9c5 {1,3,7,8,9} is locked to {1,3,8,9} and holds the 8 of box 8. r8c6 sees r3c6, r9c6 (column
# 6) and every 8 of that ALS (box 8): it is not 8.
def test_death_blossom_by_hand() -> None:
    step = find_step(state(row_of("tdoku_test_puzzles.txt line 10, before step 42")), "death_blossom")
    assert step is not None
    assert step.cells[0] == rc("r7c6")
    assert step.eliminations == ((rc("r8c6"), 8),)
    assert step.detail.startswith("stem r7c6 {3,6,7}, petals 3: r3c6 {3,8}; 6: r9c6 {6,8}; 7: r7c4, r7c5, r8c4, r9c5")


# Hand-checked: r1c5, r2c5 hold {1,4,5,9} (4 digits, 2 cells); r6c5, r7c5, r9c5 in column 5 hold {1,3,8,9}
# (3 cells: 1 and 9 from the intersection, extras 3 and 8), r1c6, r2c6, r3c4, r3c6 in box 2 hold
# {3,4,5,7,8} (4 cells: 4 and 5, extras 3, 7, 8). 9 cells, and 4 + 4 + 1 digits with 3 and 8 in both
# sets: every digit placed as often as it can be, so column 5 loses 3, 8, 9 (r8c5) and box 2 loses 7
# (r1c4, r2c4).
def test_sue_de_coq_by_hand() -> None:
    step = find_step(state(row_of("tdoku_test_puzzles.txt line 10, before step 41")), "sue_de_coq")
    assert step is not None
    assert step.eliminations == ((rc("r1c4"), 7), (rc("r2c4"), 7), (rc("r8c5"), 3), (rc("r8c5"), 8),
                                 (rc("r8c5"), 9))
    line = explain_step(step, 9)
    assert line.startswith("Sue de Coq r1c5, r2c5 {1,4,5,9} in column 5 and box 2, with r6c5, r7c5, r9c5 {1,3,8,9}")


def test_wing_and_chain_explain_their_sets() -> None:
    wing = find_step(state(row_of("tdoku_test_puzzles.txt line 10, before step 35")), "als_xy_wing")
    assert wing is not None and wing.eliminations == ((rc("r6c5"), 4),)
    assert "pivot C = r3c1, r3c7, r3c9 {1,3,5,7}" in explain_step(wing, 9)
    chain = find_step(state(row_of("tdoku_test_puzzles.txt line 10, before step 41")), "als_xy_chain")
    assert chain is not None and chain.eliminations == ((rc("r2c4"), 7),)
    assert explain_step(chain, 9).count(" =") == 3  # four ALS, three restricted commons


def test_rows_sit_in_hodokus_order_with_hodokus_levels_and_weights() -> None:
    order = list(TECHNIQUE_ORDER)
    assert order.index("hidden_rectangle") < order.index("sue_de_coq") < order.index("discontinuous_nice_loop")
    assert (order.index("aic") < order.index("als_xz") < order.index("als_xy_wing") < order.index("als_xy_chain")
            < order.index("death_blossom") < order.index("forcing_chain"))
    expected = {"sue_de_coq": (250, "SUE_DE_COQ"), "als_xz": (300, "ALS_XZ"), "als_xy_wing": (320, "ALS_XY_WING"),
                "als_xy_chain": (340, "ALS_XY_CHAIN"), "death_blossom": (360, "DEATH_BLOSSOM")}
    for name, (weight, hodoku) in expected.items():
        t = TECHNIQUES[name]
        assert (t.level, t.weight, t.hodoku) == ("expert", weight, hodoku)
    assert {"death_blossom"} == NOT_IN_SOLVER


def test_the_solver_never_uses_death_blossom_as_hodoku_does_not() -> None:
    row = row_of("tdoku_test_puzzles.txt line 10, before step 42")
    st = state(row)
    assert find_step(st, "death_blossom") is not None
    puzzle = tuple(st.values)
    eliminated = [(i, d) for i in range(81) if not st.values[i] for d in range(1, 10)
                  if not st.cand[i] >> (d - 1) & 1]
    result = solve_logically(puzzle, eliminated=eliminated, unique=True, compiled=False)
    assert result.solved and all(s.technique != "death_blossom" for s in result.steps)


def test_a_puzzle_once_finished_by_forcing_chains_now_uses_the_als_rows() -> None:
    # top95 (Norvig), its 40th puzzle: main at 76940c8 grades it extreme 5748 with forcing chains
    puzzle = parse("...8....9.873...4.6..7.......85..97...........43..75.......3....3...145.4....2..1")
    g = grade(puzzle, compiled=False, grader=3)
    assert "als_xz" in g.techniques and "sue_de_coq" in g.techniques
    assert not {"forcing_chain", "forcing_net", "trial_and_error"} & set(g.techniques)
    assert (g.level, g.score) == ("extreme", 2698)
    assert grade(puzzle, compiled=True, grader=3) == g
    # grader 4 takes HoDoKu's choice of nice loop (hodoku-py rates it Extreme, 3148, with grouped loops)
    g4 = grade(puzzle, compiled=False, grader=4)
    assert (g4.level, g4.score) == ("extreme", 2778)
    assert grade(puzzle, compiled=True, grader=4) == g4


def test_larger_and_variant_boards_skip_the_search() -> None:
    from pipeline.board import Variant

    st = Candidates.from_grid(tuple([0] * 256))
    for t in NEW:
        assert find_step(st, t) is None
    row = row_of("tdoku_test_puzzles.txt line 10, before step 41")
    xst = Candidates(9, [int(c) for c in row["values"]], list(row["cand"]), Variant(kinds=("x",)))
    assert [t for t in NEW if find_step(state(row), t) is not None] == ["sue_de_coq", "als_xz", "als_xy_wing",
                                                                        "als_xy_chain"]
    assert [t for t in NEW if find_step(xst, t) is not None] == []
