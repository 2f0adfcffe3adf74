"""The output contract readers rely on: the one-liners of docs/output.md ("Reading a set") for polars,
pandas (pyarrow) and duckdb read exactly the puzzles of a set or of one run, and so does every other
read of a set written anywhere in the README or the docs; every part says its schema version; the
published schema file is the code's schema."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pandas as pd
import polars as pl
import pytest

from pipeline import config
from pipeline.run import rows, runner, store
from tests.conftest import ROOT

SCHEMA_FILE = ROOT / "schema" / "numplace-row.schema.json"
OUTPUT_DOC = ROOT / "docs" / "output.md"
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: A read of a set written with a literal path: ``pl.read_parquet("...")``, ``pd.read_parquet(...)``,
#: ``pl.scan_parquet(...)``, ``ds.dataset(...)``, or duckdb's ``read_parquet('...')`` in SQL.
READ = re.compile(r"""\b(pl\.read_parquet|pl\.scan_parquet|pd\.read_parquet|ds\.dataset)\((["'])([^"'{}]+)\2\)"""
                  r"""|read_parquet\('([^'{}]+)'\)""")
RUN_ID = re.compile(r"\d{8}T\d{6}Z-[0-9a-f]{8}|<run_id>|<run>")


def reader_lines() -> str:
    """The Python block of docs/output.md that reads a set with polars, pandas and duckdb."""
    found = re.findall(r"^```python\n(.*?)^```", OUTPUT_DOC.read_text(encoding="utf-8"), flags=re.M | re.S)
    return next(b for b in found if "pd.read_parquet" in b and "duckdb.sql" in b)


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An output root with one set of two runs (5 + 3 puzzles), beside a catalog and a lock."""
    root = tmp_path_factory.mktemp("readers") / "outputs"
    data = {"name": "book", "seed": 3, "count": 5, "board": {"size": 4},
            "removal": {"symmetry": "none", "minimal": True}, "workers": 1,
            "output": {"dir": str(root), "shard_size": 2}}
    runner.run(config.validate(data))
    runner.run(config.validate(dict(data, count=3)))
    return root


def test_the_documented_lines_read_exactly_the_set(two_runs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(two_runs.parent)  # the lines read outputs/default-classic: here outputs/book
    found: dict[str, Any] = {}
    exec(reader_lines().replace("default-classic", "book"), found)  # the docs' own lines, as written there
    by_polars = found["by_polars"]
    by_pandas = found["by_pandas"]  # a set folder is a dataset: _-names are skipped
    by_duckdb = found["by_duckdb"].pl()
    whole_root = found["whole_root"].pl()
    assert isinstance(by_polars, pl.DataFrame) and isinstance(by_pandas, pd.DataFrame)
    for frame in (by_polars, by_duckdb, whole_root):
        assert sorted(frame["puzzle_id"].to_list()) == [f"book-{i:07d}" for i in range(8)]
    assert sorted(by_pandas["puzzle_id"]) == [f"book-{i:07d}" for i in range(8)]
    assert list(by_pandas.columns) == list(rows.SCHEMA)
    assert list((two_runs / "_catalog").glob("*.keys"))  # the catalog is there, and no *.parquet glob takes it
    assert all(p.name.startswith("part-") for p in two_runs.glob("**/*.parquet"))  # nothing else is *.parquet


def test_one_run_reads_alone(two_runs: Path) -> None:
    run_dir = next(d for d in sorted((two_runs / "book").iterdir()) if d.is_dir() and (d / "_SUCCESS").exists())
    assert sorted(p.name for p in run_dir.iterdir() if not p.name.startswith("part-")) == ["_SUCCESS",
                                                                                        "_manifest.json"]
    assert len(pd.read_parquet(run_dir)) == len(pl.read_parquet(run_dir / "part-*.parquet"))


def test_every_part_carries_its_schema_version_and_set(two_runs: Path) -> None:
    parts = sorted(two_runs.glob("book/*/part-*.parquet"))
    assert len(parts) == 5
    for part in parts:
        meta = pl.read_parquet_metadata(part)
        assert meta["numplace.schema_version"] == str(rows.SCHEMA_VERSION) and meta["numplace.set_name"] == "book"
        assert store.schema_version(part) == rows.SCHEMA_VERSION
    frame = pl.read_parquet(parts)
    assert frame["difficulty_rank"].to_list() == [["easy", "medium", "hard", "expert", "extreme"].index(d) + 1
                                                  for d in frame["difficulty"]]


def test_the_published_schema_file_is_the_codes() -> None:
    assert json.loads(SCHEMA_FILE.read_text(encoding="utf-8")) == rows.json_schema()
    assert rows.json_schema()["x-schema-version"] == rows.SCHEMA_VERSION


def documented_reads() -> list[tuple[str, str, str]]:
    """Every read of a set with a literal path in the README and the docs: ``(where, reader, path)``."""
    found = []
    for page in PAGES:
        for k, line in enumerate(page.read_text(encoding="utf-8").split("\n"), 1):
            for m in READ.finditer(line):
                reader, path = (m.group(1), m.group(3)) if m.group(1) else ("duckdb", m.group(4))
                found.append((f"{page.relative_to(ROOT)}:{k}", reader, path))
    return found


def _read(reader: str, path: str) -> list[str]:
    """The puzzle ids ``reader`` reads from ``path``, as the docs call it."""
    import duckdb
    import pyarrow.dataset as ds

    if reader == "duckdb":
        return duckdb.sql(f"SELECT puzzle_id FROM read_parquet('{path}')").pl()["puzzle_id"].to_list()
    if reader == "pl.read_parquet":
        return pl.read_parquet(path)["puzzle_id"].to_list()
    if reader == "pl.scan_parquet":
        return pl.scan_parquet(path).collect()["puzzle_id"].to_list()
    if reader == "pd.read_parquet":
        return list(pd.read_parquet(path)["puzzle_id"])
    return [str(x) for x in ds.dataset(path).to_table().column("puzzle_id").to_pylist()]


def test_every_documented_read_works_as_written(two_runs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(two_runs.parent)
    # the run of puzzles 0-4: by its rows, not by its name (two runs in one second sort by their random suffix)
    runs = [d for d in (two_runs / "book").iterdir() if d.is_dir() and not d.name.startswith("_")]
    first = next(d for d in runs if pl.read_parquet(d / "part-*.parquet")["index"].min() == 0)
    reads = documented_reads()
    assert {r for _, r, _ in reads} >= {"pl.read_parquet", "pd.read_parquet", "duckdb", "ds.dataset"}
    failed = []
    for where, reader, written in reads:
        path = RUN_ID.sub(first.name, written.replace("default-classic", "book").replace("<set>", "book")
                          .replace("SET", "book"))
        want = [f"book-{i:07d}" for i in (range(5) if first.name in path else range(8))]
        try:
            got = sorted(_read(reader, path))
        except Exception as exc:  # every failure is reported with where it is written
            failed.append(f"{where}: {reader}({written!r}) fails: {exc.__class__.__name__}: {str(exc)[:120]}")
            continue
        if got != want:
            failed.append(f"{where}: {reader}({written!r}) reads {len(got)} rows, not the {len(want)} puzzles")
    assert failed == []


def test_no_page_says_any_reader_reads_a_folder() -> None:
    """polars cannot read a set folder (it stops at _manifest.json): no page may promise that any reader can."""
    for page in PAGES:
        assert "any Parquet reader" not in " ".join(page.read_text(encoding="utf-8").split()), page


def _block_after(page: Path, heading: str) -> str:
    """The first python code block after ``heading`` in ``page``."""
    text = page.read_text(encoding="utf-8").split(heading, 1)[1]
    return text.split("```python\n", 1)[1].split("```", 1)[0]


@pytest.mark.deep
@pytest.mark.heavy
def test_a_set_spanning_schema_versions_reads_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A set begun by an older numplace (tests/data/legacy_set: schema 3) and continued by this one
    (schema 4): the documented reads for such a set take every row and every column; the plain polars
    glob refuses it, as the page says."""
    import shutil

    from tests.conftest import DATA, numplace

    shutil.copytree(DATA / "legacy_set", tmp_path / "legacy")
    monkeypatch.chdir(tmp_path / "legacy")
    res = numplace("run", "set.yaml", cwd=tmp_path / "legacy")
    assert res.returncode == 0, res.stderr
    code = _block_after(OUTPUT_DOC, "### A set made by several numplace versions")
    names: dict[str, object] = {}
    exec(code.replace("default-classic", "legacy-classic"), names)  # the page's own code
    ids = [f"legacy-classic-{i:07d}" for i in range(8)]
    for name in ("all_polars", "all_pandas"):
        frame = names[name]
        assert sorted(frame["puzzle_id"]) == ids, name  # type: ignore[index]
        assert {"grid_source", "needs_guessing"} <= set(frame.columns), name  # type: ignore[attr-defined]
    duck = names["all_duckdb"].pl()  # type: ignore[attr-defined]
    assert sorted(duck["puzzle_id"]) == ids and "grid_source" in duck.columns
    assert duck.filter(pl.col("index") >= 4)["grid_source"].null_count() == 0  # the new rows carry it
    with pytest.raises(pl.exceptions.SchemaError, match="extra column"):
        pl.read_parquet("outputs/legacy-classic/*/part-*.parquet")
