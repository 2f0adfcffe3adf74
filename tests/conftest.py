"""Shared helpers: paths, a CLI runner in a subprocess, tiny configs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


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
