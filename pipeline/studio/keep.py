"""What a page computed once, kept on disk across studio restarts. Pure: no web framework.

Contracts:

* A kept value is JSON, in ``tablecache.cache_dir()/studio/`` (``$NUMPLACE_CACHE_DIR``, else the
  user's cache folder, ``~/.cache/numplace``): never beside a set, which browsing leaves untouched.
* Its name is the SHA-256 of the kind, numplace's version and the key's parts (for a set: its path
  and every file's name, size and modification time), so a changed set, a new run or another
  version of numplace is a different key: nothing stale is read back.
* :func:`load` returns None for a missing or unreadable value; :func:`save` writes atomically and
  gives up silently when the cache folder cannot be written (the page then computes it again next
  time); neither raises.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from pipeline import __version__
from pipeline.atomic import atomic_write
from pipeline.tablecache import cache_dir


def folder() -> Path:
    """The folder of the studio's kept values."""
    return cache_dir() / "studio"


def _path(kind: str, key: Any) -> Path:
    text = json.dumps([kind, __version__, key], default=str, sort_keys=True)
    return folder() / f"{kind}-{hashlib.sha256(text.encode()).hexdigest()[:32]}.json"


def load(kind: str, key: Any) -> Any | None:
    """The value kept for ``(kind, key)``, or None."""
    try:
        return json.loads(_path(kind, key).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def save(kind: str, key: Any, value: Any) -> None:
    """Keep ``value`` (JSON-able) for ``(kind, key)`` (see the contract: never raises)."""
    path = _path(kind, key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, lambda tmp: tmp.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8"))
    except OSError:
        return
