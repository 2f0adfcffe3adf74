"""Issue 4: the compiled fast path, hybrid vs ilp, certification, time limits, `numplace generate`."""

from __future__ import annotations

import json

import pytest

from pipeline.board import board, format_line, parse, size_of
from pipeline.config import validate
from pipeline.generate import count_jit
from pipeline.generate.grid import prefill
from pipeline.generate.puzzle import make_puzzle
from pipeline.generate.spec import GenerationFailed, Spec, puzzle_seed
from pipeline.ilp import engine
from pipeline.run import runner
from tests.conftest import numplace, tiny
from tests.golden import SMALL, TDOKU


@pytest.mark.parametrize(("puzzle", "count", "solution"), TDOKU + SMALL, ids=lambda v: str(v)[:12])
def test_fast_counter_matches_golden_counts(puzzle: str, count: int, solution: str | None) -> None:
    assert count_jit.count(parse(puzzle), limit=3) == min(count, 3)


def test_fast_counter_exact_beyond_two_and_node_budget() -> None:
    assert count_jit.count((0,) * 16, limit=300) == 288
    many = next(p for p, c, _ in TDOKU if c == 847)
    assert count_jit.count(parse(many), limit=10_000) == 847
    assert count_jit.count(parse(many), limit=10_000, node_limit=5) == -1  # undecided, not guessed


@pytest.mark.heavy
@pytest.mark.parametrize(("n", "tag"), [(4, "full"), (6, "rot180"), (9, "rot180"), (9, "none")])
def test_hybrid_and_ilp_make_identical_puzzles(n: int, tag: str) -> None:
    for i in range(3):
        seed = puzzle_seed(42, i)
        a = make_puzzle(Spec(size=n, symmetry=tag, minimal=True, engine="hybrid"), seed)
        b = make_puzzle(Spec(size=n, symmetry=tag, minimal=True, engine="ilp"), seed)
        for key in ("puzzle", "solution", "hints", "symmetry", "minimal", "orbit_minimal", "attempts"):
            assert getattr(a, key) == getattr(b, key), key
        assert a.certified and b.certified
        # hybrid calls HiGHS for each grid and one certificate (no fallback at these sizes)
        assert a.ilp_solves == a.attempts + 1
        assert b.ilp_solves > a.ilp_solves


@pytest.mark.deep
@pytest.mark.heavy
def test_certification_really_runs(tmp_path, monkeypatch) -> None:
    """If the ILP disagreed with the fast path, the puzzle must not be written."""
    calls = []

    def disagree(self: engine.Engine, puzzle: tuple[int, ...]) -> bool:
        calls.append(puzzle)
        return False  # "the no-good solve found another solution"

    monkeypatch.setattr(engine.Engine, "unique_without", disagree)
    cfg = validate(tiny(tmp_path / "out", count=2, workers=1))
    summary = runner.run(cfg)
    assert calls, "hybrid never asked the ILP to certify"
    assert summary.written == 0
    assert all("ILP certification failed" in f["failure"] for f in summary.failures)


def test_time_limit_fires_and_is_counted() -> None:
    spec = Spec(size=16, symmetry="rot180", minimal=True, max_attempts=2, time_limit=1e-4)
    with pytest.raises(GenerationFailed) as info:
        make_puzzle(spec, 1)
    assert info.value.timeouts == 2  # each attempt's grid solve hit the limit


def test_prefill_is_a_valid_start_for_every_size() -> None:
    import numpy as np

    for n in (4, 6, 9, 16):
        boxes = 1 if n == 4 else min(n // board(n).box_rows, n // board(n).box_cols)
        for k in range(40 if n < 16 else 5):
            start = prefill(n, np.random.default_rng(k))
            assert sum(1 for d in start if d) == n * boxes
            assert count_jit.count(start, limit=1) == 1  # has a completion


@pytest.mark.deep
@pytest.mark.heavy
def test_generate_command_prints_verified_lines() -> None:
    res = numplace("generate", "--count", "4", "--seed", "3", "--size", "6", "--symmetry", "full")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.split()
    assert len(lines) == 4 and all(size_of(line) == 6 for line in lines)
    assert all(count_jit.count(parse(line), 2) == 1 for line in lines)
    same = numplace("generate", "--count", "4", "--seed", "3", "--size", "6", "--symmetry", "full",
                    "--engine", "ilp", "--workers", "2")
    assert same.stdout.split() == lines
    bad = numplace("generate", "--size", "7")
    assert bad.returncode == 2 and "board.size: 7 is not allowed" in bad.stderr
    x = numplace("generate", "--count", "1", "--size", "4", "--variant", "x", "--format", "json")
    assert x.returncode == 0, x.stderr
    assert json.loads(x.stdout)["variant"] == ["x"]  # the board's rules reach the config (board.variant)


@pytest.mark.deep
@pytest.mark.heavy
def test_generate_hints_range() -> None:
    res = numplace("generate", "--count", "3", "--hints", "28-30")
    assert res.returncode == 0, res.stderr
    assert all(28 <= sum(ch != "." for ch in line) <= 30 for line in res.stdout.split())
    assert format_line(parse(res.stdout.split()[0])) == res.stdout.split()[0]


@pytest.mark.deep
@pytest.mark.heavy
def test_generate_grid_method_and_levels() -> None:
    """``--grid uniform`` and ``--level`` reach the config (the speed benchmarks use them): rows say
    which levels they are, and uniform grids need one ILP solve only (the certificate)."""
    res = numplace("generate", "--count", "3", "--seed", "2", "--grid", "uniform", "--level", "medium,hard",
                   "--format", "json")
    assert res.returncode == 0, res.stderr
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    assert len(rows) == 3 and {r["difficulty"] for r in rows} <= {"medium", "hard"}
    assert [r["ilp_solves"] for r in rows] == [1, 1, 1]
    bad = numplace("generate", "--level", "hardest")
    assert bad.returncode == 2 and "difficulty.levels" in bad.stderr and "'hardest' is not allowed" in bad.stderr
