"""Small boards: how many distinct 4x4 puzzles a request can have is counted before the run starts."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from pipeline import config
from pipeline.run import capacity, runner
from tests.conftest import ROOT, numplace

SMALL = ROOT / "configs" / "small-4x4.yaml"


@pytest.mark.deep
@pytest.mark.heavy
def test_the_shipped_small_config_succeeds_on_an_empty_root_and_makes_every_puzzle_counted(tmp_path: Path) -> None:
    res = numplace("run", str(SMALL), "--out", str(tmp_path))
    assert res.returncode == 0, res.stderr
    made = pl.read_parquet(tmp_path / "small-4x4" / "*" / "part-*.parquet")
    keys = capacity.distinct("orthogonal", True)
    assert keys is not None and len(keys) == made.height == 7
    assert set(made["canonical_puzzle"]) == keys  # the count is the set the generator reaches
    again = numplace("run", str(SMALL), "--out", str(tmp_path))
    assert again.returncode == 2 and again.stderr.count("\n") == 1
    assert "count: only 7 distinct 4x4 puzzles exist with removal.symmetry orthogonal and minimal, 7 of them " \
           "already in" in again.stderr


def test_asking_for_more_than_exist_is_refused_before_anything_is_created(tmp_path: Path) -> None:
    data = {"name": "kids", "seed": 1, "count": 6, "board": {"size": 4}, "removal": {"symmetry": "full"},
            "workers": 1, "output": {"dir": str(tmp_path)}}
    with pytest.raises(config.ConfigError, match=r"count: only 5 distinct 4x4 puzzles exist .* ask for at most 5"):
        runner.run(config.validate(data))
    assert not any(p.is_dir() for p in (tmp_path / "kids").iterdir())


def test_counts_follow_the_rule(tmp_path: Path) -> None:
    minimal = capacity.distinct("rot180", True)
    ranged = capacity.distinct("rot180", False, 6, 8)
    assert minimal is not None and ranged is not None and len(ranged) > len(minimal)
    assert capacity.distinct("none", True) is None  # 16 single-cell orbits: not counted before a run
