"""Books as a printer and a reader get them: K-only colour read from the PDF's operators, trim sizes,
crop marks and page boxes, creation dates, text that never overprints (text objects measured with
pypdfium2), balanced pages (rendered and measured), the print-on-demand preset and page limits,
padding and blank pages, numbering across a series, Japanese and English words, switches for ids and
the footer, variant rules pages and captions, readable killer sums, and quick books from flags."""

from __future__ import annotations

import datetime as dt
import itertools
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import polars as pl
import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pypdfium2.raw as pdfium_c  # type: ignore[import-untyped]
import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from pipeline.publish import book, labels, layout, pages, render
from pipeline.publish.select import PublishError
from pipeline.run.rows import SCHEMA
from tests.conftest import numplace
from tests.publish.test_render_variants import variant_row, write_variant_set
from tests.publish.test_select import fake_row, write_set

LEVELS_12 = ["easy", "medium", "hard", "easy", "expert", "extreme", "medium", "easy", "hard", "hard", "easy", "medium"]
MM = 72 / 25.4
COLOUR_OPS = {"g", "G", "rg", "RG", "k", "K", "cs", "CS", "sc", "SC", "scn", "SCN"}


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    return write_set(tmp_path / "out", "classic", LEVELS_12)  # type: ignore[arg-type]


def _make(run_dir: Path | list[Path], out: Path, **cfg: Any) -> list[book.Page]:
    config = book.validate_config(cfg)
    return book.write_book(book.plan(run_dir if isinstance(run_dir, list) else [run_dir], config), config, out)


def _colour_ops(pdf: Path) -> set[str]:
    reader = PdfReader(pdf)
    found: set[str] = set()
    for page in reader.pages:
        for _operands, op in ContentStream(page.get_contents(), reader).operations:
            if op.decode() in COLOUR_OPS:
                found.add(op.decode())
    return found


def _texts(pdf: Path, index: int) -> list[tuple[str, tuple[float, float, float, float], float]]:
    """The text objects of page ``index``: (text, bounds (left, bottom, right, top), font size)."""
    page = pdfium.PdfDocument(pdf)[index]
    tp = page.get_textpage()
    out = []
    for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_TEXT]):
        obj.textpage = tp
        out.append((obj.extract(), obj.get_bounds(), obj.get_font_size()))
    return out


def _overlaps(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _page_text(pdf: Path) -> list[str]:
    return [p.extract_text() for p in PdfReader(pdf).pages]


# ---------------------------------------------------------------------------------------------
# 1. Colour
# ---------------------------------------------------------------------------------------------


def test_every_colour_is_device_gray_unless_rgb_is_asked(tmp_path: Path) -> None:
    rows = [variant_row(k, i, cages="grown" if k == "killer" else None) for i, k in enumerate(("x", "killer"))]
    sets = [write_variant_set(tmp_path / "out", "variants", rows), write_set(tmp_path / "out", "classic", ["easy"])]
    gray = _make(sets, tmp_path / "gray.pdf", answers={"per_page": 4})
    assert {p.kind for p in gray} >= {"title", "contents", "rules", "puzzles", "answers"}
    assert _colour_ops(tmp_path / "gray.pdf") == {"g", "G"}  # fills and strokes, K only: no rg/RG/k/K/cs
    _make(sets, tmp_path / "rgb.pdf", colour="rgb", answers={"per_page": 4})
    assert {"rg", "RG"} <= _colour_ops(tmp_path / "rgb.pdf") and not _colour_ops(tmp_path / "rgb.pdf") & {"g", "G"}


# ---------------------------------------------------------------------------------------------
# 2. Trims, marks, boxes, dates
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "inches"), [("6x9in", (6, 9)), ("8.5x11in", (8.5, 11)), ("7x10in", (7, 10)),
                                              ("5.5x8.5in", (5.5, 8.5))])
def test_print_on_demand_trims(size: str, inches: tuple[float, float], tmp_path: Path, run_dir: Path) -> None:
    _make(run_dir, tmp_path / "b.pdf", page={"size": size}, answers={"include": False})
    box = [float(v) for v in PdfReader(tmp_path / "b.pdf").pages[2].mediabox]
    assert box == pytest.approx([0, 0, inches[0] * 72, inches[1] * 72], abs=0.01)


def test_crop_marks_trim_and_bleed_boxes(tmp_path: Path, run_dir: Path) -> None:
    _make(run_dir, tmp_path / "m.pdf", page={"size": "6x9in", "bleed": 3, "marks": True}, answers={"include": False})
    page = PdfReader(tmp_path / "m.pdf").pages[2]
    media, trim, bleed = ([float(v) for v in box] for box in (page.mediabox, page.trimbox, page.bleedbox))
    o = trim[0]
    assert o > 3 * MM + 5 * MM  # room for the marks beyond the bleed
    assert trim == pytest.approx([o, o, o + 432, o + 648], abs=0.01)
    assert bleed == pytest.approx([o - 3 * MM, o - 3 * MM, o + 432 + 3 * MM, o + 648 + 3 * MM], abs=0.01)
    assert media == pytest.approx([0, 0, 432 + 2 * o, 648 + 2 * o], abs=0.01)
    if shutil.which("pdfinfo"):  # poppler's view of the same boxes, where poppler-utils is installed
        shown = subprocess.run(["pdfinfo", "-box", "-f", "3", "-l", "3", str(tmp_path / "m.pdf")],
                               capture_output=True, text=True, check=True).stdout
        boxes = {m[0]: [float(v) for v in m[1:]] for m in re.findall(r"Page\s+3 (\w+):\s+" + r"\s+([\d.]+)" * 4,
                                                                        shown)}
        assert boxes["TrimBox"] == pytest.approx(trim, abs=0.01) and boxes["BleedBox"] == pytest.approx(bleed, abs=0.01)
    doc = pdfium.PdfDocument(tmp_path / "m.pdf")
    scale = 2.0
    img = doc[2].render(scale=scale).to_pil().convert("L")
    h = media[3]

    def ink(x: float, y: float) -> bool:  # a dark pixel within 1 px of (x, y) in PDF points
        px, py = round(x * scale), round((h - y) * scale)
        return any(img.getpixel((px + dx, py + dy)) < 128 for dx in (-1, 0, 1) for dy in (-1, 0, 1))

    gap = max(3 * MM, 3 * MM)
    for cx in (o, o + 432):  # at each corner: a mark in line with each trim edge, outside the bleed
        for cy in (o, o + 648):
            sx, sy = (-1 if cx == o else 1), (-1 if cy == o else 1)
            assert ink(cx + sx * (gap + 3 * MM), cy) and ink(cx, cy + sy * (gap + 3 * MM))
            assert not ink(cx + sx * 1.5 * MM, cy + sy * 1.5 * MM)  # nothing in the bleed
    plain = tmp_path / "p.pdf"
    _make(run_dir, plain, page={"size": "6x9in"}, answers={"include": False})
    assert PdfReader(plain).pages[0].trimbox == PdfReader(plain).pages[0].mediabox  # no marks: no room for them


def test_creation_date_is_real_unless_source_date_epoch(tmp_path: Path, run_dir: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    _make(run_dir, tmp_path / "now.pdf")
    made = PdfReader(tmp_path / "now.pdf").metadata.creation_date  # type: ignore[union-attr]
    assert abs((made - dt.datetime.now(dt.UTC)).total_seconds()) < 600
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764115200")  # 2025-11-26 00:00 UTC
    _make(run_dir, tmp_path / "a.pdf")
    _make(run_dir, tmp_path / "b.pdf")
    fixed = PdfReader(tmp_path / "a.pdf").metadata.creation_date  # type: ignore[union-attr]
    assert fixed == dt.datetime(2025, 11, 26, tzinfo=dt.UTC)
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()
    assert json.loads((tmp_path / "a.used.json").read_text())["created_at"] == "2025-11-26T00:00:00+00:00"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    with pytest.raises(PublishError, match="SOURCE_DATE_EPOCH: 'yesterday' is not a whole number"):
        _make(run_dir, tmp_path / "c.pdf")
    assert not (tmp_path / "c.pdf").exists()


# ---------------------------------------------------------------------------------------------
# 3. Long strings never overprint
# ---------------------------------------------------------------------------------------------

LONG_TITLE = "The Complete and Unabridged Compendium of Number Place Puzzles for Long Winter Evenings"
LONG_SECTION = "Gentle puzzles for the first cup of coffee of a quiet Sunday morning in the garden"


LONG_JA = "毎日ナンプレ 傑作選 第1巻 初級から最難関までの全問題を一冊にまとめた決定版"


@pytest.mark.parametrize("title", [LONG_TITLE, LONG_JA])
@pytest.mark.parametrize("size", ["A5", "B6"])
def test_long_titles_and_section_names_never_overlap(title: str, size: str, tmp_path: Path, run_dir: Path) -> None:
    out = tmp_path / "long.pdf"
    made = _make(run_dir, out, title=title, page={"size": size}, per_page=1, answers={"per_page": 4},
                 sections=[{"title": LONG_SECTION, "levels": ["easy"]}, {"title": "残り", "count": 2}])
    width, height = layout.PAGE_MM[size][0] * MM, layout.PAGE_MM[size][1] * MM
    for k in (0, 2, 3, len(made) - 1):  # title page, a right-hand and a left-hand puzzle page, answers
        texts = [t for t in _texts(out, k) if t[0].strip()]
        assert texts
        for i, (a, box_a, _) in enumerate(texts):
            assert box_a[0] >= -0.01 and box_a[2] <= width + 0.01 and box_a[3] <= height, (k, a)
            for b, box_b, _ in texts[i + 1 :]:
                assert not _overlaps(box_a, box_b), (k, a, b)
    title_lines = [t for t in _texts(out, 0) if t[0].strip() and t[0].strip() in title]  # the title's lines
    assert len(title_lines) >= 2 and "".join(t[0] for t in title_lines).replace(" ", "") == title.replace(" ", "")
    rules = [o.get_bounds() for o in pdfium.PdfDocument(out)[0].get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_PATH])]
    rule = max(rules, key=lambda b: b[2] - b[0])
    assert rule[0] <= min(t[1][0] for t in title_lines) + 1 and rule[2] >= max(t[1][2] for t in title_lines) - 1


# ---------------------------------------------------------------------------------------------
# 4. Balanced pages, print-on-demand, page limits
# ---------------------------------------------------------------------------------------------


def _dark_rows(img: Any, x0: int, x1: int) -> list[int]:
    """Pixel rows where most of the span x0..x1 is dark (a rule or a grid's frame or box line)."""
    grey = img.convert("L")
    return [y for y in range(grey.height)
            if sum(grey.getpixel((x, y)) < 200 for x in range(x0, x1, 2)) > (x1 - x0) * 0.4]


def test_a_2_up_b5_page_is_balanced(tmp_path: Path, run_dir: Path) -> None:
    """Rendered and measured: the bands above, between and below the two grids (with their captions)
    are equal."""
    out = tmp_path / "b5.pdf"
    cfg = book.validate_config({"page": {"size": "B5"}, "per_page": 2})
    made = book.write_book(book.plan([run_dir], cfg), cfg, out)
    number = next(p.number for p in made if p.kind == "puzzles" and len(p.items) == 2)
    geo = book.Geometry.of(cfg.page)
    x0, y0, w, _h = geo.content(number)
    scale = 2.0
    img = pdfium.PdfDocument(out)[number - 1].render(scale=scale).to_pil()
    rows = _dark_rows(img, round((x0 + w * 0.3) * scale), round((x0 + w * 0.7) * scale))
    runs: list[list[int]] = []
    for y in rows:
        if runs and y - runs[-1][-1] <= 2:
            runs[-1].append(y)
        else:
            runs.append([y])
    lines = [sum(r) / len(r) / scale for r in runs]  # the head rule, then the rules of grid 1 and grid 2
    head, grids = lines[0], lines[1:]
    cut = max(range(1, len(grids)), key=lambda k: grids[k] - grids[k - 1])  # the widest gap: between the grids
    first_top, first_bottom, second_top, second_bottom = grids[0], grids[cut - 1], grids[cut], grids[-1]
    side = book.slots(geo, number, 2, book.CAPTION)[0].side
    assert first_bottom - first_top == pytest.approx(side, abs=1.5), lines
    assert second_bottom - second_top == pytest.approx(side, abs=1.5), lines
    bottom = geo.height - y0  # the content area's bottom, from the top
    bands = [first_top - head, second_top - (first_bottom + book.CAPTION), bottom - (second_bottom + book.CAPTION)]
    assert max(bands) - min(bands) < 2.5, bands  # within a few pixels (rules have width)
    assert min(bands) > 10


@pytest.mark.parametrize("size", list(layout.PAGE_MM))
@pytest.mark.parametrize("per_page", [1, 2, 4, 6, 12, 20])
def test_slots_share_the_free_height_equally(size: str, per_page: int) -> None:
    geo = book.Geometry.of(book.PageCfg(size=size))  # type: ignore[arg-type]
    caption = book.ANSWER_CAPTION if per_page > 6 else book.CAPTION
    s = book.slots(geo, 3, per_page, caption)
    x0, y0, w, h = geo.content(3)
    cols = layout.ARRANGEMENT[per_page][0]
    tops = sorted({round(v.y_top, 6) for v in s}, reverse=True)
    bands = [y0 + h - layout.HEAD_RULE - tops[0]]
    bands += [a - s[0].side - caption - b for a, b in itertools.pairwise(tops)]
    bands.append(tops[-1] - s[0].side - caption - y0)
    assert max(bands) - min(bands) < 1e-3 and min(bands) > 0, bands
    assert all(x0 - 1e-6 <= v.x and v.x + v.side <= x0 + w + 1e-6 for v in s) and len(s) == per_page
    assert len({round(v.x, 6) for v in s}) == cols


def test_print_on_demand_margins_grow_with_the_page_count() -> None:
    page = book.PageCfg(size="6x9in", margins=book.Margins(top=3, bottom=3, inside=3, outside=3))
    small, big = book.Geometry.of(page, "print-on-demand", 100), book.Geometry.of(page, "print-on-demand", 800)
    assert (small.inside, big.inside) == pytest.approx((0.375 * 72, 0.875 * 72))
    assert [layout.gutter_in(p) for p in (24, 150, 151, 300, 301, 500, 501, 700, 701, 828)] == [
        0.375, 0.375, 0.5, 0.5, 0.625, 0.625, 0.75, 0.75, 0.875, 0.875]
    assert min(small.outside, small.top, small.bottom) == pytest.approx(0.25 * 72)
    bled = book.Geometry.of(page.model_copy(update={"bleed": 3.175}), "print-on-demand", 100)
    assert bled.outside == pytest.approx(0.375 * 72)
    with pytest.raises(PublishError, match=r"^page\.marks: the print-on-demand preset sends files without"):
        book.validate_config({"preset": "print-on-demand", "page": {"marks": True}})


def test_a_print_on_demand_book_has_its_gutter_and_at_least_24_pages(tmp_path: Path, run_dir: Path) -> None:
    out = tmp_path / "pod.pdf"
    made = _make(run_dir, out, preset="print-on-demand", page={"size": "6x9in", "margins": {"inside": 2}})
    assert len(made) == 24 == len(PdfReader(out).pages) and made[-1].kind == "blank"
    page = next(p for p in made if p.kind == "puzzles" and p.number % 2 == 1)  # a right-hand page: gutter left
    paths = [o.get_bounds() for o in pdfium.PdfDocument(out)[page.number - 1].get_objects(
        filter=[pdfium_c.FPDF_PAGEOBJ_PATH])]
    head_rule = max((b for b in paths if b[3] - b[1] < 1), key=lambda b: b[3])  # the top-most thin line
    assert head_rule[0] == pytest.approx(0.375 * 72, abs=0.5)  # the content starts at the gutter, not at 2 mm
    assert head_rule[2] == pytest.approx(6 * 72 - 15 * MM, abs=0.5)  # the outside margin as configured (> 0.25 in)
    assert all(t[1][0] >= 0.375 * 72 - 0.5 for t in _texts(out, page.number - 1))


def _sections(n: int) -> list[book.Section]:
    rows = tuple(fake_row("big", i, "easy") for i in range(n))
    return [book.Section("Easy", rows, tuple(range(1, n + 1)))]


def test_a_book_over_the_page_limit_is_refused_or_split() -> None:
    pod = book.validate_config({"preset": "print-on-demand", "per_page": 1})
    with pytest.raises(PublishError, match=r"^the book would have 9\d\d pages and the print-on-demand preset allows "
                                           r"at most 828: set split: true"):
        book.volumes(_sections(900), pod)
    parts = book.volumes(_sections(900), pod.model_copy(update={"split": True}))
    assert len(parts) == 2
    assert all(len(book.book_pages(p, pod)) <= 828 for p in parts)
    numbers = [n for p in parts for s in p for n in s.numbers]
    assert numbers == list(range(1, 901))  # every puzzle once, numbers run on across the volumes
    assert len(book.book_pages(parts[0], pod)) >= 824  # the first volume is full


@pytest.mark.deep
@pytest.mark.heavy
def test_volumes_on_the_command_line(tmp_path: Path, run_dir: Path) -> None:
    cfg = tmp_path / "b.yaml"
    cfg.write_text("max_pages: 8\nsplit: true\nlang: ja\n", encoding="utf-8")
    res = numplace("book", str(run_dir), "--out", str(tmp_path / "series.pdf"), "--config", str(cfg), "--per-page", "1")
    assert res.returncode == 0, res.stderr
    written = sorted(tmp_path.glob("series-vol*.pdf"))
    assert len(written) >= 2 and not (tmp_path / "series.pdf").exists()
    ids, firsts = [], []
    for k, pdf in enumerate(written, start=1):
        assert len(PdfReader(pdf).pages) <= 8
        used = json.loads(book.used_path(pdf).read_text(encoding="utf-8"))
        assert used["title"] == f"ナンプレ 第{k}巻"
        ids += used["puzzle_ids"]
        firsts.append(used["first_number"])
    assert len(ids) == len(set(ids)) == 12 and firsts[0] == 1 and firsts[1] > 1
    assert res.stdout.count("wrote ") == len(written)
    refused = numplace("book", str(run_dir), "--out", str(tmp_path / "x.pdf"), "--per-page", "1")
    assert refused.returncode == 0  # no limit without a preset or max_pages
    cfg.write_text("max_pages: 8\n", encoding="utf-8")
    refused = numplace("book", str(run_dir), "--out", str(tmp_path / "y.pdf"), "--config", str(cfg), "--per-page", "1")
    assert refused.returncode == 2 and "max_pages allows at most 8: set split: true" in refused.stderr
    assert not (tmp_path / "y.pdf").exists()


# ---------------------------------------------------------------------------------------------
# 5. Padding, blank pages, numbering across a series
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("signatures", "step"), [(False, 2), (True, 4)])
def test_page_count_is_padded_with_marked_blank_pages(signatures: bool, step: int, tmp_path: Path,
                                                      run_dir: Path) -> None:
    for per_page in (1, 2, 4, 6):
        out = tmp_path / f"{per_page}.pdf"
        made = _make(run_dir, out, per_page=per_page, signatures=signatures)
        assert len(made) % step == 0 and len(PdfReader(out).pages) == len(made)
        text = _page_text(out)
        for p in made:
            if p.kind == "blank":
                assert text[p.number - 1].strip() == "This page is intentionally left blank."
        assert [p.kind for p in made].count("blank") < step
        assert made[-1 - [p.kind for p in reversed(made)].index("answers")].kind == "answers"


def test_numbering_continues_from_the_used_list(tmp_path: Path, run_dir: Path) -> None:
    first = book.validate_config({"sections": [{"levels": ["easy"], "count": 3}]})
    book.make_books([run_dir], tmp_path / "one.pdf", first)
    used = json.loads((tmp_path / "one.used.json").read_text(encoding="utf-8"))
    assert (used["first_number"], used["last_number"]) == (1, 3)
    series = book.validate_config({"numbering": {"start": "continue"}})
    ids = set(used["puzzle_ids"])
    made = book.make_books([run_dir], tmp_path / "two.pdf", series, ids, [tmp_path / "one.used.json"])
    two = json.loads((tmp_path / "two.used.json").read_text(encoding="utf-8"))
    assert (two["first_number"], two["last_number"]) == (4, 12) and not ids & set(two["puzzle_ids"])
    assert "No. 4" in _page_text(made[0].path)[2]
    old = tmp_path / "old.used.json"  # a used list written before numbers were recorded: its ids count
    old.write_text(json.dumps({"puzzle_ids": [f"x-{i}" for i in range(120)]}), encoding="utf-8")
    assert book.next_number([old]) == 121
    assert book.plan([run_dir], book.validate_config({"numbering": {"start": 40}}))[0].numbers[0] == 40
    with pytest.raises(PublishError, match=r"numbering\.start"):
        book.validate_config({"numbering": {"start": "next"}})


# ---------------------------------------------------------------------------------------------
# 6-7. Words, ids and footer
# ---------------------------------------------------------------------------------------------


def test_a_japanese_book_prints_only_japanese_words(tmp_path: Path, run_dir: Path) -> None:
    out = tmp_path / "ja.pdf"
    _make(run_dir, out, lang="ja", show_ids=False, footer=False, title="毎日ナンプレ")
    text = "\n".join(_page_text(out))
    assert not re.search(r"[A-Za-z]", text), re.findall(r"[A-Za-z]+", text)
    for word in ("もくじ", "解答", "初級", "中級", "上級", "超上級", "最難関", "問題1", "ヒント数 28", "12問"):
        assert word in text, word
    assert "classic-0000000" in (tmp_path / "ja.used.json").read_text(encoding="utf-8")  # ids stay in used.json


def test_english_plurals_and_the_ids_and_footer_switches(tmp_path: Path, run_dir: Path) -> None:
    out = tmp_path / "en.pdf"
    _make(run_dir, out, sections=[{"title": "One", "levels": ["extreme"]}, {"title": "Rest"}])
    text = "\n".join(_page_text(out))
    assert "No. 1, 1 puzzle\n" in text and not re.search(r"\b1 puzzles", text) and "No. 2\u201312, 11 puzzles" in text
    assert "classic-0000005" in text and "numplace" in text
    assert labels.words("en").count(1, "hint") == "1 hint" and labels.words("en").count(2, "hint") == "2 hints"
    assert labels.words("ja").count(1, "puzzle") == "1問"
    _make(run_dir, tmp_path / "quiet.pdf", show_ids=False, footer=False)
    quiet = "\n".join(_page_text(tmp_path / "quiet.pdf"))
    assert "classic-" not in quiet and "numplace" not in quiet and "No. 12" in quiet


def test_labels_of_the_config_replace_the_languages_words() -> None:
    cfg = book.validate_config({"lang": "ja", "labels": {"answers": "こたえ", "levels": {"easy": "やさしい"}}})
    assert (cfg.words.answers, cfg.words.contents, cfg.level_name("easy"), cfg.level_name("hard")) == (
        "こたえ", "もくじ", "やさしい", "上級")
    old = book.validate_config({"labels": {"puzzles": "問", "hints": "ヒント"}})  # today's configs
    assert (old.counted(3, "puzzle"), old.counted(24, "hint"), old.prefix) == ("3 問", "24 ヒント", "No. ")
    with pytest.raises(ValueError, match="lang: 'fr' is not one of en, ja"):
        labels.words("fr")


@pytest.mark.deep
@pytest.mark.heavy
def test_lang_count_and_level_flags(tmp_path: Path, run_dir: Path) -> None:
    res = numplace("book", str(run_dir), "--out", str(tmp_path / "q.pdf"), "--lang", "ja", "--level", "easy,hard",
                   "--count", "5")
    assert res.returncode == 0, res.stderr
    used = json.loads((tmp_path / "q.used.json").read_text(encoding="utf-8"))
    frame = pl.read_parquet(next(run_dir.glob("*.parquet")))
    wanted = frame.filter(pl.col("difficulty").is_in(["easy", "hard"]))["puzzle_id"].to_list()[:5]
    assert sorted(used["puzzle_ids"]) == sorted(wanted)
    text = "\n".join(_page_text(tmp_path / "q.pdf"))
    assert "もくじ" in text and "初級" in text and "上級" in text and "中級" not in text
    bad = numplace("book", str(run_dir), "--out", str(tmp_path / "r.pdf"), "--level", "easy", "--count", "99")
    assert bad.returncode == 2 and "count: asks for 99 puzzles, only 4 left that match (levels easy)" in bad.stderr
    bad = numplace("book", str(run_dir), "--out", str(tmp_path / "r.pdf"), "--lang", "fr")
    assert bad.returncode == 2 and "lang: 'fr' is not allowed" in bad.stderr
    assert not (tmp_path / "r.pdf").exists()


# ---------------------------------------------------------------------------------------------
# 8. Variant books
# ---------------------------------------------------------------------------------------------


def test_a_variant_book_has_rules_names_and_readable_sums(tmp_path: Path) -> None:
    rows = [variant_row(k, i, hints=0 if k == "killer" else 24, cages="grown" if "killer" in k else None)
            for i, k in enumerate(("x", "hyper", "jigsaw", "killer"))]
    sets = [write_variant_set(tmp_path / "out", "variants", rows), write_set(tmp_path / "out", "classic", ["easy"])]
    out = tmp_path / "v.pdf"
    made = _make(sets, out, per_page=2)
    text = _page_text(out)
    rules = next(p for p in made if p.kind == "rules")
    assert rules.number == 3 and "Rules" in text[1]  # after the contents, listed in them
    flat = " ".join(text[2].split())
    for kind in ("x", "hyper", "jigsaw", "killer"):  # each variant: its name and its whole paragraph
        assert labels.words("en").variant_name((kind,)) in flat
        assert " ".join(labels.words("en").rule(kind).split()) in flat, kind
    rule_paths = list(pdfium.PdfDocument(out)[2].get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_PATH]))
    assert len(rule_paths) > 4 * 20  # four drawn examples (rules, frames, shading, cages)
    puzzles = "\n".join(text[p.number - 1] for p in made if p.kind == "puzzles")
    for name in ("X Sudoku", "Hyper Sudoku", "Jigsaw Sudoku", "Killer Sudoku"):
        assert puzzles.count(name) == 1, name
    assert "0 hints" not in puzzles and puzzles.count("24 hints") == 3
    answers = [p for p in made if p.kind == "answers"]
    sums = 0
    for p in answers:
        for txt, _box, size in _texts(out, p.number - 1):
            if txt.strip().isdigit() and size < 10:  # cage sums: the small digits on an answer page
                assert size >= pages.MIN_SUM, (txt, size)
                sums += 1
    assert sums >= 10
    assert book.answers_per_page(book.plan(sets, book.validate_config({})), book.validate_config({})) < 12


def test_rule_examples_are_drawn_from_valid_pieces() -> None:
    for kind in pages.RULE_KINDS:
        art = pages.example_art(kind)
        assert art.variant.kinds == (kind,)
        if kind == "killer":  # a solved 4x4: every cage's digits distinct and adding up to its sum
            digits = {(m.row, m.col): int(m.symbol) for m in art.marks}
            for cage in art.variant.cages:
                got = [digits[divmod(i, 4)] for i in cage.cells]
                assert sum(got) == cage.total and len(set(got)) == len(got)
            assert sorted(i for c in art.variant.cages for i in c.cells) == list(range(16))
        else:  # the digits fill one unit of the variant: 1-9 once each
            assert sorted(m.symbol for m in art.marks) == list("123456789")
    render.grid_art("." * 81, 3, 3, variant=pages.example_art("jigsaw").variant)  # the jigsaw layout is valid


# ---------------------------------------------------------------------------------------------
# 9. Quick books, score order
# ---------------------------------------------------------------------------------------------


def test_default_books_order_by_score_within_a_level(tmp_path: Path) -> None:
    rows = [fake_row("scored", i, ["easy", "hard"][i % 2]) for i in range(10)]
    for i, r in enumerate(rows):
        r["difficulty_score"] = 1000.0 - 10 * i  # later rows are easier within their level
    run = tmp_path / "out" / "scored" / "20261122T000000Z-01234567"
    run.mkdir(parents=True)
    pl.DataFrame(rows, schema=SCHEMA).write_parquet(run / "part-00000.parquet")
    (run / "manifest.json").write_text(json.dumps({"config": {"name": "scored"}, "status": "complete", "count": 10,
                                                   "start": 0, "totals": {}, "shards": {}}), encoding="utf-8")
    sections = book.plan([run], book.validate_config({}))
    for s in sections:
        scores = [r["difficulty_score"] for r in s.rows]
        assert scores == sorted(scores) and len(scores) == 5
    quick = book.plan([run], book.validate_config({"levels": ["hard"], "count": 3}))
    assert [s.title for s in quick] == ["Hard"] and [r["index"] for r in quick[0].rows] == [5, 3, 1]
    with pytest.raises(PublishError, match=r"^count: narrows a book without sections"):
        book.validate_config({"count": 3, "sections": [{"levels": ["easy"]}]})
