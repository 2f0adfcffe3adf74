"""The output row has one owner: a row built from a MadePuzzle matches the schema exactly."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from pipeline import verify
from pipeline.board import parse
from pipeline.generate.puzzle import make_puzzle
from pipeline.generate.spec import Spec, puzzle_seed
from pipeline.run import rows


@pytest.mark.heavy
def test_a_row_built_from_a_made_puzzle_is_the_schema() -> None:
    for size in (9, 16):
        seed = puzzle_seed(3, size)
        made = make_puzzle(Spec(size=size, symmetry="rot180", minimal=size == 9, hints_min=None if size == 9 else 200,
                                hints_max=None if size == 9 else 220), seed)
        row = rows.build_row(made, set_name="book", config_hash="0123456789abcdef", index=42, seed=seed)
        assert list(row) == list(rows.SCHEMA)  # every column, in the contract's order, nothing else
        frame = pl.DataFrame([row], schema=rows.SCHEMA, strict=True)
        assert rows.schema_problems(frame) == []
        assert row["puzzle_id"] == "book-0000042" and row["size"] == size and row["hints"] == made.hints
        assert parse(row["puzzle"]) == made.puzzle and isinstance(row["created_at"], dt.datetime)
        assert verify.verify_row(row) == []
        if size == 9:
            assert row["grid_number"] is not None and row["canonical_puzzle"] is not None
            assert rows.dedup_key(row) == row["canonical_puzzle"]
        else:  # no canonical form for 16x16: only exact copies are caught
            assert row["grid_number"] is None and row["canonical_puzzle"] is None
            assert rows.dedup_key(row) == row["puzzle"]


def test_schema_problems_name_the_column() -> None:
    frame = pl.DataFrame({"puzzle_id": [1]})
    found = rows.schema_problems(frame)
    assert found[:2] == ["column puzzle_id is Int64, expected String", "column set_name is missing"]
    assert len(found) == len(rows.SCHEMA)


def test_variant_rows_dedup_by_their_form_else_by_exact_copy() -> None:
    base = {"variant": ["x"], "regions": None, "cages": None}
    a = {**base, "puzzle": "1" + "." * 80, "canonical_puzzle": "." * 80 + "1"}
    b = {**base, "puzzle": "." * 80 + "2", "canonical_puzzle": "." * 80 + "1"}
    assert rows.dedup_key(a) == rows.dedup_key(b) == "x|" + "." * 80 + "1"
    # the same form under other rules is another puzzle
    assert rows.dedup_key({**a, "variant": ["hyper"]}) != rows.dedup_key(a)
    # no form (rows written before variant forms existed): exact copies only, rules included
    old = {**a, "canonical_puzzle": None}
    assert rows.dedup_key(old) == "x|||1" + "." * 80 != rows.dedup_key({**b, "canonical_puzzle": None})


def test_a_variant_row_also_carries_its_exact_copy_key() -> None:
    """Catalogs written before variant forms hold exact-copy keys: a new row checks against both."""
    row = {"variant": ["x"], "regions": None, "cages": None, "puzzle": "1" + "." * 80,
           "canonical_puzzle": "." * 80 + "1"}
    assert rows.dedup_keys(row) == ("x|" + "." * 80 + "1", "x|||1" + "." * 80)
    assert rows.dedup_keys({**row, "canonical_puzzle": None}) == ("x|||1" + "." * 80,)
    classic = {"variant": [], "regions": None, "cages": None, "puzzle": "1" + "." * 80, "canonical_puzzle": "c"}
    assert rows.dedup_keys(classic) == ("c",)


def test_dedup_catches_an_exact_copy_listed_by_an_old_catalog() -> None:
    from pipeline.run.finish import Dedup
    from pipeline.run.work import Failed, Made

    row = {"variant": ["x"], "regions": None, "cages": None, "puzzle": "1" + "." * 80,
           "canonical_puzzle": "." * 80 + "1", "difficulty": "easy"}
    old_catalog = {"x|||1" + "." * 80}  # an old run's key of the same puzzle: rules and puzzle line
    never = Dedup(old_catalog, lambda indices, redraw: [], 0)
    items, _, _ = never.resolve([Made(0, row, 1, 0)])
    assert isinstance(items[0], Failed) and items[0].kind == "duplicate"  # no redraws left: failed as a duplicate
    fresh = Dedup(set(), lambda indices, redraw: [], 0)
    items, _, _ = fresh.resolve([Made(0, row, 1, 0)])
    assert isinstance(items[0], Made) and fresh.seen == set(rows.dedup_keys(row))
