"""Print-ready puzzle books: a PDF drawn with reportlab, and the list of puzzle ids it used.

A book is: a title page, a contents page (sections with their puzzle numbers and pages, then the
answers), a rules page when it holds variant puzzles, the puzzle pages section by section
(``per_page`` grids a page, each with its number, level and stars, id, variant and number of hints
under it), answer pages at the end (smaller grids, several a page: givens bold, filled-in symbols
grey), and blank pages that bring the count to an even number. Page numbers are printed on every
page but the title page and the blanks. :func:`load_config` reads the book config (YAML, strict,
one-line errors, see :class:`~pipeline.publish.book_config.BookConfig`); :func:`plan` chooses the
puzzles; :func:`volumes` splits them when a page limit asks; :func:`write_book` draws one PDF.

Contracts
---------
* **Each puzzle once.** Sections take puzzles in order from one pool, so no puzzle appears twice in
  a book; ``--exclude`` files (a previous book's ``*.used.json``) take their ids out of the pool
  first. The book writes ``<pdf stem>.used.json`` beside the PDF: its ids in book order, and the
  first and last puzzle numbers (so a next book can continue the numbering).
* **Sections** come in the config's order (each a selection by level, score, hints, size and
  count; a section takes the first ``count`` matches in the sets' stable order, then shows them easy
  -> extreme, by score within a level). Without sections the book has one section per level present,
  easy -> extreme, by score within a level (``levels`` and ``count`` narrow it). A section that
  cannot be filled is an error, not a shorter book.
* **Page limits**: a book over its limit (``max_pages``, or the print-on-demand preset's 828) is
  split into volumes when ``split: true`` (numbers run on), else refused with the count and the limit.
* **Print**: grids are vectors (:mod:`pipeline.publish.render`); K-only DeviceGray unless
  ``colour: rgb``; every font is a TrueType file embedded as a subset; a grid and its caption never
  cross a page; inside/outside margins mirror on facing pages; bleed or crop marks grow the media box
  and set TrimBox and BleedBox. The PDF's creation date is the time of writing, unless
  ``SOURCE_DATE_EPOCH`` is set: then it is that time and the same inputs give the same PDF bytes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from pipeline.publish import pages as draw
from pipeline.publish import render
from pipeline.publish.book_config import (  # noqa: F401  (re-exported: the book's config is part of its API)
    AnswersCfg,
    BookConfig,
    LabelsCfg,
    Margins,
    NumberingCfg,
    PageCfg,
    SectionCfg,
    load_config,
    validate_config,
)
from pipeline.publish.dates import creation_time
from pipeline.publish.export import write_file
from pipeline.publish.layout import (  # noqa: F401  (re-exported)
    ANSWER_CAPTION,
    ARRANGEMENT,
    CAPTION,
    MM,
    PAGE_MM,
    Geometry,
    Page,
    Section,
    Slot,
    pad,
    paginate,
    slots,
)
from pipeline.publish.pages import register_fonts
from pipeline.publish.select import (
    LEVELS,
    Filter,
    PublishError,
    apply,
    by_level,
    check_count,
    read_sets,
    variant_name,
)
from pipeline.run.sets import require_complete

# ---------------------------------------------------------------------------------------------
# Choosing the puzzles
# ---------------------------------------------------------------------------------------------


def plan(paths: Sequence[Path], cfg: BookConfig, exclude: set[str] | None = None, start: int | None = None,
         *, allow_fewer: bool = False) -> list[Section]:
    """The sections of the book: puzzles from ``paths`` minus ``exclude``, each used once, numbered
    from ``start`` (default: the config's ``numbering.start``; ``continue`` without ``start`` is 1).

    Raises :class:`PublishError` when a section (or ``count``) finds fewer puzzles than it asks for
    (naming it and both numbers; ``allow_fewer`` takes what there is, :func:`select.check_count`),
    when a section finds none, or when the book would be empty."""
    pool = read_sets(paths).frame
    if exclude:
        pool = pool.filter(~pl.col("puzzle_id").is_in(list(exclude)))
    chosen: list[tuple[str, pl.DataFrame]] = []
    if cfg.sections is None:
        if cfg.levels is not None or cfg.count is not None:
            flt = Filter(levels=tuple(cfg.levels) if cfg.levels else None)
            pool = apply(pool, flt)
            check_count(cfg.count, pool.height, flt, "count", allow_fewer)
            pool = pool.head(cfg.count) if cfg.count is not None else pool
        chosen += _default_sections(pool, cfg)
    else:
        for k, sec in enumerate(cfg.sections):
            flt = Filter(levels=tuple(sec.levels) if sec.levels else None,
                         score_min=sec.score.min if sec.score else None, score_max=sec.score.max if sec.score else None,
                         hints_min=sec.hints.min if sec.hints else None,
                         hints_max=sec.hints.max if sec.hints else None, size=sec.size, logic_only=sec.logic_only,
                         variants=sec.variants())
            found = apply(pool, flt)
            title = sec.title if sec.title is not None else _auto_title(cfg, sec)
            check_count(sec.count, found.height, flt, f"sections[{k}] ({title})", allow_fewer)
            if found.is_empty():
                raise PublishError(f"sections[{k}] ({title}): no puzzle left that matches ({flt.describe()})")
            found = found.head(sec.count) if sec.count is not None else found
            pool = pool.filter(~pl.col("puzzle_id").is_in(found["puzzle_id"].to_list()))
            chosen.append((title, by_level(found)))
    if not chosen:
        raise PublishError("the book would be empty: every puzzle of the sets is excluded")
    number = start if start is not None else (cfg.numbering.start if isinstance(cfg.numbering.start, int) else 1)
    out = []
    for title, frame in chosen:
        rows = tuple(frame.to_dicts())
        out.append(Section(title, rows, tuple(range(number, number + len(rows)))))
        number += len(rows)
    return out


def _by_levels(pool: pl.DataFrame, cfg: BookConfig, prefix: str = "") -> list[tuple[str, pl.DataFrame]]:
    """One section per level present, easy -> extreme, then the ungraded rows (titles after ``prefix``)."""
    out = []
    for level in LEVELS:
        part = pool.filter(pl.col("difficulty") == level)
        if part.height:
            out.append((prefix + cfg.level_name(level), by_level(part)))
    rest = pool.filter(pl.col("difficulty").is_null() | ~pl.col("difficulty").is_in(list(LEVELS)))
    if rest.height:
        out.append((prefix + (cfg.words.puzzles if not prefix else cfg.level_name("unrated")), rest))
    return out


def _default_sections(pool: pl.DataFrame, cfg: BookConfig) -> list[tuple[str, pl.DataFrame]]:
    """The sections of a book without ``sections``: by ``group``: one per level present (``level``),
    one per variant present (``variant``: classic first, then X, Hyper, Jigsaw, Killer, each easy ->
    extreme), or one per variant and level present (``variant-level``)."""
    if cfg.group == "level":
        return _by_levels(pool, cfg)
    names = pool.select(variant_name().alias("v"))["v"].unique().to_list()
    rank = {k: i for i, k in enumerate(draw.RULE_KINDS)}
    order = sorted(names, key=lambda v: (v != "classic", len(v.split("+")), [rank.get(k, 9) for k in v.split("+")]))
    out = []
    for name in order:
        part = pool.filter(variant_name() == name)
        title = cfg.variant_title(name)
        if cfg.group == "variant":
            out.append((title, by_level(part)))
        else:
            out += _by_levels(part, cfg, f"{title} · ")
    return out


def _auto_title(cfg: BookConfig, sec: SectionCfg) -> str:
    parts = [" / ".join(cfg.variant_title(v) for v in sec.variants() or ())]
    parts.append(" / ".join(cfg.level_name(lv) for lv in sec.levels or ()))
    return " · ".join(p for p in parts if p) or cfg.words.puzzles


def next_number(used_files: Sequence[Path]) -> int:
    """One after the last puzzle number of the books whose ``used.json`` files are given (a file
    written before numbers were recorded counts its ids, as if it started at 1); 1 for none."""
    last = 0
    for path in used_files:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise PublishError(f"{path}: cannot read the used list ({exc})") from None
        if isinstance(data, dict) and isinstance(data.get("last_number"), int):
            last = max(last, data["last_number"])
        elif isinstance(data, dict):
            last = max(last, len(data.get("puzzle_ids") or []))
        elif isinstance(data, list):
            last = max(last, len(data))
    return last + 1


# ---------------------------------------------------------------------------------------------
# Pages and volumes
# ---------------------------------------------------------------------------------------------


def answers_per_page(sections: Sequence[Section], cfg: BookConfig) -> int:
    """Answer grids a page: the config's, or fewer when its grids would print their symbols under
    :data:`~pipeline.publish.pages.MIN_ANSWER_DIGIT` points, or a killer puzzle's cage sums under
    :data:`~pipeline.publish.pages.MIN_SUM` points (4 at the fewest)."""
    rows = [r for s in sections for r in s.rows]
    if not rows:
        return cfg.answers.per_page
    sides = {int(r["box_rows"]) * int(r["box_cols"]) for r in rows}
    killer = {int(r["box_rows"]) * int(r["box_cols"]) for r in rows if "killer" in draw.variant_kinds(r)}
    geo = Geometry.of(cfg.page, cfg.preset, 828 if cfg.preset != "none" else 0, cfg.binding)  # the widest gutter
    for per in sorted((k for k in ARRANGEMENT if 4 <= k <= cfg.answers.per_page), reverse=True):
        side = slots(geo, 3, per, ANSWER_CAPTION)[0].side
        if all(side / n * render.font_ratio(n) >= draw.MIN_ANSWER_DIGIT for n in sides) and all(
                side / n * render.sum_ratio(n) >= draw.MIN_SUM for n in killer):
            return per
    return 4


def check_type_sizes(sections: Sequence[Section], cfg: BookConfig, geo: Geometry, answers_per: int) -> None:
    """Refuse a book whose type would print too small to read: a puzzle's clue digits under
    :data:`~pipeline.publish.pages.MIN_DIGIT` points, a killer cage sum under
    :data:`~pipeline.publish.pages.MIN_SUM` (on puzzle and answer pages), an answer's symbols under
    :data:`~pipeline.publish.pages.MIN_ANSWER_DIGIT`. The message names the size and the floor."""
    rows = [r for s in sections for r in s.rows]
    side = slots(geo, 3, cfg.per_page, CAPTION)[0].side
    answer_side = slots(geo, 3, answers_per, ANSWER_CAPTION)[0].side
    where = f"per_page: {cfg.per_page} a page on {cfg.page.size}"
    for n in sorted({int(r["box_rows"]) * int(r["box_cols"]) for r in rows}):
        digit = side / n * render.font_ratio(n)
        if digit < draw.MIN_DIGIT:
            raise PublishError(f"{where} prints the {n}x{n} clue digits {digit:.1f} pt, under the "
                               f"{draw.MIN_DIGIT:g} pt floor: print fewer a page or choose a larger page.size")
        answer = answer_side / n * render.font_ratio(n)
        if cfg.answers.include and answer < draw.MIN_ANSWER_DIGIT:
            raise PublishError(f"answers.per_page: {answers_per} a page on {cfg.page.size} prints the {n}x{n} "
                               f"answers' digits {answer:.1f} pt, under the {draw.MIN_ANSWER_DIGIT:g} pt floor: "
                               "choose a larger page.size")
        if any("killer" in draw.variant_kinds(r) and int(r["box_rows"]) * int(r["box_cols"]) == n for r in rows):
            total = side / n * render.sum_ratio(n)
            if total < draw.MIN_SUM:
                raise PublishError(f"{where} prints the killer cage sums {total:.1f} pt, under the {draw.MIN_SUM:g} "
                                   "pt floor: print fewer a page or choose a larger page.size")


def book_pages(sections: Sequence[Section], cfg: BookConfig) -> list[Page]:
    """Every page of a book of ``sections``, padded (even, or a multiple of 4 with ``signatures``, and
    at least the preset's fewest pages) and numbered."""
    kinds = draw.rule_kinds([r for s in sections for r in s.rows]) if cfg.rules_page else ()
    by_variant = kinds and (cfg.group != "level" or any(s.variant is not None for s in cfg.sections or ()))
    per_section = _section_rules(sections, cfg) if by_variant else []
    pages = paginate(sections, cfg, rules=1 if kinds and not by_variant else 0,
                     answers_per_page=answers_per_page(sections, cfg), range_text=lambda sec: _range_text(cfg, sec),
                     section_rules=per_section)
    return pad(pages, cfg.signatures, cfg.page_limit()[0])


def _section_rules(sections: Sequence[Section], cfg: BookConfig) -> list[tuple[tuple[str, ...], str]]:
    """For a book sectioned by variant: before each section, a rules page of the variant kinds its
    puzzles bring that no earlier section brought (each variant explained once), titled by the
    variants of its puzzles that bring them (``Rules: X Sudoku and Jigsaw Sudoku`` for a section of X
    and jigsaw puzzles; ``Rules: Jigsaw X Sudoku`` only for jigsaw-X puzzles)."""
    seen: set[str] = set()
    rank = {k: i for i, k in enumerate(draw.RULE_KINDS)}
    out = []
    for sec in sections:
        new = tuple(k for k in draw.rule_kinds(list(sec.rows)) if k not in seen)
        seen.update(new)
        variants = {tuple(sorted(ks, key=lambda k: rank.get(k, 9))) for r in sec.rows
                    if set(ks := draw.variant_kinds(r)) & set(new)}
        name = cfg.words.variant_names(sorted(variants, key=lambda v: (len(v), [rank.get(k, 9) for k in v])))
        colon = ": " if cfg.lang == "en" else "\uff1a"  # Japanese: a full-width colon
        out.append((new, f"{cfg.words.rules}{colon}{name}"))
    return out


def _range_text(cfg: BookConfig, sec: Section) -> str:
    a, b = sec.numbers[0], sec.numbers[-1]
    nums = f"{cfg.prefix}{a}" + (f"\u2013{b}" if b != a else "")
    mix: dict[str, int] = {}
    for r in sec.rows:
        if r.get("difficulty"):
            mix[r["difficulty"]] = mix.get(r["difficulty"], 0) + 1
    levels = f"  ({', '.join(f'{cfg.level_name(lv)} {k}' for lv, k in mix.items())})" if len(mix) > 1 else ""
    return f"{nums}, {cfg.counted(len(sec.rows), 'puzzle')}{levels}"


def _first(sections: Sequence[Section], k: int) -> tuple[list[Section], list[Section]]:
    """The first ``k`` puzzles of ``sections`` and the rest, each as sections (a section cut in two
    keeps its title on both sides)."""
    head, tail = [], []
    for sec in sections:
        take = max(0, min(len(sec.rows), k))
        if take:
            head.append(Section(sec.title, sec.rows[:take], sec.numbers[:take]))
        if take < len(sec.rows):
            tail.append(Section(sec.title, sec.rows[take:], sec.numbers[take:]))
        k -= take
    return head, tail


def volumes(sections: Sequence[Section], cfg: BookConfig) -> list[list[Section]]:
    """``sections`` as one book, or, over the page limit with ``split: true``, as volumes that each
    fit it (as many puzzles in each as fit; numbers run on). Raises :class:`PublishError` naming the
    page count and the limit when the book is over it and ``split`` is off."""
    most = cfg.page_limit()[1]
    pages = len(book_pages(sections, cfg))
    if most is None or pages <= most:
        return [list(sections)]
    where = "the print-on-demand preset allows" if cfg.preset != "none" else "max_pages allows"
    if not cfg.split:
        raise PublishError(f"the book would have {pages} pages and {where} at most {most}: set split: true "
                           "to make volumes, or choose fewer puzzles (sections, count, --count)")
    out: list[list[Section]] = []
    rest = list(sections)
    while rest:
        total = sum(len(s.rows) for s in rest)
        lo, hi = 0, total  # the most puzzles whose book fits: lo fits, hi + 1 does not
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if len(book_pages(_first(rest, mid)[0], cfg)) <= most:
                lo = mid
            else:
                hi = mid - 1
        if lo == 0:
            raise PublishError(f"not even one puzzle fits a book of {most} pages")
        head, rest = _first(rest, lo)
        out.append(head)
    return out


# ---------------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------------


def write_book(sections: Sequence[Section], cfg: BookConfig, out: Path, sources: Sequence[Path] = (),
               title: str | None = None) -> list[Page]:
    """Draw the book as a PDF at ``out`` and write ``<stem>.used.json`` beside it; returns the pages.
    ``title`` replaces the config's (a volume's title).

    Both files are written whole or not at all; an unwritable target raises :class:`PublishError`."""
    if title is not None:
        cfg = cfg.model_copy(update={"title": title})
    cap = register_fonts()
    pages = book_pages(sections, cfg)
    geo = Geometry.of(cfg.page, cfg.preset, len(pages), cfg.binding)
    check_type_sizes(sections, cfg, geo, answers_per_page(sections, cfg))
    n_puzzles = sum(len(s.rows) for s in sections)
    kinds = draw.rule_kinds([r for s in sections for r in s.rows])

    def paint(tmp: Path) -> None:
        canv = draw.open_canvas(tmp, cfg, geo, cfg.subtitle or cfg.words.subtitle(n_puzzles))
        for page in pages:
            draw.begin_page(canv, cfg, geo, page.number)
            _draw_page(canv, page, pages, cfg, geo, cap, n_puzzles, kinds)
            canv.showPage()
        canv.save()

    write_file(out, paint)
    when = creation_time()
    numbers = [n for s in sections for n in s.numbers]
    used = {"pdf": out.name, "title": cfg.title, "created_at": when.isoformat(timespec="seconds"),
            "sources": [str(p) for p in sources], "puzzles": n_puzzles,
            "first_number": numbers[0] if numbers else None, "last_number": numbers[-1] if numbers else None,
            "puzzle_ids": [r["puzzle_id"] for s in sections for r in s.rows]}
    text = json.dumps(used, ensure_ascii=False, indent=1) + "\n"
    write_file(used_path(out), lambda tmp: tmp.write_text(text, encoding="utf-8"))
    return pages


def used_path(pdf: Path) -> Path:
    """Where the book at ``pdf`` records its puzzle ids: ``<stem>.used.json`` beside it."""
    return pdf.with_name(f"{pdf.stem}.used.json")


def _draw_page(canv: Any, page: Page, pages: Sequence[Page], cfg: BookConfig, geo: Geometry, cap: float,
               n_puzzles: int, kinds: Sequence[str]) -> None:
    if page.kind == "title":
        draw.title_page(canv, cfg, geo, n_puzzles, pages)
        return
    if page.kind == "blank":
        draw.blank_page(canv, cfg, geo, page)
        return
    draw.page_number(canv, cfg, geo, page.number)
    if page.kind == "contents":
        draw.contents_page(canv, cfg, geo, page)
        return
    if page.starts_section:  # an outline entry (bookmark) per section, for the rules and the answers
        canv.bookmarkPage(f"p{page.number}")
        canv.addOutlineEntry(page.heading, f"p{page.number}", level=0)
    if page.kind == "rules":
        draw.rules_page(canv, cfg, geo, page, page.kinds or kinds, cap)
        return
    draw.running_head(canv, cfg, geo, page)
    answer = page.kind == "answers"
    for slot, (row, number) in zip(slots(geo, page.number, page.per_page, ANSWER_CAPTION if answer else CAPTION),
                                   page.items, strict=False):
        render.draw_pdf(canv, render.art_of(row, answer), slot.x, slot.y_top, slot.side, bold=draw.SYMBOL_BOLD,
                        regular=draw.SYMBOL, cap_height=cap, gray=cfg.colour == "gray")
        draw.caption(canv, cfg, slot, row, number, answer)


@dataclass(frozen=True)
class Written:
    """One PDF written: its path, its pages and its number of puzzles."""

    path: Path
    pages: list[Page]
    puzzles: int


def volume_path(out: Path, k: int) -> Path:
    """The file of volume ``k`` (from 1) of a book asked for at ``out``: ``<stem>-vol<k>.pdf``."""
    return out.with_name(f"{out.stem}-vol{k}{out.suffix}")


def make_books(paths: Sequence[Path], out: Path, cfg: BookConfig, exclude: set[str] | None = None,
               used_files: Sequence[Path] = (), *, allow_incomplete: bool = False, allow_fewer: bool = False
               ) -> list[Written]:
    """Plan and write a book, or its volumes (``<stem>-vol1.pdf``, ...) when it is over its page limit
    and ``split`` is on; ``numbering.start: continue`` starts after the last number in ``used_files``.
    A set whose runs are not all complete is refused unless ``allow_incomplete``
    (:func:`pipeline.run.sets.require_complete`); a count that finds fewer puzzles is refused unless
    ``allow_fewer``."""
    if out.suffix.lower() != ".pdf":
        raise PublishError(f"--out {out}: a book is a .pdf file")
    require_complete(tuple(paths), allow_incomplete)
    start = next_number(used_files) if cfg.numbering.start == "continue" else None
    parts = volumes(plan(paths, cfg, exclude, start, allow_fewer=allow_fewer), cfg)
    if len(parts) == 1:
        pages = write_book(parts[0], cfg, out, paths)
        return [Written(out, pages, sum(len(s.rows) for s in parts[0]))]
    written = []
    for k, part in enumerate(parts, start=1):
        path = volume_path(out, k)
        pages = write_book(part, cfg, path, paths, title=cfg.words.volume_title(cfg.title, k))
        written.append(Written(path, pages, sum(len(s.rows) for s in part)))
    return written


def make_book(paths: Sequence[Path], out: Path, cfg: BookConfig, exclude: set[str] | None = None, *,
              allow_incomplete: bool = False) -> list[Page]:
    """Plan and write one book (see :func:`plan`, :func:`write_book`); returns its pages. A book over
    its page limit is refused (:func:`make_books` splits it); so is a set whose runs are not all
    complete, unless ``allow_incomplete`` (:func:`pipeline.run.sets.require_complete`)."""
    written = make_books(paths, out, cfg.model_copy(update={"split": False}), exclude,
                         allow_incomplete=allow_incomplete)
    return written[0].pages
