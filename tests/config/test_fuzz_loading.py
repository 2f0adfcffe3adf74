"""Fuzzing the config loader (hypothesis): any bytes as a YAML file, and every shipped config with
values replaced, keys added or removed at any depth, give a Config or one ConfigError line, never
another exception (tiers in tests/fuzzing.py)."""

from __future__ import annotations

import copy
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import example, given
from hypothesis import strategies as st

from pipeline import config as cfgmod
from tests.conftest import ROOT
from tests.fuzzing import TIERS, one_of_two

SHIPPED = {p.name: yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted((ROOT / "configs").glob("*.yaml"))}

scalars = (st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats() | st.text(max_size=12)
           | st.sampled_from(["auto", "random", "rot180", "full", "none", "1e400", "-0", "nan", "inf", "9x9", ""]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=10)


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``data`` (dict keys and list positions)."""
    out = [prefix] if prefix else []
    if isinstance(data, dict):
        for k, v in data.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _paths(v, (*prefix, i))
    return out


def _key_names(data: Any) -> set[str]:
    if isinstance(data, dict):
        return {str(k) for k in data} | {n for v in data.values() for n in _key_names(v)}
    if isinstance(data, list):
        return {n for v in data for n in _key_names(v)}
    return set()


#: Pieces of YAML to put together: anchors, aliases, merges, flow, tags, directives, config keys.
PIECES = ["a:", " b", "- ", "&x", "*x", "<<: *x", "{", "}", "[", "]", "!!python/object", "? ", "name: t", "count: 1",
          "board:", "  size: 9", ":", "'", '"', "#", "\n", "\t", "!!binary", "%YAML 1.1\n", "---\n", "...\n"]
NAMES = sorted({n for data in SHIPPED.values() for n in _key_names(data)})


@st.composite
def mutated(draw: st.DrawFn) -> Any:
    """A shipped config with one to four changes: a value replaced, a key removed, a key added."""
    data = copy.deepcopy(SHIPPED[draw(st.sampled_from(sorted(SHIPPED)))])
    for _ in range(draw(st.integers(1, 4))):
        paths = _paths(data)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        what = draw(st.sampled_from(["replace", "remove", "add"]))
        if what == "replace":
            parent[path[-1]] = draw(values)
        elif what == "remove" and isinstance(parent, dict):
            del parent[path[-1]]
        elif isinstance(parent[path[-1]], dict):
            parent[path[-1]][draw(st.sampled_from(NAMES) | st.text(max_size=8))] = draw(values)
    return data


def _load_text(text: str | bytes) -> Any:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "cfg.yaml"
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8", errors="surrogatepass")
        return one_of_two(lambda: cfgmod.load(path))


@pytest.mark.deep
@pytest.mark.parametrize("tier", TIERS)
def test_any_file_is_a_config_or_one_line(tier: Any) -> None:
    @tier
    @given(st.one_of(st.text(), st.binary(max_size=200), st.lists(st.sampled_from(PIECES), max_size=20).map("".join)))
    @example("name: t\ncount: 1\nboard: {size: 9}\nworkers: 100000000000000000000000000\n")
    @example("name: t\ncount: 1e400\n")
    def check(text: str | bytes) -> None:
        out = _load_text(text)
        assert isinstance(out, cfgmod.Config | cfgmod.ConfigError)
    check()


@pytest.mark.parametrize("tier", TIERS)
def test_every_shipped_config_changed_anywhere_is_a_config_or_one_line(tier: Any) -> None:
    @tier
    @given(mutated())
    @example({**SHIPPED["default.yaml"], "board": {"\r": None}})  # found: the key's line break was printed raw
    @example({**SHIPPED["default.yaml"], "removal": {"x" * 500: 1, "": 2}})
    def check(data: Any) -> None:
        out = one_of_two(lambda: cfgmod.validate(data))
        assert isinstance(out, cfgmod.Config | cfgmod.ConfigError)
        try:
            text = yaml.safe_dump(data)
        except (yaml.YAMLError, ValueError):
            return
        again = _load_text(text)
        assert type(again) is type(out) or isinstance(again, cfgmod.ConfigError)
    check()
