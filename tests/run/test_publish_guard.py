"""``export`` and ``book`` of a set whose runs are not all complete are refused, naming what is
missing, unless ``--allow-incomplete``."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline import config
from pipeline.publish import book, select
from pipeline.run import runner
from pipeline.run.sets import IncompleteSet, missing, require_complete
from tests.conftest import numplace, tiny

SET = {"board": {"size": 4}, "removal": {"symmetry": "none", "minimal": True}}


@pytest.fixture(scope="module")
def partial(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A set folder whose one run stopped after its first part (2 of 6 puzzles)."""
    root = tmp_path_factory.mktemp("guard") / "out"
    cfg = config.validate(tiny(root, count=6, output={"dir": str(root), "shard_size": 2}, **SET))
    summary = runner.run(cfg, max_minutes=1e-9)
    assert summary.status == "partial" and summary.written == 2
    return root / "tiny"


def _run(set_dir: Path) -> Path:
    (found,) = [d for d in set_dir.iterdir() if d.is_dir() and d.name[0] not in "._"]
    return found


def test_what_is_missing_is_named(partial: Path) -> None:
    run_dir = _run(partial)
    want = f"run {run_dir.name} is partial: 2 of the 6 puzzles of indices 0-5 written"
    assert missing(partial) == [want] and missing(run_dir) == [want]
    assert missing(run_dir / "part-00000.parquet") == []  # a part given alone is taken as it is
    with pytest.raises(IncompleteSet, match="pass --allow-incomplete") as err:
        require_complete((partial,))
    assert str(err.value).startswith(f"{partial}: {want}; finish it first (numplace run CONFIG --resume RUN_DIR)")
    require_complete((partial,), allow_incomplete=True)


def test_export_and_book_refuse_an_unfinished_set(partial: Path, tmp_path: Path) -> None:
    with pytest.raises(IncompleteSet, match="is partial"):
        select.select([partial], select.Filter())
    assert select.select([partial], select.Filter(), allow_incomplete=True).height == 2
    with pytest.raises(IncompleteSet, match="is partial"):
        book.make_book([partial], tmp_path / "b.pdf", book.load_config(None, {}))
    assert not (tmp_path / "b.pdf").exists()


@pytest.mark.deep
@pytest.mark.heavy
def test_the_commands_say_it_in_one_line(partial: Path, tmp_path: Path) -> None:
    set_dir = tmp_path / "tiny"
    shutil.copytree(partial, set_dir)
    res = numplace("export", str(set_dir), "--out", str(tmp_path / "x.csv"))
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "is partial: 2 of the 6" in res.stderr, res.stderr
    assert not (tmp_path / "x.csv").exists()
    res = numplace("export", str(set_dir), "--out", str(tmp_path / "x.csv"), "--allow-incomplete")
    assert res.returncode == 0 and "wrote 2 puzzles" in res.stdout, res.stderr
    res = numplace("book", str(set_dir), "--out", str(tmp_path / "b.pdf"))
    assert res.returncode == 2 and "--allow-incomplete" in res.stderr and not (tmp_path / "b.pdf").exists()
