"""The compiled counter (:mod:`pipeline.generate.count_jit`) on variant boards: X, hyper, jigsaw and
killer counts agree with an independent pure-Python reference written here (own units, own cage rule,
plain backtracking), and classic counts are unchanged."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import numpy as np
import pytest

from pipeline.board import CLASSIC, Cage, Grid, Variant, make_variant, parse
from pipeline.generate import count_jit
from pipeline.solve import search
from tests.golden import SMALL, TDOKU, TOP95

Units = list[tuple[int, ...]]
Cages = list[tuple[tuple[int, ...], int]]

BOX = {4: (2, 2), 6: (2, 3), 9: (3, 3)}
#: Connected jigsaw layouts (checked by board.regions_problem when the variant is built).
JIGSAW = {
    4: "1112" "1322" "3342" "3444",
    6: "322222" "321114" "311144" "334446" "355566" "555666",
    9: ("111233333" "112222223" "411126263" "414556663" "444555663"
        "477585566" "478885999" "477788899" "777889999"),
}
BIG = 10**7


# ---------------------------------------------------------------------------------------------
# the independent reference: units built from the rules' wording, a backtracking counter
# ---------------------------------------------------------------------------------------------

def ref_units(n: int, kinds: Sequence[str], regions: str | None = None) -> Units:
    """Rows, columns, boxes (or jigsaw regions), diagonals (x) and windows (hyper), from scratch."""
    units: Units = [tuple(r * n + c for c in range(n)) for r in range(n)]
    units += [tuple(r * n + c for r in range(n)) for c in range(n)]
    if regions is None:
        br, bc = BOX[n]
        units += [tuple((r0 + r) * n + c0 + c for r in range(br) for c in range(bc))
                  for r0 in range(0, n, br) for c0 in range(0, n, bc)]
    else:
        units += [tuple(i for i in range(n * n) if regions[i] == lab) for lab in sorted(set(regions))]
    if "x" in kinds:
        units += [tuple(k * (n + 1) for k in range(n)), tuple((k + 1) * (n - 1) for k in range(n))]
    if "hyper" in kinds:
        units += [tuple((r0 + r) * 9 + c0 + c for r in range(3) for c in range(3)) for r0 in (1, 5) for c0 in (1, 5)]
    return units


def ref_valid(grid: Sequence[int], n: int, units: Units, cages: Cages) -> bool:
    """A full grid obeys every unit (each digit once) and every cage (distinct, adds up)."""
    if sorted(set(grid)) != list(range(1, n + 1)):
        return False
    if any(sorted(grid[i] for i in u) != list(range(1, n + 1)) for u in units):
        return False
    return all(len({grid[i] for i in cells}) == len(cells) and sum(grid[i] for i in cells) == total
               for cells, total in cages)


def ref_solutions(puzzle: Sequence[int], n: int, units: Units, cages: Cages, limit: int) -> list[Grid]:
    """Up to ``limit`` solutions by backtracking: a digit is legal in a cell when no unit or cage mate
    holds it and some set of distinct digits of the cage's size and sum holds it with the cage's
    placed digits; a digit with one legal cell left in a unit goes there, else the cell with the
    fewest legal digits is tried digit by digit. Every solution is re-checked with :func:`ref_valid`."""
    ncells = n * n
    mates: list[set[int]] = [set() for _ in range(ncells)]
    for group in [*units, *(cells for cells, _ in cages)]:
        for i in group:
            mates[i].update(j for j in group if j != i)
    sets = {c: [set(s) for s in itertools.combinations(range(1, n + 1), len(c[0])) if sum(s) == c[1]]
            for c in cages}
    cage_of: dict[int, tuple[tuple[int, ...], int]] = {i: c for c in cages for i in c[0]}
    g = list(puzzle)
    found: list[Grid] = []

    def cage_digits(c: tuple[tuple[int, ...], int]) -> set[int]:
        """The digits some set of the cage holds together with its placed digits."""
        have = {g[j] for j in c[0] if g[j]}
        return {d for s in sets[c] if have <= s for d in s}

    def legal(i: int, allowed: dict[tuple[tuple[int, ...], int], set[int]]) -> list[int]:
        used = {g[j] for j in mates[i]}
        return [d for d in range(1, n + 1) if d not in used and (i not in cage_of or d in allowed[cage_of[i]])]

    def go() -> None:
        allowed = {c: cage_digits(c) for c in cages}
        opts = {i: legal(i, allowed) for i in range(ncells) if not g[i]}
        if not opts:
            assert ref_valid(g, n, units, cages)
            found.append(tuple(g))
            return
        best = min(opts, key=lambda i: len(opts[i]))
        options = opts[best]
        if len(options) > 1:  # a digit a unit can place in one cell only goes there (none: dead end)
            for u in units:
                for d in set(range(1, n + 1)) - {g[i] for i in u}:
                    places = [i for i in u if not g[i] and d in opts[i]]
                    if len(places) < 2:
                        if not places:
                            return
                        best, options = places[0], [d]
                        break
                if len(options) == 1:
                    break
        for d in options:
            g[best] = d
            go()
            g[best] = 0
            if len(found) >= limit:
                return

    if any(d and any(g[j] == d for j in mates[i]) for i, d in enumerate(g)):
        return []  # clashing givens
    if not all(cage_digits(c) for c in cages):
        return []  # givens no digit set of their cage holds
    go()
    return found


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------

def relabel(grid: Grid, rng: random.Random, n: int) -> Grid:
    """The grid with its digits renamed (keeps every unit rule; not cage sums)."""
    perm = rng.sample(range(1, n + 1), n)
    return tuple(perm[d - 1] for d in grid)


def holes(grid: Grid, givens: int, rng: random.Random) -> Grid:
    keep = set(rng.sample(range(len(grid)), givens))
    return tuple(d if i in keep else 0 for i, d in enumerate(grid))


#: 9x9 box partitions into cages: a 2x2 square, a column of 3 and a row of 2 (turned four ways) ...
SQUARE_COLUMN_ROW = [[[(0, 0), (0, 1), (1, 0), (1, 1)], [(0, 2), (1, 2), (2, 2)], [(2, 0), (2, 1)]],
                     [[(0, 1), (0, 2), (1, 1), (1, 2)], [(0, 0), (1, 0), (2, 0)], [(2, 1), (2, 2)]],
                     [[(1, 1), (1, 2), (2, 1), (2, 2)], [(0, 0), (1, 0), (2, 0)], [(0, 1), (0, 2)]],
                     [[(1, 0), (1, 1), (2, 0), (2, 1)], [(0, 2), (1, 2), (2, 2)], [(0, 0), (0, 1)]]]
#: ... or three dominoes and a line of 3 (smaller cages: the reference settles zero givens fast).
DOMINOES = [[[(0, 0), (0, 1)], [(1, 0), (1, 1)], [(2, 0), (2, 1)], [(0, 2), (1, 2), (2, 2)]],
            [[(0, 0), (1, 0)], [(0, 1), (1, 1)], [(0, 2), (1, 2)], [(2, 0), (2, 1), (2, 2)]],
            [[(0, 1), (0, 2)], [(1, 1), (1, 2)], [(2, 1), (2, 2)], [(0, 0), (1, 0), (2, 0)]],
            [[(1, 0), (2, 0)], [(1, 1), (2, 1)], [(1, 2), (2, 2)], [(0, 0), (0, 1), (0, 2)]]]


def box_cages(grid: Grid, n: int, turn: int = 0, square_box: int | None = None) -> Cages:
    """Cages of 2-4 cells inside each box of a classic-box grid (so their digits are distinct), with
    the grid's sums, the shapes turned box by box: on 9x9 :data:`SQUARE_COLUMN_ROW` in every box, or
    with ``square_box`` there only and :data:`DOMINOES` elsewhere; on 6x6 (2x3 boxes) a 2x2 square
    and a column of 2; on 4x4 two dominoes."""
    br, bc = BOX[n]
    cages: Cages = []
    for k, (r0, c0) in enumerate((r0, c0) for r0 in range(0, n, br) for c0 in range(0, n, bc)):
        if n == 9:
            shape = (SQUARE_COLUMN_ROW if square_box in (None, k) else DOMINOES)[(k + turn) % 4]
        elif n == 6:
            shape = [[[(0, 0), (0, 1), (1, 0), (1, 1)], [(0, 2), (1, 2)]],
                     [[(0, 1), (0, 2), (1, 1), (1, 2)], [(0, 0), (1, 0)]]][(k + turn) % 2]
        else:
            shape = [[[(0, 0), (0, 1)], [(1, 0), (1, 1)]], [[(0, 0), (1, 0)], [(0, 1), (1, 1)]]][(k + turn) % 2]
        for part in shape:
            cells = tuple(sorted((r0 + r) * n + c0 + c for r, c in part))
            cages.append((cells, sum(grid[i] for i in cells)))
    return cages


def snake_cages(grid: Grid, n: int, turn: int = 0) -> Cages:
    """Cages along the boustrophedon path (left to right, then right to left, ...), so each is
    connected and many cross box lines, joining cells that share no unit: sizes cycle 2, 3, 4 from
    ``turn``, a cage closing early (down to 1 cell) where the next cell's digit is already in it."""
    path = [r * n + (c if r % 2 == 0 else n - 1 - c) for r in range(n) for c in range(n)]
    cages: Cages = []
    cur: list[int] = []
    k = turn
    for i in path:
        if cur and (len(cur) == 2 + k % 3 or grid[i] in {grid[j] for j in cur}):
            cages.append((tuple(sorted(cur)), sum(grid[j] for j in cur)))
            cur, k = [], k + 1
        cur.append(i)
    cages.append((tuple(sorted(cur)), sum(grid[j] for j in cur)))
    return cages


def killer(cages: Cages, kinds: str = "killer", regions: str | None = None) -> Variant:
    return make_variant(kinds, regions, [Cage(cells, total) for cells, total in cages])


def agree(puzzle: Grid, n: int, variant: Variant, units: Units, cages: Cages, limit: int) -> int:
    """count_jit's count and solutions equal the reference's (as sets when below ``limit``)."""
    ref = ref_solutions(puzzle, n, units, cages, limit)
    assert count_jit.count(puzzle, limit, BIG, variant) == len(ref)
    sols = count_jit.solutions(puzzle, limit, BIG, variant)
    assert sols is not None and len(sols) == len(ref)
    for s in sols:
        assert ref_valid(s, n, units, cages)
        assert all(p in (0, d) for p, d in zip(puzzle, s, strict=True))
    if len(ref) < limit:
        assert set(sols) == set(ref)
    return len(ref)


def variant_solution(n: int, variant: Variant, units: Units, cages: Cages) -> Grid:
    sols = count_jit.solutions((0,) * (n * n), 1, BIG, variant)
    assert sols is not None and len(sols) == 1
    assert ref_valid(sols[0], n, units, cages)
    return sols[0]


# ---------------------------------------------------------------------------------------------
# X, hyper, jigsaw
# ---------------------------------------------------------------------------------------------

UNIT_VARIANTS = [(9, "x"), (9, "hyper"), (9, "jigsaw"), (6, "jigsaw"), (6, "x"), (9, "hyper+x"), (9, "jigsaw+x")]


@pytest.mark.parametrize(("n", "kinds"), UNIT_VARIANTS, ids=lambda v: str(v))
def test_unit_variant_counts_match_reference(n: int, kinds: str) -> None:
    """A variant solution (the counter's, re-checked by the reference rules) with its digits renamed
    and 30-40 % of it kept: counts and solutions as the reference's."""
    regions = JIGSAW[n] if "jigsaw" in kinds else None
    variant = make_variant(kinds, regions)
    units = ref_units(n, variant.kinds, variant.regions)
    solution = variant_solution(n, variant, units, [])
    rng = random.Random(f"{n}{kinds}")
    bound = False
    counts = []
    for _ in range(8):
        grid = relabel(solution, rng, n)
        assert ref_valid(grid, n, units, [])
        givens = rng.randrange(n * n * 3 // 10, n * n * 4 // 10)  # 30-40 %: quick for brute force
        puzzle = holes(grid, givens, rng)
        found = agree(puzzle, n, variant, units, [], 12)
        assert found >= 1  # holes in a solution keep it
        counts.append(found)
        if "jigsaw" not in kinds:  # the extra units only remove solutions of the classic puzzle
            classic = count_jit.count(puzzle, 12, BIG)
            assert classic >= found
            bound |= classic > found
    assert bound or "jigsaw" in kinds  # and some puzzle here loses solutions to them
    assert min(counts) < 12  # agree compared some solution sets, not only counts at the limit


def test_classic_grid_breaking_a_diagonal_has_no_x_solution() -> None:
    classic = count_jit.solutions((0,) * 81, 1, BIG)
    assert classic is not None
    grid = classic[0]
    assert not ref_valid(grid, 9, ref_units(9, ("x",)), [])
    assert count_jit.count(grid, 2, BIG) == 1
    assert count_jit.count(grid, 2, BIG, make_variant("x")) == 0
    assert count_jit.solutions(grid, 2, BIG, make_variant("x")) == ()


def test_4x4_boards_enumerated() -> None:
    """Every 4x4 Latin square, filtered by each rule set (classic, x, jigsaw, killer, killer+x), is
    exactly the set of the counter's solutions of the blank board."""
    latin: list[Grid] = [()]
    for _ in range(4):  # row by row, each row a permutation clashing with no column above
        latin = [g + row for g in latin for row in itertools.permutations(range(1, 5))
                 if all(g[c::4].count(row[c]) == 0 for c in range(4))]
    assert len(latin) == 576
    cases: list[tuple[Variant, Units, Cages]] = [
        (CLASSIC, ref_units(4, ()), []),
        (make_variant("x"), ref_units(4, ("x",)), []),
        (make_variant("jigsaw", JIGSAW[4]), ref_units(4, ("jigsaw",), JIGSAW[4]), []),
    ]
    found = count_jit.solutions((0,) * 16, 1, BIG)
    assert found is not None
    first = found[0]
    cages = [((0, 1), first[0] + first[1]), ((2, 6), first[2] + first[6]), ((9, 10, 11), sum(first[9:12]))]
    cases.append((killer(cages), ref_units(4, ()), cages))
    cases.append((killer(cages, "killer+x"), ref_units(4, ("x",)), cages))
    for variant, units, cgs in cases:
        expect = sorted(g for g in latin if ref_valid(g, 4, units, cgs))
        assert count_jit.count((0,) * 16, 1000, BIG, variant) == len(expect)
        sols = count_jit.solutions((0,) * 16, 1000, BIG, variant)
        assert sols is not None and sorted(sols) == expect
    assert [len([g for g in latin if ref_valid(g, 4, u, c)]) for _, u, c in cases][:2] == [288, 48]


def test_hyper_needs_nine_and_budget_still_applies() -> None:
    with pytest.raises(ValueError, match="hyper"):
        count_jit.count((0,) * 36, 2, BIG, make_variant("hyper"))
    assert count_jit.count((0,) * 81, 2, 1, make_variant("x")) == -1
    assert count_jit.solutions((0,) * 81, 2, 1, make_variant("hyper")) is None


# ---------------------------------------------------------------------------------------------
# killer
# ---------------------------------------------------------------------------------------------

KILLERS = [(9, "killer"), (6, "killer"), (9, "killer+x"), (9, "hyper+killer"), (9, "jigsaw+killer"),
           (6, "jigsaw+killer")]


@pytest.mark.heavy
@pytest.mark.parametrize(("n", "kinds"), KILLERS, ids=lambda v: str(v))
def test_killer_counts_match_reference(n: int, kinds: str) -> None:
    """Cages inside boxes and cages along a snake (across box lines), all or some of them, with
    20-30 % givens: counts and solutions as the reference's."""
    regions = JIGSAW[n] if "jigsaw" in kinds else None
    base = make_variant([k for k in kinds.split("+") if k != "killer"], regions)
    units = ref_units(n, base.kinds, base.regions)
    solution = variant_solution(n, base, units, [])
    rng = random.Random(f"killer{n}{kinds}")
    counts = []
    for turn in range(8):
        grid = relabel(solution, rng, n)
        cages = box_cages(grid, n, turn) if turn < 4 and not regions else snake_cages(grid, n, turn)
        if turn % 2:  # only some cages: the others' cells are free of the sum rule
            cages = [c for c in cages if rng.random() < 0.5]
        variant = killer(cages, kinds, regions)
        assert ref_valid(grid, n, units, cages)
        givens = rng.randrange(n * n // 5, n * n * 3 // 10)  # 20-30 %
        counts.append(agree(holes(grid, givens, rng), n, variant, units, cages, 12))
        assert counts[-1] >= 1
    assert min(counts) < 12  # agree compared some solution sets, not only counts at the limit


@pytest.mark.heavy
@pytest.mark.parametrize(("n", "turn"), [(9, 1), (9, 4), (9, 5), (6, 0), (6, 1), (6, 2)])
def test_killer_zero_givens_match_reference(n: int, turn: int) -> None:
    """Only cages (2-4 cells each, covering the board), no givens: counts to 2 as the reference does
    (on 9x9 these cages leave some puzzles unique, some not)."""
    solution = variant_solution(n, CLASSIC, ref_units(n, ()), [])
    grid = relabel(solution, random.Random(turn), n)
    cages = box_cages(grid, n, turn, square_box=(2 * turn) % 9 if n == 9 else None)
    assert {len(cells) for cells, _ in cages} == ({2, 3, 4} if n == 9 else {2, 4})
    assert sorted(i for cells, _ in cages for i in cells) == list(range(n * n))
    assert agree((0,) * (n * n), n, killer(cages), ref_units(n, ()), cages, 2) >= 1  # grid solves it


def test_killer_cage_contradictions_give_zero() -> None:
    solution = count_jit.solutions((0,) * 81, 1, BIG)
    assert solution is not None
    grid = solution[0]
    cages = box_cages(grid, 9)
    cells, total = cages[0]
    wrong = [(cells, total + 1), *cages[1:]]  # the true grid breaks the first cage's sum
    assert count_jit.count(grid, 2, BIG, killer(cages)) == 1
    assert count_jit.count(grid, 2, BIG, killer(wrong)) == 0
    # the smallest sum of its size forces a cage to 1..k: a given above k there leaves no solution
    k = len(cells)
    big = next(i for i in cells if grid[i] > k)
    puzzle = tuple(d if i == big else 0 for i, d in enumerate(grid))
    bad = [(cells, k * (k + 1) // 2), *cages[1:]]
    assert ref_solutions(puzzle, 9, ref_units(9, ()), bad, 2) == []
    assert count_jit.count(puzzle, 2, BIG, killer(bad)) == 0
    assert count_jit.solutions(puzzle, 2, BIG, killer(bad)) == ()
    # and an open cage whose cells see every digit that could reach its sum
    assert count_jit.count((0,) * 81, 2, BIG, killer([((0, 1), 3), ((2, 3), 3)])) == 0


def test_killer_rule_without_cages_is_classic() -> None:
    puzzle = parse("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
    assert count_jit.count(puzzle, 2, BIG, make_variant("killer")) == 1
    assert count_jit.solutions(puzzle, 2, BIG, make_variant("killer")) == count_jit.solutions(puzzle, 2, BIG)


def test_cage_masks() -> None:
    assert count_jit._cage_masks(9, 2, 3) == (0b11,)
    assert count_jit._cage_masks(9, 2, 17) == (0b110000000,)
    assert count_jit._cage_masks(9, 9, 45) == (0b111111111,)
    assert count_jit._cage_masks(9, 3, 5) == ()
    for n, k in [(6, 3), (9, 4), (16, 5)]:
        for total in range(0, n * k + 1):
            want = {sum(1 << (d - 1) for d in s) for s in itertools.combinations(range(1, n + 1), k)
                    if sum(s) == total}
            got = count_jit._cage_masks(n, k, total)
            assert set(got) == want and len(got) == len(want)


def test_solve_fast_takes_the_variant() -> None:
    """``numplace solve``'s tiers: the pure-Python search and ``find`` answer under the variant as the
    reference does (killer: the Python tier checks sums on full grids, ``find`` goes compiled)."""
    rng = random.Random(3)
    for kinds, regions in (("x", None), ("hyper", None), ("jigsaw", JIGSAW[9]), ("killer", None)):
        base = make_variant(kinds if kinds != "killer" else None, regions)
        units = ref_units(9, base.kinds, base.regions)
        grid = relabel(variant_solution(9, base, units, []), rng, 9)
        cages = snake_cages(grid, 9) if kinds == "killer" else []
        variant = killer(cages) if cages else base
        for _ in range(3):
            puzzle = holes(grid, rng.randrange(28, 36), rng)
            ref = ref_solutions(puzzle, 9, units, cages, 5)
            python = search.search(puzzle, 5, 10**6, variant)
            found = search.find(puzzle, 5, variant=variant)
            assert python is not None and found is not None
            assert sorted(python) == sorted(found) == sorted(ref)
            # find answers from the Python tier when it decides (x, hyper, jigsaw): the compiled tier too
            compiled = search.find(puzzle, 5, compiled_first=True, variant=variant)
            assert ref and compiled is not None and sorted(compiled) == sorted(ref)
    p = parse("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
    assert search.search(p, 2) == search.search(p, 2, variant=CLASSIC) == search.find(p, 2, variant=None)


# ---------------------------------------------------------------------------------------------
# classic unchanged
# ---------------------------------------------------------------------------------------------



def test_classic_counts_unchanged() -> None:
    p = parse("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
    for variant in (None, CLASSIC, Variant()):
        assert count_jit.count(p, 2, variant=variant) == 1
        assert count_jit.count((0,) * 16, 300, variant=variant) == 288
        assert all(count_jit.count(parse(t), 2, BIG, variant) == 1 for t in TOP95[:10])
    assert count_jit.count(p, 2) == 1 and count_jit.count((0,) * 16, limit=300) == 288
    for text, want, _ in SMALL + TDOKU[:20]:  # the golden counts (0, 1, many) of every size
        assert count_jit.count(parse(text), 3, BIG, CLASSIC) == min(want, 3)
    assert count_jit.tables(9) is count_jit.tables(9, CLASSIC) is count_jit.tables(9, Variant())


def test_the_cage_rule_queues_the_cells_it_leaves_single() -> None:
    """One pass of the compiled cage rule hands back the cells it made single (for the singles to
    spread), not every single cell of the board: the joint fixpoint is the same, reached with less work."""
    variant = killer([((0, 1), 3), ((2, 3, 4), 24)])
    _, _, full, cells, cell_off, masks, mask_off = count_jit.tables(9, variant)
    cand = np.full(81, full, dtype=np.uint32)
    cand[0] = 1  # r1c1 = 1: the cage 3 = 1 + 2 leaves r1c2 = 2
    cand[5] = 1 << 4  # a single outside every cage: not the rule's to queue
    work = np.zeros((2, cells.shape[0]), dtype=np.uint32)
    queue = np.full(81, -1, dtype=np.int64)
    r = count_jit._cages(cand, cells, cell_off, masks, mask_off, work, queue)
    assert r == 1 + 1 and queue[0] == 1 and cand[1] == 0b10  # one cell queued, and a candidate went
    assert cand[2] == cand[3] == cand[4] == 0b111000000  # 24 in three cells: 7 + 8 + 9, none single
    # at the fixpoint nothing moves and nothing is queued
    assert count_jit._cages(cand, cells, cell_off, masks, mask_off, work, queue) == 0
