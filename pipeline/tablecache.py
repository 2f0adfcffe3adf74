"""Precomputed numpy tables cached on disk, checksummed, and loaded once per process.

A table file is ``cache_dir()/name``: a ``.npz`` archive of named arrays plus ``__sha256__``, the
SHA-256 (:func:`digest`) of the arrays themselves. A missing, unreadable or mismatching file is
rebuilt, never trusted, and rewritten atomically (:func:`pipeline.atomic.atomic_write`).
:class:`Tables` keeps the loaded tables of one file in memory, wrapped in whatever object its user
derives from the arrays.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Generic, TypeVar

import numpy as np

from pipeline.atomic import atomic_write

Arrays = dict[str, np.ndarray]
T = TypeVar("T")

_CHECKSUM = "__sha256__"


def cache_dir() -> Path:
    """Where tables are cached: ``$NUMPLACE_CACHE_DIR``, else ``$XDG_CACHE_HOME/numplace``, else
    ``~/.cache/numplace``. The directory is created on first write, not here."""
    override = os.environ.get("NUMPLACE_CACHE_DIR")
    if override:
        return Path(override)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "numplace"


def digest(arrays: Arrays) -> bytes:
    """SHA-256 over the arrays in name order: each name, dtype, shape and raw bytes."""
    h = hashlib.sha256()
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(f"{name}|{a.dtype.str}|{a.shape}|".encode())
        h.update(a.tobytes())
    return h.digest()


def load_or_build(name: str, build: Callable[[], Arrays]) -> Arrays:
    """Arrays cached as ``cache_dir()/name``; verified by their SHA-256, else rebuilt and rewritten.

    The file is written atomically (temp file + rename). If the cache directory cannot be written,
    the freshly built arrays are returned all the same.
    """
    path = cache_dir() / name
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
        stored = arrays.pop(_CHECKSUM)
        if stored.tobytes() == digest(arrays):
            return arrays
    except Exception:  # missing, truncated, not a zip, wrong keys: all mean "rebuild"
        pass
    arrays = build()
    payload = dict(arrays)
    payload[_CHECKSUM] = np.frombuffer(digest(arrays), dtype=np.uint8)

    def write(tmp: Path) -> None:
        with open(tmp, "wb") as fh:  # a file object, so numpy does not append ".npz" to the name
            np.savez_compressed(fh, **payload)  # type: ignore[arg-type]

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, write)
    except OSError:
        pass
    return arrays


class Tables(Generic[T]):
    """The tables of one cache file, loaded (or built) once per process and kept as ``wrap(arrays)``.

    ``wrap`` may reject arrays that passed the checksum but do not make sense (``ValueError``,
    ``KeyError`` or ``IndexError``, e.g. a file written by a buggy build): the file is then deleted
    and the tables rebuilt once; a second rejection propagates.
    """

    def __init__(self, name: str, build: Callable[[], Arrays], wrap: Callable[[Arrays], T]) -> None:
        self.name = name
        self._build = build
        self._wrap = wrap
        self._value: T | None = None

    def get(self) -> T:
        """The wrapped tables, loaded from the cache or built (and cached) on first use."""
        if self._value is None:
            arrays = load_or_build(self.name, self._build)
            try:
                value = self._wrap(arrays)
            except (ValueError, KeyError, IndexError):  # checksummed but inconsistent: rebuild
                (cache_dir() / self.name).unlink(missing_ok=True)
                value = self._wrap(load_or_build(self.name, self._build))
            self._value = value
        return self._value

    def reset(self) -> None:
        """Forget the loaded tables (the next :meth:`get` reloads or rebuilds them); for tests."""
        self._value = None
