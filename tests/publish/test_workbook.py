"""The technique workbook (``numplace book --workbook``): chapters from the rows made for a technique,
the key step and the state before it, the refusals, the PDF and its used list."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from pipeline.board import parse
from pipeline.difficulty.grade import grade
from pipeline.publish import book, workbook
from pipeline.publish.select import PublishError
from pipeline.run.rows import SCHEMA
from tests.conftest import DATA, numplace
from tests.publish.test_select import fake_row

#: Real puzzles made for a technique (tests/data/README.md says how they were made).
MADE = [json.loads(line) for line in (DATA / "workbook_rows.jsonl").read_text(encoding="utf-8").splitlines()]


def _write(root: Path, rows: list[dict], name: str = "wb") -> Path:
    run = root / name / "20261128T000000Z-00000000"
    run.mkdir(parents=True)
    pl.DataFrame(rows, schema=SCHEMA).write_parquet(run / "part-00000.parquet")
    data = {"config": {"name": name}, "status": "complete", "count": len(rows), "start": 0,
            "created_at": "2026-11-28T00:00:00+00:00", "totals": {"requested": len(rows), "puzzles": len(rows)},
            "shards": {}}
    (run / "manifest.json").write_text(json.dumps(data), encoding="utf-8")
    return root / name


def _rows() -> list[dict]:
    out = []
    for i, made in enumerate(MADE):
        row = fake_row("wb", i, made["difficulty"])
        row.update({k: made[k] for k in ("puzzle", "solution", "difficulty", "difficulty_score", "techniques",
                                         "technique", "hints")})
        out.append(row)
    return out


def test_the_key_step_is_the_first_step_of_the_technique_and_the_state_before_it() -> None:
    for row in _rows():
        ks = workbook.key_step(row, row["technique"])
        g = grade(parse(row["puzzle"]), parse(row["solution"]))
        assert ks.step == g.steps[ks.index] and ks.step.technique == row["technique"]
        assert all(s.technique != row["technique"] for s in g.steps[:ks.index])
        assert any(s.placements for s in g.steps[:ks.index])  # singles first
        for i, d in ks.step.eliminations:  # what the step removes is still a candidate then
            assert not ks.values[i] and d in ks.cands[i]
        placed = sum(len(s.placements) for s in g.steps[:ks.index])
        assert sum(1 for v in ks.values if v) == row["hints"] + placed


def test_chapters_take_the_easiest_first_the_example_apart(tmp_path: Path) -> None:
    rows = _rows()
    names = sorted({r["technique"] for r in rows})
    per = min(sum(1 for r in rows if r["technique"] == t) for t in names) - 1
    cfg = book.validate_config({"workbook": {"per_technique": per}})
    chapters = workbook.plan([_write(tmp_path, rows)], cfg)
    assert {ch.technique for ch in chapters} == set(names)
    number = 1
    for ch in chapters:
        mine = sorted(r["difficulty_score"] for r in rows if r["technique"] == ch.technique)
        assert [ch.example["difficulty_score"], *(r["difficulty_score"] for r in ch.rows)] == mine[:per + 1]
        assert ch.numbers == tuple(range(number, number + per))
        number += per


def test_refusals_name_the_chapter_or_the_key(tmp_path: Path) -> None:
    rows = _rows()
    name = rows[0]["technique"]
    have = sum(1 for r in rows if r["technique"] == name)
    with pytest.raises(PublishError, match=rf"^workbook.techniques: {name} has {have} puzzles made for it left"):
        workbook.plan([_write(tmp_path, rows)], book.validate_config({"workbook": {"techniques": [name],
                                                                                    "per_technique": have}}))
    plain = [fake_row("plain", i, "easy") for i in range(3)]
    with pytest.raises(PublishError, match=r"^workbook: no puzzle of the sets was made for a technique"):
        workbook.plan([_write(tmp_path, plain, "plain")], book.validate_config({"workbook": {}}))
    with pytest.raises(PublishError, match=r"^workbook\.techniques: 'x_wings' is not a technique"):
        book.validate_config({"workbook": {"techniques": ["x_wings"]}})
    with pytest.raises(PublishError, match=r"^sections: a workbook has a chapter per technique"):
        book.validate_config({"workbook": {}, "sections": [{"levels": ["hard"]}]})
    with pytest.raises(PublishError, match=r"^preset: not laid out for workbooks yet"):
        workbook.make_workbook([_write(tmp_path, rows, "p")], tmp_path / "w.pdf",
                               book.validate_config({"workbook": {}, "preset": "print-on-demand"}))
    assert not (tmp_path / "w.pdf").exists()


@pytest.mark.heavy
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_cli_writes_the_pdf_and_the_used_list(tmp_path: Path, lang: str) -> None:
    rows = _rows()
    set_dir = _write(tmp_path, rows)
    per = min(sum(1 for r in rows if r["technique"] == t) for t in {r["technique"] for r in rows}) - 1
    (tmp_path / "book.yaml").write_text(f"workbook: {{per_technique: {per}}}\n", encoding="utf-8")
    out = tmp_path / "wb.pdf"
    res = numplace("book", str(set_dir), "--out", str(out), "--workbook", "--lang", lang,
                   "--config", str(tmp_path / "book.yaml"))
    assert res.returncode == 0, res.stderr
    assert out.read_bytes().startswith(b"%PDF")
    used = json.loads((tmp_path / "wb.used.json").read_text(encoding="utf-8"))
    chapters = len({r["technique"] for r in rows})
    assert len(used["puzzle_ids"]) == chapters * (per + 1) and used["puzzles"] == chapters * per
    assert res.stdout.startswith(f"wrote {out}: ") and f"{chapters * per} puzzles" in res.stdout
