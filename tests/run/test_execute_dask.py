"""The dask executor (issue 14), on the loopback interface only: the same puzzles as the local
executor, a worker killed mid-run changes nothing, an unreachable scheduler creates nothing (exit
2, one line), and a scheduler lost mid-run leaves a ``partial`` run (exit 3, one line) that another
executor finishes into the same set.

Two clusters, to keep the module quick: the LocalCluster a run starts itself (``kind: dask``
without a scheduler; a worker of it is killed), and one ``dask scheduler`` + ``dask worker``
pair of subprocesses (a run against its address, then its scheduler is killed)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl
import psutil
import pytest
from distributed import Client
from typer.testing import CliRunner

from pipeline import cli, config
from pipeline.run import execute, runner
from pipeline.run.manifest import read_manifest
from tests.conftest import error_line, said, tiny

pytestmark = [pytest.mark.heavy, pytest.mark.system]  # dask clusters of processes: the system tier

TIMING = ["gen_ms", "created_at"]  # the only columns that may differ between two makings of a set
BIN = Path(sys.executable).parent


def nine(out: Path, **over: object) -> dict:
    """The 9x9 set of these tests: 24 puzzles in parts of 4 (a run has parts left to lose)."""
    return tiny(out, count=24, output={"dir": str(out), "shard_size": 4}) | over


def four(out: Path, **over: object) -> dict:
    """All 7 distinct orthogonal-minimal 4x4 puzzles: grids collide, so redraws go through the
    executor too."""
    return tiny(out, name="four", seed=4, count=7, board={"size": 4},
                removal={"symmetry": "orthogonal", "minimal": True}, output={"dir": str(out), "shard_size": 3}) | over


def rows(run_dir: Path) -> pl.DataFrame:
    """A run's rows in index order, without the timing columns."""
    return pl.read_parquet(run_dir / "part-*.parquet").drop(TIMING).sort("index")


def run_dir_of(out: Path, name: str) -> Path:
    (found,) = [p for p in (out / name).iterdir() if p.is_dir() and not p.name.startswith(("_", "."))]
    return found


def plain_lines(stderr: str) -> list[str]:
    """What a user reads: stderr without the JSON log lines, but with ``run``'s last line as a terminal
    shows it (:func:`tests.conftest.said`)."""
    return said(stderr)


class Log:
    """A run's ``say``, kept: (message, fields) pairs."""

    def __init__(self) -> None:
        self.lines: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, message: str, /, **fields: Any) -> None:
        self.lines.append((message, fields))

    def events(self, event: str) -> list[str]:
        return [m for m, f in self.lines if f.get("event") == event]


@pytest.fixture(scope="module")
def local_nine(tmp_path_factory: pytest.TempPathFactory) -> pl.DataFrame:
    """The 9x9 set as the local executor makes it with one worker (in this process)."""
    summary = runner.run(config.validate(nine(tmp_path_factory.mktemp("local-nine"))))
    assert summary.status == "complete"
    return rows(summary.run_dir)


def _spawned() -> dict[int, psutil.Process]:
    """This process's children started by multiprocessing's spawn (a LocalCluster's workers; loky's
    are not)."""
    out = {}
    for p in psutil.Process().children():
        with contextlib.suppress(psutil.Error):
            if "spawn_main" in " ".join(p.cmdline()):
                out[p.pid] = p
    return out


def test_a_worker_killed_mid_run_changes_nothing(tmp_path: Path, local_nine: pl.DataFrame) -> None:
    """``kind: dask`` without a scheduler: the run starts a LocalCluster of 2 processes and says so.
    One of them is killed (SIGKILL) after the first chunk is back, while both run tasks: dask runs
    its tasks again, the nanny starts a new process, the run completes, ``numplace check`` passes
    and the set equals the local executor's, row for row (timing columns aside)."""
    killed: list[int] = []
    earlier = set(_spawned())  # not the run's

    def progress(done: int, _total: int) -> None:
        if done >= 1 and not killed:
            workers = [p for pid, p in sorted(_spawned().items()) if pid not in earlier]
            assert len(workers) == 2, workers
            workers[0].kill()
            killed.append(workers[0].pid)

    log = Log()
    cfg = config.validate(nine(tmp_path / "out", workers=2, executor={"kind": "dask", "local_workers": 2}))
    summary = runner.run(cfg, progress=progress, log=log)
    assert killed, "no worker was killed"
    assert summary.status == "complete" and summary.written == 24
    assert rows(summary.run_dir).equals(local_nine)
    (said,) = log.events("executor")
    assert said.startswith("executor: dask LocalCluster, 2 worker process(es) on this machine"), said
    dask_log = log.events("dask_log")
    assert f"dask: Worker process {killed[0]} was killed by signal 9" in dask_log, log.lines
    assert any(m.startswith("dask: Restarting worker") for m in dask_log), log.lines
    assert set(_spawned()) <= earlier, "the run's LocalCluster outlived the run"
    check = CliRunner().invoke(cli.app, ["check", str(summary.run_dir)])
    assert check.exit_code == 0 and check.stdout.strip().endswith("OK"), check.stdout + check.stderr


def test_an_unreachable_scheduler_creates_nothing(tmp_path: Path, write_config,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(execute, "CONNECT_TIMEOUT_S", 1.0)
    out = tmp_path / "out"
    res = CliRunner().invoke(cli.app, ["run", str(write_config(nine(out))), "--scheduler", "tcp://127.0.0.1:1"])
    assert res.exit_code == 2, res.stderr
    assert error_line(res.stderr) == ("numplace: error: executor.scheduler: cannot reach tcp://127.0.0.1:1 (no answer "
                                      "within 1 s); is a dask scheduler running there?"), res.stderr
    assert res.stderr.count("\n") == 1
    assert not out.exists()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _when(condition: Callable[[], bool], then: Callable[[], None], timeout: float = 120) -> threading.Thread:
    """A thread that calls ``then`` as soon as ``condition`` holds (checked every 20 ms)."""

    def watch() -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if condition():
                then()
                return
            time.sleep(0.02)

    t = threading.Thread(target=watch, daemon=True)
    t.start()
    return t


def test_a_scheduler_address_same_sets_then_the_scheduler_lost(tmp_path: Path, write_config,
                                                              local_nine: pl.DataFrame) -> None:
    """One ``dask scheduler`` and ``dask worker --nworkers 2 --nthreads 1`` on 127.0.0.1.

    1. A 4x4 set through ``--scheduler`` equals the local executor's with 1 and 2 workers (its
       redraws run on dask too); each worker process keeps the engine it built (two runs, same
       engine object), and its parent watchdog runs without ending it.
    2. A 9x9 run whose scheduler is killed after its first part: exit 3 and one line naming the
       scheduler and how to resume; status ``partial``, finished parts kept. ``--resume`` with the
       local executor finishes the same set."""
    address = f"tcp://127.0.0.1:{_free_port()}"
    logs = open(tmp_path / "dask.log", "w")  # noqa: SIM115  (closed in the finally block)
    procs = [subprocess.Popen([str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port",
                               address.rsplit(":")[-1], "--no-dashboard"], stdout=logs, stderr=logs,
                              start_new_session=True)]
    procs.append(subprocess.Popen([str(BIN / "dask"), "worker", address, "--nworkers", "2", "--nthreads", "1",
                                   "--no-dashboard"], stdout=logs, stderr=logs, start_new_session=True))

    def engines() -> dict[str, int]:  # defined here: cloudpickle ships it by value to the workers
        import os
        import threading

        from pipeline.ilp import engine

        watchdog = any(t.name == "numplace-parent-watchdog" for t in threading.enumerate())
        return {"pid": os.getpid(), "watchdog": int(watchdog), **{str(k): id(v) for k, v in engine._ENGINES.items()}}

    try:
        with Client(address, timeout=60, set_as_default=False) as probe:
            probe.wait_for_workers(2, timeout=120)
            sets = []
            for name, workers, flags in [("local1", 1, []), ("local2", 2, []), ("dask", 2, ["--scheduler", address])]:
                res = CliRunner().invoke(cli.app, ["run", str(write_config(four(tmp_path / name, workers=workers),
                                                                           name)), *flags])
                assert res.exit_code == 0, res.stderr
                sets.append(rows(run_dir_of(tmp_path / name, "four")))
            assert sets[0].height == 7 and sets[0].equals(sets[1]) and sets[0].equals(sets[2])
            assert read_manifest(run_dir_of(tmp_path / "dask", "four"))["totals"]["duplicates_replaced"] > 0
            first = probe.run(engines)
            res = CliRunner().invoke(cli.app, ["run", str(write_config(four(tmp_path / "again", count=3), "again")),
                                               "--scheduler", address])
            assert res.exit_code == 0, res.stderr
            assert probe.run(engines) == first
            assert all(w["watchdog"] == 1 for w in first.values()) and any(len(w) > 2 for w in first.values()), first

        out = tmp_path / "out"
        cfg = write_config(nine(out))
        _when(lambda: any(out.glob("tiny/*/part-*.parquet")), lambda: procs[0].send_signal(signal.SIGKILL))
        res = CliRunner().invoke(cli.app, ["run", str(cfg), "--scheduler", address])
    finally:
        for p in procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGKILL)
            p.wait(timeout=30)
        logs.close()
    run_dir = run_dir_of(out, "tiny")
    assert res.exit_code == 3, res.stderr
    assert plain_lines(res.stderr) == [
        f"numplace: error: executor.scheduler: lost the connection to the dask scheduler {address} mid-run; "
        f"finished parts are kept; continue with: numplace run {cfg} --resume {run_dir}"], res.stderr
    assert read_manifest(run_dir)["status"] == "partial"
    parts = len(list(run_dir.glob("part-*.parquet")))
    assert 1 <= parts < 6, f"{parts} of 6 parts: the scheduler was not lost mid-run"
    summary = runner.run(config.load(cfg, config.executor_overrides("local", None)), resume=run_dir)
    assert summary.status == "complete"
    assert rows(run_dir).equals(local_nine)
