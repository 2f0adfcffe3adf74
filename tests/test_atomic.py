"""Atomic file replacement (pipeline.atomic)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from pipeline import atomic
from pipeline.atomic import atomic_write


def test_the_new_file_appears_whole(tmp_path: Path) -> None:
    path = tmp_path / "out.txt"
    seen: list[Path] = []

    def write(tmp: Path) -> None:
        seen.append(tmp)
        assert tmp.parent == path.parent  # same folder, so the rename is atomic
        assert tmp.name.startswith(".out.txt.") and tmp.name.endswith(".tmp")
        assert tmp.exists() and tmp.stat().st_size == 0
        assert not path.exists()  # nothing at the destination until the rename
        tmp.write_text("a" * 10_000)

    atomic_write(path, write)
    assert path.read_text() == "a" * 10_000
    assert not seen[0].exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def test_replacing_keeps_the_old_file_until_the_rename(tmp_path: Path) -> None:
    path = tmp_path / "out.txt"
    path.write_text("old")

    def write(tmp: Path) -> None:
        tmp.write_text("new, longer content")
        assert path.read_text() == "old"  # a reader meanwhile sees the old file whole

    atomic_write(path, write)
    assert path.read_text() == "new, longer content"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


@pytest.mark.parametrize("error", [RuntimeError, OSError, KeyboardInterrupt])
def test_a_failed_write_leaves_the_old_content_and_no_temp_file(tmp_path: Path, error: type[BaseException]) -> None:
    path = tmp_path / "out.txt"
    path.write_text("old")

    def write(tmp: Path) -> None:
        tmp.write_text("half")
        raise error("interrupted")

    with pytest.raises(error, match="interrupted"):
        atomic_write(path, write)
    assert path.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def test_a_failed_first_write_leaves_nothing(tmp_path: Path) -> None:
    path = tmp_path / "out.bin"

    def write(tmp: Path) -> None:
        tmp.unlink()  # even a writer that removed the temp file itself
        raise ValueError("no")

    with pytest.raises(ValueError):
        atomic_write(path, write)
    assert list(tmp_path.iterdir()) == []


def test_the_folder_must_exist(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        atomic_write(tmp_path / "missing" / "out.txt", lambda tmp: tmp.write_text("x"))


@pytest.fixture
def umask_of():
    """Set the process umask for one test (and forget the cached value); restored afterwards."""
    old = os.umask(0o022)
    os.umask(old)

    def _set(mask: int) -> None:
        os.umask(mask)
        atomic.reset_umask_cache()

    yield _set
    os.umask(old)
    atomic.reset_umask_cache()


@pytest.mark.parametrize(("mask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_the_file_has_the_mode_the_umask_gives(tmp_path: Path, umask_of, mask: int, mode: int) -> None:
    umask_of(mask)
    path = tmp_path / "out.txt"
    atomic_write(path, lambda tmp: tmp.write_text("x"))
    assert stat.S_IMODE(path.stat().st_mode) == mode
    path.write_text("old")
    atomic_write(path, lambda tmp: tmp.write_text("y"))  # a replaced file too
    assert stat.S_IMODE(path.stat().st_mode) == mode and path.read_text() == "y"


def test_the_mode_is_set_before_the_rename(tmp_path: Path, umask_of) -> None:
    umask_of(0o022)
    path = tmp_path / "out.txt"
    modes: list[int] = []
    real = os.replace

    def replace(src: str, dst: Path) -> None:
        modes.append(stat.S_IMODE(os.stat(src).st_mode))
        real(src, dst)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(atomic.os, "replace", replace)
        atomic_write(path, lambda tmp: tmp.write_text("x"))
    assert modes == [0o644]


def test_the_umask_is_read_without_changing_it(tmp_path: Path, umask_of) -> None:
    umask_of(0o027)
    if atomic._STATUS.exists():  # Linux: from /proc/self/status
        assert atomic._read_umask() == 0o027
    status = tmp_path / "status"  # the Umask: line is parsed (the fallback would give 027, not 077)
    status.write_bytes(b"Name:\tpython\nUmask:\t0077\nState:\tR (running)\n")
    assert atomic._read_umask(status) == 0o077
    assert atomic._read_umask(tmp_path / "no-proc") == 0o027  # the os.umask round trip
    assert atomic.current_umask() == 0o027
    probe = tmp_path / "probe"
    probe.touch()
    assert stat.S_IMODE(probe.stat().st_mode) == 0o640  # the process umask is still 027
