"""The Repair page: the fewest changed givens, marked on both grids, the repaired puzzle as a line
with its status, and why the original has no solution (a core of givens, also marked)."""

from __future__ import annotations

from pipeline.board import format_line, parse
from pipeline.solve import solver, why
from tests.studio.apptest import page, texts
from tests.studio.test_solve import EASY, marked_cells

BROKEN = "55" + EASY[2:]  # r1c2 should be 3: two 5s in row 1


def test_a_broken_puzzle_is_repaired_and_explained() -> None:
    at = page("repair", {"puzzle": BROKEN})
    assert not at.exception
    expected = solver.repair(parse(BROKEN))
    assert len(expected.changes) == 1
    assert at.subheader[0].value == "Changed givens: 1"
    assert format_line(expected.repaired) in [c.value for c in at.code]
    change = expected.changes[0]
    grids = [m.value for m in at.markdown if "<svg" in m.value]
    assert marked_cells(grids[0]) == {(change.row, change.col)}  # the original
    assert marked_cells(grids[1]) == {(change.row, change.col)}  # the repaired puzzle
    assert f"**Repaired puzzle** ({expected.repaired_status})" in texts(at)
    core = why.explain(parse(BROKEN))
    assert core is not None
    assert f"`{core}`" in texts(at)
    assert marked_cells(grids[2]) == {divmod(i, 9) for i in core.cells}
    assert at.query_params["puzzle"] == BROKEN


def test_a_sound_puzzle_needs_no_repair() -> None:
    at = page("repair", {"puzzle": EASY})
    assert [s.value for s in at.success] == ["Nothing to repair: the puzzle is unique"]


def test_labels_in_japanese() -> None:
    at = page("repair", {"puzzle": EASY, "lang": "ja"})
    assert at.title[0].value == "修正"
    assert [s.value for s in at.success] == ["修正不要: この問題は 唯一解"]
    assert at.query_params["lang"] == "ja"  # kept in the URL


def test_bad_cages_are_one_inline_line() -> None:
    at = page("repair", {"puzzle": EASY, "variant": "killer", "cages": "[{cells: 1}"})
    assert not at.exception
    assert at.error[0].value.startswith("cages: not JSON:")
