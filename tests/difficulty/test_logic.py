"""The human-style logical solver: one position per technique, and soundness on many puzzles.

Positions live in ``tests/data/logic_positions.txt`` (HoDoKu's published examples where available,
otherwise states taken from solve paths of generated puzzles). Every expected elimination is
re-checked here by an independent brute-force search over the candidate state, so a position only
passes if its eliminations are logically valid, not merely what the solver happened to do.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import pytest

from pipeline.board import Grid, board, parse
from pipeline.difficulty.killer.cages import KILLER_TECHNIQUES
from pipeline.difficulty.logic import (
    _FINDERS,
    TECHNIQUE_ORDER,
    Candidates,
    LogicResult,
    find_step,
    next_step,
    search_solution,
    solve_logically,
)
from pipeline.difficulty.techniques import held_version
from pipeline.generate.puzzle import make_puzzle
from pipeline.generate.spec import Spec
from pipeline.ilp.engine import engine_for
from tests.conftest import DATA

POSITIONS_FILE = DATA / "logic_positions.txt"
TDOKU = DATA / "tdoku_test_puzzles.txt"

# Two generated 16x16 puzzles with their (ILP-certified) solutions, for the large-board checks.
P16 = [
    (
        ".2...4.E....6.....D15....6F3B4..8....F..4.5.......G.D...7..8.21.........3...4D......A.EB......8F"
        ".....52GEC.71A..7BC.8.....4.G.E.1A...3..9....8.....7..C.A...D...GC9..E.......165.E4..AB.132..7.9"
        "4.E6.G.A..7C.9.....F...........AC..B2.3.D..E.....8.A.9.4F236CE..",
        "A23594GECB1D6F7897D1528CG6F3B4AE86BE3F714A529GDCF4GCDBA679E85213E1AGC69F358B4D272D54A7EB61G93C8F"
        "3F68452GECD71A9B7BC98D132F4AG5E61AF2635D97C4E8BGB587F1C9AE6GD342GC937E428DBFA1656E4DGAB81325F7C9"
        "43E61GFAB87C295DDG2FEC6754918B3AC91B2835DGAE76F4587AB9D4F236CEG1",
    ),
    (
        "....1..3.G.E....4...7.5.2...B..3A..76.B9.......4..2G....4D5.9..E6....8...C..DG9.3D.4.....5.9F..."
        "9..2..3...1F..B...7.2.........C...8.4B...F...2A.G....5...A.4..8.24...G.D1.8......B.5..1CD.3.E..9"
        "...BC.A.5.F1.....6..B1...9.7.3...3.EG9.....62A...........3....1.",
        "F59614D3BG7EAC2848DC7E5G269AB1F3AE3762B9F1C85DG4B12GAFC84D53967E6A51F84B3CE2DG973DB4ECG175A9F862"
        "9GC2D735681F4EBAEF78269AGB4D35C1DC834B7E9F6512AGG91F3562EAB4C78D24EA9GFD178C6B357B658A1CD23GEF49"
        "82GBC3A45EF179D6564DB12FA9G783EC13FEG987C4D62A5BC7A95DE6832BG41F",
    ),
]


# ---------------------------------------------------------------------------------------------
# Independent checker: brute force over a candidate state (shares no code with pipeline.difficulty.logic)
# ---------------------------------------------------------------------------------------------


def count_candidate_solutions(n: int, masks: list[int], limit: int = 2) -> list[list[int]]:
    """Solutions (up to ``limit``) of the cell-candidate masks (bit d-1 = digit d possible)."""
    units = [list(u) for u in board(n).units]
    peers = [list(p) for p in board(n).peers]
    found: list[list[int]] = []

    def rec(ms: list[int]) -> None:
        if len(found) >= limit:
            return
        # plain constraint check + fewest-candidates branching, no clever propagation
        changed = True
        while changed:
            changed = False
            for i, m in enumerate(ms):
                if m == 0:
                    return
                if m & (m - 1) == 0:
                    for j in peers[i]:
                        if ms[j] & m:
                            ms[j] &= ~m
                            changed = True
        for u in units:
            seen = 0
            for i in u:
                seen |= ms[i]
            if seen != (1 << n) - 1:
                return
        best = min((i for i in range(n * n) if ms[i] & (ms[i] - 1)), key=lambda i: bin(ms[i]).count("1"), default=-1)
        if best < 0:
            found.append([m.bit_length() for m in ms])
            return
        for d in range(n):
            if ms[best] >> d & 1:
                nxt = list(ms)
                nxt[best] = 1 << d
                rec(nxt)

    rec(list(masks))
    return found


def masks_of(st: Candidates) -> list[int]:
    return [(1 << (v - 1)) if v else m for v, m in zip(st.values, st.cand, strict=True)]


# ---------------------------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    technique: str
    mode: str
    n: int
    grid: Grid
    removed: tuple[tuple[int, int], ...]
    eliminations: frozenset[tuple[int, int]]
    placements: frozenset[tuple[int, int]]
    source: str
    line: int
    placed: int = 0  # cells (bits) whose digit was placed on the way (``+d``), not given


def _placed_bits(state: str) -> int:
    """The cells written ``+d`` (placed, not given) in a state, as bits."""
    bits, cell, plus = 0, 0, False
    for ch in state:
        if ch == "+":
            plus = True
            continue
        bits |= plus << cell
        plus = False
        cell += 1
    return bits


def _cell_digit(token: str, n: int) -> tuple[int, int]:
    """``r5c3:7`` -> (cell, 7)."""
    where, d = token.split(":")
    r, c = where[1:].split("c")
    return (int(r) - 1) * n + int(c) - 1, int(d)


@cache
def positions() -> tuple[Position, ...]:
    out = []
    for k, raw in enumerate(POSITIONS_FILE.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip() or raw.startswith("#"):
            continue
        tech, mode, state, removed, effects, source = (f.strip() for f in raw.split("|"))
        grid = parse(state.replace("+", ""))
        n = round(len(grid) ** 0.5)
        rem = tuple(_cell_digit(t, n) for t in removed.split() if t != "-")
        el = frozenset(_cell_digit(t[1:], n) for t in effects.split() if t.startswith("-"))
        pl = frozenset(_cell_digit(t[1:], n) for t in effects.split() if t.startswith("+"))
        out.append(Position(tech, mode, n, grid, rem, el, pl, source, k, _placed_bits(state)))
    return tuple(out)


def test_every_technique_but_trial_and_error_has_a_finder_in_table_order() -> None:
    assert TECHNIQUE_ORDER[-1] == "trial_and_error"
    assert tuple(_FINDERS) == TECHNIQUE_ORDER[:-1]


def test_every_technique_has_a_position() -> None:
    """Classic positions; the killer rows (cage sums) have theirs in tests/difficulty/test_killer.py."""
    classic = set(TECHNIQUE_ORDER) - set(KILLER_TECHNIQUES)
    assert {p.technique for p in positions()} == classic
    assert {p.technique for p in positions() if p.mode in ("next", "next2", "next3")} == classic - {
        "bug_plus_1", "uniqueness_5", "avoidable_rectangle_1", "avoidable_rectangle_2",
        "death_blossom"}  # death blossom is never a solve step (NOT_IN_SOLVER, as in HoDoKu's defaults)
    assert {p.technique for p in positions() if p.mode == "find"} == {
        "hidden_quad", "sashimi_jellyfish", "bug_plus_1", "uniqueness_1", "uniqueness_2", "uniqueness_4",
        "uniqueness_5", "uniqueness_6", "hidden_rectangle", "multi_colors", "avoidable_rectangle_1",
        "avoidable_rectangle_2", "als_xz", "als_xy_chain", "death_blossom", "discontinuous_nice_loop", "aic"}


@pytest.mark.parametrize("pos", positions(), ids=lambda p: f"{p.technique}-{p.n}x{p.n}-line{p.line}")
def test_position(pos: Position) -> None:
    st = Candidates.from_grid(pos.grid, pos.removed)
    st.given &= ~pos.placed
    before = (list(st.values), list(st.cand))
    step = (next_step(st) if pos.mode == "next" else next_step(st, grader=2) if pos.mode == "next2"
            else next_step(st, grader=3) if pos.mode == "next3" else find_step(st, pos.technique))
    assert (list(st.values), list(st.cand)) == before, "finding a step must not change the state"
    assert step is not None
    assert step.technique == pos.technique
    assert set(step.eliminations) == pos.eliminations
    assert set(step.placements) == pos.placements
    assert step.detail
    # independent validity: the state is from a unique puzzle, and each elimination is refuted by search
    masks = masks_of(st)
    sols = count_candidate_solutions(pos.n, masks)
    assert len(sols) == 1
    for i, d in pos.eliminations:
        assert masks[i] >> (d - 1) & 1, "an elimination must remove an existing candidate"
        forced = list(masks)
        forced[i] = 1 << (d - 1)
        assert count_candidate_solutions(pos.n, forced, limit=1) == []
    for i, d in pos.placements:
        assert sols[0][i] == d


def test_an_avoidable_rectangle_needs_placed_digits() -> None:
    """The same state with every digit taken as a given has no avoidable rectangle: only digits placed
    on the way (not given) could be swapped."""
    pos = next(p for p in positions() if p.technique == "avoidable_rectangle_1")
    st = Candidates.from_grid(pos.grid, pos.removed)
    assert find_step(st, "avoidable_rectangle_1", unique=True) is None
    st.given &= ~pos.placed
    assert find_step(st, "avoidable_rectangle_1", unique=True) is not None
    assert st.copy().given == st.given


def test_the_order_is_the_grader_versions() -> None:
    """Version 3 tries the uniqueness tests among the Hard steps, as HoDoKu does; version 2 after the
    chains: the same state, two next steps (a set begun under version 2 keeps its order)."""
    (pos,) = (p for p in positions() if p.mode == "next2" and p.technique == "xy_chain" and p.n == 9)
    st = Candidates.from_grid(pos.grid, pos.removed)
    v3, v2 = next_step(st), next_step(st, grader=2)
    assert v3 is not None and v2 is not None
    assert (v3.technique, v2.technique) == ("uniqueness_1", "xy_chain")
    with pytest.raises(ValueError, match="grader version 1 is not held"):
        next_step(st, grader=1)


def test_the_nice_loop_choice_is_the_grader_versions() -> None:
    """Version 4 makes HoDoKu's choice among every nice loop and AIC (here an AIC removing three
    candidates, HoDoKu's step); version 3 the shortest chain (a nice loop removing one): a set begun
    under version 3 keeps its steps."""
    pos = next(p for p in positions() if p.mode == "find" and p.technique == "aic")
    st = Candidates.from_grid(pos.grid, pos.removed)
    st.given &= ~pos.placed
    v4, v3 = next_step(st, grader=4), next_step(st, grader=3)
    assert v4 is not None and v3 is not None
    assert (v4.technique, set(v4.eliminations)) == ("aic", pos.eliminations)
    assert (v3.technique, v3.eliminations) == ("discontinuous_nice_loop", ((31, 4),))
    assert held_version(3) == 3 and held_version(4) == 4  # a set begun under 3 keeps 3's rows


#: A puzzle of the development set HoDoKu made (hodoku-py 0.2.1's generator, seed 1003, the 265th puzzle
#: of ``bench/heldout_hodoku.py --seed 1003``): HoDoKu rates it Unfair 1342. Its first XY-chain in
#: HoDoKu's path (hodoku-py ``Solver().solve``) removes 5 from r4c4 and r4c9 at once.
XY_HODOKU = ".....8......9...5487.....23.....2.1.48....9....6.........1..6..36287......1.....7"


def test_the_xy_chain_choice_is_the_grader_versions() -> None:
    """Version 5 takes HoDoKu's XY-chain (the most candidates removed, then its index sum): two removals
    where version 4's shortest chain removes one; a set begun under version 4 keeps its step."""
    st = Candidates.from_grid(parse(XY_HODOKU))
    while (step := next_step(st, grader=4)) is not None and step.technique != "xy_chain":
        st.apply(step)
    assert step is not None
    v5 = next_step(st, grader=5)
    assert v5 is not None and v5.technique == "xy_chain"
    assert set(v5.eliminations) == {(30, 5), (35, 5)}  # r4c4, r4c9: HoDoKu's step
    assert len(step.eliminations) == 1 and set(step.eliminations) != set(v5.eliminations)
    assert held_version(4) == 4 and held_version(5) == 5 and held_version(None) == 6


#: Another puzzle of that development set (seed 1003, the 166th): HoDoKu rates it Hard 1296; its turbot
#: fish (hodoku-py ``Solver().solve``) removes 6 from r2c1.
TURBOT_HODOKU = "....932.....5..7.8.......3926..1....43..2..75....8..6215.......3.9..7.....483...."


def test_the_turbot_fish_choice_is_the_grader_versions() -> None:
    """Version 5 takes HoDoKu's turbot fish (the lowest index sum of equal removals); version 4 the first found."""
    st = Candidates.from_grid(parse(TURBOT_HODOKU))
    while (step := next_step(st, grader=4)) is not None and step.technique != "turbot_fish":
        st.apply(step)
    assert step is not None and step.eliminations == ((18, 6),)
    v5 = next_step(st, grader=5)
    assert v5 is not None and (v5.technique, v5.eliminations) == ("turbot_fish", ((9, 6),))  # r2c1: HoDoKu's


def test_hodoku_examples_are_next_steps() -> None:
    """HoDoKu's published examples (X-Wing, Swordfish, XY-Wing, W-Wing, Simple Colors, Remote Pair,
    Skyscraper) are found as the next step with HoDoKu's exact eliminations."""
    hod = [p for p in positions() if p.source.startswith("HoDoKu")]
    assert {p.technique for p in hod} >= {"x_wing", "swordfish", "xy_wing", "w_wing", "simple_colors",
                                          "remote_pair", "skyscraper"}


def test_x_wing_detail_names_rows_and_columns() -> None:
    pos = next(p for p in positions() if p.technique == "x_wing" and "bf202" in p.source)
    step = next_step(Candidates.from_grid(pos.grid, pos.removed))
    assert step is not None
    assert step.detail == "on 1 in columns 1 and 5, rows 2 and 5"
    assert step.digits == (1,)
    assert step.units == (9, 13, 1, 4)  # base columns 1, 5 then cover rows 2, 5 (unit indices)


def test_find_step_unknown_technique() -> None:
    st = Candidates.from_grid(positions()[0].grid)
    with pytest.raises(ValueError):
        find_step(st, "nonsense")
    with pytest.raises(ValueError):
        solve_logically(positions()[0].grid, max_technique="nonsense")


# ---------------------------------------------------------------------------------------------
# Soundness
# ---------------------------------------------------------------------------------------------


def assert_sound(puzzle: Grid, solution: Grid, res: LogicResult) -> None:
    """Solved to the true solution, and no step ever contradicted it."""
    assert res.solved and not res.stuck
    assert res.grid == solution
    for step in res.steps:
        for i, d in step.eliminations:
            assert solution[i] != d, f"{step} removed the solution digit"
        for i, d in step.placements:
            assert solution[i] == d, f"{step} placed a wrong digit"
    givens = {i for i, d in enumerate(puzzle) if d}
    placed = [i for s in res.steps for i, _ in s.placements]
    assert len(placed) == len(set(placed)) and not givens & set(placed)
    assert len(placed) + len(givens) == len(puzzle)


def tdoku_rows() -> list[tuple[Grid, int, Grid | None]]:
    rows = []
    for raw in TDOKU.read_text(encoding="utf-8").splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        parts = raw.strip().split(":")
        rows.append((parse(parts[0]), int(parts[1]), parse(parts[2]) if len(parts) > 2 and parts[2] else None))
    return rows


@pytest.mark.deep
def test_tdoku_unique_puzzles_are_solved_soundly() -> None:
    rows = [(p, s) for p, c, s in tdoku_rows() if c == 1 and s is not None]
    assert len(rows) >= 15
    used: set[str] = set()
    for puzzle, solution in rows:
        res = solve_logically(puzzle)
        assert_sound(puzzle, solution, res)
        used |= {s.technique for s in res.steps}
    assert "trial_and_error" in used  # these include very hard puzzles


TDOKU_NONE = [p for p, c, _ in tdoku_rows() if c == 0]
TDOKU_MULTI = [p for p, c, _ in tdoku_rows() if c > 1]


def test_tdoku_has_no_solution_and_multi_solution_rows() -> None:
    assert len(TDOKU_NONE) >= 5 and len(TDOKU_MULTI) >= 10


@pytest.mark.heavy
@pytest.mark.parametrize("puzzle", TDOKU_NONE)
def test_tdoku_no_solution_puzzles(puzzle: Grid) -> None:
    res = solve_logically(puzzle)
    assert not res.solved and res.stuck and res.contradiction


@pytest.mark.heavy
@pytest.mark.parametrize("puzzle", [pytest.param(p, marks=pytest.mark.deep) if i in {6, 7, 8, 10, 11, 12, 13, 14} else p
                                    for i, p in enumerate(TDOKU_MULTI)])  # deep: puzzle6 to puzzle14 but 9
def test_tdoku_multi_solution_puzzles(puzzle: Grid) -> None:
    """Several solutions: the solver still ends on a valid one that keeps the givens."""
    b = board(9)
    res = solve_logically(puzzle)
    assert res.solved
    assert all({res.grid[i] for i in u} == set(range(1, 10)) for u in b.units)
    assert all(res.grid[i] == d for i, d in enumerate(puzzle) if d)


@cache
def generated(size: int, count: int) -> tuple[tuple[Grid, Grid], ...]:
    """``count`` generated minimal puzzles with their solutions, cross-checked by the ILP engine."""
    eng = engine_for(size)
    out = []
    for seed in range(count):
        puzzle = make_puzzle(Spec(size=size, symmetry="rot180", minimal=True), 7000 + seed).puzzle
        assert isinstance(puzzle, tuple)
        counted = eng.certified_count(puzzle, limit=2)
        assert counted.count == 1
        out.append((puzzle, counted.solutions[0]))
    return tuple(out)


@pytest.mark.heavy
@pytest.mark.parametrize("size,count", [(9, 8), (6, 6), (4, 20)])
def test_generated_puzzles_are_solved_soundly(size: int, count: int) -> None:
    for puzzle, solution in generated(size, count):
        assert_sound(puzzle, solution, solve_logically(puzzle))


@pytest.mark.system
@pytest.mark.parametrize("size,count", [(9, 20), (6, 20)])
def test_more_generated_puzzles_are_solved_soundly(size: int, count: int) -> None:
    for puzzle, solution in generated(size, count):
        assert_sound(puzzle, solution, solve_logically(puzzle))


@pytest.mark.deep
@pytest.mark.parametrize("k", range(len(P16)))
def test_16x16_with_known_solution(k: int) -> None:
    puzzle, solution = parse(P16[k][0]), parse(P16[k][1])
    res = solve_logically(puzzle, solution=solution)
    assert_sound(puzzle, solution, res)
    assert {"naked_single", "hidden_single", "pointing"} <= {s.technique for s in res.steps}


def test_16x16_basic_techniques_only_never_wrong() -> None:
    puzzle, solution = parse(P16[0][0]), parse(P16[0][1])
    res = solve_logically(puzzle, max_technique="hidden_quad")
    assert res.stuck and not res.solved and not res.contradiction
    assert all(v in (0, solution[i]) for i, v in enumerate(res.grid))
    assert all(solution[i] != d for s in res.steps for i, d in s.eliminations)


@pytest.mark.slow
def test_many_generated_9x9_puzzles_are_solved_soundly() -> None:
    for puzzle, solution in generated(9, 150):
        assert_sound(puzzle, solution, solve_logically(puzzle))


# ---------------------------------------------------------------------------------------------
# Behaviour of the driver
# ---------------------------------------------------------------------------------------------


@cache
def hard_puzzle() -> tuple[Grid, Grid]:
    rows = [(p, s) for p, c, s in tdoku_rows() if c == 1 and s is not None]
    for p, s in rows:
        if any(st.technique == "trial_and_error" for st in solve_logically(p).steps):
            return p, s
    raise AssertionError("no hard puzzle")


def test_max_technique_stops_stuck_and_uses_nothing_harder() -> None:
    puzzle, solution = hard_puzzle()
    res = solve_logically(puzzle, max_technique="hidden_single")
    assert res.stuck and not res.solved and not res.contradiction
    assert {s.technique for s in res.steps} <= {"naked_single", "hidden_single"}
    assert all(v in (0, solution[i]) for i, v in enumerate(res.grid))
    res2 = solve_logically(puzzle, max_technique="xy_chain")
    assert res2.stuck and "trial_and_error" not in {s.technique for s in res2.steps}


@pytest.mark.deep
def test_easiest_technique_first() -> None:
    """Each step is by the easiest technique that applies at that moment."""
    puzzle, _ = hard_puzzle()
    res = solve_logically(puzzle)
    st = Candidates.from_grid(puzzle)
    assert any(TECHNIQUE_ORDER.index(step.technique) for step in res.steps[:60])  # not only naked singles
    for step in res.steps[:60]:
        k = TECHNIQUE_ORDER.index(step.technique)
        if k:
            assert next_step(st, TECHNIQUE_ORDER[k - 1]) is None
        st.apply(step)


def test_deterministic() -> None:
    puzzle, _ = hard_puzzle()
    assert solve_logically(puzzle).steps == solve_logically(puzzle).steps


def test_wrong_solution_hint_is_ignored() -> None:
    puzzle, solution = hard_puzzle()
    wrong = tuple((d % 9) + 1 for d in solution)  # a valid grid, but not this puzzle's solution
    assert_sound(puzzle, solution, solve_logically(puzzle, solution=wrong))
    assert_sound(puzzle, solution, solve_logically(puzzle, solution=solution))


def test_clashing_givens_are_a_contradiction() -> None:
    puzzle = parse("11" + "." * 79)
    res = solve_logically(puzzle)
    assert res.stuck and res.contradiction and not res.solved and res.steps == []


def test_eliminated_candidates_are_respected() -> None:
    pos = next(p for p in positions() if p.technique == "simple_colors" and p.source.startswith("HoDoKu"))
    with_marks = solve_logically(pos.grid, eliminated=pos.removed, max_technique="simple_colors")
    assert with_marks.steps[0].technique == "simple_colors"


def test_search_solution_respects_candidates() -> None:
    puzzle, solution = hard_puzzle()
    st = Candidates.from_grid(puzzle)
    assert search_solution(st) == list(solution)
    i = next(i for i, d in enumerate(puzzle) if not d)
    st.cand[i] &= ~(1 << (solution[i] - 1))  # remove the true digit: no solution left
    assert search_solution(st) is None


def test_the_unique_rectangles_are_the_grader_versions() -> None:
    """Grader 6 reads HoDoKu's rectangles with missing candidates (a corner that lost a digit to an
    earlier step still forms the pattern: the swap is of values) and its Test 4 rule: HoDoKu's step
    on its own path of a development puzzle (r1c6 holds 6 but no longer 4). Grader 5 does not see the
    rectangle and goes on to a continuous nice loop."""
    (pos,) = (p for p in positions() if p.technique == "uniqueness_4" and p.mode == "next"
              and p.eliminations == {(3, 4)} and "HoDoKu's solving path (UNIQUENESS_4)" in p.source)
    st = Candidates.from_grid(pos.grid, pos.removed)
    st.given &= ~pos.placed
    six, five = next_step(st), next_step(st, grader=5)
    assert six is not None and five is not None
    assert six.technique == "uniqueness_4" and set(six.eliminations) == pos.eliminations == {(3, 4)}
    assert five.technique == "continuous_nice_loop"
    assert st.cand[5] >> 3 & 1 == 0 and st.cand[5] >> 5 & 1  # the corner r1c6: 6 but no 4
