"""Workers die with their parent: after ``kill -9`` of ``numplace run`` no loky worker keeps running.

The end-to-end test starts a run with two workers in its own session, waits until both workers are
busy making puzzles, kills only the main process with SIGKILL, and then watches the session: every
process left in it must be gone within ``GRACE_S`` seconds. Allowed to stay: zombies (dead, only
waiting for whoever adopted them to reap them; a container's init may never do it) and the resource
trackers (loky's and multiprocessing's helper processes, command line ``...resource_tracker...``:
they make no puzzles and hold no work, they are not ours to stop, and they end by themselves once
the last process holding their pipe is gone, a moment after the workers; in practice they are gone
too). Whatever is left at the end is killed in a ``finally`` block, so the test never leaks
processes.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from pipeline.run import work
from tests.conftest import ROOT, tiny

GRACE_S = 10.0  # the watchdog polls once a second; 10 s leaves room for a loaded machine


def _proc(pid: int) -> tuple[int, int, str, str] | None:
    """(parent pid, session id, state, command line) of a live process, or None if it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2:].split()  # after "pid (comm) ": state ppid pgrp session ...
    return int(fields[1]), int(fields[3]), fields[0], cmd


def _session(sid: int) -> dict[int, tuple[int, str, str]]:
    """The processes of session ``sid``: pid -> (parent pid, state, command line)."""
    out = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (p := _proc(int(entry.name))) is not None and p[1] == sid:
            out[int(entry.name)] = (p[0], p[2], p[3])
    return out


def _is_tracker(cmd: str) -> bool:
    return "resource_tracker" in cmd


@pytest.mark.heavy
@pytest.mark.system
@pytest.mark.parametrize("moment", ["busy", "starting"])
def test_workers_exit_when_the_run_is_killed(moment: str, tmp_path: Path, write_config) -> None:
    """``busy``: killed once both workers have made puzzles. ``starting``: killed 0.3 s after the
    first worker appears, while the workers still import (found by bench/crash_test.py: a worker
    that took its first queued task after the run had died watched init, and ran on for minutes)."""
    out = tmp_path / "out"
    cfg = write_config(tiny(out, count=160, workers=2, output={"dir": str(out), "shard_size": 10}))
    with open(tmp_path / "stderr.txt", "w") as err:
        proc = subprocess.Popen([sys.executable, "-m", "pipeline", "run", str(cfg)], cwd=ROOT,
                                stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
    sid = proc.pid  # start_new_session: the run leads its own session and process group
    try:
        # Busy workers: two loky children of the run, and a first part written (so tasks have run
        # in them, and each has started its watchdog with its first task).
        deadline = time.monotonic() + 300
        workers: list[int] = []
        while time.monotonic() < deadline:
            assert proc.poll() is None, (tmp_path / "stderr.txt").read_text()
            workers = [pid for pid, (ppid, _, cmd) in _session(sid).items()
                       if ppid == proc.pid and "loky" in cmd and not _is_tracker(cmd)]
            if moment == "starting" and workers:
                time.sleep(0.3)
                break
            if len(workers) >= 2 and any(out.glob("tiny/*/part-*.parquet")):
                break
            time.sleep(0.05 if moment == "starting" else 0.1)
        assert workers and (moment == "starting" or len(workers) >= 2), f"no workers appeared: {_session(sid)}"
        parts = len(list(out.glob("tiny/*/part-*.parquet")))
        assert parts < 16, f"the run was nearly done before the kill ({parts} of 16 parts)"

        os.kill(proc.pid, signal.SIGKILL)  # only the main process
        proc.wait(timeout=30)
        killed_at = time.monotonic()
        left: dict[int, tuple[int, str, str]] = {}
        while time.monotonic() < killed_at + GRACE_S:
            left = {pid: p for pid, p in _session(sid).items() if p[1] != "Z" and not _is_tracker(p[2])}
            if not left:
                break
            time.sleep(0.2)
        assert left == {}, f"still running {time.monotonic() - killed_at:.1f} s after kill -9 of the run: {left}"
    finally:
        for pid in _session(sid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)


def test_no_watchdog_in_the_main_process() -> None:
    """With one worker joblib runs ``make_items`` in the main process: no watchdog starts there."""
    assert work.watch_parent() is False
    assert not any(t.name == "numplace-parent-watchdog" for t in threading.enumerate())
