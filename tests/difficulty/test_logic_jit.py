"""The compiled solver path (docs/difficulty.md) gives exactly the pure-Python path's results.

``solve_logically(..., compiled=True)`` places singles and probes the techniques in numba kernels
(:mod:`pipeline.difficulty.logic_jit`); ``compiled=False`` is the reference. Here both run on the same
puzzles and must agree on everything: the whole step list (technique, cells, placements,
eliminations, digits, units, wording), the final grid and flags, the grade and the explanation.

Puzzles: minimal unique puzzles made here by removing givens of random grids while the compiled
counter says the solution stays unique (fast, and harder on average than the generator's
rot180 orbit-minimal ones), puzzles with several solutions (random removal: trial and error and
the search), puzzles from the real generator, Norvig's top95 and tdoku's test list (very hard,
also no-solution cases), the technique positions with their eliminated candidates, and every
``max_technique`` cut-off. Sizes 4, 6, 9 and 16.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from functools import cache
from pathlib import Path

import pytest

from pipeline.board import BOX_SHAPES, Grid, parse
from pipeline.difficulty import logic_jit
from pipeline.difficulty.grade import explain, grade, grade_result
from pipeline.difficulty.logic import TECHNIQUE_ORDER, Candidates, solve_logically
from pipeline.difficulty.techniques import ORDERS, rulebook
from pipeline.generate import count_jit
from pipeline.generate.puzzle import make_puzzle
from pipeline.generate.spec import Spec
from tests.conftest import DATA

TOP95 = DATA / "top95.txt"
POSITIONS = DATA / "logic_positions.txt"
TDOKU = DATA / "tdoku_test_puzzles.txt"


# ---------------------------------------------------------------------------------------------
# Puzzle sources
# ---------------------------------------------------------------------------------------------


def random_grid(n: int, rng: random.Random) -> Grid:
    """A random complete grid: the pattern grid, then random digits, bands, stacks, rows and columns."""
    br, bc = BOX_SHAPES[n]
    base = [[(bc * (r % br) + r // br + c) % n + 1 for c in range(n)] for r in range(n)]
    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    bands = rng.sample(range(n // br), n // br)
    rows = [b * br + r for b in bands for r in rng.sample(range(br), br)]
    stacks = rng.sample(range(n // bc), n // bc)
    cols = [s * bc + c for s in stacks for c in rng.sample(range(bc), bc)]
    return tuple(digits[base[r][c] - 1] for r in rows for c in cols)


def minimal_puzzle(n: int, rng: random.Random, keep_from: float = 0.0) -> tuple[Grid, Grid]:
    """(puzzle, solution): givens removed in random order while the solution stays unique; stops once
    only ``keep_from`` of the cells have been tried (0 = try all: a minimal puzzle)."""
    solution = random_grid(n, rng)
    puzzle = list(solution)
    order = list(range(n * n))
    rng.shuffle(order)
    for i in order[: round(n * n * (1 - keep_from))]:
        d, puzzle[i] = puzzle[i], 0
        if count_jit.count(tuple(puzzle), 2, 20_000) != 1:
            puzzle[i] = d
    return tuple(puzzle), solution


def holey_puzzle(n: int, rng: random.Random, givens: int) -> tuple[Grid, Grid]:
    """A random grid with all but ``givens`` cells blanked (often several solutions)."""
    solution = random_grid(n, rng)
    keep = set(rng.sample(range(n * n), givens))
    return tuple(d if i in keep else 0 for i, d in enumerate(solution)), solution


def data_lines(path: Path) -> list[str]:
    return [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip() and not ln.startswith("#")]


@cache
def generated(n: int, count: int, seed: int) -> tuple[tuple[Grid, Grid], ...]:
    rng = random.Random(seed)
    return tuple(minimal_puzzle(n, rng) for _ in range(count))


# ---------------------------------------------------------------------------------------------
# The comparison
# ---------------------------------------------------------------------------------------------


def assert_same(puzzle: Grid, solution: Grid | None = None, max_technique: str | None = None,
                eliminated: Iterable[tuple[int, int]] = ()) -> None:
    eliminated = tuple(eliminated)
    ref = solve_logically(puzzle, max_technique, eliminated, solution, compiled=False)
    fast = solve_logically(puzzle, max_technique, eliminated, solution, compiled=True)
    assert fast == ref, f"paths differ for {puzzle} (max_technique={max_technique})"
    if ref.solved:  # grade() is grade_result(solve_logically(...))
        g_ref, g_fast = grade_result(ref), grade_result(fast)
        assert g_fast == g_ref and explain(g_fast) == explain(g_ref)


@pytest.mark.parametrize("version", sorted(ORDERS))
def test_probe_codes_follow_the_solver_order(version: int) -> None:
    """The probes are named by the technique registry and each grader version's rulebook, and the driver
    hands them over in that version's solver order: every probe row is its named probe's."""
    rules = rulebook(version)
    order = ORDERS[version]
    names = tuple(rules.probe(t) for t in order[2:])
    codes = logic_jit.codes_for(names)
    probed = [t for t, p in zip(order[2:], names, strict=True) if p is not None]
    assert [t for t, c in zip(order[2:], codes, strict=True) if c[0] >= 0] == probed
    assert [tuple(c) for c in codes if c[0] >= 0] == [logic_jit.PROBES[p] for p in names if p is not None]
    assert all(p.startswith(t) for t, p in zip(order[2:], names, strict=True) if p is not None)
    assert (rules.probe("locked_pair") == "locked_pair") == (version >= 5)
    assert codes[-1, 0] == -1  # trial and error is always Python's


@pytest.mark.deep
def test_grader_2_paths_are_the_same_compiled() -> None:
    """An older grader's order (a set begun under it) walks the kernels in its own order: the same path
    as the pure-Python solver, and on some puzzles another path than version 3's."""
    differ = 0
    for line in data_lines(TOP95)[:12]:
        puzzle = parse(line)
        ref = solve_logically(puzzle, compiled=False, grader=2)
        assert solve_logically(puzzle, compiled=True, grader=2) == ref
        differ += ref.steps != solve_logically(puzzle, compiled=False).steps
    assert differ


def test_grade_entry_point_in_every_mode() -> None:
    for line in data_lines(TOP95)[:3]:
        puzzle = parse(line)
        assert grade(puzzle) == grade(puzzle, compiled=True) == grade(puzzle, compiled=False)


@pytest.mark.heavy
@pytest.mark.parametrize("n,count", [(4, 100), (6, 100), pytest.param(9, 150, marks=pytest.mark.deep)])
def test_minimal_puzzles(n: int, count: int) -> None:
    for puzzle, solution in generated(n, count, 1500 + n):
        assert_same(puzzle, solution)
        assert_same(puzzle)  # without the solution hint: the search


def several_solutions(share: int) -> None:
    """Random holey puzzles (several solutions): every ``share``-th of the whole list."""
    rng = random.Random(77)
    i = 0
    for n, givens, count in [(4, 3, 20), (6, 8, 20), (9, 17, 8), (9, 22, 8), (9, 26, 8), (16, 90, 1)]:
        for k in range(count):
            puzzle, solution = holey_puzzle(n, rng, givens)
            if i % share == 0:
                assert_same(puzzle, solution if k % 2 else None)
            i += 1


@pytest.mark.deep
@pytest.mark.heavy
def test_a_share_of_the_puzzles_with_several_solutions() -> None:
    several_solutions(share=4)


@pytest.mark.system
def test_puzzles_with_several_solutions() -> None:
    several_solutions(share=1)


def test_16x16() -> None:
    rng = random.Random(16)
    for _ in range(4):
        puzzle, solution = minimal_puzzle(16, rng, keep_from=0.45)
        assert_same(puzzle, solution)


def hard_and_unsolvable(share: int) -> None:
    """top95's first 30 and tdoku's test list (no solution, one, several): every ``share``-th line."""
    for line in data_lines(TOP95)[:30:share]:
        assert_same(parse(line))
    for line in data_lines(TDOKU)[::share]:
        parts = line.split(":")
        assert_same(parse(parts[0]), parse(parts[2]) if len(parts) > 2 and parts[2] else None)


@pytest.mark.deep
@pytest.mark.heavy
def test_a_share_of_the_hard_and_unsolvable_puzzles() -> None:
    hard_and_unsolvable(share=5)


@pytest.mark.system
def test_hard_and_unsolvable_puzzles() -> None:
    hard_and_unsolvable(share=1)


@pytest.mark.heavy
def positions() -> list[tuple[Grid, list[tuple[int, int]]]]:
    """The technique positions (tests/data/logic_positions.txt): each state with its eliminated candidates."""
    out = []
    for line in data_lines(POSITIONS):
        _, _, state, removed, _, _ = (f.strip() for f in line.split("|"))
        grid = parse(state)
        n = round(len(grid) ** 0.5)
        rem = []
        for t in removed.split():
            if t != "-":
                where, d = t.split(":")
                r, c = where[1:].split("c")
                rem.append(((int(r) - 1) * n + int(c) - 1, int(d)))
        Candidates.from_grid(grid, rem)  # a valid position
        out.append((grid, rem))
    return out


#: make test's share of the positions x cut-offs product: position i is solved without a cut-off and
#: with every EVERY_NTH-th cut-off from i % EVERY_NTH, so each cut-off meets about 1/EVERY_NTH of the
#: positions and each position EVERY_NTH-th of the cut-offs (the whole product, 1/1, in the system tier).
EVERY_NTH = 8


@pytest.mark.deep
def test_positions_with_eliminations_and_a_share_of_the_cut_offs() -> None:
    cuts = list(TECHNIQUE_ORDER)
    for i, (grid, rem) in enumerate(positions()):
        for cut in [None, *cuts[i % EVERY_NTH :: EVERY_NTH]]:
            assert_same(grid, max_technique=cut, eliminated=rem)


@pytest.mark.system
def test_positions_with_eliminations_and_every_cut_off() -> None:
    cuts = [None, *TECHNIQUE_ORDER]
    for grid, rem in positions():
        for cut in cuts:
            assert_same(grid, max_technique=cut, eliminated=rem)


@pytest.mark.heavy
def test_cut_offs_on_hard_puzzles() -> None:
    for line in data_lines(TOP95)[30:45]:
        for cut in ("naked_single", "hidden_single", "pointing", "hidden_quad", "jellyfish", "remote_pair",
                    "w_wing", "simple_colors", "sashimi_jellyfish", "x_chain", "xy_chain"):
            assert_same(parse(line), max_technique=cut)


@pytest.mark.heavy
def test_generator_puzzles() -> None:
    for seed in range(6):
        for size, symmetry in [(9, "rot180"), (9, "none"), (6, "random"), (4, "none")]:
            made = make_puzzle(Spec(size=size, symmetry=symmetry, minimal=True), 4200 + seed)
            assert isinstance(made.puzzle, tuple) and isinstance(made.solution, tuple)
            assert_same(made.puzzle, made.solution)


@pytest.mark.slow
@pytest.mark.parametrize("n,count", [(4, 1000), (6, 1000), (9, 3000), (16, 12)])
def test_many_minimal_puzzles(n: int, count: int) -> None:
    rng = random.Random(9000 + n)
    for _ in range(count):
        puzzle, solution = minimal_puzzle(n, rng, keep_from=0.45 if n == 16 else 0.0)
        assert_same(puzzle, solution)


@pytest.mark.slow
def test_all_top95_and_many_holey_puzzles() -> None:
    for line in data_lines(TOP95):
        assert_same(parse(line))
    rng = random.Random(95)
    for _ in range(1000):
        puzzle, solution = holey_puzzle(9, rng, rng.randint(17, 30))
        assert_same(puzzle, solution if rng.random() < 0.5 else None)
