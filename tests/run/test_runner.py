"""The runner in-process: a puzzle that fails verification or generation is counted, never written."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
import yaml

from pipeline import config, verify
from pipeline.run import runner
from pipeline.run.manifest import read_manifest
from tests.conftest import said, tiny


@pytest.mark.heavy
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


@pytest.mark.heavy
def test_unreachable_target_is_a_counted_generation_failure(tmp_path: Path) -> None:
    cfg = config.validate(tiny(tmp_path / "out", count=2, removal={
        "symmetry": "full", "hints": {"target": 17}, "max_attempts": 2}))
    summary = runner.run(cfg)
    assert summary.written == 0 and len(summary.failures) == 2
    totals = read_manifest(summary.run_dir)["totals"]
    assert totals["generation_failures"] == 2 and totals["attempts"] == 4


@pytest.mark.heavy
def test_an_interrupt_while_the_run_starts_or_closes_marks_it_interrupted(tmp_path: Path) -> None:
    """Found by bench/crash_test.py: a SIGTERM (raised as KeyboardInterrupt) outside the loop over
    results left the manifest ``running`` and exited without naming the run. Now any moment of the
    run after its folder exists gives RunInterrupted with the folder, and status ``interrupted``."""
    import pytest

    for event in ("run_started", "progress_at_end"):
        out = tmp_path / event

        def log(_msg: str, /, event_name: str = event, **fields: object) -> None:
            if fields.get("event") == event_name:
                raise KeyboardInterrupt

        def progress(done: int, total: int, event_name: str = event) -> None:
            if event_name == "progress_at_end" and done == total:
                raise KeyboardInterrupt

        with pytest.raises(runner.RunInterrupted) as err:
            runner.run(config.validate(tiny(out, count=3)), log=log, progress=progress)
        assert read_manifest(err.value.run_dir)["status"] == "interrupted"
        resumed = runner.run(config.validate(tiny(out, count=3)), resume=err.value.run_dir)
        assert resumed.ok and resumed.written == 3


def test_an_interrupt_before_the_run_folder_exists_is_one_line(tmp_path: Path, monkeypatch) -> None:
    from typer.testing import CliRunner

    from pipeline.cli import app

    def interrupted(*_a: object, **_k: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "run", interrupted)
    cfg = tmp_path / "c.yaml"
    cfg.write_text(yaml.safe_dump(tiny(tmp_path / "out")), encoding="utf-8")
    res = CliRunner().invoke(app, ["run", str(cfg)])
    assert res.exit_code == 130
    assert said(res.output) == ["numplace: interrupted before the run started making puzzles; nothing to resume, "
                                "run it again"]
