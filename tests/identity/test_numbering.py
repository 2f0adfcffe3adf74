"""Band counts, the grid numbering bijection, uniform grids and the table cache (pipeline.identity.numbering)."""

from __future__ import annotations

import math
import random
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from pipeline import tablecache
from pipeline.board import board
from pipeline.identity import bandcount, numbering_tables
from pipeline.identity import numbering as nb
from pipeline.verify import is_valid_solution
from tests.conftest import transform

B9 = board(9)
PURE_BAND = ["123456789", "456789123", "789123456"]
TABLE = f"numbering-v{nb.TABLE_VERSION}.npz"


# ---------------------------------------------------------------------------------------------
# constants and band counts
# ---------------------------------------------------------------------------------------------


def test_constants_agree_with_the_literature() -> None:
    assert nb.N0 == 6_670_903_752_021_072_936_960
    assert math.factorial(9) * 72**2 * 2**7 * 27_704_267_971 == nb.N0
    assert nb.N1 * math.factorial(9) == nb.N0
    assert nb.N2 * 72 * 72 == nb.N1


def test_pure_band_has_108374976_standardized_completions() -> None:
    assert nb.band_count(PURE_BAND) == 108_374_976
    assert nb.band_completions(PURE_BAND) == 108_374_976 * 72


def test_band_count_is_invariant_and_accepts_any_valid_band() -> None:
    rng = random.Random(7)
    pure = tuple(int(ch) for row in PURE_BAND for ch in row)
    for _ in range(2):
        perm = [0, *rng.sample(range(1, 10), 9)]
        cols = [3 * s + x for s in rng.sample(range(3), 3) for x in rng.sample(range(3), 3)]
        rows = rng.sample(range(3), 3)
        band = [perm[pure[9 * r + c]] for r in rows for c in cols]
        assert nb.band_count(band) == 108_374_976
    with pytest.raises(ValueError, match="band"):
        nb.band_count(["123456789", "123456789", "789123456"])
    with pytest.raises(ValueError, match="27"):
        nb.band_count([1, 2, 3])


def test_standard_bands_are_the_36288_patterns() -> None:
    bands = nb.standard_bands()
    assert len(bands) == len(set(bands)) == 36_288
    assert list(bands) == sorted(bands)
    same_as_box1_row2 = sum(1 for b in bands if set(b[3:6]) == set(b[9:12]))
    assert same_as_box1_row2 == 1_296
    assert len(bands) - same_as_box1_row2 == 34_992
    for b in bands[::997]:
        assert b[:3] == (1, 2, 3) and b[9:12] == (4, 5, 6) and b[18:21] == (7, 8, 9)
        assert b[3] < b[4] < b[5] and b[6] < b[7] < b[8] and b[3] < b[6]


@pytest.mark.heavy
def test_band_table_sums_to_n2_with_44_distinct_counts() -> None:
    table = nb.band_table()
    assert len(table) == 36_288
    counts = [n for _, n in table]
    assert sum(counts) == nb.N2 == 3_546_146_300_288
    assert len(set(counts)) == 44
    assert math.factorial(9) * 72**2 * sum(counts) == nb.N0
    pure = tuple(int(ch) for row in PURE_BAND for ch in row)
    assert dict(table)[pure] == 108_374_976


@pytest.mark.deep
@pytest.mark.heavy
def test_table_counts_match_direct_counts_for_sample_bands() -> None:
    table = nb.band_table()
    rng = random.Random(3)
    for band, n in rng.sample(table, 4):
        assert nb.band_count(band) == n


@pytest.mark.slow
def test_table_counts_match_direct_counts_for_many_bands() -> None:
    table = nb.band_table()
    rng = random.Random(11)
    for band, n in rng.sample(table, 150):
        assert nb.band_count(band) == n


@pytest.mark.slow
def test_count_grids_from_scratch() -> None:
    res = nb.count_grids()
    assert res.n2 == nb.N2
    assert res.n0 == nb.N0
    assert res.distinct_counts == 44
    assert res.seconds > 0


# ---------------------------------------------------------------------------------------------
# numbering
# ---------------------------------------------------------------------------------------------


@pytest.mark.heavy
def test_round_trip_at_the_ends_and_block_edges() -> None:
    t = nb.tables()
    starts = [int(x) for x in t.pattern_start[[1, 2, 17, 18_000, 36_287]]]
    edges = [0, 1, nb.N0 - 2, nb.N0 - 1, nb.N2 - 1, nb.N2, nb.N1 - 1, nb.N1, 71 * nb.N2, 72 * nb.N2 - 1]
    edges += [s + d for s in starts for d in (-1, 0, 1)]
    edges += [nb.N1 * 362_879 + x for x in edges[:4] if x < nb.N1]
    grids = {}
    for i in edges:
        g = nb.grid_from_number(i)
        assert is_valid_solution(g, B9), i
        assert nb.grid_number(g) == i
        grids[g] = i
    assert len(grids) == len(set(edges))


@pytest.mark.heavy
def test_round_trip_random_numbers() -> None:
    rng = random.Random(2024)
    seen = set()
    for _ in range(400):
        i = rng.randrange(nb.N0)
        g = nb.grid_from_number(i)
        assert is_valid_solution(g, B9)
        assert nb.grid_number(g) == i
        seen.add(g)
    assert len(seen) == 400


@pytest.mark.heavy
def test_round_trip_through_many_patterns() -> None:
    """A number inside each of 300 random patterns (every pattern maps through its class)."""
    t = nb.tables()
    rng = random.Random(77)
    for p in rng.sample(range(36_288), 300):
        d = int(t.pattern_start[p]) + rng.randrange(int(t.pattern_count[p]))
        i = rng.randrange(nb.N0 // nb.N2) * nb.N2 + d
        g = nb.grid_from_number(i)
        assert nb.grid_number(g) == i
        assert nb.grid_from_number(d)[:27] == t.bands[p]


@pytest.mark.slow
def test_round_trip_in_every_pattern() -> None:
    t = nb.tables()
    rng = random.Random(78)
    for p in range(36_288):
        d = int(t.pattern_start[p]) + rng.randrange(int(t.pattern_count[p]))
        g = nb.grid_from_number(d)
        assert g[:27] == t.bands[p]
        assert is_valid_solution(g, B9)
        assert nb.grid_number(g) == d


@pytest.mark.heavy
def test_round_trip_grids() -> None:
    rng = random.Random(99)
    base = [nb.grid_from_number(rng.randrange(nb.N0)) for _ in range(5)]
    grids = [transform(g, rng) for g in base for _ in range(40)]
    numbers = [nb.grid_number(g) for g in grids]
    for g, i in zip(grids, numbers, strict=True):
        assert 0 <= i < nb.N0
        assert nb.grid_from_number(i) == g
    assert len(set(numbers)) == len(set(grids))


@pytest.mark.heavy
def test_round_trip_grids_from_the_ilp_engine() -> None:
    from pipeline.ilp.engine import Engine

    eng = Engine(9)
    for s in range(3):
        g = eng.random_grid(np.random.default_rng(s).random(729), s).grid
        assert g is not None
        assert nb.grid_from_number(nb.grid_number(g)) == g


@pytest.mark.heavy
def test_number_decomposes_as_in_the_thesis() -> None:
    """index = A*N1 + (72*B + C)*N2 + D with A = box-1 permutation rank; D < N2 means standardized."""
    rng = random.Random(5)
    for _ in range(30):
        i = rng.randrange(nb.N0)
        g = nb.grid_from_number(i)
        box = [g[k] for k in (0, 1, 2, 9, 10, 11, 18, 19, 20)]
        assert nb.perm_rank(box) == i // nb.N1
        d = i % nb.N2
        s = nb.grid_from_number(d)
        assert s[:3] == (1, 2, 3) and s[9:12] == (4, 5, 6) and s[18:21] == (7, 8, 9)
        assert s[3] < s[4] < s[5] and s[6] < s[7] < s[8] and s[3] < s[6]
        col1 = [s[9 * r] for r in range(9)]
        assert col1[3] < col1[4] < col1[5] and col1[6] < col1[7] < col1[8] and col1[3] < col1[6]
        # same standardized grid for every (A, B, C) with the same D
        assert nb.grid_number(s) == d
        t = nb.tables()
        p = int(np.searchsorted(t.pattern_start, d, side="right")) - 1
        assert s[:27] == t.bands[p]


def test_perm_rank_round_trip() -> None:
    assert nb.perm_rank((1, 2, 3, 4, 5, 6, 7, 8, 9)) == 0
    assert nb.perm_rank((9, 8, 7, 6, 5, 4, 3, 2, 1)) == math.factorial(9) - 1
    for r in (0, 1, 12345, 362879):
        assert nb.perm_rank(nb.perm_unrank(r)) == r


def test_invalid_input_is_rejected_with_a_clear_message() -> None:
    g = list(nb.grid_from_number(12345))
    with pytest.raises(ValueError, match="81 cells"):
        nb.grid_number(g[:80])
    blank = g.copy()
    blank[40] = 0
    with pytest.raises(ValueError, match="row 5, column 5"):
        nb.grid_number(blank)
    bad = g.copy()
    bad[0], bad[1] = bad[1], bad[0]
    with pytest.raises(ValueError, match="not a valid Sudoku grid"):
        nb.grid_number(bad)
    with pytest.raises(ValueError):
        nb.grid_number([1.5] * 81)  # type: ignore[list-item]
    for i in (-1, nb.N0, nb.N0 + 5):
        with pytest.raises(ValueError, match="out of range"):
            nb.grid_from_number(i)
    with pytest.raises(ValueError, match="int"):
        nb.grid_from_number("5")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# the compiled grid_number (pipeline.identity.numbering_jit) against the pure-Python reference
# ---------------------------------------------------------------------------------------------


@pytest.fixture
def kernel_statuses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The status of every call :func:`nb.grid_number` makes into the compiled kernel, in order (0: the
    kernel numbered the grid; else the reference took over). A comparison with the reference proves
    something only for inputs that got a 0 here: the others take the Python path on both sides."""
    from pipeline.identity import numbering_jit

    seen: list[int] = []
    real = numbering_jit.grid_rank

    def spy(*args: object) -> int:
        status = int(real(*args))
        seen.append(status)
        return status

    monkeypatch.setattr(numbering_jit, "grid_rank", spy)
    return seen


def _check_compiled_numbers(count: int, seed: int, kernel_statuses: list[int]) -> None:
    """Random grids (uniform, then a random group element, so the 72 * 72 arrangements and 9!
    relabellings all occur): the compiled number equals the reference's and numbers the grid."""
    rng = random.Random(seed)
    for k in range(count):
        g = transform(nb.grid_from_number(rng.randrange(nb.N0)), rng) if k % 2 else nb.uniform_grid(rng)
        i = nb.grid_number(g)
        assert i == nb._grid_number_py(g), g
        assert nb.grid_from_number(i) == g
    assert kernel_statuses == [0] * count  # every number came from the kernel


@pytest.mark.deep
@pytest.mark.heavy
def test_compiled_grid_number_matches_the_reference(kernel_statuses: list[int]) -> None:
    _check_compiled_numbers(2000, 31, kernel_statuses)


@pytest.mark.slow
def test_compiled_grid_number_matches_the_reference_on_many_grids(kernel_statuses: list[int]) -> None:
    _check_compiled_numbers(20_000, 32, kernel_statuses)


@pytest.mark.heavy
def test_compiled_grid_number_at_the_pattern_edges(kernel_statuses: list[int]) -> None:
    """First and last completion of sample patterns, both ends of each pattern's first split."""
    t = nb.tables()
    rng = random.Random(33)
    patterns = [0, 1, 36_287, *rng.sample(range(36_288), 40)]
    for p in patterns:
        for d in (int(t.pattern_start[p]), int(t.pattern_start[p + 1]) - 1):
            i = rng.randrange(nb.N0 // nb.N2) * nb.N2 + d
            g = nb.grid_from_number(i)
            assert nb.grid_number(g) == nb._grid_number_py(g) == i
    assert kernel_statuses == [0] * (2 * len(patterns))


def _outcome(fn: Callable[[object], object], arg: object) -> object:
    try:
        return fn(arg)
    except Exception as exc:
        return (type(exc), str(exc))


def test_compiled_grid_number_takes_the_same_inputs_and_raises_the_same_errors(kernel_statuses: list[int]) -> None:
    """Lists and tuples of 81 small ints reach the kernel: valid grids of every such element type are
    numbered there, and every kind of broken grid is rejected there (the reference then words the
    error). Everything else never reaches it and gets the reference's result on both sides."""
    g = list(nb.grid_from_number(987_654_321))
    rng = random.Random(36)
    swapped = g.copy()
    swapped[0], swapped[1] = swapped[1], swapped[0]
    column = g.copy()
    column[0], column[9] = column[9], column[0]
    band = [(10 - d if k < 27 and d in (1, 9) else d) for k, d in enumerate(g)]  # rows fine, columns not
    numbered: list[object] = [
        g,
        tuple(g),
        [np.int64(d) for d in g],
        tuple(np.uint8(d) for d in g),
        [np.int32(d) for d in g],
        *(transform(tuple(g), rng) for _ in range(4)),
        *(list(transform(tuple(g), rng)) for _ in range(4)),
    ]
    rejected: list[object] = [
        [*g[:40], 0, *g[41:]],
        [*g[:40], 10, *g[41:]],
        [*g[:40], 255, *g[41:]],
        swapped,
        column,
        band,
        [(r + c) % 9 + 1 for r in range(9) for c in range(9)],  # rows and columns fine, boxes not
        tuple([*g[:80], 0]),
        [0] * 81,
        [1] * 81,
        [bool(d) for d in g],  # True is 1
    ]
    python_only: list[object] = [
        np.array(g),
        "".join(map(str, g)),
        [float(d) for d in g],
        g[:80],
        [*g, 1],
        [*g[:40], 300, *g[41:]],
        [*g[:40], -3, *g[41:]],
        [None] * 81,
        [],
    ]
    for x in numbered + rejected + python_only:
        assert _outcome(nb.grid_number, x) == _outcome(nb._grid_number_py, x), x  # type: ignore[arg-type]
    assert all(isinstance(_outcome(nb.grid_number, x), int) for x in numbered)  # type: ignore[arg-type]
    assert all(isinstance(_outcome(nb.grid_number, x), tuple) for x in rejected)  # type: ignore[arg-type]
    kernel_statuses.clear()
    for x in numbered + rejected:
        _outcome(nb.grid_number, x)  # type: ignore[arg-type]
    assert kernel_statuses == [0] * len(numbered) + [-1] * len(rejected)  # all of them reached the kernel
    kernel_statuses.clear()
    for x in python_only:
        _outcome(nb.grid_number, x)  # type: ignore[arg-type]
    assert kernel_statuses == []


def test_fill_rank_grows_its_work_space() -> None:
    """A band with more transversals than the work space holds is ranked all the same."""
    from pipeline.identity import numbering_jit

    t = nb.tables()
    rng = random.Random(34)
    for _ in range(20):
        c = rng.randrange(len(t.p))
        s1, s2, s3 = rng.randrange(len(t.p[c][0])), rng.randrange(56), rng.randrange(56)
        pk = [t.p[c][0][s1], t.p[c][1][s2], t.p[c][2][s3]]
        cols = bandcount.columns_of(pk)
        tr = bandcount.Transversals(cols)
        i = rng.randrange(tr.total)
        rows = np.array(tr.unrank(i), dtype=np.int64)
        args = (np.array(cols, dtype=np.int64), rows)
        assert numbering_jit._fill_rank(*args, np.empty((4, 128), dtype=np.int64)) == i
        assert numbering_jit._fill_rank(*args, np.empty((4, 1), dtype=np.int64)) == i


# ---------------------------------------------------------------------------------------------
# uniform grids
# ---------------------------------------------------------------------------------------------


def test_uniform_grid_is_deterministic_and_valid() -> None:
    assert nb.uniform_grid(1) == nb.uniform_grid(1)
    assert nb.uniform_grid(1) != nb.uniform_grid(2)
    assert nb.uniform_grid(np.random.default_rng(4)) == nb.uniform_grid(np.random.default_rng(4))
    assert nb.uniform_grid(random.Random(8)) == nb.uniform_grid(8)
    for g in (nb.uniform_grid(s) for s in range(10)):
        assert is_valid_solution(g, B9)
    assert list(nb.uniform_grids(3, seed=6)) == list(nb.uniform_grids(3, seed=6))


def _chi2_bound(df: int, z: float = 4.0) -> float:
    """Upper quantile of chi-square(df) at normal score z (Wilson-Hilferty; z=4 is p ~ 3e-5)."""
    h = 2.0 / (9.0 * df)
    return df * (1.0 - h + z * math.sqrt(h)) ** 3


def _chi2(observed: Counter[int], probs: list[float], n: int) -> float:
    return sum((observed.get(k, 0) - n * p) ** 2 / (n * p) for k, p in enumerate(probs))


PATTERN_BINS = 16


def _uniformity(sample: Callable[[random.Random], int], n: int = 2500, seed: int = 1) -> dict[str, bool]:
    """Chi-square tests of a sampler of grid numbers, through the grids they unrank to.

    Statistics: box 1's first digit and its permutation rank mod 9 (both exactly uniform over 9
    values, as 9 divides 9! and 8! orderings share each first digit), the row-1 arrangement
    B and column-1 arrangement C (uniform over 72), and the top-band pattern of the standardized grid
    grouped into 16 runs of patterns with exact probabilities sum(count) / N2.
    """
    t = nb.tables()
    edges = np.linspace(0, 36_288, PATTERN_BINS + 1).astype(int)
    start = [int(t.pattern_start[e]) for e in edges]
    pattern_probs = [(start[k + 1] - start[k]) / nb.N2 for k in range(PATTERN_BINS)]
    rng = random.Random(seed)
    first: Counter[int] = Counter()
    a9: Counter[int] = Counter()
    bs: Counter[int] = Counter()
    cs: Counter[int] = Counter()
    pats: Counter[int] = Counter()
    for _ in range(n):
        g = nb.grid_from_number(sample(rng))
        i = nb.grid_number(g)  # decompose through the grid, not the sampled number
        first[g[0] - 1] += 1
        a9[(i // nb.N1) % 9] += 1
        bs[(i % nb.N1) // nb.N2 // 72] += 1
        cs[(i % nb.N1) // nb.N2 % 72] += 1
        p = int(np.searchsorted(t.pattern_start, i % nb.N2, side="right")) - 1
        pats[int(np.searchsorted(edges, p, side="right")) - 1] += 1
    return {
        "box1_first": _chi2(first, [1 / 9] * 9, n) < _chi2_bound(8),
        "box1_mod9": _chi2(a9, [1 / 9] * 9, n) < _chi2_bound(8),
        "row1": _chi2(bs, [1 / 72] * 72, n) < _chi2_bound(71),
        "col1": _chi2(cs, [1 / 72] * 72, n) < _chi2_bound(71),
        "pattern": _chi2(pats, pattern_probs, n) < _chi2_bound(PATTERN_BINS - 1),
    }


@pytest.mark.heavy
def test_uniform_grid_passes_chi_square_and_biased_samplers_fail() -> None:
    # the real sampler: uniform_grid draws random.Random(seed).randrange(N0)
    seeds = iter(range(10**6))
    assert nb.uniform_grid(123) == nb.grid_from_number(random.Random(123).randrange(nb.N0))
    ok = _uniformity(lambda rng: random.Random(next(seeds)).randrange(nb.N0))
    assert all(ok.values()), ok
    # 64-bit draws (a numpy integers() bug) never reach most box-1 permutations
    biased64 = _uniformity(lambda rng: rng.getrandbits(63), n=600)
    assert not biased64["box1_first"]
    # a standardized part drawn from only half of [0, N2) over-weights the early patterns
    half = _uniformity(lambda rng: rng.randrange(nb.N0 // nb.N2) * nb.N2 + rng.randrange(nb.N2 // 2), n=600)
    assert not half["pattern"]
    assert half["box1_first"] and half["box1_mod9"]  # the other statistics do not notice this bias


# ---------------------------------------------------------------------------------------------
# tables and cache
# ---------------------------------------------------------------------------------------------


def test_tables_are_small_and_cached_with_a_checksum(numplace_cache: Path) -> None:
    t = nb.tables()
    assert sum(a.nbytes for a in t.arrays.values()) <= 5_000_000
    path = numplace_cache / TABLE
    assert path.is_file() and path.stat().st_size <= 5_000_000
    with np.load(path) as z:
        assert "__sha256__" in z.files


def test_cache_dir_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("NUMPLACE_CACHE_DIR", str(tmp_path / "x"))
    assert nb.cache_dir() == tmp_path / "x"
    monkeypatch.delenv("NUMPLACE_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert nb.cache_dir() == tmp_path / "xdg" / "numplace"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert nb.cache_dir() == Path.home() / ".cache" / "numplace"
    assert nb.cache_dir is tablecache.cache_dir  # one owner, re-exported by numbering


@pytest.mark.parametrize("damage", ["missing", "truncated", "flipped", "tampered"])
def test_load_or_build_never_trusts_a_bad_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, damage: str) -> None:
    monkeypatch.setenv("NUMPLACE_CACHE_DIR", str(tmp_path))
    calls = []

    def build() -> dict[str, np.ndarray]:
        calls.append(1)
        return {"x": np.arange(1000, dtype=np.int64), "y": np.ones(3, dtype=np.uint8)}

    first = tablecache.load_or_build("t.npz", build)
    assert len(calls) == 1
    assert tablecache.load_or_build("t.npz", build)["x"].tolist() == first["x"].tolist()
    assert len(calls) == 1  # a sound file is reused
    path = tmp_path / "t.npz"
    data = path.read_bytes()
    if damage == "missing":
        path.unlink()
    elif damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "flipped":
        path.write_bytes(data[:100] + bytes([data[100] ^ 0xFF]) + data[101:])
    else:  # valid archive, one value changed, old checksum kept
        with np.load(path) as z:
            arrays = {k: z[k].copy() for k in z.files}
        arrays["x"][5] = -1
        np.savez(path, **arrays)
    again = tablecache.load_or_build("t.npz", build)
    assert len(calls) == 2
    assert again["x"][5] == 5
    assert tablecache.load_or_build("t.npz", build)["x"][5] == 5
    assert len(calls) == 2  # and the rebuilt file is sound


def test_tables_memo_loads_once_and_rebuilds_a_rejected_file_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("NUMPLACE_CACHE_DIR", str(tmp_path))
    builds: list[int] = []
    wraps: list[int] = []
    version = [1]

    def build() -> dict[str, np.ndarray]:
        builds.append(1)
        return {"v": np.array([version[0]], dtype=np.int64)}

    def wrap(arrays: dict[str, np.ndarray]) -> int:
        wraps.append(1)
        if int(arrays["v"][0]) == 0:
            raise ValueError("checksummed but inconsistent")
        return int(arrays["v"][0])

    memo = tablecache.Tables("memo.npz", build, wrap)
    assert memo.get() == 1 and memo.get() == 1
    assert (len(builds), len(wraps)) == (1, 1)  # loaded once per process
    memo.reset()
    assert memo.get() == 1
    assert (len(builds), len(wraps)) == (1, 2)  # reset reloads from the file, no rebuild
    version[0] = 0  # a "buggy build" wrote a file that wrap rejects
    (tmp_path / "memo.npz").unlink()
    memo.reset()
    with pytest.raises(ValueError, match="inconsistent"):  # rejected twice: the error propagates
        memo.get()
    version[0] = 7
    memo.reset()
    assert memo.get() == 7  # the bad file is deleted and rebuilt
    with np.load(tmp_path / "memo.npz") as z:
        assert int(z["v"][0]) == 7


@pytest.mark.deep
@pytest.mark.heavy
def test_corrupted_numbering_table_is_rebuilt(
    numplace_cache: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    nb.tables()  # make sure the session's table exists
    good = numplace_cache / TABLE
    shutil.copy(good, tmp_path / TABLE)
    with np.load(good) as z:
        arrays = {k: z[k].copy() for k in z.files}
    arrays["class_count"][0] += 1  # a wrong count under the old checksum
    np.savez_compressed(tmp_path / TABLE, **arrays)
    monkeypatch.setenv("NUMPLACE_CACHE_DIR", str(tmp_path))
    nb.reset_tables()
    try:
        t = nb.tables()
        assert int(t.pattern_start[-1]) == nb.N2
        with np.load(tmp_path / TABLE) as z:
            assert int(z["class_count"][0]) == int(arrays["class_count"][0]) - 1
        rng = random.Random(0)
        for _ in range(20):
            i = rng.randrange(nb.N0)
            assert nb.grid_number(nb.grid_from_number(i)) == i
    finally:
        nb.reset_tables()


@pytest.mark.heavy
def test_loading_builds_only_what_grid_number_needs_and_the_views_agree() -> None:
    """Loading derives the kernel's arrays; the pure-Python views are built on first use, from the
    same arrays, and the row reader :meth:`NumberingTables.pattern` agrees with them."""
    t = numbering_tables.NumberingTables(nb.tables().arrays)
    lazy = {"bands", "band_cols", "band_relabel", "pattern_of", "split_index"}
    assert not lazy & vars(t).keys()
    for x, y in zip(t.kernel, nb.tables().kernel, strict=True):
        assert x.dtype == y.dtype and np.array_equal(x, y)
    bands = nb.standard_bands()
    assert t.bands == list(bands)
    assert t.pattern_of == {bytes(b): i for i, b in enumerate(bands)}
    a = t.arrays
    assert t.band_cols == [tuple(r) for r in a["band_cols"].tolist()]
    assert t.band_relabel == [tuple(r) for r in a["band_relabel"].tolist()]
    for p in [0, 1, 36_287, *random.Random(35).sample(range(36_288), 200)]:
        assert t.pattern(p) == (t.bands[p], t.band_cols[p], t.band_relabel[p])
    for c in range(len(t.p)):  # the splits of all classes at once equal the splits of each stack alone
        tops = bandcount.tops(t.bands[int(a["class_rep"][c])])
        for k in range(3):
            ps = bandcount.splits(tops[k])
            if k == 0:
                ps = ps[ps[:, 1] == 0]
            assert np.array_equal(t.p[c][k], ps) and np.array_equal(t.q[c][k], 3 - tops[k][None, :] - ps)
            assert len(t.split_index[c][k]) == len(ps) == (28 if k == 0 else 56)


@pytest.mark.heavy
def test_single_lookups_agree_with_the_whole_indexes_and_build_neither() -> None:
    """:meth:`pattern_index` and :meth:`split_of` (the reference's lookups) answer as ``pattern_of``
    and ``split_index`` do, and the first lookups build neither index (a grid or two numbered by
    the reference stays cheap); a band that is not standard is a ``KeyError`` either way."""
    t = numbering_tables.NumberingTables(nb.tables().arrays)
    bands = nb.standard_bands()
    rng = random.Random(7)
    picks = [0, 36_287, *rng.sample(range(36_288), 2)]
    assert [t.pattern_index(bytes(bands[p])) for p in picks] == picks
    first = rng.randrange(len(t.p))
    assert t.split_of(first, 1, bytes(t.p[first][1][5].astype(np.uint8))) == 5
    assert not {"pattern_of", "split_index"} & vars(t).keys()
    with pytest.raises(KeyError):
        t.pattern_index(bytes(27))
    with pytest.raises(KeyError):
        t.pattern_index(b"12")
    for p in rng.sample(range(36_288), 50):  # past the first scans: the dict, with the same answers
        assert t.pattern_index(bytes(bands[p])) == p
    assert "pattern_of" in vars(t)
    for c in rng.sample(range(len(t.p)), 10):
        for k in range(3):
            assert {key: t.split_of(c, k, key) for key in t.split_index[c][k]} == t.split_index[c][k]


def test_tables_with_malformed_bands_are_rejected() -> None:
    a = dict(nb.tables().arrays)
    for bad in (a["bands"][:, :26], a["bands"].astype(np.int64), a["bands"].ravel()):
        with pytest.raises(ValueError, match="27 uint8 digits"):
            numbering_tables.NumberingTables({**a, "bands": bad})
    shuffled = a["bands"].copy()
    shuffled[[5, 6]] = shuffled[[6, 5]]
    with pytest.raises(ValueError, match="pattern order"):
        numbering_tables.NumberingTables({**a, "bands": shuffled})
