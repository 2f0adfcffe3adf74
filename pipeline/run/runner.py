"""A run, as three steps: plan (:mod:`pipeline.run.plan`), execute (:mod:`pipeline.run.execute`), finish
(:mod:`pipeline.run.finish`).

Determinism: puzzle ``i`` depends only on ``(config, i)`` through :func:`pipeline.generate.spec.puzzle_seed`, so
any number of workers, any chunking, any executor (:mod:`pipeline.run.execute`: local processes or a
dask cluster) and any resume give the same set. Workers receive plain data
and return typed items (:mod:`pipeline.run.work`); each builds its own engine. Puzzles that fail
independent verification are never written; they are logged, counted in the manifest, and make
:attr:`RunSummary.ok` false.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from pipeline.config import Config, ConfigError, config_hash, validate
from pipeline.difficulty.techniques import GRADER_VERSION
from pipeline.generate.version import GENERATOR_VERSION
from pipeline.run import work
from pipeline.run.execute import Executor, ExecutorLost, ExecutorUnavailable, open_executor
from pipeline.run.finish import Finisher, RunSummary
from pipeline.run.lock import SetLock
from pipeline.run.manifest import Manifest, restore_success, runs_of, unfinished_runs
from pipeline.run.plan import Log, Plan, RunError, check_defining, job_of, plan, preflight
from pipeline.run.work import Item

__all__ = ["ExecutorLost", "ExecutorUnavailable", "RunError", "RunInterrupted", "RunSummary", "run", "stream"]

Progress = Callable[[int, int], None]


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM during a run: the manifest says ``interrupted``; ``run_dir`` resumes it."""

    def __init__(self, run_dir: Path) -> None:
        super().__init__(str(run_dir))
        self.run_dir = run_dir


def run(cfg: Config, resume: Path | None = None, progress: Progress | None = None,
        log: Log | None = None, max_minutes: float | None = None, fill_gap: bool = False) -> RunSummary:
    """Make the next ``cfg.count`` puzzles of the set ``cfg`` describes (or finish the run in
    ``resume``); return a summary.

    Finish first: a new run of a set that has an unfinished run (:data:`~pipeline.run.manifest.UNFINISHED`:
    stopped by ``--max-minutes``, a signal, a full disk or a kill) first resumes that run from the
    config saved in its manifest (with ``cfg``'s workers, executor and output root), so no range of
    ids is ever left with a gap; only when it is complete does the new run start, within what is
    left of ``max_minutes``. If it does not complete, its summary is returned and no new run starts.
    A saved config that no longer gives the run's config hash is refused in one line naming the
    ``--resume`` command. The summary of a new run lists the runs finished first in
    ``finished_first``. While a live process holds the set's lock nothing is finished: the new
    run stops at the lock (:class:`~pipeline.run.lock.SetLocked`). A config
    that changes a key that defines the set (:mod:`pipeline.config.defining`) is refused before any
    run is finished. ``fill_gap``: the new run makes the set's first gap in its ids instead of the
    next ``count`` (:func:`pipeline.run.plan.plan`).

    Raises :class:`~pipeline.config.ConfigError`, :class:`RunError` (among them
    :class:`ExecutorUnavailable`: the dask scheduler does not answer) or
    :class:`~pipeline.run.lock.SetLocked` before writing anything for user mistakes, and
    :class:`RunInterrupted` on Ctrl-C. With ``max_minutes`` the run stops cleanly once that much
    time has passed: whole parts are kept and the status is ``partial`` (resumable). When the
    executor fails mid-run (the dask scheduler is gone) the run is closed the same way, as
    ``partial``, and :class:`ExecutorLost` is raised with its ``run_dir`` set.

    The executor (``cfg.executor``) is opened first, so an unreachable scheduler creates nothing,
    and closed after the run (a LocalCluster started for the run stops with it).
    """
    say = log or _quiet
    finished: list[RunSummary] = []
    if resume is None:
        deadline = time.monotonic() + 60.0 * max_minutes if max_minutes is not None else None
        set_dir = Path(cfg.output.dir) / cfg.name
        check_defining(cfg, runs_of(set_dir))
        for m in unfinished_runs(set_dir):
            if SetLock.busy(set_dir):
                break  # a live process makes the set (this run, maybe): the plan below stops at its lock (exit 75)
            earlier = _config_to_finish(cfg, m)
            written = sum(r.get("rows", 0) for r in m.shards.values() if isinstance(r, dict))
            say(f"run {m.run_dir} is {m.status} ({written} of {m.count} puzzles written): finishing it first, "
                f"so that its ids leave no gap", event="finishing_unfinished", level="warning",
                run_dir=str(m.run_dir), status=m.status)
            summary = replace(_run(earlier, m.run_dir, progress, say, _left(deadline)),
                              finished_first=tuple(finished))
            if summary.status != "complete" or (deadline is not None and time.monotonic() >= deadline):
                return summary
            finished.append(replace(summary, finished_first=()))
        max_minutes = _left(deadline)
    return replace(_run(cfg, resume, progress, say, max_minutes, fill_gap), finished_first=tuple(finished))


def _left(deadline: float | None) -> float | None:
    """Minutes left until ``deadline`` (a ``time.monotonic`` value; None: no budget); never 0, so a
    run started with it still makes its first chunk."""
    return None if deadline is None else max(1e-9, (deadline - time.monotonic()) / 60.0)


def _config_to_finish(cfg: Config, m: Manifest) -> Config:
    """The config run ``m`` was made from (its manifest's), with ``cfg``'s workers, executor and
    output root; raises :class:`RunError` naming the ``--resume`` command when it does not give the
    run's config hash any more."""
    data = m.config
    data["workers"] = cfg.workers
    data["executor"] = cfg.executor.model_dump(mode="json")
    if isinstance(data.get("output"), dict):
        data["output"]["dir"] = cfg.output.dir
    try:
        earlier: Config | None = validate(data)
    except ConfigError:
        earlier = None
    if earlier is None or config_hash(earlier) != m.config_hash:
        raise RunError(f"set {cfg.name}: run {m.run_dir} is {m.status}, and its saved config cannot be rebuilt here; "
                       f"finish it with the config it was made from: numplace run CONFIG --resume {m.run_dir}")
    return earlier


def _run(cfg: Config, resume: Path | None, progress: Progress | None, say: Log,
         max_minutes: float | None, fill_gap: bool = False) -> RunSummary:
    with open_executor(cfg, say) as ex:
        p = plan(cfg, resume, say, fill_gap)
        try:
            return _execute_and_finish(p, ex, say, progress, max_minutes)
        finally:
            p.lock.release()


def _execute_and_finish(p: Plan, ex: Executor, say: Log, progress: Progress | None,
                        max_minutes: float | None) -> RunSummary:
    cfg = p.cfg
    finish: Finisher | None = None
    results: Iterator[list[Item]] | None = None
    try:
        p.manifest.start_session(p.workers, p.resumed)
        say(f"run started: {p.run_dir}, indices {p.start}-{p.start + cfg.count - 1} ({ex.where})",
            event="run_started", run_dir=str(p.run_dir), start=p.start, count=cfg.count, workers=p.workers,
            resumed=p.resumed, executor=cfg.executor.kind)
        finish = Finisher(p, lambda indices, r: ex.map(p.job, [[i] for i in indices], redraw=r), say)
        if progress:
            progress(finish.done, cfg.count)
        results = ex.map(p.job, p.chunks)
        summary = _loop(p, finish, results, say, progress, max_minutes)
    except KeyboardInterrupt:
        # Ctrl-C or SIGTERM at any moment of the run (also while it starts or closes): the run
        # folder is marked interrupted and named, whatever was finished is kept
        with contextlib.suppress(KeyboardInterrupt):
            if results is not None:
                _close(results)
            if p.manifest.status in ("complete", "incomplete", "partial"):
                with contextlib.suppress(OSError):  # closed just before the signal: keep what the manifest says,
                    restore_success(p.manifest)  # with the _SUCCESS of a complete run the signal came before
            elif finish is not None:
                finish.close("interrupted")
            else:
                with contextlib.suppress(IndexError, KeyError, OSError):
                    p.manifest.finish(cfg.count, {}, "interrupted")
        raise RunInterrupted(p.run_dir) from None
    say(f"run finished: {summary.status}, {summary.written} of {summary.count} puzzles written", event="run_finished",
        status=summary.status, run_dir=str(p.run_dir), totals=p.manifest.data.get("totals", {}))
    return summary


def _loop(p: Plan, finish: Finisher, results: Iterator[list[Item]], say: Log, progress: Progress | None,
          max_minutes: float | None) -> RunSummary:
    """Hand the items to the finisher as they come back, until done or the time budget is spent (and
    at least one part was written in this session, so that a run resumed night after night under a
    budget always gets further); close the run (``partial`` when stopped early or the executor was
    lost)."""
    cfg = p.cfg
    deadline = time.monotonic() + 60.0 * max_minutes if max_minutes is not None else None
    stopped: str | None = None
    try:
        for items in results:
            finish.add(items)
            if progress:
                progress(finish.done, cfg.count)
            if (deadline is not None and time.monotonic() > deadline and finish.done < cfg.count
                    and finish.parts_written > 0):  # each session writes a part at least: nights make progress
                stopped = "partial"
                say(f"--max-minutes {max_minutes:g} reached: stopping with whole parts", event="budget_reached",
                    level="warning")
                break
    except ExecutorLost as exc:
        _close(results)
        summary = finish.close("partial")
        exc.run_dir = p.run_dir
        say(f"{exc}: stopping; {summary.written} of {summary.count} puzzles written, finished parts are kept and "
            f"the run resumes with --resume {p.run_dir}", event="executor_lost", level="error", run_dir=str(p.run_dir))
        raise
    _close(results)
    return finish.close(stopped)


def _close(results: object) -> None:
    """Stop an executor's result stream early (pending tasks are cancelled)."""
    close = getattr(results, "close", None)
    if callable(close):
        close()


def _quiet(_msg: str, /, **_fields: Any) -> None:
    return None


def stream(cfg: Config, chunk: int = 8, grader: int = GRADER_VERSION,
           made_by: int = GENERATOR_VERSION) -> Iterator[Item]:
    """Make ``cfg``'s puzzles without writing anything, in index order (``numplace generate``):
    the same seeds, engine and verification as :func:`run`, no dedup; graded by grader version
    ``grader`` and made by generator version ``made_by`` (this code's unless told: ``run --dry-run``
    passes the set's)."""
    preflight(cfg)
    chunks = [list(range(j, min(j + chunk, cfg.count))) for j in range(0, cfg.count, chunk)]
    with open_executor(cfg, _quiet) as ex:
        for items in ex.map(job_of(cfg, grader, made_by), chunks, ordered=True):
            yield from items


def stream_graded_later(cfg: Config, grader: int = GRADER_VERSION, made_by: int = GENERATOR_VERSION,
                        stop: Callable[[], bool] | None = None) -> Iterator[Item]:
    """:func:`stream`'s puzzles (the same seeds, engine, verification and grades), in this process, each
    handed out as soon as it is made and verified, before its grade where the grade decides nothing:
    such an index gives two items, its :class:`~pipeline.run.work.Made` with ``ungraded`` set (grade
    columns None) and then the same puzzle's whole row (:func:`pipeline.run.work.graded`). For the
    studio, which shows a puzzle while it is graded.

    ``stop``: once it returns True the stream ends, before the next puzzle and within a step of a
    grade being computed (:func:`~pipeline.difficulty.logic.cancel_when`); a puzzle being made past its
    grade (the removal, the certificate) is finished first. A consumer that stops iterating stops the
    work too."""
    from pipeline.difficulty.logic import Cancelled, cancel_when

    preflight(cfg)
    job = job_of(cfg, grader, made_by)
    halt = stop if stop is not None else (lambda: False)
    try:
        for index in range(cfg.count):
            if halt():
                return
            with cancel_when(halt):
                item = work.make_graded_later(job, index)
            yield item
            if isinstance(item, work.Made) and item.ungraded is not None:
                with cancel_when(halt):
                    done = work.graded(job, item)
                yield done
    except Cancelled:  # raised only inside cancel_when, never at a yield
        return
