"""A run, as three steps: plan (:mod:`pipeline.run.plan`), execute (:mod:`pipeline.run.execute`), finish
(:mod:`pipeline.run.finish`).

Determinism: puzzle ``i`` depends only on ``(config, i)`` through :func:`pipeline.generate.spec.puzzle_seed`, so
any number of workers, any chunking and any resume give the same set. Workers receive plain data
and return typed items (:mod:`pipeline.run.work`); each builds its own engine. Puzzles that fail
independent verification are never written; they are logged, counted in the manifest, and make
:attr:`RunSummary.ok` false.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from pipeline.config import Config, worker_count
from pipeline.run.execute import execute
from pipeline.run.finish import Finisher, RunSummary
from pipeline.run.plan import Log, Plan, RunError, job_of, plan, preflight
from pipeline.run.work import Item

__all__ = ["RunError", "RunInterrupted", "RunSummary", "run", "stream"]

Progress = Callable[[int, int], None]


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM during a run: the manifest says ``interrupted``; ``run_dir`` resumes it."""

    def __init__(self, run_dir: Path) -> None:
        super().__init__(str(run_dir))
        self.run_dir = run_dir


def run(cfg: Config, resume: Path | None = None, progress: Progress | None = None,
        log: Log | None = None, max_minutes: float | None = None) -> RunSummary:
    """Make the next ``cfg.count`` puzzles of the set ``cfg`` describes (or finish the run in
    ``resume``); return a summary.

    Raises :class:`~pipeline.config.ConfigError`, :class:`RunError` or
    :class:`~pipeline.run.lock.SetLocked` before writing anything for user mistakes, and
    :class:`RunInterrupted` on Ctrl-C. With ``max_minutes`` the run stops cleanly once that much
    time has passed: whole parts are kept and the status is ``partial`` (resumable).
    """
    say = log or _quiet
    p = plan(cfg, resume, say)
    try:
        return _execute_and_finish(p, say, progress, max_minutes)
    finally:
        p.lock.release()


def _execute_and_finish(p: Plan, say: Log, progress: Progress | None, max_minutes: float | None) -> RunSummary:
    cfg = p.cfg
    p.manifest.start_session(p.workers, p.resumed)
    say(f"run started: {p.run_dir}, indices {p.start}-{p.start + cfg.count - 1}", event="run_started",
        run_dir=str(p.run_dir), start=p.start, count=cfg.count, workers=p.workers, resumed=p.resumed)
    finish = Finisher(p, lambda indices, r: execute(p.job, [[i] for i in indices], p.workers, redraw=r), say)
    deadline = time.monotonic() + 60.0 * max_minutes if max_minutes is not None else None
    stopped: str | None = None
    if progress:
        progress(finish.done, cfg.count)
    results = execute(p.job, p.chunks, p.workers)
    try:
        for items in results:
            finish.add(items)
            if progress:
                progress(finish.done, cfg.count)
            if deadline is not None and time.monotonic() > deadline and finish.done < cfg.count:
                stopped = "partial"
                say(f"--max-minutes {max_minutes:g} reached: stopping with whole parts", event="budget_reached",
                    level="warning")
                break
    except KeyboardInterrupt:
        _close(results)
        finish.close("interrupted")
        raise RunInterrupted(p.run_dir) from None
    _close(results)
    summary = finish.close(stopped)
    say(f"run finished: {summary.status}, {summary.written} of {summary.count} puzzles written", event="run_finished",
        status=summary.status, run_dir=str(p.run_dir), totals=p.manifest.data.get("totals", {}))
    return summary


def _close(results: object) -> None:
    """Stop an executor's result stream early (pending tasks are cancelled)."""
    close = getattr(results, "close", None)
    if callable(close):
        close()


def _quiet(_msg: str, /, **_fields: Any) -> None:
    return None


def stream(cfg: Config, chunk: int = 8) -> Iterator[Item]:
    """Make ``cfg``'s puzzles without writing anything, in index order (``numplace generate``):
    the same seeds, engine and verification as :func:`run`, no dedup."""
    preflight(cfg)
    chunks = [list(range(j, min(j + chunk, cfg.count))) for j in range(0, cfg.count, chunk)]
    for items in execute(job_of(cfg), chunks, worker_count(cfg.workers), ordered=True):
        yield from items
