"""Cross-set dedup holds for runs of two sets made at the same time: the second to finish a part
sees the parts the first wrote, although neither existed when both runs started."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from pipeline import config
from pipeline.run import rows, runner
from pipeline.run.audit import audit
from pipeline.run.execute import open_executor
from pipeline.run.plan import plan
from tests.conftest import tiny

SET = {"board": {"size": 4}, "removal": {"symmetry": "none", "minimal": True}}


def _keys(set_dir: Path) -> set[str]:
    frame = pl.read_parquet(sorted(set_dir.glob("*/part-*.parquet")))
    return {rows.dedup_key(r) for r in frame.iter_rows(named=True)}


def _quiet(*_a: object, **_k: object) -> None:
    return None


def test_two_sets_planned_together_share_no_puzzle(tmp_path: Path) -> None:
    root = tmp_path / "out"
    cfgs = [config.validate(tiny(root, name=name, count=6, **SET)) for name in ("first", "second")]
    plans = [plan(cfg, None, _quiet) for cfg in cfgs]  # both started before either wrote a part
    for cfg, p in zip(cfgs, plans, strict=True):
        try:
            with open_executor(cfg, _quiet) as ex:
                summary = runner._execute_and_finish(p, ex, _quiet, None, None)
        finally:
            p.lock.release()
        assert summary.ok
    first, second = _keys(root / "first"), _keys(root / "second")
    assert len(first) == 6 and len(second) == 6
    assert not first & second  # same seed, same config: without the dedup lock all 6 are shared
    for name in ("first", "second"):
        assert audit(root / name, fast=True).ok


def test_runs_one_after_the_other_make_what_they_made_before(tmp_path: Path) -> None:
    """Nothing changes for sets made one after the other: the second set's puzzles depend only on
    the first's (as before the lock)."""
    a, b = tmp_path / "a", tmp_path / "b"
    for root in (a, b):
        for name in ("first", "second"):
            assert runner.run(config.validate(tiny(root, name=name, count=6, **SET))).ok
    for name in ("first", "second"):
        frames = [pl.read_parquet(sorted((r / name).glob("*/part-*.parquet"))) for r in (a, b)]
        assert frames[0]["puzzle"].to_list() == frames[1]["puzzle"].to_list()
    assert not _keys(a / "first") & _keys(a / "second")
