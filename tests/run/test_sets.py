"""A set is an append-only stream: runs continue the index range, ids are issued once, one run at a time."""

from __future__ import annotations

import json
import os
import shutil
import socket
from pathlib import Path

import polars as pl
import pytest

from pipeline import config
from pipeline.run import runner
from pipeline.run.audit import audit
from pipeline.run.lock import LOCK, SetLock, SetLocked
from pipeline.run.manifest import read_manifest
from tests.conftest import numplace, tiny

pytestmark = pytest.mark.heavy  # the tests here make sets or run the CLI: seconds each

CONTENT = ["puzzle_id", "index", "seed", "puzzle", "solution"]


def _runs(root: Path, name: str = "tiny") -> list[Path]:
    return sorted((d for d in (root / name).iterdir() if d.is_dir()), key=lambda d: read_manifest(d)["start"])


def test_five_runs_grow_one_set_with_stable_ids_and_replay_the_same(tmp_path: Path) -> None:
    root = tmp_path / "out"
    cfg = config.validate(tiny(root, count=4, output={"dir": str(root), "shard_size": 3}))
    for k in range(5):
        summary = runner.run(cfg)
        assert summary.ok and summary.start == 4 * k
        totals = read_manifest(summary.run_dir)["totals"]
        assert totals["attempts"] == 4 and totals["duplicates_replaced"] == 0  # run k costs what run 1 cost
    frame = pl.read_parquet(root / "tiny" / "*" / "part-*.parquet").sort("index")
    assert frame["index"].to_list() == list(range(20))
    assert frame["puzzle_id"].to_list() == [f"tiny-{i:07d}" for i in range(20)]
    assert frame["canonical_puzzle"].n_unique() == 20
    result = audit(root / "tiny")
    assert result.ok, result.problems

    replay = tmp_path / "replay"
    for _ in range(5):
        runner.run(cfg.model_copy(update={"output": cfg.output.model_copy(update={"dir": str(replay)})}))
    again = pl.read_parquet(replay / "tiny" / "*" / "part-*.parquet").sort("index")
    assert again.select(CONTENT).equals(frame.select(CONTENT))

    for run_dir in _runs(root):  # removing the runs' folders unpublishes them: the replay is the same again
        shutil.rmtree(run_dir)
    for _ in range(5):
        runner.run(cfg)
    third = pl.read_parquet(root / "tiny" / "*" / "part-*.parquet").sort("index")
    assert third.select(CONTENT).equals(frame.select(CONTENT))


def test_a_set_keeps_its_seed(tmp_path: Path) -> None:
    root = tmp_path / "out"
    runner.run(config.validate(tiny(root, count=1)))
    with pytest.raises(runner.RunError, match="seed: set tiny was made with seed 11"):
        runner.run(config.validate(tiny(root, count=1, seed=12)))
    assert len(_runs(root)) == 1  # nothing was created


def test_changed_generation_keys_are_allowed_and_logged(tmp_path: Path) -> None:
    root = tmp_path / "out"
    runner.run(config.validate(tiny(root, count=1)))
    said: list[str] = []
    summary = runner.run(config.validate(tiny(root, count=1, removal={"symmetry": "mirror-d", "minimal": True})),
                         log=lambda msg, **_: said.append(msg))
    assert summary.ok and summary.start == 1
    assert any("the config differs from the last run of set tiny" in m for m in said)


def test_a_second_run_of_a_set_in_progress_is_refused_naming_the_holder(tmp_path: Path, write_config) -> None:
    root = tmp_path / "out"
    with SetLock.acquire(root / "tiny", lambda _m: None):  # this test process holds the set
        with pytest.raises(SetLocked, match=f"pid {os.getpid()} on {socket.gethostname()}"):
            runner.run(config.validate(tiny(root, count=1)))
        res = numplace("run", str(write_config(tiny(root, count=1))))
        assert res.returncode == 75, res.stderr
        assert res.stderr.count("\n") == 1 and "this set is being made by pid" in res.stderr
    assert not any(d.is_dir() for d in (root / "tiny").iterdir())  # the refused runs created nothing


def test_the_lock_of_a_dead_holder_is_taken_over_and_logged(tmp_path: Path) -> None:
    root = tmp_path / "out"
    (root / "tiny").mkdir(parents=True)
    dead = {"pid": 2**22 + 12345, "host": socket.gethostname(), "started": "2026-11-22T01:00:00+00:00"}
    (root / "tiny" / LOCK).write_text(json.dumps(dead))  # what kill -9 of a holder leaves behind
    said: list[str] = []
    assert runner.run(config.validate(tiny(root, count=1)), log=lambda msg, **_: said.append(msg)).ok
    assert any(f"took over the lock of {root / 'tiny'} from pid {dead['pid']}" in m for m in said)
    assert (root / "tiny" / LOCK).read_text() == ""  # released


@pytest.mark.deep
def test_a_run_written_before_the_underscore_layout_still_checks_and_resumes(tmp_path: Path) -> None:
    """An old run: manifest.json (no start, no _SUCCESS), parts without schema metadata or
    difficulty_rank. check reads it as schema 1; --resume finishes it in place."""
    root = tmp_path / "out"
    cfg = config.validate(tiny(root, count=4, output={"dir": str(root), "shard_size": 2}))
    summary = runner.run(cfg)
    run_dir = summary.run_dir
    data = read_manifest(run_dir)
    del data["start"]
    data["status"] = "running"
    for record in data["shards"].values():
        del record["sha256"]  # old runs recorded no part hashes (and their parts are rewritten below)
    (run_dir / "_manifest.json").unlink()
    (run_dir / "_SUCCESS").unlink()
    (run_dir / "manifest.json").write_text(json.dumps(data))
    for part in sorted(run_dir.glob("part-*.parquet")):
        pl.read_parquet(part).drop("difficulty_rank").write_parquet(part)  # no key-value metadata either
    (run_dir / "part-00001.parquet").unlink()  # killed before its second part

    result = audit(run_dir)
    assert [p for p in result.problems if "is running" not in p] == [] and result.rows == 2
    resumed = runner.run(cfg, resume=run_dir)
    assert resumed.ok and resumed.written == 4
    assert read_manifest(run_dir)["status"] == "complete" and (run_dir / "manifest.json").is_file()
    assert audit(run_dir).ok
    res = numplace("runs", str(root), "--json")
    assert res.returncode == 0 and json.loads(res.stdout)[0]["runs"][0]["status"] == "complete"


@pytest.mark.deep
def test_a_manifest_with_shards_of_the_wrong_type_is_one_line(tmp_path: Path, write_config) -> None:
    root = tmp_path / "out"
    cfg = write_config(tiny(root, count=1))
    assert numplace("run", str(cfg)).returncode == 0
    run_dir = _runs(root)[0]
    data = json.loads((run_dir / "_manifest.json").read_text())
    data["shards"] = ["not", "a", "mapping"]
    (run_dir / "_manifest.json").write_text(json.dumps(data))
    for args in (("check", str(run_dir)), ("run", str(cfg), "--resume", str(run_dir)), ("runs", str(root))):
        res = numplace(*args)
        assert res.returncode == 2 and res.stderr.count("\n") == 1, (args, res.stderr)
        assert "damaged manifest (shards is a list, not a dict)" in res.stderr
