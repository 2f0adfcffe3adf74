"""Print-ready puzzle books: a PDF drawn with reportlab, and the list of puzzle ids it used.

A book is: a title page, a contents page (sections with their puzzle numbers and pages, then the
answers), the puzzle pages section by section (``per_page`` grids a page, each with its number, id,
level and stars and the number of hints under it), and answer pages at the end (smaller grids,
several a page: givens bold, filled-in symbols grey). Page numbers are printed on every page but the
title page. :func:`load_config` reads the book config (YAML, strict, one-line errors, see
:class:`BookConfig`); :func:`plan` chooses the puzzles; :func:`write_book` draws the PDF.

Contracts
---------
* **Each puzzle once.** Sections take puzzles in order from one pool, so no puzzle appears twice in
  a book; ``--exclude`` files (a previous book's ``*.used.json``) take their ids out of the pool
  first. The book writes ``<pdf stem>.used.json`` beside the PDF: its ids, in book order.
* **Sections** come in the config's order (each a selection by level, score, hints, size and
  count; a section takes the first ``count`` matches in the sets' stable order, then shows them easy
  -> extreme). Without sections the book has one section per level present, easy -> extreme. A
  section that cannot be filled is an error, not a shorter book.
* **Print**: grids are vectors (thick box rules, thin cell rules, :mod:`pipeline.publish.render`);
  every font is a TrueType file embedded as a subset (DejaVu Sans for the grids, IPAex Gothic for
  all other text, so Japanese titles, labels and section names print); a grid and its caption never
  cross a page; inside/outside margins mirror on facing pages; ``page.bleed`` grows the media box and
  sets TrimBox/BleedBox. The same inputs give the same PDF bytes (reportlab's invariant mode).
"""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import polars as pl
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pipeline import __version__
from pipeline.config import ConfigError, MinMaxCfg, error_line, read_yaml
from pipeline.publish import render
from pipeline.publish.export import write_file
from pipeline.publish.select import LEVELS, Filter, PublishError, apply, by_level, read_sets

Level = Literal["easy", "medium", "hard", "expert", "extreme"]

MM = 72.0 / 25.4
#: Trim sizes in millimetres. B5 is JIS B5 (182 x 257), the size of Japanese puzzle books.
PAGE_MM: dict[str, tuple[float, float]] = {"A4": (210.0, 297.0), "B5": (182.0, 257.0), "A5": (148.0, 210.0),
                                           "Letter": (215.9, 279.4)}
#: Puzzles per page -> (columns, rows).
ARRANGEMENT: dict[int, tuple[int, int]] = {1: (1, 1), 2: (1, 2), 4: (2, 2), 6: (2, 3), 9: (3, 3), 12: (3, 4),
                                           16: (4, 4), 20: (4, 5)}
DEFAULT_LEVEL_NAMES = {"easy": "Easy", "medium": "Medium", "hard": "Hard", "expert": "Expert", "extreme": "Extreme"}

# Font names registered with reportlab (all TrueType, embedded as subsets).
TEXT, SYMBOL_BOLD, SYMBOL = "IPAexGothic", "NumplaceSans-Bold", "NumplaceSans"


# ---------------------------------------------------------------------------------------------
# The book config
# ---------------------------------------------------------------------------------------------


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Margins(_Strict):
    """Page margins in millimetres; ``inside`` is the binding side (left on odd pages)."""

    top: float = Field(default=15.0, ge=0, le=80)
    bottom: float = Field(default=15.0, ge=0, le=80)
    inside: float = Field(default=15.0, ge=0, le=80)
    outside: float = Field(default=15.0, ge=0, le=80)


class PageCfg(_Strict):
    size: Literal["A4", "B5", "A5", "Letter"] = "A4"
    margins: Margins = Margins()
    bleed: float = Field(default=0.0, ge=0, le=10)  # mm added around the trim size on every side


class RangeCfg(MinMaxCfg):
    """``score`` or ``hints`` of a section: ``min`` and/or ``max``."""

    number_format = "g"


class SectionCfg(_Strict):
    """One section: a title and a selection (every condition given must hold)."""

    title: str | None = None
    levels: list[Level] | None = None
    score: RangeCfg | None = None
    hints: RangeCfg | None = None
    size: Literal[4, 6, 9, 16] | None = None
    count: int | None = Field(default=None, ge=1, le=100_000, strict=True)
    logic_only: bool = Field(default=False, strict=True)  # only puzzles whose grade needs no trial and error


class NumberingCfg(_Strict):
    start: int = Field(default=1, ge=0, strict=True)
    prefix: str = "No. "


class AnswersCfg(_Strict):
    include: bool = True
    per_page: Literal[4, 6, 9, 12, 16, 20] = 12


class LabelsCfg(_Strict):
    contents: str = "Contents"
    answers: str = "Answers"
    hints: str = "hints"
    puzzles: str = "puzzles"
    levels: dict[Level, str] = Field(default_factory=dict)  # e.g. {easy: 初級}; unnamed levels keep English


class BookConfig(_Strict):
    """The book config (YAML). Every key is optional; see ``docs/publishing.md`` "Book config"."""

    title: str = Field(default="ナンプレ", min_length=1)
    subtitle: str | None = None
    author: str | None = None
    page: PageCfg = PageCfg()
    per_page: Literal[1, 2, 4, 6] = 4
    sections: list[SectionCfg] | None = Field(default=None, min_length=1)
    numbering: NumberingCfg = NumberingCfg()
    answers: AnswersCfg = AnswersCfg()
    labels: LabelsCfg = LabelsCfg()
    stars: bool = True
    title_page: bool = True
    contents: bool = True

    def level_name(self, level: str | None) -> str:
        if level is None:
            return ""
        return self.labels.levels.get(level, DEFAULT_LEVEL_NAMES.get(level, level))  # type: ignore[call-overload]


def validate_config(data: Any) -> BookConfig:
    """Validate a parsed book config; raises :class:`PublishError` with one line naming the field."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise PublishError("book config must be a mapping of keys (title, page, sections, ...)")
    try:
        return BookConfig.model_validate(data)
    except ValidationError as err:
        raise PublishError(error_line(err, BookConfig, items=True, show=repr)) from None


def load_config(path: Path | None, overrides: dict[str, Any] | None = None) -> BookConfig:
    """The book config at ``path`` (None: the defaults) with top-level ``overrides`` applied (a None
    value is ignored), validated. Errors name the file (unreadable, bad YAML) or the field."""
    data: Any = {}
    if path is not None:
        try:
            data = read_yaml(path, "book config")  # the run config's reader: no aliases, no repeated keys
        except ConfigError as exc:
            raise PublishError(str(exc)) from None
    if isinstance(data, dict):
        data = {**data, **{k: v for k, v in (overrides or {}).items() if v is not None}}
    elif data is None:
        data = {k: v for k, v in (overrides or {}).items() if v is not None}
    return validate_config(data)


# ---------------------------------------------------------------------------------------------
# Choosing the puzzles
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Section:
    """A section of the book: its title and its rows (in book order) with their numbers."""

    title: str
    rows: tuple[dict[str, Any], ...]
    numbers: tuple[int, ...]


def plan(paths: Sequence[Path], cfg: BookConfig, exclude: set[str] | None = None) -> list[Section]:
    """The sections of the book: puzzles from ``paths`` minus ``exclude``, each used once.

    Raises :class:`PublishError` when a section finds too few puzzles (naming it) or the book would
    be empty."""
    pool = read_sets(paths).frame
    if exclude:
        pool = pool.filter(~pl.col("puzzle_id").is_in(list(exclude)))
    chosen: list[tuple[str, pl.DataFrame]] = []
    if cfg.sections is None:
        for level in LEVELS:
            part = pool.filter(pl.col("difficulty") == level)
            if part.height:
                chosen.append((cfg.level_name(level), part))
        rest = pool.filter(pl.col("difficulty").is_null() | ~pl.col("difficulty").is_in(list(LEVELS)))
        if rest.height:
            chosen.append(("Puzzles", rest))
    else:
        for k, sec in enumerate(cfg.sections):
            flt = Filter(levels=tuple(sec.levels) if sec.levels else None,
                         score_min=sec.score.min if sec.score else None, score_max=sec.score.max if sec.score else None,
                         hints_min=sec.hints.min if sec.hints else None,
                         hints_max=sec.hints.max if sec.hints else None, size=sec.size, logic_only=sec.logic_only)
            found = apply(pool, flt)
            title = sec.title if sec.title is not None else _auto_title(cfg, sec)
            if sec.count is not None and found.height < sec.count:
                raise PublishError(f"sections[{k}] ({title}): asks for {sec.count} puzzles, only {found.height} "
                                   f"left that match ({flt.describe()})")
            if found.is_empty():
                raise PublishError(f"sections[{k}] ({title}): no puzzle left that matches ({flt.describe()})")
            found = found.head(sec.count) if sec.count is not None else found
            pool = pool.filter(~pl.col("puzzle_id").is_in(found["puzzle_id"].to_list()))
            chosen.append((title, by_level(found)))
    if not chosen:
        raise PublishError("the book would be empty: every puzzle of the sets is excluded")
    out, number = [], cfg.numbering.start
    for title, frame in chosen:
        rows = tuple(frame.to_dicts())
        out.append(Section(title, rows, tuple(range(number, number + len(rows)))))
        number += len(rows)
    return out


def _auto_title(cfg: BookConfig, sec: SectionCfg) -> str:
    if sec.levels:
        return " / ".join(cfg.level_name(lv) for lv in sec.levels)
    return "Puzzles"


# ---------------------------------------------------------------------------------------------
# Page layout
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Slot:
    """Where one grid goes on a page (PDF points, y up, trim coordinates): its top-left corner and side."""

    x: float
    y_top: float
    side: float


@dataclass
class Page:
    """One page of the plan: ``kind`` is title / contents / puzzles / answers; ``items`` are
    ``(row, number)`` pairs in slot order; ``heading`` is the section title (puzzle pages)."""

    kind: str
    number: int
    heading: str = ""
    items: list[tuple[dict[str, Any], int]] = field(default_factory=list)
    starts_section: bool = False
    contents_lines: list[tuple[str, str, int]] = field(default_factory=list)


@dataclass(frozen=True)
class Geometry:
    """Sizes of one book, in points: trim ``width`` x ``height``, margins, ``bleed``."""

    width: float
    height: float
    top: float
    bottom: float
    inside: float
    outside: float
    bleed: float

    @classmethod
    def of(cls, page: PageCfg) -> Geometry:
        w, h = PAGE_MM[page.size]
        m = page.margins
        return cls(w * MM, h * MM, m.top * MM, m.bottom * MM, m.inside * MM, m.outside * MM, page.bleed * MM)

    def left(self, number: int) -> float:
        """Left margin of page ``number`` (1 is a right-hand page: its inside margin is on the left)."""
        return self.inside if number % 2 == 1 else self.outside

    def content(self, number: int) -> tuple[float, float, float, float]:
        """``(x, y_bottom, width, height)`` of the area inside the margins on page ``number``."""
        x = self.left(number)
        return x, self.bottom, self.width - self.inside - self.outside, self.height - self.top - self.bottom


HEADER = 30.0  # pt reserved at the top of puzzle and answer pages (running head and rule)
CAPTION = 26.0  # pt under a puzzle grid: two lines of caption
ANSWER_CAPTION = 13.0  # pt under an answer grid: one line
CONTENTS_PER_PAGE = 18  # entries on one contents page


def slots(geo: Geometry, number: int, per_page: int, caption: float) -> list[Slot]:
    """The grid positions of a page with ``per_page`` grids, each with ``caption`` points below it,
    row by row; grids are as large as the area allows and centred in their cells."""
    cols, rows = ARRANGEMENT[per_page]
    x0, y0, w, h = geo.content(number)
    h -= HEADER
    gx, gy = (8 * MM if cols > 1 else 0.0), (5 * MM if rows > 1 else 0.0)
    if per_page > 6:
        gx, gy = 5 * MM, 3 * MM
    cell_w = (w - (cols - 1) * gx) / cols
    cell_h = (h - (rows - 1) * gy) / rows
    side = min(cell_w, cell_h - caption)
    out = []
    top = y0 + h
    for r in range(rows):
        for c in range(cols):
            cx = x0 + c * (cell_w + gx) + (cell_w - side) / 2
            cy = top - r * (cell_h + gy) - (cell_h - side - caption) / 2
            out.append(Slot(cx, cy, side))
    return out


def paginate(sections: Sequence[Section], cfg: BookConfig) -> list[Page]:
    """Every page of the book in order, numbered from 1 (the title page)."""
    pages: list[Page] = []
    if cfg.title_page:
        pages.append(Page("title", 1))
    contents_at = len(pages)
    n_contents = 0
    if cfg.contents:
        n_contents = max(1, math.ceil((len(sections) + (1 if cfg.answers.include else 0)) / CONTENTS_PER_PAGE))
        pages += [Page("contents", 0) for _ in range(n_contents)]
    lines: list[tuple[str, str, int]] = []
    for sec in sections:
        first = len(pages) + 1
        items = list(zip(sec.rows, sec.numbers, strict=True))
        for k in range(0, len(items), cfg.per_page):
            pages.append(Page("puzzles", 0, sec.title, items[k : k + cfg.per_page], starts_section=k == 0))
        lines.append((sec.title, _range_text(cfg, sec), first))
    if cfg.answers.include:
        first = len(pages) + 1
        every = [(r, n) for sec in sections for r, n in zip(sec.rows, sec.numbers, strict=True)]
        for k in range(0, len(every), cfg.answers.per_page):
            pages.append(Page("answers", 0, cfg.labels.answers, every[k : k + cfg.answers.per_page],
                              starts_section=k == 0))
        lines.append((cfg.labels.answers, "", first))
    for k in range(n_contents):
        pages[contents_at + k].contents_lines = lines[k * CONTENTS_PER_PAGE : (k + 1) * CONTENTS_PER_PAGE]
    for i, p in enumerate(pages):
        p.number = i + 1
    return pages


def _range_text(cfg: BookConfig, sec: Section) -> str:
    a, b = sec.numbers[0], sec.numbers[-1]
    nums = f"{cfg.numbering.prefix}{a}" + (f"\u2013{b}" if b != a else "")
    mix: dict[str, int] = {}
    for r in sec.rows:
        if r.get("difficulty"):
            mix[r["difficulty"]] = mix.get(r["difficulty"], 0) + 1
    levels = f"  ({', '.join(f'{cfg.level_name(lv)} {k}' for lv, k in mix.items())})" if len(mix) > 1 else ""
    return f"{nums}, {len(sec.rows)} {cfg.labels.puzzles}{levels}"


# ---------------------------------------------------------------------------------------------
# Drawing
# ---------------------------------------------------------------------------------------------


def register_fonts() -> float:
    """Register the embedded TrueType fonts with reportlab (once); returns the symbol font's cap
    height per point. Raises :class:`~pipeline.publish.render.FontMissingError` (a
    :class:`PublishError`) when a font file is missing."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for name, key in ((TEXT, "cjk"), (SYMBOL_BOLD, "sans-bold"), (SYMBOL, "sans")):
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(render.font_path(key))))
    face = pdfmetrics.getFont(SYMBOL_BOLD).face
    return float(face.capHeight) / 1000.0


def _stars(level: str | None) -> str:
    return "★" * (LEVELS.index(level) + 1) if level in LEVELS else ""


def _fit(text: str, font: str, size: float, width: float) -> float:
    """The largest size <= ``size`` at which ``text`` fits ``width``."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    w = stringWidth(text, font, size)
    return size if w <= width or w == 0 else size * width / w


def write_book(sections: Sequence[Section], cfg: BookConfig, out: Path, sources: Sequence[Path] = ()) -> list[Page]:
    """Draw the book as a PDF at ``out`` and write ``<stem>.used.json`` beside it; returns the pages.

    Both files are written whole or not at all; an unwritable target raises :class:`PublishError`."""
    from reportlab.pdfgen.canvas import Canvas

    cap = register_fonts()
    geo = Geometry.of(cfg.page)
    pages = paginate(sections, cfg)
    media = (geo.width + 2 * geo.bleed, geo.height + 2 * geo.bleed)
    n_puzzles = sum(len(s.rows) for s in sections)

    def draw(tmp: Path) -> None:
        boxes: dict[str, Any] = {}
        if geo.bleed:
            b = geo.bleed
            boxes = {"trimBox": (b, b, b + geo.width, b + geo.height), "bleedBox": (0, 0, *media)}
        canv = Canvas(str(tmp), pagesize=media, invariant=1, initialFontName=TEXT, initialFontSize=10,
                      pageCompression=1, **boxes)
        canv.setTitle(cfg.title)
        canv.setAuthor(cfg.author or "numplace")
        canv.setSubject(cfg.subtitle or f"{n_puzzles} puzzles")
        canv.setCreator(f"numplace {__version__}")
        for page in pages:
            if geo.bleed:
                canv.translate(geo.bleed, geo.bleed)
            _draw_page(canv, page, pages, cfg, geo, cap, n_puzzles)
            canv.showPage()
        canv.save()

    write_file(out, draw)
    used = {"pdf": out.name, "title": cfg.title, "created_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "sources": [str(p) for p in sources], "puzzles": n_puzzles,
            "puzzle_ids": [r["puzzle_id"] for s in sections for r in s.rows]}
    text = json.dumps(used, ensure_ascii=False, indent=1) + "\n"
    write_file(used_path(out), lambda tmp: tmp.write_text(text, encoding="utf-8"))
    return pages


def used_path(pdf: Path) -> Path:
    """Where the book at ``pdf`` records its puzzle ids: ``<stem>.used.json`` beside it."""
    return pdf.with_name(f"{pdf.stem}.used.json")


def _draw_page(canv: Any, page: Page, pages: Sequence[Page], cfg: BookConfig, geo: Geometry, cap: float,
               n_puzzles: int) -> None:
    if page.kind == "title":
        _title_page(canv, cfg, geo, n_puzzles, pages)
        return
    x0, y0, w, h = geo.content(page.number)
    canv.setFillColorRGB(0, 0, 0)
    canv.setFont(TEXT, 9)
    canv.drawCentredString(x0 + w / 2, y0 - 0.55 * geo.bottom, str(page.number))  # page number in the foot
    if page.kind == "contents":
        _contents_page(canv, page, cfg, geo)
        return
    top = y0 + h
    canv.setFont(TEXT, 9)
    head_left, head_right = (page.heading, cfg.title) if page.number % 2 else (cfg.title, page.heading)
    canv.drawString(x0, top - 10, head_left)
    canv.drawRightString(x0 + w, top - 10, head_right)
    canv.setLineWidth(0.4)
    canv.line(x0, top - 14, x0 + w, top - 14)
    if page.starts_section:  # an outline entry (bookmark) per section and for the answers
        canv.bookmarkPage(f"p{page.number}")
        canv.addOutlineEntry(page.heading, f"p{page.number}", level=0)
    answer = page.kind == "answers"
    per_page = cfg.answers.per_page if answer else cfg.per_page
    for slot, (row, number) in zip(slots(geo, page.number, per_page, ANSWER_CAPTION if answer else CAPTION),
                                   page.items, strict=False):
        render.draw_pdf(canv, render.art_of(row, answer), slot.x, slot.y_top, slot.side, bold=SYMBOL_BOLD,
                        regular=SYMBOL, cap_height=cap)
        _caption(canv, slot, row, number, cfg, answer)


def _caption(canv: Any, slot: Slot, row: dict[str, Any], number: int, cfg: BookConfig, answer: bool) -> None:
    """Under a grid: number and level (stars and name), then the id and the number of hints; for an
    answer one line, number and id."""
    x, right, y = slot.x, slot.x + slot.side, slot.y_top - slot.side
    canv.setFillColorRGB(0, 0, 0)
    label = f"{cfg.numbering.prefix}{number}"
    if answer:
        size = _fit(f"{label}  {row['puzzle_id']}", TEXT, 7, slot.side)
        canv.setFont(TEXT, size)
        canv.drawString(x, y - 9, label)
        canv.setFillColorRGB(0.3, 0.3, 0.3)
        canv.drawRightString(right, y - 9, str(row["puzzle_id"]))
        return
    level = row.get("difficulty")
    grade = f"{_stars(level) if cfg.stars else ''} {cfg.level_name(level)}".strip()
    size = _fit(f"{label}   {grade}", TEXT, 10, slot.side)
    canv.setFont(TEXT, size)
    canv.drawString(x, y - 12, label)
    canv.drawRightString(right, y - 12, grade)
    small = f"{row['puzzle_id']}   {row['hints']} {cfg.labels.hints}"
    size = _fit(small, TEXT, 7, slot.side)
    canv.setFont(TEXT, size)
    canv.setFillColorRGB(0.3, 0.3, 0.3)
    canv.drawString(x, y - 22, str(row["puzzle_id"]))
    canv.drawRightString(right, y - 22, f"{row['hints']} {cfg.labels.hints}")
    canv.setFillColorRGB(0, 0, 0)


def _title_page(canv: Any, cfg: BookConfig, geo: Geometry, n_puzzles: int, pages: Sequence[Page]) -> None:
    """Title (shrunk to fit the width), a rule, the subtitle, the span of levels, the author."""
    x0, y0, w, h = geo.content(1)
    cx, base = x0 + w / 2, y0 + h * 0.62
    size = _fit(cfg.title, TEXT, 40, w)
    canv.setFont(TEXT, size)
    canv.drawCentredString(cx, base, cfg.title)
    rule = base - 0.45 * size
    canv.setLineWidth(1.2)
    canv.line(cx - w * 0.3, rule, cx + w * 0.3, rule)
    sub = cfg.subtitle if cfg.subtitle is not None else f"{n_puzzles} Number Place puzzles"
    if sub:
        canv.setFont(TEXT, _fit(sub, TEXT, 16, w))
        canv.drawCentredString(cx, rule - 30, sub)
    puzzle_pages = [p for p in pages if p.kind == "puzzles"]
    if puzzle_pages:  # e.g. "Easy -> Extreme": the first and the last puzzle's levels
        first = puzzle_pages[0].items[0][0].get("difficulty")
        last = puzzle_pages[-1].items[-1][0].get("difficulty")
        if first and last and first != last:
            canv.setFont(TEXT, 12)
            canv.drawCentredString(cx, rule - 56, f"{cfg.level_name(first)} → {cfg.level_name(last)}")
    if cfg.author:
        canv.setFont(TEXT, 13)
        canv.drawCentredString(cx, y0 + h * 0.25, cfg.author)
    canv.setFont(TEXT, 8)
    canv.setFillColorRGB(0.35, 0.35, 0.35)
    canv.drawCentredString(cx, y0 + 4, f"numplace {__version__} · every puzzle has exactly one solution")
    canv.setFillColorRGB(0, 0, 0)


def _contents_page(canv: Any, page: Page, cfg: BookConfig, geo: Geometry) -> None:
    x0, y0, w, h = geo.content(page.number)
    top = y0 + h
    canv.setFont(TEXT, 20)
    canv.drawString(x0, top - 24, cfg.labels.contents)
    canv.setLineWidth(0.8)
    canv.line(x0, top - 32, x0 + w, top - 32)
    y = top - 62
    for title, detail, number in page.contents_lines:
        canv.setFont(TEXT, 13)
        canv.drawString(x0, y, title)
        canv.drawRightString(x0 + w, y, str(number))
        tw = canv.stringWidth(title, TEXT, 13)
        nw = canv.stringWidth(str(number), TEXT, 13)
        canv.setDash(1, 3)
        canv.setLineWidth(0.5)
        if x0 + tw + 8 < x0 + w - nw - 8:
            canv.line(x0 + tw + 8, y + 2, x0 + w - nw - 8, y + 2)
        canv.setDash()
        if detail:
            canv.setFont(TEXT, 9)
            canv.setFillColorRGB(0.3, 0.3, 0.3)
            canv.drawString(x0 + 12, y - 14, detail)
            canv.setFillColorRGB(0, 0, 0)
        y -= 38


def make_book(paths: Sequence[Path], out: Path, cfg: BookConfig, exclude: set[str] | None = None) -> list[Page]:
    """Plan and write a book (see :func:`plan`, :func:`write_book`); returns its pages."""
    if out.suffix.lower() != ".pdf":
        raise PublishError(f"--out {out}: a book is a .pdf file")
    return write_book(plan(paths, cfg, exclude), cfg, out, paths)
