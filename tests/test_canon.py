"""Canonical forms of grids and puzzles under the validity-preserving group (pipeline.identity.canon)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from pipeline.board import Grid, board
from pipeline.identity import canon, tablecache
from pipeline.identity import numbering as nb
from pipeline.verify import is_valid_solution

from .conftest import transform

B9 = board(9)
TABLE = f"canon-v{canon.VERSION}.npz"


def holes(g: Grid, givens: int, rng: random.Random) -> Grid:
    keep = set(rng.sample(range(81), givens))
    return tuple(d if i in keep else 0 for i, d in enumerate(g))


@pytest.fixture(scope="module")
def grids() -> list[Grid]:
    return [nb.uniform_grid(s) for s in range(40)]


# ---------------------------------------------------------------------------------------------
# grids
# ---------------------------------------------------------------------------------------------


def test_canonical_grid_is_invariant_under_the_group(grids: list[Grid]) -> None:
    rng = random.Random(1)
    for g in grids[:15]:
        c = canon.canonical_grid(g)
        for _ in range(5):
            assert canon.canonical_grid(transform(g, rng)) == c


def test_canonical_grid_is_a_valid_smallest_member_of_the_orbit(grids: list[Grid]) -> None:
    rng = random.Random(2)
    for g in grids[:10]:
        c = canon.canonical_grid(g)
        assert is_valid_solution(c, B9)
        assert c[:9] == (1, 2, 3, 4, 5, 6, 7, 8, 9)
        assert canon.canonical_grid(c) == c
        assert c <= g
        assert all(c <= transform(g, rng) for _ in range(50))


def test_canonical_grid_separates_inequivalent_grids(grids: list[Grid]) -> None:
    forms = [canon.canonical_grid(g) for g in grids]
    assert len(set(forms)) == len(grids)  # 40 uniform grids: equivalent with probability ~1e-7
    # a grid and the same grid with one 2x2 "deadly rectangle" of digits swapped are different grids;
    # here also inequivalent (their canonical forms say so, and the search below agrees)
    g = grids[0]
    for r1, r2 in itertools.combinations(range(3), 2):
        for c1, c2 in itertools.combinations(range(9), 2):
            if c1 // 3 == c2 // 3:
                continue
            a, b = g[9 * r1 + c1], g[9 * r1 + c2]
            if g[9 * r2 + c1] == b and g[9 * r2 + c2] == a:
                h = list(g)
                h[9 * r1 + c1], h[9 * r1 + c2], h[9 * r2 + c1], h[9 * r2 + c2] = b, a, a, b
                h2 = tuple(h)
                assert is_valid_solution(h2, B9)
                assert (canon.canonical_grid(h2) == canon.canonical_grid(g)) == (canon._search(h2) == canon._search(g))
                return
    pytest.skip("no deadly rectangle in the first band of this grid")


def test_grid_table_method_agrees_with_the_exhaustive_search(grids: list[Grid]) -> None:
    for g in grids[:4]:
        assert canon._search(g) == canon.canonical_grid(g)


def test_canonical_grid_rejects_invalid_grids(grids: list[Grid]) -> None:
    g = list(grids[0])
    g[10] = 0
    with pytest.raises(ValueError, match="row 2, column 2"):
        canon.canonical_grid(g)
    g = list(grids[0])
    g[0], g[1] = g[1], g[0]
    with pytest.raises(ValueError, match="not a valid Sudoku grid"):
        canon.canonical_grid(g)
    with pytest.raises(ValueError, match="81"):
        canon.canonical_grid(grids[0][:-1])


def test_canonical_grid_validates_exactly_like_check_grid(grids: list[Grid]) -> None:
    """The band look-ups double as the validity check: random damage is always caught."""
    rng = random.Random(8)
    for k in range(300):
        g = list(grids[k % len(grids)])
        kind = k % 3
        if kind == 0:  # swap two cells of a row: rows stay permutations, columns/boxes may break
            r, c1, c2 = rng.randrange(9), rng.randrange(9), rng.randrange(9)
            g[9 * r + c1], g[9 * r + c2] = g[9 * r + c2], g[9 * r + c1]
        elif kind == 1:  # change one digit
            g[rng.randrange(81)] = rng.randrange(0, 10)
        else:  # swap two digits everywhere in one band only
            (a, b), band = rng.sample(range(1, 10), 2), rng.randrange(3)
            for i in range(27 * band, 27 * band + 27):
                g[i] = b if g[i] == a else a if g[i] == b else g[i]
        try:
            nb.check_grid(g)
            valid = True
        except ValueError:
            valid = False
        if valid:
            assert canon.canonical_grid(g) == canon.canonical_grid(tuple(g))
        else:
            with pytest.raises(ValueError):
                canon.canonical_grid(g)
    with pytest.raises(ValueError):
        canon.canonical_grid([300] * 81)
    with pytest.raises(ValueError):
        canon.canonical_grid(np.array(grids[0]) * 0)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# puzzles
# ---------------------------------------------------------------------------------------------


def test_canonical_puzzle_is_invariant_under_the_group(grids: list[Grid]) -> None:
    rng = random.Random(3)
    for k, g in enumerate(grids[:24]):
        p = holes(g, (17, 20, 24, 26, 30, 45, 3, 1)[k % 8], rng)
        c = canon.canonical_puzzle(p)
        # relabelling keeps how often each digit is given, and the number of givens
        assert sorted(Counter(x for x in c if x).values()) == sorted(Counter(x for x in p if x).values())
        assert sum(1 for x in c if x) == sum(1 for x in p if x)
        assert canon.canonical_puzzle(c) == c
        assert c <= p
        for _ in range(4):
            assert canon.canonical_puzzle(transform(p, rng)) == c


def test_canonical_puzzle_relabels_by_first_appearance(grids: list[Grid]) -> None:
    rng = random.Random(4)
    c = canon.canonical_puzzle(holes(grids[1], 22, rng))
    seen: list[int] = []
    for x in c:
        if x and x not in seen:
            seen.append(x)
    assert seen == list(range(1, len(seen) + 1))
    assert c[:9].count(0) >= 6  # blanks come first: the sparsest row leads


def test_canonical_puzzle_separates_inequivalent_puzzles(grids: list[Grid]) -> None:
    rng = random.Random(5)
    puzzles = [holes(g, 24, rng) for g in grids]
    forms = [canon.canonical_puzzle(p) for p in puzzles]
    assert len(set(forms)) == len(puzzles)
    # same grid, same number of givens, different layouts
    p1, p2 = holes(grids[0], 30, rng), holes(grids[0], 30, rng)
    assert canon.canonical_puzzle(p1) != canon.canonical_puzzle(p2)
    # one given fewer is never equivalent
    i = next(i for i, x in enumerate(p1) if x)
    fewer = (*p1[:i], 0, *p1[i + 1 :])
    assert canon.canonical_puzzle(fewer) != canon.canonical_puzzle(p1)


def test_puzzle_and_grid_forms_agree_on_complete_grids(grids: list[Grid]) -> None:
    for g in grids[:3]:
        assert canon.canonical_puzzle(g) == canon.canonical_grid(g) == canon._search(g)


def test_batched_puzzles_match_single_ones(grids: list[Grid]) -> None:
    rng = random.Random(6)
    puzzles = [holes(g, rng.choice((0, 2, 17, 25, 35, 81)), rng) for g in grids]
    assert canon.canonical_puzzles(puzzles, batch=7) == [canon.canonical_puzzle(p) for p in puzzles]


def test_blank_and_sparse_puzzles() -> None:
    blank = (0,) * 81
    assert canon.canonical_puzzle(blank) == blank
    one = tuple(5 if i == 40 else 0 for i in range(81))
    assert canon.canonical_puzzle(one) == (0,) * 80 + (1,)
    two = [0] * 81
    two[0], two[80] = 3, 7
    # different bands and stacks: the first given goes as late as possible (r6c9), the other to the
    # last row in another stack (r9c6)
    expected = [0] * 81
    expected[9 * 5 + 8], expected[9 * 8 + 5] = 1, 2
    assert canon.canonical_puzzle(two) == tuple(expected)


def test_canonical_puzzle_rejects_bad_puzzles() -> None:
    p = [0] * 81
    p[0] = p[1] = 4
    with pytest.raises(ValueError, match="conflict"):
        canon.canonical_puzzle(p)
    with pytest.raises(ValueError, match="81"):
        canon.canonical_puzzle([0] * 80)
    with pytest.raises(ValueError, match="row 1, column 3"):
        canon.canonical_puzzle([0, 0, 12] + [0] * 78)


# ---------------------------------------------------------------------------------------------
# brute force over all 2 * 6**8 position maps (slow)
# ---------------------------------------------------------------------------------------------


def _brute_force(p: Grid) -> Grid:
    """Smallest first-appearance-relabelled image over every position map, by plain enumeration."""
    a = np.array(p).reshape(9, 9)
    row_maps = np.array(
        [
            [3 * bp[b] + wp[b][i] for b in range(3) for i in range(3)]
            for bp in itertools.permutations(range(3))
            for wp in itertools.product(list(itertools.permutations(range(3))), repeat=3)
        ]
    )
    col_maps = row_maps  # columns obey the same structure
    best: tuple[int, ...] | None = None
    for src in (a, a.T):
        for rm in row_maps:
            cand = src[rm][:, col_maps].transpose(1, 0, 2).reshape(len(col_maps), 81)  # (1296, 81)
            # first appearance of each digit -> labels 1, 2, ... in that order
            hit = cand[:, :, None] == np.arange(1, 10)  # (1296, 81, 9)
            pos = np.where(hit.any(1), hit.argmax(1), 99)
            rank = (pos[:, :, None] > pos[:, None, :]).sum(2) + 1  # label of digit d = 1 + #digits seen earlier
            lab = np.concatenate([np.zeros((len(cand), 1), dtype=int), rank], axis=1)
            rel = np.take_along_axis(lab, cand, axis=1)
            keys = np.lexsort(rel.T[::-1])
            top = tuple(int(x) for x in rel[keys[0]])
            if best is None or top < best:
                best = top
    assert best is not None
    return best


@pytest.mark.slow
def test_brute_force_agrees_on_a_grid_and_a_puzzle(grids: list[Grid]) -> None:
    rng = random.Random(7)
    assert _brute_force(grids[5]) == canon.canonical_grid(grids[5])
    p = holes(grids[6], 23, rng)
    assert _brute_force(p) == canon.canonical_puzzle(p)


# ---------------------------------------------------------------------------------------------
# table cache
# ---------------------------------------------------------------------------------------------


def test_corrupted_canon_table_is_rebuilt(numplace_cache: Path, grids: list[Grid]) -> None:
    expected = [canon.canonical_grid(g) for g in grids[:5]]
    path = numplace_cache / TABLE
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x5A
    path.write_bytes(bytes(data))
    canon.reset_tables()
    assert [canon.canonical_grid(g) for g in grids[:5]] == expected
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    digest = arrays.pop("__sha256__")
    assert digest.tobytes() == tablecache.digest(arrays)
