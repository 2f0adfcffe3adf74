"""Every held grader version, compiled and pure, gives the paths it gave when its rules were written:
``tests/data/grader_paths.json`` (made by ``tests/data/make_grader_paths.py``) holds, per puzzle and
version, the digest of the pure-Python path, its level and score."""

from __future__ import annotations

import json
from functools import cache

import pytest

from pipeline.board import parse
from pipeline.difficulty.grade import grade_result
from pipeline.difficulty.logic import solve_logically
from pipeline.difficulty.techniques import ORDERS
from tests.conftest import DATA
from tests.data.make_grader_paths import path_digest

GOLDEN = DATA / "grader_paths.json"


@cache
def golden() -> dict[str, object]:
    data: dict[str, object] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return data


def test_the_golden_file_covers_every_held_version() -> None:
    assert golden()["versions"] == sorted(ORDERS)


#: The golden puzzles in two parts: the 40 generated ones (seconds a version), and the 30 hard ones of top95
#: and tdoku (minutes a version in pure Python: ``slow``, run with ``-m slow``).
PARTS = [pytest.param("generated", marks=pytest.mark.heavy), pytest.param("hard", marks=pytest.mark.slow)]


@pytest.mark.parametrize("part", PARTS)
@pytest.mark.parametrize("compiled", [False, True], ids=["pure", "compiled"])
@pytest.mark.parametrize("version", sorted(ORDERS))
def test_every_held_version_keeps_its_paths(version: int, compiled: bool, part: str) -> None:
    rows = golden()["puzzles"]
    assert isinstance(rows, list) and len(rows) == 70
    for row in rows[30:] if part == "generated" else rows[:30]:
        res = solve_logically(parse(row["puzzle"]), compiled=compiled, grader=version)
        g = grade_result(res)
        assert [path_digest(res.steps), g.level, g.score] == row[str(version)], row["puzzle"]
