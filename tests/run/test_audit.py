"""``numplace check`` catches what matters (issue #12): each tampering of a written set is a finding.

A small real set is made once per module (4x4, three parts); each test copies it, tampers with it
the way a person or a broken tool could (polars, json, bytes), and asserts the specific finding.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest

from pipeline import config
from pipeline.difficulty.techniques import GRADER_VERSION
from pipeline.generate.spec import puzzle_seed
from pipeline.run import layout, runner, store
from pipeline.run.audit import Audit, audit, config_digest, summary_lines
from tests.conftest import numplace, tiny

#: 4x4, no symmetry, minimal: 8 puzzles in parts of 3, 3, 2; seed 11 makes two duplicates that are
#: replaced by redraws (their seeds are redraw seeds, which check must accept).
MINIMAL = {"board": {"size": 4}, "removal": {"symmetry": "none", "minimal": True}}
#: 4x4, rot180, 6-9 givens: puzzles that are not minimal.
LOOSE = {"board": {"size": 4}, "removal": {"symmetry": "rot180", "hints": {"min": 6, "max": 9}}}


def _make(root: Path, **over: object) -> Path:
    summary = runner.run(config.validate(tiny(root, count=8, **over)))
    assert summary.ok
    return summary.run_dir


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The output root of a clean minimal 4x4 set (copy it before tampering)."""
    root = tmp_path_factory.mktemp("base") / "out"
    _make(root, **MINIMAL)
    return root


@pytest.fixture(scope="module")
def loose(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The output root of a clean 4x4 set of puzzles that are not minimal."""
    root = tmp_path_factory.mktemp("loose") / "out"
    _make(root, **LOOSE)
    return root


def _copy(root: Path, tmp_path: Path) -> Path:
    """A copy of the output root ``root``; returns its (single) run folder."""
    shutil.copytree(root, tmp_path / "out")
    (run_dir,) = [d for d in (tmp_path / "out" / "tiny").iterdir() if d.is_dir() and d.name[:1] not in "._"]
    return run_dir


@pytest.fixture
def run_dir(base: Path, tmp_path: Path) -> Path:
    return _copy(base, tmp_path)


def _manifest(run_dir: Path) -> dict:
    return json.loads((run_dir / "_manifest.json").read_text())


def _save_manifest(run_dir: Path, data: dict) -> None:
    (run_dir / "_manifest.json").write_text(json.dumps(data, indent=2))


def _edit(part: Path, change: Callable[[pl.DataFrame], pl.DataFrame]) -> None:
    """Rewrite a part through ``change``, keeping its numplace key-value metadata (a careful tamperer)."""
    meta = {k: v for k, v in pl.read_parquet_metadata(part).items() if k.startswith("numplace.")}
    change(pl.read_parquet(part)).write_parquet(part, metadata=meta)


def _set(column: str, index: int, value: object) -> Callable[[pl.DataFrame], pl.DataFrame]:
    """A change that puts ``value`` into ``column`` of the row of ``index``."""
    def change(frame: pl.DataFrame) -> pl.DataFrame:
        new = pl.lit(value, dtype=frame.schema[column])
        return frame.with_columns(pl.when(pl.col("index") == index).then(new).otherwise(pl.col(column)).alias(column))
    return change


def _problems(path: Path, **kw: object) -> list[str]:
    result = audit(path, **kw)  # type: ignore[arg-type]
    assert not result.ok
    return result.problems


def _one(problems: list[str], *fragments: str) -> str:
    """The problem line holding every fragment (the test fails naming them if there is none)."""
    hits = [p for p in problems if all(f in p for f in fragments)]
    assert hits, f"no problem line with {fragments} in:\n" + "\n".join(problems)
    return hits[0]


def _part(run_dir: Path, k: int) -> Path:
    return run_dir / layout.part_name(k)


# --- the clean sets pass, in both modes, and the manifest holds each part's row count and sha256 ---------------

def test_clean_sets_pass_including_redraw_seeds(base: Path, loose: Path, tmp_path: Path) -> None:
    run_dir = _copy(base, tmp_path)
    manifest = _manifest(run_dir)
    assert manifest["totals"]["duplicates_replaced"] > 0  # some seeds are redraw seeds
    frame = pl.read_parquet(run_dir / "part-*.parquet")
    redrawn = [r for r in frame.iter_rows(named=True) if r["seed"] != puzzle_seed(11, r["index"])]
    assert redrawn
    for path in (run_dir.parent, run_dir, _part(run_dir, 1), loose / "tiny"):
        for fast in (False, True):
            result = audit(path, fast=fast)
            assert result.ok, (path, fast, result.problems)
    assert audit(run_dir.parent).rows == 8 and audit(run_dir.parent).files == 3
    for k in range(3):
        part = _part(run_dir, k)
        assert manifest["shards"][str(k)]["sha256"] == store.file_sha256(part)
        assert manifest["shards"][str(k)]["rows"] == pl.read_parquet(part).height
    assert config_digest(manifest["config"]) == manifest["config_hash"]


def test_write_part_records_its_stats_before_the_part_appears(tmp_path: Path, run_dir: Path) -> None:
    rows = pl.read_parquet(_part(run_dir, 0)).to_dicts()
    seen: list[dict] = []

    def record(stats: dict) -> None:
        assert not (tmp_path / layout.part_name(7)).exists()  # manifest first, then the part
        seen.append(stats)

    path = store.write_part(tmp_path, 7, rows, "tiny", before_rename=record)
    assert seen == [{"part": "part-00007.parquet", "rows": 3, "sha256": store.file_sha256(path)}]


# --- 1. a part deleted and the count lowered to match --------------------------------------------------------

def test_a_deleted_part_with_the_count_lowered(run_dir: Path) -> None:
    _part(run_dir, 2).unlink()
    data = _manifest(run_dir)
    data["count"] = 6
    _save_manifest(run_dir, data)
    problems = _problems(run_dir)
    _one(problems, f"run {run_dir.name}: the manifest's count is 6, its config's count is 8")
    _one(problems, f"run {run_dir.name}: the manifest records part 2, beyond the run's range (6 puzzles in parts 0-1)")
    _one(problems, f"run {run_dir.name}: the totals say 8 puzzles requested, the manifest's count is 6")


def test_a_deleted_part_with_the_whole_manifest_lowered_to_match(run_dir: Path) -> None:
    """The thorough tamperer also lowers the config's count, drops the part's record and fixes the
    totals: the config no longer has the hash the run (and every row) carries."""
    _part(run_dir, 2).unlink()
    data = _manifest(run_dir)
    data["count"] = data["config"]["count"] = 6
    del data["shards"]["2"]
    data["totals"]["requested"] = data["totals"]["puzzles"] = 6
    _save_manifest(run_dir, data)
    problems = _problems(run_dir)
    assert problems == [_one(problems, f"run {run_dir.name}: the manifest's config_hash {data['config_hash']} is "
                                       "not the hash of its config")]


# --- 2. totals, or a part's recorded row count, wrong --------------------------------------------------------

def test_wrong_totals(run_dir: Path) -> None:
    data = _manifest(run_dir)
    data["totals"]["puzzles"] = 9
    _save_manifest(run_dir, data)
    assert _problems(run_dir) == [f"run {run_dir.name}: the totals say 9 puzzles written, the shard records add up "
                                  "to 8"]


def test_a_wrong_recorded_row_count(run_dir: Path) -> None:
    data = _manifest(run_dir)
    data["shards"]["1"]["rows"] = 2
    _save_manifest(run_dir, data)
    problems = _problems(run_dir)
    _one(problems, f"{run_dir.name}/part-00001.parquet: holds 3 puzzles, the manifest records 2")
    _one(problems, f"run {run_dir.name}: part-00001.parquet is recorded with 2 puzzles and 0 failures for its 3 "
                   "indices")


# --- 3. minimal / orbit_minimal flipped to true on a puzzle that is not --------------------------------------

@pytest.mark.heavy
@pytest.mark.parametrize("column", ["minimal", "orbit_minimal"])
def test_minimality_flags_flipped_to_true(loose: Path, tmp_path: Path, column: str) -> None:
    run_dir = _copy(loose, tmp_path)
    frame = pl.read_parquet(run_dir / "part-*.parquet")
    row = frame.filter(~pl.col("minimal") & ~pl.col("orbit_minimal")).row(0, named=True)
    part = _part(run_dir, row["index"] // 3)
    _edit(part, _set(column, row["index"], True))
    line = _one(_problems(run_dir), f"{row['puzzle_id']}: ", f"{column} is true, recomputed false",
                f"(in {run_dir.name}/{part.name})")
    if column == "minimal":
        assert "can go)" in line  # it names a given that can go
    fast = _problems(run_dir, fast=True)  # recomputation skipped: only the part's changed bytes are seen
    assert fast == [_one(fast, f"{run_dir.name}/{part.name}: not the file the run wrote")]


# --- 4. the grade changed --------------------------------------------------------------------------------------

@pytest.mark.parametrize(("column", "value", "says"), [
    ("difficulty", "hard", "difficulty is hard, the grader says easy"),
    ("difficulty_score", 999.0, "difficulty_score is 999, the grader says"),
    ("difficulty_rank", 2, "difficulty_rank is 2, difficulty easy has rank 1"),
    ("techniques", ["x_wing"], "techniques are ['x_wing'], the grader says"),
    ("logic_steps", 99, "logic_steps is 99, the grader says"),
    ("needs_guessing", True, "needs_guessing is true, the grader says false"),
])
def test_grade_columns_changed(run_dir: Path, column: str, value: object, says: str) -> None:
    _edit(_part(run_dir, 0), _set(column, 1, value))
    _one(_problems(run_dir), "tiny-0000001: ", says)


# --- 5. canonical_puzzle or grid_number changed ------------------------------------------------------------------

def test_canonical_puzzle_changed(run_dir: Path) -> None:
    frame = pl.read_parquet(_part(run_dir, 0))
    other = frame["canonical_puzzle"][0]
    _edit(_part(run_dir, 0), _set("canonical_puzzle", 1, other))
    _one(_problems(run_dir), "tiny-0000001: canonical_puzzle is not the puzzle's canonical form (")


@pytest.mark.heavy
def test_grid_number_changed_and_identity_columns_of_9x9(tmp_path: Path) -> None:
    run_dir = runner.run(config.validate(tiny(tmp_path / "out", count=2))).run_dir  # 9x9
    assert audit(run_dir).ok
    number = pl.read_parquet(_part(run_dir, 0))["grid_number"][0]
    _edit(_part(run_dir, 0), _set("grid_number", 1, number))
    _one(_problems(run_dir), "tiny-0000001: grid_number is ", "the solution's number is ")
    _edit(_part(run_dir, 0), _set("grid_number", 1, None))
    _one(_problems(run_dir), "tiny-0000001: grid_number is null for a 9x9 grid")


@pytest.mark.deep
@pytest.mark.heavy
def test_16x16_has_no_canonical_form(tmp_path: Path) -> None:
    run_dir = runner.run(config.validate(tiny(tmp_path / "out", count=1, board={"size": 16}))).run_dir
    assert pl.read_parquet(_part(run_dir, 0))["canonical_puzzle"].to_list() == [None]
    assert audit(run_dir).ok, audit(run_dir).problems  # null is right for 16x16
    _edit(_part(run_dir, 0), _set("canonical_puzzle", 0, "1" * 256))
    _one(_problems(run_dir, fast=True), "tiny-0000000: canonical_puzzle is set for a 16x16 puzzle")


# --- 6. two rows' index swapped ------------------------------------------------------------------------------

def test_two_indices_swapped(run_dir: Path) -> None:
    def swap(frame: pl.DataFrame) -> pl.DataFrame:
        return frame.with_columns(pl.col("index").replace({0: 1, 1: 0}))
    _edit(_part(run_dir, 0), swap)
    problems = _problems(run_dir)
    _one(problems, "tiny-0000000: puzzle_id is not tiny-0000001, the id of index 1 of set tiny")
    _one(problems, "tiny-0000001: puzzle_id is not tiny-0000000, the id of index 0 of set tiny")


def test_two_rows_swapped_with_their_ids(run_dir: Path) -> None:
    """index and puzzle_id moved together: the seed no longer belongs to the index."""
    def swap(frame: pl.DataFrame) -> pl.DataFrame:
        ids = {"tiny-0000000": "tiny-0000001", "tiny-0000001": "tiny-0000000"}
        return frame.with_columns(pl.col("index").replace({0: 1, 1: 0}), pl.col("puzzle_id").replace(ids))
    _edit(_part(run_dir, 0), swap)
    problems = _problems(run_dir)
    _one(problems, "tiny-0000001: seed ", "is not a seed of index 1 (set seed 11")
    _one(problems, "tiny-0000000: seed ", "is not a seed of index 0 (set seed 11")


def test_a_stock_puzzle_listed_in_the_manifest_keeps_its_seed(run_dir: Path) -> None:
    """What a quota run does with a stock puzzle (a seed from another index), and only that, passes."""
    foreign = puzzle_seed(11, 1234)
    _edit(_part(run_dir, 0), _set("seed", 0, foreign))
    data = _manifest(run_dir)
    data["shards"]["0"]["sha256"] = store.file_sha256(_part(run_dir, 0))
    _save_manifest(run_dir, data)
    _one(_problems(run_dir), f"tiny-0000000: seed {foreign} is not a seed of index 0")
    data["from_stock"] = [{"index": 0, "seed": foreign, "file": "older-00000.stock"}]
    _save_manifest(run_dir, data)
    assert audit(run_dir).ok, audit(run_dir).problems


# --- 7. a relabelled copy of another puzzle of the set -------------------------------------------------------

def test_a_relabelled_copy_of_another_puzzle(run_dir: Path) -> None:
    relabel = str.maketrans("1234", "3142")

    def copy_of_first(frame: pl.DataFrame) -> pl.DataFrame:
        first = frame.row(0, named=True)
        keep = {"puzzle_id", "index", "seed", "created_at"}
        values = {c: (first[c].translate(relabel) if c in ("puzzle", "solution") else first[c])
                  for c in frame.columns if c not in keep}
        return frame.with_columns(
            pl.when(pl.col("index") == 2).then(pl.lit(v, dtype=frame.schema[c])).otherwise(pl.col(c)).alias(c)
            for c, v in values.items())
    _edit(_part(run_dir, 0), copy_of_first)
    problems = _problems(run_dir)
    _one(problems, "tiny-0000002: the same puzzle up to relabelling and symmetry (same canonical form) as "
                   f"tiny-0000000 (in {run_dir.name}/part-00000.parquet)")


def test_an_exact_copy_is_found_in_fast_mode_too(run_dir: Path) -> None:
    frame = pl.read_parquet(_part(run_dir, 0)).row(0, named=True)
    for column in ("puzzle", "solution", "canonical_puzzle", "hints", "symmetry", "minimal", "orbit_minimal"):
        _edit(_part(run_dir, 1), _set(column, 4, frame[column]))
    _one(_problems(run_dir, fast=True), "tiny-0000004: the same puzzle as tiny-0000000")


# --- 8. set_name, config_hash or seed of a row changed -------------------------------------------------------

@pytest.mark.parametrize(("column", "value", "says"), [
    ("set_name", "other", "set_name is 'other', the run's manifest says 'tiny'"),
    ("config_hash", "0123456789abcdef", "config_hash is 0123456789abcdef, the run's manifest says "),
    ("seed", 42, "seed 42 is not a seed of index 4 (set seed 11"),
])
def test_identity_of_a_row_changed(run_dir: Path, column: str, value: object, says: str) -> None:
    _edit(_part(run_dir, 1), _set(column, 4, value))
    _one(_problems(run_dir, fast=True), "tiny-0000004: ", says, f"(in {run_dir.name}/part-00001.parquet)")


# --- 9. a contract column missing from one part ----------------------------------------------------------------

def test_a_column_missing_from_one_part(run_dir: Path) -> None:
    _edit(_part(run_dir, 1), lambda f: f.drop("hints"))
    problems = _problems(run_dir)
    _one(problems, f"{run_dir.name}/part-00001.parquet: column hints is missing")
    assert audit(run_dir).rows == 8  # the other parts are still read and checked


def test_a_null_in_a_contract_column(run_dir: Path) -> None:
    _edit(_part(run_dir, 1), _set("difficulty", 3, None))
    _one(_problems(run_dir), f"{run_dir.name}/part-00001.parquet: column difficulty has 1 null value(s)")


# --- 10. a part replaced by another run's, or its puzzles swapped; old manifests without hashes ---------------

def test_a_part_replaced_by_the_same_part_of_another_run(base: Path, tmp_path: Path) -> None:
    run_dir = _copy(base, tmp_path)
    replay = _make(tmp_path / "replay", **MINIMAL)  # the same puzzles, ids and seeds; written at another time
    shutil.copy(_part(replay, 1), _part(run_dir, 1))
    problems = _problems(run_dir)
    assert problems == [_one(problems, f"{run_dir.name}/part-00001.parquet: not the file the run wrote (sha256 ")]


def test_the_puzzles_of_a_part_swapped_with_ids_kept(run_dir: Path) -> None:
    donor = pl.read_parquet(_part(run_dir, 1))
    ids = ["puzzle_id", "index", "seed", "set_name", "config_hash"]
    _edit(_part(run_dir, 0), lambda f: f.select(ids).hstack(donor.drop(ids)).select(f.columns))
    problems = _problems(run_dir, fast=True)
    _one(problems, f"{run_dir.name}/part-00000.parquet: not the file the run wrote")
    _one(problems, "tiny-0000003: the same puzzle as tiny-0000000")


def test_a_manifest_without_hashes_still_checks_row_counts(run_dir: Path) -> None:
    data = _manifest(run_dir)
    for record in data["shards"].values():
        del record["sha256"]  # a run written before parts were hashed: its manifest is the old manifest.json
    _save_manifest(run_dir, data)
    (run_dir / "_manifest.json").rename(run_dir / "manifest.json")
    _edit(_part(run_dir, 0), lambda f: f)  # other bytes, same rows: nothing to compare them with
    assert audit(run_dir).ok, audit(run_dir).problems
    _edit(_part(run_dir, 0), lambda f: f.head(2))
    _one(_problems(run_dir), f"{run_dir.name}/part-00000.parquet: holds 2 puzzles, the manifest records 3")


# --- 11. a puzzle that is its own full solution, still orbit-minimal -----------------------------------------

def test_a_full_solution_marked_orbit_minimal(run_dir: Path) -> None:
    row = pl.read_parquet(_part(run_dir, 0)).row(1, named=True)
    for column, value in (("puzzle", row["solution"]), ("hints", 16), ("symmetry", "full")):
        _edit(_part(run_dir, 0), _set(column, 1, value))
    problems = _problems(run_dir)
    line = _one(problems, "tiny-0000001: ", "orbit_minimal is true, recomputed false")
    assert line.startswith("tiny-0000001: minimal is true, recomputed false") and "canonical_puzzle is not" in line


# --- 12. the manifest deleted ----------------------------------------------------------------------------------

def test_a_deleted_manifest(run_dir: Path, tmp_path: Path) -> None:
    (run_dir / "_manifest.json").unlink()
    want = f"{run_dir}: 3 part file(s) but no manifest (_manifest.json): not a whole numplace run"
    _one(_problems(run_dir.parent), want)
    _one(_problems(run_dir), want)
    loose_part = tmp_path / "elsewhere" / "part-00000.parquet"  # a part file given alone needs no manifest
    loose_part.parent.mkdir()
    shutil.copy(_part(run_dir, 0), loose_part)
    assert audit(loose_part).ok


# --- 13. a set folder: every run's manifest and parts -----------------------------------------------------------

def test_a_set_folder_checks_every_run(run_dir: Path) -> None:
    root = run_dir.parent.parent
    second = runner.run(config.validate(tiny(root, count=3, **MINIMAL))).run_dir
    assert audit(run_dir.parent).ok
    data = _manifest(second)
    data["totals"]["requested"] = 4
    data["start"] = 6  # claims indices of the first run
    _save_manifest(second, data)
    _edit(_part(second, 0), _set("minimal", 9, False))
    problems = _problems(run_dir.parent)
    _one(problems, f"run {second.name}: the totals say 4 puzzles requested, the manifest's count is 3")
    _one(problems, f"runs {run_dir.name} and {second.name} overlap: both have indices from 6 to 7")
    _one(problems, f"{second.name}/part-00000.parquet: not the file the run wrote")
    _one(problems, "tiny-0000009: minimal is false, recomputed true")


# --- 14. a truncated or byte-flipped part is a finding, not a usage error ---------------------------------------

def test_a_truncated_part(run_dir: Path) -> None:
    part = _part(run_dir, 1)
    part.write_bytes(part.read_bytes()[: part.stat().st_size // 2])
    problems = _problems(run_dir)
    _one(problems, f"{run_dir.name}/part-00001.parquet: not a readable Parquet file (")
    assert audit(run_dir).rows == 5  # the readable parts are still checked
    _one(_problems(part), "part-00001.parquet: not a readable Parquet file (")


def test_a_byte_flipped_part(run_dir: Path) -> None:
    part = _part(run_dir, 2)
    data = bytearray(part.read_bytes())
    data[len(data) // 3] ^= 0xFF
    part.write_bytes(bytes(data))
    _one(_problems(run_dir), f"{run_dir.name}/part-00002.parquet: ")


@pytest.mark.deep
@pytest.mark.heavy
def test_check_exit_codes(run_dir: Path, tmp_path: Path) -> None:
    part = _part(run_dir, 0)
    part.write_bytes(part.read_bytes()[:100])
    res = numplace("check", str(run_dir))
    assert res.returncode == 1, res.stderr
    assert f"PROBLEM {run_dir.name}/part-00000.parquet: not a readable Parquet file" in res.stdout
    for where in (tmp_path / "nowhere", tmp_path):  # no such path; a folder that is no set, run or part
        res = numplace("check", str(where))
        assert res.returncode == 2 and res.stderr.startswith("numplace: error: "), res.stderr


# --- 15. fast mode skips the recomputations, not the rest ------------------------------------------------------

def test_fast_mode_skips_recomputation_only(run_dir: Path) -> None:
    _edit(_part(run_dir, 0), _set("difficulty_score", 0, 999.0))
    _edit(_part(run_dir, 0), _set("hints", 1, 9))
    full, fast = _problems(run_dir), _problems(run_dir, fast=True)
    _one(full, "tiny-0000000: difficulty_score is 999, the grader says")
    assert not [p for p in fast if "tiny-0000000" in p]
    for problems in (full, fast):
        _one(problems, "tiny-0000001: hints says 9 but the puzzle has")  # verify_row always runs
        _one(problems, f"{run_dir.name}/part-00000.parquet: not the file the run wrote")



# --- gaps a careful tamperer used: a hash deleted, metadata dropped, _SUCCESS deleted, puzzles re-seeded -------

def test_a_deleted_sha256_is_a_finding_unless_the_run_is_legacy(run_dir: Path) -> None:
    data = _manifest(run_dir)
    del data["shards"]["1"]["sha256"]  # switches the hash check off for part 1 on today's main
    _save_manifest(run_dir, data)
    _edit(_part(run_dir, 1), lambda f: f)
    _one(_problems(run_dir), f"{run_dir.name}/part-00001.parquet: the manifest of run {run_dir.name} records no "
                             "sha256 for it")


def test_a_part_rewritten_without_its_numplace_metadata(run_dir: Path) -> None:
    part = _part(run_dir, 0)
    pl.read_parquet(part).write_parquet(part)  # another tool's rewrite: no key-value metadata
    data = _manifest(run_dir)
    data["shards"]["0"]["sha256"] = store.file_sha256(part)  # and the manifest hashed again
    _save_manifest(run_dir, data)
    _one(_problems(run_dir), f"{run_dir.name}/part-00000.parquet: no numplace.schema_version and no "
                             "numplace.set_name in its key-value metadata")


def test_success_deleted_from_a_complete_run(run_dir: Path) -> None:
    (run_dir / "_SUCCESS").unlink()
    _one(_problems(run_dir), f"run {run_dir.name} is complete but has no _SUCCESS file")
    (run_dir / "_SUCCESS").touch()
    data = _manifest(run_dir)
    data["status"] = "partial"
    _save_manifest(run_dir, data)
    _one(_problems(run_dir), f"run {run_dir.name} is partial but has a _SUCCESS file")


def test_replay_finds_puzzles_swapped_for_another_seeds(run_dir: Path) -> None:
    assert audit(run_dir, replay="all").ok, audit(run_dir, replay="all").problems
    ids = ["puzzle_id", "index", "seed", "set_name", "config_hash"]
    first, second = pl.read_parquet(_part(run_dir, 0)), pl.read_parquet(_part(run_dir, 1))
    _edit(_part(run_dir, 0), lambda f: f.select(ids).hstack(second.drop(ids)).select(f.columns))
    _edit(_part(run_dir, 1), lambda f: f.select(ids).hstack(first.drop(ids)).select(f.columns))
    data = _manifest(run_dir)
    for k in (0, 1):
        data["shards"][str(k)]["sha256"] = store.file_sha256(_part(run_dir, k))  # the manifest hashed again
    _save_manifest(run_dir, data)
    caught = audit(run_dir, fast=True).problems  # the run's catalog entry holds the keys it published
    assert len(caught) == 2 and all("not the puzzle the run published" in p for p in caught), caught
    for entry in (run_dir.parent.parent / "_catalog").glob("*.keys"):
        entry.unlink()  # the entry gone (or rewritten too): the limit of the default check
    assert audit(run_dir).ok, audit(run_dir).problems  # every other check passes: sound rows, their own ids
    problems = _problems(run_dir, replay="all")
    for index in range(6):
        _one(problems, f"tiny-{index:07d}: replay: seed ", "makes another puzzle than the row holds (the puzzle")
    assert len(problems) == 6
    sampled = audit(run_dir, replay=4)
    assert 0 < len(sampled.problems) <= 4  # four rows of eight drawn (a fixed draw)


def test_replay_makes_the_rows_by_the_runs_generator_record(run_dir: Path) -> None:
    """Replay re-makes rows by the generator version the run recorded: a record this code cannot
    honour (a newer version) is one finding, never a replay by other rules."""
    from pipeline.generate import version

    data = _manifest(run_dir)
    data["generator"] = {"version": version.GENERATOR_VERSION + 1, "grid_method": "weighted-ilp"}
    _save_manifest(run_dir, data)
    problems = _problems(run_dir, replay="all")
    _one(problems, "cannot replay", f"generator version {version.GENERATOR_VERSION + 1}, newer")
    assert not any("makes another puzzle" in p for p in problems)


@pytest.mark.deep
@pytest.mark.heavy
def test_check_replay_flag(run_dir: Path) -> None:
    res = numplace("check", str(run_dir), "--fast", "--replay", "2")
    assert res.returncode == 0 and res.stdout.rstrip().endswith("OK"), res.stdout + res.stderr
    for bad in ("0", "some"):
        res = numplace("check", str(run_dir), "--replay", bad)
        assert res.returncode == 2 and res.stderr.count("\n") == 1 and "--replay: " in res.stderr, res.stderr


def test_summary_lines_are_what_check_prints() -> None:
    """``numplace check`` and the studio's Sets page print these lines (one function for both)."""
    stats = {"bad_rows": 1, "sizes": {9: 5}, "hints_mean": 27.2, "hints_min": 25, "hints_max": 30,
             "symmetry": {"rot180": 5}, "minimal": 0, "orbit_minimal": 5}
    assert summary_lines(Audit(Path("s"), 2, 5, ["s-0000001: hints says 9"], stats)) == [
        "s: 5 puzzles in 2 part file(s)", "  hints mean 27.2 (min 25, max 30); sizes {9: 5}",
        "  symmetry {'rot180': 5}", "  minimal 0, orbit_minimal 5, bad rows 1", "  PROBLEM s-0000001: hints says 9",
        "FAILED: 1 problem(s)"]
    assert summary_lines(Audit(Path("t"), 1, 3)) == ["t: 3 puzzles in 1 part file(s)", "OK"]


def test_grades_are_recomputed_only_for_runs_of_todays_grader(run_dir: Path) -> None:
    """A run whose manifest predates ``grader_version`` keeps its grader's grades (an upgrade of the
    grader does not fail the check of an old set); a run of today's rules is held to them."""
    assert _manifest(run_dir)["grader_version"] == GRADER_VERSION
    part = _part(run_dir, 0)
    score = pl.read_parquet(part)["difficulty_score"][0]
    _edit(part, lambda f: f.with_columns(pl.when(pl.col("index") == 0).then(score + 1.0)
                                         .otherwise(pl.col("difficulty_score")).alias("difficulty_score")))
    data = _manifest(run_dir)
    data["shards"]["0"]["sha256"] = store.file_sha256(part)
    _save_manifest(run_dir, data)
    _one(_problems(run_dir), f"difficulty_score is {score + 1:g}, the grader says {score:g}")
    del data["grader_version"]  # graded by the rules before the field existed
    _save_manifest(run_dir, data)
    assert audit(run_dir).ok, audit(run_dir).problems
