"""The drawing of each kind of book page on a reportlab canvas: title, contents, variant rules,
running heads, captions under grids, blank pages, crop marks; and the text fitting they share.

Contracts
---------
* **Text never overprints text**: a title wraps onto up to three lines (shrinking only when three
  are not enough) under a rule as wide as its widest line; a running head's two parts shrink
  together, then are shortened with an ellipsis, so they keep a gap between them; every caption
  shrinks to its grid's width.
* **Colour**: every fill and stroke is DeviceGray (K only) unless the config says ``colour: rgb``.
* **Words** come from the config's language (:mod:`pipeline.publish.labels`), with its ``labels``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pipeline import __version__
from pipeline.board import Cage, make_variant
from pipeline.publish import linebreak, pdfx, render
from pipeline.publish.book_config import BookConfig
from pipeline.publish.dates import source_date_epoch
from pipeline.publish.layout import HEAD_RULE, PAGE_NUMBER_SIZE, Geometry, Page, Slot
from pipeline.publish.linebreak import NO_START
from pipeline.publish.select import LEVELS

# Font names registered with reportlab (all TrueType, embedded as subsets).
TEXT, SYMBOL_BOLD, SYMBOL = "IPAexGothic", "NumplaceSans-Bold", "NumplaceSans"
HEAD_SIZE, HEAD_MIN, HEAD_GAP = 9.0, 6.0, 12.0  # running head: size, least size, least gap between its parts
MIN_SUM = 5.0  # pt: the least size of a killer cage sum (puzzle and answer pages)
MIN_DIGIT = 7.0  # pt: the least size of a puzzle's clue digits
MIN_ANSWER_DIGIT = 5.0  # pt: the least size of an answer grid's symbols
#: The order of variant kinds on a rules page.
RULE_KINDS = ("x", "hyper", "jigsaw", "killer")
#: A 9x9 jigsaw layout for the rules page's example (nine connected regions of nine cells).
JIGSAW_EXAMPLE = ("111122223" "412123333" "412223333" "415555666" "414455666" "444555666" "777779999" "778878899"
                  "788888999")


def register_fonts() -> float:
    """Register the embedded TrueType fonts with reportlab (once); returns the symbol font's cap
    height per point. Raises :class:`~pipeline.publish.render.FontMissingError` (a
    :class:`~pipeline.publish.select.PublishError`) when a font file is missing."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for name, key in ((TEXT, "cjk"), (SYMBOL_BOLD, "sans-bold"), (SYMBOL, "sans")):
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(render.font_path(key))))
    face = pdfmetrics.getFont(SYMBOL_BOLD).face
    return float(face.capHeight) / 1000.0


def width(text: str, size: float, font: str = TEXT) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return float(stringWidth(text, font, size))


def fit(text: str, size: float, room: float, font: str = TEXT) -> float:
    """The largest size <= ``size`` at which ``text`` fits ``room`` points."""
    w = width(text, size, font)
    return size if w <= room or w == 0 else size * room / w


def shorten(text: str, size: float, room: float) -> str:
    """``text`` cut and ended with an ellipsis so that it fits ``room`` at ``size`` (unchanged if it fits)."""
    if width(text, size) <= room:
        return text
    while text and width(text + "…", size) > room:
        text = text[:-1]
    return text.rstrip() + "…" if text else ""


def _greedy(tokens: Sequence[str], size: float, room: float) -> list[str]:
    """``tokens`` packed greedily into lines of at most ``room`` (a token that may not start a line
    stays on the line before); a line is never empty."""
    lines: list[str] = []
    line = ""
    for tok in tokens:
        if not line.strip() or width(line + tok.rstrip(), size) <= room or tok[0] in NO_START:
            line += tok
            continue
        lines.append(line.rstrip())
        line = tok.lstrip()
    if line.strip():
        lines.append(line.rstrip())
    return lines


def wrap(text: str, size: float, room: float, even: bool = False) -> list[str]:
    """``text`` broken into lines that fit ``room`` at ``size``, as few as possible (and, when
    ``even``, as even as possible: a title): English at spaces, Japanese between phrases, and inside
    a phrase only when it is wider than a line, where the kinsoku rules allow
    (:mod:`pipeline.publish.linebreak`). A Latin word wider than a line is cut."""
    phrases: list[str] = []
    for piece in linebreak.phrases(text):
        phrases += linebreak.clusters(piece) if width(piece.rstrip(), size) > room else [piece]
    lines = _greedy(phrases, size, room)
    lo, hi = 0.0, room if even else 0.0  # the narrowest room that needs no more lines: even lines
    for _ in range(20 if even else 0):
        mid = (lo + hi) / 2
        if len(_greedy(phrases, size, mid)) <= len(lines) and all(width(ln, size) <= mid
                                                                     for ln in _greedy(phrases, size, mid)):
            hi = mid
        else:
            lo = mid
    if even and len(lines) > 1:
        lines = _greedy(phrases, size, hi)
    out = []
    for ln in lines:  # a single word wider than the line: cut it
        while width(ln, size) > room and len(ln) > 1:
            k = len(ln)
            while k > 1 and width(ln[:k], size) > room:
                k -= 1
            out.append(ln[:k])
            ln = ln[k:]
        out.append(ln)
    return out


def fill(canv: Any, cfg: BookConfig, grey: float) -> None:
    """Fill colour ``grey`` (0 black .. 1 white) in the book's colour space."""
    if cfg.colour == "gray":
        canv.setFillGray(grey)
    else:
        canv.setFillColorRGB(grey, grey, grey)


def stroke(canv: Any, cfg: BookConfig, grey: float) -> None:
    """Stroke colour ``grey`` in the book's colour space."""
    if cfg.colour == "gray":
        canv.setStrokeGray(grey)
    else:
        canv.setStrokeColorRGB(grey, grey, grey)


def stars(level: str | None) -> str:
    return "★" * (LEVELS.index(level) + 1) if level in LEVELS else ""


def variant_kinds(row: dict[str, Any]) -> tuple[str, ...]:
    """The variant kinds of a set row (empty for classic)."""
    return render.variant_of_row(row).kinds


# ---------------------------------------------------------------------------------------------
# Pages
# ---------------------------------------------------------------------------------------------


def title_page(canv: Any, cfg: BookConfig, geo: Geometry, n_puzzles: int, pages: Sequence[Page]) -> None:
    """Title (wrapped onto up to three lines), a rule as wide as its widest line, the subtitle, the span
    of levels, the author; the numplace line at the foot unless ``footer: false``."""
    words = cfg.words
    x0, y0, w, h = geo.content(1)
    cx = x0 + w / 2
    size = 40.0
    lines = wrap(cfg.title, size, w, even=True)
    while len(lines) > 3 and size > 12:
        size *= 0.9
        lines = wrap(cfg.title, size, w, even=True)
    lead = size * 1.25
    base = y0 + h * 0.62 + lead * (len(lines) - 1) / 2
    fill(canv, cfg, 0.0)
    stroke(canv, cfg, 0.0)
    canv.setFont(TEXT, size)
    for k, line in enumerate(lines):
        canv.drawCentredString(cx, base - k * lead, line)
    last = base - (len(lines) - 1) * lead
    rule = last - 0.45 * size
    half = max(w * 0.3, max(width(ln, size) for ln in lines) / 2)
    canv.setLineWidth(1.2)
    canv.line(cx - half, rule, cx + half, rule)
    sub = cfg.subtitle if cfg.subtitle is not None else words.subtitle(n_puzzles)
    y = rule - 30
    for line in wrap(sub, 16, w, even=True) if sub else []:
        canv.setFont(TEXT, 16)
        canv.drawCentredString(cx, y, line)
        y -= 20
    puzzle_pages = [p for p in pages if p.kind == "puzzles"]
    if puzzle_pages:  # e.g. "Easy -> Extreme": the first and the last puzzle's levels
        first = puzzle_pages[0].items[0][0].get("difficulty")
        last_level = puzzle_pages[-1].items[-1][0].get("difficulty")
        if first and last_level and first != last_level:
            canv.setFont(TEXT, 12)
            canv.drawCentredString(cx, y - 6, f"{cfg.level_name(first)} → {cfg.level_name(last_level)}")
        elif first and {r.get("difficulty") for p in puzzle_pages for r, _n in p.items} == {first}:
            canv.setFont(TEXT, 12)  # a single-level book names its level
            canv.drawCentredString(cx, y - 6, f"{stars(first) if cfg.stars else ''} {cfg.level_name(first)}".strip())
    if cfg.author:
        canv.setFont(TEXT, fit(cfg.author, 13, w))
        canv.drawCentredString(cx, y0 + h * 0.25, cfg.author)
    if cfg.footer:
        foot = f"numplace {__version__} · {words.one_solution}"
        canv.setFont(TEXT, fit(foot, 8, w))
        fill(canv, cfg, 0.35)
        canv.drawCentredString(cx, y0 + 4, foot)
        fill(canv, cfg, 0.0)


def page_number(canv: Any, cfg: BookConfig, geo: Geometry, number: int) -> None:
    """Page ``number``'s number, centred under the content, in the bottom margin between the safe line
    (no closer to the trim than :attr:`Geometry.safe`) and the content."""
    x0, _y0, w, _h = geo.content(number)
    fill(canv, cfg, 0.0)
    canv.setFont(TEXT, PAGE_NUMBER_SIZE)
    canv.drawCentredString(x0 + w / 2, geo.page_number_baseline(), str(number))


def running_head(canv: Any, cfg: BookConfig, geo: Geometry, page: Page) -> None:
    """The section name and the title over the page's rule (outside edge: the section on right-hand
    pages); both shrink together, then are shortened, to keep :data:`HEAD_GAP` between them."""
    x0, y0, w, h = geo.content(page.number)
    top = y0 + h
    left, right = (page.heading, cfg.title) if geo.inside_left(page.number) else (cfg.title, page.heading)
    size = HEAD_SIZE
    wl, wr = width(left, size), width(right, size)
    room = w - HEAD_GAP
    if wl + wr > room:
        size = max(HEAD_MIN, size * room / (wl + wr))
        wl, wr = width(left, size), width(right, size)
        if wl + wr > room:  # still too long at the least size: each part gets its share of the line
            share_l = max(room / 2, room - wr) if wl > room / 2 else wl
            left, right = shorten(left, size, share_l), shorten(right, size, room - min(wl, share_l))
    fill(canv, cfg, 0.0)
    stroke(canv, cfg, 0.0)
    canv.setFont(TEXT, size)
    canv.drawString(x0, top - 10, left)
    canv.drawRightString(x0 + w, top - 10, right)
    canv.setLineWidth(0.4)
    canv.line(x0, top - HEAD_RULE, x0 + w, top - HEAD_RULE)


def caption(canv: Any, cfg: BookConfig, slot: Slot, row: dict[str, Any], number: int, answer: bool) -> None:
    """Under a grid: number and level (stars and name), then the id (unless ``show_ids: false``), the
    variant's name and the number of hints (none when there are none, as in a killer puzzle); for an
    answer one line, number and id."""
    x, right, y = slot.x, slot.x + slot.side, slot.y_top - slot.side
    fill(canv, cfg, 0.0)
    label = f"{cfg.prefix}{number}"
    pid = str(row["puzzle_id"]) if cfg.show_ids else ""
    if answer:
        canv.setFont(TEXT, fit(f"{label}  {pid}", 7, slot.side))
        canv.drawString(x, y - 9, label)
        fill(canv, cfg, 0.3)
        canv.drawRightString(right, y - 9, pid)
        fill(canv, cfg, 0.0)
        return
    level = row.get("difficulty")
    grade = f"{stars(level) if cfg.stars else ''} {cfg.level_name(level)}".strip()
    canv.setFont(TEXT, fit(f"{label}   {grade}", 10, slot.side))
    canv.drawString(x, y - 12, label)
    canv.drawRightString(right, y - 12, grade)
    hints = int(row.get("hints") or 0)
    about = "  ".join(t for t in (cfg.words.variant_name(variant_kinds(row)),
                                  cfg.counted(hints, "hint") if hints else "") if t)
    canv.setFont(TEXT, fit(f"{pid}   {about}", 7, slot.side))
    fill(canv, cfg, 0.3)
    canv.drawString(x, y - 22, pid)
    canv.drawRightString(right, y - 22, about)
    fill(canv, cfg, 0.0)


def contents_page(canv: Any, cfg: BookConfig, geo: Geometry, page: Page) -> None:
    x0, y0, w, h = geo.content(page.number)
    top = y0 + h
    fill(canv, cfg, 0.0)
    stroke(canv, cfg, 0.0)
    canv.setFont(TEXT, 20)
    canv.drawString(x0, top - 24, cfg.words.contents)
    canv.setLineWidth(0.8)
    canv.line(x0, top - 32, x0 + w, top - 32)
    y = top - 62
    for title, detail, number in page.contents_lines:
        nw = width(str(number), 13)
        text = shorten(title, 13, w - nw - 16)
        canv.setFont(TEXT, 13)
        canv.drawString(x0, y, text)
        canv.drawRightString(x0 + w, y, str(number))
        tw = width(text, 13)
        canv.setDash(1, 3)
        canv.setLineWidth(0.5)
        if x0 + tw + 8 < x0 + w - nw - 8:
            canv.line(x0 + tw + 8, y + 2, x0 + w - nw - 8, y + 2)
        canv.setDash()
        if detail:
            canv.setFont(TEXT, fit(detail, 9, w - 12))
            fill(canv, cfg, 0.3)
            canv.drawString(x0 + 12, y - 14, detail)
            fill(canv, cfg, 0.0)
        y -= 38


def blank_page(canv: Any, cfg: BookConfig, geo: Geometry, page: Page) -> None:
    """A page left blank to make the count even: one small grey line says so; no page number."""
    x0, y0, w, h = geo.content(page.number)
    text = cfg.words.blank
    canv.setFont(TEXT, fit(text, 8, w))
    fill(canv, cfg, 0.55)
    canv.drawCentredString(x0 + w / 2, y0 + h / 2, text)
    fill(canv, cfg, 0.0)


def crop_marks(canv: Any, cfg: BookConfig, geo: Geometry) -> None:
    """Crop marks at the corners of the trim (in trim coordinates), in registration-safe black."""
    stroke(canv, cfg, 0.0)
    canv.setLineWidth(0.25)
    for x0, y0, x1, y1 in geo.crop_marks():
        canv.line(x0, y0, x1, y1)


def open_canvas(path: Path, cfg: BookConfig, geo: Geometry, subject: str) -> Any:
    """A reportlab canvas for a book at ``path``: the media box of ``geo``, the document's title,
    author, subject and creator, PDF/X's output intent when ``cfg.pdfx`` asks for it, and right-to-left
    reading for a book bound on the right. Invariant (no timestamps of its own) when
    ``SOURCE_DATE_EPOCH`` is set, like every file numplace writes."""
    from reportlab.pdfgen.canvas import Canvas

    canv = Canvas(str(path), pagesize=geo.media, invariant=1 if source_date_epoch() is not None else 0,
                  initialFontName=TEXT, initialFontSize=10, pageCompression=1)
    canv.setTitle(cfg.title)
    canv.setAuthor(cfg.author or "numplace")
    canv.setSubject(subject)
    canv.setCreator(f"numplace {__version__}")
    if cfg.pdfx != "none":
        pdfx.mark_pdfx(canv, cfg.output_condition)
    if cfg.binding == "right":
        pdfx.mark_right_to_left(canv)
    return canv


def begin_page(canv: Any, cfg: BookConfig, geo: Geometry, number: int) -> None:
    """Start drawing page ``number``: its TrimBox and BleedBox when the book has a bleed, marks or
    PDF/X (a print-on-demand bleed is on three sides, so each page has its own), the origin moved to
    the trim's lower-left corner, and the crop marks. Everything drawn after is in trim coordinates."""
    if geo.outer or cfg.pdfx != "none":
        trim, bleed = geo.boxes(number)
        canv.setTrimBox(trim)
        canv.setBleedBox(bleed)
    x, y = geo.origin(number)
    if x or y:
        canv.translate(x, y)
    if geo.marks:
        crop_marks(canv, cfg, geo)


# ---------------------------------------------------------------------------------------------
# Variant rules
# ---------------------------------------------------------------------------------------------


def rule_kinds(rows: Sequence[dict[str, Any]]) -> tuple[str, ...]:
    """The variant kinds of ``rows`` that get a rules block, in :data:`RULE_KINDS` order."""
    seen = {k for row in rows for k in variant_kinds(row)}
    return tuple(k for k in RULE_KINDS if k in seen)


def example_art(kind: str) -> render.GridArt:
    """The small drawn example of a variant: its shaded units, regions or cages, with a few digits
    showing the rule (a full diagonal, a full window, a full region; a solved 4x4 killer)."""
    if kind == "killer":
        solved = "1234341221434321"
        cages = [Cage(c, sum(int(solved[i]) for i in c)) for c in
                 ((0, 1), (2, 6), (3, 7), (4, 5), (8, 12), (9, 13), (10, 11), (14, 15))]
        marks = tuple(render.Mark(*divmod(i, 4), d, False) for i, d in enumerate(solved))
        return render.GridArt(4, 2, 2, marks, make_variant(["killer"], None, cages))
    variant = make_variant([kind], JIGSAW_EXAMPLE if kind == "jigsaw" else None)
    if kind == "x":
        cells = [k * 10 for k in range(9)]
    elif kind == "hyper":
        cells = [r * 9 + c for r in (1, 2, 3) for c in (1, 2, 3)]
    else:
        cells = [i for i, ch in enumerate(JIGSAW_EXAMPLE) if ch == "1"]
    marks = tuple(render.Mark(*divmod(i, 9), "372915846"[k], True) for k, i in enumerate(cells))
    return render.GridArt(9, 3, 3, marks, variant)


def rules_page(canv: Any, cfg: BookConfig, geo: Geometry, page: Page, kinds: Sequence[str], cap: float) -> None:
    """The rules page: the classic rule, then per variant kind its name, one paragraph and a small
    drawn example."""
    words = cfg.words
    x0, y0, w, h = geo.content(page.number)
    top = y0 + h
    fill(canv, cfg, 0.0)
    stroke(canv, cfg, 0.0)
    heading = page.heading or words.rules  # a book sectioned by variant: "Rules: Killer Sudoku"
    canv.setFont(TEXT, fit(heading, 20, w))
    canv.drawString(x0, top - 24, heading)
    canv.setLineWidth(0.8)
    canv.line(x0, top - 32, x0 + w, top - 32)
    y = top - 52
    for line in wrap(words.rule("classic"), 10.5, w):
        canv.setFont(TEXT, 10.5)
        canv.drawString(x0, y, line)
        y -= 15
    y -= 10
    block = min(200.0, (y - y0) / max(1, len(kinds)))
    side = min(block - 50, w * 0.32)
    for kind in kinds:
        canv.setFont(TEXT, 14)
        canv.drawString(x0, y - 14, words.variant_name((kind,)))
        art = example_art(kind)
        if kind == "jigsaw":  # the region holding the example's digits, shaded
            fill(canv, cfg, render.SHADE)
            for m in art.marks:
                canv.rect(x0 + m.col * side / 9, y - 24 - (m.row + 1) * side / 9, side / 9, side / 9, stroke=0, fill=1)
        render.draw_pdf(canv, art, x0, y - 24, side, bold=SYMBOL_BOLD, regular=SYMBOL, cap_height=cap,
                        gray=cfg.colour == "gray")
        fill(canv, cfg, 0.3)
        canv.setFont(TEXT, 8)
        canv.drawCentredString(x0 + side / 2, y - 24 - side - 10, words.example)
        fill(canv, cfg, 0.0)
        tx, ty = x0 + side + 16, y - 34
        for line in wrap(words.rule(kind), 10.5, w - side - 16):
            canv.setFont(TEXT, 10.5)
            canv.drawString(tx, ty, line)
            ty -= 15
        y -= block
