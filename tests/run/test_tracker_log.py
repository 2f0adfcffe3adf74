"""The JSON log of a run killed with ``kill -9`` holds JSON only (issue 51 item 5).

loky's resource tracker is a helper process that shares the run's stderr and outlives the run; after
``kill -9`` of the run it unlinks the semaphores and memmap folders the run left and used to warn about
them in plain text (``UserWarning: resource_tracker: There appear to be 8 leaked semlock objects ...``
and its ``warnings.warn(`` source line: four plain lines in every log, 3 of 3 runs before the fix).
The executor now starts its processes with the tracker's own warnings filtered
(:func:`pipeline.run.execute.quiet_resource_trackers`); the tracker still cleans up.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline.run import execute
from tests.conftest import ROOT, tiny


def test_the_tracker_filter_is_added_once_after_what_is_there(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONWARNINGS", "default")
    execute.quiet_resource_trackers()
    execute.quiet_resource_trackers()
    assert os.environ["PYTHONWARNINGS"] == f"default,{execute.TRACKER_FILTER}"  # last: it wins over "default"
    monkeypatch.delenv("PYTHONWARNINGS")
    execute.quiet_resource_trackers()
    assert os.environ["PYTHONWARNINGS"] == execute.TRACKER_FILTER


def test_the_filter_hides_the_trackers_warning_and_no_other() -> None:
    """A child started with the filter, as the tracker is: its leak warning is gone, another
    UserWarning is still shown."""
    code = ("import warnings; warnings.warn('resource_tracker: There appear to be 1 leaked semlock objects'); "
            "warnings.warn('something else')")
    env = dict(os.environ, PYTHONWARNINGS=execute.TRACKER_FILTER)
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert "resource_tracker" not in res.stderr and "UserWarning: something else" in res.stderr, res.stderr


@pytest.mark.heavy
@pytest.mark.system
def test_kill_9_of_a_run_leaves_only_json_lines_in_its_log(tmp_path: Path, write_config) -> None:
    out = tmp_path / "out"
    cfg = write_config(tiny(out, count=40, workers=2, board={"size": 6}, removal={"symmetry": "none", "minimal": True},
                            output={"dir": str(out), "shard_size": 2}))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}
    proc = subprocess.Popen([sys.executable, "-m", "pipeline", "run", str(cfg)], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 300
        while not any(out.glob("tiny/*/part-*.parquet")):  # the workers and the tracker are up
            assert proc.poll() is None and time.monotonic() < deadline, "the run ended before its first part"
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)  # the run only: the tracker and the workers outlive it
        _, err = proc.communicate(timeout=120)  # to the end of stderr: the tracker and workers gone too
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    lines = err.splitlines()
    assert lines, "the run logged nothing"
    plain = []
    for line in lines:
        try:
            json.loads(line)
        except ValueError:
            plain.append(line)
    assert plain == [], "\n".join(plain)
    assert not list(Path("/dev/shm").glob(f"joblib_memmapping_folder_{proc.pid}_*"))  # the tracker still cleaned up
