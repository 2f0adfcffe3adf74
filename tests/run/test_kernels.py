"""The kernels' build once per machine and version (:mod:`pipeline.run.kernels`): the stamp's key,
one build while the stamp is missing, none once it exists. The build itself (every kernel compiled) is
what ``make`` runs; here ``subprocess.run`` stands in for it."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from pipeline.run import kernels


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("NUMPLACE_CACHE_DIR", str(tmp_path))
    return tmp_path


def test_the_key_follows_the_numba_folder_and_sits_in_the_user_cache(cache: Path) -> None:
    assert kernels.key("/a") != kernels.key("/b") and kernels.key("/a") == kernels.key("/a")
    assert kernels.stamp("/a") == cache / "kernels" / f"{kernels.key('/a')}.built"


def test_a_missing_stamp_builds_once_then_never(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[list[str]] = []

    def build(cmd: list[str], **_: Any) -> subprocess.CompletedProcess[bytes]:
        calls.append(cmd)
        kernels.stamp().touch()  # what python -m pipeline.run.kernels ends with
        return subprocess.CompletedProcess(cmd, 0)

    monkeypatch.setattr(kernels.subprocess, "run", build)
    kernels.ensure_built()
    kernels.ensure_built()
    assert len(calls) == 1 and calls[0][-2:] == ["-m", "pipeline.run.kernels"]
    assert (cache / "kernels" / ".lock").exists()


def test_a_failed_build_is_silent_and_tried_again(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[list[str]] = []

    def fail(cmd: list[str], **_: Any) -> subprocess.CompletedProcess[bytes]:
        calls.append(cmd)
        return subprocess.CompletedProcess(cmd, 1)

    monkeypatch.setattr(kernels.subprocess, "run", fail)
    kernels.ensure_built()
    kernels.ensure_built()
    assert len(calls) == 2 and not kernels.stamp().exists()


def test_an_unwritable_cache_only_skips_the_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("NUMPLACE_CACHE_DIR", str(blocker))
    monkeypatch.setattr(kernels.subprocess, "run", lambda *a, **k: pytest.fail("no build without a cache"))
    kernels.ensure_built()


def test_a_new_build_starts_from_no_cached_kernel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """numba checks only a kernel's own file, and a kernel holds the kernels it calls from other files:
    a build for a new key removes every cached kernel of the package, beside the sources and under
    ``$NUMBA_CACHE_DIR``, and nothing else."""
    package = tmp_path / "src" / "pipeline"
    (package / "fish" / "__pycache__").mkdir(parents=True)
    beside = [package / "fish" / "__pycache__" / n for n in ("search_jit.f-1.py311.nbi", "search_jit.f-1.py311.1.nbc")]
    numba_dir = tmp_path / "numba"
    mirrored = numba_dir / str(package.resolve()).lstrip("/") / "logic_jit._walk-9.py311.nbi"
    other = numba_dir / "elsewhere" / "theirs.nbi"
    kept = package / "fish" / "__pycache__" / "search_jit.cpython-311.pyc"
    for path in (*beside, mirrored, other, kept):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x")
    monkeypatch.setattr(kernels, "PACKAGE", package)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(numba_dir))
    assert kernels.clear_numba_cache() == 3
    assert not any(p.exists() for p in (*beside, mirrored))
    assert other.exists() and kept.exists()
