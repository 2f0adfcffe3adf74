"""A set keeps the generator it started with: the first run's record, later runs' puzzles, old sets."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from pipeline import config
from pipeline.generate import version
from pipeline.run import runner
from pipeline.run.manifest import read_manifest
from pipeline.run.plan import RunError
from pipeline.run.store import StoreError
from tests.conftest import DATA, tiny

pytestmark = pytest.mark.heavy  # the tests here make sets: seconds each

LEGACY = DATA / "legacy_set"


def _rows(run_dir: Path) -> pl.DataFrame:
    return pl.read_parquet(run_dir / "part-*.parquet").sort("index")


def _legacy(tmp_path: Path) -> tuple[Path, config.Config]:
    root = tmp_path / "outputs"
    shutil.copytree(LEGACY / "outputs", root)
    return root, config.load(LEGACY / "set.yaml", {"output.dir": str(root)})


def test_a_set_begun_by_older_code_is_continued_with_the_very_puzzles_it_would_have_made(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(version, "NEW_SET_METHOD", "weighted-lp")  # even when new sets default to another method
    root, cfg = _legacy(tmp_path)
    (first,) = (d for d in (root / "legacy-classic").iterdir() if d.is_dir())
    summary = runner.run(cfg)
    assert summary.ok and summary.start == 4
    made = _rows(summary.run_dir)
    want = [line.split() for line in (LEGACY / "continued.txt").read_text().splitlines()]
    assert made.select("index", "puzzle", "solution").rows() == [(int(i), p, s) for i, p, s in want]
    assert set(made["grid_source"]) <= {"ilp-optimal", "ilp-incumbent"}
    m = read_manifest(summary.run_dir)
    assert m["generator"] == {"version": 1, "grid_method": "weighted-ilp"}
    assert m["config_hash"] == read_manifest(first)["config_hash"]  # the same config as the first run
    assert m["config"]["grid"]["method"] == "weighted-ilp"


@pytest.mark.parametrize(("folder", "record"), [("f5b0210_set", {"version": 3, "grid_method": "weighted-ilp"}),
                                                 ("c117bea4_set", {"version": 1, "grid_method": "weighted-ilp"})])
def test_sets_begun_before_the_default_switch_continue_with_the_very_puzzles_of_their_code(
        tmp_path: Path, folder: str, record: dict[str, Any]) -> None:
    """New sets default to weighted-lp; a set begun by f5b0210 (record: version 3,
    weighted-ilp) or by 117bea4 (no record) goes on with the puzzles that code's second run made
    (tests/data/README.md says how each was made)."""
    assert version.NEW_SET_METHOD == "weighted-lp"
    src = DATA / folder
    root = tmp_path / "outputs"
    shutil.copytree(src / "outputs", root)
    cfg = config.load(src / "set.yaml", {"output.dir": str(root)})
    (first,) = (d for d in (root / cfg.name).iterdir() if d.is_dir())
    summary = runner.run(cfg)
    assert summary.ok and summary.start == 4
    made = _rows(summary.run_dir)
    want = [line.split() for line in (src / "continued.txt").read_text().splitlines()]
    assert made.select("index", "puzzle", "solution").rows() == [(int(i), p, s) for i, p, s in want]
    assert set(made["grid_source"]) <= {"ilp-optimal", "ilp-incumbent"}
    m = read_manifest(summary.run_dir)
    assert m["generator"] == record and m["config"]["grid"]["method"] == "weighted-ilp"
    assert m["config_hash"] == read_manifest(first)["config_hash"]
    fresh = runner.run(cfg.model_copy(update={"name": "fresh", "count": 2}))  # a new set: the new default
    assert read_manifest(fresh.run_dir)["generator"] == {"version": version.GENERATOR_VERSION,
                                                         "grid_method": "weighted-lp"}
    assert set(_rows(fresh.run_dir)["grid_source"]) <= {"ilp-optimal", "lp-guided"}


def test_a_new_set_records_its_generator_and_keeps_it_when_the_default_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "out"
    cfg = config.validate(tiny(root, count=3))
    assert cfg.grid.method is None
    monkeypatch.setattr(version, "NEW_SET_METHOD", "weighted-lp")
    one = runner.run(cfg)
    m = read_manifest(one.run_dir)
    assert m["generator"] == {"version": version.GENERATOR_VERSION, "grid_method": "weighted-lp"}
    assert m["config"]["grid"]["method"] == "weighted-lp"
    assert set(_rows(one.run_dir)["grid_source"]) <= {"ilp-optimal", "lp-guided"}
    monkeypatch.setattr(version, "NEW_SET_METHOD", "weighted-ilp")
    two = runner.run(cfg)
    assert read_manifest(two.run_dir)["generator"]["grid_method"] == "weighted-lp"
    assert set(_rows(two.run_dir)["grid_source"]) <= {"ilp-optimal", "lp-guided"}
    other = runner.run(config.validate(tiny(root, count=3, name="other")))  # a new set gets the new default
    assert read_manifest(other.run_dir)["generator"]["grid_method"] == "weighted-ilp"
    assert set(_rows(other.run_dir)["grid_source"]) <= {"ilp-optimal", "ilp-incumbent"}


def test_a_config_that_names_its_method_is_obeyed_and_the_set_record_stays(tmp_path: Path) -> None:
    root = tmp_path / "out"
    runner.run(config.validate(tiny(root, count=2)))
    run = runner.run(config.validate(tiny(root, count=2, grid={"method": "uniform"})))
    assert set(_rows(run.run_dir)["grid_source"]) == {"uniform"}
    assert read_manifest(run.run_dir)["generator"] == {"version": version.GENERATOR_VERSION,
                                                       "grid_method": version.NEW_SET_METHOD}


def test_a_set_recorded_by_a_newer_generator_is_refused_in_one_line(tmp_path: Path) -> None:
    root, cfg = _legacy(tmp_path)
    (first,) = (d for d in (root / "legacy-classic").iterdir() if d.is_dir())
    path = first / "_manifest.json"
    data = json.loads(path.read_text())
    data["generator"] = {"version": version.GENERATOR_VERSION + 1, "grid_method": "weighted-ilp"}
    path.write_text(json.dumps(data))
    with pytest.raises(RunError, match=rf"generator version {version.GENERATOR_VERSION + 1}, newer") as err:
        runner.run(cfg)
    assert "\n" not in str(err.value)
    assert len([d for d in (root / "legacy-classic").iterdir() if d.is_dir()]) == 1  # nothing written


@pytest.mark.parametrize("record", [{"version": "2", "grid_method": "weighted-ilp"},
                                    {"version": 1, "grid_method": "weighted-lp"}])
def test_a_malformed_generator_record_is_named(tmp_path: Path, record: dict) -> None:
    root, cfg = _legacy(tmp_path)
    (first,) = (d for d in (root / "legacy-classic").iterdir() if d.is_dir())
    path = first / "_manifest.json"
    data = json.loads(path.read_text())
    data["generator"] = record
    path.write_text(json.dumps(data))
    with pytest.raises((RunError, StoreError), match="generator") as err:  # the schema, or the record's meaning
        runner.run(cfg)
    assert "\n" not in str(err.value)


def test_a_killer_set_keeps_the_certificate_rule_of_its_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new killer set is made by this version (certificates by HiGHS's presolve alone); a killer set
    whose record says version 2 keeps 8 branch-and-bound nodes per certificate and makes the puzzles
    version 2 makes for its seeds."""
    import dataclasses

    from pipeline.generate.puzzle import KILLER_CERTIFY_NODES, make_puzzle
    from pipeline.generate.spec import puzzle_seed
    from pipeline.ilp.engine import Engine
    from pipeline.run.plan import spec_of

    seen: list[str] = []
    nodes, presolve = Engine.unique_without, Engine.unique_by_presolve

    def by_nodes(self: Engine, puzzle: Any, node_limit: int | None = None) -> bool:
        seen.append(f"nodes {node_limit}")
        return nodes(self, puzzle, node_limit)

    def by_presolve(self: Engine, puzzle: Any) -> bool:
        seen.append("presolve")
        return presolve(self, puzzle)

    monkeypatch.setattr(Engine, "unique_without", by_nodes)
    monkeypatch.setattr(Engine, "unique_by_presolve", by_presolve)
    cfg = config.validate(tiny(tmp_path / "out", name="k6", count=2, board={"size": 6, "variant": "killer"}))
    one = runner.run(cfg)  # workers: 1, so the puzzles are made in this process
    assert one.ok and read_manifest(one.run_dir)["generator"]["version"] == version.GENERATOR_VERSION
    assert "presolve" in seen and not any(s.startswith("nodes 8") for s in seen)
    path = one.run_dir / "_manifest.json"
    data = json.loads(path.read_text())
    data["generator"] = {"version": 2, "grid_method": "weighted-ilp"}
    path.write_text(json.dumps(data))
    seen.clear()
    two = runner.run(cfg)
    assert two.ok and read_manifest(two.run_dir)["generator"] == {"version": 2, "grid_method": "weighted-ilp"}
    assert f"nodes {KILLER_CERTIFY_NODES}" in seen and "presolve" not in seen
    spec = dataclasses.replace(spec_of(cfg.model_copy(update={"grid": cfg.grid.model_copy(
        update={"method": "weighted-ilp"})})), generator=2)
    rows = _rows(two.run_dir)
    want = [make_puzzle(spec, puzzle_seed(cfg.seed, int(i))) for i in rows["index"]]
    assert rows["solution"].to_list() == ["".join(map(str, m.solution)) for m in want]
