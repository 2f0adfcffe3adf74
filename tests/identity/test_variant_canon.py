"""Canonical forms of variant puzzles (pipeline.identity.variant_canon): the groups, invariance under
them, distinct classes apart, the compiled killer scan against its numpy reference."""

from __future__ import annotations

import json
import random

import pytest

from pipeline.board import Cage, Grid, Variant, board, make_variant, parse
from pipeline.identity import canon, variant_canon
from tests.conftest import DATA

GOLDEN = json.loads((DATA / "variants" / "golden.json").read_text())["puzzles"]


def golden(name: str) -> tuple[Grid, Variant]:
    (p,) = [p for p in GOLDEN if p["name"] == name]
    return parse(p["puzzle"]), make_variant(p["variant"], p["regions"], p["cages"])


def apply(puzzle: Grid, variant: Variant, src: tuple[int, ...], digits: list[int]) -> tuple[Grid, Variant]:
    """The puzzle and rules read through the position map ``src`` and the digit map ``digits``,
    written independently of the module (cages moved and re-summed through ``digits``)."""
    n = round(len(puzzle) ** 0.5)
    where = {s: k for k, s in enumerate(src)}
    cages = []
    for c in variant.cages:
        # a digit map keeps cage sums only when it is the identity or the complement
        total = c.total if digits[1] == 1 else len(c.cells) * (n + 1) - c.total
        cages.append(Cage(tuple(sorted(where[i] for i in c.cells)), total))
    regions = None if variant.regions is None else "".join(variant.regions[s] for s in src)
    return tuple(digits[puzzle[s]] for s in src), make_variant(list(variant.kinds), regions, cages)


def line_map(n: int, rows: list[int], cols: list[int], t: bool) -> tuple[int, ...]:
    if t:
        return tuple(cols[j] * n + rows[i] for i in range(n) for j in range(n))
    return tuple(rows[i] * n + cols[j] for i in range(n) for j in range(n))


def classic_map(rng: random.Random) -> tuple[int, ...]:
    """A random element of the 9x9 classic group's position maps."""
    rows = [3 * b + x for b in rng.sample(range(3), 3) for x in rng.sample(range(3), 3)]
    cols = [3 * s + x for s in rng.sample(range(3), 3) for x in rng.sample(range(3), 3)]
    return line_map(9, rows, cols, rng.random() < 0.5)


def square_map(n: int, rng: random.Random) -> tuple[int, ...]:
    """A random map of the square (rotation or reflection)."""
    ident, rev = list(range(n)), list(range(n - 1, -1, -1))
    return line_map(n, rng.choice([ident, rev]), rng.choice([ident, rev]), rng.random() < 0.5)


def relabel(rng: random.Random, n: int = 9) -> list[int]:
    return [0, *rng.sample(range(1, n + 1), n)]


def keeps(src: tuple[int, ...], units: tuple[tuple[int, ...], ...]) -> bool:
    sets = {frozenset(u) for u in units}
    return all(frozenset(src[k] for k in u) in sets for u in units)


# ---------------------------------------------------------------------------------------------
# the groups
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "kinds", "size"), [(9, ("x",), 96), (9, ("hyper",), 128), (9, ("hyper", "x"), 16),
                                                  (4, ("x",), 16)])
def test_the_group_is_every_classic_map_that_keeps_the_extra_units(n: int, kinds: tuple[str, ...], size: int) -> None:
    maps = variant_canon.group_maps(n, kinds, False)
    units = board(n, Variant(kinds)).extra
    assert len(maps) == len(set(maps)) == size
    assert maps[0] == tuple(range(n * n))
    assert all(keeps(m, units) for m in maps)
    if n == 4:  # every classic 4x4 map, filtered directly
        every = {tuple(int(x) for x in m) for m in canon._small_maps(4)}
        assert set(maps) == {m for m in every if keeps(m, units)}
    else:  # closed under composition: a group
        mset = set(maps)
        rng = random.Random(0)
        for _ in range(200):
            f, g = rng.choice(maps), rng.choice(maps)
            assert tuple(f[g[k]] for k in range(81)) in mset


def test_jigsaw_maps_are_the_eight_maps_of_the_square() -> None:
    maps = variant_canon.group_maps(9, (), True)
    rng = random.Random(3)
    assert set(maps) == {square_map(9, rng) for _ in range(400)}
    assert len(maps) == 8


# ---------------------------------------------------------------------------------------------
# invariance and separation
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["x-aind-diagonal", "hyper-pravinthan-one", "hyper-pravinthan-two"])
def test_x_and_hyper_forms_are_invariant_under_their_group(name: str) -> None:
    puzzle, variant = golden(name)
    form = variant_canon.canonical_variant_key(puzzle, variant)
    maps = variant_canon.group_maps(9, tuple(k for k in variant.kinds), False)
    rng = random.Random(1)
    for _ in range(12):
        p2, v2 = apply(puzzle, variant, rng.choice(maps), relabel(rng))
        assert p2 != puzzle
        assert variant_canon.canonical_variant_key(p2, v2) == form
    # a classic map that moves a diagonal is not a symmetry of an X puzzle: the form differs
    if variant.kinds == ("x",):
        bent = line_map(9, [1, 0, 2, 3, 4, 5, 6, 7, 8], list(range(9)), False)
        assert not keeps(bent, board(9, variant).extra)
        assert variant_canon.canonical_variant_key(*apply(puzzle, variant, bent, list(range(10)))) != form


@pytest.mark.parametrize("name", ["jigsaw-janko-108", "jigsaw-timwi-ctc"])
def test_jigsaw_forms_carry_the_layout_and_are_invariant(name: str) -> None:
    puzzle, variant = golden(name)
    form = variant_canon.canonical_variant(puzzle, variant)
    assert form is not None
    rules = form[1]
    assert rules.regions is not None and board(9, rules).boxes  # a valid layout
    rng = random.Random(2)
    for _ in range(10):
        p2, v2 = apply(puzzle, variant, square_map(9, rng), relabel(rng))
        assert variant_canon.canonical_variant(p2, v2) == form
    # the same givens on another layout are another puzzle
    other = golden("jigsaw-timwi-ctc" if name == "jigsaw-janko-108" else "jigsaw-janko-108")[1]
    assert variant_canon.canonical_variant_key(puzzle, other) != variant_canon.canonical_variant_key(puzzle, variant)


@pytest.mark.parametrize("name", ["killer-janko-116", "killer-timwi-dailykiller"])
def test_killer_forms_are_invariant_under_the_classic_group_and_the_complement(name: str) -> None:
    puzzle, variant = golden(name)
    key = variant_canon.canonical_variant_key(puzzle, variant)
    rng = random.Random(4)
    for k in range(8):
        digits = list(range(10)) if k % 2 else [0, *range(9, 0, -1)]
        p2, v2 = apply(puzzle, variant, classic_map(rng), digits)
        assert v2.cages != variant.cages
        assert variant_canon.canonical_variant_key(p2, v2) == key


def test_killer_forms_tell_cage_sums_and_cages_apart() -> None:
    puzzle, variant = golden("killer-timwi-dailykiller")
    key = variant_canon.canonical_variant_key(puzzle, variant)
    cages = list(variant.cages)
    a, b = next((x, y) for x in cages for y in cages if len(x.cells) == len(y.cells) and x.total != y.total)
    swapped = [c for c in cages if c not in (a, b)] + [Cage(a.cells, b.total), Cage(b.cells, a.total)]
    assert variant_canon.canonical_variant_key(puzzle, make_variant("killer", None, swapped)) != key


@pytest.mark.deep
@pytest.mark.heavy
def test_the_compiled_killer_scan_finds_the_references_minimum() -> None:
    puzzle, variant = golden("killer-timwi-dailykiller")
    src, flip = variant_canon._killer9_py(puzzle, variant)
    assert variant_canon._apply(puzzle, variant, 9, src, flip) == variant_canon.canonical_variant(puzzle, variant)


def test_small_killer_and_x_boards_have_forms_and_16x16_has_none() -> None:
    rng = random.Random(5)
    g4 = parse("1234341221434321")
    cages = [Cage((0, 1), 3), Cage((2, 3), 7), Cage((4, 8), 4), Cage((5, 9), 6), Cage((6, 7), 5), Cage((10, 11), 7),
             Cage((12, 13), 7), Cage((14, 15), 3)]
    v = make_variant("killer", None, cages)
    p = tuple(d if i in (0, 5) else 0 for i, d in enumerate(g4))
    key = variant_canon.canonical_variant_key(p, v)
    every = [tuple(int(x) for x in m) for m in canon._small_maps(4)]
    for _ in range(10):
        digits = list(range(5)) if rng.random() < 0.5 else [0, 4, 3, 2, 1]
        assert variant_canon.canonical_variant_key(*apply(p, v, rng.choice(every), digits)) == key
    assert variant_canon.canonical_variant(tuple([0] * 256), Variant(("x",))) is None
    with pytest.raises(ValueError, match="hyper is defined for 9x9 only"):
        variant_canon.canonical_variant(tuple([0] * 16), Variant(("hyper",)))
