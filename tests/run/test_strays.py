"""``numplace check`` sees what readers see: every file or folder that a documented read form of a set
(the polars and duckdb globs, ``pd.read_parquet`` of the set or run folder) would take besides the
set's own parts is a finding that says how to fix it."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pandas as pd
import polars as pl
import pytest

from pipeline import config
from pipeline.run import runner
from pipeline.run.audit import audit
from tests.conftest import tiny

SET = {"board": {"size": 4}, "removal": {"symmetry": "none", "minimal": True}}


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("strays") / "out"
    assert runner.run(config.validate(tiny(root, count=6, **SET))).ok
    return root


@pytest.fixture
def set_dir(made: Path, tmp_path: Path) -> Path:
    shutil.copytree(made, tmp_path / "out")
    return tmp_path / "out" / "tiny"


def _run(set_dir: Path) -> Path:
    (run_dir,) = [d for d in set_dir.iterdir() if d.is_dir() and d.name[0] not in "._"]
    return run_dir


def _readers(set_dir: Path) -> dict[str, int]:
    """How many rows each documented read form takes from the set folder."""
    glob = f"{set_dir}/*/part-*.parquet"
    out = {"polars": pl.read_parquet(glob).height,
           "duckdb": duckdb.sql(f"SELECT * FROM read_parquet('{glob}')").pl().height}
    try:
        out["pandas"] = len(pd.read_parquet(set_dir))
    except Exception:  # a reader that fails on a stray file is what the finding is about
        out["pandas"] = -1
    return out


def _line(problems: list[str], *fragments: str) -> str:
    hits = [p for p in problems if all(f in p for f in fragments)]
    assert hits, f"no problem line with {fragments} in:\n" + "\n".join(problems)
    return hits[0]


def test_a_clean_set_has_no_strays(set_dir: Path) -> None:
    assert _readers(set_dir) == {"polars": 6, "duckdb": 6, "pandas": 6}
    assert audit(set_dir, fast=True).ok


@pytest.mark.parametrize("name", ["_backup", ".old"])
def test_a_backup_copy_of_a_run_under_a_reserved_name(set_dir: Path, name: str) -> None:
    shutil.copytree(_run(set_dir), set_dir / name)
    assert _readers(set_dir)["polars"] == 12 and _readers(set_dir)["duckdb"] == 12  # what the globs read
    result = audit(set_dir, fast=True)
    line = _line(result.problems, f"{set_dir / name}: not part of the set", "polars and duckdb globs",
                 "take its 2 part file(s)")
    assert "move it out of the output root" in line


def test_a_copy_of_a_run_under_a_visible_name(set_dir: Path) -> None:
    shutil.copytree(_run(set_dir), set_dir / "backup")
    assert _readers(set_dir)["pandas"] == 12
    _line(audit(set_dir, fast=True).problems, f"{set_dir / 'backup'}: a copy of run {_run_name(set_dir)}",
          "move it out of the output root")


def _run_name(set_dir: Path) -> str:
    return min(d.name for d in set_dir.iterdir() if d.is_dir() and d.name[0] not in "._" and d.name != "backup")


def test_a_stray_part_file_in_the_set_folder(set_dir: Path) -> None:
    shutil.copy(_run(set_dir) / "part-00000.parquet", set_dir / "part-00000.parquet")
    assert _readers(set_dir)["pandas"] == 9
    _line(audit(set_dir, fast=True).problems, f"{set_dir / 'part-00000.parquet'}: not part of the set",
          "pd.read_parquet of the set folder")


@pytest.mark.parametrize("name", ["notes.txt", "part-00000.parquet.bak", "extra/part-00000.parquet"])
def test_stray_files_in_a_run_folder(set_dir: Path, name: str) -> None:
    run_dir = _run(set_dir)
    (run_dir / name).parent.mkdir(exist_ok=True)
    shutil.copy(run_dir / "part-00000.parquet", run_dir / name)
    for path in (set_dir, run_dir):  # check of the set, and of the run alone (pd.read_parquet(RUN))
        top = name.split("/")[0]
        _line(audit(path, fast=True).problems, f"{run_dir / top}: not part of the set", "pd.read_parquet",
              "move it out")


def test_what_no_reader_takes_is_no_finding(set_dir: Path) -> None:
    run_dir = _run(set_dir)
    (set_dir / "_notes").mkdir()
    (set_dir / "_notes" / "todo.txt").write_text("x")
    (run_dir / ".hidden.txt").write_text("x")
    (set_dir / "_stock").mkdir(exist_ok=True)
    assert _readers(set_dir) == {"polars": 6, "duckdb": 6, "pandas": 6}
    assert audit(set_dir, fast=True).ok, audit(set_dir, fast=True).problems


def test_a_run_folder_renamed_into_place_while_check_lists_it_is_no_traceback(set_dir: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A run starting beside ``check`` renames its ``.<run_id>.tmp`` folder away between the listing
    of the set and the listing of that folder: the folder has gone, so it holds no parts."""
    making = set_dir / ".20990101T000000Z-abcdef12.tmp"
    (making / "20990101T000000Z-abcdef12").mkdir(parents=True)
    real = Path.glob

    def glob(self: Path, pattern: str):  # type: ignore[no-untyped-def]
        if self == making:
            shutil.rmtree(making)  # the rename lands just as the folder is listed
            raise FileNotFoundError(2, "No such file or directory", str(making))
        return real(self, pattern)

    monkeypatch.setattr(Path, "glob", glob)
    assert audit(set_dir, fast=True).problems == []
