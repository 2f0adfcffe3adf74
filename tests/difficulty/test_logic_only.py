"""The logic-only promise: the ``needs_guessing`` column, ``difficulty.logic_only`` and ``--logic-only``
on ``generate`` and ``export``, and book sections with ``logic_only``."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from pipeline import config
from pipeline.config.hashing import config_hash
from pipeline.generate.spec import Spec
from pipeline.publish import select
from pipeline.publish.book import SectionCfg
from pipeline.run import rows
from pipeline.run.plan import spec_of
from tests.conftest import numplace, tiny
from tests.publish.test_select import fake_row, write_set


def test_needs_guessing_of_a_grade() -> None:
    assert rows.needs_guessing("extreme", ["naked_single", "trial_and_error"]) is True
    assert rows.needs_guessing("extreme", ["naked_single", "forcing_net"]) is False
    assert rows.needs_guessing("unrated", ["naked_single"]) is None
    assert rows.SCHEMA["needs_guessing"] == pl.Boolean() and "needs_guessing" in rows.NULLABLE
    assert rows.ADDED_IN["needs_guessing"] == 4 <= rows.SCHEMA_VERSION


def test_spec_wants_no_guessing_when_logic_only() -> None:
    plain = Spec(size=9, symmetry="rot180", minimal=True)
    strict = Spec(size=9, symmetry="rot180", minimal=True, logic_only=True)
    assert plain.wants("extreme", 10500.0, guesses=1)
    assert not strict.wants("extreme", 10500.0, guesses=1)
    assert strict.wants("extreme", 1200.0, guesses=0)
    assert not strict.wants("unrated", 300.0, guesses=0)  # not finished by logic: no promise


def test_logic_only_config_key(tmp_path: Path) -> None:
    cfg = config.validate(tiny(tmp_path / "out", difficulty={"logic_only": True}))
    assert cfg.difficulty is not None and cfg.difficulty.logic_only
    assert spec_of(cfg).logic_only
    both = config.validate(tiny(tmp_path / "out", difficulty={"levels": ["expert"], "logic_only": True}))
    assert spec_of(both).levels == ("expert",) and spec_of(both).logic_only
    # a config that does not use the key hashes as it did before the key existed
    off = config.validate(tiny(tmp_path / "out", difficulty={"levels": ["expert"], "logic_only": False}))
    plain = config.validate(tiny(tmp_path / "out", difficulty={"levels": ["expert"]}))
    assert config_hash(off) == config_hash(plain) != config_hash(both)
    with pytest.raises(config.ConfigError, match="logic_only"):
        config.validate(tiny(tmp_path / "out", difficulty={"logic_only": "yes"}))


def _frame() -> pl.DataFrame:
    made = [fake_row("s", i, lv) for i, lv in enumerate(["easy", "extreme", "extreme", "unrated", "hard"])]
    made[1]["needs_guessing"] = True
    made[2]["needs_guessing"] = False
    made[2]["techniques"] = ["naked_single", "forcing_chain"]
    made[3]["needs_guessing"] = None  # unrated: no promise
    made[4]["needs_guessing"] = None  # an old row: read by its techniques (no trial and error)
    made[0]["needs_guessing"] = False
    return pl.DataFrame(made, schema=rows.SCHEMA)


def test_select_logic_only_keeps_rows_without_guessing() -> None:
    frame = _frame()
    kept = select.apply(frame, select.Filter(logic_only=True))
    assert kept["index"].to_list() == [0, 2, 4]
    assert select.apply(frame, select.Filter())["index"].to_list() == [0, 1, 2, 3, 4]
    assert "logic only" in select.Filter(logic_only=True).describe()
    assert select.filter_from_flags(logic_only=True).logic_only


def test_an_old_row_that_guessed_is_dropped() -> None:
    row = fake_row("s", 0, "extreme")  # techniques end with trial_and_error, needs_guessing null
    frame = pl.DataFrame([row], schema=rows.SCHEMA)
    assert select.apply(frame, select.Filter(logic_only=True)).is_empty()


def test_book_section_logic_only() -> None:
    assert SectionCfg(levels=["extreme"], logic_only=True).logic_only
    assert not SectionCfg().logic_only


@pytest.mark.heavy
def test_export_logic_only_cli(tmp_path: Path) -> None:
    run = write_set(tmp_path / "sets", "s", ["easy", "extreme", "hard"])
    out = tmp_path / "x.jsonl"
    res = numplace("export", str(run), "--format", "jsonl", "--out", str(out), "--logic-only")
    assert res.returncode == 0, res.stderr
    levels = [json.loads(line)["difficulty"] for line in out.read_text().splitlines()]
    assert levels == ["easy", "hard"]  # the extreme row's techniques end with trial_and_error


@pytest.mark.deep
@pytest.mark.heavy
def test_generate_logic_only_cli() -> None:
    res = numplace("generate", "--count", "3", "--seed", "5", "--format", "json", "--logic-only")
    assert res.returncode == 0, res.stderr
    made = [json.loads(line) for line in res.stdout.splitlines()]
    assert len(made) == 3
    for row in made:
        assert row["needs_guessing"] is False and "trial_and_error" not in row["techniques"]
