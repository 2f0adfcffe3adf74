"""Tier 2: golden solution counts (tdoku's 9x9 file and our 4/6/16 file), both counters agree."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pipeline import verify
from pipeline.board import board, format_line, parse, size_of
from pipeline.ilp.engine import Engine, engine_for
from tests.conftest import ROOT
from tests.costs import deep_cases
from tests.golden import SMALL, TDOKU, case_name, dear_to_the_oracles


def test_golden_files_cover_0_1_many_for_each_size() -> None:
    kinds: dict[int, set[str]] = {}
    for puzzle, count, _ in TDOKU + SMALL:
        kinds.setdefault(size_of(puzzle), set()).add({0: "none", 1: "unique"}.get(count, "many"))
    for n in (4, 6, 9, 16):
        assert kinds[n] == {"none", "unique", "many"}, (n, kinds.get(n))


@pytest.mark.heavy
@pytest.mark.parametrize(("puzzle", "count", "solution"),
                         deep_cases(dear_to_the_oracles(TDOKU + SMALL), case_name,
                                    "........2..8-1", "........7..4-1", "..4..3....7.-1", "1....67.9.5.-0"),
                         ids=lambda v: str(v)[:12])
def test_ilp_counts(puzzle: str, count: int, solution: str | None) -> None:
    grid = parse(puzzle)
    limit = min(count, 5) + 1
    result = engine_for(size_of(puzzle)).certified_count(grid, limit=limit)
    assert result.count == min(count, limit)
    assert result.status == {0: "none", 1: "unique"}.get(count, "multiple")
    for sol in result.solutions:
        assert verify.is_valid_solution(sol, board(size_of(puzzle)))
        assert all(g in (0, s) for g, s in zip(grid, sol, strict=True))
    if solution is not None:
        assert format_line(result.solutions[0]) == solution


@pytest.mark.heavy
@pytest.mark.parametrize(("puzzle", "count", "solution"),
                         deep_cases(dear_to_the_oracles(TDOKU + SMALL), case_name, ".5...9.2B.1C-1"),
                         ids=lambda v: str(v)[:12])
def test_independent_counter(puzzle: str, count: int, solution: str | None) -> None:
    n = size_of(puzzle)
    assert verify.independent_count(parse(puzzle), board(n), limit=3) == min(count, 3)


@pytest.mark.system
def test_empty_4x4_has_288_grids() -> None:
    """Every grid of the empty 4x4 board, found by the ILP (a solve per grid: over a minute) and by the
    verifier's pure-Python counter: the system tier's. make test counts the 288 on the compiled
    counters (``tests/verify/test_count_jit.py::test_golden_counts`` and
    ``tests/generate/test_hybrid.py::test_fast_counter_exact_beyond_two_and_node_budget``)."""
    assert engine_for(4).certified_count((0,) * 16, limit=300).count == 288
    assert verify.independent_count((0,) * 16, board(4), limit=300) == 288


def test_nogood_check_matches_counting() -> None:
    """unique_without (one solve with the no-good row) agrees with counting to 2."""
    eng = Engine(9)
    rng = np.random.default_rng(3)
    grid = eng.random_grid(rng.random(729), 3).grid
    assert grid is not None
    eng.set_nogood(grid)
    for k in (20, 30, 45):
        keep = set(rng.choice(81, size=k, replace=False).tolist())
        puzzle = tuple(d if i in keep else 0 for i, d in enumerate(grid))
        unique = verify.independent_count(puzzle, board(9), limit=2) == 1
        assert eng.unique_without(puzzle) == unique
    eng.set_nogood(None)


@pytest.mark.heavy
def test_random_grids_are_valid_distinct_and_reproducible() -> None:
    for n in (4, 6, 9):
        eng = Engine(n)
        grids = [eng.random_grid(np.random.default_rng(s).random(n**3), s).grid for s in range(6)]
        assert all(g is not None and verify.is_valid_solution(g, board(n)) for g in grids)
        if n == 9:
            assert len(set(grids)) == 6
        # the same weights and seed give the same grid, whatever was solved in between
        eng.certified_count((0,) * (n * n), limit=3)
        again = eng.random_grid(np.random.default_rng(2).random(n**3), 2).grid
        assert again == grids[2]


def test_time_limit_is_reported_not_guessed() -> None:
    eng = Engine(16, time_limit=1e-6)
    result = eng.certified_count((0,) * 256, limit=2)
    assert result.status == "timeout" and not result.complete


@pytest.mark.heavy
@pytest.mark.parametrize("n", [4, 9])
def test_reduced_grid_solve_gives_the_full_ips_grid(n: int) -> None:
    """The reduced grid solve (LP relaxation first) returns the grid the full IP returns for the same
    weights, seed and prefill; the full IP is the same engine with the reduction switched off."""
    from pipeline.generate.grid import prefill

    reduced, full = Engine(n), Engine(n)
    assert reduced._partition is not None
    full._partition = None
    b = board(n)
    for s in range(12):
        rng = np.random.default_rng([s, 0])
        w, seed = rng.random(n**3), int(rng.integers(2**31 - 1))
        start = prefill(n, rng) if s % 3 else None
        got, want = reduced.random_grid(w, seed, start), full.random_grid(w, seed, start)
        assert got == want and got.grid is not None
        assert verify.is_valid_solution(got.grid, b)
        assert start is None or all(d in (0, g) for d, g in zip(start, got.grid, strict=True))


def test_reduced_grid_solve_says_infeasible_for_impossible_fixed_cells() -> None:
    eng = Engine(9)
    w = np.random.default_rng(1).random(729)
    clash = (1, 1) + (0,) * 79  # two 1s in row 1
    no_completion = parse("12345678." + "." * 8 + "9" + "." * 63)  # r1c9 can hold no digit
    assert eng.random_grid(w, 3, clash).status == "infeasible"
    assert eng.random_grid(w, 3, no_completion).status == "infeasible"
    whole = parse("534678912672195348198342567859761423426853791713924856961537284287419635345286179")
    assert eng.random_grid(w, 3, whole).grid == whole  # nothing left to solve


@pytest.mark.parametrize("n", [6, 16])
def test_the_reduced_grid_solve_is_only_where_it_was_measured_identical(n: int) -> None:
    assert Engine(n)._partition is None


def test_reduced_certificate_gives_the_full_ips_verdict() -> None:
    """The certificate on the IP reduced by the givens says what the full IP says, unique or not."""
    from pipeline.generate.puzzle import make_puzzle
    from pipeline.generate.spec import Spec, puzzle_seed

    reduced, full = Engine(9), Engine(9)
    full._partition = None
    b = board(9)
    verdicts = []
    for s in range(6):
        made = make_puzzle(Spec(size=9, symmetry="rot180", minimal=True), puzzle_seed(31, s))
        holes = list(made.puzzle)
        holes[next(i for i, d in enumerate(holes) if d)] = 0  # one given fewer: usually not unique
        for p in (made.puzzle, tuple(holes), made.solution):
            reduced.set_nogood(made.solution)
            full.set_nogood(made.solution)
            got, want = reduced.unique_without(p), full.unique_without(p)
            assert got == want == (verify.independent_count(p, b, limit=2) == 1)
            verdicts.append(got)
    assert True in verdicts and False in verdicts


@pytest.mark.parametrize(("n", "kinds"), [pytest.param(4, (), marks=pytest.mark.deep), (6, ()), (9, ()), (16, ()),
                                          (9, ("hyper", "x"))])
def test_cached_matrix_is_the_pyomo_statements_matrix(n: int, kinds: tuple[str, ...]) -> None:
    from pipeline.board import Variant
    from pipeline.ilp import model

    b = board(n, Variant(kinds) if kinds else None)
    fresh = model.matrix(model.build(b), n)
    assert model.compiled(b) == fresh  # built and cached (or read, when another test cached it)
    assert model.compiled(b) == fresh  # read back from the cache


def test_damaged_cached_matrix_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pipeline.ilp import model

    monkeypatch.setenv("NUMPLACE_CACHE_DIR", str(tmp_path))
    b = board(4)
    fresh = model.matrix(model.build(b), 4)
    assert model.compiled(b) == fresh
    (path,) = tmp_path.glob("matrix-*.npz")
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    assert model.compiled(b) == fresh  # the damaged file is never trusted
    assert model.compiled(b) == fresh


@pytest.mark.heavy
def test_an_engine_from_a_warm_cache_does_not_import_pyomo() -> None:
    import subprocess
    import sys

    code = ("import sys\nfrom pipeline.ilp.engine import engine_for\n"
            "e = engine_for(9)\nprint('pyomo' in sys.modules, e.random_grid(__import__('numpy').ones(729), 1).status)")
    first = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    again = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert again.stdout.split() == ["False", "feasible"], (first.stdout, again.stdout, again.stderr)
