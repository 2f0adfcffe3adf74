"""Atomic file replacement: the one place that writes a file under a temporary name and renames it."""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

_STATUS = Path("/proc/self/status")
_umask: int | None = None
_umask_lock = threading.Lock()
#: Below this many free bytes a failed write is taken to be a full disk, whatever the writer said
#: (polars reports a full disk as "Invalid thrift: transport error" or similar, without an errno).
TINY_FREE = 1 << 20


class DiskFull(OSError):
    """A write failed because the file system holding ``path`` is full (errno ``ENOSPC``).

    ``str()`` is the one user-facing line ``no space left on <path>``. ``run_dir`` is set by a run
    that was writing into a run folder (it stays resumable: finished parts are kept)."""

    def __init__(self, path: Path) -> None:
        super().__init__(errno.ENOSPC, f"no space left on {path}")
        self.path = path
        self.run_dir: Path | None = None

    def __str__(self) -> str:
        return f"no space left on {self.path}"


def is_disk_full(exc: BaseException, folder: Path) -> bool:
    """Whether ``exc``, raised while writing into ``folder``, means the device is full: an OSError
    with errno ``ENOSPC``, or any other error while ``folder``'s file system has less than
    :data:`TINY_FREE` bytes free."""
    if isinstance(exc, DiskFull) or (isinstance(exc, OSError) and exc.errno == errno.ENOSPC):
        return True
    if isinstance(exc, KeyboardInterrupt | SystemExit | GeneratorExit):
        return False
    try:
        return shutil.disk_usage(folder).free < TINY_FREE
    except OSError:
        return False


def atomic_write(path: Path, write: Callable[[Path], object]) -> None:
    """Replace ``path`` by what ``write(tmp)`` puts in a temporary file, atomically.

    Contract: a reader of ``path`` sees the old file (or no file) or the new one whole, never a
    part. ``write`` receives the path of an empty temporary file ``.{path.name}.XXXX.tmp`` in the
    same folder as ``path`` (so the rename stays on one file system); once it returns, the file is
    given the mode an ordinary new file would have (``0o666 & ~umask``: 0644 under umask 022;
    :func:`tempfile.mkstemp` makes it 0600), fsynced and renamed onto ``path`` with
    :func:`os.replace`, so ``path`` never appears with the wrong mode. If anything fails,
    ``KeyboardInterrupt`` included, the temporary file is removed, ``path`` is left as it was and the
    exception propagates, except that a failure due to a full device (:func:`is_disk_full`) is
    raised as :class:`DiskFull` naming ``path``. The folder must exist. Whatever ``write`` returns
    is ignored.
    """
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        if exc.errno == errno.ENOSPC:
            raise DiskFull(path) from exc
        raise
    os.close(fd)
    try:
        write(Path(tmp))
        with open(tmp, "rb") as fh:  # the file ``write`` left, even if it replaced the one we made
            os.fchmod(fh.fileno(), 0o666 & ~current_umask())
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        full = is_disk_full(exc, path.parent)  # asked before the temp file goes and frees its space
        Path(tmp).unlink(missing_ok=True)
        if full and not isinstance(exc, DiskFull):
            raise DiskFull(path) from exc
        raise


def current_umask() -> int:
    """This process's umask, read once and cached (numplace never changes its own umask).

    There is no getter: ``os.umask`` sets a new mask and returns the old one, and between the two
    calls of a set-and-restore round trip another thread would create files under the wrong mask.
    So Linux's ``/proc/self/status`` line ``Umask:`` is read where there is one; the round trip is
    the fallback, under a lock and through 0o077 (a file another thread creates meanwhile comes out
    too private, never too open). :func:`reset_umask_cache` forgets the value (tests that set a
    umask call it).
    """
    global _umask
    with _umask_lock:
        if _umask is None:
            _umask = _read_umask()
        return _umask


def reset_umask_cache() -> None:
    """Forget the cached umask; the next :func:`current_umask` reads it again."""
    global _umask
    with _umask_lock:
        _umask = None


def _read_umask(status: Path = _STATUS) -> int:
    try:
        with open(status, "rb") as fh:  # bytes: the Name: line may be in any encoding
            for line in fh:
                if line.startswith(b"Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o077)
    os.umask(mask)
    return mask
