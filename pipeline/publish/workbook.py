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
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from pipeline import __version__
from pipeline.board import parse
from pipeline.config import technique
from pipeline.difficulty.candidates import Step
from pipeline.difficulty.grade import cell_name, explain_step, grade
from pipeline.publish import render
from pipeline.publish import workbook_text as text
from pipeline.publish.book_config import BookConfig
from pipeline.publish.export import write_file
from pipeline.publish.layout import Geometry
from pipeline.publish.pages import (
    SYMBOL,
    SYMBOL_BOLD,
    TEXT,
    begin_page,
    fill,
    open_canvas,
    page_number,
    register_fonts,
    shorten,
    stroke,
    wrap,
)
from pipeline.publish.select import PublishError, read_sets
from pipeline.publish.workbook_config import WorkbookCfg
from pipeline.run.sets import require_complete

N = 9
#: Practice puzzles a page -> (columns, rows).
_PRACTICE = {1: (1, 1), 2: (1, 2), 4: (2, 2), 6: (2, 3)}
SHADE_PATTERN = 0.82  # grey of a pattern cell (0 black .. 1 white)
SHADE_TARGET = 0.93  # grey of a cell that loses a candidate
GREY_PLACED = 0.36  # digits placed on the way (not given)
GREY_OTHER = 0.55  # candidates the step does not use
GREY_GONE = 0.3  # a candidate the step removes (struck out)


@dataclass(frozen=True)
class KeyStep:
    """A puzzle's key step: its index on the path, the step, and the state before it (``values``:
    givens and digits placed, 0 for open; ``cands``: each open cell's candidates)."""

    index: int
    step: Step
    values: tuple[int, ...]
    cands: tuple[frozenset[int], ...]
    given: tuple[bool, ...]


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


def _peers() -> list[frozenset[int]]:
    out = []
    for i in range(N * N):
        r, c = divmod(i, N)
        br, bc = r - r % 3, c - c % 3
        ps = {r * N + k for k in range(N)} | {k * N + c for k in range(N)}
        ps |= {(br + a) * N + bc + b for a in range(3) for b in range(3)}
        ps.discard(i)
        out.append(frozenset(ps))
    return out


_PEERS = _peers()


def key_step(row: dict[str, Any], name: str) -> KeyStep:
    """The key step of technique ``name`` in the row's path and the state before it; raises
    :class:`PublishError` when the path has no such step (the row was not made for ``name``)."""
    puzzle, solution = parse(row["puzzle"], N), parse(row["solution"], N)
    g = grade(puzzle, solution, unique=True)
    k = next((j for j, s in enumerate(g.steps) if s.technique == name), None)
    if k is None:
        raise PublishError(f"{row['puzzle_id']}: its path has no {name} step (numplace check re-proves the "
                           "technique column)")
    values = list(puzzle)
    cands = [set() if v else set(range(1, N + 1)) for v in values]
    for i, v in enumerate(values):
        if v:
            for p in _PEERS[i]:
                cands[p].discard(v)
    for s in g.steps[:k]:
        for i, d in s.placements:
            values[i] = d
            cands[i] = set()
            for p in _PEERS[i]:
                cands[p].discard(d)
        for i, d in s.eliminations:
            cands[i].discard(d)
    step = g.steps[k]
    if any(d not in cands[i] for i, d in step.eliminations):  # the replay must be the solver's state
        raise PublishError(f"{row['puzzle_id']}: the replayed candidates disagree with the path's key step")
    return KeyStep(k, step, tuple(values), tuple(frozenset(c) for c in cands), tuple(bool(v) for v in puzzle))


# ---------------------------------------------------------------------------------------------
# Choosing the puzzles
# ---------------------------------------------------------------------------------------------


def plan(paths: Sequence[Path], cfg: BookConfig, exclude: set[str] | None = None) -> list[Chapter]:
    """The chapters of the workbook from the sets at ``paths`` minus ``exclude`` (module contracts)."""
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
        if part.height < need:
            raise PublishError(f"workbook.techniques: {name} has {part.height} puzzles made for it left, a chapter "
                               f"needs {need} (a worked example and workbook.per_technique {wb.per_technique})")
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


def draw_step(canv: Any, cfg: BookConfig, ks: KeyStep, x: float, y_top: float, side: float, cap: float,
              small: bool = False) -> None:
    """The grid of ``ks`` (the state before the key step) with its pattern: shaded pattern cells, bold
    candidates of the pattern, crossed-out eliminations; ``small`` leaves out the candidates the step
    does not use."""
    cell = side / N
    step = ks.step
    pattern = set(step.cells)
    gone = set(step.eliminations)
    targets = {i for i, _ in step.eliminations}
    digits = set(step.digits)
    canv.saveState()
    for i in range(N * N):
        shade = SHADE_PATTERN if i in pattern else SHADE_TARGET if i in targets else None
        if shade is not None:
            r, c = divmod(i, N)
            fill(canv, cfg, shade)
            canv.rect(x + c * cell, y_top - (r + 1) * cell, cell, cell, stroke=0, fill=1)
    stroke(canv, cfg, 0.0)
    thin, thick = max(0.3, side / 600), max(0.9, side / 200)
    for k in range(N + 1):
        canv.setLineWidth(thick if k % 3 == 0 else thin)
        canv.line(x + k * cell, y_top, x + k * cell, y_top - side)
        canv.line(x, y_top - k * cell, x + side, y_top - k * cell)
    big = cell * 0.62
    for i, v in enumerate(ks.values):
        if not v:
            continue
        r, c = divmod(i, N)
        canv.setFont(SYMBOL_BOLD if ks.given[i] else SYMBOL, big)
        fill(canv, cfg, 0.0 if ks.given[i] else GREY_PLACED)
        canv.drawCentredString(x + (c + 0.5) * cell, y_top - (r + 0.5) * cell - cap * big / 2, str(v))
    tiny = cell * 0.27
    for i, cs in enumerate(ks.cands):
        r, c = divmod(i, N)
        for d in sorted(cs):
            used = i in pattern and (d in digits or not digits)
            struck = (i, d) in gone
            if small and not (used or struck):
                continue
            cx = x + (c + 0.2 + 0.3 * ((d - 1) % 3)) * cell
            cy = y_top - (r + 0.2 + 0.3 * ((d - 1) // 3)) * cell
            canv.setFont(SYMBOL_BOLD if used else SYMBOL, tiny)
            fill(canv, cfg, 0.0 if used else GREY_GONE if struck else GREY_OTHER)
            canv.drawCentredString(cx, cy - cap * tiny / 2, str(d))
            if struck:  # a cross over the candidate
                stroke(canv, cfg, 0.0)
                canv.setLineWidth(max(0.35, cell / 45))
                h = cell * 0.12
                canv.line(cx - h, cy - h, cx + h, cy + h)
                canv.line(cx - h, cy + h, cx + h, cy - h)
    canv.restoreState()


def step_words(ks: KeyStep, lang: str) -> str:
    """The key step in words: English, the grader's own line; Japanese, its title and effect."""
    if lang == "en":
        return explain_step(ks.step, N, ks.index + 1)
    title, _ = text.lesson(ks.step.technique, "ja")
    effect = text.removes("ja", [(cell_name(i, N), d) for i, d in ks.step.eliminations],
                          [(cell_name(i, N), d) for i, d in ks.step.placements])
    return f"{ks.index + 1}手目：{title}　{effect}"  # noqa: RUF001


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
            out.append(line.rstrip())
            line = ch.lstrip()
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


def _answer_rows(geo: Geometry) -> tuple[int, float]:
    """Answer items a column holds on a page, and the grid side of an item (two grids side by side)."""
    _, _, w, h = geo.content(1)
    side = (w / 2 - 14) / 2
    per = max(1, int((h - 24) // (side + 30)))
    return per, side


def pages_of(chapters: Sequence[Chapter], cfg: BookConfig, geo: Geometry) -> list[_Page]:
    """Every page of the workbook, padded to an even count."""
    out = [_Page("title"), _Page("contents")]
    per = cfg.per_page
    for k, ch in enumerate(chapters):
        out.append(_Page("lesson", k))
        for first in range(0, len(ch.rows), per):
            out.append(_Page("practice", k, first, min(per, len(ch.rows) - first)))
    if cfg.answers.include:
        rows, _ = _answer_rows(geo)
        total = sum(len(ch.rows) for ch in chapters)
        for first in range(0, total, 2 * rows):
            out.append(_Page("answers", -1, first, min(2 * rows, total - first)))
    if len(out) % 2:
        out.append(_Page("blank"))
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
    side = min(w * 0.85, room)
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
        right = f"{cfg.level_name(row.get('difficulty'))}  {cfg.counted(int(row['hints']), 'hint')}"
        canv.drawRightString(gx + side, gy - side - 13, right)
        if cfg.show_ids:
            fill(canv, cfg, 0.4)
            canv.setFont(TEXT, 6)
            canv.drawString(gx, gy - side - 22, str(row["puzzle_id"]))


def _answers_page(canv: Any, cfg: BookConfig, geo: Geometry, number: int, chapters: Sequence[Chapter], page: _Page,
                  cap: float) -> None:
    lang = _lang(cfg)
    phr = text.PHRASES[lang]
    top = _head(canv, cfg, geo, number, cfg.words.answers)
    x, _, w, _ = geo.content(number)
    _, side = _answer_rows(geometry(cfg))  # the planned size (the page count's gutter only narrows)
    items = [(ch, j) for ch in chapters for j in range(len(ch.rows))][page.first:page.first + page.count]
    for n, (ch, j) in enumerate(items):
        r, col = divmod(n, 2)
        ix = x + col * (w / 2 + 4)
        iy = top - r * (side + 30)
        row, ks = ch.rows[j], ch.steps[j]
        render.draw_pdf(canv, render.art_of(row, True), ix, iy, side, bold=SYMBOL_BOLD, regular=SYMBOL,
                        cap_height=cap, gray=cfg.colour == "gray")
        draw_step(canv, cfg, ks, ix + side + 8, iy, side, cap, small=True)
        fill(canv, cfg, 0.0)
        canv.setFont(TEXT, 8)
        title, _ = text.lesson(ch.technique, lang)
        canv.drawString(ix, iy - side - 10, shorten(f"{cfg.prefix}{ch.numbers[j]}   {phr['key']}: {title}, "
                                                     f"{ks.index + 1}", 8, 2 * side + 8))
        canv.setFont(TEXT, 6.5)
        effect = text.removes(lang, [(cell_name(i, N), d) for i, d in ks.step.eliminations],
                              [(cell_name(i, N), d) for i, d in ks.step.placements])
        canv.drawString(ix, iy - side - 19, shorten(effect, 6.5, 2 * side + 8))


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
                  allow_incomplete: bool = False) -> tuple[int, int]:
    """Plan and write a workbook; returns ``(pages, practice puzzles)``."""
    if out.suffix.lower() != ".pdf":
        raise PublishError(f"--out {out}: a book is a .pdf file")
    require_complete(tuple(paths), allow_incomplete)
    chapters = plan(paths, cfg, exclude)
    pages = write_workbook(chapters, cfg, out, paths)
    return pages, sum(len(ch.rows) for ch in chapters)


def page_count(chapters: Sequence[Chapter], cfg: BookConfig) -> int:
    """Pages the workbook of ``chapters`` has (for tests and the CLI)."""
    return len(pages_of(chapters, cfg, geometry(cfg)))
