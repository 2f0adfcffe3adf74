"""Exports into a folder on another file system (issue 49 item 1): a tmpfs mount point, a symlink to
/dev/shm, a new folder inside a mount; read back file by file. A read-only mount is named read-only in
one line, and nothing of a failed export is left behind."""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest
from PIL import Image
from pypdf import PdfReader

from pipeline.publish import render, select
from pipeline.publish.export import export
from pipeline.publish.select import PublishError
from tests.conftest import numplace
from tests.publish.test_select import MIX, write_set


def _mount(where: Path, *options: str) -> None:
    """Mount a small tmpfs at ``where`` (skip the test with the reason when mounting is not allowed)."""
    where.mkdir(parents=True, exist_ok=True)
    opts = ",".join(("size=16m", *options))
    res = subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(where)], capture_output=True, text=True)
    if res.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root and CAP_SYS_ADMIN): {res.stderr.strip()}")


def _umount(where: Path) -> None:
    subprocess.run(["umount", str(where)], check=True)


@pytest.fixture
def volume(tmp_path: Path) -> Iterator[Path]:
    """A writable tmpfs mounted at tmp_path/vol: another file system than tmp_path's."""
    where = tmp_path / "vol"
    _mount(where)
    assert os.stat(where).st_dev != os.stat(tmp_path).st_dev
    yield where
    _umount(where)


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[Path]:
    """A read-only tmpfs mounted at tmp_path/ro."""
    where = tmp_path / "ro"
    _mount(where, "ro")
    yield where
    _umount(where)


@pytest.fixture
def shm_link(tmp_path: Path) -> Iterator[Path]:
    """tmp_path/link, a symlink to a fresh folder in /dev/shm (tmpfs)."""
    if not Path("/dev/shm").is_dir():
        pytest.skip("no /dev/shm on this machine")
    real = Path(tempfile.mkdtemp(prefix="numplace-test-", dir="/dev/shm"))
    link = tmp_path / "link"
    link.symlink_to(real, target_is_directory=True)
    assert os.stat(real).st_dev != os.stat(tmp_path).st_dev
    yield link
    shutil.rmtree(real, ignore_errors=True)


@pytest.fixture
def frame(tmp_path: Path) -> pl.DataFrame:
    return select.read_sets([write_set(tmp_path / "sets", "classic", MIX[:4])]).frame


def _check_png(folder: Path, frame: pl.DataFrame) -> None:
    ids = frame["puzzle_id"].to_list()
    assert sorted(p.name for p in folder.iterdir()) == sorted(f"{i}{s}.png" for i in ids for s in ("", "-solution"))
    for pid in ids:
        with Image.open(folder / f"{pid}.png") as im:
            im.load()
            assert im.size == (440, 440)


def _check_pdf(folder: Path, frame: pl.DataFrame) -> None:
    with open(folder / "merge.csv", encoding="utf-8") as fh:
        merged = list(csv.DictReader(fh))
    assert [m["puzzle_id"] for m in merged] == frame["puzzle_id"].to_list()
    for m in merged:
        for key in ("@puzzle_image", "@solution_image"):
            path = Path(m[key])
            assert path.parent == folder.resolve() and path.is_file()
            assert len(PdfReader(path).pages) == 1


def _check_sdk(folder: Path, frame: pl.DataFrame) -> None:
    for pid, puzzle in zip(frame["puzzle_id"], frame["puzzle"], strict=True):
        assert "".join((folder / f"{pid}.sdk").read_text(encoding="utf-8").split()) == puzzle


CHECKS = {"png": _check_png, "pdf": _check_pdf, "sdk": _check_sdk}


def _nothing_hidden(*folders: Path) -> None:
    for f in folders:
        assert [p.name for p in f.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize("fmt", ["png", "pdf", "sdk"])
def test_export_into_a_mount_point(fmt: str, tmp_path: Path, volume: Path, frame: pl.DataFrame) -> None:
    written = export(frame, fmt, volume, solutions=True)
    assert written.puzzles == frame.height
    CHECKS[fmt](volume, frame)
    _nothing_hidden(volume, tmp_path)


@pytest.mark.parametrize("fmt", ["png", "pdf", "sdk"])
def test_export_into_a_symlink_to_dev_shm(fmt: str, tmp_path: Path, shm_link: Path, frame: pl.DataFrame) -> None:
    export(frame, fmt, shm_link, solutions=True)
    CHECKS[fmt](shm_link, frame)
    _nothing_hidden(shm_link, tmp_path)
    assert shm_link.is_symlink()  # still the link, its target holds the files


def test_new_folder_and_one_file_exports_on_a_mount(volume: Path, frame: pl.DataFrame) -> None:
    export(frame, "png", volume / "new" / "png", solutions=True)
    _check_png(volume / "new" / "png", frame)
    export(frame, "sdk", volume / "all.sdk", solutions=True)
    assert (volume / "all.sdk").read_text().splitlines() == frame["puzzle"].to_list()
    assert (volume / "all-solutions.sdk").read_text().splitlines() == frame["solution"].to_list()
    export(frame, "csv", volume / "p.csv")
    assert pl.read_csv(volume / "p.csv", infer_schema=False)["puzzle"].to_list() == frame["puzzle"].to_list()
    _nothing_hidden(volume, volume / "new")


def test_a_failed_export_into_a_mount_leaves_nothing(monkeypatch: pytest.MonkeyPatch, volume: Path,
                                                      frame: pl.DataFrame) -> None:
    (volume / "keep.txt").write_text("mine")
    real, calls = render.to_image, []

    def fail_third(*args: object, **kw: object) -> object:
        calls.append(1)
        if len(calls) == 3:
            raise OSError(5, "Input/output error")
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(render, "to_image", fail_third)
    with pytest.raises(PublishError, match=r"cannot write \(Input/output error\)"):
        export(frame, "png", volume)
    assert len(calls) == 3  # two files were made, then the third failed
    assert [p.name for p in volume.iterdir()] == ["keep.txt"]


@pytest.mark.parametrize("fmt", ["png", "pdf", "sdk", "csv"])
def test_a_read_only_mount_is_named_read_only(fmt: str, read_only: Path, frame: pl.DataFrame) -> None:
    out = read_only / "p.csv" if fmt == "csv" else read_only
    with pytest.raises(PublishError) as err:
        export(frame, fmt, out)
    assert str(err.value) == f"--out {out}: is on a read-only file system"
    with pytest.raises(PublishError, match="is on a read-only file system"):
        export(frame, fmt, read_only / "sub" / ("p.csv" if fmt == "csv" else "x"))
    assert list(read_only.iterdir()) == []


@pytest.mark.heavy
def test_cli_export_to_a_read_only_mount(tmp_path: Path, read_only: Path) -> None:
    a = write_set(tmp_path / "sets", "classic", MIX[:2])
    res = numplace("export", str(a), "--format", "png", "--out", str(read_only))
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr == f"numplace: error: --out {read_only}: is on a read-only file system\n"
