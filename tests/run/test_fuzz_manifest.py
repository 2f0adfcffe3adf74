"""Fuzzing the manifest reader (hypothesis): a real run's ``_manifest.json`` with values replaced,
keys removed or added at any depth, or its bytes cut or replaced, gives a manifest or one clear
error line naming the file, never another exception, both when read and when ``numplace runs``
lists the set (tiers in tests/fuzzing.py)."""

from __future__ import annotations

import copy
import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline import config
from pipeline.run import runner
from pipeline.run.layout import MANIFEST
from pipeline.run.manifest import read_manifest
from pipeline.run.sets import overview
from tests.conftest import tiny
from tests.fuzzing import TIERS, one_of_two

pytestmark = pytest.mark.heavy  # one real run of two puzzles, once for the module

scalars = st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats() | st.text(max_size=10)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8)


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A finished run of two puzzles: its output root."""
    out = tmp_path_factory.mktemp("fuzz-manifest")
    runner.run(config.validate(tiny(out, count=2, output={"dir": str(out), "shard_size": 1})))
    yield out


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(data, dict):
        for k, v in data.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _paths(v, (*prefix, i))
    return out


@st.composite
def damaged(draw: st.DrawFn, original: dict[str, Any]) -> bytes:
    """The manifest with one to three changes, as the bytes written; or its bytes cut short or replaced."""
    how = draw(st.sampled_from(["edit", "edit", "edit", "cut", "bytes"]))
    raw = json.dumps(original).encode()
    if how == "cut":
        return raw[:draw(st.integers(0, len(raw) - 1))]
    if how == "bytes":
        return draw(st.binary(max_size=200))
    data = copy.deepcopy(original)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(data)))
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        what = draw(st.sampled_from(["replace", "replace", "remove", "add"]))
        if what == "replace":
            parent[path[-1]] = draw(values)
        elif what == "remove" and isinstance(parent, dict):
            del parent[path[-1]]
        elif isinstance(parent[path[-1]], dict):
            parent[path[-1]][draw(st.text(max_size=8))] = draw(values)
    return json.dumps(data, allow_nan=True).encode()


def _fuzz(made: Path, tier: Any, read: Any) -> None:
    """Run ``read(root, run_dir)`` on copies of the made run with a damaged manifest."""
    (run_dir,) = [d for d in (made / "tiny").iterdir() if d.is_dir() and not d.name.startswith(("_", "."))]
    original = json.loads((run_dir / MANIFEST).read_text(encoding="utf-8"))

    @tier
    @given(damaged(original))
    def check(raw: bytes) -> None:
        with tempfile.TemporaryDirectory() as d:
            root = Path(d)
            copy_dir = root / "tiny" / run_dir.name
            shutil.copytree(run_dir, copy_dir)
            (copy_dir / MANIFEST).write_bytes(raw)
            read(root, copy_dir)
    check()


@pytest.mark.parametrize("tier", TIERS)
def test_a_damaged_manifest_is_read_or_refused_in_one_line(made: Path, tier: Any) -> None:
    def read(_root: Path, run_dir: Path) -> None:
        out = one_of_two(lambda: read_manifest(run_dir))
        assert isinstance(out, dict | Exception)
    _fuzz(made, tier, read)


@pytest.mark.parametrize("tier", TIERS)
def test_runs_lists_or_refuses_a_damaged_manifest_in_one_line(made: Path, tier: Any) -> None:
    _fuzz(made, tier, lambda root, _run_dir: one_of_two(lambda: overview(root)))
