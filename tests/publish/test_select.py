"""Reading sets for publishing: stable order, each puzzle once, filters, exclusion lists, one-line errors.

Also home of :func:`write_set`, the synthetic sets the other ``test_publish_*`` files use: valid
solution grids (a pattern grid with relabelled digits), puzzles made by blanking cells (publishing
never checks uniqueness, so none is needed), levels and scores chosen by the test.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from pipeline.board import BOX_SHAPES, SYMBOLS
from pipeline.difficulty.techniques import LEVELS as SOLVER_LEVELS
from pipeline.publish import select
from pipeline.publish.select import Filter, PublishError
from pipeline.run.rows import SCHEMA

BIG_SEED = 2**62 + 12345  # above 2^53: a float (or JavaScript) would lose its last digits
SCORES = {"easy": 300.0, "medium": 700.0, "hard": 1200.0, "expert": 1700.0, "extreme": 9000.0}
TECHNIQUES = {"easy": ["naked_single", "hidden_single"], "medium": ["naked_single", "pointing"],
              "hard": ["naked_single", "x_wing"], "expert": ["hidden_single", "x_chain"],
              "extreme": ["naked_single", "trial_and_error"]}


def fake_row(set_name: str, index: int, level: str | None, size: int = 9, rng: random.Random | None = None,
             hints: int | None = None) -> dict[str, Any]:
    """One row of the Parquet schema with a valid solution and a puzzle of ``hints`` givens."""
    rng = rng or random.Random(index)
    br, bc = BOX_SHAPES[size]
    perm = rng.sample(range(size), size)
    grid = [perm[(r * bc + r // br + c) % size] for r in range(size) for c in range(size)]
    solution = "".join(SYMBOLS[d] for d in grid)
    hints = hints if hints is not None else (28 if size == 9 else 110)
    keep = set(rng.sample(range(size * size), hints))
    puzzle = "".join(ch if i in keep else "." for i, ch in enumerate(solution))
    row: dict[str, Any] = {name: None for name in SCHEMA}
    row.update({
        "puzzle_id": f"{set_name}-{index:07d}", "set_name": set_name, "config_hash": "0123456789abcdef",
        "seed": BIG_SEED + index, "index": index, "size": size, "box_rows": br, "box_cols": bc,
        "puzzle": puzzle, "solution": solution, "hints": hints, "symmetry": "none", "symmetry_requested": "none",
        "minimal": False, "orbit_minimal": index % 2 == 0, "ilp_solves": 2, "gen_ms": 10.0 + index,
        "created_at": dt.datetime(2026, 11, 22, 4, 28, 16, 635752, tzinfo=dt.UTC),
        "numplace_version": "0.1.0", "attempts": 1, "difficulty": level,
        "difficulty_score": SCORES.get(level) if level else None,
        "techniques": TECHNIQUES.get(level) if level else None, "logic_steps": 50,
    })
    return row


def write_set(root: Path, set_name: str, levels: list[str | None], *, size: int = 9, start: int = 0,
              run_id: str = "20261122T000000Z-01234567", manifest: dict[str, Any] | None = None) -> Path:
    """Write a run folder ``root/set_name/run_id`` with one row per entry of ``levels`` (indices from
    ``start``) and a manifest; returns the run folder."""
    run_dir = root / set_name / run_id
    run_dir.mkdir(parents=True)
    rng = random.Random(f"{set_name}{start}{size}")
    rows = [fake_row(set_name, start + i, lv, size, rng) for i, lv in enumerate(levels)]
    pl.DataFrame(rows, schema=SCHEMA).write_parquet(run_dir / "part-00000.parquet")
    data = {"config": {"name": set_name}, "status": "complete", "count": len(levels), "start": start,
            "created_at": "2026-11-22T04:28:15+00:00", "totals": {"requested": len(levels), "puzzles": len(levels)},
            "shards": {}}
    data.update(manifest or {})
    (run_dir / "manifest.json").write_text(json.dumps(data), encoding="utf-8")
    return run_dir


MIX = ["easy", "hard", "easy", "medium", "extreme", "easy", "expert", "hard", "medium", "easy"]


def test_levels_match_the_solvers_table() -> None:
    assert select.LEVELS is SOLVER_LEVELS  # the registry's, written once


def test_rows_come_in_a_stable_order_each_puzzle_once(tmp_path: Path) -> None:
    a = write_set(tmp_path, "alpha", MIX)
    b = write_set(tmp_path, "beta", ["hard", "easy"])
    rows = select.read_sets([b, a])
    assert rows.frame["puzzle_id"].to_list()[:2] == ["beta-0000000", "beta-0000001"]  # paths in the order given
    assert rows.frame["index"].to_list()[2:] == list(range(len(MIX)))
    assert rows.repeated == 0 and rows.run_dirs == (b, a)
    assert list(rows.frame.columns[: len(SCHEMA)]) == list(SCHEMA)
    again = select.read_sets([a, tmp_path / "alpha", a / "part-00000.parquet"])  # the same rows three times
    assert again.frame.height == len(MIX) and again.repeated == 2 * len(MIX)
    kept = select.read_sets([a, a], unique=False, with_run=True)
    assert kept.frame.height == 2 * len(MIX) and set(kept.frame["run_dir"]) == {str(a)}


def test_two_old_runs_of_one_set_keep_the_first_of_each_id(tmp_path: Path) -> None:
    write_set(tmp_path, "s", ["easy"] * 3, run_id="20261122T000000Z-aaaaaaaa")
    write_set(tmp_path, "s", ["hard"] * 5, run_id="20261123T000000Z-bbbbbbbb")  # also starts at index 0
    rows = select.read_sets([tmp_path / "s"])
    assert rows.frame["index"].to_list() == [0, 1, 2, 3, 4]
    assert rows.frame["difficulty"].to_list() == ["easy"] * 3 + ["hard"] * 2
    assert rows.repeated == 3


def test_filters(tmp_path: Path) -> None:
    frame = select.read_sets([write_set(tmp_path, "s", MIX)]).frame
    ids = lambda f: f["index"].to_list()  # noqa: E731
    assert ids(select.apply(frame, Filter(levels=("hard",)))) == [1, 7]
    assert ids(select.apply(frame, Filter(levels=("easy", "medium"), count=3))) == [0, 2, 3]
    assert ids(select.apply(frame, Filter(score_min=1000, score_max=2000))) == [1, 6, 7]
    assert ids(select.apply(frame, Filter(score_min=5000))) == [4]
    assert ids(select.apply(frame, Filter(hints_min=29))) == []
    assert ids(select.apply(frame, Filter(size=9, count=2))) == [0, 1]
    assert ids(select.apply(frame, Filter(levels=("easy",)), exclude={"s-0000000", "s-0000005"})) == [2, 9]
    ordered = select.by_level(frame)
    rank = {lv: k for k, lv in enumerate(select.LEVELS)}
    keys = [(rank[r["difficulty"]], r["difficulty_score"], r["index"]) for r in frame.iter_rows(named=True)]
    assert ids(ordered) == [k[2] for k in sorted(keys)]  # level, then score (then the stable order)
    assert [r["difficulty"] for r in ordered.iter_rows(named=True)] == sorted(MIX, key=rank.__getitem__)


def test_by_level_orders_level_then_score() -> None:
    """#11.2: a book takes a quota run's puzzles by level, then score; ties and ungraded rows keep
    the stable order (ungraded last)."""
    frame = pl.DataFrame({"index": [0, 1, 2, 3, 4, 5, 6],
                          "difficulty": ["hard", "easy", "easy", None, "hard", "easy", "medium"],
                          "difficulty_score": [1500.0, 420.0, 310.0, None, 1100.0, 310.0, 800.0]})
    assert select.by_level(frame)["index"].to_list() == [2, 5, 1, 6, 4, 0, 3]


def test_flags_and_their_errors() -> None:
    flt = select.filter_from_flags(["easy,hard", "expert"], "100-900", "25-", 5)
    assert flt == Filter(levels=("easy", "hard", "expert"), score_min=100, score_max=900, hints_min=25, count=5)
    assert select.parse_range("-800", "--score") == (None, 800)
    assert select.parse_range("30", "--hints") == (30, 30)
    for args, msg in [((["hardd"],), "--level: 'hardd' is not one of easy, medium, hard, expert, extreme, unrated"),
                      ((None, "x-y"), "--score: 'x-y' is not N, A-B, A- or -B"),
                      ((None, None, "30-20"), "--hints: '30-20': the low end is greater than the high end"),
                      ((None, None, None, 0), "--count: 0 is not a number of puzzles >= 1")]:
        with pytest.raises(PublishError) as err:
            select.filter_from_flags(*args)  # type: ignore[arg-type]
        assert str(err.value) == msg


def test_unrated_rows_can_be_selected(tmp_path: Path) -> None:
    """``unrated`` is a value of the difficulty column (killer puzzles graded without a known solution,
    sets made before killer grading): ``--level unrated`` selects those rows, alone or with levels."""
    a = write_set(tmp_path, "s", ["easy", "unrated", "hard", "unrated"])
    frame = select.read_sets([a]).frame
    ids = lambda f: f["index"].to_list()  # noqa: E731
    assert ids(select.apply(frame, select.filter_from_flags(["unrated"]))) == [1, 3]
    assert ids(select.apply(frame, select.filter_from_flags(["hard,unrated"]))) == [1, 2, 3]
    assert ids(select.select([a], select.filter_from_flags(["unrated"]))) == [1, 3]
    with pytest.raises(PublishError, match=r"no puzzle in .* matches the selection"):
        select.select([write_set(tmp_path, "t", ["easy"])], select.filter_from_flags(["unrated"]))


def test_an_empty_selection_is_one_line(tmp_path: Path) -> None:
    a = write_set(tmp_path, "s", ["easy", "easy"])
    with pytest.raises(PublishError, match=r"^no puzzle in .* matches the selection \(levels extreme\)$"):
        select.select([a], Filter(levels=("extreme",)))
    with pytest.raises(PublishError, match="no part-"):
        select.read_sets([tmp_path])
    with pytest.raises(PublishError, match="no such file"):
        select.read_sets([tmp_path / "missing"])


def test_used_ids_files(tmp_path: Path) -> None:
    (tmp_path / "book.used.json").write_text(json.dumps({"pdf": "book.pdf", "puzzle_ids": ["a", "b"]}))
    (tmp_path / "list.json").write_text(json.dumps(["c"]))
    (tmp_path / "bad.json").write_text("{")
    (tmp_path / "wrong.json").write_text(json.dumps({"ids": [1]}))
    assert select.read_used([tmp_path / "book.used.json", tmp_path / "list.json"]) == {"a", "b", "c"}
    with pytest.raises(PublishError, match=r"--exclude .*bad.json: not a readable JSON file"):
        select.read_used([tmp_path / "bad.json"])
    with pytest.raises(PublishError, match="expected a list of puzzle ids"):
        select.read_used([tmp_path / "wrong.json"])
    with pytest.raises(PublishError, match="no such file"):
        select.read_used([tmp_path / "nope.json"])
