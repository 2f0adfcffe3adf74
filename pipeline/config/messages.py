"""How a config mistake is told: :class:`ConfigError`, :func:`echo` for a bad value, and
:func:`error_line`, the one formatter that turns a pydantic :class:`~pydantic.ValidationError` into
one line naming the field (``removel: unknown key (did you mean removal?)``).

Contracts: every message is one line; a value the user wrote is echoed cut to :data:`ECHO_CHARS`
characters (no error line can grow with its input). :func:`error_line` serves both YAML configs, the
run config (:mod:`pipeline.config.loading`) and the book config (:mod:`pipeline.publish.book`); each
keeps its own spelling of list items and of refused values (see its ``items`` and ``show``).
"""

from __future__ import annotations

import difflib
import re
import types
import typing
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from pipeline.errors import UserError

#: How much of a bad value an error message echoes.
ECHO_CHARS = 80


def echo(value: object) -> str:
    """``repr(value)`` for an error message, cut to :data:`ECHO_CHARS` characters plus ``…``."""
    text = repr(value)
    return text if len(text) <= ECHO_CHARS else text[:ECHO_CHARS] + "…"


class ConfigError(UserError, ValueError):
    """A config mistake; ``str(err)`` is one line naming the field."""


def _model_at(root: type[BaseModel], loc: Sequence[str | int]) -> type[BaseModel] | None:
    """The model at the field path ``loc`` below ``root`` (list items, as ints or digit strings, are
    stepped over), or None where the path leaves the models."""
    model: type[BaseModel] | None = root
    for part in loc:
        if model is None or isinstance(part, int) or part.isdigit():
            continue
        info = model.model_fields.get(part)
        if info is None:
            return None
        model = _inner_model(info.annotation)
    return model


def _inner_model(tp: Any) -> type[BaseModel] | None:
    """The model a field holds: itself, or the first model inside an optional, a union, a list or a tuple."""
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return tp
    if isinstance(tp, types.UnionType) or typing.get_origin(tp) in (typing.Union, list, tuple):
        for arg in typing.get_args(tp):
            found = _inner_model(arg)
            if found is not None:
                return found
    return None


def _part(part: str | int) -> str | int:
    """A part of a field path as written, or :func:`echo`'s quoted form for a key a line cannot show
    as it is (empty, blank at an end, a control character such as a line break, too long)."""
    if isinstance(part, int) or (part and part.isprintable() and part == part.strip() and len(part) <= ECHO_CHARS):
        return part
    return echo(part)


def _one_line(text: str) -> str:
    """``text`` with any line break written as ``\\n`` / ``\\r``: a message is one line, whatever was typed."""
    return text.replace("\r", "\\r").replace("\n", "\\n")


def error_line(err: ValidationError, root: type[BaseModel], *, items: bool = False,
               show: Callable[[object], str] = echo) -> str:
    """One line for the first error of ``err`` (raised validating ``root``): ``field.path: what is wrong``
    (a key that cannot be shown as it is, quoted: :func:`_part`; never a line break: :func:`_one_line`).

    An unknown key names the nearest known key of its section (``did you mean``) or lists them; a
    required key missing beside an unknown key close to it is told as that key's misspelling
    (:func:`_misspelt`); a message that already names its field (``board.cages: ...``) is kept as it
    is; a value a literal refuses is written by ``show``. List items and pydantic's own markers in
    the location: by default (the run config) an item is ``grid.areas.2`` and every part that starts
    with ``function-``, ``literal[``, ``int`` or ``str`` is dropped; with ``items`` (the book config)
    an item is ``sections[1]`` and the markers dropped are ``function-*``, ``literal[*``, ``[key]``
    and the branch names ``int``, ``str``, ``float``, ``bool``. The last part of an unknown key's location
    is the key as written and is never dropped."""
    return _one_line(_error_line(err, root, items, show))


def _misspelt(errors: list[ErrorDetails]) -> tuple[ErrorDetails, str | None]:
    """The error to tell and the key to suggest for it: the first error, except that a required key
    missing where an unknown key of the same section is close to it (:func:`difflib.get_close_matches`)
    is told as that unknown key, a misspelling of the missing one (``nmae: unknown key (did you mean
    name?)``, not ``name: required key is missing``)."""
    first = errors[0]
    if first["type"] != "missing":
        return first, None
    missing = [e["loc"] for e in errors if e["type"] == "missing" and e["loc"]]
    for e in errors:
        if e["type"] != "extra_forbidden" or not e["loc"]:
            continue
        wanted = [str(loc[-1]) for loc in missing if loc[:-1] == e["loc"][:-1]]
        near = difflib.get_close_matches(str(e["loc"][-1]), wanted, n=1)
        if near:
            return e, near[0]
    return first, None


def _error_line(err: ValidationError, root: type[BaseModel], items: bool, show: Callable[[object], str]) -> str:
    e, suggest = _misspelt(err.errors())
    raw = list(e["loc"])
    # an unknown key is the user's own word, never a marker, even when spelled like one (``strict``)
    key = [raw.pop()] if e["type"] == "extra_forbidden" and raw else []
    loc: list[str | int]
    if items:
        loc = [p for p in raw if isinstance(p, int)
               or not (p in ("[key]", "int", "str", "float", "bool") or p.startswith(("function-", "literal[")))]
        loc += key
        path = "".join(f"[{p}]" if isinstance(p, int) else f".{_part(p)}" for p in loc).lstrip(".")
    else:
        loc = [str(p) for p in raw if not str(p).startswith(("function-", "literal[", "int", "str"))]
        loc += [str(p) for p in key]
        path = ".".join(str(_part(p)) for p in loc)
    if e["type"] == "extra_forbidden":
        parent = _model_at(root, loc[:-1])
        fields = list(parent.model_fields) if parent is not None else []
        near = [suggest] if suggest else difflib.get_close_matches(str(loc[-1]), fields, n=1)
        hint = f" (did you mean {near[0]}?)" if near else (f" (known keys: {', '.join(fields)})" if fields else "")
        return f"{path}: unknown key{hint}"
    if e["type"] == "missing":
        return f"{path}: required key is missing"
    msg = re.sub(r"^(Value error|Assertion failed), ", "", e["msg"])
    if ":" in msg.split(" ")[0]:  # message already names its field
        return msg
    if e["type"] == "literal_error":
        return f"{path}: {show(e.get('input'))} is not allowed; {msg[0].lower()}{msg[1:]}"
    return f"{path}: {msg}" if path else msg
