"""Work a page starts and does not wait for (a set's quick check, the warm-up). Pure: no web framework.

Contracts:

* :func:`submit` runs ``fn(*args)`` on the studio's one background thread, once per ``key`` while
  its result is kept: a second call with the same key (a rerun, a second tab) gets the same
  :class:`~concurrent.futures.Future`. A job that raised keeps its exception in the future (the page
  shows it); :func:`forget` drops a key so that the next :func:`submit` runs it again.
* One thread, in order: a page's job never runs two at once beside the page's own script on a small
  machine. At most :data:`KEPT` finished jobs are kept (the oldest finished are dropped first).
* :func:`wait` blocks until every job submitted so far is done (for tests and the benchmark).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as _wait
from typing import Any

#: Finished jobs kept (their results are what a page shows when it looks again).
KEPT = 64

_lock = threading.Lock()
_jobs: dict[Hashable, Future[Any]] = {}
_pool: ThreadPoolExecutor | None = None


def _executor() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="numplace-studio")
    return _pool


def submit(key: Hashable, fn: Callable[..., Any], *args: Any) -> Future[Any]:
    """The job of ``key``: started now with ``fn(*args)``, or the one already started (see the contract)."""
    with _lock:
        job = _jobs.get(key)
        if job is not None:
            return job
        done = [k for k, f in _jobs.items() if f.done()]
        for k in done[:max(0, len(_jobs) + 1 - KEPT)]:
            del _jobs[k]
        job = _jobs[key] = _executor().submit(fn, *args)
        return job


def get(key: Hashable) -> Future[Any] | None:
    """The job of ``key`` if one was submitted and is kept, else None."""
    with _lock:
        return _jobs.get(key)


def forget(key: Hashable) -> None:
    """Drop the job of ``key`` (a running job still finishes; its result is not kept)."""
    with _lock:
        _jobs.pop(key, None)


def wait(timeout: float | None = None) -> bool:
    """Block until every job submitted so far is done (at most ``timeout`` seconds); True when they are."""
    with _lock:
        pending = list(_jobs.values())
    return not _wait(pending, timeout=timeout).not_done
