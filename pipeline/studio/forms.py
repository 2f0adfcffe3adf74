"""The generate page's query parameters <-> a run config. Pure: no web framework.

The URL of ``/generate`` is a contract: every key of the config's ``board``, ``grid``, ``removal``
and ``difficulty`` sections can be set, and the top-level ``name``, ``seed``, ``count`` and
``engine``:

* a dotted key names a config key by its path, its value read as a YAML scalar or flow value:
  ``board.cages.max_size=4``, ``grid.areas=[{cells: "...", digits: [1], rule: only}]``;
* the short keys of :data:`ALIASES` stand for the paths editors use most: ``size``, ``variant``,
  ``regions``, ``method``, ``fixed``, ``keep_fixed``, ``symmetry``, ``minimal``, ``pattern``,
  ``levels`` (comma-separated), ``steer``, ``technique`` (a technique target: one name, or several
  comma-separated for one of them, as ``numplace generate --technique``), ``hints`` (``N`` or
  ``A-B``, as ``numplace generate --hints``), ``score`` (``A-B``);
* an unknown key is refused in one line naming it (:class:`FormError`).

:func:`config_from_params` builds the config dict (``numplace run`` validates it as it validates a
file), :func:`params_from_config` the parameters back, and :func:`yaml_text` the YAML file that
``numplace run`` takes as it is. :data:`COUNT_CAP` caps ``count`` per request: the page is for
trying a layout; a set is made by ``numplace run``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import yaml

from pipeline.errors import UserError

#: The most puzzles one request of the page makes.
COUNT_CAP = 50
#: The config sections a dotted key may set, and the top-level keys.
SECTIONS = ("board", "grid", "removal", "difficulty")
TOP = ("name", "seed", "count", "engine")
#: Short keys -> config paths.
ALIASES: dict[str, str] = {
    "size": "board.size", "variant": "board.variant", "regions": "board.regions",
    "method": "grid.method", "fixed": "grid.fixed", "keep_fixed": "grid.keep_fixed",
    "symmetry": "removal.symmetry", "minimal": "removal.minimal", "pattern": "removal.pattern",
    "levels": "difficulty.levels", "steer": "difficulty.steer", "logic_only": "difficulty.logic_only",
    "technique": "difficulty.technique",
}
#: Keys the page itself reads (not config keys).
PAGE_KEYS = ("lang",)
#: Keys whose value stays text even when YAML would read it otherwise (a puzzle of digits, a layout).
_TEXT = {"board.regions", "grid.fixed", "removal.pattern", "name"}
_RANGE = re.compile(r"^\s*(\d+(?:\.\d+)?)?\s*-\s*(\d+(?:\.\d+)?)?\s*$")
#: The defaults of the page: a small, quick request.
DEFAULTS: dict[str, Any] = {"name": "studio", "seed": 0, "count": 2}


class FormError(UserError):
    """A query parameter the page cannot use (the message names it)."""


def _value(path: str, text: str) -> Any:
    if path in _TEXT:
        return text
    try:
        return yaml.safe_load(text) if text.strip() else None
    except yaml.YAMLError:
        raise FormError(f"{path}: {text!r} is not a value") from None


def _number(text: str) -> int | float:
    return float(text) if "." in text else int(text)


def _range(key: str, text: str) -> dict[str, int | float]:
    m = _RANGE.match(text)
    if m is None or not (m.group(1) or m.group(2)):
        if text.strip().isdigit() and key == "hints":
            return {"min": int(text), "max": int(text)}
        raise FormError(f"{key}: {text!r} is not N or A-B")
    out: dict[str, int | float] = {}
    if m.group(1):
        out["min"] = _number(m.group(1))
    if m.group(2):
        out["max"] = _number(m.group(2))
    return out


def _put(data: dict[str, Any], path: str, value: Any) -> None:
    *parents, last = path.split(".")
    node = data
    for part in parents:
        child = node.setdefault(part, {})
        if not isinstance(child, dict):
            raise FormError(f"{path}: {part} is set as a value and as a section")
        node = child
    node[last] = value


def _text(value: object) -> str:
    if isinstance(value, list | tuple):
        value = value[-1] if value else ""
    return "" if value is None else str(value)


def config_from_params(params: Mapping[str, object]) -> dict[str, Any]:
    """The config dict the parameters describe (see the module contract), on top of :data:`DEFAULTS`.
    Raises :class:`FormError` for an unknown key, a value that is not YAML, or ``count`` over the cap."""
    data: dict[str, Any] = {k: v for k, v in DEFAULTS.items()}
    for key, raw in params.items():
        text = _text(raw)
        if key in PAGE_KEYS or text == "":
            continue
        if key == "hints":
            _put(data, "removal.hints", _range(key, text))
        elif key == "score":
            _put(data, "difficulty.score", _range(key, text))
        elif key == "levels":
            _put(data, "difficulty.levels", [x.strip() for x in text.split(",") if x.strip()])
        elif key == "technique":
            names = [x.strip() for x in text.split(",") if x.strip()]
            _put(data, "difficulty.technique", names[0] if len(names) == 1 else names)
        elif key in ALIASES:
            _put(data, ALIASES[key], _value(ALIASES[key], text))
        elif key in TOP:
            data[key] = _value(key, text)
        elif key.split(".")[0] in SECTIONS and "." in key:
            _put(data, key, _value(key, text))
        else:
            raise FormError(f"{key}: not a key of the generate page (a config key such as board.size, or one of "
                            f"{', '.join(sorted({*ALIASES, 'hints', 'score', *TOP}))})")
    count = data.get("count")
    if isinstance(count, int) and count > COUNT_CAP:
        raise FormError(f"count: {count} is over the page's cap of {COUNT_CAP} a request (numplace run makes sets)")
    return data


def _flatten(prefix: str, value: Any, out: dict[str, str]) -> None:
    if isinstance(value, dict) and value and prefix.count(".") < 2 and prefix not in ("difficulty.score",
                                                                                      "removal.hints"):
        for k, v in value.items():
            _flatten(f"{prefix}.{k}" if prefix else str(k), v, out)
        return
    if value is None:
        return
    short = {v: k for k, v in ALIASES.items()}
    if prefix == "removal.hints" and isinstance(value, dict) and set(value) <= {"min", "max"}:
        lo, hi = value.get("min"), value.get("max")
        out["hints"] = f"{lo}" if lo == hi and lo is not None else f"{lo if lo is not None else ''}-{hi or ''}"
    elif prefix == "difficulty.score" and isinstance(value, dict):
        out["score"] = f"{value.get('min', '')}-{value.get('max', '')}"
    elif prefix == "difficulty.levels" and isinstance(value, list):
        out["levels"] = ",".join(str(v) for v in value)
    elif prefix == "difficulty.technique" and isinstance(value, list | str):
        out["technique"] = value if isinstance(value, str) else ",".join(str(v) for v in value)
    elif isinstance(value, str):
        out[short.get(prefix, prefix)] = value
    else:
        out[short.get(prefix, prefix)] = yaml.safe_dump(value, default_flow_style=True, width=10_000).strip() \
            .removesuffix("...").strip()


def params_from_config(data: Mapping[str, Any]) -> dict[str, str]:
    """The query parameters that reproduce ``data`` (a config dict of the four sections and the top
    keys): the inverse of :func:`config_from_params` for what the page sets."""
    out: dict[str, str] = {}
    for key in TOP:
        if key in data and data[key] is not None:
            out[key] = str(data[key])
    for section in SECTIONS:
        if isinstance(data.get(section), dict):
            _flatten(section, data[section], out)
    return out


class _Dumper(yaml.SafeDumper):
    """Block style, and a text of several lines (a clue pattern, jigsaw regions drawn row by row) as a
    ``|`` block scalar a person reads back as the grid it is."""


def _text_block(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    if "\n" in value:
        return dumper.represent_scalar("tag:yaml.org,2002:str", value.strip("\n"), style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", value)


_Dumper.add_representer(str, _text_block)


#: The YAML's first line, a comment saying where it came from, per language.
COMMENT = {"en": "# made by numplace studio's Generate page; run it with: numplace run <this file>",
           "ja": "# ナンプレ スタジオの「作る」画面で作成。実行するには: numplace run <このファイル>"}


def yaml_text(data: Mapping[str, Any], lang: str = "en") -> str:
    """The config as a YAML file that ``numplace run`` takes as it is (block style, keys in the
    order they were set, a text of several lines as a ``|`` block, a comment in ``lang`` saying where
    it came from)."""
    body = yaml.dump(dict(data), Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=False)
    return COMMENT.get(lang, COMMENT["en"]) + "\n" + body
