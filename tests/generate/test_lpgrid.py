"""Grids from the LP relaxation (grid.method weighted-lp) and the grid_source of every grid."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline import verify
from pipeline.board import Variant, board
from pipeline.generate import lpgrid, lpgrid_jit
from pipeline.generate.grid import prefill
from pipeline.generate.puzzle import grid_of, make_puzzle
from pipeline.generate.spec import Spec, puzzle_seed
from pipeline.ilp.engine import engine_for

X = Variant(("x",))


@pytest.mark.parametrize("fewest", [False, True])
@pytest.mark.parametrize(("n", "variant"), [(4, None), (6, None), (9, None), (9, X)])
def test_the_compiled_guided_search_is_its_python_oracle(n: int, variant: Variant | None, fewest: bool) -> None:
    b = board(n, variant)
    for k in range(12):
        rng = np.random.default_rng([n, k])
        prio = rng.random((n * n, n))
        if k % 3 == 0:
            prio = np.round(prio * 2) / 2  # many ties: the tie rules decide
        start = prefill(n, rng) if variant is None else (0,) * (n * n)
        cand = lpgrid.candidates(start, n)
        got = lpgrid_jit.guided(cand, prio, 10**6, variant, fewest)
        want = lpgrid.guided_py(cand, prio, [list(u) for u in b.units], [set(p) for p in b.peers], fewest)
        assert got == want
        assert got is not None and verify.is_valid_solution(got, b)
        assert all(s in (0, g) for s, g in zip(start, got, strict=True))


def test_the_guided_search_follows_the_priorities() -> None:
    # a whole grid at priority 1, everything else 0: the search puts that grid back, no matter the start
    grid = tuple(int(c) for c in "534678912672195348198342567859761423426853791713924856961537284287419635345286179")
    prio = np.zeros((81, 9))
    prio[np.arange(81), np.array(grid) - 1] = 1.0
    assert lpgrid_jit.guided(lpgrid.candidates((0,) * 81, 9), prio) == grid
    assert lpgrid_jit.guided(lpgrid.candidates((0,) * 81, 9), 1.0 - prio) != grid
    clash = (1, 1) + (0,) * 79  # two 1s in row 1: no grid
    assert lpgrid_jit.guided(lpgrid.candidates(clash, 9), prio) is None


@pytest.mark.parametrize("n", [6, 9])
def test_an_integral_lp_is_the_ip_optimum_and_a_fractional_one_is_completed(n: int) -> None:
    eng = engine_for(n)
    b = board(n)
    seen = set()
    for s in range(30):
        rng = np.random.default_rng([s, 0])
        w, seed, start = rng.random(n**3), int(rng.integers(2**31 - 1)), prefill(n, rng)
        out, source = lpgrid.lp_grid(eng, w, seed, start)
        seen.add(source)
        assert out.status == "feasible" and out.grid is not None
        assert verify.is_valid_solution(out.grid, b)
        assert all(p in (0, g) for p, g in zip(start, out.grid, strict=True))
        relaxed = eng.relaxation(w, seed, start)
        assert isinstance(relaxed, np.ndarray)
        x = np.zeros(n**3)
        x[np.arange(n * n) * n + np.array(out.grid) - 1] = 1.0
        if source == "ilp-optimal":
            assert out.proven
            assert w @ x == pytest.approx(w @ relaxed)  # the LP bound is reached: the IP optimum
            ip = eng.random_grid(w, seed, start)
            assert w @ x >= sum(w[i * n + d - 1] for i, d in enumerate(ip.grid or ())) - 1e-9
        else:
            assert source == "lp-guided" and not out.proven
            assert w @ x <= w @ relaxed + 1e-9
    assert seen == {"ilp-optimal", "lp-guided"}


def test_every_grid_says_where_it_came_from() -> None:
    def sources(spec: Spec, k: int = 6) -> set[str]:
        return {grid_of(spec, puzzle_seed(3, i))[1] for i in range(k)}

    assert sources(Spec(9, "none", True, grid_method="uniform")) == {"uniform"}
    assert sources(Spec(9, "none", True, grid_method="weighted-ilp"), 12) == {"ilp-optimal", "ilp-incumbent"}
    assert sources(Spec(9, "none", True, grid_method="weighted-lp"), 12) == {"ilp-optimal", "lp-guided"}
    assert sources(Spec(9, "none", True, grid_method="weighted-lp", variant=X)) <= {"ilp-optimal", "lp-guided"}
    whole = grid_of(Spec(9, "none", True, grid_method="uniform"), 5)[0]
    assert whole is not None
    assert sources(Spec(9, "none", True, fixed=whole, grid_method="weighted-ilp"), 1) == {"fixed"}
    assert sources(Spec(9, "none", True, fixed=whole, grid_method="weighted-lp"), 1) == {"fixed"}
    assert set(lpgrid.SOURCES) >= {"uniform", "ilp-optimal", "ilp-incumbent", "lp-guided", "fixed"}


def test_weighted_lp_puzzles_are_certified_and_reproducible() -> None:
    spec = Spec(size=9, symmetry="rot180", minimal=True, grid_method="weighted-lp")
    for i in range(4):
        made = make_puzzle(spec, puzzle_seed(8, i))
        assert made.certified and made.grid_source in ("ilp-optimal", "lp-guided")
        assert verify.independent_count(made.puzzle, board(9), limit=2) == 1
        assert make_puzzle(spec, puzzle_seed(8, i)).puzzle == made.puzzle


@pytest.mark.deep
@pytest.mark.heavy
def test_generate_with_weighted_lp_prints_rows_that_say_so() -> None:
    import json

    from tests.conftest import numplace

    res = numplace("generate", "--count", "3", "--seed", "4", "--grid", "weighted-lp", "--format", "json")
    assert res.returncode == 0, res.stderr
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    assert len(rows) == 3 and all(r["grid_source"] in ("ilp-optimal", "lp-guided") for r in rows)
    bad = numplace("generate", "--count", "1", "--grid", "weighted-lpx")
    assert bad.returncode != 0 and "grid.method" in bad.stderr and "Traceback" not in bad.stderr


def test_the_pure_first_search_gives_the_kernels_grid_or_hands_the_search_over(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A one-shot process completes its first grids in pure Python (no numba): on real LP optima of
    fractional seeds, the same grid as the kernel; a search past the pure budget goes to the kernel
    (the same answer), never cut short."""
    eng = engine_for(9)
    handed, fractional = 0, 0
    real_guided = lpgrid_jit.guided

    def counted(*args: object, **kwargs: object) -> object:
        nonlocal handed
        handed += 1
        return real_guided(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(lpgrid_jit, "guided", counted)
    for k in range(40):
        rng = np.random.default_rng([k, 0])
        weights, seed = rng.random(729), int(rng.integers(2**31 - 1))
        start = prefill(9, rng)
        relaxed = eng.relaxation(weights, seed, start)
        assert isinstance(relaxed, np.ndarray)
        if lpgrid.integral(relaxed):
            continue
        fractional += 1
        cand, prio = lpgrid.candidates(start, 9), lpgrid.priorities(relaxed, weights, 9)
        for fewest in (False, True):
            before = handed
            pure = lpgrid._guided(cand, prio, None, fewest, pure=True)
            assert pure == real_guided(cand, prio, lpgrid.GUIDED_NODES, None, fewest)
            assert handed - before <= 1
    assert fractional >= 10
    monkeypatch.setattr(lpgrid, "PURE_NODES", 1)  # every search past the pure budget: the kernel answers
    before = handed
    assert lpgrid._guided(cand, prio, None, False, pure=True) == real_guided(cand, prio, lpgrid.GUIDED_NODES)
    assert handed == before + 1
