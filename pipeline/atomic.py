"""Atomic file replacement: the one place that writes a file under a temporary name and renames it."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path


def atomic_write(path: Path, write: Callable[[Path], object]) -> None:
    """Replace ``path`` by what ``write(tmp)`` puts in a temporary file, atomically.

    Contract: a reader of ``path`` sees the old file (or no file) or the new one whole, never a
    part. ``write`` receives the path of an empty temporary file ``.{path.name}.XXXX.tmp`` in the
    same folder as ``path`` (so the rename stays on one file system); once it returns, the file is
    fsynced and renamed onto ``path`` with :func:`os.replace`. If anything fails, ``KeyboardInterrupt``
    included, the temporary file is removed, ``path`` is left as it was and the exception propagates.
    The folder must exist. Whatever ``write`` returns is ignored.
    """
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        write(Path(tmp))
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
