"""A run's catalog entry older than some of its parts still keeps every part in dedup (issue 51).

A run stopped early (``--max-minutes``, a signal) writes its catalog entry from the parts it has;
resumed and then killed with ``kill -9`` after writing more parts, it leaves an entry that is older
than those parts and does not hold their keys. A run of another set must still dedup against them:
the slow soak found 2 puzzles in both sets that way (two sets with one seed, a resumed run killed).
"""

from __future__ import annotations

import os
from pathlib import Path

import polars as pl
import pytest

from pipeline import config
from pipeline.run import finish, runner, store
from pipeline.run.manifest import runs_of

pytestmark = pytest.mark.heavy  # three small 6x6 runs: seconds

SIX = {"board": {"size": 6}, "removal": {"symmetry": "none", "minimal": True}}


def _cfg(root: Path, name: str) -> config.Config:
    return config.validate({"name": name, "seed": 11, "count": 6, **SIX, "workers": 1,
                            "output": {"dir": str(root), "shard_size": 2}})


class _Killed(BaseException):
    """``kill -9`` of the process at the moment it would write its catalog entry."""


def _shared(root: Path) -> int:
    frame = pl.read_parquet(str(root / "*" / "*" / "part-*.parquet"))  # what a reader's glob reads
    per = frame.group_by("canonical_puzzle").agg(pl.col("set_name").n_unique().alias("sets"))
    return int(per.filter(pl.col("sets") > 1).height)


def test_parts_written_after_a_runs_entry_count_in_another_sets_dedup(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "out"
    first = runner.run(_cfg(root, "beta"), max_minutes=0.0)  # stops after its first part: the entry holds 2 keys
    assert first.status == "partial" and first.written == 2
    entry = root / "_catalog" / f"beta--{first.run_dir.name}.keys"
    assert pl.read_parquet(entry).height == 2

    def killed(plan: object) -> None:
        raise _Killed

    with monkeypatch.context() as m:
        m.setattr(finish, "_write_catalog", killed)
        with pytest.raises(_Killed):
            runner.run(_cfg(root, "beta"), resume=first.run_dir)
    assert len(list(first.run_dir.glob("part-*.parquet"))) == 3  # parts 1 and 2 written, the entry not again
    assert pl.read_parquet(entry).height == 2

    said: list[str] = []
    other = runner.run(_cfg(root, "alpha"), log=lambda msg, **_f: said.append(msg))  # the same seed
    assert other.ok and other.written == 6
    assert _shared(root) == 0, said
    assert [m.status for m in runs_of(root / "alpha")] == ["complete"]


def test_a_complete_runs_entry_holds_its_parts_any_other_runs_only_the_ids_it_lists(tmp_path: Path) -> None:
    """No file time decides: a copy or a ``touch`` of a stale entry makes it newer than every part."""
    root = tmp_path / "out"
    made = runner.run(_cfg(root, "beta"))
    parts = sorted(made.run_dir.glob("part-*.parquet"))
    name = f"_catalog/beta--{made.run_dir.name}.keys"
    os.utime(root / name, ns=(0, 0))  # older than every part: a complete run's entry holds them all the same
    assert store.parts_in_entries(root, [name], parts) == set(parts)
    (made.run_dir / "_SUCCESS").unlink()  # an unfinished run: its entry may be stale
    rows = pl.read_parquet(root / name)
    store.write_catalog(root, "beta", made.run_dir.name, rows.head(4).to_dicts())  # as a killed session left it
    for p in parts:
        os.utime(p, ns=(0, 0))  # every part older than the entry: the ids still decide
    assert store.parts_in_entries(root, [name], parts) == set(parts[:2])
    assert store.parts_in_entries(root, [], parts) == set()  # no entry: nothing held
