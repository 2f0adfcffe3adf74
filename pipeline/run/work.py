"""What runs inside a worker process: a chunk of puzzle indices in, typed items out.

A task receives plain data (a :class:`Job` and indices) and builds everything else itself (the
engine, the compiled counter, the tables) once per process; no solver object crosses a process
boundary. Each index gives one item: :class:`Made` (a row that passed independent verification) or
:class:`Failed` (never written; recorded in the manifest with its kind and reason).

A worker dies with its parent: the first task in a worker process starts :func:`watch_parent`, a
daemon thread that ends the process when the process that started it is gone (after ``kill -9`` of
``numplace run`` the workers would otherwise go on making puzzles nobody will write).
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pipeline import verify
from pipeline.board import format_line
from pipeline.generate.puzzle import MadePuzzle, grade_made, make_puzzle
from pipeline.generate.spec import GenerationFailed, Spec, puzzle_seed
from pipeline.run import rows


@dataclass(frozen=True)
class Job:
    """What every task of one run needs: the spec and the set's identity (picklable)."""

    spec: Spec
    set_name: str
    config_hash: str
    config_seed: int


@dataclass(frozen=True)
class Made:
    """A verified puzzle: its row and what it cost (``rss_mb``: the worker's peak memory so far)."""

    index: int
    row: rows.Row
    attempts: int
    timeouts: int
    rejected: dict[str, int] = field(default_factory=dict)
    rss_mb: float = 0.0
    #: Set only by :func:`make_graded_later`: the puzzle made without its grade (``row``'s grade columns are
    #: None until :func:`graded` fills them in); None for a whole row.
    ungraded: MadePuzzle | None = None


FailureKind = Literal["generation", "verification", "duplicate"]


@dataclass(frozen=True)
class Failed:
    """An index without a puzzle: ``kind`` says which stage gave up and ``failure`` why; ``puzzle``
    is the rejected puzzle of a verification failure."""

    index: int
    kind: FailureKind
    failure: str
    attempts: int
    timeouts: int
    rejected: dict[str, int] = field(default_factory=dict)
    puzzle: str | None = None
    rss_mb: float = 0.0

    def record(self) -> dict[str, Any]:
        """The manifest's record of this failure (``puzzle`` only where there is one)."""
        out: dict[str, Any] = {"index": self.index, "kind": self.kind, "failure": self.failure}
        if self.puzzle is not None:
            out["puzzle"] = self.puzzle
        return out


Item = Made | Failed


def make_items(job: Job, indices: list[int], redraw: int = 0) -> list[Item]:
    """The task: generate, build the row of, and independently verify each of ``indices``
    (``redraw`` > 0: the index's ``redraw``-th replacement seed). Never raises for a bad puzzle."""
    watch_parent()
    return [_one(job, i, redraw) for i in indices]


ORPHANED_EXIT = 70
"""The exit status of a worker that ended itself because its parent was gone."""
_POLL_S = 1.0
_watched_in: int | None = None  # the pid whose watchdog runs (a forked child must start its own)
_watch_lock = threading.Lock()


def watch_parent() -> bool:
    """Start this worker's parent watchdog unless it runs already; True if one runs now.

    Only in a worker: a process that :mod:`multiprocessing` (or loky, which keeps its API) started
    has a ``parent_process()``; the main process has none, and with one worker joblib runs the tasks
    right there, where the watchdog must not start (its parent is the user's shell). Deciding by
    "pid differs from the pid that imported this module" would not do: loky starts workers with
    fork+exec, so a worker imports this module itself.

    The thread remembers ``os.getppid()`` and checks it about once a second; when the parent dies,
    the kernel hands the worker to init (or a subreaper) and ``getppid()`` changes, and the thread
    ends the process at once with ``os._exit(ORPHANED_EXIT)``: no cleanup, no result, nothing
    written (workers write no files). A parent that died before this call (while the worker was
    still starting: loky queues tasks ahead, so a worker may take its first task after the run was
    killed) is caught too: the pid the worker was started by (``parent_process().pid``) is no
    longer its parent, and the worker ends at once.
    """
    global _watched_in
    started_by = multiprocessing.parent_process()
    if started_by is None:
        return False
    with _watch_lock:
        if _watched_in != os.getpid():
            parent = os.getppid()
            if started_by.pid is not None and parent != started_by.pid:
                os._exit(ORPHANED_EXIT)  # orphaned before the first task: the run is gone
            threading.Thread(target=_watch, args=(parent,), name="numplace-parent-watchdog", daemon=True).start()
            _watched_in = os.getpid()
    return True


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(_POLL_S)
    os._exit(ORPHANED_EXIT)


def make_graded_later(job: Job, index: int) -> Item:
    """Puzzle ``index`` as :func:`make_items` makes it (the same puzzle, verified and certified alike),
    but, where the grade decides nothing (:meth:`~pipeline.generate.spec.Spec.grade_decides`), handed
    back before it is graded: a :class:`Made` whose ``ungraded`` is set and whose row has the grade
    columns (:data:`~pipeline.run.rows.GRADE_COLUMNS`) None; :func:`graded` gives its whole row. For the
    studio, which shows a puzzle while it is graded. Never raises for a bad puzzle."""
    return _one(job, index, 0, grade=False)


def graded(job: Job, item: Made) -> Made:
    """``item`` with its grade: its row then equals the row :func:`make_items` builds for the same index
    (but for the times ``gen_ms`` and ``created_at``). An item that is not ungraded comes back as it is."""
    if item.ungraded is None:
        return item
    made = grade_made(job.spec, item.ungraded)
    return replace(item, row=rows.with_grade(item.row, made), ungraded=None)


def _one(job: Job, index: int, redraw: int, grade: bool = True) -> Item:
    seed = puzzle_seed(job.config_seed, index, redraw)
    try:
        made = make_puzzle(job.spec, seed, grade)
    except GenerationFailed as exc:
        return Failed(index, "generation", str(exc), exc.attempts, exc.timeouts, exc.rejected)
    row = rows.build_row(made, set_name=job.set_name, config_hash=job.config_hash, index=index, seed=seed)
    problems = verify.verify_row(row)
    if not made.certified:
        problems.append("ILP certification failed: the no-good solve found a second solution")
    fixed = job.spec.fixed
    if fixed is not None and any(d and format_line((d,)) != row["solution"][k] for k, d in enumerate(fixed)):
        problems.append("solution does not contain the fixed cells")
    rss = _rss_mb()
    if problems:
        return Failed(index, "verification", "; ".join(problems), made.attempts, made.timeouts, made.rejected,
                      row["puzzle"], rss)
    if not made.graded:
        return Made(index, rows.with_grade(row, None), made.attempts, made.timeouts, made.rejected, rss, made)
    return Made(index, row, made.attempts, made.timeouts, made.rejected, rss)


def _rss_mb() -> float:
    """Peak resident memory of this process so far, MB (Linux reports ru_maxrss in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
