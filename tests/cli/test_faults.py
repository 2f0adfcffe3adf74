"""Faults a nightly job meets (issue 12): SIGTERM, a kill while the run folder is made, a full disk,
a damaged catalog, ``--resume`` with another ``--out``. Each ends in one line, a documented exit code
and a run that resumes."""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from pipeline import atomic, cli
from pipeline.config import load
from pipeline.run import plan as planmod
from pipeline.run import runner, store
from pipeline.run.manifest import read_manifest
from tests.conftest import ROOT, error_line, numplace, said, tiny

pytestmark = [pytest.mark.heavy, pytest.mark.system]  # faults on real processes and file systems: the system tier


def run_dirs(out: Path, name: str = "tiny") -> list[Path]:
    """Every folder in the set folder except ``_``-names (lock, stock): runs and temp folders."""
    d = out / name
    return sorted(p for p in d.iterdir() if p.is_dir() and not p.name.startswith("_")) if d.is_dir() else []


def status(run_dir: Path) -> str:
    return str(read_manifest(run_dir)["status"])


def plain_lines(stderr: str) -> list[str]:
    """What a user reads: stderr without the JSON log lines, but with ``run``'s last line as a terminal
    shows it (:func:`tests.conftest.said`)."""
    return said(stderr)


# --- 1. SIGTERM ends the run like Ctrl-C --------------------------------------------------------------------

def test_sigterm_ends_the_run_like_ctrl_c_and_resume_finishes_it(tmp_path: Path, write_config) -> None:
    out = tmp_path / "out"
    cfg = write_config(tiny(out, count=60, workers=2, output={"dir": str(out), "shard_size": 10}))
    proc = subprocess.Popen([sys.executable, "-m", "pipeline", "run", str(cfg)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 300
        while not list(out.glob("tiny/*/part-*.parquet")):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no part appeared"
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGTERM)  # the main process only, as systemd's stop or kill(1) would
        _, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    (run_dir,) = run_dirs(out)
    assert proc.returncode == 143, stderr
    msgs = [ln for ln in plain_lines(stderr) if "SIGTERM" in ln]
    assert len(msgs) == 1 and f"--resume {run_dir}" in msgs[0], stderr
    assert status(run_dir) == "interrupted"
    assert len(list(run_dir.glob("part-*.parquet"))) < 6, "the run finished before the signal: nothing tested"
    res = numplace("run", str(cfg), "--resume", str(run_dir))
    assert res.returncode == 0, res.stderr
    assert status(run_dir) == "complete"
    assert pl.read_parquet(run_dir / "part-*.parquet")["index"].n_unique() == 60


# --- 2. a kill between making the run folder and writing its manifest ----------------------------------------

def test_a_failure_while_the_run_folder_is_made_leaves_no_run_folder(tmp_path: Path, write_config,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    cfg = load(write_config(tiny(out, count=2)))
    made: list[Path] = []

    def crash(run_dir: Path, **_kw: object) -> None:
        made.append(run_dir)
        assert run_dir.is_dir()  # the temp folder exists: the crash comes after it
        raise OSError(errno.EIO, "simulated crash")

    monkeypatch.setattr(planmod.Manifest, "create", crash)
    with pytest.raises(OSError, match="simulated crash"):
        runner.run(cfg)
    assert made and made[0].parent.name.startswith(".")
    assert run_dirs(out) == [] and not any(p.name.endswith(".tmp") for p in (out / "tiny").iterdir())
    monkeypatch.undo()
    summary = runner.run(cfg)
    assert summary.status == "complete" and run_dirs(out) == [summary.run_dir]


def test_a_temp_run_folder_left_by_a_kill_is_removed_by_the_next_run(tmp_path: Path, write_config,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    cfg_path = write_config(tiny(out, count=2))
    cfg = load(cfg_path)

    def killed(run_dir: Path, **_kw: object) -> None:
        raise KeyboardInterrupt  # stands for kill -9: below, nothing cleans up after it

    monkeypatch.setattr(planmod.Manifest, "create", killed)
    monkeypatch.setattr(planmod, "_remove_temp_run", lambda _holder: None)
    with pytest.raises(KeyboardInterrupt):
        runner.run(cfg)
    monkeypatch.undo()
    (left,) = run_dirs(out)
    assert left.name.startswith(".") and left.name.endswith(".tmp")
    res = numplace("run", str(cfg_path))  # the real CLI: neither `runs` nor the run trips over the leftover
    assert res.returncode == 0, res.stderr
    assert "a run folder left unfinished by a killed run" in res.stderr
    (run_dir,) = run_dirs(out)
    assert not run_dir.name.startswith(".") and status(run_dir) == "complete"
    assert numplace("runs", str(out)).returncode == 0


# --- 3. a full disk ----------------------------------------------------------------------------------------

def _invoke(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(cli.app, list(args))
    return res.exit_code, res.output


@pytest.mark.parametrize("how", ["enospc", "polars_with_no_space"])
def test_disk_full_gives_one_line_exit_4_and_a_resumable_run(how: str, tmp_path: Path, write_config,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    cfg = write_config(tiny(out, count=6, output={"dir": str(out), "shard_size": 3}))
    real = pl.DataFrame.write_parquet
    calls = {"parts": 0}

    def write_parquet(self: pl.DataFrame, file: object, *a: object, **kw: object) -> None:
        if ".part-" in str(file):
            calls["parts"] += 1
            if calls["parts"] >= 2:  # the first part fits, the second does not
                Path(str(file)).write_bytes(b"PAR1 half a part")
                if how == "enospc":
                    raise OSError(errno.ENOSPC, "No space left on device")
                raise pl.exceptions.ComputeError("parquet: Invalid thrift: transport error")
        real(self, file, *a, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(pl.DataFrame, "write_parquet", write_parquet)
    if how != "enospc":
        usage = shutil.disk_usage(tmp_path)
        monkeypatch.setattr(atomic.shutil, "disk_usage", lambda _p: usage._replace(free=512))
    code, output = _invoke("run", str(cfg))
    monkeypatch.undo()
    assert code == cli.ExitCode.DISK_FULL, output
    (run_dir,) = run_dirs(out)
    lines = plain_lines(output)
    assert len(lines) == 1, output
    events = [json.loads(x) for x in output.splitlines() if x.startswith("{")]
    full = [e for e in events if e.get("event") == "disk_full"]
    assert len(full) == 1 and full[0]["exit_code"] == 4, events  # one disk_full line, as promised (issue 51)
    assert lines[0].startswith(f"numplace: error: no space left on {run_dir / 'part-00001.parquet'}")
    assert f"--resume {run_dir}" in lines[0] and "Traceback" not in output and "thrift" not in lines[0]
    assert status(run_dir) == "interrupted"
    assert sorted(p.name for p in run_dir.iterdir() if p.name.startswith("part-")) == ["part-00000.parquet"]
    assert not list(run_dir.glob(".*.tmp"))
    code, output = _invoke("run", str(cfg), "--resume", str(run_dir))
    assert code == 0, output
    assert status(run_dir) == "complete"


def test_solve_out_on_a_full_disk_gives_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    puzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"

    def full(self: Path, *_a: object, **_kw: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_text", full)
    code, output = _invoke("solve", puzzle, "--out", str(tmp_path / "x.txt"))
    monkeypatch.undo()
    assert code == cli.ExitCode.DISK_FULL, output
    assert output.strip() == f"numplace: error: no space left on {tmp_path / 'x.txt'}"
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def small_fs(tmp_path: Path):
    """A 200 KiB tmpfs (needs root and permission to mount; skipped otherwise)."""
    mnt = tmp_path / "small"
    mnt.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small tmpfs needs root")
    res = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", str(mnt)], capture_output=True, text=True)
    if res.returncode != 0:
        pytest.skip(f"mount -t tmpfs is not permitted here: {res.stderr.strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def test_disk_full_on_a_real_small_filesystem(small_fs: Path, write_config) -> None:
    out = small_fs / "out"
    cfg = write_config(tiny(out, count=400, output={"dir": str(out), "shard_size": 2}))
    res = numplace("run", str(cfg))
    assert res.returncode == 4, res.stderr[-3000:]
    assert "Traceback" not in res.stderr
    lines = plain_lines(res.stderr)
    assert len(lines) == 1 and lines[0].startswith("numplace: error: no space left on "), res.stderr[-3000:]
    (run_dir,) = run_dirs(out)
    assert f"--resume {run_dir}" in lines[0]
    parts = len(list(run_dir.glob("part-*.parquet")))
    assert status(run_dir) in ("interrupted", "running") and parts >= 1
    subprocess.run(["mount", "-o", "remount,size=8m", str(small_fs)], check=True)  # space freed
    res = numplace("run", str(cfg), "--resume", str(run_dir))
    assert res.returncode == 0, res.stderr[-3000:]
    assert f"{parts} of 200 part(s) already written" in res.stderr
    assert status(run_dir) == "complete"
    assert numplace("check", str(run_dir)).returncode == 0


# --- 4. a damaged catalog file ------------------------------------------------------------------------------

def test_a_damaged_catalog_is_named_before_anything_is_made_and_repair_fixes_it(tmp_path: Path,
                                                                                write_config) -> None:
    out = tmp_path / "out"
    cfg = write_config(tiny(out, count=2))
    assert numplace("run", str(cfg)).returncode == 0
    (first,) = run_dirs(out)
    (entry,) = (out / store.CATALOG).glob("*.keys")
    good_keys = pl.read_parquet(entry)["key"].sort().to_list()
    entry.write_bytes(b"garbage, not parquet")

    res = numplace("run", str(cfg))
    assert res.returncode == 2, res.stderr
    assert len(res.stderr.strip().splitlines()) == 1  # one line: the refusal (a JSON log line, stderr is a pipe)
    line = error_line(res.stderr)
    assert line.startswith("numplace: error: ") and str(entry) in line and "numplace catalog --repair" in line
    assert run_dirs(out) == [first]  # nothing created

    res = numplace("catalog", "--out", str(out))
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1 and str(entry) in res.stderr, res.stderr

    res = numplace("catalog", "--repair", "--out", str(out))
    assert res.returncode == 0, res.stderr
    kept = out / store.CATALOG / store.DAMAGED / entry.name
    assert kept.read_bytes() == b"garbage, not parquet"
    assert f"moved damaged {entry} to {kept}" in res.stdout and "rebuilt" in res.stdout
    assert pl.read_parquet(entry)["key"].sort().to_list() == good_keys
    assert numplace("catalog", "--out", str(out)).returncode == 0
    res = numplace("run", str(cfg))
    assert res.returncode == 0, res.stderr
    assert len(run_dirs(out)) == 2


# --- 5. --resume with another --out -------------------------------------------------------------------------

def test_resume_with_another_out_keeps_the_catalog_entry_in_the_runs_own_root(tmp_path: Path,
                                                                              write_config) -> None:
    a, b = tmp_path / "A", tmp_path / "B"
    cfg = write_config(tiny(a, count=6, output={"dir": str(a), "shard_size": 3}))
    assert numplace("run", str(cfg)).returncode == 0
    (run_dir,) = run_dirs(a)
    # make it an interrupted run: a part missing, no catalog entry yet, status running
    (run_dir / "part-00001.parquet").unlink()
    for p in (a / store.CATALOG).glob("*.keys"):
        p.unlink()
    (run_dir / "_SUCCESS").unlink(missing_ok=True)
    data = json.loads((run_dir / "_manifest.json").read_text())
    data["status"] = "running"
    (run_dir / "_manifest.json").write_text(json.dumps(data))

    res = numplace("run", str(cfg), "--out", str(b), "--resume", str(run_dir))
    assert res.returncode == 0, res.stderr
    assert (a / store.CATALOG / store.catalog_name("tiny", run_dir.name)).is_file()
    assert pl.read_parquet(a / store.CATALOG / store.catalog_name("tiny", run_dir.name)).height == 6
    assert not b.exists()
