"""A technique workbook (``numplace book --workbook``, or a book config's ``workbook`` section): a
chapter per technique with a title, a short explanation and a worked example drawn from a real step,
then practice puzzles easiest first; the answers at the back, each with its key step drawn small.

Contracts
---------
* **Puzzles** come from the sets' rows made for a technique (the ``technique`` column,
  ``difficulty.technique``), minus the ``--exclude`` lists, each used once. A chapter takes the rows made
  for its technique, easiest first (``difficulty_score``, then the sets' order): the first is the worked
  example, the next ``workbook.per_technique`` the practice puzzles. A chapter that cannot be filled is
  one :class:`~pipeline.publish.select.PublishError` line naming it, never a shorter book; so is a set
  without the column, or a variant row (workbooks are classic 9x9 for now).
* **The key step** of a puzzle is the first step of its technique on the grade's path
  (:func:`pipeline.generate.technique.key_step`); the grid and the candidates drawn are the state just
  before it, replayed from the givens along the path (placements remove their digit from the peers).
* **Print**: like every book, grids are vectors, every colour DeviceGray (K only) unless ``colour: rgb``,
  fonts embedded; the worked example uses grey levels only: shaded pattern cells, bold candidates of the
  pattern, crossed-out eliminations. The page is laid out by the book's own
  :class:`~pipeline.publish.layout.Geometry`: the trim, margins mirrored on facing pages, bleed, crop
  marks (western or トンボ), the print-on-demand preset (its safe area, three-sided bleed and gutter for
  the page count), PDF/X and right-side binding, exactly as ``numplace book`` lays them out.
* **Output** is whole or nothing: the PDF and ``<stem>.used.json`` (the book's format: ids in book order,
  the example puzzles included, first and last numbers).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from pipeline import __version__
from pipeline.config import technique
from pipeline.publish import render
from pipeline.publish import workbook_text as text
from pipeline.publish.book_config import BookConfig
from pipeline.publish.export import write_file
from pipeline.publish.keystep import MIN_KEY_SIDE, MIN_TEXT, KeyStep, draw_step, effect_words, key_line, key_step
from pipeline.publish.keystep import step_words as step_words
from pipeline.publish.layout import Geometry
from pipeline.publish.layout import Page as BookPage
from pipeline.publish.pages import (
    SYMBOL,
    SYMBOL_BOLD,
    TEXT,
    begin_page,
    blank_page,
    fill,
    open_canvas,
    page_number,
    register_fonts,
    shorten,
    stars,
    stroke,
    wrap,
)
from pipeline.publish.select import PublishError, read_sets
from pipeline.publish.workbook_config import WorkbookCfg
from pipeline.run.sets import require_complete

N = 9
#: Practice puzzles a page -> (columns, rows).
_PRACTICE = {1: (1, 1), 2: (1, 2), 4: (2, 2), 6: (2, 3)}
#: An answer item: the solution grid's side as a fraction of the key-step grid's, the gap between them,
#: the caption under them (two lines) and the gap between two items side by side.
_ANSWER_RATIO, _ANSWER_GAP, _ANSWER_CAPTION, _ITEM_GAP = 0.62, 8.0, 26.0, 14.0
#: The note at the head of each answers page (lines of 7 pt) and the least practice puzzles a shorter
#: chapter (``--allow-fewer``) keeps.
_NOTE_SIZE, FEWEST_PRACTICE = 7.0, 1


@dataclass(frozen=True)
class Chapter:
    """One chapter: its technique, the worked example (row and key step), the practice rows with their
    numbers and key steps."""

    technique: str
    example: dict[str, Any]
    example_step: KeyStep
    rows: tuple[dict[str, Any], ...]
    numbers: tuple[int, ...]
    steps: tuple[KeyStep, ...]


# ---------------------------------------------------------------------------------------------
# Choosing the puzzles
# ---------------------------------------------------------------------------------------------


def plan(paths: Sequence[Path], cfg: BookConfig, exclude: set[str] | None = None, *,
         allow_fewer: bool = False) -> list[Chapter]:
    """The chapters of the workbook from the sets at ``paths`` minus ``exclude`` (module contracts);
    ``allow_fewer`` lets a chapter with fewer rows than it needs (but a worked example and at least one
    practice puzzle) take what there is."""
    wb = cfg.workbook if cfg.workbook is not None else WorkbookCfg()
    pool = read_sets(paths).frame
    if "technique" not in pool.columns or pool["technique"].null_count() == pool.height:
        raise PublishError("workbook: no puzzle of the sets was made for a technique (make them with "
                           "difficulty: {technique: NAME} or numplace generate --technique)")
    if exclude:
        pool = pool.filter(~pl.col("puzzle_id").is_in(list(exclude)))
    present = set(pool["technique"].drop_nulls().to_list())
    names = list(wb.techniques) if wb.techniques else [t for t in technique.OFFERED if t in present]
    need = wb.per_technique + 1
    chapters, number = [], 1
    for name in names:
        part = pool.filter(pl.col("technique") == name).with_row_index("_order").sort("difficulty_score", "_order")
        if part.height < need and not (allow_fewer and part.height > FEWEST_PRACTICE):
            hint = "; pass --allow-fewer for a shorter chapter" if part.height > FEWEST_PRACTICE else ""
            raise PublishError(f"workbook.techniques: {name} has {part.height} puzzles made for it left, a chapter "
                               f"needs {need} (a worked example and workbook.per_technique {wb.per_technique}){hint}")
        rows = part.drop("_order").head(need).to_dicts()
        for r in rows:
            if r.get("variant") or int(r["size"]) != N:
                raise PublishError(f"workbook: {r['puzzle_id']} is not a classic 9x9 puzzle (workbooks are "
                                   "classic 9x9)")
        practice = tuple(rows[1:])
        chapters.append(Chapter(name, rows[0], key_step(rows[0], name), practice,
                                tuple(range(number, number + len(practice))),
                                tuple(key_step(r, name) for r in practice)))
        number += len(practice)
    return chapters


# ---------------------------------------------------------------------------------------------
# Drawing
# ---------------------------------------------------------------------------------------------


#: The page count a workbook is planned for before it is counted: print-on-demand's widest gutter (the
#: gutter grows with the page count, so a plan that fits it fits the real one).
WIDEST = 828


def geometry(cfg: BookConfig, pages: int = WIDEST) -> Geometry:
    """The layout of a workbook of ``pages`` pages: the book's :class:`Geometry` of the config's
    ``page``, ``preset`` and ``binding``."""
    return Geometry.of(cfg.page, cfg.preset, pages if cfg.preset != "none" else 0, cfg.binding)


def _lines(text_: str, size: float, room: float, lang: str) -> list[str]:
    """``text_`` broken into lines of ``room`` points: English at spaces (the book's wrap); Japanese
    between any two characters (its spaces around Latin letters are no break points), never before
    closing punctuation."""
    if lang != "ja":
        return wrap(text_, size, room)
    from pipeline.publish.pages import width

    out, line = [], ""
    for ch in text_:
        if line and width(line + ch, size) > room and ch not in "、。）」』，．・：；？！":  # noqa: RUF001
            keep = len(line) - len(line.rstrip("「『（"))  # noqa: RUF001  (an opening bracket goes down with its word)
            out.append(line[:len(line) - keep].rstrip())
            line = line[len(line) - keep:] + ch.lstrip()
        else:
            line += ch
    return [*out, line] if line else out


def _head(canv: Any, cfg: BookConfig, geo: Geometry, number: int, words: str) -> float:
    """A running head on page ``number``; returns the y under it."""
    x, y, w, h = geo.content(number)
    canv.setFont(TEXT, 8.5)
    fill(canv, cfg, 0.0)
    canv.drawString(x, y + h - 9, shorten(words, 8.5, w))
    canv.setLineWidth(0.5)
    stroke(canv, cfg, 0.0)
    canv.line(x, y + h - 13, x + w, y + h - 13)
    return y + h - 24


@dataclass(frozen=True)
class _Page:
    kind: str  # title, contents, lesson, practice, answers, blank
    chapter: int = -1
    first: int = 0  # index of the first practice row / answer item on the page
    count: int = 0


@dataclass(frozen=True)
class AnswerLayout:
    """How answers sit on a page: ``cols`` items side by side, ``rows`` down; an item is the solution
    grid (side ``solution``) and the key-step grid (side ``key``, never under
    :data:`~pipeline.publish.keystep.MIN_KEY_SIDE`, so no candidate is under 5 pt), with two caption
    lines under them; ``note`` lines of the note at the head of the page."""

    cols: int
    rows: int
    key: float
    solution: float
    note: int

    @property
    def per_page(self) -> int:
        return self.cols * self.rows


def answer_layout(cfg: BookConfig, geo: Geometry) -> AnswerLayout:
    """The answers' layout on the content area of ``geo``: two items a row where the key-step grid
    still gets :data:`MIN_KEY_SIDE` that way, else one (its grid no larger than 1.3 times that)."""
    _, _, w, h = geo.content(1)
    note = len(_lines(text.PHRASES[cfg.lang]["answers_note"], _NOTE_SIZE, w, cfg.lang))
    cols, key = 2, (w - _ITEM_GAP) / 2
    if (key - _ANSWER_GAP) / (1 + _ANSWER_RATIO) < MIN_KEY_SIDE:
        cols, key = 1, w
    key = min((key - _ANSWER_GAP) / (1 + _ANSWER_RATIO), 1.3 * MIN_KEY_SIDE)
    solution = key * _ANSWER_RATIO
    if key < MIN_KEY_SIDE:  # a very narrow page: the key-step grid keeps its size, the solution gives way
        key, solution = MIN_KEY_SIDE, w - _ANSWER_GAP - MIN_KEY_SIDE
    room = h - 24 - note * _NOTE_SIZE * 1.4 - 6
    rows = max(1, int(room // (min(key, MIN_KEY_SIDE) + _ANSWER_CAPTION)))  # as many as fit at the least size
    if key > MIN_KEY_SIDE and rows * (key + _ANSWER_CAPTION) > room:  # then as large as that many allow
        key = max(MIN_KEY_SIDE, room / rows - _ANSWER_CAPTION)
        solution = key * _ANSWER_RATIO
    return AnswerLayout(cols, rows, key, solution, note)


def pages_of(chapters: Sequence[Chapter], cfg: BookConfig, geo: Geometry) -> list[_Page]:
    """Every page of the workbook, padded with blank pages (each saying so) to an even count (a
    multiple of 4 with ``signatures``) and to the preset's least page count (24 for print-on-demand);
    raises :class:`PublishError` when it has more pages than the preset or ``max_pages`` allows."""
    out = [_Page("title"), _Page("contents")]
    per = cfg.per_page
    for k, ch in enumerate(chapters):
        out.append(_Page("lesson", k))
        for first in range(0, len(ch.rows), per):
            out.append(_Page("practice", k, first, min(per, len(ch.rows) - first)))
    if cfg.answers.include:
        each = answer_layout(cfg, geo).per_page
        total = sum(len(ch.rows) for ch in chapters)
        for first in range(0, total, each):
            out.append(_Page("answers", -1, first, min(each, total - first)))
    fewest, most = cfg.page_limit()
    step = 4 if cfg.signatures else 2
    out += [_Page("blank")] * (math.ceil(max(len(out), fewest) / step) * step - len(out))
    if most is not None and len(out) > most:
        where = "the print-on-demand preset allows" if cfg.preset != "none" else "max_pages allows"
        raise PublishError(f"the workbook would have {len(out)} pages and {where} at most {most}: choose fewer "
                           "techniques or a smaller workbook.per_technique")
    return out


def _lang(cfg: BookConfig) -> str:
    return cfg.lang


def _title_page(canv: Any, cfg: BookConfig, geo: Geometry, chapters: Sequence[Chapter]) -> None:
    phr = text.PHRASES[_lang(cfg)]
    fill(canv, cfg, 0.0)
    x, y, w, h = geo.content(1)
    size = 26.0
    lines = wrap(cfg.title, size, w, even=True)
    top = y + h * 0.7
    for ln in lines:
        canv.setFont(TEXT, size)
        canv.drawCentredString(x + w / 2, top, ln)
        top -= size * 1.3
    n = sum(len(ch.rows) for ch in chapters)
    sub = cfg.subtitle or phr["subtitle"].format(t=len(chapters), p=n)
    canv.setFont(TEXT, 12)
    for ln in wrap(sub, 12, w):
        top -= 18
        canv.drawCentredString(x + w / 2, top, ln)
    if cfg.author:
        canv.setFont(TEXT, 11)
        canv.drawCentredString(x + w / 2, y + h * 0.25, cfg.author)
    if cfg.footer:  # the numplace line, as on a book's title page
        canv.setFont(TEXT, 7)
        canv.drawCentredString(x + w / 2, y, f"numplace {__version__}")


def _contents_page(canv: Any, cfg: BookConfig, geo: Geometry, number: int, chapters: Sequence[Chapter],
                   starts: dict[str, int]) -> None:
    lang = _lang(cfg)
    phr = text.PHRASES[lang]
    x, y, w, h = geo.content(number)
    top = y + h - 10
    fill(canv, cfg, 0.0)
    canv.setFont(TEXT, 16)
    canv.drawString(x, top - 16, cfg.words.contents)
    top -= 44
    for k, ch in enumerate(chapters):
        title, _ = text.lesson(ch.technique, lang)
        nums = f"{cfg.prefix}{ch.numbers[0]}\u2013{ch.numbers[-1]}"
        left = f"{phr['chapter'].format(k=k + 1)}  {title}   ({nums})"
        canv.setFont(TEXT, 11)
        canv.drawString(x, top, shorten(left, 11, w - 40))
        canv.drawRightString(x + w, top, str(starts[f"c{k}"]))
        top -= 20
    if "answers" in starts:
        canv.drawString(x, top - 6, cfg.words.answers)
        canv.drawRightString(x + w, top - 6, str(starts["answers"]))


def _lesson_page(canv: Any, cfg: BookConfig, geo: Geometry, number: int, k: int, ch: Chapter, cap: float) -> None:
    lang = _lang(cfg)
    phr = text.PHRASES[lang]
    title, body = text.lesson(ch.technique, lang)
    x, y, w, h = geo.content(number)
    fill(canv, cfg, 0.0)
    top = y + h
    canv.setFont(TEXT, 10)
    canv.drawString(x, top - 10, phr["chapter"].format(k=k + 1))
    canv.setFont(TEXT, 22)
    canv.drawString(x, top - 38, shorten(title, 22, w))
    canv.setLineWidth(1.0)
    stroke(canv, cfg, 0.0)
    canv.line(x, top - 46, x + w, top - 46)
    top -= 64
    for para, size in ((body, 10.5), (phr["intro"].format(title=title), 10.5)):
        canv.setFont(TEXT, size)
        for ln in _lines(para, size, w, lang):
            canv.drawString(x, top, ln)
            top -= size * 1.5
        top -= 6
    canv.setFont(TEXT, 12)
    canv.drawString(x, top - 8, phr["example"])
    top -= 20
    words = step_words(ch.example_step, lang)
    caption = _lines(words, 9, w, lang) + _lines(phr["legend"], 8, w, lang)
    room = top - y - 12 * len(caption) - 10
    side = max(MIN_KEY_SIDE, min(w * 0.85, room))  # candidates never under MIN_TEXT
    draw_step(canv, cfg, ch.example_step, x + (w - side) / 2, top, side, cap)
    top -= side + 14
    fill(canv, cfg, 0.0)
    for ln in _lines(words, 9, w, lang):
        canv.setFont(TEXT, 9)
        canv.drawString(x, top, ln)
        top -= 12
    fill(canv, cfg, 0.3)
    for ln in _lines(phr["legend"], 8, w, lang):
        canv.setFont(TEXT, 8)
        canv.drawString(x, top, ln)
        top -= 11


def _practice_page(canv: Any, cfg: BookConfig, geo: Geometry, number: int, k: int, ch: Chapter, page: _Page,
                   cap: float) -> None:
    lang = _lang(cfg)
    title, _ = text.lesson(ch.technique, lang)
    phr = text.PHRASES[lang]
    top = _head(canv, cfg, geo, number, f"{phr['chapter'].format(k=k + 1)}  {title} \u2014 {phr['practice']}")
    x, y, w, _ = geo.content(number)
    cols, rows = _PRACTICE[cfg.per_page]
    caption = 24.0
    cell_w, cell_h = w / cols, (top - y) / rows
    side = min(cell_w - 18, cell_h - caption - 14)
    for j in range(page.count):
        row = ch.rows[page.first + j]
        r, c = divmod(j, cols)
        gx = x + c * cell_w + (cell_w - side) / 2
        gy = top - r * cell_h - (cell_h - side - caption) / 2
        render.draw_pdf(canv, render.art_of(row), gx, gy, side, bold=SYMBOL_BOLD, regular=SYMBOL, cap_height=cap,
                        gray=cfg.colour == "gray")
        fill(canv, cfg, 0.0)
        canv.setFont(TEXT, 10)
        num = ch.numbers[page.first + j]
        canv.drawString(gx, gy - side - 13, f"{cfg.prefix}{num}")
        canv.setFont(TEXT, 8)
        level = row.get("difficulty")
        grade = f"{stars(level) if cfg.stars else ''} {cfg.level_name(level)}".strip()
        right = f"{grade}  {cfg.counted(int(row['hints']), 'hint')}"
        canv.drawRightString(gx + side, gy - side - 13, right)
        if cfg.show_ids:
            fill(canv, cfg, 0.4)
            canv.setFont(TEXT, 6)
            canv.drawString(gx, gy - side - 22, str(row["puzzle_id"]))


def _answers_page(canv: Any, cfg: BookConfig, geo: Geometry, number: int, chapters: Sequence[Chapter], page: _Page,
                  cap: float) -> None:
    lang = _lang(cfg)
    top = _head(canv, cfg, geo, number, cfg.words.answers)
    x, _, w, _ = geo.content(number)
    lay = answer_layout(cfg, geometry(cfg))  # the planned sizes (the page count's gutter only narrows)
    fill(canv, cfg, 0.3)
    for ln in _lines(text.PHRASES[lang]["answers_note"], _NOTE_SIZE, w, lang):
        canv.setFont(TEXT, _NOTE_SIZE)
        canv.drawString(x, top, ln)
        top -= _NOTE_SIZE * 1.4
    top -= 6
    item_w = lay.solution + _ANSWER_GAP + lay.key
    col_w = (w - (lay.cols - 1) * _ITEM_GAP) / lay.cols
    items = [(ch, j) for ch in chapters for j in range(len(ch.rows))][page.first:page.first + page.count]
    for n, (ch, j) in enumerate(items):
        r, col = divmod(n, lay.cols)
        ix = x + col * (col_w + _ITEM_GAP) + (col_w - item_w) / 2
        iy = top - r * (lay.key + _ANSWER_CAPTION)
        row, ks = ch.rows[j], ch.steps[j]
        render.draw_pdf(canv, render.art_of(row, True), ix, iy, lay.solution, bold=SYMBOL_BOLD, regular=SYMBOL,
                        cap_height=cap, gray=cfg.colour == "gray")
        draw_step(canv, cfg, ks, ix + lay.solution + _ANSWER_GAP, iy, lay.key, cap, small=True)
        fill(canv, cfg, 0.0)
        canv.setFont(TEXT, 8)
        title, _ = text.lesson(ch.technique, lang)
        sep = "　" if lang == "ja" else "   "
        canv.drawString(ix, iy - lay.key - 10, shorten(f"{cfg.prefix}{ch.numbers[j]}{sep}{key_line(ks, lang, title)}",
                                                       8, item_w))
        canv.setFont(TEXT, MIN_TEXT + 2)
        canv.drawString(ix, iy - lay.key - 19, shorten(effect_words(ks, lang), MIN_TEXT + 2, item_w))


def write_workbook(chapters: Sequence[Chapter], cfg: BookConfig, out: Path, sources: Sequence[Path] = ()) -> int:
    """Draw the workbook as a PDF at ``out`` and write ``<stem>.used.json`` beside it; returns the page
    count. Both files are written whole or not at all."""
    from pipeline.publish.book import used_path
    from pipeline.publish.dates import creation_time

    cap = register_fonts()
    pages = pages_of(chapters, cfg, geometry(cfg))
    geo = geometry(cfg, len(pages))
    starts: dict[str, int] = {}
    for number, p in enumerate(pages, 1):
        if p.kind == "lesson":
            starts.setdefault(f"c{p.chapter}", number)
        if p.kind == "answers":
            starts.setdefault("answers", number)
    n_puzzles = sum(len(ch.rows) for ch in chapters)

    def paint(tmp: Path) -> None:
        subject = cfg.subtitle or text.PHRASES[cfg.lang]["subtitle"].format(t=len(chapters), p=n_puzzles)
        canv = open_canvas(tmp, cfg, geo, subject)
        for number, p in enumerate(pages, 1):
            begin_page(canv, cfg, geo, number)
            if p.kind == "title":
                _title_page(canv, cfg, geo, chapters)
            elif p.kind == "contents":
                _contents_page(canv, cfg, geo, number, chapters, starts)
            elif p.kind == "lesson":
                canv.bookmarkPage(f"p{number}")
                canv.addOutlineEntry(text.lesson(chapters[p.chapter].technique, cfg.lang)[0], f"p{number}", level=0)
                _lesson_page(canv, cfg, geo, number, p.chapter, chapters[p.chapter], cap)
            elif p.kind == "practice":
                _practice_page(canv, cfg, geo, number, p.chapter, chapters[p.chapter], p, cap)
            elif p.kind == "answers":
                _answers_page(canv, cfg, geo, number, chapters, p, cap)
            elif p.kind == "blank":
                blank_page(canv, cfg, geo, BookPage("blank", number))
            if p.kind not in ("title", "blank"):
                page_number(canv, cfg, geo, number)
            canv.showPage()
        canv.save()

    write_file(out, paint)
    when = creation_time()  # the one creation-date rule (pipeline.publish.dates)
    numbers = [n for ch in chapters for n in ch.numbers]
    ids = [r["puzzle_id"] for ch in chapters for r in (ch.example, *ch.rows)]
    used = {"pdf": out.name, "title": cfg.title, "created_at": when.isoformat(timespec="seconds"),
            "sources": [str(p) for p in sources], "puzzles": n_puzzles,
            "first_number": numbers[0] if numbers else None, "last_number": numbers[-1] if numbers else None,
            "puzzle_ids": ids, "techniques": [ch.technique for ch in chapters]}
    blob = json.dumps(used, ensure_ascii=False, indent=1) + "\n"
    write_file(used_path(out), lambda tmp: tmp.write_text(blob, encoding="utf-8"))
    return len(pages)


def make_workbook(paths: Sequence[Path], out: Path, cfg: BookConfig, exclude: set[str] | None = None, *,
                  allow_incomplete: bool = False, allow_fewer: bool = False) -> tuple[int, list[Chapter]]:
    """Plan and write a workbook; returns ``(pages, chapters)``."""
    if out.suffix.lower() != ".pdf":
        raise PublishError(f"--out {out}: a book is a .pdf file")
    require_complete(tuple(paths), allow_incomplete)
    chapters = plan(paths, cfg, exclude, allow_fewer=allow_fewer)
    pages = write_workbook(chapters, cfg, out, paths)
    return pages, chapters


def summary(chapters: Sequence[Chapter], cfg: BookConfig) -> str:
    """What a workbook holds, for the command's line: ``2 chapters, 12 practice puzzles and 2 worked
    examples``, and the chapters ``--allow-fewer`` made shorter than ``workbook.per_technique``."""
    wb = cfg.workbook if cfg.workbook is not None else WorkbookCfg()
    practice = sum(len(ch.rows) for ch in chapters)
    k, s = len(chapters), "s" if len(chapters) != 1 else ""
    line = f"{k} chapter{s}, {practice} practice puzzle{'s' if practice != 1 else ''} and {k} worked example{s}"
    short = [f"{ch.technique} {len(ch.rows)}" for ch in chapters if len(ch.rows) < wb.per_technique]
    if short:
        line += f" (shorter than workbook.per_technique {wb.per_technique}: {', '.join(short)})"
    return line


def page_count(chapters: Sequence[Chapter], cfg: BookConfig) -> int:
    """Pages the workbook of ``chapters`` has (for tests and the CLI)."""
    return len(pages_of(chapters, cfg, geometry(cfg)))
