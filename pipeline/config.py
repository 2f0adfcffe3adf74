"""The YAML config: pydantic models with ``extra="forbid"``, loaded with ``yaml.safe_load``'s loader
(a :class:`yaml.SafeLoader` subclass that also refuses a key repeated in one mapping, aliases
(``*name``, so no alias bomb can expand) and nesting deeper than :data:`MAX_DEPTH`); a config file
may hold at most :data:`MAX_BYTES`.

:func:`load` turns every user mistake into one :class:`ConfigError` whose message names the field,
e.g. ``removel: unknown key (did you mean removal?)``. Nothing else in the package catches pydantic
errors. :func:`config_hash` identifies the set a config describes: keys that cannot change the puzzles
(``workers``, ``executor``, ``output.dir``) are left out, so a resumed run on another machine keeps its hash.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from pipeline import symmetry
from pipeline.board import Grid, PuzzleFormatError, parse
from pipeline.difficulty.techniques import LEVELS
from pipeline.symmetry import TAGS

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")

# The fewest givens a unique puzzle can have, where it is known (9x9: McGuire et al. 2012).
MIN_HINTS = {4: 4, 6: 8, 9: 17}


# Limits on what a config file may be (an alias bomb or a deep nest must end in one line, not in
# gigabytes or a RecursionError), and on how much of a bad value an error message echoes.
MAX_BYTES = 1_000_000
MAX_DEPTH = 32
ECHO_CHARS = 80


def echo(value: object) -> str:
    """``repr(value)`` for an error message, cut to :data:`ECHO_CHARS` characters plus ``…``."""
    text = repr(value)
    return text if len(text) <= ECHO_CHARS else text[:ECHO_CHARS] + "…"


class ConfigError(ValueError):
    """A config mistake; ``str(err)`` is one line naming the field."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class BoardCfg(_Strict):
    size: Literal[4, 6, 9, 16] = 9


class GridCfg(_Strict):
    method: Literal["weighted-ilp", "uniform"] = "weighted-ilp"
    fixed: str | None = None
    keep_fixed: bool = False


class DedupCfg(_Strict):
    catalog: bool = True  # also reject puzzles already in the output root's catalog
    max_redraws: int = Field(default=50, ge=1, le=10_000, strict=True)


class HintsCfg(_Strict):
    target: int | None = Field(default=None, ge=1, strict=True)
    min: int | None = Field(default=None, ge=1, strict=True)
    max: int | None = Field(default=None, ge=1, strict=True)

    @model_validator(mode="after")
    def _one_form(self) -> HintsCfg:
        if self.target is not None and (self.min is not None or self.max is not None):
            raise ValueError("give either target or min/max, not both")
        if self.target is None and (self.min is None or self.max is None):
            raise ValueError("give target, or both min and max")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min ({self.min}) is greater than max ({self.max})")
        return self

    @property
    def bounds(self) -> tuple[int, int]:
        if self.target is not None:
            return self.target, self.target
        assert self.min is not None and self.max is not None
        return self.min, self.max


class RemovalCfg(_Strict):
    symmetry: Literal[(*TAGS, "random")] = "rot180"  # type: ignore[valid-type]
    minimal: bool | None = None
    hints: HintsCfg | None = None
    max_attempts: int = Field(default=20, ge=1, le=10_000, strict=True)
    time_limit: float = Field(default=60.0, gt=0)

    @model_validator(mode="after")
    def _one_rule(self) -> RemovalCfg:
        if self.minimal and self.hints is not None:
            raise ValueError("choose one stop rule: minimal: true or hints")
        if self.minimal is False and self.hints is None:
            raise ValueError("minimal: false needs a hints rule")
        return self

    @property
    def is_minimal(self) -> bool:
        return self.hints is None


class ScoreCfg(_Strict):
    min: float | None = Field(default=None, ge=0)
    max: float | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _order(self) -> ScoreCfg:
        if self.min is None and self.max is None:
            raise ValueError("give min, max or both")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min ({self.min}) is greater than max ({self.max})")
        return self


class DifficultyCfg(_Strict):
    levels: list[Literal[LEVELS]] | None = None  # type: ignore[valid-type]
    score: ScoreCfg | None = None
    quota: dict[Literal[LEVELS], Annotated[int, Field(ge=1, strict=True)]] | None = None  # type: ignore[valid-type]
    max_attempts: int = Field(default=200, ge=1, le=100_000, strict=True)

    @model_validator(mode="after")
    def _some_target(self) -> DifficultyCfg:
        if self.quota is not None:
            if self.levels or self.score is not None:
                raise ValueError("quota makes a mix of levels: give quota, or levels/score, not both")
            return self
        if not self.levels and self.score is None:
            raise ValueError("give levels, score, quota, or levels and score")
        return self


class OutputCfg(_Strict):
    dir: str = "outputs"
    shard_size: int = Field(default=500, ge=1, le=1_000_000, strict=True)

    @field_validator("dir")
    @classmethod
    def _dir(cls, v: str) -> str:
        """An empty (or blank) ``dir`` is refused: it would silently mean the working folder."""
        if not v.strip():
            raise ValueError("empty; name the output root folder (e.g. outputs, or . for the working folder)")
        return v


_ADDRESS = re.compile(r"^tcp://(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?):(?P<port>[0-9]{1,5})$")


def address_problem(text: str) -> str | None:
    """Why ``text`` is not a dask scheduler address ``tcp://HOST:PORT`` (a host name, an IPv4
    address or a bracketed IPv6 address, and a port 1-65535), or None if it is one. The form only:
    whether a scheduler listens there is found out when the run connects."""
    m = _ADDRESS.match(text)
    if m is None or not 1 <= int(m["port"]) <= 65535:
        return f"{echo(text)} is not a scheduler address like tcp://host:8786"
    return None


class ExecutorCfg(_Strict):
    """Where the workers run (``executor``). ``local``: worker processes of this machine (joblib /
    loky; ``workers`` of them). ``dask``: a dask.distributed cluster, either the one whose scheduler
    listens at ``scheduler`` (``tcp://host:8786``), or, without ``scheduler``, a LocalCluster of
    ``local_workers`` processes (default: ``workers``) started for the run. Never part of the config
    hash: a set may be continued on another executor and its puzzles are the same."""

    kind: Literal["local", "dask"] = "local"
    scheduler: str | None = None
    local_workers: int | None = Field(default=None, ge=1, le=4096, strict=True)

    @field_validator("scheduler")
    @classmethod
    def _address(cls, v: str | None) -> str | None:
        why = address_problem(v) if v is not None else None
        if why:
            raise ValueError(f"executor.scheduler: {why}")  # named here: the message starts with the value
        return v

    @model_validator(mode="after")
    def _fits_kind(self) -> ExecutorCfg:
        if self.kind == "local" and self.scheduler is not None:
            raise ValueError("executor.scheduler: only with kind: dask (the local executor has no scheduler)")
        if self.kind == "local" and self.local_workers is not None:
            raise ValueError("executor.local_workers: only with kind: dask (the local executor uses workers)")
        if self.scheduler is not None and self.local_workers is not None:
            raise ValueError("executor.local_workers: give scheduler (a running cluster) or local_workers "
                             "(a LocalCluster started for the run), not both")
        return self


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


class Config(_Strict):
    name: str
    seed: int = Field(ge=0, le=2**63 - 1, strict=True)
    count: int = Field(ge=1, le=10_000_000, strict=True)
    board: BoardCfg = BoardCfg()
    grid: GridCfg = GridCfg()
    removal: RemovalCfg = RemovalCfg()
    workers: Any = "auto"
    output: OutputCfg = OutputCfg()
    engine: Literal["hybrid", "ilp"] = "hybrid"
    difficulty: DifficultyCfg | None = None
    dedup: DedupCfg = DedupCfg()
    executor: ExecutorCfg = ExecutorCfg()

    @model_validator(mode="before")
    @classmethod
    def _count_from_quota(cls, data: Any) -> Any:
        """With ``difficulty.quota`` the count may be left out (it is the quota's sum); given, it
        must agree."""
        if not isinstance(data, dict):
            return data
        diff = data.get("difficulty")
        quota = diff.get("quota") if isinstance(diff, dict) else None
        if not isinstance(quota, dict) or not all(type(v) is int for v in quota.values()):
            return data
        total = sum(quota.values())
        if any(v < 1 for v in quota.values()):
            return {**data, "count": data.get("count", 1)}  # the quota's own error names the level
        if data.get("count") is None:
            return {**data, "count": total}
        if data["count"] != total:
            raise ValueError(f"count: {echo(data['count'])} does not match difficulty.quota, which adds up to {total} "
                             "(leave count out)")
        return data

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        if not _NAME.match(v):
            raise ValueError(
                f"{echo(v)} cannot name the output folder; use up to 100 letters, digits, '_', '.' or '-'"
            )
        return v

    @field_validator("workers")
    @classmethod
    def _workers(cls, v: object) -> object:
        if v == "auto" or (isinstance(v, int) and not isinstance(v, bool) and v >= 1):
            return v
        raise ValueError(f"{echo(v)} is not 'auto' or a number of workers >= 1")

    @model_validator(mode="after")
    def _fits_board(self) -> Config:
        n = self.board.size
        if self.grid.fixed is not None:
            try:
                parse(self.grid.fixed, n)
            except PuzzleFormatError as exc:
                raise ValueError(f"grid.fixed: {exc}") from None
        elif self.grid.keep_fixed:
            raise ValueError("grid.keep_fixed: true needs grid.fixed")
        if self.grid.method == "uniform" and (n != 9 or self.grid.fixed is not None):
            raise ValueError("grid.method: uniform is for 9x9 boards without fixed cells (use weighted-ilp)")
        if self.removal.hints is not None:
            _, hi = self.removal.hints.bounds
            if self.grid.keep_fixed and self.grid.fixed is not None:
                # kept fixed cells lock their whole symmetry orbits (any tag, for symmetry: random)
                cells = {i for i, d in enumerate(parse(self.grid.fixed, n)) if d}
                tag = self.removal.symmetry
                locked = len(cells) if tag == "random" else sum(
                    len(o) for o in symmetry.orbits(tag, n) if cells.intersection(o))
                if locked > hi:
                    with_orbits = f" ({locked} with their {tag} orbits)" if locked != len(cells) else ""
                    raise ValueError(f"grid.keep_fixed: the {len(cells)} fixed cells of grid.fixed{with_orbits} stay "
                                     f"givens, more than removal.hints allows ({hi})")
            if hi > n * n:
                raise ValueError(f"removal.hints: {hi} is more than the {n * n} cells of a {n}x{n} board")
            floor = MIN_HINTS.get(n)
            if floor is not None and hi < floor:
                raise ValueError(
                    f"removal.hints: no {n}x{n} puzzle with fewer than {floor} givens has a unique solution"
                )
        return self

    @property
    def fixed_grid(self) -> Grid | None:
        return None if self.grid.fixed is None else parse(self.grid.fixed, self.board.size)


_SECTIONS: dict[str, type[BaseModel]] = {
    "": Config, "board": BoardCfg, "grid": GridCfg, "removal": RemovalCfg,
    "removal.hints": HintsCfg, "output": OutputCfg, "difficulty": DifficultyCfg, "difficulty.score": ScoreCfg,
    "dedup": DedupCfg, "executor": ExecutorCfg,
}


def _message(err: ValidationError) -> str:
    """One line for the first error: ``field.path: what is wrong``."""
    e = err.errors()[0]
    loc = [str(p) for p in e["loc"] if not str(p).startswith(("function-", "literal[", "int", "str"))]
    path = ".".join(loc)
    if e["type"] == "extra_forbidden":
        parent, key = ".".join(loc[:-1]), loc[-1]
        fields = list(_SECTIONS[parent].model_fields) if parent in _SECTIONS else []
        near = difflib.get_close_matches(key, fields, n=1)
        hint = f" (did you mean {near[0]}?)" if near else f" (known keys: {', '.join(fields)})"
        return f"{path}: unknown key{hint}"
    if e["type"] == "missing":
        return f"{path}: required key is missing"
    msg = re.sub(r"^(Value error|Assertion failed), ", "", e["msg"])
    if ":" in msg.split(" ")[0]:  # message already names its field
        return msg
    if e["type"] == "literal_error":
        return f"{path}: {echo(e.get('input'))} is not allowed; {msg[0].lower()}{msg[1:]}"
    return f"{path}: {msg}" if path else msg


class _LoaderError(yaml.constructor.ConstructorError):
    """A config the loader refuses (``problem`` says why, ``problem_mark`` where): a key given twice
    in one mapping, an alias, or nesting deeper than :data:`MAX_DEPTH`."""


class _UniqueKeyLoader(yaml.SafeLoader):
    """``yaml.safe_load``'s loader (same tags, same safety) that also refuses:

    * a key repeated in one mapping (instead of keeping the last value);
    * any alias (``*name``, including merges ``<<: *name``): an alias bomb cannot expand, and no
      error message can echo an expansion; a lone anchor (``&name``) is harmless and allowed;
    * nesting deeper than :data:`MAX_DEPTH` mappings/sequences (no RecursionError).

    Aliases and depth are refused while composing, before any object is built."""

    _depth = 0

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise _LoaderError(None, None, f"alias *{event.anchor}: aliases are not allowed in a config "
                               "(write the value out)", event.start_mark)
        nested = self.check_event(yaml.MappingStartEvent, yaml.SequenceStartEvent)
        if nested and self._depth >= MAX_DEPTH:
            raise _LoaderError(None, None, f"nested more than {MAX_DEPTH} levels deep", self.peek_event().start_mark)
        self._depth += nested
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= nested

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":  # an inline merge (<<: {...}) may be overridden
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                repeated = key in seen
                seen.add(key)
            except TypeError:  # an unhashable key: the base class reports it
                continue
            if repeated:
                raise _LoaderError(None, None, f"duplicate key {echo(key)}", key_node.start_mark)
        return super().construct_mapping(node, deep=deep)


def validate(data: Any) -> Config:
    """Validate a parsed config mapping; raises :class:`ConfigError` with one line."""
    if not isinstance(data, dict):
        raise ConfigError("config must be a mapping of keys (name, seed, count, ...)")
    try:
        return Config.model_validate(data)
    except ValidationError as err:
        raise ConfigError(_message(err)) from None


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


def read_yaml(path: Path, what: str = "config") -> Any:
    """The YAML document at ``path``, read the one way every numplace YAML file is read (run and
    book configs). Every problem is one :class:`ConfigError` line naming the path (and the line):
    a missing or unreadable file (a folder, a symlink loop, no permission), a file over
    :data:`MAX_BYTES`, text that is not UTF-8, invalid YAML, a duplicate key, an alias, too deep a
    nest. ``what`` names the kind of file in the messages."""
    try:
        with open(path, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            raw = fh.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise ConfigError(f"{path}: {what} file not found") from None
    except OSError as exc:  # a folder, a symlink loop, no permission, ...
        why = exc.strerror or exc.__class__.__name__
        raise ConfigError(f"{path}: cannot read {what} ({why})") from None
    if len(raw) > MAX_BYTES:
        raise ConfigError(f"{path}: {what} file is too large ({max(size, len(raw)):,} bytes; at most "
                          f"{MAX_BYTES:,})")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: cannot read {what} (not UTF-8 text)") from None
    try:
        return yaml.load(text, Loader=_UniqueKeyLoader)  # a SafeLoader subclass: safe_load's safety
    except _LoaderError as exc:
        assert exc.problem_mark is not None
        raise ConfigError(f"{path}:line {exc.problem_mark.line + 1}: {exc.problem}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise ConfigError(f"{path}:{where}: {problem}") from None
    except RecursionError:  # the depth limit should come first; never a traceback
        raise ConfigError(f"{path}: nested too deeply") from None


#: Keys added to the config after runs already existed, with the value that means "as before": at
#: that value a key is left out of the hash, so a config that does not use it hashes as it did before
#: the key existed (a run made then still resumes, and the set's next run is not "another config").
#: A key that is added must be listed here with its default.
ADDED_KEYS: dict[tuple[str, ...], Any] = {}


def hash_of(data: Mapping[str, Any]) -> str:
    """:func:`config_hash` of a config as ``Config.model_dump(mode="json")`` gave it (also one a
    manifest saved): excludes ``workers``, ``executor`` and ``output.dir`` (where and on how many
    processes puzzles are made never changes them) and :data:`ADDED_KEYS` at their old meaning."""
    data = dict(json.loads(json.dumps(data)))
    data.pop("workers", None)
    data.pop("executor", None)
    data["output"].pop("dir", None)
    for path, default in ADDED_KEYS.items():
        *parents, last = path
        holder: Any = data
        for key in parents:
            holder = holder.get(key) if isinstance(holder, dict) else None
        if isinstance(holder, dict) and last in holder and holder[last] == default:
            del holder[last]
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def config_hash(cfg: Config) -> str:
    """16 hex digits identifying the puzzle set (see :func:`hash_of`)."""
    return hash_of(cfg.model_dump(mode="json"))


def parse_workers(text: str, flag: str = "--workers") -> int | str:
    """A worker count as typed on the command line: ``auto`` or a whole number >= 1 (the same rule
    as the ``workers`` key); raises :class:`ConfigError` naming ``flag``."""
    if text == "auto":
        return text
    if text.isdigit() and int(text) >= 1:
        return int(text)
    raise ConfigError(f"{flag}: {echo(text)} is not 'auto' or a number of workers >= 1")


def worker_count(workers: int | str) -> int:
    """The number of worker processes ``workers`` (``auto`` or a number) stands for on this machine:
    ``auto`` is the CPUs this process may run on."""
    if workers == "auto":
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except AttributeError:  # not on Linux
            return max(1, os.cpu_count() or 1)
    return int(workers)
