"""Issue 6 in the pipeline: grid_number and canonical_puzzle columns, uniform grids, the catalog."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import polars as pl
import pytest
import yaml

from pipeline import config
from pipeline.board import parse
from pipeline.generate.grid import random_transform
from pipeline.identity import canon, numbering
from pipeline.run import layout, runner, store
from pipeline.run.manifest import read_manifest
from tests.conftest import error_line, numplace, tiny

pytestmark = pytest.mark.heavy  # the tests here make sets or run the CLI: seconds each

CONTENT = ["index", "seed", "puzzle", "solution", "attempts", "canonical_puzzle"]


def _frame(summary: runner.RunSummary) -> pl.DataFrame:
    return pl.read_parquet(summary.run_dir / "part-*.parquet")


def test_columns_and_uniform_grids(tmp_path: Path) -> None:
    for method in ("weighted-ilp", "uniform"):
        data = tiny(tmp_path / method, count=4, grid={"method": method})
        frame = _frame(runner.run(config.validate(data)))
        assert frame.height == 4  # the loop below checks every row, not none
        for row in frame.iter_rows(named=True):
            assert numbering.grid_from_number(int(row["grid_number"])) == parse(row["solution"])
            assert row["canonical_puzzle"] == canon.canonical_key(parse(row["puzzle"]))
        if method == "uniform":  # no ILP for the grid: the certificate is the only solve
            assert frame["ilp_solves"].to_list() == [1] * 4


def test_catalog_rejects_a_relabelled_transposed_copy(tmp_path: Path) -> None:
    root = tmp_path / "out"
    first = _frame(runner.run(config.validate(tiny(root, count=3))))
    shutil.rmtree(root)
    p0 = parse(first["puzzle"][0])
    copy = random_transform(p0, 9, np.random.default_rng(5))  # relabelled, rows/columns moved
    copy = tuple(copy[c * 9 + r] for r in range(9) for c in range(9))  # and transposed
    assert copy != p0
    (root / "older-book" / "r1").mkdir(parents=True)  # an entry counts while its run folder exists
    store.write_catalog(root, "older-book", "r1", [{"key": canon.canonical_key(copy), "size": 9,
                                                   "set_name": "older-book", "run_id": "r1", "puzzle_id": "x"}])
    again = runner.run(config.validate(tiny(root, count=3)))
    frame = _frame(again)
    assert frame["puzzle"][0] != first["puzzle"][0] and frame["seed"][0] != first["seed"][0]
    assert frame["puzzle"][1:].to_list() == first["puzzle"][1:].to_list()
    assert read_manifest(again.run_dir)["totals"]["duplicates_replaced"] == 1


def test_second_run_of_the_same_config_gets_new_puzzles_same_for_1_and_2_workers(tmp_path: Path) -> None:
    base = tmp_path / "base"
    runner.run(config.validate(tiny(base, count=6, name="book-a")))
    sets = []
    for workers in (1, 2):
        root = tmp_path / f"w{workers}"
        shutil.copytree(base, root)
        summary = runner.run(config.validate(tiny(root, count=6, name="book-b", workers=workers)))
        assert summary.ok
        assert read_manifest(summary.run_dir)["totals"]["duplicates_replaced"] == 6
        sets.append(_frame(summary).select(CONTENT))
    assert sets[0].equals(sets[1])
    a = set(pl.read_parquet(base / "book-a" / "*" / "part-*.parquet")["canonical_puzzle"])
    assert len(a) == 6 and sets[0].height == 6  # disjoint sets of keys, not empty ones
    assert not a & set(sets[0]["canonical_puzzle"])
    res = numplace("catalog", "--out", str(tmp_path / "w2"))
    assert res.returncode == 0 and "12 puzzles, 12 distinct keys, 2 run(s)" in res.stdout


@pytest.mark.deep
def test_small_board_runs_out_clearly_and_keeps_what_it_made(tmp_path: Path, write_config) -> None:
    # symmetry none is not counted before the run (tests/run/test_capacity.py has the counted groups):
    # 36 distinct minimal 4x4 puzzles exist, so 40 must run out during the run
    data = tiny(tmp_path / "out", count=40, board={"size": 4}, removal={"symmetry": "none", "minimal": True},
                dedup={"max_redraws": 3}, output={"dir": str(tmp_path / "out"), "shard_size": 40})
    res = numplace("run", str(write_config(data)))
    assert res.returncode == 1
    assert "run out of distinct puzzles" in res.stderr
    frame = pl.read_parquet(tmp_path / "out" / "tiny" / "*" / "part-*.parquet")
    assert 0 < frame.height <= 36 and frame["canonical_puzzle"].n_unique() == frame.height


@pytest.mark.deep
def test_numbering_commands(tmp_path: Path) -> None:
    grid = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
    number = numplace("grid-number", grid).stdout.strip()
    assert numplace("grid-from-number", number).stdout.strip() == grid
    f = tmp_path / "numbers.txt"
    f.write_text(f"0\n{numbering.N0 - 1}\n12345678901234567890\n")
    lines = numplace("grid-from-number", str(f)).stdout.split()
    assert len(lines) == 3 and numplace("grid-number", lines[0]).stdout.strip() == "0"
    bad = numplace("grid-from-number", str(numbering.N0))
    assert bad.returncode == 2 and "out of range" in bad.stderr and "Traceback" not in bad.stderr
    assert numplace("count-grids", "--band", "123456789/456789123/789123456").stdout.strip() == "108374976"
    p = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    moved = "".join(p[c * 9 + r] for r in range(9) for c in range(9))  # transposed
    assert numplace("canon", p).stdout == numplace("canon", moved).stdout


# --- #12.7: dedup gaps -------------------------------------------------------------------------------------


def _keys(run_dir: Path) -> set[str]:
    return store.part_keys(sorted(run_dir.glob("part-*.parquet")))


def _killed(summary: runner.RunSummary, root: Path) -> None:
    """Make a finished run look killed after its parts were written: no catalog entry, running."""
    (root / layout.CATALOG / layout.catalog_name(summary.run_dir.parent.name, summary.run_dir.name)).unlink()
    data = read_manifest(summary.run_dir)
    data["status"] = "running"
    (summary.run_dir / "_manifest.json").write_text(json.dumps(data), encoding="utf-8")


def test_parts_of_a_killed_never_resumed_run_count_as_published(tmp_path: Path) -> None:
    """A run killed after writing parts, never resumed, has no catalog entry: a later run in the
    root still dedups against its parts (here a second set with the same seed, which would make the
    very same puzzles), and lists them in its manifest."""
    root = tmp_path / "out"
    a = runner.run(config.validate(tiny(root, count=4)))
    _killed(a, root)
    b = runner.run(config.validate(tiny(root, name="other", count=4)))
    assert b.ok
    manifest = read_manifest(b.run_dir)
    assert sorted(manifest["published_parts"]) == sorted(str(p.relative_to(root))
                                                        for p in a.run_dir.glob("part-*.parquet"))
    assert manifest["totals"]["duplicates_replaced"] == 4
    assert len(_keys(a.run_dir)) == len(_keys(b.run_dir)) == 4  # disjoint sets of keys, not empty ones
    assert not _keys(a.run_dir) & _keys(b.run_dir)


def test_a_catalog_file_deleted_before_a_resume_is_read_from_its_runs_parts(tmp_path: Path) -> None:
    """The catalog is an index of the parts: an entry gone before a resume is not silently skipped;
    its run's parts stand in for it (and the run says so)."""
    from pipeline.run import plan as planmod

    root = tmp_path / "out"
    a = runner.run(config.validate(tiny(root, count=4)))
    cfg_b = config.validate(tiny(root, name="other", count=4))
    p = planmod.plan(cfg_b, None, lambda _m, **_k: None)  # B's run folder exists, nothing made: as if killed
    p.lock.release()
    (root / layout.CATALOG / layout.catalog_name(a.run_dir.parent.name, a.run_dir.name)).unlink()
    said: list[str] = []
    b = runner.run(cfg_b, resume=p.run_dir, log=lambda m, **_k: said.append(m))
    assert len(_keys(a.run_dir)) == len(_keys(b.run_dir)) == 4  # disjoint sets of keys, not empty ones
    assert b.ok and not _keys(a.run_dir) & _keys(b.run_dir)
    assert any("has gone; its keys are read from" in m for m in said)


def test_resuming_a_copy_of_a_run_folder_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "out"
    a = runner.run(config.validate(tiny(root, count=4)))
    copy = a.run_dir.with_name(a.run_dir.name + "-copy")
    shutil.copytree(a.run_dir, copy)
    cfg = tmp_path / "c.yaml"
    cfg.write_text(yaml.safe_dump(tiny(root, count=4)), encoding="utf-8")
    res = numplace("run", str(cfg), "--resume", str(copy), cwd=tmp_path)
    assert res.returncode == 2, res.stderr
    assert error_line(res.stderr) == (f"numplace: error: {copy}: a copy of run {a.run_dir.name} (its manifest says "
                                      "so); resume the run folder it was made in, or its puzzles would be published "
                                      "twice")
    assert not (root / layout.CATALOG / layout.catalog_name("tiny", copy.name)).exists()
