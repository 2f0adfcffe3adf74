"""The technique workbook (``numplace book --workbook``): chapters from the rows made for a technique,
the key step and the state before it, the refusals, the PDF and its used list."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pypdfium2.raw as pdfium_c  # type: ignore[import-untyped]
import pytest
from pypdf import PdfReader

from pipeline.board import parse
from pipeline.difficulty.grade import grade
from pipeline.publish import book, workbook
from pipeline.publish.select import PublishError
from pipeline.run.rows import SCHEMA
from tests.conftest import DATA, numplace
from tests.publish.test_book_print import _texts
from tests.publish.test_print_production import IN, assert_inside_safe
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
    with pytest.raises(PublishError, match=r"^page\.bleed: print-on-demand interiors bleed 3\.175 mm"):
        book.validate_config({"workbook": {}, "preset": "print-on-demand", "page": {"bleed": 3,
                                                                                    "margins": {"bottom": 15}}})


def _per(rows: list[dict]) -> int:
    return min(sum(1 for r in rows if r["technique"] == t) for t in {r["technique"] for r in rows}) - 1


@pytest.mark.heavy
def test_a_print_on_demand_workbook_keeps_the_safe_area_and_bleeds_on_three_sides(tmp_path: Path) -> None:
    rows = _rows()
    cfg = book.validate_config({"workbook": {"per_technique": _per(rows)}, "preset": "print-on-demand",
                                "show_ids": True, "page": {"size": "6x9in", "bleed": 3.175,
                                                           "margins": {"bottom": 15}}})
    out = tmp_path / "pod.pdf"
    n, _ = workbook.make_workbook([_write(tmp_path, rows)], out, cfg)
    plan = workbook.pages_of(workbook.plan([tmp_path / "wb"], cfg), cfg, workbook.geometry(cfg))
    assert len(plan) == n and {p.kind for p in plan} >= {"lesson", "practice", "answers"}
    reader = PdfReader(out)
    assert len(reader.pages) == n
    b = 0.125 * IN
    for k, page in enumerate(reader.pages):
        x = 0.0 if k % 2 == 0 else b  # page 1 is a right-hand page: no bleed on its binding edge (left)
        assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, 6.125 * IN, 9.25 * IN], abs=0.01)
        assert [float(v) for v in page.trimbox] == pytest.approx([x, b, x + 6 * IN, b + 9 * IN], abs=0.01)
        assert [float(v) for v in page.bleedbox] == pytest.approx([float(v) for v in page.mediabox], abs=0.01)
    numbered = [k for k, p in enumerate(plan, 1) if p.kind not in ("title", "blank")]
    assert_inside_safe(out, 0.375 * IN, numbered, 15)


@pytest.mark.heavy
def test_a_workbook_bound_on_the_right_with_tombo_and_pdfx(tmp_path: Path) -> None:
    rows = _rows()
    cfg = book.validate_config({"workbook": {"per_technique": _per(rows)}, "binding": "right", "pdfx": "x-1a",
                                "page": {"size": "B5", "bleed": 3, "marks": "tombo",
                                         "margins": {"inside": 22, "outside": 12}}, "lang": "ja"})
    out = tmp_path / "tombo.pdf"
    n, _ = workbook.make_workbook([_write(tmp_path, rows)], out, cfg)
    reader = PdfReader(out)
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Direction"] == "/R2L"
    assert reader.trailer["/Root"]["/OutputIntents"][0]["/S"] == "/GTS_PDFX"
    geo = workbook.geometry(cfg, n)
    for k, page in enumerate(reader.pages, 1):
        trim = [float(v) for v in page.trimbox]
        assert trim == pytest.approx([geo.outer, geo.outer, geo.outer + geo.width, geo.outer + geo.height], abs=0.01)
        assert float(page.mediabox[2]) == pytest.approx(geo.width + 2 * geo.outer, abs=0.01)
        marks = [obj for obj in pdfium.PdfDocument(out)[k - 1].get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_PATH])
                 if obj.get_bounds()[2] < trim[0] or obj.get_bounds()[0] > trim[2]]
        assert len(marks) >= 8, k  # the corner and centre marks outside the trim, left and right
    # page 3, the first lesson: a left-hand page when bound on the right, so its inside margin is on the right
    assert geo.left(3) == geo.outside != geo.inside
    texts = _texts(out, 2)
    assert any("ウィング" in t for t, _b, _s in texts)
    assert min(b[0] for t, b, _s in texts if t.strip()) - geo.outer == pytest.approx(geo.outside, abs=1.0)


@pytest.mark.heavy
@pytest.mark.parametrize("lang", ["en", pytest.param("ja", marks=pytest.mark.deep)])
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
    assert res.stdout.startswith(f"wrote {out}: ")
    assert f"{chapters} chapters, {chapters * per} practice puzzles and {chapters} worked examples; " in res.stdout
