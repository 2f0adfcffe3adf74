#!/usr/bin/env python3
"""Crash test of ``numplace run``: kill a run at random moments, resume it, compare.

A clean run makes the reference set first (its wall time sets the range of kill moments). Then each
trial, in its own folder with a fresh output root:

1. starts ``numplace run CONFIG`` in its own session (so its process group and session id are its
   pid), with an environment variable ``NUMPLACE_CRASH_TRIAL=<token>`` that only this trial's
   processes carry;
2. sleeps a seeded random delay (stratified: trial ``i`` of ``n`` draws from the ``i``-th ``n``-th of
   ``[0, clean wall time)``, in shuffled order, so the kills cover start-up, the workers' start,
   making parts and closing), notes the state (run folder, parts written, live workers), and sends
   one signal to the main process only, never to the group: workers must end by themselves.
   Signals cycle ``SIGKILL, SIGTERM, SIGKILL, SIGINT``. A run that is complete when its signal lands
   (the machine got faster than during the clean run) tested nothing: it is deleted and the moment
   drawn again at the same fraction of the time that run took (up to :data:`MAX_REDRAWS`
   times; the trial line says ``redrawn``);
3. watches the trial's processes for ``--grace`` seconds (5) after the main process has ended: a
   process is the trial's when it is not a zombie and (a) it was a descendant of the run at some
   moment up to the kill (pid *and* start time recorded, so a reused pid is not taken for it), or
   (b) its session id is the run's pid (every descendant that does not call ``setsid`` keeps it, and
   Linux never reuses a pid still in use as a session id), or (c) its ``/proc/PID/environ`` holds the
   trial's token (a descendant that did call ``setsid``). Nothing else on the machine can match, so
   other people's processes are never counted. Whatever is left after the grace period is an
   *orphan*: counted, shown (``worker``: a loky worker; ``tracker``: a resource tracker), then killed
   so that it cannot disturb later trials. The resume is watched the same way;
4. resumes with ``numplace run CONFIG --resume RUN_DIR`` (a fresh ``numplace run CONFIG`` when the
   kill came before the run folder existed), then ``numplace check`` on the set folder;
5. compares every row with the clean run, by ``puzzle_id``, on every column except the run-dependent
   ones (:data:`RUN_DEPENDENT`: ``gen_ms`` and ``created_at``, the wall-clock time of making a
   puzzle and the moment it was made): *lost* (ids of the clean set missing), *extra* (ids the clean
   set lacks), *duplicated* (surplus rows of one id, and of one puzzle under different ids), and
   *different* (same id, other content).

A trial passes with 0 orphans, resume exit 0, ``check`` OK, status ``complete`` with ``_SUCCESS``,
one run folder, no temp files left, and 0 lost, extra, duplicated and different rows. (The clean set
is not checked on its own: every trial's set passes ``numplace check`` and equals it.) Exit codes after the signal are
checked against the contract of docs/cli.md "Exit codes" (143 / 130 and status ``interrupted`` for
SIGTERM / SIGINT once the run folder exists; -9 for SIGKILL) and reported as *signal notes*;
``--strict-signals`` makes a note fail its trial. Prints one line per trial and a summary; exit status 0 only when every
trial passes.

    .venv/bin/python bench/crash_test.py --trials 24 --seed 1 [--workers 2] [--config PATH]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl
import yaml

ROOT = Path(__file__).resolve().parents[1]
_SCRIPT = Path(sys.executable).with_name("numplace")  # the console script of this interpreter's venv
#: How ``numplace`` is started: the venv's console script, else ``python -m pipeline``.
NUMPLACE: list[str] = [str(_SCRIPT)] if _SCRIPT.is_file() else [sys.executable, "-m", "pipeline"]
TOKEN_VAR = "NUMPLACE_CRASH_TRIAL"
#: Columns whose values depend on when and how fast a puzzle was made, not on (config, index).
RUN_DEPENDENT = ("gen_ms", "created_at")
#: The signals trials cycle through (``--signals`` chooses another cycle).
SIGNALS = (signal.SIGKILL, signal.SIGTERM, signal.SIGKILL, signal.SIGINT)
#: Times a trial whose run finished before its signal is drawn again (a busy machine makes runs slower
#: or faster than the clean run).
MAX_REDRAWS = 3
#: The exit code docs/cli.md "Exit codes" promises once the run is under way, and the status the manifest must say.
PROMISED = {signal.SIGTERM: (143, "interrupted"), signal.SIGINT: (130, "interrupted")}
Say = Callable[[str], None]


def default_config(workers: int, count: int, shard_size: int) -> dict[str, Any]:
    """A small 9x9 set: ``count`` orbit-minimal rot180 puzzles in parts of ``shard_size``."""
    return {
        "name": "crash",
        "seed": 20261123,
        "count": count,
        "board": {"size": 9},
        "removal": {"symmetry": "rot180", "minimal": True},
        "workers": workers,
        "output": {"dir": "out", "shard_size": shard_size},
    }


# --- processes -------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Proc:
    """One process as /proc shows it."""

    pid: int
    ppid: int
    sid: int
    state: str
    start: int  # start time in clock ticks after boot: (pid, start) names a process for good
    cmd: str

    @property
    def kind(self) -> str:
        """``tracker`` (a multiprocessing/loky resource tracker), ``worker`` (a loky/joblib worker), ``main``
        (numplace itself) or ``other``."""
        if "resource_tracker" in self.cmd:
            return "tracker"
        if "loky" in self.cmd or "joblib" in self.cmd:
            return "worker"
        if "numplace" in self.cmd or "pipeline" in self.cmd:
            return "main"
        return "other"

    def describe(self) -> str:
        return f"{self.pid} {self.kind} [{self.state}] {self.cmd[:90]}"


def read_proc(pid: int) -> Proc | None:
    """The process ``pid``, or None when it is gone (or unreadable)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return None
    f = stat[stat.rindex(")") + 2:].split()  # after "pid (comm) ": state ppid pgrp session ... starttime (22nd)
    return Proc(pid, int(f[1]), int(f[3]), f[0], int(f[19]), cmd)


def all_procs() -> list[Proc]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (p := read_proc(int(entry.name))) is not None:
            out.append(p)
    return out


def has_token(pid: int, token: str) -> bool:
    """True if the environment ``pid`` started with holds ``NUMPLACE_CRASH_TRIAL=token``."""
    try:
        env = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return False
    return f"{TOKEN_VAR}={token}".encode() in env.split(b"\0")


def descendants(root: int) -> dict[int, Proc]:
    """The live descendants of ``root`` (not ``root`` itself), by pid."""
    procs = all_procs()
    children: dict[int, list[Proc]] = {}
    for p in procs:
        children.setdefault(p.ppid, []).append(p)
    out: dict[int, Proc] = {}
    todo = [root]
    while todo:
        for c in children.get(todo.pop(), []):
            if c.pid not in out:
                out[c.pid] = c
                todo.append(c.pid)
    return out


class Trace:
    """The processes of one ``numplace`` invocation: its session, its recorded descendants, its token."""

    def __init__(self, token: str, sid: int) -> None:
        self.token, self.sid = token, sid
        self.known: set[tuple[int, int]] = set()  # (pid, start time) of descendants seen before the kill

    def record(self, root: int) -> list[Proc]:
        """Remember the current descendants of ``root``; returns them."""
        found = list(descendants(root).values())
        self.known.update((p.pid, p.start) for p in found)
        return found

    def live(self) -> list[Proc]:
        """The trial's processes still running (zombies are dead: they only wait to be reaped)."""
        return [p for p in all_procs() if p.state not in ("Z", "X") and
                (p.sid == self.sid or (p.pid, p.start) in self.known or has_token(p.pid, self.token))]

    def watch(self, grace: float) -> tuple[list[Proc], float]:
        """Poll until none of the trial's processes runs or ``grace`` seconds have passed; returns those
        still running then and the seconds it took the last one to go (``grace`` when some stay)."""
        t0 = time.monotonic()
        while True:
            left = self.live()
            waited = time.monotonic() - t0
            if not left or waited >= grace:
                return left, waited
            time.sleep(0.05)

    def kill_all(self) -> None:
        """SIGKILL whatever is left (checked by pid and start time: never another process)."""
        for p in self.live():
            again = read_proc(p.pid)
            if again is not None and again.start == p.start:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(p.pid, signal.SIGKILL)


def env_with(token: str) -> dict[str, str]:
    return dict(os.environ, PYTHONUNBUFFERED="1", **{TOKEN_VAR: token})


def default_signals() -> None:
    """In the child before exec: SIGINT and SIGTERM as a fresh login would have them. A background
    job of a non-interactive shell inherits SIGINT ignored, and Python keeps an ignored SIGINT, so
    without this a SIGINT trial would test nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def invoke(args: Sequence[str | Path], log: Path, timeout: float = 900) -> tuple[int, list[Proc], float]:
    """Run ``numplace ARGS`` to the end (stderr to ``log``); returns its exit code, the processes of
    it still running ``5`` s after it ended (killed then), and how long that took to settle."""
    token = secrets.token_hex(8)
    with open(log, "a") as err:
        proc = subprocess.Popen([*NUMPLACE, *map(str, args)], cwd=ROOT, env=env_with(token),
                                stdout=err, stderr=err, start_new_session=True, preexec_fn=default_signals)
    trace = Trace(token, proc.pid)
    try:
        rc = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        trace.kill_all()
        proc.kill()
        rc = proc.wait()
    left, waited = trace.watch(5.0)
    trace.kill_all()
    return rc, left, waited


# --- sets ------------------------------------------------------------------------------------------------------

def run_dirs(set_dir: Path) -> list[Path]:
    """Run folders of a set (with a manifest; not ``.<run_id>.tmp`` holders, not ``_lock``/``_stock``)."""
    if not set_dir.is_dir():
        return []
    return sorted(d for d in set_dir.iterdir()
                  if d.is_dir() and not d.name.startswith((".", "_")) and (d / "_manifest.json").is_file())


def manifest(run_dir: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((run_dir / "_manifest.json").read_text())
    return data


def parts_of(set_dir: Path) -> list[Path]:
    return [p for d in run_dirs(set_dir) for p in sorted(d.glob("part-*.parquet"))]


def read_set(set_dir: Path) -> pl.DataFrame:
    """Every row of every part of every run of the set, in file order."""
    parts = parts_of(set_dir)
    return pl.concat([pl.read_parquet(p) for p in parts], how="vertical") if parts else pl.DataFrame()


def leftovers(set_dir: Path) -> list[str]:
    """Temp names a finished set should not hold: ``.<run_id>.tmp`` holders and dot-files in run folders."""
    if not set_dir.is_dir():
        return []
    out = [d.name for d in set_dir.iterdir() if d.name.startswith(".")]
    out += [f"{d.name}/{f.name}" for d in run_dirs(set_dir) for f in d.iterdir() if f.name.startswith(".")]
    return sorted(out)


@dataclass
class Diff:
    """A trial's set against the clean set."""

    rows: int = 0
    lost: int = 0
    extra: int = 0
    duplicated: int = 0
    different: int = 0
    examples: list[str] = field(default_factory=list)

    @property
    def equal(self) -> bool:
        return not (self.lost or self.extra or self.duplicated or self.different)


def compare(clean: pl.DataFrame, got: pl.DataFrame) -> Diff:
    """Lost, extra, duplicated and different rows of ``got`` against ``clean`` (see the module doc)."""
    if got.height == 0:
        return Diff(0, clean.height, examples=["no rows at all"])
    cols = [c for c in clean.columns if c not in RUN_DEPENDENT]
    missing = [c for c in cols if c not in got.columns]
    if missing:
        return Diff(got.height, different=got.height, examples=[f"columns missing: {missing}"])
    want = {r[0]: r for r in clean.select(cols).rows()}
    have: dict[str, tuple[Any, ...]] = {}
    d = Diff(got.height)
    for r in got.select(cols).rows():
        if r[0] in have:
            d.duplicated += 1
            d.examples.append(f"{r[0]} twice")
        else:
            have[r[0]] = r
    key = "canonical_puzzle" if "canonical_puzzle" in cols else "puzzle"
    by_puzzle: dict[Any, str] = {}
    for pid, r in have.items():
        k = r[cols.index(key)] or r[cols.index("puzzle")]
        if k in by_puzzle:
            d.duplicated += 1
            d.examples.append(f"{pid} repeats the puzzle of {by_puzzle[k]}")
        else:
            by_puzzle[k] = pid
    lost, extra = sorted(set(want) - set(have)), sorted(set(have) - set(want))
    d.lost, d.extra = len(lost), len(extra)
    d.examples += [f"lost {i}" for i in lost[:3]] + [f"extra {i}" for i in extra[:3]]
    for pid in sorted(set(want) & set(have)):
        if want[pid] != have[pid]:
            d.different += 1
            cells = [c for c, a, b in zip(cols, want[pid], have[pid], strict=True) if a != b]
            d.examples.append(f"{pid} differs in {cells}")
    return d


# --- trials ----------------------------------------------------------------------------------------------------

@dataclass
class Trial:
    n: int
    sig: str
    delay: float
    redraws: int = 0  # times the run finished before the signal and the moment was drawn again
    state: str = ""  # what the run had done when the signal was sent
    rc: int | None = None  # exit code after the signal (negative: killed by that signal)
    status: str = "-"  # manifest status after the signal ("-": no run folder)
    orphans: list[str] = field(default_factory=list)
    gone_s: float = 0.0  # how long the trial's processes took to end after the kill
    action: str = ""  # "resume" or "fresh"
    resume_rc: int | None = None
    resume_left: list[str] = field(default_factory=list)  # processes of the resume still running 5 s after it
    check_rc: int | None = None
    final_status: str = "-"
    runs: int = 0
    diff: Diff = field(default_factory=Diff)
    junk: list[str] = field(default_factory=list)  # leftover temp names
    signal_notes: list[str] = field(default_factory=list)
    last_words: list[str] = field(default_factory=list)  # the killed run's last plain stderr lines
    errors: list[str] = field(default_factory=list)

    def failures(self, strict_signals: bool = False) -> list[str]:
        out = list(self.errors)
        if self.orphans:
            out.append(f"{len(self.orphans)} orphan(s): {self.orphans}")
        if self.resume_left:
            out.append(f"resume left processes: {self.resume_left}")
        if self.resume_rc != 0:
            out.append(f"{self.action} exit {self.resume_rc}")
        if self.check_rc != 0:
            out.append(f"check exit {self.check_rc}")
        if self.final_status != "complete":
            out.append(f"final status {self.final_status}")
        if self.runs != 1:
            out.append(f"{self.runs} run folders")
        if not self.diff.equal:
            out.append(f"set differs: {self.diff.examples[:5]}")
        if self.junk:
            out.append(f"temp files left: {self.junk}")
        if strict_signals:
            out += self.signal_notes
        return out

    def line(self, strict_signals: bool = False) -> str:
        rc = "-" if self.rc is None else str(self.rc)
        verdict = "PASS" if not self.failures(strict_signals) else "FAIL"
        d = self.diff
        at = f"{self.delay:5.2f}s" + (f" redrawn {self.redraws}x" if self.redraws else "")
        return (f"trial {self.n:2d}  {self.sig:7s}  at {at:17s}  {self.state:30s}  exit {rc:>4s}  "
                f"status {self.status:11s}  orphans {len(self.orphans)} (gone {self.gone_s:.1f}s)  "
                f"{self.action:6s} {self.resume_rc}  check {self.check_rc}  rows {d.rows}  lost {d.lost}  "
                f"dup {d.duplicated}  extra {d.extra}  diff {d.different}  equal {'yes' if d.equal else 'NO'}  "
                f"{verdict}")


class CrashTest:
    """The clean reference run and the trials, in a work folder."""

    def __init__(self, work: Path, cfg: dict[str, Any], grace: float, say: Say) -> None:
        self.work, self.cfg, self.grace, self.say = work, cfg, grace, say
        self.name = str(cfg["name"])
        self.clean: pl.DataFrame = pl.DataFrame()
        self.clean_s = 0.0
        self.parts_total = 0

    def write_config(self, folder: Path) -> Path:
        """The config, writing under ``folder/out``, as ``folder/config.yaml``."""
        folder.mkdir(parents=True, exist_ok=True)
        cfg = json.loads(json.dumps(self.cfg))
        cfg.setdefault("output", {})["dir"] = str(folder / "out")
        path = folder / "config.yaml"
        path.write_text(yaml.safe_dump(cfg, sort_keys=False), encoding="utf-8")
        return path

    def reference(self) -> None:
        """The clean run: the reference set and the wall time kills are drawn from."""
        folder = self.work / "clean"
        cfg = self.write_config(folder)
        t0 = time.monotonic()
        rc, left, _ = invoke(["run", cfg], folder / "stderr.log")
        self.clean_s = time.monotonic() - t0
        set_dir = folder / "out" / self.name
        if rc != 0:
            raise SystemExit(f"crash_test: the clean run failed (exit {rc}); see {folder / 'stderr.log'}")
        if left:
            raise SystemExit(f"crash_test: the clean run left processes: {[p.describe() for p in left]}")
        self.clean = read_set(set_dir)
        self.parts_total = len(parts_of(set_dir))
        self.say(f"# clean run: {self.clean.height} puzzles in {self.parts_total} parts, {self.clean_s:.2f} s wall "
                 f"(start to exit); {folder}")

    def state(self, set_dir: Path, workers: list[Proc]) -> str:
        runs = run_dirs(set_dir)
        busy = sum(1 for p in workers if p.kind == "worker")
        if not runs:
            holder = set_dir.is_dir() and any(d.name.startswith(".") for d in set_dir.iterdir())
            return "making the run folder" if holder else "starting, no run folder"
        parts = sum(1 for d in runs for _ in d.glob("part-*.parquet"))
        return f"parts {parts}/{self.parts_total}, {busy} workers"

    def signal_run(self, t: Trial, cfg: Path, sig: signal.Signals, delay: float, set_dir: Path, log: Path) -> float:
        """Start the run, send ``sig`` to its main process ``delay`` s later (unless it has ended), watch
        its processes; fills ``t.state``, ``t.rc``, ``t.orphans``, ``t.gone_s``; returns the seconds from
        the start to the end of the main process."""
        token = secrets.token_hex(8)
        t0 = time.monotonic()
        with open(log, "w") as err:
            proc = subprocess.Popen([*NUMPLACE, "run", str(cfg)], cwd=ROOT, env=env_with(token),
                                    stdout=err, stderr=err, start_new_session=True, preexec_fn=default_signals)
        trace = Trace(token, proc.pid)
        try:
            deadline = t0 + delay
            while (left := deadline - time.monotonic()) > 0 and proc.poll() is None:
                trace.record(proc.pid)  # keep the list of descendants current up to the kill
                time.sleep(min(0.05, left))
            if proc.poll() is None:
                t.state = self.state(set_dir, trace.record(proc.pid))
                os.kill(proc.pid, sig)  # the main process only: the workers must end by themselves
            else:
                t.state = f"finished first (exit {proc.returncode})"
            t.rc = proc.wait(timeout=300)
            elapsed = time.monotonic() - t0
            left_procs, t.gone_s = trace.watch(self.grace)
            t.orphans += [p.describe() for p in left_procs]
        finally:
            trace.kill_all()  # nothing of this trial may disturb the next (orphans are counted above)
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        return elapsed

    def trial(self, n: int, sig: signal.Signals, delay: float) -> Trial:
        folder = self.work / f"trial-{n:02d}"
        cfg = self.write_config(folder)
        set_dir = folder / "out" / self.name
        log = folder / "stderr.log"
        t = Trial(n, sig.name, delay)
        span = self.clean_s
        for attempt in range(MAX_REDRAWS + 1):
            shutil.rmtree(folder / "out", ignore_errors=True)
            t.delay, t.redraws = delay, attempt
            elapsed = self.signal_run(t, cfg, sig, delay, set_dir, log)
            if (runs := run_dirs(set_dir)) == [] or manifest(runs[-1]).get("status") != "complete":
                break
            # The run was complete before the signal could cut it short (it ran faster than the clean
            # run): nothing was tested, so draw again, at the same fraction of the time this run took.
            delay, span = delay * elapsed / span, elapsed
        plain = [ln for ln in log.read_text(errors="replace").splitlines()  # a JSON log's last line has an exit_code
                 if ln.strip() and (not ln.startswith("{") or '"exit_code"' in ln)]
        t.last_words = [ln[:200] for ln in plain[-2:]]
        runs = run_dirs(set_dir)
        if runs:
            t.status = str(manifest(runs[-1]).get("status"))
        self.signal_contract(t, sig, runs)
        if len(runs) > 1:
            t.errors.append(f"{len(runs)} run folders after one run")
        if runs:
            t.action = "resume"
            t.resume_rc, left_procs, _ = invoke(["run", cfg, "--resume", runs[-1]], folder / "resume.log")
        else:
            t.action = "fresh"
            t.resume_rc, left_procs, _ = invoke(["run", cfg], folder / "resume.log")
        t.resume_left = [p.describe() for p in left_procs]
        t.check_rc, _, _ = invoke(["check", set_dir], folder / "check.log")
        runs = run_dirs(set_dir)
        t.runs = len(runs)
        if runs:
            t.final_status = str(manifest(runs[-1]).get("status"))
            if t.final_status == "complete" and not (runs[-1] / "_SUCCESS").is_file():
                t.final_status = "complete without _SUCCESS"
        t.diff = compare(self.clean, read_set(set_dir))
        t.junk = leftovers(set_dir)
        return t

    @staticmethod
    def signal_contract(t: Trial, sig: signal.Signals, runs: list[Path]) -> None:
        """Exit code and status after the signal against docs/cli.md (notes, see the module doc)."""
        if t.status == "complete":
            # The signal came as the run ended or after (MAX_REDRAWS used up): nothing left to
            # interrupt. A SIGTERM in the interpreter's final teardown, where Python has put the
            # default action back, ends it with -15: harmless, the run is complete.
            return
        if t.state.startswith("finished"):
            t.signal_notes.append(f"finished on its own with exit {t.rc}, status {t.status}")
            return
        if sig == signal.SIGKILL:
            if t.rc != -signal.SIGKILL:
                t.signal_notes.append(f"SIGKILL gave exit {t.rc}")
            return
        code, status = PROMISED[sig]
        if runs:
            if t.rc != code or t.status != status:
                t.signal_notes.append(f"{sig.name} with a run folder: exit {t.rc}, status {t.status} "
                                      f"(docs/cli.md: exit {code}, status {status})")
        elif t.rc not in (code, -sig):  # before the run folder: the default action or the documented code
            t.signal_notes.append(f"{sig.name} before the run folder existed: exit {t.rc} (docs/cli.md: {code})")


def delays(trials: int, span: float, rng: random.Random) -> list[float]:
    """One moment per trial in ``[0, span)``: one from each of ``trials`` equal slices, in random order."""
    out = [(k + rng.random()) * span / trials for k in range(trials)]
    rng.shuffle(out)
    return out


@dataclass
class Summary:
    trials: list[Trial]
    strict_signals: bool = False

    @property
    def failed(self) -> list[Trial]:
        return [t for t in self.trials if t.failures(self.strict_signals)]

    @property
    def ok(self) -> bool:
        return bool(self.trials) and not self.failed

    def line(self) -> str:
        ts = self.trials
        by_sig = ", ".join(f"{s} {sum(1 for t in ts if t.sig == s)}" for s in ("SIGKILL", "SIGTERM", "SIGINT"))
        orphans = sum(len(t.orphans) for t in ts)
        gone = max((t.gone_s for t in ts), default=0.0)
        return (f"SUMMARY trials {len(ts)} ({by_sig})  passed {len(ts) - len(self.failed)}  "
                f"failed {len(self.failed)}  lost {sum(t.diff.lost for t in ts)}  "
                f"duplicated {sum(t.diff.duplicated for t in ts)}  extra {sum(t.diff.extra for t in ts)}  "
                f"different {sum(t.diff.different for t in ts)}  orphans {orphans} (slowest exit {gone:.1f} s)  "
                f"equal {sum(1 for t in ts if t.diff.equal)}/{len(ts)}  "
                f"resumed {sum(1 for t in ts if t.action == 'resume')}  "
                f"fresh {sum(1 for t in ts if t.action == 'fresh')}  "
                f"signal notes {sum(len(t.signal_notes) for t in ts)}")


def crash_test(trials: int, seed: int, cfg: dict[str, Any], work: Path, grace: float = 5.0,
               strict_signals: bool = False, signals: Sequence[signal.Signals] = SIGNALS,
               say: Say = print) -> Summary:
    """Run the clean reference and ``trials`` kill-and-resume trials under ``work`` (trial ``n`` sends
    ``signals[(n - 1) % len(signals)]``); says each trial's line as it goes."""
    test = CrashTest(work, cfg, grace, say)
    test.reference()
    rng = random.Random(seed)
    moments = delays(trials, test.clean_s, rng)
    results = []
    for n, delay in enumerate(moments, 1):
        sig = signals[(n - 1) % len(signals)]
        t = test.trial(n, sig, delay)
        results.append(t)
        say(t.line(strict_signals))
        for why in t.failures(strict_signals):
            say(f"    FAIL: {why}")
        for note in t.signal_notes:
            if not strict_signals:
                say(f"    note: {note}")
        if t.signal_notes or t.failures(strict_signals):
            for ln in t.last_words:
                say(f"    stderr of the killed run: {ln}")
    return Summary(results, strict_signals)


def parse_signals(text: str) -> tuple[signal.Signals, ...]:
    """``KILL,TERM,INT`` (with or without ``SIG``) as signals; only these three are meaningful here."""
    out = []
    for word in text.upper().split(","):
        name = word.strip() if word.strip().startswith("SIG") else f"SIG{word.strip()}"
        if name not in ("SIGKILL", "SIGTERM", "SIGINT"):
            raise argparse.ArgumentTypeError(f"{word!r}: use KILL, TERM or INT")
        out.append(signal.Signals[name])
    return tuple(out)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module doc); returns the exit status: 0 when every trial passes."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--trials", type=int, default=24, help="kill-and-resume trials (default 24)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the kill moments")
    ap.add_argument("--workers", type=int, default=None, help="worker processes (default 2, or the config's)")
    ap.add_argument("--config", type=Path, default=None, help="a numplace config to use instead of the built-in one "
                    "(its output.dir is replaced per trial)")
    ap.add_argument("--count", type=int, default=None, help="puzzles per run (default 120, or the config's)")
    ap.add_argument("--shard-size", type=int, default=None, help="puzzles per part (default 10, or the config's)")
    ap.add_argument("--grace", type=float, default=5.0, help="seconds the workers have to end after the kill")
    ap.add_argument("--strict-signals", action="store_true", help="fail a trial whose exit code or status after "
                    "SIGTERM/SIGINT differs from docs/cli.md")
    ap.add_argument("--signals", type=parse_signals, default=SIGNALS, metavar="KILL,TERM,...",
                    help="the cycle of signals, trial by trial (default KILL,TERM,KILL,INT)")
    ap.add_argument("--workdir", type=Path, default=None, help="work folder (default: a new temp folder)")
    ap.add_argument("--keep", action="store_true", help="keep the work folder (always kept when a trial fails)")
    args = ap.parse_args(argv)
    if args.config is not None:
        cfg = yaml.safe_load(args.config.read_text(encoding="utf-8"))
        for key, value in (("workers", args.workers), ("count", args.count)):
            if value is not None:
                cfg[key] = value
        if args.shard_size is not None:
            cfg.setdefault("output", {})["shard_size"] = args.shard_size
    else:
        cfg = default_config(args.workers or 2, args.count or 120, args.shard_size or 10)
    work = args.workdir or Path(tempfile.mkdtemp(prefix="numplace-crash-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"# numplace crash test: {args.trials} trials, seed {args.seed}, config {args.config or 'built-in'} "
          f"(size {cfg.get('board', {}).get('size')}, count {cfg.get('count')}, "
          f"shard_size {cfg.get('output', {}).get('shard_size')}, workers {cfg.get('workers')}), "
          f"grace {args.grace:g} s, {os.cpu_count()} cores, work folder {work}", flush=True)
    t0 = time.monotonic()
    summary = crash_test(args.trials, args.seed, cfg, work, args.grace, args.strict_signals, args.signals,
                         say=lambda s: print(s, flush=True))
    print(summary.line())
    print(f"# {time.monotonic() - t0:.0f} s in all; {'PASS' if summary.ok else 'FAIL'}", flush=True)
    if summary.ok and not args.keep and args.workdir is None:
        shutil.rmtree(work, ignore_errors=True)
    elif not summary.ok:
        print(f"# work folder kept: {work}")
    return 0 if summary.ok else 1


if __name__ == "__main__":
    sys.exit(main())
