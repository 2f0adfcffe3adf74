"""Run folders hidden or moved by hand keep their puzzles in dedup, and ``check`` and the next run
name them with the ``mv`` that puts them back (issue 51 items 3-4)."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pytest

from pipeline import config
from pipeline.run import runner
from pipeline.run.audit import audit
from pipeline.run.manifest import runs_of
from pipeline.run.plan import RunError

pytestmark = pytest.mark.heavy  # small 6x6 sets: seconds

SIX = {"board": {"size": 6}, "removal": {"symmetry": "none", "minimal": True}}


def _cfg(root: Path, name: str, seed: int) -> config.Config:
    return config.validate({"name": name, "seed": seed, "count": 4, **SIX, "workers": 1,
                            "output": {"dir": str(root), "shard_size": 2}})


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Set ``tiny`` (seed 5) of three runs, indices 0-11, and set ``tiny2`` (seed 6) of two, 0-7."""
    root = tmp_path_factory.mktemp("hidden") / "out"
    for name, seed, runs in (("tiny", 5, 3), ("tiny2", 6, 2)):
        for _ in range(runs):
            assert runner.run(_cfg(root, name, seed)).ok
    return root


@pytest.fixture
def root(made: Path, tmp_path: Path) -> Path:
    shutil.copytree(made, tmp_path / "out")
    return tmp_path / "out"


def _in_two_sets(root: Path) -> int:
    frame = pl.read_parquet(str(root / "*" / "*" / "part-*.parquet"))  # what polars and duckdb read
    per = frame.group_by("canonical_puzzle").agg(pl.col("set_name").n_unique().alias("sets"))
    return int(per.filter(pl.col("sets") > 1).height)


@pytest.mark.parametrize("hidden", ["_hidden", ".hidden"])
def test_a_hidden_run_keeps_its_puzzles_in_dedup_and_no_fill_gap_is_advised(root: Path, hidden: str) -> None:
    last = runs_of(root / "tiny")[-1].run_dir
    moved = last.rename(root / "tiny" / hidden)
    assert runner.run(_cfg(root, "copy", 5)).ok  # the first set's seed: its puzzles come first
    assert _in_two_sets(root) == 0
    said: list[str] = []
    assert runner.run(_cfg(root, "tiny", 5), log=lambda m, **_f: said.append(m)).ok
    assert not [m for m in said if "--fill-gap" in m], said
    assert runs_of(root / "tiny")[-1].start == 12  # its ids 8-11 are not issued again
    problems = audit(root / "tiny", fast=True).problems
    assert [p for p in problems if f"{moved}: a run folder" in p and f"mv {moved} {last}" in p], problems
    assert not [p for p in problems if "--fill-gap" in p], problems


def test_a_run_moved_into_another_set_is_named_by_check_and_both_sets_runs(root: Path) -> None:
    last = runs_of(root / "tiny")[-1].run_dir  # indices 8-11 of tiny
    moved = last.rename(root / "tiny2" / last.name)
    result = audit(root / "tiny2", fast=True)
    assert not result.ok
    line = [p for p in result.problems if f"{moved}: a run of set tiny" in p]
    assert line and f"mv {moved} {last}" in line[0], result.problems
    with pytest.raises(RunError) as into:
        runner.run(_cfg(root, "tiny2", 6))
    assert "seed" not in str(into.value) and f"mv {moved} {last}" in str(into.value)
    with pytest.raises(RunError) as out_of:
        runner.run(_cfg(root, "tiny", 5))
    assert f"run {last.name} is in {moved} (moved by hand)" in str(out_of.value)
    assert "--fill-gap" not in " ".join(audit(root / "tiny", fast=True).problems)
    moved.rename(last)  # the way out it names
    assert runner.run(_cfg(root, "tiny", 5)).ok and runner.run(_cfg(root, "tiny2", 6)).ok
    assert _in_two_sets(root) == 0


# --- issue 51 item 5: the smaller findings of check ---------------------------------------------------------

def test_a_deleted_part_is_named_with_the_resume_that_makes_it_again_exactly(root: Path) -> None:
    run_dir = runs_of(root / "tiny")[1].run_dir
    part = sorted(run_dir.glob("part-*.parquet"))[0]
    before = pl.read_parquet(part)
    part.unlink()
    line = [p for p in audit(root / "tiny", fast=True).problems if "the file is missing" in p]
    assert line and f"numplace run CONFIG --resume {run_dir} makes it again exactly" in line[0]
    assert runner.run(_cfg(root, "tiny", 5), resume=run_dir).ok  # the fix it names
    when = ["gen_ms", "created_at"]  # the time it took and when: the rest is the same puzzle, row for row
    assert pl.read_parquet(part).drop(when).equals(before.drop(when))
    assert audit(root / "tiny", fast=True).ok


def test_a_run_finishing_while_check_reads_it_is_not_running_with_a_success_file(
        root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """check reads the manifest, the run finishes (manifest complete, then _SUCCESS), check looks
    for _SUCCESS: it reads the manifest again rather than report a running run with _SUCCESS."""
    import json

    from pipeline.run.audit import manifests

    run_dir = runs_of(root / "tiny")[-1].run_dir
    done = json.loads((run_dir / "_manifest.json").read_text())
    stale = dict(done, status="running")
    (run_dir / "_manifest.json").write_text(json.dumps(stale))
    real = manifests.run_problems

    def finishing(run: manifests.Run, held: dict[int, int]) -> list[str]:
        if run.run_dir == run_dir:  # the run finishes between check's two reads
            (run_dir / "_manifest.json").write_text(json.dumps(done))
        return real(run, held)

    monkeypatch.setattr("pipeline.run.audit.run_problems", finishing)
    result = audit(root / "tiny", fast=True)
    assert not [p for p in result.problems if "has a _SUCCESS file" in p], result.problems
    assert result.ok, result.problems


def test_overlapping_runs_say_which_belongs_to_another_set(root: Path) -> None:
    other = runs_of(root / "tiny2")[0].run_dir  # indices 0-3 of tiny2
    moved = other.rename(root / "tiny" / other.name)
    problems = audit(root / "tiny", fast=True).problems
    line = [p for p in problems if "overlap" in p]
    assert line and f"{moved.name} (a run of set tiny2, not of this set)" in line[0], problems
