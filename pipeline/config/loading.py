"""Reading a run config: :func:`load` (a YAML file plus command-line overrides) and :func:`validate`
(a parsed mapping), to a :class:`~pipeline.config.model.Config`.

Contract: every user mistake, in the file or in a flag, is one :class:`ConfigError` whose message
names the path, line, field or flag, e.g. ``removel: unknown key (did you mean removal?)``. Nothing
else in the package catches pydantic errors of the run config.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from pipeline.config.messages import ConfigError, echo, error_line
from pipeline.config.model import Config
from pipeline.config.sections import address_problem
from pipeline.config.strict_yaml import read_yaml

#: Marks an override that removes a key of the config file (see :func:`load`).
DROP: Any = object()


def executor_overrides(kind: str | None, scheduler: str | None) -> dict[str, Any]:
    """The :func:`load` overrides for ``numplace run --executor KIND --scheduler ADDR``.

    ``--executor local`` replaces the file's executor section with ``{kind: local}``;
    ``--executor dask`` sets the kind and keeps the file's ``scheduler`` / ``local_workers``;
    ``--scheduler ADDR`` means ``kind: dask`` with that scheduler (the file's ``local_workers`` is
    dropped). Raises :class:`ConfigError` naming the flag for a bad value or a contradiction."""
    if kind is not None and kind not in ("local", "dask"):
        raise ConfigError(f"--executor: {echo(kind)} is not one of local, dask")
    if scheduler is not None:
        if kind == "local":
            raise ConfigError("--scheduler: only with --executor dask (the local executor has no scheduler)")
        why = address_problem(scheduler)
        if why:
            raise ConfigError(f"--scheduler: {why}")
        return {"executor.kind": "dask", "executor.scheduler": scheduler, "executor.local_workers": DROP}
    if kind == "local":
        return {"executor.kind": "local", "executor.scheduler": DROP, "executor.local_workers": DROP}
    return {"executor.kind": kind}


def validate(data: Any) -> Config:
    """Validate a parsed config mapping; raises :class:`ConfigError` with one line."""
    if not isinstance(data, dict):
        raise ConfigError("config must be a mapping of keys (name, seed, count, ...)")
    try:
        return Config.model_validate(data)
    except ValidationError as err:
        raise ConfigError(error_line(err, Config)) from None


def load(path: Path, overrides: dict[str, Any] | None = None) -> Config:
    """Read (:func:`read_yaml`), apply ``overrides`` (dotted keys, e.g. ``{"output.dir": "x"}``; a
    None value is no override, :data:`DROP` removes the key), validate. Every problem is one
    :class:`ConfigError` line naming the path, line or field."""
    data = read_yaml(path)
    if isinstance(data, dict):
        for dotted, value in (overrides or {}).items():
            if value is None:
                continue
            node = data
            *parents, leaf = dotted.split(".")
            for p in parents:
                node = node.setdefault(p, {}) if isinstance(node.get(p, {}), dict) else {}
            if value is DROP:
                node.pop(leaf, None)
            else:
                node[leaf] = value
    return validate(data)
