"""A set keeps the grading rules it began with: a grader-2 set continued by today's code makes the very
puzzles (and grades) grader 2's code made; a new set is graded by this code's version."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest

from pipeline import config
from pipeline.difficulty.techniques import GRADER_VERSION
from pipeline.run import runner
from pipeline.run.audit import audit
from pipeline.run.manifest import read_manifest
from pipeline.run.plan import RunError
from tests.conftest import DATA, tiny

pytestmark = pytest.mark.heavy  # the tests here make sets: seconds each

GRADER2 = DATA / "grader2_set"
COLUMNS = ("index", "puzzle", "solution", "difficulty", "difficulty_score", "techniques")


def _grader2(tmp_path: Path, version: int | None = None) -> tuple[Path, config.Config]:
    """The grader-2 set copied under ``tmp_path``, its first run's ``grader_version`` set to ``version``."""
    root = tmp_path / "outputs"
    shutil.copytree(GRADER2 / "outputs", root)
    if version is not None:
        (first,) = (d for d in (root / "grader2-steered").iterdir() if d.is_dir())
        path = first / "_manifest.json"
        path.write_text(json.dumps({**json.loads(path.read_text()), "grader_version": version}))
    return root, config.load(GRADER2 / "set.yaml", {"output.dir": str(root)})


def _made(run_dir: Path) -> list[dict]:
    return pl.read_parquet(run_dir / "part-*.parquet").sort("index").select(COLUMNS).to_dicts()


def _want() -> list[dict]:
    return [json.loads(line) for line in (GRADER2 / "continued.jsonl").read_text().splitlines()]


def test_a_set_begun_under_grader_2_is_continued_with_the_very_puzzles_it_would_have_made(tmp_path: Path) -> None:
    root, cfg = _grader2(tmp_path)
    summary = runner.run(cfg)
    assert summary.ok and summary.start == 8
    assert _made(summary.run_dir) == _want()  # puzzles, solutions and grades of grader 2's code
    assert read_manifest(summary.run_dir)["grader_version"] == 2
    found = audit(root / "grader2-steered")  # check recomputes the grades by each run's own rules
    assert found.ok and found.rows == 16, found.problems


def test_the_same_set_graded_by_version_3_makes_other_puzzles(tmp_path: Path) -> None:
    """What the contract protects: this set's target (steered to expert) keeps other puzzles under
    version 3's order, so a set that forgot its version would change."""
    _, cfg = _grader2(tmp_path, version=3)
    summary = runner.run(cfg)
    made = _made(summary.run_dir)
    assert [r["index"] for r in made] == [r["index"] for r in _want()]
    assert [r["puzzle"] for r in made] != [r["puzzle"] for r in _want()]
    assert read_manifest(summary.run_dir)["grader_version"] == 3


def test_a_new_set_is_graded_by_this_codes_version_and_keeps_it(tmp_path: Path) -> None:
    cfg = config.validate(tiny(tmp_path / "out", count=2))
    one = runner.run(cfg)
    assert GRADER_VERSION == 6
    assert read_manifest(one.run_dir)["grader_version"] == GRADER_VERSION
    two = runner.run(cfg)
    assert read_manifest(two.run_dir)["grader_version"] == GRADER_VERSION


def test_a_set_graded_by_newer_rules_is_refused(tmp_path: Path) -> None:
    root, cfg = _grader2(tmp_path, version=GRADER_VERSION + 1)
    with pytest.raises(RunError, match=rf"grader version {GRADER_VERSION + 1}, newer") as err:
        runner.run(cfg)
    assert "\n" not in str(err.value)
    assert len([d for d in (root / "grader2-steered").iterdir() if d.is_dir()]) == 1  # nothing written
