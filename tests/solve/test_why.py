"""``solve --why``: a core of givens that cannot stand together, checked by the independent counter."""

from __future__ import annotations

import json

import pytest

from pipeline import verify
from pipeline.board import board, make_variant, parse
from pipeline.solve import why
from tests.conftest import numplace
from tests.golden import TDOKU

UNIQUE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
CLASH = "55" + UNIQUE[2:]  # r1c1 and r1c2 both 5
NONE = [p for p, c, _ in TDOKU if c == 0]


def _count(grid: tuple[int, ...]) -> int:
    """Solutions of a 9x9 classic grid, up to 1, by the verifier's own counter (independent of solve)."""
    return verify.independent_count(grid, board(9), 1)


def test_a_puzzle_with_a_solution_has_nothing_to_explain() -> None:
    assert why.explain(parse(UNIQUE)) is None


def test_two_clashing_givens_are_the_smallest_core() -> None:
    core = why.explain(parse(CLASH))
    assert core is not None and core.smallest
    assert core.givens() == [(0, 0, "5"), (0, 1, "5")]
    assert str(core) == "r1c1=5 r1c2=5"


def test_tdoku_has_puzzles_without_a_solution() -> None:
    assert len(NONE) >= 5


@pytest.mark.deep
@pytest.mark.heavy
@pytest.mark.parametrize("text", [*NONE[:2], *(pytest.param(t, marks=pytest.mark.system) for t in NONE[2:])])
def test_every_core_is_minimal_by_the_independent_counter(text: str) -> None:
    """The core alone has no solution; without any one of its givens, the rest has one (tdoku's first two
    puzzles without a solution in make test, the others in the system tier: seconds each)."""
    puzzle = parse(text)
    core = why.explain(puzzle)
    assert core is not None and core.cells
    assert all(puzzle[i] for i in core.cells)  # givens of the puzzle, nothing else
    assert _count(core.grid()) == 0
    for i in core.cells:
        rest = tuple(d if j != i else 0 for j, d in enumerate(core.grid()))
        assert _count(rest) == 1, f"dropping cell {i} leaves no solution: not minimal"


def test_smallest_is_claimed_only_when_proved(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no budget for the subset search a core of more than two givens is minimal, not smallest;
    with the budget, a clash elsewhere in the puzzle is found as the smaller core."""
    puzzle = parse(NONE[0])
    monkeypatch.setattr(why, "SUBSET_BUDGET", 0)
    core = why.explain(puzzle)
    assert core is not None and len(core.cells) > 2 and not core.smallest
    monkeypatch.undo()
    # the same puzzle with a clash added (two blanks of one row set to the same digit): a core of two
    # givens exists, so the smallest core has two (one given alone always has a solution)
    a, b = next(blanks[:2] for r in range(9)
                if len(blanks := [9 * r + c for c in range(9) if not puzzle[9 * r + c]]) >= 2)
    clashed = list(puzzle)
    clashed[a] = clashed[b] = 7
    core = why.explain(tuple(clashed))
    assert core is not None and core.smallest and len(core.cells) == 2
    assert _count(core.grid()) == 0


def test_a_variant_core_uses_the_variant_units() -> None:
    """On an X board two equal givens on a diagonal cannot stand together; on a classic board they can."""
    grid = [0] * 81
    grid[0] = grid[40] = 4  # r1c1 and r5c5: on the main diagonal, in no common row, column or box
    puzzle = tuple(grid)
    assert why.explain(puzzle) is None
    core = why.explain(puzzle, variant=make_variant("x"))
    assert core is not None and core.smallest and core.cells == (0, 40)


def test_cli_why_line_json_and_exit_codes() -> None:
    res = numplace("solve", "--why", "--format", "line", CLASH)
    assert res.returncode == 1, res.stderr
    assert res.stdout.strip() == "none: these 2 givens cannot stand together (smallest): r1c1=5 r1c2=5"
    res = numplace("solve", "--why", "--format", "json", CLASH)
    assert res.returncode == 1
    assert json.loads(res.stdout) == {"status": "none", "smallest": True,
                                      "why": [{"row": 0, "col": 0, "digit": "5"}, {"row": 0, "col": 1, "digit": "5"}]}
    res = numplace("solve", "--why", "--format", "line", UNIQUE)
    assert res.returncode == 0 and res.stdout.strip() == "unique: the puzzle has a solution; nothing to explain"


@pytest.mark.parametrize(("text", "status"), [(UNIQUE, "unique"),
                                             ("." * 9 + UNIQUE[9:], "multiple")])
def test_cli_why_counts_a_puzzle_with_a_solution_once(monkeypatch: pytest.MonkeyPatch, text: str,
                                                     status: str) -> None:
    """One exact count tells the status of a puzzle with a solution (it was counted twice: once to
    find it has one, once more for ``unique`` or ``multiple``)."""
    from typer.testing import CliRunner

    from pipeline.cli import app
    from pipeline.solve import solver

    counts: list[int] = []
    count = solver.count_solutions

    def counted(*args: object, **kwargs: object) -> object:
        counts.append(1)
        return count(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(solver, "count_solutions", counted)
    res = CliRunner().invoke(app, ["solve", "--why", "--format", "json", text])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout) == {"status": status, "why": None}
    assert len(counts) == 1


def test_diagnose_tells_the_status_or_the_core() -> None:
    assert why.diagnose(parse(UNIQUE)) == ("unique", None)
    assert why.diagnose(parse("." * 81)) == ("multiple", None)
    status, core = why.diagnose(parse(CLASH))
    assert status == "none" and core == why.explain(parse(CLASH))


def test_cli_why_refuses_a_batch_and_other_modes(tmp_path) -> None:
    batch = tmp_path / "two.txt"
    batch.write_text(f"{UNIQUE}\n{CLASH}\n", encoding="utf-8")
    res = numplace("solve", "--why", str(batch))
    assert res.returncode == 2 and res.stderr.strip() == "numplace: error: --why takes one puzzle, not a batch"
    res = numplace("solve", "--why", "--count", CLASH)
    assert res.returncode == 2 and "choose --why alone" in res.stderr
