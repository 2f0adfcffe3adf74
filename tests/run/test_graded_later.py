"""Graded later (the studio's Generate page): :func:`pipeline.run.runner.stream_graded_later` hands each
puzzle out before its grade where the grade decides nothing, then its whole row, and the rows it ends
with are :func:`~pipeline.run.runner.stream`'s, grade for grade; where the grade decides (a level, a
score, logic-only, a technique target, a quota) it grades first, as always."""

from __future__ import annotations

from typing import Any

import pytest

from pipeline import config as cfgmod
from pipeline.generate.spec import Spec
from pipeline.run import runner
from pipeline.run.rows import GRADE_COLUMNS
from pipeline.run.work import Made

#: Columns that are times of this run, not properties of the puzzle.
TIMES = ("gen_ms", "created_at")


def _rows(items: list[Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in item.row.items() if k not in TIMES} for item in items if isinstance(item, Made)]


@pytest.mark.parametrize("spec", [
    Spec(9, "rot180", True, levels=("hard",)),
    Spec(9, "rot180", True, score_min=100.0),
    Spec(9, "rot180", True, score_max=100.0),
    Spec(9, "rot180", True, logic_only=True),
    Spec(9, "rot180", True, techniques=("x_wing",)),
    Spec(9, "rot180", True, steer=True, steer_pool=("easy",)),
])
def test_the_grade_decides_where_a_target_names_it(spec: Spec) -> None:
    assert spec.grade_decides(7)
    assert not Spec(9, "rot180", True).grade_decides(7)
    assert not Spec(9, "rot180", True, steer=True).grade_decides(7)  # steering without a target steers nowhere


@pytest.mark.heavy
@pytest.mark.parametrize("board", [{"variant": "x+hyper"}, {"variant": "hyper"}, {"size": 4}, {}])
def test_the_rows_are_streams_rows_and_each_puzzle_comes_before_its_grade(board: dict[str, Any]) -> None:
    cfg = cfgmod.validate({"name": "later", "seed": 5, "count": 2, "workers": 1, "board": board})
    whole = list(runner.stream(cfg, chunk=1))
    later = list(runner.stream_graded_later(cfg))
    assert len(whole) == 2 and all(isinstance(item, Made) for item in whole)
    assert len(later) == 4  # per index: the puzzle, then its row with the grade
    for k in range(2):
        shown, done = later[2 * k], later[2 * k + 1]
        assert isinstance(shown, Made) and isinstance(done, Made)
        assert shown.index == done.index == k
        assert shown.ungraded is not None and done.ungraded is None
        assert all(shown.row[c] is None for c in GRADE_COLUMNS)
        assert done.row["difficulty"] is not None and done.row["techniques"]
        rest = [c for c in shown.row if c not in (*GRADE_COLUMNS, *TIMES)]
        assert {c: shown.row[c] for c in rest} == {c: done.row[c] for c in rest}  # the same puzzle, only graded
    assert _rows(later[1::2]) == _rows(whole)


@pytest.mark.heavy
def test_a_grade_that_decides_comes_with_its_puzzle() -> None:
    cfg = cfgmod.validate({"name": "later", "seed": 5, "count": 2, "workers": 1,
                           "difficulty": {"levels": ["easy", "medium"]}})
    later = list(runner.stream_graded_later(cfg))
    assert len(later) == 2 and all(isinstance(item, Made) and item.ungraded is None for item in later)
    assert _rows(later) == _rows(list(runner.stream(cfg, chunk=1)))
    assert all(item.row["difficulty"] in ("easy", "medium") for item in later)


def test_stop_ends_the_stream_before_a_puzzle_and_inside_a_grade() -> None:
    cfg = cfgmod.validate({"name": "later", "seed": 5, "count": 3, "workers": 1, "board": {"size": 4}})
    assert list(runner.stream_graded_later(cfg, stop=lambda: True)) == []
    got: list[Any] = []
    items = runner.stream_graded_later(cfg, stop=lambda: bool(got))
    got.extend(items)  # the first puzzle is handed out; its grade then sees the stop at its first step
    assert len(got) == 1 and got[0].ungraded is not None
