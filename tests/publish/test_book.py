"""Books: the config (strict, one-line errors), the choice of puzzles (sections, each puzzle once,
exclusion), and the PDF itself, read back with pypdf (text, fonts, boxes) and pypdfium2 (text in a
known cell, pages rendered to pixels)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from pipeline.publish import book
from pipeline.publish.select import PublishError
from tests.conftest import numplace, tiny
from tests.publish.test_select import write_set

# 24 puzzles across the levels, shuffled (the book must put them in order)
LEVELS_24 = ["hard", "easy", "extreme", "medium", "easy", "expert", "easy", "medium", "hard", "easy", "easy",
             "medium", "expert", "hard", "easy", "medium", "easy", "hard", "medium", "extreme", "easy", "hard",
             "medium", "expert"]
TITLE = "ナンプレ傑作選 第1巻"
BASE14 = {"Helvetica", "Times-Roman", "Courier", "Symbol", "ZapfDingbats"}


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    return write_set(tmp_path / "out", "classic", LEVELS_24)  # type: ignore[arg-type]


def _write_yaml(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def _text(pdf: Path) -> list[str]:
    return [p.extract_text() for p in PdfReader(pdf).pages]


def _fonts(pdf: Path) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for page in PdfReader(pdf).pages:
        for ref in (page["/Resources"].get("/Font") or {}).values():  # type: ignore[union-attr]
            font = ref.get_object()
            found[str(font["/BaseFont"])] = font
    return found


# ---------------------------------------------------------------------------------------------
# Config
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "message"), [
    ("titel: x\n", "titel: unknown key (did you mean title?)"),
    ("page: {size: B4}\n", "page.size: 'B4' is not allowed; input should be 'A4', 'B5', 'A5', 'B6', 'Letter', "
                            "'5x8in', '5.5x8.5in', '6x9in', '7x10in', '8x10in', '8.25x11in' or '8.5x11in'"),
    ("page: {margins: {inside: -1}}\n", "page.margins.inside: Input should be greater than or equal to 0"),
    ("per_page: 3\n", "per_page: 3 is not allowed; input should be 1, 2, 4 or 6"),
    ("sections:\n  - {levels: [hard]}\n  - {levels: [easy], cout: 2}\n", "sections[1].cout: unknown key (did you "
                                                                          "mean count?)"),
    ("sections:\n  - {levels: [legendary]}\n", "sections[0].levels[0]: 'legendary' is not allowed; input should be "
                                               "'easy', 'medium', 'hard', 'expert' or 'extreme'"),
    ("sections:\n  - {score: {min: 900, max: 100}}\n", "sections[0].score: min (900) is greater than max (100)"),
    ("sections:\n  - {count: '3'}\n", "sections[0].count: Input should be a valid integer"),
    ("sections: []\n", "sections: List should have at least 1 item after validation, not 0"),
    ("answers: {per_page: 7}\n", "answers.per_page: 7 is not allowed; input should be 4, 6, 9, 12, 16 or 20"),
    ("labels: {levels: {hardest: x}}\n", "labels.levels.hardest: 'hardest' is not allowed; input should be "
                                         "'easy', 'medium', 'hard', 'expert' or 'extreme'"),
    ("title: a\ntitle: b\n", "line 2: duplicate key 'title'"),  # the run config's reader
    ("a: &x 1\nb: *x\n", "line 2: alias *x: aliases are not allowed in a config (write the value out)"),
    ("title: [\n", "line 2: expected the node content, but found '<stream end>'"),
    ("- a\n", "book config must be a mapping of keys (title, page, sections, ...)"),
])
def test_config_errors_are_one_line(tmp_path: Path, text: str, message: str) -> None:
    path = _write_yaml(tmp_path / "book.yaml", text)
    with pytest.raises(PublishError) as err:
        book.load_config(path)
    assert str(err.value).removeprefix(f"{path}:").strip() == message
    assert "\n" not in str(err.value)


def test_config_defaults_and_overrides(tmp_path: Path) -> None:
    cfg = book.load_config(None)
    assert (cfg.page.size, cfg.per_page, cfg.answers.include, cfg.title) == ("A4", 4, True, "ナンプレ")
    path = _write_yaml(tmp_path / "b.yaml", "title: x\nper_page: 2\nlabels: {levels: {easy: 初級}}\n")
    cfg = book.load_config(path, {"title": TITLE, "per_page": None})
    assert (cfg.title, cfg.per_page, cfg.level_name("easy"), cfg.level_name("hard")) == (TITLE, 2, "初級", "Hard")
    with pytest.raises(PublishError, match="book config file not found"):
        book.load_config(tmp_path / "missing.yaml")


# ---------------------------------------------------------------------------------------------
# Choosing the puzzles
# ---------------------------------------------------------------------------------------------


def test_default_sections_go_easy_to_extreme(run_dir: Path) -> None:
    sections = book.plan([run_dir], book.load_config(None))
    assert [s.title for s in sections] == ["Easy", "Medium", "Hard", "Expert", "Extreme"]
    assert [len(s.rows) for s in sections] == [8, 6, 5, 3, 2]
    assert [n for s in sections for n in s.numbers] == list(range(1, 25))
    for s in sections:  # within a section, the sets' order (index)
        idx = [r["index"] for r in s.rows]
        assert idx == sorted(idx)


def test_sections_take_each_puzzle_once(tmp_path: Path, run_dir: Path) -> None:
    cfg = book.validate_config({"sections": [
        {"title": "Warm-up", "levels": ["easy"], "count": 3},
        {"title": "Mixed", "levels": ["easy", "medium", "hard"], "count": 6},
        {"title": "Hard only", "score": {"min": 1000}},
    ], "numbering": {"start": 101}})
    sections = book.plan([run_dir], cfg)
    ids = [r["puzzle_id"] for s in sections for r in s.rows]
    assert len(ids) == len(set(ids)) == 3 + 6 + 8  # Mixed took 2 of the 5 hard: 3 hard + 3 expert + 2 extreme left
    mixed = [r["difficulty"] for r in sections[1].rows]
    assert mixed == sorted(mixed, key=["easy", "medium", "hard"].index)  # shown easy -> hard
    assert sections[0].numbers == (101, 102, 103) and sections[2].numbers[-1] == 101 + len(ids) - 1
    too_many = book.validate_config({"sections": [{"levels": ["extreme"], "count": 3}]})
    with pytest.raises(PublishError, match=r"^sections\[0\] \(Extreme\): asks for 3 puzzles, only 2 left"):
        book.plan([run_dir], too_many)
    gone = book.validate_config({"sections": [{"levels": ["expert"]}, {"title": "More", "levels": ["expert"]}]})
    with pytest.raises(PublishError, match=r"^sections\[1\] \(More\): no puzzle left that matches \(levels expert\)"):
        book.plan([run_dir], gone)


def test_exclusion(run_dir: Path) -> None:
    first = book.plan([run_dir], book.validate_config({"sections": [{"levels": ["easy"], "count": 5}]}))
    used = {r["puzzle_id"] for s in first for r in s.rows}
    rest = book.plan([run_dir], book.load_config(None), exclude=used)
    assert not used & {r["puzzle_id"] for s in rest for r in s.rows}
    assert sum(len(s.rows) for s in rest) == 24 - 5
    everything = {r["puzzle_id"] for s in book.plan([run_dir], book.load_config(None)) for r in s.rows}
    with pytest.raises(PublishError, match="the book would be empty"):
        book.plan([run_dir], book.load_config(None), exclude=everything)


# ---------------------------------------------------------------------------------------------
# The PDF
# ---------------------------------------------------------------------------------------------


@pytest.mark.heavy
def test_the_pdf(tmp_path: Path, run_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764115200")  # reproducible: the same bytes twice
    cfg = book.load_config(None, {"title": TITLE})
    sections = book.plan([run_dir], cfg)
    out = tmp_path / "b" / "book.pdf"
    pages = book.write_book(sections, cfg, out, [run_dir])
    expected = 2 + sum(math.ceil(len(s.rows) / 4) for s in sections) + math.ceil(24 / 12)
    assert len(pages) == expected == len(PdfReader(out).pages) == 12

    text = _text(out)
    assert TITLE in text[0] and TITLE in PdfReader(out).metadata.title  # type: ignore[union-attr]
    assert "Contents" in text[1] and "Answers" in text[1]
    ids = [r["puzzle_id"] for s in sections for r in s.rows]
    puzzle_text = "\n".join(t for t, p in zip(text, pages, strict=True) if p.kind == "puzzles")
    answer_text = "\n".join(t for t, p in zip(text, pages, strict=True) if p.kind == "answers")
    for pid in ids:  # every puzzle once among the puzzles, once among the answers
        assert puzzle_text.count(pid) == 1 and answer_text.count(pid) == 1, pid

    fonts = _fonts(out)
    assert {name.split("+")[-1] for name in fonts} == {"IPAexGothic", "DejaVuSans-Bold", "DejaVuSans"}
    for name, font in fonts.items():  # every font embedded (a subset), none of the viewer's base 14
        assert name.split("+")[-1] not in BASE14
        descriptor = font["/FontDescriptor"].get_object()
        assert "/FontFile2" in descriptor, name
        assert "+" in name  # subset tag

    used = json.loads((tmp_path / "b" / "book.used.json").read_text(encoding="utf-8"))
    assert used["puzzle_ids"] == ids and len(set(ids)) == 24 and used["pdf"] == "book.pdf"

    again = tmp_path / "again.pdf"
    book.write_book(sections, cfg, again)
    assert again.read_bytes() == out.read_bytes()  # the same inputs and SOURCE_DATE_EPOCH, the same bytes


def test_digits_are_in_their_cells(tmp_path: Path, run_dir: Path) -> None:
    """Text positions (pypdfium2) and pixels (a rendered page) agree with the known puzzle."""
    cfg = book.load_config(None)
    sections = book.plan([run_dir], cfg)
    out = tmp_path / "book.pdf"
    pages = book.write_book(sections, cfg, out)
    page_no = next(p.number for p in pages if p.kind == "puzzles")
    row, number = pages[page_no - 1].items[0]
    assert number == 1 and row["difficulty"] == "easy"
    slot = book.slots(book.Geometry.of(cfg.page), page_no, cfg.per_page, book.CAPTION)[0]
    pdf = pdfium.PdfDocument(out)
    page = pdf[page_no - 1]
    texts = page.get_textpage()
    n, cell = 9, slot.side / 9
    scale = 2.0
    image = page.render(scale=scale).to_pil().convert("L")
    height_pt = page.get_height()
    assert image.size == (round(page.get_width() * scale), round(height_pt * scale))
    assert {row["puzzle"][i] == "." for i in range(0, 81, 7)} == {True, False}  # cropped: blanks and givens
    for i, ch in enumerate(row["puzzle"]):
        r, c = divmod(i, n)
        left, top = slot.x + c * cell, slot.y_top - r * cell
        found = texts.get_text_bounded(left + 2, top - cell + 2, left + cell - 2, top - 2).strip()
        assert found == ("" if ch == "." else ch), (r, c)
        if i % 7 == 0:  # crop the cell from the rendered page: ink iff a given
            box = tuple(round(v * scale) for v in (left + cell * 0.25, height_pt - top + cell * 0.25,
                                                    left + cell * 0.75, height_pt - top + cell * 0.75))
            ink = sum(1 for v in image.crop(box).tobytes() if v < 128)
            assert (ink > 5) == (ch != "."), (r, c, ink)
    image.save(tmp_path / "page.png")
    assert (tmp_path / "page.png").stat().st_size > 10_000


def test_page_sizes_bleed_and_a_16x16_page(tmp_path: Path, run_dir: Path) -> None:
    giant = write_set(tmp_path / "out", "giant", ["extreme", "extreme"], size=16)
    cfg = book.validate_config({"page": {"size": "B5", "bleed": 3}, "per_page": 2, "title_page": False,
                                "contents": False, "answers": {"include": False}})
    out = tmp_path / "g.pdf"
    pages = book.write_book(book.plan([giant], cfg), cfg, out)
    assert [p.kind for p in pages] == ["puzzles", "blank"]  # padded to an even count
    reader = PdfReader(out)
    mm = 72 / 25.4
    media = [float(v) for v in reader.pages[0].mediabox]
    assert media[2] == pytest.approx((182 + 6) * mm, abs=0.01) and media[3] == pytest.approx((257 + 6) * mm, abs=0.01)
    trim = [float(v) for v in reader.pages[0].trimbox]
    assert trim == pytest.approx([3 * mm, 3 * mm, 185 * mm, 260 * mm], abs=0.01)
    row = pages[0].items[0][0]
    slot = book.slots(book.Geometry.of(cfg.page), 1, 2, book.CAPTION)[0]
    texts = pdfium.PdfDocument(out)[0].get_textpage()
    cell = slot.side / 16
    letters = 0
    for i, ch in enumerate(row["puzzle"]):
        if ch in "ABCDEFG":  # the letters of 16x16 land in their cells (the page is shifted by the bleed)
            r, c = divmod(i, 16)
            left, top = 3 * mm + slot.x + c * cell, 3 * mm + slot.y_top - r * cell
            assert texts.get_text_bounded(left + 1, top - cell + 1, left + cell - 1, top - 1).strip() == ch
            letters += 1
    assert letters > 0  # the loop checked some letters
    for size, (w, h) in book.PAGE_MM.items():
        g = book.Geometry.of(book.PageCfg(size=size))  # type: ignore[arg-type]
        assert (g.width, g.height) == pytest.approx((w * mm, h * mm))
        for k in (1, 2, 4, 6):
            for s in book.slots(g, 3, k, book.CAPTION):  # every grid and caption inside the margins
                x0, y0, cw, ch_ = g.content(3)
                assert x0 - 0.01 <= s.x and s.x + s.side <= x0 + cw + 0.01
                assert s.y_top <= y0 + ch_ and s.y_top - s.side - book.CAPTION >= y0 - 0.01


@pytest.mark.deep
@pytest.mark.heavy
def test_cli_book_and_exclude(tmp_path: Path, run_dir: Path) -> None:
    cfg = _write_yaml(tmp_path / "book.yaml", "sections:\n  - {title: 初級, levels: [easy], count: 4}\n"
                                              "  - {title: 上級, levels: [hard, expert, extreme]}\n")
    first = numplace("book", str(run_dir), "--out", str(tmp_path / "one.pdf"), "--config", str(cfg),
                     "--title", TITLE, "--per-page", "6")
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip() == (f"wrote {tmp_path / 'one.pdf'}: 8 pages, 14 puzzles; "
                                    f"ids in {tmp_path / 'one.used.json'}")
    text = _text(tmp_path / "one.pdf")
    assert TITLE in text[0] and "初級" in text[1] and "上級" in text[1]
    second = numplace("book", str(run_dir), "--out", str(tmp_path / "two.pdf"),
                      "--exclude", str(tmp_path / "one.used.json"))
    assert second.returncode == 0, second.stderr
    one = json.loads((tmp_path / "one.used.json").read_text())["puzzle_ids"]
    two = json.loads((tmp_path / "two.used.json").read_text())["puzzle_ids"]
    assert len(one) == 14 and len(two) == 10 and not set(one) & set(two)
    bad = numplace("book", str(run_dir), "--out", str(tmp_path / "bad.pdf"), "--per-page", "5")
    assert bad.returncode == 2 and bad.stderr == "numplace: error: per_page: 5 is not allowed; input should be " \
                                                 "1, 2, 4 or 6\n"
    notpdf = numplace("book", str(run_dir), "--out", str(tmp_path / "book.txt"))
    assert notpdf.returncode == 2 and "a book is a .pdf file" in notpdf.stderr
    assert not (tmp_path / "bad.pdf").exists() and not (tmp_path / "book.txt").exists()


@pytest.mark.deep
@pytest.mark.heavy
def test_on_a_real_run(tmp_path: Path, write_config) -> None:  # type: ignore[no-untyped-def]
    """The three commands on a set that ``numplace run`` made (its manifest and parts as written)."""
    cfg = write_config(tiny(tmp_path / "out", count=6, board={"size": 6}))  # 6x6: no 9x9 tables to build
    assert numplace("run", str(cfg)).returncode == 0
    set_dir = tmp_path / "out" / "tiny"
    made = numplace("book", str(set_dir), "--out", str(tmp_path / "t.pdf"), "--title", TITLE)
    assert made.returncode == 0, made.stderr
    ids = json.loads((tmp_path / "t.used.json").read_text())["puzzle_ids"]
    assert sorted(ids) == [f"tiny-{i:07d}" for i in range(6)]
    text = "\n".join(_text(tmp_path / "t.pdf"))
    assert TITLE in text and all(text.count(pid) == 2 for pid in ids)
    assert numplace("export", str(set_dir), "--format", "jsonl", "--out", str(tmp_path / "t.jsonl")).returncode == 0
    assert len((tmp_path / "t.jsonl").read_text().splitlines()) == 6
    rep = numplace("report", str(set_dir), "--out", str(tmp_path / "t.html"))
    assert rep.returncode == 0, rep.stderr
    assert "tiny: 6 puzzles in 1 run(s)" in (tmp_path / "t.html").read_text()
