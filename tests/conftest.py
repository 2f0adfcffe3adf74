"""Shared helpers: paths, a CLI runner in a subprocess, tiny configs."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from pipeline.board import Grid
from pipeline.identity import canon, numbering

ROOT = Path(__file__).resolve().parents[1]
# A compiled probe that disagrees with its Python finder fails the test (pipeline.difficulty.logic.TwinDrift)
# instead of falling back on the Python search; inherited by the CLI subprocesses.
os.environ.setdefault("NUMPLACE_STRICT_TWINS", "1")


def error_line(stderr: str) -> str:
    """The one error line of a refusal as a person reads it, ``numplace: error: <message>``: the plain
    line, or, for a command whose stderr is a log (``run``, stderr not a terminal), its JSON log line."""
    text = stderr.strip()
    if text.startswith("{") and "\n" not in text:
        record = json.loads(text)
        assert record["level"] == "error" and record["event"] == "refused" and record["exit_code"] == 2, text
        return f"numplace: error: {record['message']}"
    return text
DATA = ROOT / "tests" / "data"  # golden files, each with its provenance in tests/data/README.md


def numplace(*args: str, cwd: Path | None = None, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run the CLI as a user would (a fresh interpreter), capturing output."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=cwd or ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def write_config(tmp_path: Path):
    """Write a config dict (or raw text) to tmp_path/name.yaml and return its path."""

    def _write(data: dict | str, name: str = "cfg") -> Path:
        path = tmp_path / f"{name}.yaml"
        path.write_text(data if isinstance(data, str) else yaml.safe_dump(data), encoding="utf-8")
        return path

    return _write


def tiny(out: Path, **over: object) -> dict:
    """A small, fast 9x9 config writing under ``out``."""
    cfg: dict = {
        "name": "tiny",
        "seed": 11,
        "count": 8,
        "board": {"size": 9},
        "removal": {"symmetry": "rot180", "minimal": True},
        "workers": 1,
        "output": {"dir": str(out), "shard_size": 3},
    }
    cfg.update(over)
    return cfg


@pytest.fixture(scope="session", autouse=True)
def numplace_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """All table caches of the session (numbering, canon) live in one temporary directory, so the
    tests never touch the user's cache; CLI subprocesses inherit the variable."""
    d = tmp_path_factory.getbasetemp() / "numplace-cache"
    d.mkdir(exist_ok=True)
    mp = pytest.MonkeyPatch()
    mp.setenv("NUMPLACE_CACHE_DIR", str(d))
    numbering.reset_tables()
    canon.reset_tables()
    yield d
    mp.undo()
    numbering.reset_tables()
    canon.reset_tables()


def transform(g: Grid, rng: random.Random, transpose: bool | None = None) -> Grid:
    """A random element of the 9x9 validity-preserving group applied to a grid or puzzle."""
    a = [list(g[9 * r : 9 * r + 9]) for r in range(9)]
    if rng.random() < 0.5 if transpose is None else transpose:
        a = [list(x) for x in zip(*a, strict=True)]
    rows = [3 * b + x for b in rng.sample(range(3), 3) for x in rng.sample(range(3), 3)]
    cols = [3 * s + x for s in rng.sample(range(3), 3) for x in rng.sample(range(3), 3)]
    perm = [0, *rng.sample(range(1, 10), 9)]
    return tuple(perm[a[r][c]] for r in rows for c in cols)
