"""The killer cage maker (:mod:`pipeline.generate.cages`): layouts are partitions into connected cages
with distinct digits and sizes within the policy, deterministic per seed, and :func:`refine` ends with
a killer puzzle that a small independent solver (written here) proves unique."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import combinations as subsets
from typing import Literal

import numpy as np
import pytest

from pipeline.board import Cage, Grid, board, cages_problem, conflict, make_variant, parse
from pipeline.generate.cages import (
    CagePolicy,
    cage_stats,
    combinations,
    connected,
    draw_cages,
    partitions,
    refine,
)
from pipeline.generate.grid import random_transform

SOL9 = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


# ---------------------------------------------------------------------------------------------
# grids and a toy killer solver, independent of the module under test
# ---------------------------------------------------------------------------------------------

def solution_grid(n: int, seed: int) -> Grid:
    """A valid solution grid of side n: a band pattern put through a random element of the group."""
    b = board(n)
    br, bc = b.box_rows, b.box_cols
    base = tuple((bc * (r % br) + r // br + c) % n + 1 for r in range(n) for c in range(n))
    if n == 9 and seed == 0:
        base = parse(SOL9)
    grid = random_transform(base, n, np.random.default_rng(seed))
    assert conflict(grid) is None
    return grid


@cache
def _combo_masks(n: int, size: int, total: int) -> tuple[int, ...]:
    """Bitmasks (bit d = digit d) of the digit sets of ``size`` distinct digits of 1..n summing to total."""
    return tuple(sum(1 << d for d in c) for c in subsets(range(1, n + 1), size) if sum(c) == total)


def killer_second_solution(grid: Grid, n: int, cages: tuple[Cage, ...], node_limit: int = 200_000) -> Grid | None:
    """A solution of the zero-given killer puzzle other than ``grid``, or None when there is none.

    Bitmask candidates; propagation: naked singles over peers (cage mates included), hidden singles in
    rows/columns/boxes, and cage combinations (a cage's cells keep only digits of a digit set that
    sums to its total, contains its placed digits and meets every cell's candidates), also for the
    virtual cage the rule of 45 gives each unit (its cells outside the cages it holds whole); then branch on
    the cell with the fewest candidates, trying ``grid``'s digit last so a second solution shows up
    early. Raises when the search passes ``node_limit`` nodes (a test too slow to trust)."""
    b = board(n, make_variant("killer", cages=cages))
    peers = [tuple(p) for p in b.peers]
    units = b.units
    cage_of = [(c.cells, _combo_masks(n, len(c.cells), c.total)) for c in cages]
    for u in units:  # the rule of 45: a unit's cells outside the cages it holds whole sum to what is left
        inside = [c for c in cages if set(c.cells) <= set(u)]
        rest = tuple(sorted(set(u) - {i for c in inside for i in c.cells}))
        if 0 < len(rest) < n:
            cage_of.append((rest, _combo_masks(n, len(rest), n * (n + 1) // 2 - sum(c.total for c in inside))))
    full = sum(1 << d for d in range(1, n + 1))
    nodes = 0

    def single(v: int) -> bool:
        return v & (v - 1) == 0

    def propagate(cand: list[int]) -> bool:
        changed = True
        while changed:
            changed = False
            for i in range(n * n):
                v = cand[i]
                if v == 0:
                    return False
                if single(v):
                    for j in peers[i]:
                        if cand[j] & v:
                            cand[j] &= ~v
                            if cand[j] == 0:
                                return False
                            changed = True
            for u in units:
                seen = twice = 0
                for i in u:
                    twice |= seen & cand[i]
                    seen |= cand[i]
                if seen != full:
                    return False
                once = seen & ~twice
                if once:
                    for i in u:
                        v = cand[i] & once
                        if v and cand[i] != v:
                            if not single(v):
                                return False  # one cell is the only place of two digits
                            cand[i] = v
                            changed = True
            for cells, masks in cage_of:
                placed = 0
                for i in cells:
                    if single(cand[i]):
                        placed |= cand[i]
                allowed = 0
                for m in masks:
                    if placed & ~m == 0:
                        for i in cells:
                            if not cand[i] & m:
                                break
                        else:
                            allowed |= m
                if allowed == 0:
                    return False
                for i in cells:
                    if cand[i] & ~allowed:
                        cand[i] &= allowed
                        if cand[i] == 0:
                            return False
                        changed = True
        return True

    def search(cand: list[int]) -> Grid | None:
        nonlocal nodes
        nodes += 1
        if nodes > node_limit:
            raise RuntimeError(f"toy killer solver passed {node_limit} nodes")
        if not propagate(cand):
            return None
        open_cells = [i for i in range(n * n) if not single(cand[i])]
        if not open_cells:
            sol = tuple(v.bit_length() - 1 for v in cand)
            return None if sol == tuple(grid) else sol
        i = min(open_cells, key=lambda k: cand[k].bit_count())
        digits = [d for d in range(1, n + 1) if cand[i] >> d & 1]
        digits.sort(key=lambda d: d == grid[i])
        for d in digits:
            nxt = list(cand)
            nxt[i] = 1 << d
            found = search(nxt)
            if found is not None:
                return found
        return None

    return search([full] * (n * n))


def second_for(grid: Grid, n: int) -> Callable[[tuple[Cage, ...]], Grid | None]:
    return lambda cages: killer_second_solution(grid, n, cages)


def killer_ok(grid: Grid, n: int, cages: tuple[Cage, ...]) -> bool:
    """Whether ``grid`` satisfies the cages (a solution of the killer puzzle)."""
    return all(sum(grid[i] for i in c.cells) == c.total and len({grid[i] for i in c.cells}) == len(c.cells)
               for c in cages)


def assert_layout(grid: Grid, n: int, cages: tuple[Cage, ...], policy: CagePolicy) -> None:
    covered = sorted(i for c in cages for i in c.cells)
    assert covered == list(range(n * n)), "every cell in exactly one cage"
    assert list(cages) == sorted(cages)
    for c in cages:
        assert list(c.cells) == sorted(set(c.cells))
        assert connected(c.cells, n), c
        assert len({grid[i] for i in c.cells}) == len(c.cells), f"repeated digit in {c}"
        assert c.total == sum(grid[i] for i in c.cells)
        m = len(c.cells)
        assert policy.min_size <= m <= min(policy.max_size, n) or (m == 1 and policy.singles), c
    assert cages_problem(n, cages) is None
    assert conflict(grid, make_variant("killer", cages=cages)) is None


# ---------------------------------------------------------------------------------------------
# the toy solver itself
# ---------------------------------------------------------------------------------------------

def test_toy_solver_sees_second_solutions_and_uniqueness() -> None:
    grid = solution_grid(4, 1)
    rows = tuple(Cage(tuple(range(r * 4, r * 4 + 4)), 10) for r in range(4))
    other = killer_second_solution(grid, 4, rows)  # row cages say nothing: many grids
    assert other is not None and other != grid and killer_ok(other, 4, rows) and conflict(other) is None
    pairs = tuple(Cage((i,), grid[i]) for i in range(16))  # every digit given by a 1-cell cage
    assert killer_second_solution(grid, 4, pairs) is None


# ---------------------------------------------------------------------------------------------
# draw_cages
# ---------------------------------------------------------------------------------------------

POLICIES = [CagePolicy(), CagePolicy(2, 4), CagePolicy(3, 5), CagePolicy(2, 3, singles=True), CagePolicy(1, 3, True),
            CagePolicy(4, 6)]


@pytest.mark.parametrize("policy", POLICIES, ids=lambda p: f"{p.min_size}-{p.max_size}{'s' if p.singles else ''}")
@pytest.mark.parametrize("n", [4, 6, 9, 16])
def test_draw_cages_is_a_valid_partition(n: int, policy: CagePolicy) -> None:
    assert policy.min_size <= n  # every policy fits every board: the check runs for each pair
    for seed in range(8):
        grid = solution_grid(n, seed)
        cages = draw_cages(grid, n, np.random.default_rng(seed), policy)
        assert_layout(grid, n, cages, policy)


def test_draw_cages_never_makes_singles_unless_allowed() -> None:
    sizes = set()
    for seed in range(40):
        grid = solution_grid(9, seed)
        cages = draw_cages(grid, 9, np.random.default_rng(seed), CagePolicy(2, 5))
        sizes |= {len(c.cells) for c in cages}
    assert 1 not in sizes and sizes == {2, 3, 4, 5}


def test_draw_cages_is_deterministic_per_seed() -> None:
    grid = solution_grid(9, 3)
    a = draw_cages(grid, 9, np.random.default_rng(42), CagePolicy())
    b = draw_cages(grid, 9, np.random.default_rng(42), CagePolicy())
    c = draw_cages(grid, 9, np.random.default_rng(43), CagePolicy())
    assert a == b
    assert a != c


def test_draw_cages_refuses_impossible_policies() -> None:
    grid = solution_grid(4, 0)
    with pytest.raises(ValueError, match="impossible"):
        draw_cages(grid, 4, np.random.default_rng(0), CagePolicy(5, 6))
    with pytest.raises(ValueError, match="singles"):
        draw_cages(grid, 4, np.random.default_rng(0), CagePolicy(1, 3))
    with pytest.raises(ValueError, match="complete"):
        draw_cages((0,) * 16, 4, np.random.default_rng(0), CagePolicy())
    with pytest.raises(RuntimeError, match="no cage layout"):  # 16 cells do not make cages of exactly 3
        draw_cages(grid, 4, np.random.default_rng(0), CagePolicy(3, 3))


def test_max_size_is_capped_at_the_side() -> None:
    grid = solution_grid(4, 2)
    cages = draw_cages(grid, 4, np.random.default_rng(2), CagePolicy(3, 9))
    assert max(len(c.cells) for c in cages) <= 4
    assert_layout(grid, 4, cages, CagePolicy(3, 9))


# ---------------------------------------------------------------------------------------------
# helpers: combinations, splits, stats
# ---------------------------------------------------------------------------------------------

def test_combinations_match_brute_force() -> None:
    for n in (4, 6, 9):
        for m in range(1, n + 1):
            for s in range(0, n * (n + 1) // 2 + 2):
                assert combinations(n, m, s) == len(_combo_masks(n, m, s))
    assert combinations(9, 2, 3) == 1 and combinations(9, 2, 17) == 1 and combinations(9, 2, 10) == 4


def test_partitions_are_connected_distinct_and_within_policy() -> None:
    grid = solution_grid(9, 0)
    row = tuple(range(5))  # r1c1..r1c5: a straight line cuts only between neighbours
    assert partitions(row, grid, 9, CagePolicy()) == [((0, 1, 2), (3, 4)), ((0, 1), (2, 3, 4))]
    assert len(partitions(row, grid, 9, CagePolicy(2, 5, singles=True))) == 4
    assert partitions(row, grid, 9, CagePolicy(), 3) == []  # 2+2+1 needs singles
    assert len(partitions(row, grid, 9, CagePolicy(1, 5, singles=True), 3)) == 6  # C(4, 2) places to cut
    square = (0, 1, 9, 10)
    assert sorted(partitions(square, grid, 9, CagePolicy())) == [((0, 1), (9, 10)), ((0, 9), (1, 10))]
    assert partitions(square, grid, 9, CagePolicy(), 1) == [(square,)]
    clash = (0, 1, 2, 3)
    repeated = (*grid[:3], grid[0], *grid[4:])  # cell 3 repeats cell 0's digit
    assert ((0, 1), (2, 3)) in partitions(clash, repeated, 9, CagePolicy())
    assert partitions(clash, repeated, 9, CagePolicy(), 1) == []
    twelve = partitions(tuple(range(12)), grid, 9, CagePolicy(2, 4), 4)
    assert twelve  # the loop below checks something
    for part in twelve:
        assert sorted(i for p in part for i in p) == list(range(12))
        assert all(connected(p, 9) and 2 <= len(p) <= 4 and len({grid[i] for i in p}) == len(p) for p in part)


def test_cage_stats() -> None:
    cages = (Cage((0, 1), 3), Cage((2, 3, 4), 20), Cage((5, 6), 10))
    stats = cage_stats(cages, 9)
    assert stats["cages"] == 3 and stats["sizes"] == {2: 2, 3: 1}
    assert stats["one_combination"] == 1 and stats["mean_size"] == pytest.approx(7 / 3)


# ---------------------------------------------------------------------------------------------
# refine
# ---------------------------------------------------------------------------------------------

@pytest.mark.heavy
@pytest.mark.parametrize(("n", "policy", "rank"), [
    (4, CagePolicy(2, 4), "random"), (6, CagePolicy(), "random"), (6, CagePolicy(), "information"),
    (6, CagePolicy(2, 4, True), "random"), (6, CagePolicy(2, 3), "information"), (9, CagePolicy(2, 4), "random"),
    (9, CagePolicy(2, 4), "information")])
def test_refine_makes_the_killer_puzzle_unique(n: int, policy: CagePolicy, rank: Literal["random", "information"]
                                               ) -> None:
    steps_seen = []
    for seed in range(6 if n < 9 else 3):
        grid = solution_grid(n, seed)
        rng = np.random.default_rng(seed)
        cages = draw_cages(grid, n, rng, policy)
        answers: list[Grid | None] = []

        def second(cs: tuple[Cage, ...], grid: Grid = grid, answers: list = answers) -> Grid | None:
            answers.append(killer_second_solution(grid, n, cs))
            return answers[-1]

        made = refine(grid, n, cages, rng, policy, second, rank=rank)
        assert made is not None, f"seed {seed} not unique after 200 steps"
        final, steps = made
        assert_layout(grid, n, final, policy)
        assert len(answers) == steps + 1 and answers[-1] is None  # unique, by the toy solver
        assert all(a is not None for a in answers[:-1])
        steps_seen.append(steps)
    assert any(steps_seen), "the sample never needed a refine step: it tests nothing"


def test_refine_is_deterministic_per_seed() -> None:
    grid = solution_grid(6, 4)
    runs = []
    for _ in range(2):
        rng = np.random.default_rng(11)
        cages = draw_cages(grid, 6, rng, CagePolicy())
        runs.append(refine(grid, 6, cages, rng, CagePolicy(), second_for(grid, 6)))
    assert runs[0] is not None and runs[0] == runs[1]


def test_refine_kills_each_second_solution() -> None:
    """Every step changes the cages to a layout not tried before, so that the second solution it was shown
    is no longer one (and, in this sample, no earlier one comes back)."""
    grid = solution_grid(6, 5)
    rng = np.random.default_rng(5)
    cages = draw_cages(grid, 6, rng, CagePolicy())
    shown: list[tuple[tuple[Cage, ...], Grid]] = []

    def second(cs: tuple[Cage, ...]) -> Grid | None:
        for before, other in shown:
            assert cs != before
            assert not killer_ok(other, 6, cs)
        found = killer_second_solution(grid, 6, cs)
        if found is not None:
            shown.append((cs, found))
        return found

    made = refine(grid, 6, cages, rng, CagePolicy(), second)
    assert made is not None and made[1] == len(shown) > 0


def test_refine_gives_up_after_max_steps_and_rejects_a_bad_oracle() -> None:
    grid = solution_grid(6, 1)
    rng = np.random.default_rng(1)
    cages = draw_cages(grid, 6, rng, CagePolicy(3, 6))
    second = second_for(grid, 6)
    assert second(cages) is not None
    assert refine(grid, 6, cages, rng, CagePolicy(3, 6), second, max_steps=0) is None
    assert refine(grid, 6, cages, rng, CagePolicy(), lambda cs: grid) == (cages, 0)  # grid itself = unique
    bogus = tuple((d % 6) + 1 for d in grid)  # a grid that breaks every cage sum
    with pytest.raises(ValueError, match="breaks the cage"):
        refine(grid, 6, cages, rng, CagePolicy(), lambda cs: bogus)
    with pytest.raises(ValueError, match="rank"):
        refine(grid, 6, cages, rng, CagePolicy(), second, rank="best")  # type: ignore[arg-type]
