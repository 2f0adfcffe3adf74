"""A run, as three steps: plan (:mod:`pipeline.run.plan`), execute (:mod:`pipeline.run.execute`), finish
(:mod:`pipeline.run.finish`).

Determinism: puzzle ``i`` depends only on ``(config, i)`` through :func:`pipeline.generate.spec.puzzle_seed`, so
any number of workers, any chunking and any resume give the same set. Workers receive plain data
and return typed items (:mod:`pipeline.run.work`); each builds its own engine. Puzzles that fail
independent verification are never written; they are logged, counted in the manifest, and make
:attr:`RunSummary.ok` false.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from pipeline.config import Config, worker_count
from pipeline.run.execute import execute
from pipeline.run.finish import Finisher, RunSummary
from pipeline.run.plan import Log, RunError, job_of, plan, preflight
from pipeline.run.work import Item

__all__ = ["RunError", "RunSummary", "default_log", "run", "stream"]

Progress = Callable[[int, int], None]


def run(cfg: Config, resume: Path | None = None, progress: Progress | None = None,
        log: Log | None = None) -> RunSummary:
    """Make the set ``cfg`` describes (or finish the run in ``resume``); return a summary.

    Raises :class:`~pipeline.config.ConfigError` or :class:`RunError` before writing anything for
    user mistakes.
    """
    say = log or (lambda _msg: None)
    p = plan(cfg, resume, say)
    p.manifest.start_session(p.workers, p.resumed)
    finish = Finisher(p, lambda indices, r: execute(p.job, [[i] for i in indices], p.workers, redraw=r), say)
    if progress:
        progress(finish.done, cfg.count)
    for items in execute(p.job, p.chunks, p.workers):
        finish.add(items)
        if progress:
            progress(finish.done, cfg.count)
    return finish.close()


def stream(cfg: Config, chunk: int = 8) -> Iterator[Item]:
    """Make ``cfg``'s puzzles without writing anything, in index order (``numplace generate``):
    the same seeds, engine and verification as :func:`run`, no dedup."""
    preflight(cfg)
    chunks = [list(range(j, min(j + chunk, cfg.count))) for j in range(0, cfg.count, chunk)]
    for items in execute(job_of(cfg), chunks, worker_count(cfg.workers), ordered=True):
        yield from items


def default_log(msg: str) -> None:
    print(f"numplace: {msg}", file=sys.stderr)
