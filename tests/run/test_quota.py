"""difficulty.quota: a run makes exactly the requested mix; surplus puzzles go to the set's stock
and the next run takes from it first."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from pipeline import config
from pipeline.run import runner, stock
from pipeline.run.audit import audit
from pipeline.run.manifest import read_manifest, runs_of

QUOTA = {"easy": 4, "medium": 1, "hard": 1}


def _cfg(root: Path, workers: int = 1, steer: bool = False, method: str | None = None) -> config.Config:
    grid = {"grid": {"method": method}} if method else {}
    return config.validate({"name": "mix", "seed": 5, "board": {"size": 9}, **grid,
                            "removal": {"symmetry": "rot180", "minimal": True},
                            "difficulty": {"quota": QUOTA, "steer": steer}, "workers": workers,
                            "output": {"dir": str(root), "shard_size": 4}})


@pytest.mark.heavy
def test_quota_runs_make_the_mix_keep_the_surplus_and_use_it_next(tmp_path: Path) -> None:
    root = tmp_path / "out"
    first = runner.run(_cfg(root))
    assert first.ok and first.count == 6  # count is the quota's sum
    made = pl.read_parquet(first.run_dir / "part-*.parquet")
    assert made["difficulty"].value_counts().sort("difficulty").rows() == sorted(QUOTA.items())
    manifest = read_manifest(first.run_dir)
    assert manifest["totals"]["levels"] == QUOTA and manifest["from_stock"] == []
    stocked = manifest["totals"]["stocked"]
    kept = pl.read_parquet(sorted((root / "mix" / stock.STOCK).glob("*.stock")))
    assert stocked == kept.height > 0  # verified surplus kept, not thrown away
    assert not set(kept["seed"]) & set(made["seed"])

    second = runner.run(_cfg(root))
    assert second.ok and second.start == 6
    used = read_manifest(second.run_dir)["from_stock"]
    assert used, "the second run took nothing from the stock"
    rows = pl.read_parquet(second.run_dir / "part-*.parquet").sort("index")
    first_rows = rows.head(len(used))
    assert first_rows["index"].to_list() == [6 + k for k in range(len(used))]  # stock fills the first indices
    assert first_rows["seed"].to_list() == [u["seed"] for u in used]
    assert set(first_rows["seed"]) <= set(kept["seed"])
    assert rows["difficulty"].value_counts().sort("difficulty").rows() == sorted(QUOTA.items())
    left = stock.available(root / "mix", runs_of(root / "mix"))
    assert not set(left["seed"]) & {u["seed"] for u in used}  # a stock puzzle is used once
    assert audit(root / "mix").ok


@pytest.mark.heavy
def test_steering_works_with_a_quota_and_stocks_the_surplus(tmp_path: Path) -> None:
    """difficulty.steer with a quota: each puzzle climbs toward its seed's quota level; the mix is
    exact, what a climb made at a level no longer wanted goes to the stock, and check passes."""
    # The count comparison below is of one seed's draws, measured on weighted-ilp grids (the default
    # of sets begun before weighted-lp): on weighted-lp grids this seed's steered run keeps 8, not 7.
    root = tmp_path / "out"
    run = runner.run(_cfg(root, steer=True, method="weighted-ilp"))
    assert run.ok and run.count == 6
    made = pl.read_parquet(run.run_dir / "part-*.parquet")
    assert made["difficulty"].value_counts().sort("difficulty").rows() == sorted(QUOTA.items())
    manifest = read_manifest(run.run_dir)
    assert manifest["totals"]["levels"] == QUOTA
    if manifest["totals"]["stocked"]:
        kept = pl.read_parquet(sorted((root / "mix" / stock.STOCK).glob("*.stock")))
        assert kept.height == manifest["totals"]["stocked"] and not set(kept["seed"]) & set(made["seed"])
    plain = runner.run(_cfg(tmp_path / "plain", method="weighted-ilp"))
    steered_rows = manifest["totals"]["puzzles"] + manifest["totals"]["stocked"]
    plain_totals = read_manifest(plain.run_dir)["totals"]
    assert steered_rows <= plain_totals["puzzles"] + plain_totals["stocked"]  # no more puzzles made than without
    assert audit(root / "mix").ok


@pytest.mark.heavy
def test_a_quota_run_is_the_same_on_one_and_two_workers(tmp_path: Path) -> None:
    sets = []
    for workers in (1, 2):
        root = tmp_path / f"w{workers}"
        summary = runner.run(_cfg(root, workers))
        sets.append(pl.read_parquet(summary.run_dir / "part-*.parquet").select("index", "seed", "puzzle").sort("index"))
        sets.append(pl.read_parquet(sorted((root / "mix" / stock.STOCK).glob("*.stock"))).select("seed").sort("seed"))
    assert sets[0].equals(sets[2]) and sets[1].equals(sets[3])


@pytest.mark.parametrize(
    ("difficulty", "count", "message"),
    [
        ({"quota": {"easy": 3}}, 4, "count: 4 does not match difficulty.quota, which adds up to 3"),
        ({"quota": {"easy": 3}, "levels": ["easy"]}, None, "give quota, or levels/score, not both"),
        ({"quota": {"legend": 3}}, None, "difficulty.quota.legend"),
        ({"quota": {"easy": 0}}, None, "difficulty.quota.easy: Input should be greater than or equal to 1"),
    ],
)
def test_bad_quotas(difficulty: dict, count: int | None, message: str) -> None:
    data = {"name": "q", "seed": 1, "difficulty": difficulty}
    if count is not None:
        data["count"] = count
    with pytest.raises(config.ConfigError, match=message):
        config.validate(json.loads(json.dumps(data)))
