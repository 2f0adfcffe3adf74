"""A refusal of ``run`` follows its log format: one JSON log line when stderr is not a terminal (so
a scheduler's log parser sees it), the plain ``numplace: error:`` line on a terminal; other
commands keep the plain line."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, error_line, numplace, tiny


@pytest.mark.parametrize("args", [("run", "missing.yaml"), ("run", "configs/default.yaml", "--count", "abc"),
                                  ("run",)])
def test_a_run_refusal_is_one_json_log_line(args: tuple[str, ...]) -> None:
    res = numplace(*args)
    assert res.returncode == 2
    (line,) = res.stderr.splitlines()
    record = json.loads(line)
    assert set(record) == {"ts", "level", "event", "exit_code", "message"}
    assert (record["level"], record["event"], record["exit_code"]) == ("error", "refused", 2)
    assert record["ts"].endswith("Z") and not record["message"].startswith("numplace:")


@pytest.mark.deep
def test_the_same_refusal_on_a_terminal_is_the_plain_line(tmp_path: Path, write_config: Any) -> None:
    cfg = write_config(tiny(tmp_path / "out") | {"removel": {}})
    leader, follower = pty.openpty()
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.run([sys.executable, "-m", "pipeline", "run", str(cfg)], cwd=ROOT, env=env,
                          stdout=subprocess.PIPE, stderr=follower, timeout=300)
    os.close(follower)
    err = os.read(leader, 65536).decode()
    os.close(leader)
    assert proc.returncode == 2
    assert err.strip() == "numplace: error: removel: unknown key (did you mean removal?)"
    piped = numplace("run", str(cfg))
    assert error_line(piped.stderr) == err.strip() and piped.stderr.startswith("{")


def test_other_commands_keep_the_plain_line() -> None:
    res = numplace("check", "nowhere")
    assert res.returncode == 2 and res.stderr == "numplace: error: nowhere: no such file or folder\n"
