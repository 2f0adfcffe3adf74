"""The manifest is read through one strict schema: a damaged one is refused in one line on
``--resume`` (and by a new run of the set, and ``runs``) and reported by ``check``; a kill while a
catalog entry was written leaves a temp file that resume and ``catalog --repair`` remove."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pipeline import config
from pipeline.run import runner, store
from pipeline.run.audit import audit
from pipeline.run.layout import CATALOG, catalog_name
from pipeline.run.manifest_schema import manifest_problem
from pipeline.run.plan import plan
from tests.conftest import numplace, tiny

SET = {"board": {"size": 4}, "removal": {"symmetry": "none", "minimal": True}}
Change = Callable[[dict[str, Any]], None]


def _cfg(root: Path, count: int = 6) -> dict[str, Any]:
    return tiny(root, count=count, output={"dir": str(root), "shard_size": 2}, **SET)


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An output root with one partial run (one part of three written)."""
    root = tmp_path_factory.mktemp("manifest") / "out"
    summary = runner.run(config.validate(_cfg(root)), max_minutes=1e-9)
    assert summary.status == "partial"
    return root


@pytest.fixture
def run_dir(made: Path, tmp_path: Path) -> Path:
    shutil.copytree(made, tmp_path / "out")
    (found,) = [d for d in (tmp_path / "out" / "tiny").iterdir() if d.is_dir() and d.name[0] not in "._"]
    return found


def _damage(run_dir: Path, change: Change) -> None:
    data = json.loads((run_dir / "_manifest.json").read_text())
    change(data)
    (run_dir / "_manifest.json").write_text(json.dumps(data))


DAMAGES: dict[str, tuple[Change, str]] = {
    "rows a string": (lambda d: d["shards"]["0"].__setitem__("rows", "2"),
                      "shards.0.rows: Input should be a valid integer"),
    "negative start": (lambda d: d.__setitem__("start", -5), "start: Input should be greater than or equal to 0"),
    "a part beyond the run": (lambda d: d["shards"].__setitem__("7", d["shards"]["0"]),
                              "shards.7: not a part of the run"),
    "too many rows": (lambda d: d["shards"]["0"].__setitem__("rows", 5),
                      "shards.0: 5 rows and 0 failures for 2 indices"),
    "a stock index outside": (lambda d: d.__setitem__("from_stock", [{"index": 99, "seed": 1, "file": "x"}]),
                              "from_stock: index 99 is outside the run's range 0-5"),
    "an unknown status": (lambda d: d.__setitem__("status", "done"), "status: 'done' is not allowed"),
}


@pytest.mark.parametrize("damage", list(DAMAGES))
def test_a_damaged_manifest_is_refused_on_resume_and_reported_by_check(run_dir: Path, damage: str) -> None:
    change, says = DAMAGES[damage]
    _damage(run_dir, change)
    cfg = config.validate(_cfg(run_dir.parent.parent))
    with pytest.raises(store.StoreError, match="damaged manifest") as err:
        plan(cfg, run_dir, lambda *_a, **_k: None)
    assert says in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(store.StoreError, match="damaged manifest"):  # a new run of the set reads it too
        runner.run(cfg)
    assert any(f"run {run_dir.name}: damaged manifest ({says}" in p for p in audit(run_dir, fast=True).problems)


def test_unknown_and_absent_keys_are_not_damage(run_dir: Path) -> None:
    data = json.loads((run_dir / "_manifest.json").read_text())
    assert manifest_problem(data) is None
    data["future_field"] = {"lp_grid": True}  # a field a newer version adds
    data["shards"]["0"]["extra"] = 1
    del data["start"], data["shard_size"]  # a manifest older than these keys
    assert manifest_problem(data) is None


@pytest.mark.heavy
def test_resume_of_a_damaged_manifest_is_one_line(run_dir: Path, write_config: Callable[..., Path]) -> None:
    _damage(run_dir, DAMAGES["rows a string"][0])
    cfg = write_config(_cfg(run_dir.parent.parent))
    res = numplace("run", str(cfg), "--resume", str(run_dir))
    assert res.returncode == 2 and res.stderr.count("\n") == 1, res.stderr
    assert "damaged manifest (shards.0.rows: Input should be a valid integer)" in res.stderr


def _stale_temp(run_dir: Path) -> Path:
    """What a kill during the catalog write leaves."""
    root = run_dir.parent.parent
    (root / CATALOG).mkdir(exist_ok=True)
    tmp = root / CATALOG / f".{catalog_name('tiny', run_dir.name)}.abc123.tmp"
    tmp.write_bytes(b"PAR1 half")
    return tmp


def test_resume_removes_its_stale_catalog_temp_file(run_dir: Path) -> None:
    tmp = _stale_temp(run_dir)
    other = tmp.parent / ".other--20260101T000000Z-00000000.keys.xyz.tmp"  # another run's, maybe being written
    other.write_bytes(b"x")
    assert runner.run(config.validate(_cfg(run_dir.parent.parent)), resume=run_dir).ok
    assert not tmp.exists() and other.exists()


def test_catalog_repair_removes_stale_temp_files(run_dir: Path) -> None:
    tmp = _stale_temp(run_dir)
    lines = store.repair_catalog(run_dir.parent.parent)
    assert not tmp.exists() and lines == [f"removed {tmp}, a catalog entry left half-written by a killed run"]
