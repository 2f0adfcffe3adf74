"""What a long job tells whoever watches it: progress and log messages, on stderr.

On a terminal: a rich bar (puzzles/s, ETA) and log messages as ``numplace: <message>`` lines.
Otherwise (cron, systemd, a pipe) everything is one JSON object per line, for log collectors::

    {"ts": "2026-11-23T03:01:02.123Z", "level": "info", "event": "progress", "done": 120, "total": 400,
     "rate": 9.8, "eta_s": 29, "message": "120 of 400 (9.8/s, ETA 29 s)"}

``ts`` (UTC), ``level`` (``info``, ``warning``, ``error``), ``event`` and ``message`` are always
there; the other fields depend on the event. Progress is written at most every ``every`` seconds,
plus the last one, so a nightly log stays short.

**No ETA before the rate is measured on finished work** (:class:`Rate`): the time until the first
puzzles come back is start-up (worker processes, compiled kernels, solver models), not the pace
of the run, so the rate is measured from the first update that reports finished puzzles to a later
one. Until then ``eta_s`` is null and the bar and the message say ``ETA once the rate is measured``.
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
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

#: What the bar and the log line say while the rate is not yet measured.
NOT_YET = "ETA once the rate is measured"


class Rate:
    """Puzzles a second, measured on finished work only.

    The first update gives the starting count (0, or what a resumed run had); the first update
    with more puzzles done starts the clock; each later update with more done measures the rate
    from there. :attr:`rate` is None until then (the time before the first puzzles came back is
    start-up), and so is :meth:`eta` unless everything is done (then 0)."""

    def __init__(self) -> None:
        self.begin: tuple[float, int] | None = None  # (time, done) of the first update
        self.first: tuple[float, int] | None = None  # (time, done) of the first update with work done
        self.rate: float | None = None

    def update(self, done: int, now: float) -> None:
        """Record that ``done`` puzzles are finished at time ``now`` (seconds, any origin)."""
        if self.begin is None:
            self.begin = (now, done)
        elif self.first is None:
            if done > self.begin[1]:
                self.first = (now, done)
        elif done > self.first[1] and now > self.first[0]:
            self.rate = (done - self.first[1]) / (now - self.first[0])

    def throughput(self, done: int, now: float) -> float:
        """Puzzles a second since the first update, start-up included (shown before :attr:`rate` is known)."""
        if self.begin is None or now <= self.begin[0]:
            return 0.0
        return (done - self.begin[1]) / (now - self.begin[0])

    def eta(self, done: int, total: int) -> int | None:
        """Seconds left at the measured rate; 0 when done; None while the rate is not measured."""
        if done >= total:
            return 0
        return round((total - done) / self.rate) if self.rate else None


@contextmanager
def reporter(label: str, tty: bool | None = None, every: float = 5.0,
             clock: Callable[[], float] = time.perf_counter) -> Iterator[Callable[[int, int], None]]:
    """Yield a callback ``(done, total)``; renders a bar when stderr is a terminal, JSON lines
    otherwise. ``clock`` gives the time in seconds (tests pass their own)."""
    measure = Rate()
    if sys.stderr.isatty() if tty is None else tty:
        cols = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                TextColumn("{task.fields[rate]:.1f} puzzles/s"), TimeElapsedColumn(), TextColumn("{task.fields[eta]}"))
        with Progress(*cols, console=Console(stderr=True), transient=False) as bar:
            task = bar.add_task(label, total=None, rate=0.0, eta=NOT_YET)

            def update(done: int, total: int) -> None:
                now = clock()
                measure.update(done, now)
                eta = measure.eta(done, total)
                rate = measure.rate if measure.rate is not None else measure.throughput(done, now)
                bar.update(task, completed=done, total=total, rate=rate,
                           eta=NOT_YET if eta is None else f"ETA {eta} s")

            yield update
        return

    last = [0.0]

    def line(done: int, total: int) -> None:
        now = clock()
        first = measure.begin is None
        measure.update(done, now)
        if first:
            last[0] = now
            return
        if now - last[0] < every and done < total:
            return
        last[0] = now
        rate = measure.rate if measure.rate is not None else measure.throughput(done, now)
        eta = measure.eta(done, total)
        emit("progress", f"{done} of {total} ({plain(rate)}/s, {NOT_YET if eta is None else f'ETA {eta} s'})",
             done=done, total=total, rate=float(f"{rate:.3g}"), eta_s=eta)

    yield line


def plain(rate: float) -> str:
    """A rate as people write it, never in exponent form: ``6960``, ``42.1``, ``9.8``, ``0.0131``."""
    if rate >= 100:
        return f"{rate:.0f}"
    if rate >= 1:
        return f"{rate:.3g}"
    return f"{rate:.4f}".rstrip("0").rstrip(".") or "0"


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
