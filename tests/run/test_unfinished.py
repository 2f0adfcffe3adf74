"""No silent gap in the ids: a plain run of a set with an unfinished run finishes that run first,
``runs`` names unfinished runs, and nightly runs under a time budget (the cron line of
docs/operations.md) always leave the ids 0..N-1 without a gap."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from pipeline import cli, config
from pipeline.run import runner
from pipeline.run.audit import audit
from pipeline.run.manifest import read_manifest, runs_of
from pipeline.run.plan import RunError, plan
from pipeline.run.sets import overview
from tests.conftest import tiny

SET = {"board": {"size": 4}, "removal": {"symmetry": "none", "minimal": True}}
TINY_BUDGET = 1e-9  # minutes: the run stops after its first chunk (one part of two puzzles)


def _cfg(root: Path, count: int = 6) -> config.Config:
    return config.validate(tiny(root, count=count, output={"dir": str(root), "shard_size": 2}, **SET))


def _indices(root: Path) -> list[int]:
    parts = sorted((root / "tiny").glob("*/part-*.parquet"))
    return sorted(pl.read_parquet(parts)["index"].to_list()) if parts else []


def _partial(root: Path) -> Path:
    summary = runner.run(_cfg(root), max_minutes=TINY_BUDGET)
    assert summary.status == "partial" and 0 < summary.written < 6
    return summary.run_dir


def test_the_next_run_finishes_an_unfinished_run_first(tmp_path: Path) -> None:
    root = tmp_path / "out"
    first = _partial(root)
    said: list[str] = []
    summary = runner.run(_cfg(root), log=lambda msg, **_: said.append(msg))
    assert summary.ok and summary.start == 6  # the new run comes after the finished one
    assert read_manifest(first)["status"] == "complete"
    assert any(f"run {first} is partial" in m and "finishing it first" in m for m in said)
    assert _indices(root) == list(range(12))
    assert audit(root / "tiny", fast=True).ok


def test_a_new_run_planned_beside_an_unfinished_run_is_refused_naming_the_resume(tmp_path: Path) -> None:
    root = tmp_path / "out"
    first = _partial(root)
    with pytest.raises(RunError, match=f"finish it first with numplace run CONFIG --resume {first}"):
        plan(_cfg(root), None, lambda *_a, **_k: None)
    assert len(runs_of(root / "tiny")) == 1  # nothing was created


def test_an_unfinished_run_whose_config_cannot_be_rebuilt_is_one_line(tmp_path: Path) -> None:
    root = tmp_path / "out"
    first = _partial(root)
    data = json.loads((first / "_manifest.json").read_text())
    data["config"]["count"] = "six"  # the saved config no longer validates
    (first / "_manifest.json").write_text(json.dumps(data))
    with pytest.raises(RunError, match=f"numplace run CONFIG --resume {first}"):
        runner.run(_cfg(root))


def test_runs_shows_unfinished_runs(tmp_path: Path) -> None:
    root = tmp_path / "out"
    first = _partial(root)
    (found,) = overview(root)
    assert found["unfinished"] == [str(first)] and found["runs"][0]["unfinished"] is True
    table = CliRunner().invoke(cli.app, ["runs", str(root)])
    assert table.exit_code == 0 and f"  UNFINISHED {first}: the next run of tiny finishes it first" in table.output
    runner.run(_cfg(root))
    (found,) = overview(root)
    assert found["unfinished"] == [] and not any(r["unfinished"] for r in found["runs"])


def test_nights_under_a_time_budget_never_leave_a_gap(tmp_path: Path) -> None:
    """The cron line: the same config every night with --max-minutes; every night stops early."""
    root = tmp_path / "out"
    for _night in range(5):
        runner.run(_cfg(root), max_minutes=TINY_BUDGET)
        got = _indices(root)
        assert got == list(range(len(got))), got  # ids 0..N-1, no gap and no repeat
    assert len(_indices(root)) >= 6  # the first run was finished on a later night
