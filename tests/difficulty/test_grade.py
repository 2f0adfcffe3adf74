"""Difficulty grades: HoDoKu's technique levels and weights, level rule, order, explanations."""

from __future__ import annotations

import json

import pytest

from pipeline.board import Grid, parse
from pipeline.difficulty.grade import (
    LEVELS,
    TECHNIQUES,
    Grade,
    difficulty_key,
    explain,
    explain_step,
    grade,
    grade_result,
    level_of,
    max_score,
    score_steps,
)
from pipeline.difficulty.logic import TECHNIQUE_ORDER, Candidates, Step, next_step, solve_logically
from pipeline.difficulty.techniques import GRADER_VERSION, ORDERS
from pipeline.generate.puzzle import make_puzzle
from pipeline.generate.spec import Spec
from tests.conftest import DATA

TDOKU = DATA / "tdoku_test_puzzles.txt"

# Original puzzles of HoDoKu's technique examples (hodoku.sourceforge.net, show_example.php):
# each needs exactly the named technique beyond singles, and HoDoKu rates them Hard.
HODOKU_ORIGINALS = {
    "x_wing": "9...627....5..3...........67...3.........9...8.2.45..9..35.1.28.4......5.1.......",
    "remote_pair": "..845...6..3..1.........87........48.2.1.37...6..9....9...14.3.1.7.2..5.2........",
    "skyscraper": "...........19.2.6......679.9.2...6..37....95...5.....414...3..57.9.24......8.....",
    "xy_wing": ".1....5.8...4.3....567.........2..8.4.....3.22..376..19.8...254.....7...........3",
    "w_wing": "6......7.....2.....58..1.....4.....2...1..9.6597.4...892.4..6.....5.......68.3...",
}
# A classic singles-only newspaper puzzle.
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def step(name: str) -> Step:
    return Step(name, (0,), eliminations=((0, 1),))


def test_table_covers_the_solver_in_order() -> None:
    assert tuple(TECHNIQUES) == TECHNIQUE_ORDER == ORDERS[GRADER_VERSION]
    assert all(t.level in LEVELS and t.weight > 0 and t.title for t in TECHNIQUES.values())
    assert all(set(order) <= set(TECHNIQUES) and order[-1] == "trial_and_error" for order in ORDERS.values())


#: HoDoKu's solver index of each step we implement (``Options.DEFAULT_SOLVER_STEPS``, transcribed in
#: tests/data/hodoku_defaults.json): its solver tries enabled steps by ascending index.
HODOKU_INDEX = {name: step["index"] for name, step in json.loads(
    (DATA / "hodoku_defaults.json").read_text(encoding="utf-8"))["steps"].items()}


def test_grader_3_tries_the_techniques_in_hodokus_default_order() -> None:
    """Version 3's order is HoDoKu's restricted to our rows; the killer rows (HoDoKu has no killer)
    come right after the singles, and the discontinuous nice loop and AIC keep their table order
    (one HoDoKu step)."""
    classic = [t for t in ORDERS[3] if TECHNIQUES[t].hodoku]
    assert [TECHNIQUES[t].hodoku for t in classic] == sorted(
        (TECHNIQUES[t].hodoku for t in classic), key=lambda h: HODOKU_INDEX[h])
    killer = [t for t in ORDERS[3] if not TECHNIQUES[t].hodoku]
    assert list(ORDERS[3][2:2 + len(killer)]) == killer
    assert ORDERS[2] != ORDERS[3]  # version 2 kept its own order


def test_level_rule_is_hodokus() -> None:
    # MAX_SCORE is HoDoKu's (tests/difficulty/test_registry.py, against HoDoKu's own table)
    assert level_of([step("naked_single")] * 50) == "easy"  # 200
    assert level_of([step("hidden_single")] * 57) == "easy"  # 798
    assert level_of([step("hidden_single")] * 58) == "medium"  # 812 > 800
    assert level_of([step("x_wing")]) == "hard"
    assert level_of([step("x_wing")] * 12) == "expert"  # 1680 > 1600
    assert level_of([step("x_wing")] * 13) == "extreme"  # 1820 > 1800
    assert level_of([step("xy_chain")]) == "expert"
    assert level_of([step("trial_and_error")]) == "extreme"
    assert level_of([]) == "easy"
    assert max_score("easy", 16) > max_score("easy", 9) == max_score("easy", 4) == 800


def test_easy_puzzle_is_easy() -> None:
    g = grade(parse(EASY))
    assert g.level == "easy" and g.hodoku_level == "Easy"
    assert set(g.techniques) <= {"naked_single", "hidden_single"}
    assert g.guesses == 0 and g.logic_steps == len(g.steps) == 81 - sum(1 for c in EASY if c != ".")
    assert g.score == score_steps(g.steps)


@pytest.mark.parametrize("technique", sorted(HODOKU_ORIGINALS))
def test_hodoku_example_puzzles_are_hard_with_their_technique(technique: str) -> None:
    g = grade(parse(HODOKU_ORIGINALS[technique]))
    assert g.level == "hard"
    assert g.techniques[-1] == technique


def tdoku_unique() -> list[tuple[Grid, Grid]]:
    out = []
    for raw in TDOKU.read_text(encoding="utf-8").splitlines():
        parts = raw.strip().split(":")
        if len(parts) > 2 and parts[1] == "1" and parts[2]:
            out.append((parse(parts[0]), parse(parts[2])))
    return out


@pytest.mark.deep
@pytest.mark.heavy
def test_known_hard_puzzles_grade_extreme() -> None:
    hard = [g for g in (grade(p, solution=s) for p, s in tdoku_unique()) if "trial_and_error" in g.techniques]
    assert len(hard) >= 5
    for g in hard:
        assert g.level == "extreme" and g.score >= 10000 and g.guesses >= 1
        assert g.techniques[-1] == "trial_and_error"


def check_grade(g: Grade) -> None:
    keys = [difficulty_key(t) for t in g.techniques]
    assert keys == sorted(keys) and len(set(g.techniques)) == len(g.techniques)
    assert set(g.techniques) == {s.technique for s in g.steps}
    assert LEVELS.index(g.level) >= LEVELS.index(TECHNIQUES[g.techniques[-1]].level)
    assert g.score == sum(TECHNIQUES[s.technique].weight for s in g.steps)
    assert g.score >= 4 * len(g.steps)
    assert g.logic_steps + g.guesses == len(g.steps)


@pytest.mark.parametrize("count", [pytest.param(8, marks=pytest.mark.heavy),
                                   pytest.param(20, marks=pytest.mark.system)])
def test_generated_puzzles_grades_are_consistent(count: int) -> None:
    """``count`` generated puzzles (8 in make test, 20 in the system tier)."""
    grades = []
    for seed in range(count):
        made = make_puzzle(Spec(size=9, symmetry="rot180", minimal=True), 9100 + seed)
        puzzle, solution = made.puzzle, made.solution
        assert isinstance(puzzle, tuple) and isinstance(solution, tuple)
        g = grade(puzzle)
        check_grade(g)
        assert g == grade(puzzle, solution=solution)  # the hint changes nothing but speed
        grades.append(g)
    # harder levels score more on average (score and level agree in direction)
    by_level: dict[str, list[float]] = {}
    for g in grades:
        by_level.setdefault(g.level, []).append(g.score)
    means = [sum(v) / len(v) for lvl in LEVELS if (v := by_level.get(lvl))]
    assert means == sorted(means)


@pytest.mark.parametrize("size", [4, 6])
def test_small_boards_grade(size: int) -> None:
    for seed in range(10):
        puzzle = make_puzzle(Spec(size=size, symmetry="rot180", minimal=True), 9300 + seed).puzzle
        assert isinstance(puzzle, tuple)
        g = grade(puzzle)
        check_grade(g)
        assert g.n == size and g.level in LEVELS


def test_no_solution_cannot_be_graded() -> None:
    with pytest.raises(ValueError, match="no solution"):
        grade(parse("11" + "." * 79))
    res = solve_logically(parse(HODOKU_ORIGINALS["x_wing"]), max_technique="hidden_single")
    with pytest.raises(ValueError, match="not solved"):
        grade_result(res)


def test_explain_lines() -> None:
    g = grade(parse(HODOKU_ORIGINALS["x_wing"]))
    lines = explain(g)
    assert len(lines) == len(g.steps)
    assert lines[0].startswith("Step 1: ")
    xw = [ln for ln in lines if "X-Wing" in ln]
    assert len(xw) == 1
    assert all(" — " in ln for ln in lines)
    assert any("Hidden Single for " in ln and "sets r" in ln for ln in lines)
    assert explain(solve_logically(parse(EASY)))[0] == explain(grade(parse(EASY)))[0]


def test_explain_x_wing_wording() -> None:
    # HoDoKu's X-Wing example position (bf202): 1 in columns 1 and 5, rows 2 and 5
    grid = parse("98..62753.65..3...327.5...679..3.5...5...9...832.45..9673591428249.87..5518.2...7")
    s = next_step(Candidates.from_grid(grid))
    assert s is not None
    assert explain_step(s, 9, 12) == (
        "Step 12: X-Wing on 1 in columns 1 and 5, rows 2 and 5 — "
        "removes 1 from r2c4, r2c7, r2c8, r2c9, r5c3, r5c4, r5c7, r5c8, r5c9"
    )


def test_explain_groups_eliminations_by_digit() -> None:
    s = Step("naked_pair", (0, 1), eliminations=((5, 3), (2, 8), (4, 3)), digits=(3, 8), detail="3/8 in r1c1, r1c2")
    assert explain_step(s, 9) == "Naked Pair 3/8 in r1c1, r1c2 — removes 3 from r1c5, r1c6; 8 from r1c3"
