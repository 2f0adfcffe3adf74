"""Progress for long runs: a rich bar (puzzles/s, ETA) on a terminal, parseable lines otherwise.

Plain lines look like ``progress done=120 total=200 rate=9.8/s eta=8s`` on stderr, at most one
every ``every`` seconds plus the last one, so a nightly log stays short and greppable.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

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
        eta = (total - done) / rate if rate > 0 else float("nan")
        print(f"progress done={done} total={total} rate={rate:.3g}/s eta={eta:.0f}s", file=sys.stderr, flush=True)

    yield line
