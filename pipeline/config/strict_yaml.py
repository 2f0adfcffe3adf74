"""The strict YAML reader every numplace YAML file goes through (run and book configs).

:func:`read_yaml` reads with ``yaml.safe_load``'s loader made stricter (:class:`_UniqueKeyLoader`, a
:class:`yaml.SafeLoader` subclass): a key repeated in one mapping, any alias (``*name``, so no alias
bomb can expand) and nesting deeper than :data:`MAX_DEPTH` are refused, and a file may hold at most
:data:`MAX_BYTES`. Contract: every problem with the file is one :class:`ConfigError` line naming the
path (and the line); an alias bomb or a deep nest ends in that line, never in gigabytes or a
RecursionError.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml

from pipeline.config.messages import ConfigError, echo

#: Limits on what a config file may be: its size in bytes, and how deep mappings/sequences may nest.
MAX_BYTES = 1_000_000
MAX_DEPTH = 32


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
