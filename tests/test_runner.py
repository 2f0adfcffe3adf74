"""The runner in-process: a puzzle that fails verification or generation is counted, never written."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from pipeline import config, verify
from pipeline.run import runner
from pipeline.run.manifest import read_manifest

from .conftest import tiny


def test_failures_are_counted_and_never_written(tmp_path: Path, monkeypatch) -> None:
    real = verify.verify_row

    def flaky(row: dict) -> list[str]:  # pretend the generator produced a bad puzzle at index 1
        return ["injected fault"] if row["index"] == 1 else real(row)

    monkeypatch.setattr(verify, "verify_row", flaky)
    cfg = config.validate(tiny(tmp_path / "out", count=4, workers=1))
    summary = runner.run(cfg)  # workers=1: joblib runs in this process, so the patch applies
    assert not summary.ok and summary.written == 3
    frame = pl.read_parquet(summary.run_dir / "part-*.parquet")
    assert sorted(frame["index"].to_list()) == [0, 2, 3]
    manifest = read_manifest(summary.run_dir)
    assert manifest["status"] == "incomplete"
    assert manifest["totals"]["verification_failures"] == 1
    assert manifest["shards"]["0"]["failures"][0]["failure"] == "injected fault"


def test_unreachable_target_is_a_counted_generation_failure(tmp_path: Path) -> None:
    cfg = config.validate(tiny(tmp_path / "out", count=2, removal={
        "symmetry": "full", "hints": {"target": 17}, "max_attempts": 2}))
    summary = runner.run(cfg)
    assert summary.written == 0 and len(summary.failures) == 2
    totals = read_manifest(summary.run_dir)["totals"]
    assert totals["generation_failures"] == 2 and totals["attempts"] == 4
