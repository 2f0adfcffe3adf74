"""One run of a set at a time: an exclusive lock on ``<set folder>/_lock``.

The lock is a ``flock`` on the file, held by the running process for the whole run (new or
resumed). The kernel releases it when the process ends in any way, ``kill -9`` included, so a lock
is never stale in the kernel's eyes. While held, the file holds the holder's pid, host and start
time, so that a second run can name the holder; a release empties it, so details found by the next
run mean the holder died (``kill -9``, power loss), and the run that takes over says so in the
log. Local file systems only (``flock`` over NFS is not reliable).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import fcntl
import json
import os
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from types import TracebackType

from pipeline.atomic import DiskFull
from pipeline.errors import UserError
from pipeline.run.layout import CATALOG, LOCK


class SetLocked(UserError, RuntimeError):
    """Another process is making this set now (message names it); the CLI exits 75 (try again later),
    not 2, as it is a condition to wait out rather than a mistake."""


class SetLock:
    """The held lock of one set folder; :meth:`release` (or leaving the ``with`` block) frees it."""

    def __init__(self, set_dir: Path) -> None:
        self.path = set_dir / LOCK
        self._fd: int | None = None

    @classmethod
    def acquire(cls, set_dir: Path, say: Callable[[str], None]) -> SetLock:
        """Take the lock of ``set_dir`` (folder and file created if missing) or raise
        :class:`SetLocked` naming the holder; ``OSError`` when the file cannot be made. ``say`` logs a
        takeover from a holder that died without releasing it."""
        lock = cls(set_dir)
        set_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(lock.path, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _describe(_read(fd))
            os.close(fd)
            raise SetLocked(f"{set_dir}: this set is being made by {holder}; try again when it has finished") from None
        before = _read(fd)
        if before and before.get("host") == socket.gethostname() and not _alive(int(str(before.get("pid", 0)))):
            say(f"took over the lock of {set_dir} from {_describe(before)}, which is no longer running")
        info = {"pid": os.getpid(), "host": socket.gethostname(),
                "started": dt.datetime.now(dt.UTC).isoformat(timespec="seconds")}
        os.ftruncate(fd, 0)
        os.pwrite(fd, (json.dumps(info) + "\n").encode(), 0)
        lock._fd = fd
        return lock

    @staticmethod
    def busy(set_dir: Path) -> bool:
        """Whether a process holds the lock of ``set_dir`` now (a probe: the lock is not kept, the
        file not changed)."""
        try:
            fd = os.open(set_dir / LOCK, os.O_RDONLY)
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        finally:
            os.close(fd)  # closing the descriptor frees a lock this probe took
        return False

    def release(self) -> None:
        """Free the lock (the file stays, empty)."""
        if self._fd is not None:
            os.ftruncate(self._fd, 0)
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> SetLock:
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None) -> None:
        self.release()


def _read(fd: int) -> dict[str, object]:
    try:
        data = json.loads(os.pread(fd, 4096, 0).decode() or "{}")
    except (ValueError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def _describe(info: dict[str, object]) -> str:
    if not info:
        return "another process"
    return f"pid {info.get('pid')} on {info.get('host')} (started {info.get('started')})"


def _alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextlib.contextmanager
def dedup_lock(root: Path) -> Iterator[None]:
    """Hold the dedup lock of the output root ``root`` (waits for it): one run at a time decides
    duplicates and writes a part under ``root``. A full device is :class:`~pipeline.atomic.DiskFull`."""
    folder = root / CATALOG
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError as exc:
        if exc.errno == errno.ENOSPC:
            raise DiskFull(folder) from exc
        raise
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # frees the lock
