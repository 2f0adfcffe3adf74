"""Canonical forms of grids and puzzles under the validity-preserving group (pipeline.identity.canon)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from pipeline import tablecache
from pipeline.board import Grid, board, format_line, parse
from pipeline.identity import canon, canon_tables
from pipeline.identity import numbering as nb
from pipeline.verify import is_valid_solution
from tests.conftest import transform

B9 = board(9)
#: A grid with a deadly rectangle in its first band (uniform grid 0 of the numbering tables).
DEADLY = parse("162538749589476123374192586935784612426319875718265934693821457241657398857943261")
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


@pytest.mark.heavy
def test_canonical_grid_is_invariant_under_the_group(grids: list[Grid]) -> None:
    rng = random.Random(1)
    for g in grids[:15]:
        c = canon.canonical_grid(g)
        for _ in range(5):
            assert canon.canonical_grid(transform(g, rng)) == c


@pytest.mark.heavy
def test_canonical_grid_is_a_valid_smallest_member_of_the_orbit(grids: list[Grid]) -> None:
    rng = random.Random(2)
    for g in grids[:10]:
        c = canon.canonical_grid(g)
        assert is_valid_solution(c, B9)
        assert c[:9] == (1, 2, 3, 4, 5, 6, 7, 8, 9)
        assert canon.canonical_grid(c) == c
        assert c <= g
        assert all(c <= transform(g, rng) for _ in range(50))


@pytest.mark.heavy
def test_canonical_grid_separates_inequivalent_grids(grids: list[Grid]) -> None:
    forms = [canon.canonical_grid(g) for g in grids]
    assert len(set(forms)) == len(grids)  # 40 uniform grids: equivalent with probability ~1e-7
    # a grid and the same grid with one 2x2 "deadly rectangle" of digits swapped are different grids;
    # here also inequivalent (their canonical forms say so, and the search below agrees)
    g = DEADLY
    r1, r2, c1, c2 = 0, 1, 1, 5  # r1c2 r1c6 / r2c2 r2c6 hold 6 8 / 8 6: across boxes 1 and 2
    a, b = g[9 * r1 + c1], g[9 * r1 + c2]
    assert is_valid_solution(g, B9) and g[9 * r2 + c1] == b and g[9 * r2 + c2] == a
    h = list(g)
    h[9 * r1 + c1], h[9 * r1 + c2], h[9 * r2 + c1], h[9 * r2 + c2] = b, a, a, b
    h2 = tuple(h)
    assert is_valid_solution(h2, B9)
    assert (canon.canonical_grid(h2) == canon.canonical_grid(g)) == (canon._search(h2) == canon._search(g))


@pytest.mark.heavy
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


@pytest.mark.heavy
def test_canonical_grid_validates_exactly_like_check_grid(grids: list[Grid]) -> None:
    """The band look-ups double as the validity check: random damage is always caught."""
    rng = random.Random(8)
    outcomes: Counter[bool] = Counter()
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
        outcomes[valid] += 1
        if valid:
            assert canon.canonical_grid(g) == canon.canonical_grid(tuple(g))
        else:
            with pytest.raises(ValueError):
                canon.canonical_grid(g)
    assert outcomes[True] and outcomes[False]  # both answers were checked
    with pytest.raises(ValueError):
        canon.canonical_grid([300] * 81)
    with pytest.raises(ValueError):
        canon.canonical_grid(np.array(grids[0]) * 0)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# puzzles
# ---------------------------------------------------------------------------------------------


@pytest.mark.heavy
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


@pytest.mark.heavy
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


@pytest.mark.heavy
@pytest.mark.slow
def test_brute_force_agrees_on_a_grid_and_a_puzzle(grids: list[Grid]) -> None:
    rng = random.Random(7)
    assert _brute_force(grids[5]) == canon.canonical_grid(grids[5])
    p = holes(grids[6], 23, rng)
    assert _brute_force(p) == canon.canonical_puzzle(p)


# ---------------------------------------------------------------------------------------------
# the compiled kernels (pipeline.identity.canon_jit) against the numpy reference
# ---------------------------------------------------------------------------------------------

# (lowest, highest) givens and how many 9x9 puzzles of that kind: mostly the hint counts sets have;
# sparse puzzles (blank rows, columns, stacks and bands) exercise the kernel's reductions but cost the
# reference up to ~0.1 s each, hence fewer of them
MIX_9 = ((17, 40, 2000), (41, 80, 300), (9, 16, 100), (1, 8, 30))


def _puzzles_9(grids: list[Grid], rng: random.Random, scale: int = 1) -> list[Grid]:
    """Random 9x9 puzzles: holes cut at random in random group images of the fixture's grids."""
    out = []
    for lo, hi, count in MIX_9:
        for _ in range(count * scale):
            out.append(holes(transform(rng.choice(grids), rng), rng.randint(lo, hi), rng))
    return out


def _check_9(puzzles: list[Grid], rng: random.Random) -> None:
    """Compiled keys equal the reference's, and a random group image of each puzzle has the same key."""
    reference = [format_line(f) for f in canon._canonical_puzzles_py(puzzles)]
    compiled = [canon.canonical_key(p) for p in puzzles]
    bad = [p for p, a, b in zip(puzzles, compiled, reference, strict=True) if a != b]
    assert bad == [], f"{len(bad)} of {len(puzzles)} differ, first {format_line(bad[0])}"
    for p, key in zip(puzzles, compiled, strict=True):
        assert canon.canonical_key(transform(p, rng)) == key
    assert [format_line(f) for f in canon.canonical_puzzles(puzzles[:50])] == compiled[:50]
    assert [canon._canonical_key_py(p) for p in puzzles[::20]] == compiled[::20]  # batched reference = single


@pytest.mark.deep
@pytest.mark.heavy
def test_compiled_9x9_matches_the_reference_on_random_puzzles(grids: list[Grid]) -> None:
    rng = random.Random(21)
    _check_9(_puzzles_9(grids, rng), rng)


@pytest.mark.slow
def test_compiled_9x9_matches_the_reference_on_many_random_puzzles() -> None:
    rng = random.Random(22)
    _check_9(_puzzles_9([nb.uniform_grid(s) for s in range(1000, 1400)], rng, scale=10), rng)


@pytest.mark.heavy
def test_compiled_9x9_search_agrees_with_the_grid_method_on_complete_grids(grids: list[Grid]) -> None:
    """The kernel can search complete grids too (the public functions use the faster table method):
    two independent exact methods, one answer."""
    rng = random.Random(23)
    for k in range(200):
        g = transform(grids[k % len(grids)], rng)
        form = canon.canonical_grid(g)
        assert canon._form9(g, search_complete=True) == bytes(form)
        assert canon.canonical_key(g) == canon._canonical_key_py(g) == format_line(form)
    blank = (0,) * 81
    assert canon._form9(blank, search_complete=True) == bytes(81)
    assert canon.canonical_key(blank) == canon._canonical_key_py(blank) == "." * 81


@pytest.mark.heavy
@pytest.mark.parametrize(
    "cells",
    [
        range(9),  # one full row, eight blank ones
        range(27),  # one full band
        [i for i in range(81) if i < 27 or i % 9 < 3],  # a band and a stack: many ties
        [10 * i for i in range(9)],  # the diagonal
        [9 * r + c for r in range(9) for c in range(9) if r // 3 == c // 3],  # the diagonal boxes
        [9 * r + c for r in (0, 3, 6) for c in (0, 3, 6)],
        [i for i in range(81) if i // 9 in (0, 4, 8)],
        [0, 80],
        [0, 40, 80],
        [i for i in range(81) if i != 40],  # one blank
    ],
)
def test_compiled_9x9_matches_the_reference_on_structured_layouts(grids: list[Grid], cells: list[int]) -> None:
    rng = random.Random(24)
    keep = set(cells)
    for g in grids[:3]:
        p = tuple(d if i in keep else 0 for i, d in enumerate(g))
        assert canon.canonical_key(p) == canon._canonical_key_py(p)
        assert canon.canonical_puzzle(transform(p, rng)) == canon._canonical_puzzle_py(p)


def _outcome(fn: Callable[[Any], object], arg: object) -> object:
    """What ``fn(arg)`` gives: its value, or the type and message of what it raised."""
    try:
        return fn(arg)
    except Exception as exc:
        return (type(exc), str(exc))


@pytest.fixture
def kernel_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of every compiled kernel (``canon9``, ``canon_small``) canon calls, in order. A
    comparison with the reference proves something only for inputs that reached a kernel."""
    from pipeline.identity import canon_jit

    calls: list[str] = []
    for name in ("canon9", "canon_small"):

        def spy(*args: object, real: Callable[..., int] = getattr(canon_jit, name), name: str = name) -> int:
            calls.append(name)
            return real(*args)

        monkeypatch.setattr(canon_jit, name, spy)
    return calls


@pytest.mark.heavy
def test_compiled_paths_take_the_same_inputs_and_raise_the_same_errors(
    grids: list[Grid], kernel_calls: list[str]
) -> None:
    """Input the kernels do not take (other types, out-of-range digits, wrong lengths) goes to the
    reference, so results and messages are the reference's. Each input is listed with the kernel it
    must reach (None: the reference alone answers), so the comparison is known to test the kernels."""
    p = holes(grids[2], 26, random.Random(25))
    rng = random.Random(27)
    small = {n: holes(_random_small_grid(n, rng), n * n // 2, rng) for n in (4, 6)}
    odd: list[tuple[object, str | None]] = [
        (list(p), "canon9"),
        (np.array(p), "canon9"),  # converted by check_puzzle, then the kernel
        ([float(d) for d in p], "canon9"),
        ("".join(str(d) for d in p), "canon9"),
        ([np.int64(d) for d in p], "canon9"),
        ([np.uint8(d) for d in p], "canon9"),
        ([bool(d) for d in p], "canon9"),  # True is 1: a conflict
        ([0] * 80, None),
        ([0] * 82, None),
        ([0, 0, 12] + [0] * 78, "canon9"),
        ([0, 0, 300] + [0] * 78, None),
        ([0, 0, -1] + [0] * 78, None),
        ([4, 4] + [0] * 79, "canon9"),
        ([4] + [0] * 8 + [4] + [0] * 71, "canon9"),  # column
        ([4] + [0] * 9 + [4] + [0] * 70, "canon9"),  # box
        (["x"] * 81, None),
        ([None] * 81, None),
        ([0] * 256, None),  # 16x16: no form
        # small boards: puzzles of every element type the kernel takes, then out-of-range digits,
        # odd lengths and other types
        (list(small[4]), "canon_small"),
        (small[6], "canon_small"),
        ([np.int64(d) for d in small[6]], "canon_small"),
        ([bool(d) for d in small[4]], "canon_small"),
        ((0,) * 36, "canon_small"),
        ([5] + [0] * 15, None),
        ([0] * 17, None),
        (np.zeros(36, dtype=np.int64), None),
        ("1" + "0" * 15, None),
        ([7] + [0] * 35, None),
        ([1, 1] + [0] * 34, "canon_small"),  # a conflict: small boards have forms all the same
        ([], None),
    ]
    for x, kernel in odd:
        ref = _outcome(canon._canonical_key_py, x)
        kernel_calls.clear()
        assert _outcome(canon.canonical_key, x) == ref, x
        assert kernel_calls == ([kernel] if kernel else []), x


def _random_small_grid(n: int, rng: random.Random) -> Grid:
    """A random complete grid of board ``n`` (backtracking with shuffled digits)."""
    b = board(n)
    g = [0] * (n * n)

    def fill(i: int) -> bool:
        if i == n * n:
            return True
        for d in rng.sample(range(1, n + 1), n):
            if all(g[j] != d for j in b.peers[i]):
                g[i] = d
                if fill(i + 1):
                    return True
        g[i] = 0
        return False

    assert fill(0)
    return tuple(g)


def _small_transform(p: Grid, n: int, rng: random.Random) -> Grid:
    """A random element of the group of board ``n`` (position map and relabelling) applied to ``p``."""
    maps = canon._small_maps(n)
    m = maps[rng.randrange(len(maps))].tolist()
    perm = [0, *rng.sample(range(1, n + 1), n)]
    return tuple(perm[p[m[i]]] for i in range(n * n))


def _check_small(n: int, count: int, rng: random.Random) -> None:
    grids = [_random_small_grid(n, rng) for _ in range(60)]
    for k in range(count):
        g = _small_transform(rng.choice(grids), n, rng)
        keep = set(rng.sample(range(n * n), rng.randint(0, n * n) if k % 10 else n * n))
        p = tuple(d if i in keep else 0 for i, d in enumerate(g))
        key = canon.canonical_key(p)
        assert key == canon._canonical_key_py(p), format_line(p)
        assert canon.canonical_small(p) == canon._canonical_small_py(p)
        assert canon.canonical_key(_small_transform(p, n, rng)) == key


@pytest.mark.heavy
@pytest.mark.parametrize(("n", "count"), [(4, 3000), pytest.param(6, 1000, marks=pytest.mark.deep)])
def test_compiled_small_boards_match_the_reference(n: int, count: int) -> None:
    _check_small(n, count, random.Random(26 + n))


@pytest.mark.slow
@pytest.mark.parametrize("n", [4, 6])
def test_compiled_small_boards_match_the_reference_on_many_puzzles(n: int) -> None:
    _check_small(n, 10_000, random.Random(36 + n))


def test_golden_keys() -> None:
    """Forms written by the numpy implementation before the kernels existed (they must not move)."""
    golden = {  # puzzle: its canonical key (top95.txt line 1; golden_small.txt lines)
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......":
        "........1.....1.23..4.5..........5.....6..74.38............2.....7...6...1...8...",
        "2........4.2....3..5......5.6.3.4...": ".....1..2.......3.34.......42...51..",
        "..2.....3..4.1..": ".......1.2..3.4.",
    }
    for puzzle, key in golden.items():
        n = round(len(puzzle) ** 0.5)
        assert canon.canonical_key(parse(puzzle, n)) == key
        assert canon._canonical_key_py(parse(puzzle, n)) == key


# ---------------------------------------------------------------------------------------------
# table cache
# ---------------------------------------------------------------------------------------------


@pytest.mark.deep
@pytest.mark.heavy
def test_corrupted_canon_table_is_rebuilt(numplace_cache: Path, grids: list[Grid], monkeypatch: pytest.MonkeyPatch,
                                         tmp_path: Path) -> None:
    """A damaged copy of the session's table (in its own cache folder: the session's is shared by the
    test workers and kept between sessions) is rebuilt, with the same canonical forms."""
    expected = [canon.canonical_grid(g) for g in grids[:5]]
    path = tmp_path / TABLE
    data = bytearray((numplace_cache / TABLE).read_bytes())
    data[len(data) // 2] ^= 0x5A
    path.write_bytes(bytes(data))
    monkeypatch.setenv("NUMPLACE_CACHE_DIR", str(tmp_path))
    canon.reset_tables()
    try:
        assert [canon.canonical_grid(g) for g in grids[:5]] == expected
    finally:
        canon.reset_tables()
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    digest = arrays.pop("__sha256__")
    assert digest.tobytes() == tablecache.digest(arrays)
    assert path.read_bytes() != bytes(data)  # rewritten, not trusted


@pytest.mark.heavy
def test_canon_table_is_checked_against_the_band_list(monkeypatch: pytest.MonkeyPatch, grids: list[Grid]) -> None:
    """``bands_sha256`` is compared with the digest of numbering's cached bands (no enumeration); if
    numbering's tables are unusable or hold another list, with the enumerated list; a table built for
    another list is rejected either way."""
    a = canon.tables()._arrays
    expected = [canon.canonical_grid(g) for g in grids[:3]]
    assert a["bands_sha256"].tobytes() == canon_tables.band_digest().tobytes()

    def enumerate_bands() -> tuple[nb.Band, ...]:
        calls.append(1)
        return nb.standard_bands()

    calls: list[int] = []
    monkeypatch.setattr(canon_tables, "standard_bands", enumerate_bands)
    t = canon_tables.CanonTables(a)
    assert not calls  # numbering's bands matched
    assert t.pattern_of == {bytes(b): i for i, b in enumerate(nb.standard_bands())}

    other = SimpleNamespace(arrays={"bands": nb.tables().arrays["bands"][::-1].copy()})  # another band list

    def broken() -> None:
        raise ValueError("numbering tables rejected twice")

    for numbering_tables in (lambda: other, broken):
        monkeypatch.setattr(canon_tables.numbering_tables, "tables", numbering_tables)
        calls.clear()
        t = canon_tables.CanonTables(a)
        assert calls == [1]
        assert t.pattern_of == {bytes(b): i for i, b in enumerate(nb.standard_bands())}
        monkeypatch.setattr(canon, "tables", lambda t=t: t)
        assert [canon.canonical_grid(g) for g in grids[:3]] == expected
        with pytest.raises(ValueError, match="another band list"):
            canon_tables.CanonTables({**a, "bands_sha256": np.zeros(32, dtype=np.uint8)})
