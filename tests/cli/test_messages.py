"""One line for each way a command can end badly: no warning after it, no ``None`` in it, no
Python internals, the right name for what was typed, and a line for every signal from the moment
the command line starts loading."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT, error_line, numplace, said, tiny


def plain_lines(stderr: str) -> list[str]:
    """What a user reads: stderr without the JSON log lines, but with ``run``'s last line as a terminal
    shows it (:func:`tests.conftest.said`)."""
    return said(stderr)


# --- the local executor stopped early says nothing of its own --------------------------------------------------

@pytest.mark.deep
@pytest.mark.heavy
def test_an_early_stop_of_the_local_executor_gives_no_joblib_warning(tmp_path: Path) -> None:
    """A run that stops while workers are busy (a full disk, a signal) closes the executor's results;
    joblib's "N tasks ... have been cancelled" UserWarning followed the run's one line (and broke the
    JSON-lines log)."""
    from pipeline.config import validate
    from pipeline.run.execute import LocalExecutor
    from pipeline.run.plan import job_of

    job = job_of(validate(tiny(tmp_path, count=8, workers=2)))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        results = LocalExecutor(2).map(job, [[i] for i in range(8)])
        assert next(iter(results))  # one chunk back, the others still running or queued
        results.close()  # type: ignore[attr-defined]
    assert [str(w.message) for w in caught if "cancelled" in str(w.message)] == []


# --- a config the process may not read ------------------------------------------------------------------------

@pytest.fixture
def handlers() -> Iterator[None]:
    """Put back this process's signal handlers after a test that runs ``cli.main`` in-process."""
    saved = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)}
    yield
    for s, h in saved.items():
        signal.signal(s, h)


def test_an_unreadable_path_is_named_by_its_argument(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture,
                                                      handlers: None) -> None:
    """typer's readable-path check found no option name for an argument: ``None: path ... is not readable``."""
    from pipeline import cli

    cfg = str(ROOT / "configs" / "default.yaml")
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, *a, **k: False if str(p) == cfg else real(p, mode, *a, **k))
    monkeypatch.setattr(sys, "argv", ["numplace", "run", cfg])
    with pytest.raises(SystemExit) as exc:
        cli.main()
    assert exc.value.code == 2
    err = capsys.readouterr().err  # run logs a refusal as JSON off a terminal
    assert error_line(err) == f"numplace: error: CONFIG: path {cfg!r} is not readable."
    assert "None" not in err


# --- what was typed, named as such ------------------------------------------------------------------------------

@pytest.mark.heavy
def test_grid_from_number_with_thousands_of_digits_is_out_of_range() -> None:
    res = numplace("grid-from-number", "1" * 5000)
    assert res.returncode == 2
    assert res.stderr.strip() == ("numplace: error: '11111111111111111111'... (5000 characters) is out of range "
                                  "0 .. 6670903752021072936959")
    assert "int" not in res.stderr and "sys." not in res.stderr


@pytest.mark.heavy
@pytest.mark.parametrize("value", ["-1", "-5", "--7"])
def test_grid_from_number_with_a_negative_number_names_the_number(value: str) -> None:
    res = numplace("grid-from-number", value)
    assert res.returncode == 2
    assert res.stderr.strip() == f"numplace: error: {value!r} is not a whole number in 0 .. 6670903752021072936959"


@pytest.mark.heavy
@pytest.mark.parametrize("command", ["solve", "rate", "canon"])
@pytest.mark.parametrize("arg", ["", "   "])
def test_an_empty_argument_is_not_the_current_folder(command: str, arg: str) -> None:
    res = numplace(command, arg)
    assert res.returncode == 2
    assert res.stderr.strip() == "numplace: error: empty argument: give a puzzle, a file of them, or - for stdin"


# --- signals ------------------------------------------------------------------------------------------------------

def _caught(pid: int) -> set[int]:
    """The signals process ``pid`` catches (``SigCgt`` of /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            mask = int(line.split()[1], 16)
            return {s for s in range(1, 64) if mask >> (s - 1) & 1}
    return set()


def _start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "pipeline", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))


@pytest.mark.heavy
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads SigCgt from /proc")
@pytest.mark.parametrize(("sig", "code", "line"), [
    (signal.SIGTERM, 143, "numplace: terminated (SIGTERM)"),
    (signal.SIGQUIT, 143, "numplace: terminated (SIGQUIT)"),
    (signal.SIGHUP, 143, "numplace: terminated (SIGHUP)"),
    (signal.SIGINT, 130, "numplace: interrupted"),
])
def test_a_signal_while_the_command_line_loads_gets_its_line(sig: signal.Signals, code: int, line: str,
                                                              tmp_path: Path) -> None:
    """The moment the process catches SIGQUIT (the command line has begun to load, typer and the
    commands not yet), the signal is sent: it used to end the process silently (-15, -3) or with a
    traceback (Ctrl-C), and the run's config was not even read yet."""
    proc = _start("run", str(ROOT / "configs" / "default.yaml"), "--out", str(tmp_path / "out"))
    try:
        deadline = time.monotonic() + 60
        while signal.SIGQUIT not in _caught(proc.pid):
            assert proc.poll() is None and time.monotonic() < deadline, "the process never caught SIGQUIT"
            time.sleep(0.001)
        os.kill(proc.pid, sig)
        _, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == code, stderr
    assert plain_lines(stderr)[-1].startswith(line), stderr
    assert all(ln.startswith("{") for ln in stderr.splitlines()), stderr  # run's log (not a terminal): JSON lines
    assert "Traceback" not in stderr
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").rglob("part-*.parquet"))


#: A signal that arrives while the main thread is inside a callback from C (what numba does while it
#: loads a kernel from its cache): ctypes swallows the KeyboardInterrupt and prints "Exception ignored".
IN_A_CALLBACK = r"""
import ctypes, os, signal, sys, time
from pipeline.cli import signals
signals.install()
signals.arm()

@ctypes.CFUNCTYPE(ctypes.c_int)
def callback():
    os.kill(os.getpid(), signal.SIGINT)
    for _ in range(1000):  # the handler runs here, inside the callback
        pass
    return 0

try:
    callback()
    t0 = time.monotonic()
    while time.monotonic() - t0 < 5:
        time.sleep(0.01)
    print("the interrupt was lost")
except KeyboardInterrupt:
    print("interrupted", signals.exit_code())
"""


def test_a_signal_inside_a_callback_from_c_still_ends_the_command() -> None:
    """The soak saw Ctrl-C land while numba loaded a kernel: the run printed a traceback and then
    finished as if nothing had happened. The interrupt is delivered again once the callback returns."""
    res = subprocess.run([sys.executable, "-c", IN_A_CALLBACK], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert res.stdout.strip() == "interrupted 130", (res.stdout, res.stderr)
    assert "Exception ignored" not in res.stderr and "Traceback" not in res.stderr, res.stderr


#: The command ends within the 50 ms before a swallowed interrupt is delivered again: its work is done.
ENDED_MEANWHILE = r"""
import atexit, ctypes, os, signal
from pipeline.cli import signals
signals.install()
signals.arm()
atexit.register(lambda: print("exit handlers ran"))

@ctypes.CFUNCTYPE(ctypes.c_int)
def callback():
    os.kill(os.getpid(), signal.SIGTERM)
    for _ in range(1000):
        pass
    return 0

callback()
signals.disarm()  # what main does last
import time; time.sleep(0.3)
print("ended", signals.received())
"""


def test_a_delivery_again_after_the_command_ended_is_cancelled() -> None:
    res = subprocess.run([sys.executable, "-c", ENDED_MEANWHILE], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert res.stdout.split("\n")[:2] == ["ended 15", "exit handlers ran"], (res.stdout, res.stderr)
    assert "Traceback" not in res.stderr, res.stderr


#: A signal whose interrupt native code turns into an error of its own (the soak saw polars report
#: "'<unprintable str object>' is not a Polars data type" for a SIGTERM that landed while it built a part).
MANGLED = r"""
import os, signal, sys, time
from pipeline.cli import main
from pipeline.run import runner

def run(*args, **kwargs):
    try:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)
    except KeyboardInterrupt:
        raise TypeError("'<unprintable str object>' is not a Polars data type") from None

runner.run = run
sys.argv = ["numplace", "run", sys.argv[1], "--out", sys.argv[2]]
main()
"""


def test_a_signal_that_native_code_turned_into_another_error_ends_the_command_as_terminated(tmp_path: Path) -> None:
    res = subprocess.run([sys.executable, "-c", MANGLED, str(ROOT / "configs" / "default.yaml"), str(tmp_path / "out")],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert res.returncode == 143, res.stderr
    assert "Traceback" not in res.stderr and "Polars" not in res.stderr, res.stderr
    assert plain_lines(res.stderr)[-1].startswith("numplace: terminated (SIGTERM)"), res.stderr


def test_an_error_after_the_command_said_it_was_terminated_keeps_exit_143(tmp_path: Path) -> None:
    """After SIGHUP the terminal is gone: the command's own last line may fail to be written (EIO)."""
    script = MANGLED.replace('raise TypeError("\'<unprintable str object>\' is not a Polars data type") from None',
                             'from pipeline.cli import signals\n        signals.report()\n'
                             '        raise OSError(5, "Input/output error") from None')
    assert "signals.report()" in script
    res = subprocess.run([sys.executable, "-c", script, str(ROOT / "configs" / "default.yaml"), str(tmp_path / "out")],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert res.returncode == 143, res.stderr
    assert "Traceback" not in res.stderr, res.stderr


@pytest.mark.heavy
@pytest.mark.system
def test_sigquit_during_a_run_marks_it_interrupted_and_names_the_resume(tmp_path: Path, write_config) -> None:
    """SIGQUIT used to end the run with a core dump: no line, status ``running`` for ever."""
    from pipeline.run.manifest import read_manifest

    out = tmp_path / "out"
    cfg = write_config(tiny(out, count=60, workers=2, output={"dir": str(out), "shard_size": 10}))
    proc = _start("run", str(cfg))
    try:
        deadline = time.monotonic() + 300
        while not list(out.glob("tiny/*/part-*.parquet")):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no part appeared"
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGQUIT)
        _, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 143, stderr
    (run_dir,) = [p for p in (out / "tiny").iterdir() if p.is_dir() and not p.name.startswith("_")]
    assert plain_lines(stderr) == [f"numplace: terminated (SIGQUIT); finished parts are kept. Continue with: "
                                   f"numplace run {cfg} --resume {run_dir}"]
    assert read_manifest(run_dir)["status"] == "interrupted"
    res = numplace("run", str(cfg), "--resume", str(run_dir))
    assert res.returncode == 0, res.stderr[-2000:]
    assert read_manifest(run_dir)["status"] == "complete"
