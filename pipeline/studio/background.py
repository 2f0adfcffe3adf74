"""Work a page starts and does not wait for (a set's quick check, the warm-up). Pure: no web framework.

Contracts:

* :func:`submit` runs ``fn(*args)`` on the studio's one background thread, once per ``key`` while
  its result is kept: a second call with the same key (a rerun, a second tab) gets the same
  :class:`~concurrent.futures.Future`. A job that raised keeps its exception in the future (the page
  shows it); :func:`forget` drops a key so that the next :func:`submit` runs it again.
* One thread, in order: a page's job never runs two at once beside the page's own script on a small
  machine. A job submitted with ``waits=True`` (one that waits for a child process doing the work,
  such as a set's check) runs on a second thread, in order too, so the page's own jobs (a report, a
  proof) do not queue behind it. At most :data:`KEPT` finished jobs are kept (the oldest finished
  are dropped first).
* :func:`settle` gives a job :data:`GRACE` seconds: a quick one is drawn in the same run, a long one
  gets its progress line.
* :func:`wait` blocks until every job submitted so far is done (for tests and the benchmark).
* Progress: a job given a ``key`` may call :func:`step` ``(key, done, total)`` as it goes;
  :func:`progress` is ``(seconds since the job started, (done, total) or None)`` for the page's
  line (None before the job starts on the thread, or for a key not submitted).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as _wait
from typing import Any

#: Seconds a page may give a job it just submitted before it draws the job's progress line instead.
GRACE = 0.3
#: Finished jobs kept (their results are what a page shows when it looks again).
KEPT = 64

_lock = threading.Lock()
_jobs: dict[Hashable, Future[Any]] = {}
_pools: dict[bool, ThreadPoolExecutor] = {}
_started: dict[Hashable, float] = {}
_steps: dict[Hashable, tuple[int, int]] = {}


def _executor(waits: bool = False) -> ThreadPoolExecutor:
    if waits not in _pools:
        _pools[waits] = ThreadPoolExecutor(max_workers=1,
                                           thread_name_prefix="numplace-studio-child" if waits else "numplace-studio")
    return _pools[waits]


def submit(key: Hashable, fn: Callable[..., Any], *args: Any, waits: bool = False) -> Future[Any]:
    """The job of ``key``: started now with ``fn(*args)``, or the one already started (see the contract;
    ``waits``: a job that waits for a child process, on the second thread)."""
    with _lock:
        job = _jobs.get(key)
        if job is not None:
            return job
        done = [k for k, f in _jobs.items() if f.done()]
        for k in done[:max(0, len(_jobs) + 1 - KEPT)]:
            del _jobs[k]
            _started.pop(k, None)
            _steps.pop(k, None)
        job = _jobs[key] = _executor(waits).submit(_timed, key, fn, *args)
        return job


def _timed(key: Hashable, fn: Callable[..., Any], *args: Any) -> Any:
    with _lock:
        _started[key] = time.monotonic()
        _steps.pop(key, None)
    return fn(*args)


def step(key: Hashable, done: int, total: int) -> None:
    """Say that the job of ``key`` has done ``done`` of its ``total`` steps (see the contract)."""
    with _lock:
        _steps[key] = (done, total)


def progress(key: Hashable) -> tuple[float, tuple[int, int] | None] | None:
    """``(seconds since the job of key started, (done, total) or None)``, or None when it has not started."""
    with _lock:
        began = _started.get(key)
        return None if began is None else (time.monotonic() - began, _steps.get(key))


def get(key: Hashable) -> Future[Any] | None:
    """The job of ``key`` if one was submitted and is kept, else None."""
    with _lock:
        return _jobs.get(key)


def forget(key: Hashable) -> None:
    """Drop the job of ``key`` (a running job still finishes; its result is not kept)."""
    with _lock:
        _jobs.pop(key, None)
        _started.pop(key, None)
        _steps.pop(key, None)


def settle(job: Future[Any], grace: float = GRACE) -> bool:
    """Wait at most ``grace`` seconds for ``job``; True when it is done."""
    return not _wait([job], timeout=grace).not_done


def wait(timeout: float | None = None) -> bool:
    """Block until every job submitted so far is done (at most ``timeout`` seconds); True when they are."""
    with _lock:
        pending = list(_jobs.values())
    return not _wait(pending, timeout=timeout).not_done
