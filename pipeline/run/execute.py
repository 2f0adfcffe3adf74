"""The execute step: the one place that knows the executor.

An executor sends chunks of puzzle indices to :func:`pipeline.run.work.make_items` on worker
processes and yields each chunk's items as it comes back (in completion order, or in the order of
the chunks with ``ordered``). Tasks are plain data (a :class:`~pipeline.run.work.Job` and a list of
indices) and results are typed items; planning, dedup and every write stay in the calling process.
The config's ``executor`` section (:class:`~pipeline.config.ExecutorCfg`) picks one:

* ``local``: joblib with loky processes on this machine, ``workers`` of them (one worker runs the
  chunks in this process, in order).
* ``dask``: a dask.distributed cluster: the one whose scheduler listens at ``executor.scheduler``,
  or, without it, a LocalCluster of ``local_workers`` (default ``workers``) processes started for
  the run and closed with it.

:func:`open_executor` opens one for a run, before anything is written: a scheduler that does not
answer within :data:`CONNECT_TIMEOUT_S` is :class:`ExecutorUnavailable` (one line naming
``executor.scheduler``). Contracts of the dask executor:

* **Puzzle ``i`` is the same on any executor**: it depends only on the job and ``i`` (the config
  hash leaves ``executor`` out). A chunk that runs twice (its worker was killed mid-task and the
  scheduler ran it again elsewhere) gives the same items, and since workers write nothing and the
  caller finishes each chunk once, nothing is written twice.
* **One task at a time per worker process.** A worker builds its engines and tables once per
  process (:mod:`pipeline.ilp.engine` keeps them in a process-wide dict) and they are not
  thread-safe, so :func:`_task` holds a process-wide lock: a worker started with ``--nthreads 4``
  gets four tasks but runs them one after another (a warning says to use ``--nthreads 1`` and more
  ``--nworkers``).
* **Bounded work in flight**: at most :data:`WINDOW_PER_THREAD` tasks per worker thread (at least
  :data:`MIN_WINDOW`) are submitted at once (plus, ``ordered``, the results held back for order), so
  a 10-million-puzzle run neither floods the scheduler nor piles results up in memory.
* **A lost scheduler** (the connection drops mid-run; the client then cancels every task), a
  chunk that killed too many workers (:class:`distributed.KilledWorker`, dask's
  ``allowed-failures``) or a task that raised on a worker (``make_items`` raises for no puzzle:
  a worker without numplace installed, or a bug) raises :class:`ExecutorLost` from the result
  stream; the runner closes the run as ``partial`` (whole parts kept, resumable, on any executor).
* dask's own log records of this process (``distributed.*``, e.g. a nanny restarting a killed
  worker) go to the run's log as ``dask_log`` events instead of raw lines on stderr.
* **No plain lines from the resource trackers in the JSON log**: loky's (and multiprocessing's)
  resource tracker is a helper process that shares the run's stderr and outlives a run killed with
  ``kill -9``; it then unlinks the semaphores and memmap folders the dead run left and warns
  ``UserWarning: resource_tracker: There appear to be N leaked ...`` in plain text. Before either
  executor starts a process, :func:`quiet_resource_trackers` adds :data:`TRACKER_FILTER` to
  ``PYTHONWARNINGS``, which the tracker inherits: it still cleans up, without those lines.

Roads not taken: ``client.map`` of every chunk at once (unbounded scheduler state and memory for
big runs); a dask graph (bag, delayed) of the whole run (the tasks are independent, and the
finishing must stay in order on this side); scattering the Job once (a scattered value is lost
with the workers that hold it, and the Job pickles to well under a kilobyte); threads inside a
worker (HiGHS and the Python glue would contend for the GIL, and the engines are per process);
finishing on the workers (many writers on many machines instead of one).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import importlib.metadata
import importlib.util
import logging
import multiprocessing
import os
import queue
import signal
import sys
import threading
import uuid
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from pipeline.config import Config
from pipeline.run.plan import Log, RunError
from pipeline.run.work import Item, Job, make_items
from pipeline.run.workers import worker_count

if TYPE_CHECKING:
    from distributed import Client, Future, LocalCluster

CONNECT_TIMEOUT_S = 5.0
"""How long a run waits for ``executor.scheduler`` to answer before it gives up (exit 2)."""
WINDOW_PER_THREAD = 4
MIN_WINDOW = 16
_POLL_S = 0.5  # how often a wait for results checks that the client is still connected
#: Packages whose versions decide the puzzles (and Python): workers should match this process.
VERSIONED = ("numplace", "highspy", "pyomo", "numba", "numpy", "polars")
#: The warning filter (``PYTHONWARNINGS`` syntax) for the resource trackers' own warnings: every one
#: of loky's and multiprocessing's starts with ``resource_tracker``; a UserWarning of anything else
#: is still shown.
TRACKER_FILTER = "ignore:resource_tracker:UserWarning"


def quiet_resource_trackers() -> None:
    """Add :data:`TRACKER_FILTER` to ``PYTHONWARNINGS`` (after what is there, so that it wins over a
    broader filter such as ``default``) for the processes this one starts from now on: the resource
    tracker, a helper process that shares stderr (the run's JSON log) and outlives a killed run, then
    warns in plain text about the semaphores it cleans up. This process's own filters are unchanged."""
    have = os.environ.get("PYTHONWARNINGS", "")
    if TRACKER_FILTER not in have.split(","):
        os.environ["PYTHONWARNINGS"] = f"{have},{TRACKER_FILTER}" if have else TRACKER_FILTER


class ExecutorUnavailable(RunError):
    """The executor cannot be opened (the scheduler does not answer); nothing was written."""


class ExecutorLost(RuntimeError):
    """The executor failed mid-run (the scheduler is gone, or a chunk kept killing workers);
    ``str(err)`` is one line. The runner sets ``run_dir`` once the run is closed as ``partial``."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.run_dir: Path | None = None


class Executor(Protocol):
    """Runs chunks of a job on workers: ``where`` says where, for the log."""

    where: str

    def map(self, job: Job, chunks: Sequence[list[int]], redraw: int = 0,
            ordered: bool = False) -> Iterator[list[Item]]:
        """The items of each chunk, one list per chunk: in completion order, or in the order of
        ``chunks`` with ``ordered``. Closing the iterator early cancels the chunks not yet back."""
        ...


def execute(job: Job, chunks: Sequence[list[int]], workers: int, redraw: int = 0,
            ordered: bool = False) -> Iterator[list[Item]]:
    """The local executor's :meth:`Executor.map` with ``workers`` processes."""
    return LocalExecutor(workers).map(job, chunks, redraw, ordered)


class LocalExecutor:
    """joblib with loky worker processes on this machine (one worker: this process, in order)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.where = f"local, {workers} worker process(es)"

    def map(self, job: Job, chunks: Sequence[list[int]], redraw: int = 0,
            ordered: bool = False) -> Iterator[list[Item]]:
        if not chunks:
            return iter(())
        n_jobs = max(1, min(self.workers, len(chunks)))
        if n_jobs == 1:  # this process, in order, as joblib would run it; joblib is not even imported
            return (make_items(job, list(c), redraw) for c in chunks)
        from joblib import Parallel, delayed  # here: a one-worker command skips its import (~0.15 s)

        quiet_resource_trackers()  # before loky starts its tracker (once per process, with the first pool)

        par = Parallel(n_jobs=n_jobs, backend="loky", batch_size=1,
                       return_as="generator" if ordered else "generator_unordered")
        out: Iterator[list[Item]] = par(delayed(make_items)(job, list(c), redraw) for c in chunks)
        return _closed_quietly(out)


def _closed_quietly(out: Iterator[list[Item]]) -> Iterator[list[Item]]:
    """``out``, closed without joblib's warning that the tasks still running were cancelled: a run that
    stops early (a full disk, a signal, ``--max-minutes``) has said so in its own one line."""
    try:
        yield from iter(out.__next__, None)  # not ``yield from out``: that would close it unfiltered
    finally:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=r".*have been cancelled", category=UserWarning)
            close = getattr(out, "close", None)
            if close is not None:
                close()


@contextlib.contextmanager
def open_executor(cfg: Config, say: Log) -> Iterator[Executor]:
    """The executor ``cfg.executor`` names, open for the length of the ``with`` block (a dask
    client connected, or a LocalCluster started; both closed at the end). Raises
    :class:`ExecutorUnavailable` when the scheduler does not answer; call it before anything is
    written."""
    ex = cfg.executor
    if ex.kind == "local":
        yield LocalExecutor(worker_count(cfg.workers))
        return
    with _DaskLogs(say) as logs, _dask_client(ex.scheduler, ex.local_workers or worker_count(cfg.workers), say) as (
            client, where):
        yield DaskExecutor(client, where, logs)


@contextlib.contextmanager
def _dask_client(scheduler: str | None, local_workers: int, say: Log) -> Iterator[tuple[Client, str]]:
    """A client of the scheduler at ``scheduler``, or of a LocalCluster of ``local_workers``
    processes started here; closed (and the cluster with it) on the way out."""
    from distributed import Client

    cluster: LocalCluster | None = None
    address = scheduler or ""
    try:
        with warnings.catch_warnings(record=True) as caught:  # e.g. "port 8787 in use", mismatched versions
            warnings.simplefilter("always")
            if scheduler is None:
                quiet_resource_trackers()  # the cluster's processes start multiprocessing's tracker
                try:
                    cluster = _local_cluster(local_workers)
                except Exception as exc:  # no free port, too many processes, ...: one line, nothing written
                    raise ExecutorUnavailable(f"executor: cannot start a dask LocalCluster of {local_workers} "
                                              f"workers ({_first_line(exc)})") from None
                address = str(cluster.scheduler_address)
            try:
                client = Client(address, timeout=CONNECT_TIMEOUT_S, set_as_default=False)
            except (OSError, TimeoutError) as exc:  # distributed says "Timed out trying to connect" for all
                why = _first_line(exc)
                why = f"no answer within {CONNECT_TIMEOUT_S:g} s" if not why or "timed out" in why.lower() else why
                raise ExecutorUnavailable(f"executor.scheduler: cannot reach {address} ({why}); is a dask "
                                          "scheduler running there?") from None
        for w in caught:
            say(f"dask: {_first_line(w.message)}", event="dask_log", level="warning")
        try:
            try:
                where = _describe(client, cluster, local_workers, say)
            except (OSError, TimeoutError) as exc:  # gone again right after answering
                raise ExecutorUnavailable(f"executor.scheduler: {address} stopped answering "
                                          f"({_first_line(exc)})") from None
            yield client, where
        finally:
            with contextlib.suppress(Exception):
                client.close(timeout=CONNECT_TIMEOUT_S)
    finally:
        if cluster is not None:
            with contextlib.suppress(Exception):
                cluster.close(timeout=2 * CONNECT_TIMEOUT_S)


def _local_cluster(n: int) -> LocalCluster:
    """A LocalCluster of ``n`` single-threaded worker processes on the loopback interface; the
    dashboard on :8787 (or a free port) when bokeh is installed, else its HTTP server (which
    dask starts either way) on a free port."""
    from distributed import LocalCluster

    dashboard = ":8787" if importlib.util.find_spec("bokeh") is not None else ":0"
    return LocalCluster(n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1",
                        dashboard_address=dashboard, silence_logs=logging.ERROR, preload=[__name__])


def dask_setup(worker: object) -> None:
    """Run by each worker that preloads this module (``preload=["pipeline.run.execute"]``, as a
    LocalCluster of a run does; ``dask worker --preload pipeline.run.execute`` may too): imports the
    generation code before the first task, and a worker process with a nanny ignores SIGINT. The
    workers of a LocalCluster share the terminal of the run, so Ctrl-C reaches them too; the run
    stops them itself (status ``interrupted``) instead of each printing a KeyboardInterrupt
    traceback, and their nanny still ends them with SIGTERM/SIGKILL."""
    if multiprocessing.parent_process() is not None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _describe(client: Client, cluster: LocalCluster | None, local_workers: int, say: Log) -> str:
    """Log what the run executes on (and what looks wrong about it); return it in a few words."""
    nthreads: dict[str, int] = client.nthreads()
    if cluster is not None:
        # a remote scheduler's dashboard is its business (it reports one even without bokeh, the
        # package that serves the pages), so only a LocalCluster's is named
        dashboard = f", dashboard {cluster.dashboard_link}" if importlib.util.find_spec("bokeh") is not None else ""
        where = f"dask LocalCluster, {local_workers} worker process(es) on this machine"
        say(f"executor: {where} (scheduler {client.scheduler.address}{dashboard})", event="executor",
            kind="dask", scheduler=client.scheduler.address, workers=local_workers, local_cluster=True)
        return where
    where = f"dask scheduler {client.scheduler.address}"
    say(f"executor: {where}, {len(nthreads)} worker(s) with {sum(nthreads.values())} thread(s)",
        event="executor", kind="dask", scheduler=client.scheduler.address, workers=len(nthreads),
        threads=sum(nthreads.values()), local_cluster=False)
    if not nthreads:
        say("executor: no dask workers yet; the run waits for them (start: dask worker "
            f"{client.scheduler.address} --nthreads 1)", event="executor_no_workers", level="warning")
    many = sorted(a for a, n in nthreads.items() if n > 1)
    if many:
        say(f"executor: {len(many)} dask worker(s) have more than one thread; each process runs one numplace "
            "task at a time (start workers with --nthreads 1 and more --nworkers)", event="executor_threads",
            level="warning", workers=many)
    mine = _versions()
    try:
        theirs: dict[str, dict[str, str]] = client.run(_versions)
    except Exception as exc:  # e.g. a worker without numplace installed (its tasks would fail too)
        say(f"executor: cannot ask the dask workers for their versions ({_first_line(exc)}); is numplace "
            "installed on every worker?", event="executor_versions", level="warning")
        return where
    differ = sorted({f"{k} {v} (here {mine.get(k)})" for found in theirs.values() for k, v in found.items()
                     if v != mine.get(k)})
    if differ:
        say(f"executor: dask workers run other versions: {', '.join(differ)}; the puzzles may differ from "
            "another executor's (install the same lock file on every worker)", event="executor_versions",
            level="warning", differ=differ)
    return where


def _versions() -> dict[str, str]:
    """Python's and :data:`VERSIONED`'s versions in this process (also run on each dask worker)."""
    out = {"python": ".".join(map(str, sys.version_info[:3]))}
    for name in VERSIONED:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = "missing"
    return out


_task_lock = threading.Lock()


def _task(job: Job, indices: list[int], redraw: int) -> list[Item]:
    """What a dask worker runs: :func:`~pipeline.run.work.make_items`, one task per process at a
    time (the engines are per process and not thread-safe)."""
    with _task_lock:
        return make_items(job, indices, redraw)


class DaskExecutor:
    """Chunks as dask tasks through a connected :class:`distributed.Client` (see the module
    docstring for the contracts)."""

    def __init__(self, client: Client, where: str, logs: _DaskLogs | None = None) -> None:
        self.client, self.where, self._logs = client, where, logs
        self.address = str(client.scheduler.address)

    def map(self, job: Job, chunks: Sequence[list[int]], redraw: int = 0,
            ordered: bool = False) -> Iterator[list[Item]]:
        if not chunks:
            return iter(())
        return self._stream(job, [list(c) for c in chunks], redraw, ordered)

    def _window(self) -> int:
        try:
            threads = sum(self.client.nthreads().values())
        except Exception:  # asked again at the next refill; a lost scheduler shows in the wait
            threads = 0
        return max(MIN_WINDOW, WINDOW_PER_THREAD * threads)

    def _stream(self, job: Job, chunks: list[list[int]], redraw: int, ordered: bool) -> Iterator[list[Item]]:
        done: queue.SimpleQueue[int] = queue.SimpleQueue()
        futures: dict[int, Future] = {}
        ready: dict[int, list[Item]] = {}  # ordered: results back before their turn
        submitted = yielded = 0
        window = self._window()
        call = uuid.uuid4().hex  # task keys are unique per call: a key names one computation to dask
        try:
            while yielded < len(chunks):
                while submitted < len(chunks) and len(futures) + len(ready) < window:
                    key = f"numplace-chunk-{call}-{submitted}"
                    futures[submitted] = self._submit(job, chunks[submitted], redraw, key, submitted, done)
                    submitted += 1
                    if submitted % MIN_WINDOW == 0:
                        window = self._window()  # workers may have joined or left
                pos = self._next_done(done)
                fut = futures.pop(pos)
                items = self._result(fut, chunks[pos])
                fut.release()
                if not ordered:
                    yielded += 1
                    yield items
                    continue
                ready[pos] = items
                while yielded in ready:
                    out = ready.pop(yielded)
                    yielded += 1
                    yield out
        finally:
            if futures and self.client.status == "running":
                with contextlib.suppress(Exception):
                    self.client.cancel(list(futures.values()))

    def _submit(self, job: Job, chunk: list[int], redraw: int, key: str, pos: int,
                done: queue.SimpleQueue[int]) -> Future:
        if self.client.status != "running":
            raise self._lost()
        fut = self.client.submit(_task, job, chunk, redraw, key=key, pure=False)
        fut.add_done_callback(lambda _f: done.put(pos))
        return fut

    def _next_done(self, done: queue.SimpleQueue[int]) -> int:
        """The position of a chunk whose task ended (finished, failed or cancelled); raises
        :class:`ExecutorLost` when the client loses its scheduler while waiting."""
        while True:
            try:
                return done.get(timeout=_POLL_S)
            except queue.Empty:
                if self.client.status != "running":
                    raise self._lost() from None

    def _result(self, fut: Future, chunk: list[int]) -> list[Item]:
        from distributed import KilledWorker

        try:
            items: list[Item] = fut.result()
        except concurrent.futures.CancelledError:
            raise self._lost() from None
        except KilledWorker:
            raise self._failed(f"executor: the task of puzzles {chunk[0]}-{chunk[-1]} killed every dask worker that "
                               "ran it (out of memory? see the workers' logs)") from None
        except Exception as exc:  # make_items raises for no puzzle: a worker without numplace, or a bug
            if _scheduler_gone(exc, self.address) or self.client.status != "running":
                # the result's way back broke because the scheduler went (a race with _next_done's check)
                raise self._lost() from None
            raise self._failed(f"executor: the task of puzzles {chunk[0]}-{chunk[-1]} failed on a dask worker "
                               f"({type(exc).__name__}: {_first_line(exc)})") from exc
        return items

    def _lost(self) -> ExecutorLost:
        """The one message for a scheduler that went away mid-run."""
        return self._failed(f"executor.scheduler: lost the connection to the dask scheduler {self.address} mid-run")

    def _failed(self, message: str) -> ExecutorLost:
        if self._logs is not None:
            self._logs.mute()  # the client's own complaints about the lost connection add nothing
        return ExecutorLost(message)


class _DaskLogs(logging.Handler):
    """While open: this process's ``distributed`` log records of level WARNING and up (and a
    nanny's news of a dead worker process) go to the run's log (first line only, event
    ``dask_log``) instead of raw lines on stderr; ``mute`` drops
    them (after the executor failed, when the client's complaints would only repeat it)."""

    def __init__(self, say: Log) -> None:
        super().__init__(logging.INFO)  # INFO only for a nanny's "Worker process 123 was killed by signal 9"
        self.say = say
        self._muted = False
        self._saved: dict[logging.Logger, tuple[list[logging.Handler], bool]] = {}

    def mute(self) -> None:
        self._muted = True

    def __enter__(self) -> _DaskLogs:
        import distributed  # noqa: F401  (sets up its loggers' own stderr handlers first)

        # dask gives "distributed" and some of its children (distributed.client, ...) each a handler
        # of their own and propagate=False: take over every one that has handlers.
        names = ["distributed", *(n for n in logging.root.manager.loggerDict if n.startswith("distributed."))]
        for name in names:
            log = logging.getLogger(name)
            if name != "distributed" and not log.handlers:
                continue  # propagates to "distributed" (or to a child taken over here)
            self._saved[log] = (list(log.handlers), log.propagate)
            for h in log.handlers[:]:
                log.removeHandler(h)
            log.addHandler(self)
            log.propagate = False
        return self

    def __exit__(self, *_exc: object) -> None:
        for log, (handlers, propagate) in self._saved.items():
            log.removeHandler(self)
            for h in handlers:
                log.addHandler(h)
            log.propagate = propagate
        self._saved.clear()

    def emit(self, record: logging.LogRecord) -> None:
        if self._muted:
            return
        try:
            text = _first_line(record.getMessage()) or record.name
            if record.levelno < logging.WARNING and not text.startswith("Worker process"):
                return
            self.say(f"dask: {text}", event="dask_log", level="error" if record.levelno >= logging.ERROR else "warning",
                     logger=record.name)
        except Exception:  # a log record must never break the run
            self.handleError(record)


def _first_line(obj: object) -> str:
    lines = [ln.strip() for ln in str(obj).splitlines() if ln.strip()]
    return lines[0] if lines else ""


def _scheduler_gone(exc: BaseException, address: str | None) -> bool:
    """Whether ``exc`` is a closed connection to the scheduler at ``address`` (distributed's
    ``CommClosedError`` names the remote end)."""
    from distributed.comm.core import CommClosedError

    return isinstance(exc, CommClosedError) and address is not None and address in str(exc)
