"""Speed (docs/benchmarks.md): `solve` and `count` decide by exact search (pure Python, then the compiled
counter) and answer exactly as the ILP does; one-puzzle commands load no solver stack."""

from __future__ import annotations

import subprocess
import sys
from functools import cache

import pytest

from pipeline import verify
from pipeline.board import Grid, board, parse, size_of_grid
from pipeline.generate import count, count_jit
from pipeline.ilp.engine import CountResult, engine_for
from pipeline.solve import batch, search, solver
from tests.conftest import ROOT
from tests.golden import SMALL, TDOKU, TOP95, dear_to_the_oracles

P = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def _python(puzzle: Grid, limit: int) -> tuple[Grid, ...] | None:
    return search.search(puzzle, limit, node_limit=10**6)


def _compiled(puzzle: Grid, limit: int) -> tuple[Grid, ...] | None:
    return count_jit.solutions(puzzle, limit, node_limit=10**7)


def _solver(puzzle: Grid, limit: int) -> tuple[Grid, ...] | None:
    return solver.count_solutions(puzzle, limit).solutions


PATHS = {"python": _python, "compiled": _compiled, "solver": _solver}


@cache
def _ilp(puzzle: Grid, limit: int) -> CountResult:
    return engine_for(size_of_grid(puzzle)).certified_count(puzzle, limit)


def _agrees_with_ilp(puzzle: Grid, found: tuple[Grid, ...] | None, limit: int) -> None:
    """``found`` has the ILP's count and status; a unique answer is the ILP's grid; every answer is a
    distinct valid solution that keeps the givens."""
    assert found is not None, "undecided"
    ilp = _ilp(puzzle, limit)
    assert ilp.complete
    assert len(found) == ilp.count
    assert solver.CountResult(len(found), limit, found).status == ilp.status
    if ilp.status == "unique":
        assert found == ilp.solutions
    assert len(set(found)) == len(found)
    b = board(size_of_grid(puzzle))
    for sol in found:
        assert verify.is_valid_solution(sol, b)
        assert all(g in (0, s) for g, s in zip(puzzle, sol, strict=True))


def test_top95_is_norvigs_file() -> None:
    assert len(TOP95) == 95 and len(set(TOP95)) == 95
    assert TOP95[0] == "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    assert all(len(p) == 81 for p in TOP95)


@pytest.mark.deep
@pytest.mark.heavy
@pytest.mark.parametrize("path", ["python", "compiled"])
def test_top95_matches_the_ilp(path: str) -> None:
    """Every top95 puzzle is unique, with the ILP's solution, on both tiers of the fast path."""
    for text in TOP95:
        puzzle = parse(text)
        _agrees_with_ilp(puzzle, PATHS[path](puzzle, 2), 2)


@pytest.mark.heavy
@pytest.mark.parametrize("path", list(PATHS))
@pytest.mark.parametrize(("puzzle", "count", "solution"), dear_to_the_oracles(TDOKU + SMALL),
                         ids=lambda v: str(v)[:12])
def test_golden_cases_match_the_ilp(path: str, puzzle: str, count: int, solution: str | None) -> None:
    """Unique, several and no solutions, 4x4 to 16x16: each path counts as the ILP does (past 2)."""
    grid = parse(puzzle)
    limit = min(count, 4) + 1
    found = PATHS[path](grid, limit)
    _agrees_with_ilp(grid, found, limit)
    assert found is not None and len(found) == min(count, limit)
    if solution is not None:
        assert found[0] == parse(solution)


@pytest.mark.heavy
def test_budgets_run_out_into_the_next_tier(monkeypatch: pytest.MonkeyPatch) -> None:
    """Undecided is reported (``None``), never guessed; the solver then asks the next tier, and the
    ILP last, with the same answers."""
    hard = parse(TOP95[0])  # needs search: propagation alone does not solve it
    many = parse(next(p for p, c, _ in TDOKU if c == 13))
    assert search.search(hard, 2, node_limit=1) is None
    assert count_jit.solutions(hard, 2, node_limit=1) is None
    monkeypatch.setattr(count, "PY_WORK", 1)  # Python tier (generate.count, shared): no node at all
    assert search.search(hard, 2) is None
    assert solver.count_solutions(hard).solutions == engine_for(9).certified_count(hard, 2).solutions
    monkeypatch.setattr(search, "COMPILED_NODES", 1)  # both tiers undecided: the ILP answers
    assert search.find(hard, 2) is None
    for puzzle, limit in ((hard, 2), (many, 20), (parse("55" + P[2:]), 2)):
        _agrees_with_ilp(puzzle, solver.count_solutions(puzzle, limit).solutions, limit)
    result = solver.solve(parse("55" + P[2:]))
    assert result.status == "none" and result.reason == "row 1 has two 5s (columns 1 and 2)"


def test_clashing_givens_have_no_solution_on_every_path() -> None:
    clash = parse("55" + P[2:])
    for path in PATHS.values():
        assert path(clash, 2) == ()
    assert count_jit.count(clash) == 0
    with pytest.raises(ValueError, match="limit"):
        search.search(clash, 0)


def test_batch_columns_and_schema_agree() -> None:
    """``SCHEMA`` (polars types, built on first use) and the plain column names are one list."""
    assert tuple(batch.SCHEMA) == batch.COLUMNS
    with pytest.raises(AttributeError):
        _ = batch.NO_SUCH_NAME


@pytest.mark.deep
def test_one_worker_batch_runs_in_process_with_the_same_rows() -> None:
    items = [(k + 1, p) for k, p in enumerate([*TOP95[:6], "55" + P[2:], "12345"])]
    one = batch.solve_batch(items, "solve", 2, workers=1)
    two = batch.solve_batch(items, "solve", 2, workers=2)
    assert one == two
    assert [r["status"] for r in one] == ["unique"] * 6 + ["none", "invalid"]


HEAVY = ("numba", "numpy", "pyomo", "highspy", "joblib", "polars")


@pytest.mark.heavy
@pytest.mark.parametrize("args", [["--help"], ["solve", P], ["solve", P, "--count"], ["rate", P]],
                         ids=lambda a: " ".join(a)[:20])
def test_one_puzzle_commands_load_no_solver_stack(args: list[str]) -> None:
    """Start-up (docs/benchmarks.md): help, solving and rating one ordinary puzzle import none of numba, numpy,
    pyomo, highspy, joblib or polars (each costs a tenth of a second to a second to import)."""
    probe = ("import atexit, sys\n"
             f"atexit.register(lambda: print('LOADED', *[m for m in {HEAVY!r} if m in sys.modules], "
             "file=sys.stderr))\n"
             "from pipeline.cli import main\n"
             f"sys.argv = ['numplace', *{args!r}]\n"
             "main()\n")
    res = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    loaded = next(ln for ln in res.stderr.splitlines() if ln.startswith("LOADED"))
    assert loaded == "LOADED"
