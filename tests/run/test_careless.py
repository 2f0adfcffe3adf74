"""A set folder under a careless hand (issue 41): what ``check``, ``runs`` and the next run say when a
person deletes, renames or edits folders of a set, and the ways out they name.

Each test is a scenario and the verdict: the exit code and the line a person reads.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest

from pipeline import config
from pipeline.config.defining import defining_keys, differences
from pipeline.run import plan as planmod
from pipeline.run import runner, store
from pipeline.run.audit import audit
from pipeline.run.layout import GAPS
from pipeline.run.manifest import runs_of
from tests.conftest import error_line, numplace, tiny

pytestmark = pytest.mark.heavy  # each scenario makes a small set: seconds

SIX = {"board": {"size": 6}, "removal": {"symmetry": "none", "minimal": True}}


def _cfg(root: Path, **over: object) -> dict:
    return tiny(root, **{"count": 4, **SIX, "output": {"dir": str(root), "shard_size": 2}, **over})


@pytest.fixture(scope="module")
def three(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An output root with set ``tiny`` made by three runs of 4 (indices 0-11)."""
    root = tmp_path_factory.mktemp("careless") / "out"
    for _ in range(3):
        assert runner.run(config.validate(_cfg(root))).ok
    return root


@pytest.fixture
def root(three: Path, tmp_path: Path) -> Path:
    shutil.copytree(three, tmp_path / "out")
    return tmp_path / "out"


def _runs(set_dir: Path) -> list[Path]:
    return [m.run_dir for m in runs_of(set_dir)]


def _write(path: Path, data: dict) -> Path:
    import yaml

    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def _line(problems: list[str], *fragments: str) -> str:
    hits = [p for p in problems if all(f in p for f in fragments)]
    assert hits, f"no problem line with {fragments} in:\n" + "\n".join(problems)
    return hits[0]


# --- 1. a run folder deleted by hand ----------------------------------------------------------------------

@pytest.mark.deep
def test_a_deleted_middle_run_is_a_gap_that_check_and_runs_name(root: Path, tmp_path: Path) -> None:
    set_dir = root / "tiny"
    middle = _runs(set_dir)[1]
    shutil.rmtree(middle)
    for fast in (True, False):
        line = _line(audit(set_dir, fast=fast).problems, "indices 4-7 are missing", middle.name)
        assert "--fill-gap" in line and "accept-gap" in line
    res = numplace("check", str(set_dir), "--fast")
    assert res.returncode == 1 and "indices 4-7 are missing" in res.stdout, res.stdout
    listing = numplace("runs", str(root))
    assert listing.returncode == 0 and "PROBLEM set tiny: indices 4-7 are missing" in listing.stdout, listing.stdout
    # way out 1: re-make the missing indices from their seeds, as a run of their own
    cfg = _write(tmp_path / "cfg.yaml", _cfg(root))
    filled = numplace("run", str(cfg), "--fill-gap")
    assert filled.returncode == 0, filled.stderr
    assert "indices 4-7" in filled.stdout
    assert sorted(pl.read_parquet(f"{set_dir}/*/part-*.parquet")["index"].to_list()) == list(range(12))
    assert audit(set_dir).ok, audit(set_dir).problems  # the same puzzles again: the deleted entry is matched
    refused = numplace("run", str(cfg), "--fill-gap")
    assert refused.returncode == 2 and "has no gap in its ids to fill" in error_line(refused.stderr)


@pytest.mark.deep
def test_a_gap_recorded_as_meant_is_no_problem(root: Path) -> None:
    set_dir = root / "tiny"
    shutil.rmtree(_runs(set_dir)[1])
    missing = numplace("accept-gap", str(set_dir))
    assert missing.returncode == 2 and "--reason" in missing.stderr
    res = numplace("accept-gap", str(set_dir), "--reason", "puzzles withdrawn")
    assert res.returncode == 0 and "recorded indices 4-7 of set tiny" in res.stdout, res.stdout
    assert json.loads((set_dir / GAPS).read_text())["gaps"][0]["reason"] == "puzzles withdrawn"
    assert audit(set_dir, fast=True).ok, audit(set_dir, fast=True).problems
    again = numplace("accept-gap", str(set_dir), "--reason", "x")
    assert again.returncode == 2 and "no gap" in again.stderr


def test_a_deleted_last_run_is_named_and_the_next_run_makes_it_again(root: Path) -> None:
    set_dir = root / "tiny"
    last = _runs(set_dir)[-1]
    shutil.rmtree(last)
    line = _line(audit(set_dir, fast=True).problems, f"run {last.name} was deleted", "indices 8-11")
    assert "the next run makes them again from their seeds" in line
    assert runner.run(config.validate(_cfg(root))).ok
    assert audit(set_dir, fast=True).ok, audit(set_dir, fast=True).problems  # same ids, same puzzles


def test_the_next_run_warns_of_a_gap_and_goes_on(root: Path) -> None:
    set_dir = root / "tiny"
    shutil.rmtree(_runs(set_dir)[0])
    said: list[tuple[str, dict]] = []
    summary = runner.run(config.validate(_cfg(root)), log=lambda m, **f: said.append((m, f)))
    assert summary.ok and summary.start == 12
    warned = [m for m, f in said if f.get("event") == "set_history"]
    assert warned and "indices 0-3 are missing" in warned[0]
    assert [f.get("level") for m, f in said if f.get("event") == "set_history"] == ["warning"]


# --- 2. the keys that define a set ------------------------------------------------------------------------

def test_changing_the_board_size_is_refused_naming_the_key(root: Path, tmp_path: Path) -> None:
    set_dir = root / "tiny"
    before = sorted(p.name for p in set_dir.iterdir())
    cfg = _write(tmp_path / "cfg.yaml", _cfg(root, board={"size": 4}))
    res = numplace("run", str(cfg))
    line = error_line(res.stderr)
    assert res.returncode == 2, res.stderr
    assert line.startswith("numplace: error: board.size: set tiny holds puzzles with board.size 6"), line
    assert "another name to start a new set" in line
    assert sorted(p.name for p in set_dir.iterdir()) == before  # nothing written


def test_symmetry_and_an_unset_grid_method_continue_a_set(root: Path) -> None:
    data = _cfg(root, removal={"symmetry": "rot180", "minimal": True})
    assert "method" not in data.get("grid", {})
    assert runner.run(config.validate(data)).ok
    assert audit(root / "tiny", fast=True).ok


@pytest.mark.parametrize(("change", "key"), [
    ({"board": {"size": 4}}, "board.size"),
    ({"board": {"size": 9, "variant": "x"}}, "board.variant"),
    ({"board": {"size": 9, "variant": "killer", "cages": {"givens": True}}}, "board.cages"),
    ({"board": {"size": 6, "variant": "jigsaw", "regions": "112122111222333444333444555666555666"}}, "board.regions"),
])
def test_the_defining_keys(change: dict, key: str) -> None:
    base = {"board": {"size": 9, "variant": "killer"}} if key == "board.cages" else \
        {"board": {"size": 6, "variant": "jigsaw", "regions": "111222111222333444333444555666555666"}} \
        if key == "board.regions" else {"board": {"size": 6 if key == "board.size" else 9}}
    got = differences(defining_keys(base), defining_keys(change))
    assert [k for k, _, _ in got][:1] == [key], got
    # what a config does not say is its default: an old manifest without board.variant is classic
    assert differences(defining_keys({"board": {"size": 9}}), defining_keys({"board": {"size": 9,
                                                                                      "variant": "classic"}})) == []
    assert differences(defining_keys({"board": {"size": 9}, "removal": {"symmetry": "none"}, "grid": {}}),
                       defining_keys({"board": {"size": 9}, "grid": {"method": "weighted-lp"}})) == []


def test_check_flags_a_set_whose_runs_disagree(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "check_defining", lambda *_a: None)  # as an older numplace let it through
    monkeypatch.setattr(planmod, "check_defining", lambda *_a: None)
    assert runner.run(config.validate(_cfg(root, board={"size": 4}))).ok
    monkeypatch.undo()
    _line(audit(root / "tiny", fast=True).problems, "disagree on board.size (6 against 4)")


# --- 3. a renamed run folder ------------------------------------------------------------------------------

def test_a_renamed_run_folder_is_called_renamed_not_a_copy(root: Path) -> None:
    set_dir = root / "tiny"
    last = _runs(set_dir)[-1]
    renamed = last.rename(set_dir / "20990101T000000Z-renamed")
    problems = audit(set_dir, fast=True).problems
    line = _line(problems, f"{renamed}: the folder's name does not match its manifest", f"run {last.name}")
    assert f"mv {renamed} {last}" in line
    assert not [p for p in problems if "a copy of run" in p or "twice" in p], problems
    assert not [p for p in problems if "was deleted" in p], problems  # its catalog entry is its own


def test_a_set_whose_only_run_is_renamed_hidden_is_checked_as_the_globs_read_it(tmp_path: Path) -> None:
    root = tmp_path / "out"
    assert runner.run(config.validate(_cfg(root))).ok
    (run_dir,) = _runs(root / "tiny")
    hidden = run_dir.rename(root / "tiny" / "_hidden")
    assert pl.read_parquet(f"{root / 'tiny'}/*/part-*.parquet").height == 4  # what polars and duckdb read
    result = audit(root / "tiny", fast=True)
    assert result.rows == 4
    line = _line(result.problems, f"{hidden}: a run folder (run {run_dir.name}")
    assert "pandas and pyarrow skip" in line and f"mv {hidden} {run_dir}" in line


# --- 5. a puzzle swapped, the manifest hashed again ---------------------------------------------------------

def test_a_swapped_puzzle_with_a_rehashed_manifest_is_caught_by_plain_check(root: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    assert runner.run(config.validate(_cfg(other, name="stranger", seed=99))).ok
    donor = pl.read_parquet(f"{other}/stranger/*/part-00000.parquet").row(0, named=True)
    set_dir = root / "tiny"
    run_dir = _runs(set_dir)[0]
    part = run_dir / "part-00000.parquet"
    frame = pl.read_parquet(part)
    keep = {"puzzle_id", "set_name", "config_hash", "seed", "index", "created_at", "gen_ms", "numplace_version"}
    row = {**donor, **{k: frame.row(0, named=True)[k] for k in keep}}
    swapped = pl.concat([pl.DataFrame([row], schema=frame.schema), frame.slice(1)])
    meta = pl.read_parquet_metadata(part)
    swapped.write_parquet(part, compression="zstd", statistics=True,
                          metadata={k: v for k, v in meta.items() if k.startswith("numplace.")})
    manifest = json.loads((run_dir / "_manifest.json").read_text())
    manifest["shards"]["0"]["sha256"] = store.file_sha256(part)  # the manifest hashed again
    (run_dir / "_manifest.json").write_text(json.dumps(manifest))
    for fast in (True, False):
        _line(audit(set_dir, fast=fast).problems, f"{row['puzzle_id']}", "not the puzzle the run published")


# --- a kill between a run's last two writes ---------------------------------------------------------------

def test_a_complete_run_without_its_success_file_gets_it_back_from_the_next_run(root: Path) -> None:
    set_dir = root / "tiny"
    run_dir = _runs(set_dir)[0]
    (run_dir / "_SUCCESS").unlink()  # as a kill -9 after the manifest said complete leaves it
    _line(audit(set_dir, fast=True).problems, f"run {run_dir.name} is complete but has no _SUCCESS")
    said: list[tuple[str, dict]] = []
    assert runner.run(config.validate(_cfg(root)), log=lambda m, **f: said.append((m, f))).ok
    assert [f["run_dir"] for _m, f in said if f.get("event") == "success_restored"] == [str(run_dir)]
    assert audit(set_dir, fast=True).ok
