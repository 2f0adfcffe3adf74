"""f-puzzles links: classic and every variant decode back to the same puzzle (givens, rules,
regions, cages); one link per row in CSV and JSON lines exports."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from pipeline.board import make_variant
from pipeline.publish import fpuzzles, select
from pipeline.publish.export import export, jsonl_schema
from pipeline.publish.lzstring import decompress_from_base64
from tests.conftest import ROOT
from tests.publish.test_export import schema_problems
from tests.publish.test_select import write_set

GOLDEN = json.loads((ROOT / "tests" / "data" / "variants" / "golden.json").read_text(encoding="utf-8"))["puzzles"]
CLASSIC = {"puzzle_id": "c-1", "size": 9, "variant": [], "regions": None, "cages": None,
           "puzzle": ".1.5.8..2.8..6..9...2.....8.7.9..1..29.....75..1..4.8.1.....8...2..5..6.9..3.1.5."}


def _same(row: dict[str, Any], back: dict[str, Any]) -> None:
    assert back["size"] == row["size"] and back["puzzle"] == row["puzzle"]
    want = make_variant(row.get("variant"), row.get("regions"), row.get("cages"))
    got = make_variant(back["variant"], back["regions"], back["cages"])
    assert got == want  # the same kinds, the same regions, the same cages and sums


@pytest.mark.parametrize("row", [CLASSIC, *GOLDEN], ids=lambda r: r.get("name", "classic"))
def test_a_link_decodes_to_the_same_puzzle(row: dict[str, Any]) -> None:
    url = fpuzzles.link(row)
    assert url.startswith("https://f-puzzles.com/?load=")
    _same(row, fpuzzles.read_link(url))
    data = json.loads(decompress_from_base64(url.split("load=", 1)[1]) or "")
    assert data["size"] == 9 and len(data["grid"]) == 9 and all(len(line) == 9 for line in data["grid"])
    kinds = set(row.get("variant") or [])
    assert ("diagonal+" in data) == ("diagonal-" in data) == ("x" in kinds)
    assert ("extraregion" in data) == ("hyper" in kinds) and ("killercage" in data) == ("killer" in kinds)
    if "killer" in kinds:
        assert {c["value"] for c in data["killercage"]} == {str(c["sum"]) for c in row["cages"]}
    givens = [c for line in data["grid"] for c in line if c.get("given")]
    assert len(givens) == sum(ch != "." for ch in row["puzzle"])


def test_other_sizes_and_every_kind_at_once() -> None:
    six = {"size": 6, "variant": ["x"], "regions": None, "cages": None, "puzzle": "1....." + "." * 24 + "....2."}
    _same(six, fpuzzles.read_link(fpuzzles.link(six)))
    jig = next(r for r in GOLDEN if "jigsaw" in r["variant"])
    both = dict(jig, variant=["jigsaw", "x"])
    _same(both, fpuzzles.read_link(fpuzzles.link(both)))


def test_one_link_per_row_in_csv_and_jsonl(tmp_path: Path) -> None:
    a = write_set(tmp_path / "out", "classic", ["easy", "hard", "medium"])
    frame = select.read_sets([a]).frame
    export(frame, "jsonl", tmp_path / "p.jsonl", with_link=True)
    lines = [json.loads(x) for x in (tmp_path / "p.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [schema_problems(line, jsonl_schema()) for line in lines] == [[], [], []]
    for line, row in zip(lines, frame.iter_rows(named=True), strict=True):
        assert fpuzzles.read_link(line["fpuzzles"])["puzzle"] == row["puzzle"]
    export(frame, "csv", tmp_path / "p.csv", with_link=True)
    back = pl.read_csv(tmp_path / "p.csv", infer_schema=False)
    assert back["fpuzzles"].to_list() == [line["fpuzzles"] for line in lines]
    export(frame, "csv", tmp_path / "plain.csv")
    assert "fpuzzles" not in pl.read_csv(tmp_path / "plain.csv", infer_schema=False).columns  # only when asked
