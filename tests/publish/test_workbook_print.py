"""Workbooks a print-on-demand service accepts and a learner can read (issue 49 items 2, 3, 4, 7), each
read back from the PDF: the page count and the blank-page note, the smallest text on every preset
page size, shorter chapters with --allow-fewer, and the words of the answers and the worked example."""

from __future__ import annotations

import math
import re
import typing
from pathlib import Path

import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pypdfium2.raw as pdfium_c  # type: ignore[import-untyped]
import pytest
from pypdf import PdfReader

from pipeline.publish import book, keystep, workbook
from pipeline.publish.book_config import PageSize
from pipeline.publish.select import PublishError
from tests.conftest import numplace
from tests.publish.test_workbook import _rows, _write

#: The test data's chapters hold 5 rows each: a worked example and 4 practice puzzles.
PER = 4


@pytest.fixture(scope="module")
def wb_set(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _write(tmp_path_factory.mktemp("wb"), _rows())


def _make(set_dir: Path, out: Path, **cfg: typing.Any) -> int:
    config = book.validate_config({"workbook": {"per_technique": PER}, **cfg})
    pages, _ = workbook.make_workbook([set_dir], out, config)
    return pages


def _sizes(pdf: Path) -> list[tuple[float, int, str]]:
    """Every text object's printed size (font size times the text matrix's scale), page and text."""
    doc = pdfium.PdfDocument(pdf)
    out = []
    for k in range(len(doc)):
        page = doc[k]
        tp = page.get_textpage()
        for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_TEXT]):
            obj.textpage = tp
            m = obj.get_matrix()
            out.append((obj.get_font_size() * math.sqrt(abs(m.a * m.d - m.b * m.c)), k + 1, obj.extract()))
    return out


def test_a_print_on_demand_workbook_is_padded_to_24_pages(tmp_path: Path, wb_set: Path) -> None:
    out = tmp_path / "pod.pdf"
    n = _make(wb_set, out, preset="print-on-demand", page={"size": "6x9in", "bleed": 3.175})
    reader = PdfReader(out)
    assert n == len(reader.pages) == 24
    texts = [p.extract_text() for p in reader.pages]
    blanks = [k for k, t in enumerate(texts, 1) if "intentionally left blank" in t]
    assert blanks and blanks == list(range(blanks[0], 25))  # the padding is at the end, each page says so
    assert all("Answers" not in texts[k - 1] for k in blanks)
    plain = tmp_path / "plain.pdf"
    assert _make(wb_set, plain) == len(PdfReader(plain).pages) < 24  # no preset: no least count, only even
    assert len(PdfReader(plain).pages) % 2 == 0


def test_signatures_and_the_page_limit(tmp_path: Path, wb_set: Path) -> None:
    out = tmp_path / "sig.pdf"
    n = _make(wb_set, out, signatures=True)
    assert n % 4 == 0 and len(PdfReader(out).pages) == n
    with pytest.raises(PublishError, match=r"^the workbook would have \d+ pages and max_pages allows at most 4"):
        _make(wb_set, tmp_path / "long.pdf", max_pages=4)
    assert not (tmp_path / "long.pdf").exists()


@pytest.mark.heavy
@pytest.mark.parametrize("size", typing.get_args(PageSize))
def test_no_text_under_5_pt_on_any_page_size(tmp_path: Path, wb_set: Path, size: str) -> None:
    for preset, lang in (("none", "en"), ("print-on-demand", "ja")):
        out = tmp_path / f"{preset}-{lang}.pdf"
        _make(wb_set, out, preset=preset, lang=lang, page={"size": size})
        sizes = _sizes(out)
        answers = {p for s, p, t in sizes if t.strip() in ("Answers", "解答")}
        assert answers, "the answers were drawn"
        digits = [s for s, p, t in sizes if p in answers and t.strip().isdigit()]
        assert digits, "the key-step grids' candidates were read"
        smallest = min(sizes)
        assert smallest[0] >= keystep.MIN_TEXT - 1e-6, (size, preset, lang, smallest)


def _answer_text(pdf: Path) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(pdf).pages)


def test_answers_and_the_worked_example_in_words(tmp_path: Path, wb_set: Path) -> None:
    en, ja = tmp_path / "en.pdf", tmp_path / "ja.pdf"
    _make(wb_set, en)
    _make(wb_set, ja, lang="ja")
    text = _answer_text(en)
    keys = re.findall(r"Key step: (X-Wing|Swordfish) \(step (\d+) of the path\)", text)
    assert len(keys) == 2 * PER
    assert re.search(r"Removes \d from r\dc\d", text) and re.search(r"\d leaves r\dc\d", text) is None
    assert "rNcM is the cell in row N, column M" in " ".join(text.split())
    assert "r3c5 is the cell in row 3, column 5" in " ".join(text.split())
    assert "★★★" in text  # practice captions carry the level's stars, as in books
    jtext = _answer_text(ja)
    flat = "".join(jtext.split())
    assert len(re.findall(r"鍵の一手：(Xウィング|ソードフィッシュ)（\d+手目）", flat)) == 2 * PER  # noqa: RUF001
    assert "鍵の一手:" not in flat and re.search(r"手目\),", flat) is None  # no ASCII colon or comma in them
    assert re.search(r"\d+手目：Xウィング（\d+の候補、[\d・]+行目と[\d・]+列目）", flat)  # noqa: RUF001
    assert "rNcMはN行目M列目のマスです" in flat and "★★★" in flat


def test_the_worked_example_names_the_rows_and_columns_in_both_languages() -> None:
    seen = set()
    for row in _rows():
        ks = keystep.key_step(row, row["technique"])
        en, ja = keystep.step_words(ks, "en"), keystep.step_words(ks, "ja")
        m = re.search(r" on (\d) in (rows|columns) ([\d, and]+), (rows|columns) ([\d, and]+) —", en)
        assert m, en
        base, cover = ("行目", "列目") if m[2] == "rows" else ("列目", "行目")
        lines = ["・".join(re.findall(r"\d", m[k])) for k in (3, 5)]
        assert f"（{m[1]}の候補、{lines[0]}{base}と{lines[1]}{cover}）" in ja, (en, ja)  # noqa: RUF001
        seen.add(m[2])
    assert seen == {"rows", "columns"}  # fish on rows and on columns were both checked


def test_allow_fewer_makes_a_shorter_chapter(tmp_path: Path, wb_set: Path) -> None:
    cfg = book.validate_config({"workbook": {}})  # per_technique 6: a chapter needs 7 rows, the data has 5
    with pytest.raises(PublishError, match=r"needs 7 \(a worked example and workbook\.per_technique 6\); pass "
                                           r"--allow-fewer for a shorter chapter$"):
        workbook.plan([wb_set], cfg)
    chapters = workbook.plan([wb_set], cfg, allow_fewer=True)
    assert [len(ch.rows) for ch in chapters] == [PER, PER]
    assert workbook.summary(chapters, cfg) == ("2 chapters, 8 practice puzzles and 2 worked examples (shorter "
                                               "than workbook.per_technique 6: x_wing 4, swordfish 4)")
    one = book.validate_config({"workbook": {"techniques": ["x_wing"]}})
    with pytest.raises(PublishError, match=r"x_wing has 0 puzzles made for it left, a chapter needs 7 .*6\)$"):
        workbook.plan([wb_set], one, {r["puzzle_id"] for r in _rows()}, allow_fewer=True)


@pytest.mark.heavy
def test_cli_workbook_with_the_default_needs_allow_fewer(tmp_path: Path, wb_set: Path) -> None:
    out = tmp_path / "wb.pdf"
    res = numplace("book", str(wb_set), "--out", str(out), "--workbook")
    assert res.returncode == 2 and not out.exists()
    assert res.stderr.count("\n") == 1 and "pass --allow-fewer for a shorter chapter" in res.stderr
    res = numplace("book", str(wb_set), "--out", str(out), "--workbook", "--allow-fewer")
    assert res.returncode == 0, res.stderr
    pages = len(PdfReader(out).pages)
    assert res.stdout == (f"wrote {out}: {pages} pages, 2 chapters, 8 practice puzzles and 2 worked examples "
                          "(shorter than workbook.per_technique 6: x_wing 4, swordfish 4); ids in "
                          f"{tmp_path / 'wb.used.json'}\n")
    # docs/workbook.md shows this very line (tests/test_docs.py leaves its count to this test)
    docs = (Path(__file__).resolve().parents[2] / "docs" / "workbook.md").read_text(encoding="utf-8")
    shown = res.stdout.replace(str(out), "wb.pdf").replace(str(tmp_path / "wb.used.json"), "wb.used.json")
    assert shown.strip() in docs.splitlines()
