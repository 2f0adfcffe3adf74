"""``export --with-path``: each puzzle's solving path, the steps ``rate --explain`` prints, as data
in JSON lines and CSV."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from pipeline import config
from pipeline.publish import select
from pipeline.publish.export import export, jsonl_schema
from pipeline.publish.select import PublishError
from pipeline.run import runner
from tests.conftest import numplace
from tests.publish.test_export import schema_problems


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> pl.DataFrame:
    root = tmp_path_factory.mktemp("path") / "out"
    data = {"name": "small", "seed": 8, "count": 3, "board": {"size": 4}, "workers": 1,
            "removal": {"symmetry": "none", "minimal": True}, "output": {"dir": str(root)}}
    summary = runner.run(config.validate(data))
    return select.read_sets([summary.run_dir]).frame


def test_jsonl_path_is_rate_explain(tmp_path: Path, made: pl.DataFrame) -> None:
    export(made, "jsonl", tmp_path / "p.jsonl", with_path=True)
    lines = [json.loads(x) for x in (tmp_path / "p.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [schema_problems(line, jsonl_schema()) for line in lines] == [[], [], []]
    for line, row in zip(lines, made.iter_rows(named=True), strict=True):
        steps = line["path"]
        assert steps and {s["technique"] for s in steps} == set(row["techniques"])
        assert sum(s["technique"] != "trial_and_error" for s in steps) == row["logic_steps"]
        placed = {cell: digit for s in steps for cell, digit in s["placements"]}
        n = row["size"]
        for i, ch in enumerate(row["solution"]):  # the path fills every blank with the solution's digit
            if row["puzzle"][i] == ".":
                assert placed[f"r{i // n + 1}c{i % n + 1}"] == ch
    first = made.row(0, named=True)
    res = numplace("rate", first["puzzle"], "--explain")
    explained = [x.strip() for x in res.stdout.splitlines()[1:] if not x.strip().startswith("^ key step")]
    assert explained == [s["text"] for s in lines[0]["path"]]  # the very lines of rate --explain


def test_csv_path_is_one_json_array(tmp_path: Path, made: pl.DataFrame) -> None:
    export(made, "csv", tmp_path / "p.csv", with_path=True)
    back = pl.read_csv(tmp_path / "p.csv", infer_schema=False)
    export(made, "jsonl", tmp_path / "p.jsonl", with_path=True)
    lines = [json.loads(x) for x in (tmp_path / "p.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [json.loads(x) for x in back["path"]] == [line["path"] for line in lines]
    with pytest.raises(PublishError, match="--with-path: adds a column to csv and jsonl exports, not to svg"):
        export(made, "svg", tmp_path / "svg", with_path=True)
