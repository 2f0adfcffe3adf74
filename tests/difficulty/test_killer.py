"""Killer techniques (pipeline.difficulty.killer.cages): the options of a sum constraint against brute
force, each technique on a position built for it, soundness of every finder along real killer
paths, the published CodinGame killer puzzles, and the level mix of configs/killer.yaml's puzzles."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

import pytest

from pipeline.board import Cage, Grid, Variant, make_variant, parse
from pipeline.difficulty.grade import KILLER_UNRATED, LEVELS, UNRATED, explain, grade
from pipeline.difficulty.killer import cages
from pipeline.difficulty.logic import Candidates, find_step, solve_logically
from pipeline.difficulty.techniques import TECHNIQUES
from pipeline.solve import solver
from tests.conftest import DATA
from tests.difficulty.test_variants import assert_all_finders_sound, assert_sound

SOLUTION = parse("568913427197254683342687915851726349473891256926345871219538764734162598685479132")
CODINGAME = json.loads((DATA / "killer" / "codingame.json").read_text())
KILLER_YAML = [json.loads(line) for line in (DATA / "killer" / "killer-yaml.jsonl").read_text().splitlines()]


def _variant(cages: list[Cage]) -> Variant:
    return Variant(("killer",), None, tuple(sorted(cages)))


def _cage(cells: tuple[int, ...], grid: Grid = SOLUTION) -> Cage:
    return Cage(cells, sum(grid[i] for i in cells))


def _row(entry: dict) -> tuple[Grid, Grid, Variant]:  # type: ignore[type-arg]
    return parse(entry["puzzle"]), parse(entry["solution"]), make_variant("killer", None, entry["cages"])


# ---------------------------------------------------------------------------------------------
# options of a sum constraint
# ---------------------------------------------------------------------------------------------


def test_options_agree_with_brute_force() -> None:
    rng = random.Random(11)
    for _ in range(300):
        k = rng.randint(1, 4)
        cands = tuple(rng.randint(1, 511) for _ in range(k))
        adj = tuple(sum(1 << q for q in range(k) if q != j and rng.random() < 0.7) for j in range(k))
        adj = tuple(a | sum(1 << q for q in range(k) if adj[q] >> j & 1) for j, a in enumerate(adj))  # symmetric
        total = rng.randint(k, 9 * k)
        want: dict[int, list[int]] = {}
        for digits in itertools.product(range(1, 10), repeat=k):
            if sum(digits) != total or any(not cands[j] >> (d - 1) & 1 for j, d in enumerate(digits)):
                continue
            if any(adj[j] >> q & 1 and digits[j] == digits[q] for j in range(k) for q in range(k)):
                continue
            used = sum(1 << (d - 1) for d in set(digits))
            cell = want.setdefault(used, [0] * k)
            for j, d in enumerate(digits):
                cell[j] |= 1 << (d - 1)
        expected = {m: tuple(u) for m, u in want.items()}
        assert cages._options_py(cands, total, adj) == expected
        assert cages.options(cands, total, adj) == expected  # the compiled twin


def test_the_compiled_options_follow_the_reference_node_for_node() -> None:
    """Larger constraints, some past the node budget: the twin gives up exactly where the reference does."""
    rng = random.Random(12)
    gave_up = 0
    for _ in range(60):
        k = rng.randint(4, 9)
        cands = tuple(511 if rng.random() < 0.6 else rng.randint(1, 511) for _ in range(k))
        everyone = (1 << k) - 1
        adj = tuple(everyone & ~(1 << j) if rng.random() < 0.5 else 0 for j in range(k))
        adj = tuple(a | sum(1 << q for q in range(k) if adj[q] >> j & 1) for j, a in enumerate(adj))
        total = rng.randint(4 * k, 6 * k)
        ref = cages._options_py(cands, total, adj)
        gave_up += ref is None
        assert cages.options(cands, total, adj) == ref
    assert cages.options((511,) * 9, 45, tuple(511 & ~(1 << j) for j in range(9))) is None
    assert gave_up > 0


# ---------------------------------------------------------------------------------------------
# each technique on a position built for it
# ---------------------------------------------------------------------------------------------


def test_cage_combination_keeps_the_digits_of_the_sums_combinations() -> None:
    st = Candidates.from_grid(tuple([0] * 81), variant=_variant([Cage((0, 1), 3)]))
    step = find_step(st, "cage_combination")
    assert step is not None and step.cells == (0, 1)
    assert set(step.eliminations) == {(i, d) for i in (0, 1) for d in range(3, 10)}
    assert "cage r1c1+r1c2 = 3: 1+2" in step.detail


def test_innies_of_a_row_place_its_last_cell() -> None:
    # row 1: cells 0-7 in two-cell cages inside it; cell 8 shares a cage with r2c9
    cages = [_cage((0, 1)), _cage((2, 3)), _cage((4, 5)), _cage((6, 7)), _cage((8, 17))]
    st = Candidates.from_grid(tuple([0] * 81), variant=_variant(cages))
    step = find_step(st, "innies_outies")
    assert step is not None and step.cells == (8,)
    assert set(step.eliminations) == {(8, d) for d in range(1, 10) if d != SOLUTION[8]}
    assert step.detail == f"innies of row 1: r1c9 add up to {SOLUTION[8]}"


def test_cage_unit_overlap_clears_the_row_of_a_cages_digit() -> None:
    st = Candidates.from_grid(tuple([0] * 81), variant=_variant([Cage((0, 1), 3)]))
    step = find_step(st, "cage_unit_overlap")
    assert step is not None and step.digits == (1,) and step.units == (0,)
    assert set(step.eliminations) == {(i, 1) for i in range(2, 9)}


def test_cage_combinations_in_a_unit_must_fit_together() -> None:
    # row 1: 7 in two cells (1+6, 2+5, 3+4), 3 in two cells (1+2), 35 in five (5+6+7+8+9): only 3+4 fits
    cages = [Cage((0, 1), 7), Cage((2, 3), 3), Cage((4, 5, 6, 7, 8), 35)]
    st = Candidates.from_grid(tuple([0] * 81), variant=_variant(cages))
    step = find_step(st, "cage_combination_unit")
    assert step is not None and step.cells == (0, 1)
    assert set(step.eliminations) == {(i, d) for i in (0, 1) for d in (1, 2, 5, 6, 7, 8, 9)}
    assert "only 3+4 fit" in step.detail


def test_no_killer_step_without_cages_and_classic_paths_never_try_one() -> None:
    st = Candidates.from_grid(SOLUTION[:40] + (0,) * 41)
    assert all(f(st, None) is None for f in cages.FINDERS.values())  # type: ignore[arg-type]
    res = solve_logically(tuple(d if i % 3 else 0 for i, d in enumerate(SOLUTION)))
    assert res.solved and not {s.technique for s in res.steps} & set(cages.KILLER_TECHNIQUES)


def test_killer_rows_have_a_level_and_a_weight() -> None:
    for name in cages.KILLER_TECHNIQUES:
        t = TECHNIQUES[name]
        assert t.level in LEVELS and t.weight > 0 and t.hodoku == ""
    assert tuple(cages.FINDERS) == cages.KILLER_TECHNIQUES


# ---------------------------------------------------------------------------------------------
# whole puzzles
# ---------------------------------------------------------------------------------------------


@pytest.mark.heavy
@pytest.mark.parametrize("index", [0, 5])
def test_every_finder_is_sound_along_killer_paths(index: int) -> None:
    puzzle, solution, variant = _row(KILLER_YAML[index])
    g = grade(puzzle, solution, variant=variant)
    assert_sound(g.steps, solution)
    assert_all_finders_sound(puzzle, solution, variant, g.steps[::7])


def test_codingame_killer_puzzles_keep_their_published_order() -> None:
    """CodinGame's "Killer Sudoku Solver" names its four test puzzles Easy, Medium, Hard and Expert;
    graded without their solutions, each is solved by logic alone, the levels do not fall along that
    order and Expert (no givens) scores highest."""
    grades = {}
    for entry in CODINGAME:
        puzzle, solution, variant = _row(entry)
        checked = solver.solve(puzzle, variant=variant)  # the transcription: one solution, the published one
        assert checked.status == "unique" and checked.solution == solution
        g = grade(puzzle, variant=variant)
        assert g.reason == "" and g.guesses == 0
        assert solve_logically(puzzle, variant=variant).grid == solution
        grades[entry["label"]] = g
    ranks = [LEVELS.index(grades[k].level) for k in ("Easy", "Medium", "Hard", "Expert")]
    assert ranks == sorted(ranks) and ranks[-1] > ranks[0]
    assert grades["Expert"].score > grades["Hard"].score > grades["Easy"].score
    assert "innies_outies" in grades["Expert"].techniques
    assert len(explain(grades["Expert"])) == len(grades["Expert"].steps)


@pytest.mark.deep
@pytest.mark.heavy
def test_killer_yaml_puzzles_get_a_level() -> None:
    levels: Counter[str] = Counter()
    used: Counter[str] = Counter()
    for entry in KILLER_YAML:
        puzzle, solution, variant = _row(entry)
        g = grade(puzzle, solution, variant=variant)
        levels[g.level] += 1
        used.update(g.techniques)
    assert sum(levels[k] for k in LEVELS) >= 0.95 * len(KILLER_YAML)
    assert len([k for k in LEVELS if levels[k]]) >= 2  # not one level for all
    assert {"cage_combination", "innies_outies", "cage_unit_overlap", "cage_combination_unit",
            "cage_splitting", "innies_outies_multi"} <= set(used)


def test_killer_logic_stops_unrated_without_a_solution_and_guesses_from_one() -> None:
    rows = [Cage(tuple(range(9 * r, 9 * r + 9)), 45) for r in range(9)]  # nothing to learn from the sums
    variant = _variant(rows)
    g = grade(tuple([0] * 81), variant=variant)
    assert g.level == UNRATED and g.reason.startswith(KILLER_UNRATED) and "81 of 81 cells open" in g.reason
    g2 = grade(tuple([0] * 81), SOLUTION, variant=variant)
    assert g2.level == "extreme" and "trial_and_error" in g2.techniques and g2.guesses > 0
    # a "solution" that breaks a cage sum is not used
    left = sum(SOLUTION[72:76])
    broken = _variant([*rows[:8], Cage(tuple(range(72, 76)), left + 1), Cage(tuple(range(76, 81)), 44 - left)])
    assert grade(tuple([0] * 81), SOLUTION, variant=broken).level == UNRATED


# ---------------------------------------------------------------------------------------------
# speed without a changed grade
# ---------------------------------------------------------------------------------------------

KILLER_YAML_GRADES = [json.loads(line) for line in
                      (DATA / "killer" / "killer-yaml-grades.jsonl").read_text().splitlines()]


def _path_digest(g: object) -> str:
    import hashlib

    steps = getattr(g, "steps")  # noqa: B009 - a Grade
    text = "\n".join(f"{s.technique}|{s.cells}|{s.placements}|{s.eliminations}|{s.detail}" for s in steps)
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.parametrize("index", [0, 1, 2, 7])
def test_killer_yaml_grades_and_paths_are_those_of_the_grader_before_the_memo(index: int) -> None:
    """Level, score, techniques and the whole path (every step's cells, eliminations and wording) of
    configs/killer.yaml's puzzles, pinned from the grader before constraint states were remembered
    (tests/data/killer/killer-yaml-grades.jsonl), under grader 5's rules, which that grader had (grader
    6's grouped loops change puzzle 1's path: the next test)."""
    puzzle, solution, variant = _row(KILLER_YAML[index])
    want = KILLER_YAML_GRADES[index]
    assert want["puzzle_id"] == KILLER_YAML[index]["puzzle_id"]
    g = grade(puzzle, solution, variant=variant, grader=5)
    assert (g.level, g.score, list(g.techniques), len(g.steps)) == (
        want["level"], want["score"], want["techniques"], want["steps"])
    assert _path_digest(g) == want["path_sha256"]


def test_grader_6_takes_grouped_loops_where_grader_5_took_forcing_chains_on_a_killer_board() -> None:
    """configs/killer.yaml's second puzzle: three forcing-chain verities of grader 5 are grouped
    discontinuous nice loops under grader 6 (a cage makes r2c7 see r3c5: r2c7(2) on turns the group
    r23c5(2) off, so r2c6 is box 2's 2, and r2c7(2) is off again); the rest of the path is the same."""
    puzzle, solution, variant = _row(KILLER_YAML[1])
    five, six = (grade(puzzle, solution, variant=variant, grader=v) for v in (5, 6))
    assert "forcing_chain" in five.techniques and "grouped_discontinuous_nice_loop" not in five.techniques
    assert "forcing_chain" not in six.techniques and "grouped_discontinuous_nice_loop" in six.techniques
    loops = [s for s in six.steps if s.technique == "grouped_discontinuous_nice_loop"]
    assert loops[0].detail == "r2c7(2) - r23c5(2) = r2c6(2) - r2c7(2): r2c7(2) false"
    assert loops[0].eliminations == ((15, 2),)
    assert six.score == five.score - 3 * (500 - 300)  # three forcing chains (500) became grouped loops (300)
    assert len(six.steps) == len(five.steps)


def test_a_constraint_state_met_before_is_not_searched_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Grading a killer puzzle again meets only constraint states it met the first time: the options
    search never runs, and the grade is the same step for step."""
    cages._memo.cache_clear()
    puzzle, solution, variant = _row(KILLER_YAML[2])
    first = grade(puzzle, solution, variant=variant)
    assert cages._memo(9, variant)

    def no_search(*args: object) -> None:
        raise AssertionError("a remembered constraint state was searched again")

    monkeypatch.setattr(cages, "options", no_search)
    again = grade(puzzle, solution, variant=variant)
    assert again == first
    # another board keeps its own states: its constraints are searched
    other_puzzle, other_solution, other = _row(KILLER_YAML[3])
    with pytest.raises(AssertionError, match="searched again"):
        grade(other_puzzle, other_solution, variant=other)


def test_the_compiled_forcing_net_finds_the_pure_python_step_along_killer_paths() -> None:
    """On killer boards the forcing net runs compiled (loops_jit); at every state before a forcing net
    step of two extreme paths, and every fifth state besides, it gives the reference's step (or None)."""
    from pipeline.difficulty.candidates import _Ctx
    from pipeline.difficulty.chains import loops

    compared, found = 0, 0
    for index in (1, 15):
        puzzle, solution, variant = _row(KILLER_YAML[index])
        g = grade(puzzle, solution, variant=variant)
        st = Candidates.from_grid(puzzle, variant=variant)
        for k, step in enumerate(g.steps):
            if step.technique == "forcing_net" or k % 5 == 0:
                want = loops._forcing_net_py(st, _Ctx(st))
                assert loops._forcing_net(st, _Ctx(st)) == want
                compared += 1
                found += want is not None
            st.apply(step)
    assert compared > 40 and found >= 2
