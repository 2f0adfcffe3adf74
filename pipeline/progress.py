"""What a long job tells whoever watches it: progress and log messages, on stderr.

On a terminal: a rich bar (puzzles/s, ETA) and log messages as ``numplace: <message>`` lines.
Otherwise (cron, systemd, a pipe) everything is one JSON object per line, for log collectors::

    {"ts": "2026-11-23T03:01:02.123Z", "level": "info", "event": "progress", "done": 120, "total": 400,
     "rate": 9.8, "eta_s": 29, "message": "120 of 400 (9.8/s, ETA 29 s)"}

``ts`` (UTC), ``level`` (``info``, ``warning``, ``error``), ``event`` and ``message`` are always
there; the other fields depend on the event. Progress is written at most every ``every`` seconds,
plus the last one, so a nightly log stays short.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn


@contextmanager
def reporter(label: str, tty: bool | None = None, every: float = 5.0) -> Iterator[Callable[[int, int], None]]:
    """Yield a callback ``(done, total)``; renders a bar when stderr is a terminal."""
    if sys.stderr.isatty() if tty is None else tty:
        cols = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                TextColumn("{task.fields[rate]:.1f} puzzles/s"), TimeElapsedColumn(), TextColumn("ETA"),
                TimeRemainingColumn())
        with Progress(*cols, console=Console(stderr=True), transient=False) as bar:
            task = bar.add_task(label, total=None, rate=0.0)
            start: list[float] = []

            def update(done: int, total: int) -> None:
                if not start:
                    start[:] = [time.perf_counter(), float(done)]
                elapsed = time.perf_counter() - start[0]
                rate = (done - start[1]) / elapsed if elapsed > 0 else 0.0
                bar.update(task, completed=done, total=total, rate=rate)

            yield update
        return

    state = {"t0": 0.0, "d0": 0, "last": 0.0}

    def line(done: int, total: int) -> None:
        now = time.perf_counter()
        if not state["t0"]:
            state.update(t0=now, d0=done, last=now)
            return
        if now - state["last"] < every and done < total:
            return
        state["last"] = now
        rate = (done - state["d0"]) / max(now - state["t0"], 1e-9)
        eta = round((total - done) / rate) if rate > 0 else None
        emit("progress", f"{done} of {total} ({rate:.3g}/s, ETA {eta} s)", done=done, total=total,
             rate=float(f"{rate:.3g}"), eta_s=eta)

    yield line


def emit(event: str, message: str, level: str = "info", **fields: Any) -> None:
    """Write one JSON log line to stderr (see the module docstring)."""
    stamp = dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    record = {"ts": stamp, "level": level, "event": event, **fields, "message": message}
    print(json.dumps(record, default=str), file=sys.stderr, flush=True)


def logger(tty: bool | None = None) -> Callable[..., None]:
    """A run's log: ``say(message, event="message", level="info", **fields)``; plain lines on a
    terminal, JSON lines otherwise."""
    on_tty = sys.stderr.isatty() if tty is None else tty

    def say(message: str, /, event: str = "message", level: str = "info", **fields: Any) -> None:
        if on_tty:
            print(f"numplace: {message}", file=sys.stderr, flush=True)
        else:
            emit(event, message, level, **fields)

    return say
