"""Exports: CSV and JSON lines round-trip to the set's rows; one-line text; SVG (XML, one <text> per
given, each in its cell) and PNG per puzzle; bad selections and unwritable targets are one line."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from PIL import Image

from pipeline.publish import select
from pipeline.publish.export import export, jsonl_schema, parse_size
from pipeline.publish.render import SVG_CELL
from pipeline.publish.select import PublishError
from pipeline.run.rows import SCHEMA
from tests.conftest import ROOT, numplace
from tests.publish.test_select import BIG_SEED, MIX, fake_row, write_set

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def sets(tmp_path: Path) -> tuple[Path, Path, pl.DataFrame]:
    """A 9x9 run of ten puzzles and a 16x16 run of two; and their rows."""
    a = write_set(tmp_path / "out", "classic", MIX)
    b = write_set(tmp_path / "out", "giant", ["extreme", "hard"], size=16)
    frame = select.read_sets([a, b]).frame
    assert frame.height == 12  # the tests' loops over its rows check every row, not none
    return a, b, frame


def test_csv_round_trip(tmp_path: Path, sets: tuple[Path, Path, pl.DataFrame]) -> None:
    *_, frame = sets
    out = tmp_path / "x" / "puzzles.csv"
    written = export(frame, "csv", out)
    assert written.target == out and written.files == 1 and written.puzzles == 12
    text = out.read_text(encoding="utf-8")
    assert text.splitlines()[0].split(",")[:4] == ['"puzzle_id"', '"set_name"', '"config_hash"', '"seed"']
    assert f'"{BIG_SEED}"' in text  # the seed is text, every digit kept
    back = pl.read_csv(out, infer_schema=False)  # every field as text
    assert back.columns == frame.columns and back.height == frame.height
    for name in ("puzzle_id", "puzzle", "solution", "difficulty", "symmetry"):
        assert back[name].to_list() == frame[name].to_list()
    assert [int(s) for s in back["seed"]] == frame["seed"].to_list()
    assert [int(s) for s in back["hints"]] == frame["hints"].to_list()
    assert [float(s) for s in back["difficulty_score"]] == frame["difficulty_score"].to_list()
    assert [s.split(";") for s in back["techniques"]] == frame["techniques"].to_list()
    assert back["created_at"][0] == "2026-11-22T04:28:16.635752Z"
    assert back["minimal"].to_list() == ["false"] * 12
    typed = pl.read_csv(out, schema_overrides={"seed": pl.String})
    assert typed["seed"].to_list() == [str(s) for s in frame["seed"]]


def test_jsonl_round_trip(tmp_path: Path, sets: tuple[Path, Path, pl.DataFrame]) -> None:
    *_, frame = sets
    out = tmp_path / "p.jsonl"
    export(frame, "jsonl", out)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == frame.height
    rows = [json.loads(line) for line in lines]
    for got, want in zip(rows, frame.to_dicts(), strict=True):
        assert isinstance(got["seed"], str) and int(got["seed"]) == want["seed"]
        assert got["created_at"] == "2026-11-22T04:28:16.635752Z"
        for key in ("puzzle_id", "index", "size", "puzzle", "solution", "hints", "techniques", "difficulty",
                    "difficulty_score", "minimal", "grid_number"):
            assert got[key] == want[key], key
    assert rows[0]["seed"] == str(BIG_SEED)


JSON_TYPES: dict[str, Any] = {"string": str, "integer": int, "number": (int, float), "boolean": bool,
                              "array": list, "object": dict, "null": type(None)}


def schema_problems(value: Any, schema: dict[str, Any], where: str = "$") -> list[str]:
    """What in ``value`` breaks ``schema``: the part of JSON Schema the export schema uses (type,
    properties, required, additionalProperties, items, pattern). A small checker of our own, so the
    test needs no validator package."""
    kinds = schema.get("type")
    if kinds is not None:
        kinds = kinds if isinstance(kinds, list) else [kinds]
        ok = any(isinstance(value, JSON_TYPES[k]) and not (k in ("integer", "number") and isinstance(value, bool))
                 for k in kinds)
        if not ok:
            return [f"{where}: {value!r} is not {' or '.join(kinds)}"]
    out = []
    if isinstance(value, str) and "pattern" in schema and not re.search(schema["pattern"], value):
        out.append(f"{where}: {value!r} does not match {schema['pattern']}")
    if isinstance(value, dict):
        out += [f"{where}: {k} is missing" for k in schema.get("required", []) if k not in value]
        props = schema.get("properties", {})
        if schema.get("additionalProperties") is False:
            out += [f"{where}: {k} is not allowed" for k in value if k not in props]
        for k, v in value.items():
            if k in props:
                out += schema_problems(v, props[k], f"{where}.{k}")
    if isinstance(value, list) and "items" in schema:
        for i, v in enumerate(value):
            out += schema_problems(v, schema["items"], f"{where}[{i}]")
    return out


def test_jsonl_lines_follow_the_published_schema(tmp_path: Path, sets: tuple[Path, Path, pl.DataFrame]) -> None:
    published = json.loads((ROOT / "schema" / "numplace-export.schema.json").read_text(encoding="utf-8"))
    assert published == jsonl_schema()
    assert published["properties"]["seed"]["type"] == "string"
    killer = fake_row("cages", 0, "hard") | {"variant": ["killer"], "cages": [{"cells": [0, 1], "sum": 9}],
                                             "difficulty_rank": 3}
    frame = pl.concat([sets[2], pl.DataFrame([killer], schema=SCHEMA)], how="vertical_relaxed")
    export(frame, "jsonl", tmp_path / "p.jsonl")
    lines = [json.loads(x) for x in (tmp_path / "p.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 13 and lines[-1]["cages"] == [{"cells": [0, 1], "sum": 9}]
    assert [p for k, line in enumerate(lines) for p in schema_problems(line, published, f"line {k + 1}")] == []
    # the checker can fail: a numeric seed (what a JSON writer of the raw row would give) is caught
    assert schema_problems(lines[0] | {"seed": BIG_SEED}, published) == [f"$.seed: {BIG_SEED} is not string"]
    assert schema_problems({k: v for k, v in lines[0].items() if k != "puzzle"}, published) == ["$: puzzle is missing"]


def test_one_line_text_and_sdk_grids(tmp_path: Path, sets: tuple[Path, Path, pl.DataFrame]) -> None:
    *_, frame = sets
    export(frame, "sdk", tmp_path / "all.sdk", solutions=True)
    assert (tmp_path / "all.sdk").read_text().splitlines() == frame["puzzle"].to_list()
    assert (tmp_path / "all-solutions.sdk").read_text().splitlines() == frame["solution"].to_list()
    written = export(frame.head(1), "sdk", tmp_path / "grids", solutions=True)
    assert written.files == 2
    pid, puzzle = frame["puzzle_id"][0], frame["puzzle"][0]
    lines = (tmp_path / "grids" / f"{pid}.sdk").read_text().splitlines()
    assert len(lines) == 9 and all(len(x) == 9 for x in lines) and "".join(lines) == puzzle
    assert "".join((tmp_path / "grids" / f"{pid}-solution.sdk").read_text().split()) == frame["solution"][0]


def _texts(path: Path) -> list[ET.Element]:
    root = ET.parse(path).getroot()  # parses as XML, or raises
    assert root.tag == f"{SVG}svg"
    return list(root.iter(f"{SVG}text"))


def test_svg_one_text_per_given_in_its_cell(tmp_path: Path, sets: tuple[Path, Path, pl.DataFrame]) -> None:
    *_, frame = sets
    written = export(frame, "svg", tmp_path / "svg", solutions=True)
    assert written.files == 2 * frame.height
    for row in frame.iter_rows(named=True):
        n = row["size"]
        texts = _texts(tmp_path / "svg" / f"{row['puzzle_id']}.svg")
        assert len(texts) == row["hints"] == sum(ch != "." for ch in row["puzzle"])
        pad = float(ET.parse(tmp_path / "svg" / f"{row['puzzle_id']}.svg").getroot().find(f"{SVG}g/{SVG}rect")
                    .get("x"))  # type: ignore[union-attr, arg-type]
        for t in texts:  # each symbol sits in the cell that holds it
            col = int((float(t.get("x")) - pad) // SVG_CELL)  # type: ignore[arg-type]
            row_ = int((float(t.get("y")) - pad) // SVG_CELL)  # type: ignore[arg-type]
            assert row["puzzle"][row_ * n + col] == t.text
        answer = _texts(tmp_path / "svg" / f"{row['puzzle_id']}-solution.svg")
        assert len(answer) == n * n and "".join(t.text or "" for t in answer) == row["solution"]
        assert sum(t.get("font-weight") == "bold" for t in answer) == row["hints"]


@pytest.mark.heavy
def test_png_per_puzzle(tmp_path: Path, sets: tuple[Path, Path, pl.DataFrame]) -> None:
    *_, frame = sets
    export(frame, "png", tmp_path / "png")
    for row in frame.iter_rows(named=True):
        with Image.open(tmp_path / "png" / f"{row['puzzle_id']}.png") as img:
            assert img.format == "PNG"
            gray = img.convert("L")
            n = row["size"]
            cell = 48 if n <= 9 else 36
            pad = (img.width - n * cell) // 2
            for i in (row["puzzle"].index("."), next(i for i, ch in enumerate(row["puzzle"]) if ch != ".")):
                r, c = divmod(i, n)
                box = (pad + c * cell + cell // 4, pad + r * cell + cell // 4,
                       pad + (c + 1) * cell - cell // 4, pad + (r + 1) * cell - cell // 4)
                ink = sum(1 for v in gray.crop(box).tobytes() if v < 128)
                assert (ink > 10) == (row["puzzle"][i] != "."), (row["puzzle_id"], i, ink)


def test_png_sizes_are_what_the_docs_say(tmp_path: Path, sets: tuple[Path, Path, pl.DataFrame]) -> None:
    """docs/publishing.md states the default PNG size of 9x9, 16x16 and 25x25: the files are that size
    (the sets here are 9x9 and 16x16: the 25x25 figure is read, not drawn, here)."""
    *_, frame = sets
    row = next(line for line in (ROOT / "docs" / "publishing.md").read_text(encoding="utf-8").splitlines()
               if line.startswith("| `png` |"))
    stated = {int(n): int(px) for px, n in re.findall(r"(\d+) px (?:square )?for (\d+)\u00d7\d+", row)}
    assert set(stated) == {9, 16, 25}
    export(frame, "png", tmp_path / "png")
    for r in frame.select("puzzle_id", "size").iter_rows():
        with Image.open(tmp_path / "png" / f"{r[0]}.png") as img:
            assert img.size == (stated[r[1]], stated[r[1]]), r


def test_png_and_svg_for_print(tmp_path: Path, sets: tuple[Path, Path, pl.DataFrame]) -> None:
    *_, frame = sets
    nine = frame.filter(pl.col("size") == 9).head(2)
    export(nine, "png", tmp_path / "print", size=parse_size("60mm", 300), solutions=True)
    for path in sorted((tmp_path / "print").iterdir()):
        with Image.open(path) as img:
            assert img.size == (709, 709)  # 60 mm at 300 dpi: 708.66 px
            assert [round(v) for v in img.info["dpi"]] == [300, 300]
            gray = img.convert("L")
            ink = [x for x in range(709) if gray.getpixel((x, 354)) < 128]
            assert ink[0] < 10 and ink[-1] > 699  # the grid fills the image, centred
    export(nine.head(1), "png", tmp_path / "dense", size=parse_size(None, 300))
    with Image.open(next((tmp_path / "dense").iterdir())) as img:
        assert img.size == (1375, 1375)  # --dpi alone: the default printed side (440 px at 96 dpi), at 300 dpi
    export(nine.head(1), "svg", tmp_path / "svg", size=parse_size("2in"))
    root = ET.parse(next((tmp_path / "svg").iterdir())).getroot()
    assert (root.get("width"), root.get("height")) == ("50.80mm", "50.80mm")
    for text, dpi, says in (("60", None, "--size: '60' is not a length such as 60mm"),
                            ("3mm", None, "--size: '3mm' is not between 1 cm and 50 cm"),
                            (None, 10, "--dpi: 10 is not between 36 and 2400")):
        with pytest.raises(PublishError, match=says):
            parse_size(text, dpi)
    with pytest.raises(PublishError, match="--size and --dpi: csv has no image size"):
        export(nine, "csv", tmp_path / "x.csv", size=parse_size("60mm"))
    with pytest.raises(PublishError, match="--dpi: an SVG has no pixels"):
        export(nine, "svg", tmp_path / "s2", size=parse_size(None, 300))
    with pytest.raises(PublishError, match="px is too small for a 16x16 grid"):
        export(frame, "png", tmp_path / "tiny", size=parse_size("1cm", 72))
    assert not (tmp_path / "tiny").exists() and not (tmp_path / "s2").exists()


def test_bad_targets_are_one_line(tmp_path: Path, sets: tuple[Path, Path, pl.DataFrame]) -> None:
    *_, frame = sets
    with pytest.raises(PublishError, match="svg export writes one file per puzzle; give a folder"):
        export(frame, "svg", tmp_path / "x.svg")
    with pytest.raises(PublishError, match=r"--format: 'xls' is not one of csv, jsonl, sdk, svg, png"):
        export(frame, "xls", tmp_path / "x.xls")
    (tmp_path / "file").write_text("")
    with pytest.raises(PublishError, match="file: is a file, not a folder"):
        export(frame, "png", tmp_path / "file")
    with pytest.raises(PublishError, match=r"file/sub: cannot create the folder \(Not a directory\)"):
        export(frame, "png", tmp_path / "file" / "sub")
    with pytest.raises(PublishError, match="nothing to export"):
        export(frame.head(0), "csv", tmp_path / "e.csv")


@pytest.mark.deep
@pytest.mark.heavy
def test_cli_export(tmp_path: Path, sets: tuple[Path, Path, pl.DataFrame]) -> None:
    a, *_ = sets
    res = numplace("export", str(a), "--format", "csv", "--out", str(tmp_path / "h.csv"), "--level", "hard")
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == f"wrote 2 puzzles as csv to {tmp_path / 'h.csv'} (1 file(s))"
    assert pl.read_csv(tmp_path / "h.csv", infer_schema=False)["difficulty"].to_list() == ["hard", "hard"]
    bad = numplace("export", str(a), "--format", "svg", "--out", str(tmp_path / "s"), "--level", "legendary")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    assert bad.stderr.startswith("numplace: error: --level: 'legendary' is not one of")
    none = numplace("export", str(a), "--format", "csv", "--out", str(tmp_path / "n.csv"), "--score", "99999-")
    assert none.returncode == 2 and "matches the selection (score 99999-)" in none.stderr
    assert not (tmp_path / "n.csv").exists() and not (tmp_path / "s").exists()


def test_a_missing_font_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from pipeline.publish import render

    assert render.font_path("cjk").name == "ipaexg.ttf" and render.font_path("sans").is_file()
    monkeypatch.setitem(render._FONTS, "cjk", ("japanize_matplotlib", "fonts/missing.ttf"))
    with pytest.raises(PublishError, match=r"^font file fonts/missing\.ttf not found: install the japanize-matplotlib"):
        render.font_path("cjk")


@pytest.mark.heavy
def test_cli_export_of_unrated_rows(tmp_path: Path) -> None:
    a = write_set(tmp_path, "k", ["unrated", "medium", "unrated"])
    res = numplace("export", str(a), "--format", "jsonl", "--out", str(tmp_path / "u.jsonl"), "--level", "unrated")
    assert res.returncode == 0, res.stderr
    rows = [json.loads(line) for line in (tmp_path / "u.jsonl").read_text().splitlines()]
    assert [(r["index"], r["difficulty"]) for r in rows] == [(0, "unrated"), (2, "unrated")]
