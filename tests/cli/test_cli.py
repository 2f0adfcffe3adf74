"""Tier 3: the CLI end to end — run, check, show, worker-count independence, resume after kill -9."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

from pipeline import verify
from tests.conftest import ROOT, error_line, numplace, tiny

pytestmark = pytest.mark.heavy  # the tests here make sets or run the CLI: seconds each

CONTENT = ["puzzle_id", "index", "seed", "puzzle", "solution", "hints", "symmetry", "symmetry_requested",
           "minimal", "orbit_minimal", "attempts"]


def run_dir_of(out: Path, name: str = "tiny") -> Path:
    dirs = sorted(d for d in (out / name).iterdir() if d.is_dir())
    assert len(dirs) == 1, dirs
    return dirs[0]


@pytest.mark.deep
def test_end_to_end_run_check_show(tmp_path: Path, write_config) -> None:
    cfg = write_config(tiny(tmp_path / "out"))
    res = numplace("run", str(cfg))
    assert res.returncode == 0, res.stderr
    run_dir = run_dir_of(tmp_path / "out")
    assert sorted(p.name for p in run_dir.iterdir()) == [
        "_SUCCESS", "_manifest.json", "part-00000.parquet", "part-00001.parquet", "part-00002.parquet"]
    events = [json.loads(line) for line in res.stderr.splitlines()]  # JSON lines when not on a terminal
    assert {"ts", "level", "event", "message"} <= set(events[0])
    assert [e["event"] for e in events if e["event"] != "progress"] == ["run_started", "run_finished"]
    last = [e for e in events if e["event"] == "progress"][-1]
    assert (last["done"], last["total"]) == (8, 8)
    assert events[-1]["totals"]["puzzles"] == 8 and events[-1]["status"] == "complete"
    frame = pl.read_parquet(run_dir / "part-*.parquet")
    assert frame["index"].to_list() == list(range(8))
    assert frame["puzzle_id"].n_unique() == 8
    for row in frame.iter_rows(named=True):
        assert verify.verify_row(row) == []  # the independent verifier, not the CLI's word
    check = numplace("check", str(run_dir))
    assert check.returncode == 0 and "OK" in check.stdout, check.stdout
    shown = numplace("show", str(run_dir), "--limit", "2")
    assert shown.returncode == 0
    assert shown.stdout.count("tiny-000000") == 2 and "------+-------+------" in shown.stdout


@pytest.mark.deep
def test_check_fails_on_a_tampered_part(tmp_path: Path, write_config) -> None:
    cfg = write_config(tiny(tmp_path / "out", count=3))
    assert numplace("run", str(cfg)).returncode == 0
    part = run_dir_of(tmp_path / "out") / "part-00000.parquet"
    frame = pl.read_parquet(part)
    frame = frame.with_columns(pl.when(pl.col("index") == 1).then(pl.col("hints") + 1)
                               .otherwise(pl.col("hints")).alias("hints"))
    frame.write_parquet(part)
    check = numplace("check", str(part))
    assert check.returncode == 1
    assert "tiny-0000001: hints says" in check.stdout


@pytest.mark.deep
def test_one_and_two_workers_make_the_same_set(tmp_path: Path, write_config) -> None:
    sets = []
    for workers in ("1", "2"):
        cfg = write_config(tiny(tmp_path / f"w{workers}", count=10, removal={"symmetry": "random",
                                                                            "minimal": True}))
        res = numplace("run", str(cfg), "--workers", workers)
        assert res.returncode == 0, res.stderr
        sets.append(pl.read_parquet(run_dir_of(tmp_path / f"w{workers}") / "part-*.parquet").select(CONTENT))
    assert sets[0].equals(sets[1])


@pytest.mark.deep
def test_flags_override_the_config(tmp_path: Path, write_config) -> None:
    cfg = write_config(tiny(tmp_path / "ignored"))
    res = numplace("run", str(cfg), "--count", "2", "--seed", "99", "--out", str(tmp_path / "here"))
    assert res.returncode == 0, res.stderr
    frame = pl.read_parquet(run_dir_of(tmp_path / "here") / "part-*.parquet")
    assert frame.height == 2
    assert not (tmp_path / "ignored").exists()


def _kill_group(proc: subprocess.Popen[str]) -> None:
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)


@pytest.mark.heavy
@pytest.mark.system
def test_resume_after_kill_9_gives_the_uninterrupted_set(tmp_path: Path, write_config) -> None:
    # 30 parts: the first part waits for the workers' warm-up, and every part finished meanwhile is
    # written in one burst when it lands (CI once saw all 6 parts of a 60-puzzle run appear at once).
    data = tiny(tmp_path / "out", count=300, workers=2, output={"dir": str(tmp_path / "out"), "shard_size": 10})
    cfg = write_config(data)
    proc = subprocess.Popen([sys.executable, "-m", "pipeline", "run", str(cfg)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 300
    run_dir = None
    while time.monotonic() < deadline:
        parts = list((tmp_path / "out").glob("tiny/*/part-*.parquet"))
        if len(parts) >= 2:
            run_dir = parts[0].parent
            break
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    assert run_dir is not None, "no part appeared"
    _kill_group(proc)  # kill -9 the run and its workers mid-way
    written = len(list(run_dir.glob("part-*.parquet")))
    assert 2 <= written < 30, f"the kill came too late to test anything ({written} parts)"
    res = numplace("run", str(cfg), "--resume", str(run_dir))
    assert res.returncode == 0, res.stderr
    assert f"{written} of 30 part(s) already written" in res.stderr
    resumed = pl.read_parquet(run_dir / "part-*.parquet")
    assert resumed.height == 300 and resumed["index"].n_unique() == 300
    assert numplace("check", str(run_dir)).returncode == 0

    fresh_cfg = write_config(dict(data, output={"dir": str(tmp_path / "fresh"), "shard_size": 10}), "fresh")
    assert numplace("run", str(fresh_cfg)).returncode == 0
    fresh = pl.read_parquet(run_dir_of(tmp_path / "fresh") / "part-*.parquet")
    assert resumed.sort("index").select(CONTENT).equals(fresh.sort("index").select(CONTENT))


@pytest.mark.deep
def test_resume_refuses_another_config(tmp_path: Path, write_config) -> None:
    cfg = write_config(tiny(tmp_path / "out", count=2))
    assert numplace("run", str(cfg)).returncode == 0
    res = numplace("run", str(cfg), "--count", "3", "--resume", str(run_dir_of(tmp_path / "out")))
    assert res.returncode == 2
    assert "made from another config" in res.stderr and "Traceback" not in res.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("check", "nowhere"), "nowhere: no such file or folder"),
        (("show", "README.md"), "not a Parquet file"),
        (("run", "missing.yaml"), "missing.yaml: config file not found"),
        (("run", "configs/default.yaml", "--resume", "tests"), "not a numplace run folder"),
    ],
)
def test_bad_paths_give_one_line(args: tuple[str, ...], message: str) -> None:
    before = sorted(p.name for p in ROOT.iterdir())
    res = numplace(*args)
    assert res.returncode == 2
    assert message in res.stderr
    assert "Traceback" not in res.stderr and len(res.stderr.strip().splitlines()) == 1
    assert sorted(p.name for p in ROOT.iterdir()) == before  # nothing created (no lock, no folder)


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (("run", "configs/default.yaml", "--count", "abc"), "--count: 'abc' is not a valid integer"),
        (("run", "configs/default.yaml", "--seed", "1.5"), "--seed: '1.5' is not a valid integer"),
        (("run", "configs/default.yaml", "--max-minutes", "0"),
         "--max-minutes: '0': input should be greater than or equal to 0.01"),
        (("solve", "x", "--limit", "0"), "--limit: '0': input should be greater than or equal to 1"),
        (("solve", "x", "--bogus"), "No such option: --bogus"),
        (("run",), "Missing argument 'config'."),
    ],
)
def test_bad_option_values_are_one_line_not_a_usage_box(args: tuple[str, ...], line: str) -> None:
    """Regression (issue 12, item 10): typer printed a 5-6 line usage box for these."""
    before = sorted(p.name for p in ROOT.iterdir())
    res = numplace(*args)
    assert res.returncode == 2
    assert error_line(res.stderr).startswith(f"numplace: error: {line}"), res.stderr
    assert len(res.stderr.strip().splitlines()) == 1 and "Usage" not in res.stderr
    assert sorted(p.name for p in ROOT.iterdir()) == before


@pytest.mark.deep
def test_help_version_and_exit_codes_survive_the_one_line_errors() -> None:
    from pipeline import __version__

    assert numplace("--version").stdout.strip() == f"numplace {__version__}"
    helped = numplace("solve", "--help")
    assert helped.returncode == 0 and "Usage" in helped.stdout and "--count" in helped.stdout
    assert numplace().returncode == 2  # the bare command prints the help, as before
    assert numplace("grid-from-number", "0").returncode == 0
    assert numplace("rate", "." * 81).returncode == 1
