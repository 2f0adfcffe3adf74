"""The grader on variant boards (x, hyper, jigsaw, killer): the variant's units and peers are used,
every step is sound, and killer puzzles are graded by their cage sums (unrated only when logic stops
and no solution is known).

The variant puzzles are made here, independently of the generator and of the fast counter: a tiny
backtracking solver over ``board(n, variant)`` (its units and peers; shares no code with
:mod:`pipeline.difficulty.logic`) fills a random grid, then givens are removed while it still
counts exactly one solution.
"""

from __future__ import annotations

import random
import time
from functools import cache
from typing import Any

import numpy as np
import pytest

from pipeline.board import CLASSIC, Board, Cage, Grid, Variant, board, make_variant, parse, regions_problem
from pipeline.difficulty import logic, logic_jit
from pipeline.difficulty.candidates import _Ctx
from pipeline.difficulty.fish import search_jit
from pipeline.difficulty.fish.search import _finned_search
from pipeline.difficulty.grade import KILLER_UNRATED, LEVELS, UNRATED, Grade, explain, grade
from pipeline.difficulty.logic import (
    _FINDERS,
    TECHNIQUE_ORDER,
    Candidates,
    Step,
    solve_logically,
    unit_name,
)
from tests.conftest import DATA

# A 9x9 jigsaw layout: the classic boxes with random cells swapped between them while every region
# stayed connected (checked in test_layout_is_valid).
JIGSAW = ("111222333"
          "111222333"
          "141255333"
          "441225666"
          "444555666"
          "444855696"
          "777858699"
          "777888899"
          "777889999")
X = make_variant("x")
HYPER = make_variant("hyper")
JIG = make_variant("jigsaw", JIGSAW)
X_JIG = make_variant("x+jigsaw", JIGSAW)
VARIANTS = {"x": X, "hyper": HYPER, "jigsaw": JIG, "x+jigsaw": X_JIG}


# ---------------------------------------------------------------------------------------------
# A tiny independent solver / counter for variant boards (singles propagation + backtracking)
# ---------------------------------------------------------------------------------------------


def _propagate(b: Board, masks: list[int]) -> bool:
    """Naked and hidden singles on full masks (a filled cell has one bit) to a fixpoint; False on a
    contradiction."""
    full = (1 << b.n) - 1
    changed = True
    while changed:
        changed = False
        for i, m in enumerate(masks):
            if m and not m & (m - 1):
                for j in b.peers[i]:
                    if masks[j] & m:
                        masks[j] &= ~m
                        if not masks[j]:
                            return False
                        changed = True
        for u in b.units:
            once = twice = 0
            for i in u:
                twice |= once & masks[i]
                once |= masks[i]
            if once != full:
                return False
            for k in range(b.n):
                bit = 1 << k
                if once & bit and not twice & bit:
                    for i in u:
                        if masks[i] & bit and masks[i] != bit:
                            masks[i] = bit
                            changed = True
    return True


def _solutions(b: Board, masks: list[int], limit: int, rng: random.Random | None) -> list[list[int]]:
    if not _propagate(b, masks):
        return []
    open_cells = [i for i, m in enumerate(masks) if m & (m - 1)]
    if not open_cells:
        return [[m.bit_length() for m in masks]]
    cell = min(open_cells, key=lambda i: masks[i].bit_count())
    digits = [k for k in range(b.n) if masks[cell] >> k & 1]
    if rng is not None:
        rng.shuffle(digits)
    out: list[list[int]] = []
    for k in digits:
        trial = list(masks)
        trial[cell] = 1 << k
        out += _solutions(b, trial, limit - len(out), rng)
        if len(out) >= limit:
            break
    return out


def _masks(b: Board, grid: Grid) -> list[int]:
    full = (1 << b.n) - 1
    return [(1 << (d - 1)) if d else full for d in grid]


def count(b: Board, grid: Grid, limit: int = 2) -> int:
    return len(_solutions(b, _masks(b, grid), limit, None))


@cache
def make(kind: str, seed: int, givens: int = 32) -> tuple[Grid, Grid]:
    """A puzzle of ``VARIANTS[kind]`` with one solution under its rules (and the solution): a random
    full grid, then random givens removed while the count stays 1, down to ``givens`` or as far as it goes."""
    b = board(9, VARIANTS[kind])
    rng = random.Random(seed)
    (sol,) = _solutions(b, [(1 << 9) - 1] * 81, 1, rng)
    grid = list(sol)
    order = list(range(81))
    rng.shuffle(order)
    left = 81
    for i in order:
        if left <= givens:
            break
        keep, grid[i] = grid[i], 0
        if count(b, tuple(grid)) != 1:
            grid[i] = keep
        else:
            left -= 1
    return tuple(grid), tuple(sol)


# ---------------------------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------------------------


def assert_sound(steps: list[Step], solution: Grid) -> None:
    for s in steps:
        for i, d in s.placements:
            assert solution[i] == d, f"{s.technique} placed {d} in cell {i}: {s.detail}"
        for i, d in s.eliminations:
            assert solution[i] != d, f"{s.technique} removed the solution's {d} from cell {i}: {s.detail}"


def assert_all_finders_sound(puzzle: Grid, solution: Grid, variant: Variant, steps: list[Step]) -> None:
    """Along the solve path, ask *every* technique (not just the first that applies) for a step in each
    state; none may place a wrong digit or remove the solution's."""
    st = Candidates.from_grid(puzzle, variant=variant)
    for s in steps:
        if s.technique not in ("naked_single", "hidden_single"):
            for name in TECHNIQUE_ORDER[2:-1]:
                found = _FINDERS[name](st, _Ctx(st))
                if found is not None:
                    assert_sound([found], solution)
        st.apply(s)


def test_layout_is_valid() -> None:
    assert regions_problem(9, JIGSAW) is None
    assert board(9, JIG).boxes != board(9).boxes


@pytest.mark.parametrize("kind", list(VARIANTS))
def test_test_puzzles_are_unique(kind: str) -> None:
    puzzle, solution = make(kind, 1)
    b = board(9, VARIANTS[kind])
    assert count(b, puzzle) == 1
    assert all(sorted(solution[i] for i in u) == list(range(1, 10)) for u in b.units)
    assert sum(1 for d in puzzle if d) <= 40


def test_unit_names() -> None:
    assert [unit_name(u, 9, X) for u in (0, 9, 18, 27, 28)] == ["row 1", "column 1", "box 1", "diagonal 1",
                                                                  "diagonal 2"]
    assert [unit_name(u, 9, HYPER) for u in (26, 27, 30)] == ["box 9", "window 1", "window 4"]
    assert unit_name(20, 9, JIG) == "region 3"
    assert [unit_name(u, 9, X_JIG) for u in (26, 27, 28)] == ["region 9", "diagonal 1", "diagonal 2"]
    assert unit_name(20, 9) == unit_name(20, 9, CLASSIC) == "box 3"


@pytest.mark.parametrize("kind", list(VARIANTS))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_variant_grades_are_sound(kind: str, seed: int) -> None:
    puzzle, solution = make(kind, seed)
    g = grade(puzzle, variant=VARIANTS[kind])
    assert g.rated and g.reason == ""
    assert_sound(g.steps, solution)
    res = solve_logically(puzzle, variant=VARIANTS[kind])
    assert res.solved and res.grid == solution and res.steps == g.steps
    assert len(explain(g)) == len(g.steps)
    # with the solution handed in, the grade is the same (it only spares trial and error its search)
    assert grade(puzzle, solution, variant=VARIANTS[kind]) == g


# Minimal puzzles (givens removed as long as the count stays 1) whose paths need many techniques
# (chains, wings, empty rectangles, finned fish on regions, trial and error; seeds picked for variety).
HARD = [("x", 110), ("hyper", 110), ("jigsaw", 116), ("jigsaw", 119)]


@pytest.mark.heavy
@pytest.mark.parametrize("kind,seed", [pytest.param(*c, marks=pytest.mark.deep) if c == ("jigsaw", 116) else c
                                       for c in HARD])
def test_every_technique_sound_along_the_path(kind: str, seed: int) -> None:
    """Every finder (not only the first that applies) in every non-singles state of a hard path
    must be sound."""
    puzzle, solution = make(kind, seed, givens=0)
    g = grade(puzzle, solution, variant=VARIANTS[kind])
    assert g.level in ("hard", "expert", "extreme")
    assert_sound(g.steps, solution)
    assert_all_finders_sound(puzzle, solution, VARIANTS[kind], g.steps)


def test_hard_jigsaw_paths_use_region_geometry_techniques() -> None:
    """The empty rectangle and the finned fish (region version) do fire on jigsaw boards."""
    used = {t for kind, seed in HARD if kind == "jigsaw"
            for t in grade(*make(kind, seed, givens=0), variant=JIG).techniques}
    assert "empty_rectangle" in used
    assert used & {"finned_x_wing", "sashimi_x_wing", "finned_swordfish"}


def _extra_unit_steps(g: Grade) -> list[Step]:
    return [s for s in g.steps if any(u >= 27 for u in s.units)]


def test_x_puzzle_needs_the_diagonals() -> None:
    """An x puzzle the classic grader cannot finish by logic (it has several classic solutions) but
    the x grader can, without a guess: the diagonals do the rest (often just as peers of naked singles)."""
    for seed in range(1, 30):
        puzzle, solution = make("x", seed)
        classic = solve_logically(puzzle, max_technique="xy_chain", compiled=False)
        if classic.solved:
            continue
        g = grade(puzzle, variant=X)
        if "trial_and_error" in g.techniques:
            continue
        assert g.rated and g.logic_steps == len(g.steps)
        assert_sound(g.steps, solution)
        assert not classic.contradiction
        assert count(board(9), puzzle) == 2  # classically not unique
        return
    pytest.fail("no x puzzle among the seeds needs the diagonals")


@pytest.mark.heavy
@pytest.mark.parametrize("kind,word", [("x", "diagonal"), ("hyper", "window"),
                                       pytest.param("jigsaw", "region", marks=pytest.mark.deep)])
def test_extra_units_and_regions_are_used_and_named(kind: str, word: str) -> None:
    lines: list[str] = []
    extra: list[Step] = []
    for seed, givens in ((11, 24), (12, 24), (110, 0)):
        g = grade(*make(kind, seed, givens), variant=VARIANTS[kind])
        extra += _extra_unit_steps(g)
        lines += explain(g)
    assert any(f"in {word} " in line for line in lines)
    if kind != "jigsaw":  # hidden singles, locked candidates or subsets in a diagonal / window
        assert {s.technique for s in extra} & {"hidden_single", "pointing", "claiming", "locked_pair", "hidden_pair"}
    if kind == "jigsaw":
        assert not any(" box " in line for line in lines)


def test_jigsaw_locked_candidates_use_regions() -> None:
    """A pointing step from a region that is no classic box: the region's candidates of a digit lie in
    one row, which loses the digit elsewhere (built by hand on the jigsaw board)."""
    b = board(9, JIG)
    region = b.boxes[0]  # region 1: r1c1-3, r2c1-3, r3c1, r3c3, r4c3
    assert region == (0, 1, 2, 9, 10, 11, 18, 20, 29)
    st = Candidates.from_grid(tuple([0] * 81), variant=JIG)
    for i in region:
        if i // 9 != 0:
            st.cand[i] &= ~1  # digit 1 only in row 1 inside region 1
    step = _FINDERS["pointing"](st, _Ctx(st))
    assert step is not None and step.technique == "pointing"
    assert step.detail == "on 1 in region 1, confined to row 1"
    assert step.eliminations == tuple((i, 1) for i in range(3, 9))
    # and the same on the classic board reads "box 1"
    st2 = Candidates.from_grid(tuple([0] * 81))
    for i in board(9).boxes[0]:
        if i // 9 != 0:
            st2.cand[i] &= ~1
    step2 = _FINDERS["pointing"](st2, _Ctx(st2))
    assert step2 is not None and step2.detail == "on 1 in box 1, confined to row 1"


@pytest.mark.deep
@pytest.mark.heavy
def test_finned_fish_on_regions_matches_the_classic_search() -> None:
    """The finned-fish search, which reads the fin box by its cells (a region), finds a finned and a
    sashimi fish exactly where the classic band search (a box as the block of its rows and columns,
    :func:`pipeline.difficulty.fish.search_jit._fish`) does on classic boxes (so on jigsaw boards it is
    the same technique with the box read as a region)."""
    compared = found = 0
    lines = [t for t in (DATA / "top95.txt").read_text().splitlines() if t and t[0] != "#"]
    (_, _, _, _, _, _, _, row_band, col_band), width = logic_jit._tables(9)
    for line in lines[:8]:
        puzzle = parse(line)
        st = Candidates.from_grid(puzzle)
        for s in solve_logically(puzzle, compiled=False).steps:
            if s.technique not in ("naked_single", "hidden_single"):
                cand = np.array(st.cand, dtype=np.int64)
                for size in (2, 3):
                    a = _finned_search(st, _Ctx(st), size)
                    for sashimi in (False, True):
                        band = search_jit._fish(cand, row_band, col_band, width, 9, size, True, sashimi)
                        assert (a[(size, sashimi)] is not None) == band
                    compared += 1
                    found += sum(v is not None for v in a.values())
            st.apply(s)
    assert compared > 100 and found > 10


# ---------------------------------------------------------------------------------------------
# Killer
# ---------------------------------------------------------------------------------------------


def _cages(solution: Grid, rng: random.Random) -> tuple[Cage, ...]:
    """Cages of 1-4 cells (dominoes, L's, ...) covering the board, with the solution's sums."""
    free = set(range(81))
    cages = []
    for start in range(81):
        if start not in free:
            continue
        cells = [start]
        free.discard(start)
        want = rng.randint(1, 4)
        while len(cells) < want:
            nxt = [j for i in cells for j in (i + 1, i + 9) if j in free and (j != i + 1 or j % 9)
                   and solution[j] not in {solution[c] for c in cells}]
            if not nxt:
                break
            j = rng.choice(nxt)
            cells.append(j)
            free.discard(j)
        cages.append(Cage(tuple(sorted(cells)), sum(solution[c] for c in cells)))
    return tuple(sorted(cages))


@pytest.mark.deep
def test_killer_without_givens_is_graded_by_its_cage_sums() -> None:
    """Zero givens: only the cage techniques can start; the path is sound, every finder is sound at
    every state, and no guess is made without a solution (logic may stop: then unrated)."""
    _, solution = make("x", 1)
    variant = Variant(("killer",), None, _cages(solution, random.Random(5)))
    g = grade(tuple([0] * 81), variant=variant)
    assert g.guesses == 0 and "cage_combination" in g.techniques
    assert g.level in LEVELS or (g.level == UNRATED and g.reason.startswith(KILLER_UNRATED))
    assert_sound(g.steps, solution)
    assert_all_finders_sound(tuple([0] * 81), solution, variant, g.steps[::5])
    assert len(explain(g)) == len(g.steps) == g.logic_steps


@pytest.mark.parametrize("kind,seed,givens", [("jigsaw", 2, 32), ("x", 110, 0)])
def test_killer_solved_by_its_givens_is_graded(kind: str, seed: int, givens: int) -> None:
    """Givens that finish the board alone (those of a unique jigsaw or x puzzle, cages added) are
    graded as usual, with the cage mates as extra peers; no guess is ever made on a killer board."""
    puzzle, solution = make(kind, seed, givens)
    cages = _cages(solution, random.Random(7))
    base = VARIANTS[kind]
    variant = make_variant((*base.kinds, "killer"), base.regions, cages)
    g = grade(puzzle, variant=variant)
    assert g.reason == "" and "trial_and_error" not in g.techniques
    assert_sound(g.steps, solution)
    assert solve_logically(puzzle, variant=variant).grid == solution
    assert_all_finders_sound(puzzle, solution, variant, g.steps)


def test_killer_clash_in_a_cage_is_no_solution() -> None:
    cages = (Cage((0, 1), 3),)
    variant = Variant(("killer",), None, cages)
    with pytest.raises(ValueError, match="no solution"):
        grade(tuple([1, 1] + [0] * 79), variant=variant)


# ---------------------------------------------------------------------------------------------
# Classic stays classic
# ---------------------------------------------------------------------------------------------


def test_classic_variant_takes_the_classic_path(monkeypatch: pytest.MonkeyPatch) -> None:
    puzzle = parse(
        "9...627....5..3...........67...3.........9...8.2.45..9..35.1.28.4......5.1.......")
    want = grade(puzzle, compiled=False)
    assert grade(puzzle, variant=CLASSIC, compiled=False) == want
    assert grade(puzzle, variant=make_variant("classic"), compiled=False) == want
    calls: list[tuple[object, ...]] = []
    real = logic._kernel

    def spy(*args: Any) -> Any:
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(logic, "_kernel", spy)
    assert grade(puzzle, variant=CLASSIC, compiled=True) == want
    assert calls  # classic + compiled=True: the kernels
    calls.clear()
    grade(make("x", 1)[0], variant=X, compiled=True)
    assert not calls  # a variant: pure Python whatever compiled says


def test_variant_grade_speed() -> None:
    """Rough budget: a 9x9 variant grade in pure Python stays well under a second."""
    puzzles = [(make(k, s)[0], VARIANTS[k]) for k in VARIANTS for s in (1, 2)]
    t0 = time.perf_counter()
    for p, v in puzzles:
        grade(p, variant=v)
    per = (time.perf_counter() - t0) / len(puzzles)
    assert per < 1.0
