"""Atomic file replacement (pipeline.atomic)."""

from __future__ import annotations

from pathlib import Path

import pytest

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
