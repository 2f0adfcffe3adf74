"""The reduced model handed to HiGHS as arrays (pipeline.ilp.reduced.Model and run)."""

from __future__ import annotations

import highspy
import numpy as np
import pytest

from pipeline.board import parse
from pipeline.ilp import reduced
from pipeline.ilp.engine import Engine
from pipeline.ilp.highs import MS, new_solver

PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"


def test_the_reduced_model_is_the_free_columns_and_their_open_rows() -> None:
    eng = Engine(9)
    assert eng._partition is not None
    red = eng._partition.reduce(parse(PUZZLE))
    assert not isinstance(red, reduced.Outcome)
    lp, free = red
    assert isinstance(lp, reduced.Model)
    assert lp.ncols == free.size and lp.start.dtype == lp.index.dtype == np.int32
    assert lp.start[0] == 0 and np.all(np.diff(lp.start) == 4) and lp.index.size == 4 * lp.ncols
    assert np.all(lp.row_lower == 1.0) and np.all(lp.row_upper == 1.0) and lp.index.max() < lp.nrows
    h = new_solver(None)
    # this puzzle is solved by singles: the LP relaxation of max 0 is the solution, and integral
    assert reduced.run(h, lp, integer=False, presolve="off", maximize=np.ones(lp.ncols)) == MS.kOptimal
    values = np.asarray(h.getSolution().col_value)
    assert reduced.integral(values)
    grid = list(parse(PUZZLE))
    for j in free[values > 0.5]:
        grid[int(j) // 9] = int(j) % 9 + 1
    assert tuple(grid) == parse(SOLUTION)


def test_the_certificate_model_holds_the_nogood_row_and_proves_uniqueness() -> None:
    eng = Engine(9)
    assert eng._partition is not None
    red = eng._partition.reduce(parse(PUZZLE), parse(SOLUTION))
    assert not isinstance(red, reduced.Outcome)
    lp = red[0]
    blanks = PUZZLE.count(".")
    assert lp.row_lower[-1] == -highspy.kHighsInf and lp.row_upper[-1] == blanks - 1  # one blank must change
    assert reduced.unique(new_solver(None), lp).status == "infeasible"


def test_a_model_highs_refuses_raises_instead_of_solving_an_empty_model() -> None:
    bad = reduced.Model(2, 1, np.array([0, 1], dtype=np.int32), np.array([0, 5], dtype=np.int32),
                        np.ones(1), np.ones(1))  # row 5 of a 1-row model
    with pytest.raises(RuntimeError, match="refused"):
        reduced.run(new_solver(None), bad, integer=True, presolve="off")


def _relaxations(k: int) -> list[tuple[reduced.Model, np.ndarray]]:
    """``k`` reduced LPs as the weighted-lp grids meet them (a prefill's givens, random weights), and one
    of a puzzle's givens."""
    from pipeline.generate.grid import prefill

    eng = Engine(9)
    assert eng._partition is not None
    out = []
    for s in range(k):
        rng = np.random.default_rng([s, 0])
        w = rng.random(729)
        start = prefill(9, rng)
        red = eng._partition.reduce(start)
        assert not isinstance(red, reduced.Outcome)
        out.append((red[0], np.ascontiguousarray(w[red[1]])))
    red = eng._partition.reduce(parse(PUZZLE))
    assert not isinstance(red, reduced.Outcome)
    out.append((red[0], np.random.default_rng(7).random(red[0].ncols)))
    return out


def test_relax_finds_the_optimal_point_of_run_in_fewer_iterations() -> None:
    h = new_solver(None)
    iters = {"run": 0, "relax": 0}
    for lp, cost in _relaxations(40):
        assert reduced.run(h, lp, integer=False, presolve="off", maximize=cost) == MS.kOptimal
        plain = np.asarray(h.getSolution().col_value)
        iters["run"] += h.getInfo().simplex_iteration_count
        assert reduced.relax(h, lp, cost) == MS.kOptimal
        crashed = np.asarray(h.getSolution().col_value)
        iters["relax"] += h.getInfo().simplex_iteration_count
        # the very point (a random objective's optimum is one vertex), so the same priorities downstream
        assert np.array_equal(np.round(crashed, 6), np.round(plain, 6))
        assert cost @ crashed == pytest.approx(cost @ plain, abs=1e-9)
    assert iters["relax"] < 0.75 * iters["run"], iters


def test_relax_solves_a_model_with_a_nogood_row_as_run_does() -> None:
    from pipeline.generate.grid import prefill

    eng = Engine(9)
    assert eng._partition is not None
    start = prefill(9, np.random.default_rng(5))
    red = eng._partition.reduce(start, parse(SOLUTION))  # a no-good row: columns meet 4 or 5 rows
    assert not isinstance(red, reduced.Outcome)
    lp = red[0]
    assert lp.index.size % lp.ncols != 0
    cost = np.random.default_rng(3).random(lp.ncols)
    h = new_solver(None)
    assert reduced.relax(h, lp, cost) == MS.kOptimal
    crashed = np.asarray(h.getSolution().col_value)
    assert reduced.run(h, lp, integer=False, presolve="off", maximize=cost) == MS.kOptimal
    assert np.array_equal(np.round(crashed, 6), np.round(np.asarray(h.getSolution().col_value), 6))
