"""Files a print-on-demand service and an offset printer accept, books sectioned by variant, and
exports an app can trust (issue 40). Every check reads the written files back: text positions and
page boxes from the PDF (pypdfium2, pypdf), PNG chunks and modes, exit codes and folder contents."""

from __future__ import annotations

import ctypes
import datetime as dt
import errno
import itertools
import json
import struct
import zlib
from pathlib import Path
from typing import Any

import polars as pl
import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pypdfium2.raw as pdfium_c  # type: ignore[import-untyped]
import pytest
from PIL import Image
from pypdf import PdfReader
from typer.testing import CliRunner

from pipeline import cli
from pipeline.publish import book, export, layout, linebreak, pages, render
from pipeline.publish.select import PublishError
from tests.cli.test_faults import small_fs  # noqa: F401  (the fixture: a real 200 KiB file system)
from tests.publish.test_book_print import _texts
from tests.publish.test_render_variants import variant_row, write_variant_set
from tests.publish.test_select import write_set

MM = 72 / 25.4
IN = 72.0
LEVELS_12 = ["easy", "medium", "hard", "easy", "expert", "extreme", "medium", "easy", "hard", "hard", "easy", "medium"]


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    return write_set(tmp_path / "out", "classic", LEVELS_12)  # type: ignore[arg-type]


def _make(paths: Path | list[Path], out: Path, **cfg: Any) -> list[book.Page]:
    config = book.validate_config(cfg)
    sets = paths if isinstance(paths, list) else [paths]
    return book.write_book(book.plan(sets, config), config, out)


def _invoke(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(cli.app, list(args))
    return res.exit_code, res.output


# ---------------------------------------------------------------------------------------------
# 1. Nothing printed closer to the trim than the service's minimum
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("bleed", "bottom"), [(0, 12), (3.175, 14.5), (0, 15)])
def test_nothing_printed_inside_the_print_on_demand_minimum(bleed: float, bottom: float, tmp_path: Path,
                                                            run_dir: Path) -> None:
    out = tmp_path / "pod.pdf"
    made = _make(run_dir, out, preset="print-on-demand", per_page=1, show_ids=True,
                 page={"size": "6x9in", "bleed": bleed, "margins": {"top": 12, "bottom": bottom, "inside": 10,
                                                                    "outside": 8}})
    safe = (0.375 if bleed else 0.25) * IN
    numbered = [p.number for p in made if p.kind in ("puzzles", "answers", "contents")]
    assert_inside_safe(out, safe, numbered, bottom)


def assert_inside_safe(out: Path, safe: float, numbered: list[int], bottom: float) -> None:
    """Every text and path of the PDF at ``out`` is at least ``safe`` points inside its page's TrimBox;
    pages ``numbered`` show their number above the safe line and under the ``bottom`` margin (mm)."""
    reader = PdfReader(out)
    checked = 0
    for index, page in enumerate(reader.pages):
        trim = [float(v) for v in page.trimbox]
        for text, (x0, y0, x1, y1), _size in _texts(out, index):
            if not text.strip():
                continue
            assert x0 - trim[0] >= safe - 0.5 and trim[2] - x1 >= safe - 0.5, (index + 1, text)
            assert y0 - trim[1] >= safe - 0.5 and trim[3] - y1 >= safe - 0.5, (index + 1, text, y0 - trim[1])
            checked += 1
        for obj in pdfium.PdfDocument(out)[index].get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_PATH]):
            x0, y0, x1, y1 = obj.get_bounds()  # rules, grids, cage outlines: inside the safe area too
            stroke = ctypes.c_float(0.0)
            pdfium_c.FPDFPageObj_GetStrokeWidth(obj.raw, ctypes.byref(stroke))
            room = min(x0 - trim[0], trim[2] - x1, y0 - trim[1], trim[3] - y1)
            # pdfium's bounds add the stroke's whole width on every side: a frame's ink reaches half of it
            # beyond the path, the butt-capped end of a rule none; so the ink is at least this far in
            assert room + stroke.value >= safe - 0.05, (index + 1, x0, y0)
            checked += 1
        if index + 1 in numbered:  # the page number: above the safe line, under the content
            number = min((b for t, b, _s in _texts(out, index) if t.strip() == str(index + 1)),
                         key=lambda b: b[1], default=None)  # the lowest such text (a grid may hold the digits)
            assert number and number[1] - trim[1] >= safe - 0.5 and number[3] - trim[1] <= bottom * MM
    assert checked > 100


@pytest.mark.parametrize(("preset", "bleed", "bottom", "least"), [
    ("print-on-demand", 3.175, 12, "14.2"), ("print-on-demand", 0, 7, "11"), ("none", 0, 5, "7.6")])
def test_a_bottom_margin_that_cannot_hold_the_page_number_is_refused(preset: str, bleed: float, bottom: float,
                                                                     least: str) -> None:
    with pytest.raises(PublishError, match=rf"^page\.margins\.bottom: {bottom:g} mm cannot hold the page number .*"
                                           rf"give at least {least} mm$"):
        book.validate_config({"preset": preset, "page": {"size": "6x9in", "bleed": bleed,
                                                         "margins": {"bottom": bottom}}})
    with pytest.raises(PublishError, match=r"^page\.margins\.outside: 2 mm is closer to the trim than the safe"):
        book.validate_config({"page": {"margins": {"outside": 2}}})


# ---------------------------------------------------------------------------------------------
# 2. Print-on-demand bleed: top, bottom and outside edge only
# ---------------------------------------------------------------------------------------------


def test_print_on_demand_bleed_is_on_three_sides(tmp_path: Path, run_dir: Path) -> None:
    out = tmp_path / "bleed.pdf"
    made = _make(run_dir, out, preset="print-on-demand", per_page=1,
                 page={"size": "6x9in", "bleed": 3.175, "margins": {"bottom": 15}})
    reader = PdfReader(out)
    assert len(reader.pages) == len(made) >= 24
    b = 0.125 * IN
    for k, page in enumerate(reader.pages):
        media = [float(v) for v in page.mediabox]
        trim = [float(v) for v in page.trimbox]
        bleed = [float(v) for v in page.bleedbox]
        assert media == pytest.approx([0, 0, 6.125 * IN, 9.25 * IN], abs=0.01)  # 441 x 666 pt
        x = 0.0 if k % 2 == 0 else b  # page 1 (index 0) is a right-hand page: its binding edge on the left
        assert trim == pytest.approx([x, b, x + 6 * IN, b + 9 * IN], abs=0.01)
        assert bleed == pytest.approx(media, abs=0.01)  # bleed on top, bottom and outside, none at the spine
    with pytest.raises(PublishError, match=r"^page\.bleed: print-on-demand interiors bleed 3\.175 mm"):
        book.validate_config({"preset": "print-on-demand", "page": {"bleed": 3, "margins": {"bottom": 15}}})


def test_offset_bleed_stays_on_four_sides() -> None:
    geo = layout.Geometry.of(book.PageCfg(size="6x9in", bleed=3))
    assert geo.media == pytest.approx((6 * IN + 6 * MM, 9 * IN + 6 * MM))
    assert geo.boxes(2)[1] == pytest.approx((0, 0, 6 * IN + 6 * MM, 9 * IN + 6 * MM))


# ---------------------------------------------------------------------------------------------
# 3. A type-size floor
# ---------------------------------------------------------------------------------------------


def test_type_too_small_is_refused_with_its_size(tmp_path: Path, run_dir: Path) -> None:
    with pytest.raises(PublishError, match=r"^per_page: 6 a page on B6 prints the 9x9 clue digits (\d\.\d) pt, "
                                           r"under the 7 pt floor") as err:
        _make(run_dir, tmp_path / "b6.pdf", per_page=6, page={"size": "B6", "margins": {"top": 10, "bottom": 10,
                                                                                     "inside": 10, "outside": 10}})
    assert float(err.value.args[0].split(" pt")[0].rsplit(" ", 1)[1]) < pages.MIN_DIGIT
    assert not (tmp_path / "b6.pdf").exists()


def test_answers_shrink_their_count_not_their_type(tmp_path: Path, run_dir: Path) -> None:
    out = tmp_path / "a.pdf"
    made = _make(run_dir, out, per_page=2, page={"size": "B6"}, answers={"per_page": 20})
    answer_pages = [p for p in made if p.kind == "answers"]
    assert answer_pages and max(len(p.items) for p in answer_pages) < 20
    sizes = [s for p in answer_pages for t, _b, s in _texts(out, p.number - 1) if t.strip().isdigit() and len(t) == 1]
    assert sizes and min(sizes) >= pages.MIN_ANSWER_DIGIT
    puzzle_sizes = [s for p in made if p.kind == "puzzles" for t, _b, s in _texts(out, p.number - 1)
                    if t.strip().isdigit() and len(t.strip()) == 1 and s > 5]
    assert min(puzzle_sizes) >= pages.MIN_DIGIT


# ---------------------------------------------------------------------------------------------
# 4. Sections by variant, each variant's rules once
# ---------------------------------------------------------------------------------------------


@pytest.fixture
def mixed(tmp_path: Path) -> list[Path]:
    rows = [variant_row(k, i, hints=24, cages="grown" if "killer" in k else None)
            for i, k in enumerate(("killer", "x", "killer", "x", "jigsaw"))]
    for r, level in zip(rows, ("hard", "easy", "easy", "hard", "hard"), strict=True):
        r["difficulty"] = level
    return [write_variant_set(tmp_path / "out", "variants", rows),
            write_set(tmp_path / "out", "classic", ["easy", "hard"])]


def test_sections_by_variant_each_with_its_rules_page_once(tmp_path: Path, mixed: list[Path]) -> None:
    out = tmp_path / "v.pdf"
    made = _make(mixed, out, per_page=2, sections=[{"variant": "classic"}, {"variant": "killer"},
                                                   {"variant": "x", "levels": ["easy"]},
                                                   {"variant": "x", "levels": ["hard"]}, {"variant": ["jigsaw"]}])
    kinds = [(p.kind, p.heading) for p in made if p.kind in ("rules", "puzzles") and p.starts_section]
    assert kinds == [("puzzles", "Classic Sudoku"), ("rules", "Rules: Killer Sudoku"), ("puzzles", "Killer Sudoku"),
                     ("rules", "Rules: X Sudoku"), ("puzzles", "X Sudoku · Easy"), ("puzzles", "X Sudoku · Hard"),
                     ("rules", "Rules: Jigsaw Sudoku"), ("puzzles", "Jigsaw Sudoku")]
    reader = PdfReader(out)
    for p in made:
        text = reader.pages[p.number - 1].extract_text()
        if p.kind == "puzzles":
            names = {n for n in ("Killer Sudoku", "X Sudoku", "Jigsaw Sudoku") if n in text.replace(p.heading, "")}
            assert len(names) <= 1, (p.heading, names)  # a section holds one variant
    rules_text = [" ".join(reader.pages[p.number - 1].extract_text().split()) for p in made if p.kind == "rules"]
    assert "add up to the small number" in rules_text[0] and "diagonals" not in rules_text[0]
    assert "diagonals" in rules_text[1] and "add up" not in rules_text[1]
    contents = reader.pages[1].extract_text()
    assert "Rules: Killer Sudoku" in contents and "X Sudoku · Hard" in contents
    with pytest.raises(PublishError, match=r"^sections\[0\] \(Killer Sudoku · Easy\): asks for 5 puzzles, only 1"):
        _make(mixed, tmp_path / "w.pdf", sections=[{"variant": "killer", "levels": ["easy"], "count": 5}])
    with pytest.raises(PublishError, match=r"^sections\[0\]\.variant"):
        book.validate_config({"sections": [{"variant": "sudoku"}]})


def test_group_by_variant_and_level(tmp_path: Path, mixed: list[Path]) -> None:
    cfg = book.validate_config({"group": "variant-level"})
    titles = [s.title for s in book.plan(mixed, cfg)]
    assert titles == ["Classic Sudoku · Easy", "Classic Sudoku · Hard", "X Sudoku · Easy", "X Sudoku · Hard",
                      "Jigsaw Sudoku · Hard", "Killer Sudoku · Easy", "Killer Sudoku · Hard"]
    made = book.book_pages(book.plan(mixed, cfg), cfg)
    assert [p.heading for p in made if p.kind == "rules"] == ["Rules: X Sudoku", "Rules: Jigsaw Sudoku",
                                                              "Rules: Killer Sudoku"]
    by_variant = book.validate_config({"group": "variant", "lang": "ja"})
    assert [s.title for s in book.plan(mixed, by_variant)] == ["ナンプレ", "対角線ナンプレ", "ジグソーナンプレ",
                                                               "キラーナンプレ"]


# ---------------------------------------------------------------------------------------------
# 5. Japanese line breaking
# ---------------------------------------------------------------------------------------------

TITLE_JA = "毎日ナンプレ 傑作選 第1巻 初級から上級まで"


def test_japanese_breaks_between_phrases_never_inside_a_word() -> None:
    pages.register_fonts()
    for room in range(150, 400, 10):
        lines = pages.wrap(TITLE_JA, 36, room, even=True)
        joined = "".join(lines).replace(" ", "")
        assert joined == TITLE_JA.replace(" ", "")
        for word in ("初級", "上級", "第1巻", "傑作選"):
            assert any(word in ln for ln in lines), (room, lines)
    rule = book.validate_config({"lang": "ja"}).words.rule("classic")
    for room in range(120, 420, 15):
        lines = pages.wrap(rule, 10.5, room)
        assert "".join(lines) == rule
        assert all(ln[0] not in linebreak.NO_START for ln in lines[1:]), lines
        assert all(not ln.endswith(("し", "入")) for ln in lines[:-1]), lines  # never "…ようにし / ます。"
        assert any(ln.endswith("ようにします。") for ln in lines)
    assert linebreak.phrases("とても難しい「問題」です。") == ["とても", "難しい", "「問題」", "です。"]
    english = pages.wrap("Number Place for Every Day: Twenty-Four Puzzles", 12, 120)
    assert len(english) > 1 and " ".join(english) == "Number Place for Every Day: Twenty-Four Puzzles"  # at spaces


def test_a_japanese_title_page_keeps_its_words_whole(tmp_path: Path, run_dir: Path) -> None:
    out = tmp_path / "ja.pdf"
    _make(run_dir, out, title=TITLE_JA, lang="ja", per_page=2, page={"size": "B5"})
    lines = [t for t, _b, s in _texts(out, 0) if s >= 20]
    assert "".join(lines).replace(" ", "") == TITLE_JA.replace(" ", "")
    assert all(w in "|".join(lines) for w in ("初級から", "上級まで", "第1巻"))


# ---------------------------------------------------------------------------------------------
# 6. PDF/X-1a, トンボ, right-side binding, the level of a single-level book
# ---------------------------------------------------------------------------------------------


def test_pdfx_1a_output_intent_and_version(tmp_path: Path, run_dir: Path) -> None:
    out = tmp_path / "x.pdf"
    made = _make(run_dir, out, pdfx="x-1a", page={"size": "B5", "bleed": 3, "marks": "tombo"})
    reader = PdfReader(out)
    assert out.read_bytes().startswith(b"%PDF-1.3")  # PDF 1.3: no transparency
    (intent,) = reader.trailer["/Root"]["/OutputIntents"]
    intent = intent.get_object()
    assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"] == "JC200103"
    assert intent["/RegistryName"] == "http://www.color.org"
    info = reader.metadata
    assert info["/GTS_PDFXVersion"] == "PDF/X-1:2001" and info["/GTS_PDFXConformance"] == "PDF/X-1a:2001"
    assert info["/Trapped"] == "/False" and info["/Title"]
    assert len(reader.pages) == len(made)
    for page in reader.pages:
        assert "/TrimBox" in page and "/BleedBox" in page
    with pytest.raises(PublishError, match=r"^pdfx: x-1a prints K only: colour must be gray"):
        book.validate_config({"pdfx": "x-1a", "colour": "rgb"})


def test_tombo_double_crop_marks_and_centre_marks(tmp_path: Path, run_dir: Path) -> None:
    geo = layout.Geometry.of(book.PageCfg(size="B5", bleed=3, marks="tombo"))
    lines = geo.crop_marks()
    assert len(lines) == 4 * 4 + 4 * 2  # four lines at each corner (double), two at each side's centre
    w, h, b = geo.width, geo.height, 3 * MM
    assert (0.0, -b, 0.0, -(max(layout.MARK_GAP, b) + layout.MARK_LENGTH)) in lines  # in line with the trim
    assert any(x0 == -b and y0 == -b for x0, y0, _x1, _y1 in lines)  # in line with the bleed edge
    assert any(x0 == x1 == w / 2 and y0 < 0 for x0, y0, x1, _y1 in lines)  # a centre mark under the page
    assert any(y0 == y1 == h / 2 and x0 > w for x0, y0, _x1, y1 in lines)  # ... and beside it
    out = tmp_path / "t.pdf"
    _make(run_dir, out, page={"size": "B5", "bleed": 3, "marks": "tombo"}, answers={"include": False})
    img = pdfium.PdfDocument(out)[2].render(scale=2).to_pil().convert("L")
    o = geo.outer
    mh = geo.media[1]
    for x, y in ((o + w / 2, o - b - 4 * MM), (o - b - 4 * MM, o + h / 2), (o - b, o - b - 5 * MM)):
        px, py = round(x * 2), round((mh - y) * 2)
        assert min(img.getpixel((px + dx, py + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)) < 128, (x, y)


def test_right_side_binding(tmp_path: Path, run_dir: Path) -> None:
    out = tmp_path / "r.pdf"
    made = _make(run_dir, out, binding="right", lang="ja", page={"size": "B5", "margins": {"inside": 25,
                                                                                          "outside": 10}})
    reader = PdfReader(out)
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Direction"] == "/R2L"
    page = next(p for p in made if p.kind == "puzzles" and p.number % 2 == 1)
    paths = [o.get_bounds() for o in pdfium.PdfDocument(out)[page.number - 1].get_objects(
        filter=[pdfium_c.FPDF_PAGEOBJ_PATH])]
    head_rule = max((b for b in paths if b[3] - b[1] < 1), key=lambda b: b[3])
    assert head_rule[0] == pytest.approx(10 * MM, abs=0.5)  # an odd page of a right-bound book: outside on the left
    assert head_rule[2] == pytest.approx(182 * MM - 25 * MM, abs=0.5)  # the binding on the right


def test_a_single_level_title_page_names_its_level(tmp_path: Path, run_dir: Path) -> None:
    out = tmp_path / "hard.pdf"
    _make(run_dir, out, levels=["hard"])
    assert "Hard" in PdfReader(out).pages[0].extract_text()
    _make(run_dir, tmp_path / "ja.pdf", levels=["expert"], lang="ja")
    assert "超上級" in PdfReader(tmp_path / "ja.pdf").pages[0].extract_text()


# ---------------------------------------------------------------------------------------------
# 8. Fewer than asked: the same rule for export and book
# ---------------------------------------------------------------------------------------------


def test_fewer_than_asked_is_an_error_unless_allowed(tmp_path: Path, run_dir: Path) -> None:
    code, output = _invoke("export", str(run_dir), "--format", "csv", "--out", str(tmp_path / "e.csv"),
                           "--level", "hard", "--count", "500")
    assert code == 2 and output.strip() == ("numplace: error: --count: asks for 500 puzzles, only 3 left that match "
                                            "(levels hard); pass --allow-fewer to take those")
    assert not (tmp_path / "e.csv").exists()
    code, output = _invoke("export", str(run_dir), "--format", "csv", "--out", str(tmp_path / "e.csv"),
                           "--level", "hard", "--count", "500", "--allow-fewer")
    assert code == 0 and pl.read_csv(tmp_path / "e.csv", infer_schema_length=0).height == 3
    code, output = _invoke("book", str(run_dir), "--out", str(tmp_path / "b.pdf"), "--level", "hard",
                           "--count", "500")
    assert code == 2 and "count: asks for 500 puzzles, only 3 left that match (levels hard)" in output
    assert not (tmp_path / "b.pdf").exists()
    code, output = _invoke("book", str(run_dir), "--out", str(tmp_path / "b.pdf"), "--level", "hard",
                           "--count", "500", "--allow-fewer")
    assert code == 0 and "3 puzzles" in output


# ---------------------------------------------------------------------------------------------
# 9. PNG resolution and colour, one default size
# ---------------------------------------------------------------------------------------------


def _chunks(path: Path) -> dict[bytes, bytes]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    out, k = {}, 8
    while k < len(data):
        (length,) = struct.unpack(">I", data[k : k + 4])
        kind, body = data[k + 4 : k + 8], data[k + 8 : k + 8 + length]
        assert struct.unpack(">I", data[k + 8 + length : k + 12 + length])[0] == zlib.crc32(kind + body)
        out.setdefault(kind, body)
        k += 12 + length
    return out


@pytest.mark.parametrize(("flags", "dpi", "colour_type"), [((), 96, 0), (("--size", "60mm"), 300, 0),
                                                           (("--colour", "rgb"), 96, 2)])
def test_png_says_its_resolution_and_is_grey(flags: tuple[str, ...], dpi: int, colour_type: int, tmp_path: Path,
                                             run_dir: Path) -> None:
    code, output = _invoke("export", str(run_dir), "--format", "png", "--out", str(tmp_path / "png"), "--count", "2",
                           "--solutions", *flags)
    assert code == 0, output
    files = sorted((tmp_path / "png").iterdir())
    assert len(files) == 4
    for f in files:
        chunks = _chunks(f)
        ppm_x, ppm_y, unit = struct.unpack(">IIB", chunks[b"pHYs"])
        assert unit == 1 and ppm_x == ppm_y == round(dpi / 0.0254)
        assert chunks[b"IHDR"][9] == colour_type  # 0: greyscale, 2: RGB
        with Image.open(f) as img:
            assert img.mode == ("L" if colour_type == 0 else "RGB")
            assert round(img.info["dpi"][0]) == dpi


def test_unsized_svg_and_png_have_one_default_size(tmp_path: Path, run_dir: Path) -> None:
    for fmt in ("svg", "png"):
        assert _invoke("export", str(run_dir), "--format", fmt, "--out", str(tmp_path / fmt), "--count", "1")[0] == 0
    (svg,), (png,) = (tmp_path / "svg").iterdir(), (tmp_path / "png").iterdir()
    head = svg.read_text(encoding="utf-8").split(">", 1)[0]
    with Image.open(png) as img:
        assert img.size == (export.png_side(9), export.png_side(9)) == (440, 440)
        assert round(img.info["dpi"][0]) == 96
    assert 'width="440" height="440"' in head  # CSS px: 440 / 96 in, the PNG's printed size


# ---------------------------------------------------------------------------------------------
# 10. Whole or nothing, and a full disk is exit 4
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["png", "svg", "pdf"])
def test_a_full_disk_leaves_nothing_and_exits_4(fmt: str, tmp_path: Path, run_dir: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    calls = {"n": 0}
    real_save, real_write = Image.Image.save, Path.write_text
    real_pdf = render.draw_pdf

    def count() -> None:
        calls["n"] += 1
        if calls["n"] >= 3:  # two files fit, the third does not
            raise OSError(errno.ENOSPC, "No space left on device")

    def save(self: Image.Image, fp: Any, *a: Any, **kw: Any) -> None:
        count()
        real_save(self, fp, *a, **kw)

    def write_text(self: Path, *a: Any, **kw: Any) -> int:
        count()
        return real_write(self, *a, **kw)

    def draw_pdf(*a: Any, **kw: Any) -> None:
        count()
        real_pdf(*a, **kw)

    monkeypatch.setattr(Image.Image, "save", save)
    monkeypatch.setattr(Path, "write_text", write_text)
    monkeypatch.setattr(render, "draw_pdf", draw_pdf)
    target = tmp_path / "x"
    code, output = _invoke("export", str(run_dir), "--format", fmt, "--out", str(target), "--count", "5")
    monkeypatch.undo()
    assert code == cli.ExitCode.DISK_FULL == 4, output
    assert output.strip() == f"numplace: error: no space left on {target}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no folder, no staging folder left
    # an existing folder keeps what it had
    target.mkdir()
    (target / "old.txt").write_text("kept")
    calls["n"] = 0
    monkeypatch.setattr(Image.Image, "save", save)
    monkeypatch.setattr(Path, "write_text", write_text)
    monkeypatch.setattr(render, "draw_pdf", draw_pdf)
    code, _ = _invoke("export", str(run_dir), "--format", fmt, "--out", str(target), "--count", "5")
    monkeypatch.undo()
    assert code == 4 and [p.name for p in target.iterdir()] == ["old.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "x"]
    code, output = _invoke("export", str(run_dir), "--format", fmt, "--out", str(target), "--count", "5")
    assert code == 0 and len(list(target.iterdir())) == 1 + 5 * (2 if fmt == "pdf" else 1) + (fmt == "pdf"), output


@pytest.mark.deep
def test_export_onto_a_real_full_file_system(small_fs: Path, run_dir: Path) -> None:  # noqa: F811
    target = small_fs / "png"
    code, output = _invoke("export", str(run_dir), "--format", "png", "--out", str(target), "--size", "20cm",
                           "--dpi", "600", "--solutions")
    assert code == 4, output
    assert output.strip() == f"numplace: error: no space left on {target}"
    assert list(small_fs.iterdir()) == []


# ---------------------------------------------------------------------------------------------
# 11. One creation-date rule; a closed, versioned JSON Schema
# ---------------------------------------------------------------------------------------------


def test_per_puzzle_pdfs_follow_the_creation_date_rule(tmp_path: Path, run_dir: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    frame = pl.read_parquet(next(run_dir.glob("part-*.parquet"))).head(1)
    export.export(frame, "pdf", tmp_path / "now")
    (pdf,) = (tmp_path / "now").glob("*[0-9].pdf")
    made = PdfReader(pdf).metadata.creation_date  # type: ignore[union-attr]
    assert abs((made - dt.datetime.now(dt.UTC)).total_seconds()) < 600  # not 2000-01-01
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764115200")
    export.export(frame, "pdf", tmp_path / "a")
    export.export(frame, "pdf", tmp_path / "b")
    (a,), (b,) = (tmp_path / "a").glob("*[0-9].pdf"), (tmp_path / "b").glob("*[0-9].pdf")
    assert PdfReader(a).metadata.creation_date == dt.datetime(2025, 11, 26, tzinfo=dt.UTC)  # type: ignore[union-attr]
    assert a.read_bytes() == b.read_bytes()


@pytest.mark.deep
def test_the_jsonl_schema_is_closed_and_versioned(tmp_path: Path, run_dir: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((Path(__file__).resolve().parents[2] / "schema" / "numplace-export.schema.json")
                        .read_text(encoding="utf-8"))
    assert schema["additionalProperties"] is False
    assert schema["$id"] == f"urn:numplace:export:v{schema['x-schema-version']}"
    jsonschema.Draft202012Validator.check_schema(schema)
    check = jsonschema.Draft202012Validator(schema)
    frame = pl.read_parquet(next(run_dir.glob("part-*.parquet"))).with_columns(pl.lit(1).alias("not_a_column"))
    export.export(frame, "jsonl", tmp_path / "e.jsonl", with_link=True, with_path=True)
    lines = [json.loads(x) for x in (tmp_path / "e.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 12 and "not_a_column" not in lines[0]
    assert [e.message for line in lines for e in check.iter_errors(line)] == []
    errors = [e.message for e in check.iter_errors(lines[0] | {"extra": 1})]
    assert errors == ["Additional properties are not allowed ('extra' was unexpected)"]


# ---------------------------------------------------------------------------------------------
# 7. Killer cage outlines: even inset, clean corners
# ---------------------------------------------------------------------------------------------


def test_cage_outlines_keep_an_even_gap_from_the_rules_ink() -> None:
    from pipeline.board import make_variant

    thin, thick, frame = 0.01, 0.04, 0.05
    d = render.CAGE_INSET
    art = render.grid_art("." * 81, 3, 3, variant=make_variant("killer", None, [((3, 12, 13), 9)]))
    ((_, (loop,)),) = art.cage_outlines((thin, thick, frame))
    # top edge on the frame, left edge on a box line, the rest on cell lines
    want = ((3 + d + thick, d + frame), (4 - d - thin, d + frame), (4 - d - thin, 1 + d + thin),
            (5 - d - thin, 1 + d + thin), (5 - d - thin, 2 - d - thin), (3 + d + thick, 2 - d - thin))
    assert [v for pt in loop for v in pt] == pytest.approx([v for pt in want for v in pt])
    ((_, (plain,)),) = art.cage_outlines()  # without rule widths: the inset from the lines' centres
    assert plain[0] == pytest.approx((3 + d, d))


def test_every_cage_corner_is_the_middle_of_a_dash() -> None:
    square = ((0.1, 0.1), (2.9, 0.1), (2.9, 1.9), (1.9, 1.9), (1.9, 0.9), (0.1, 0.9))  # with a concave corner
    pieces = render.dash_pieces(square, *render.CAGE_DASH)
    bends = [p[1] for p in pieces if len(p) == 3]
    assert sorted(bends) == sorted(square)  # each corner once, inside an L-shaped dash
    for p in pieces:
        if len(p) == 3:
            arm1 = abs(p[1][0] - p[0][0]) + abs(p[1][1] - p[0][1])
            arm2 = abs(p[2][0] - p[1][0]) + abs(p[2][1] - p[1][1])
            assert 0.3 * render.CAGE_DASH[0] < arm1 < render.CAGE_DASH[0] and arm1 == pytest.approx(arm2, rel=0.4)
    ink = sum(abs(b[0] - a[0]) + abs(b[1] - a[1]) for p in pieces for a, b in itertools.pairwise(p))
    perimeter = sum(abs(b[0] - a[0]) + abs(b[1] - a[1]) for a, b in zip(square, square[1:] + square[:1], strict=True))
    assert ink / perimeter == pytest.approx(render.CAGE_DASH[0] / sum(render.CAGE_DASH), rel=0.1)


def test_a_killer_page_at_300_dpi_has_ink_at_every_cage_corner(tmp_path: Path) -> None:
    row = variant_row("killer", 0, hints=0, cages="grown")
    run = write_variant_set(tmp_path / "out", "killer", [row | {"difficulty": "hard"}])
    out = tmp_path / "k.pdf"
    cfg = book.validate_config({"per_page": 1, "title_page": False, "contents": False, "rules_page": False,
                                "answers": {"include": False}})
    made = book.write_book(book.plan([run], cfg), cfg, out)
    page = next(p for p in made if p.kind == "puzzles")
    geo = layout.Geometry.of(cfg.page)
    slot = layout.slots(geo, page.number, 1, layout.CAPTION)[0]
    scale = 300 / 72
    img = pdfium.PdfDocument(out)[page.number - 1].render(scale=scale).to_pil().convert("L")
    art = render.art_of(row)
    cell = slot.side / 9
    thin, thick, frame = render.weights(slot.side)
    corners = [pt for _c, loops in art.cage_outlines((thin / 2 / cell, thick / 2 / cell, frame / 2 / cell))
               for loop in loops for pt in loop]
    assert len(corners) > 40
    patches = [render.sum_patch(art, r, c, t) for r, c, t in art.cage_sums()]
    checked = 0
    for cx, cy in corners:
        if any(x0 - 0.05 <= cx <= x1 + 0.05 and y0 - 0.05 <= cy <= y1 + 0.05 for x0, y0, x1, y1 in patches):
            continue  # a corner under a cage sum's patch
        px = round((slot.x + cx * cell) * scale)
        py = round((geo.height - (slot.y_top - cy * cell)) * scale)
        assert min(img.getpixel((px + dx, py + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)) < 100, (cx, cy)
        checked += 1
    assert checked > 30


def test_a_book_on_a_full_disk_exits_4_and_leaves_nothing(tmp_path: Path, run_dir: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from reportlab.pdfgen.canvas import Canvas

    def full(self: Canvas) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Canvas, "save", full)
    out = tmp_path / "b" / "book.pdf"
    code, output = _invoke("book", str(run_dir), "--out", str(out))
    monkeypatch.undo()
    assert code == 4 and output.strip() == f"numplace: error: no space left on {out}"
    assert list((tmp_path / "b").iterdir()) == []
