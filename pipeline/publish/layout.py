"""Where things go in a book: trim sizes, margins (a print-on-demand preset's included), the grid
positions of a page, and the list of pages (title, contents, rules, puzzles, answers, blanks).

Pure geometry and bookkeeping in PDF points (y up, trim coordinates); nothing here draws.

Contracts
---------
* **Trims** (:data:`PAGE_MM`): ISO A4 / A5, JIS B5 / B6, US Letter, and the common print-on-demand
  trims 5x8, 5.5x8.5, 6x9, 7x10, 8x10, 8.25x11 and 8.5x11 in.
* **Marks and bleed**: the trim sits ``Geometry.outer`` points inside the media box on every side:
  the bleed, plus room for crop marks when they are asked for.
* **Balanced pages** (:func:`slots`): the free height of a page is shared equally above the first
  row of grids, between rows and below the last caption; grids and captions never leave the margins.
* **Print-on-demand** (:func:`Geometry.of` with ``preset="print-on-demand"``): the inside margin
  grows with the page count (:func:`gutter_in`), outside, top and bottom margins are at least 0.25 in
  (0.375 in with bleed); the bleed (0.125 in) is on the top, bottom and outside edge only, so a 6x9 in
  page is 6.125 x 9.25 in, the size the services' upload check expects.
* **Safe distance** (:attr:`Geometry.safe`, :func:`safe_in`): nothing is printed closer to the trim
  than the service's minimum (print-on-demand: 0.25 in, 0.375 in with bleed; otherwise
  :data:`SAFE_MM`); the page number sits in the bottom margin between that line and the content, so
  the bottom margin must hold :func:`least_bottom` (the config refuses one that cannot).
* **Binding** (``binding: right``, 右綴じ): page 1 is a left-hand page, its inside edge on the right.
* **Page count** (:func:`pad`): padded with blank pages to an even count, or a multiple of 4 for
  printed signatures, and to a preset's fewest pages.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

MM = 72.0 / 25.4
IN = 72.0
#: Trim sizes in millimetres. B5 and B6 are JIS (182 x 257, 128 x 182), the sizes of Japanese puzzle books.
PAGE_MM: dict[str, tuple[float, float]] = {
    "A4": (210.0, 297.0), "B5": (182.0, 257.0), "A5": (148.0, 210.0), "B6": (128.0, 182.0),
    "Letter": (215.9, 279.4), "5x8in": (127.0, 203.2), "5.5x8.5in": (139.7, 215.9), "6x9in": (152.4, 228.6),
    "7x10in": (177.8, 254.0), "8x10in": (203.2, 254.0), "8.25x11in": (209.55, 279.4), "8.5x11in": (215.9, 279.4),
}
#: Puzzles per page -> (columns, rows).
ARRANGEMENT: dict[int, tuple[int, int]] = {1: (1, 1), 2: (1, 2), 4: (2, 2), 6: (2, 3), 9: (3, 3), 12: (3, 4),
                                           16: (4, 4), 20: (4, 5)}
HEADER = 30.0  # pt reserved at the top of puzzle and answer pages (running head and rule)
HEAD_RULE = 14.0  # pt from the top of the content area down to the running head's rule
CAPTION = 26.0  # pt under a puzzle grid: two lines of caption
ANSWER_CAPTION = 13.0  # pt under an answer grid: one line
CONTENTS_PER_PAGE = 18  # entries on one contents page
MARK_GAP, MARK_LENGTH = 3 * MM, 6 * MM  # crop marks: gap from the trim (at least the bleed), length
#: Half the widest frame of a grid (``render.weights``: 2 pt box rules, the frame 1.25 times as wide).
FRAME_HALF = 1.25
#: Print-on-demand paperback gutters: (most pages, inside margin in inches).
GUTTER_IN = ((150, 0.375), (300, 0.5), (500, 0.625), (700, 0.75), (828, 0.875))
#: The bleed of a print-on-demand interior, in inches (top, bottom and outside edge).
POD_BLEED_IN = 0.125
#: The least distance from the trim to anything printed, in mm, without a preset (a trimmed page's
#: usual safety margin).
SAFE_MM = 3.0
#: The page number: its size, the height of its text box (from the font's descent to its ascent)
#: per point of size, and the least gap between it and the safe line or the content.
PAGE_NUMBER_SIZE, PAGE_NUMBER_BOX, PAGE_NUMBER_GAP = 9.0, 1.0, 2.0


def safe_in(preset: str, bleed_mm: float) -> float:
    """The least distance, in inches, from the trim to anything printed: a print-on-demand service's
    0.25 in (0.375 in with bleed), or :data:`SAFE_MM` without a preset."""
    if preset == "print-on-demand":
        return 0.375 if bleed_mm else 0.25
    return SAFE_MM / 25.4


def least_bottom(preset: str, bleed_mm: float) -> float:
    """The least bottom margin, in points, that holds the page number no closer to the trim than
    :func:`safe_in` and clear of the content."""
    return safe_in(preset, bleed_mm) * IN + PAGE_NUMBER_SIZE * PAGE_NUMBER_BOX + 2 * PAGE_NUMBER_GAP


def gutter_in(pages: int) -> float:
    """The print-on-demand inside margin in inches of a paperback of ``pages`` pages."""
    return next((g for most, g in GUTTER_IN if pages <= most), GUTTER_IN[-1][1])


@dataclass(frozen=True)
class Slot:
    """Where one grid goes on a page (PDF points, y up, trim coordinates): its top-left corner and side."""

    x: float
    y_top: float
    side: float


@dataclass(frozen=True)
class Section:
    """A section of the book: its title and its rows (in book order) with their numbers."""

    title: str
    rows: tuple[dict[str, Any], ...]
    numbers: tuple[int, ...]


@dataclass
class Page:
    """One page of the plan: ``kind`` is title / contents / rules / puzzles / answers / blank;
    ``items`` are ``(row, number)`` pairs in slot order; ``heading`` is the section title (puzzle
    pages); ``per_page`` the slots of its arrangement (puzzle and answer pages)."""

    kind: str
    number: int
    heading: str = ""
    items: list[tuple[dict[str, Any], int]] = field(default_factory=list)
    starts_section: bool = False
    contents_lines: list[tuple[str, str, int]] = field(default_factory=list)
    per_page: int = 0
    kinds: tuple[str, ...] = ()  # a rules page's variant kinds (empty: every kind of the book)


@dataclass(frozen=True)
class Geometry:
    """Sizes of one book, in points: trim ``width`` x ``height``, margins, ``bleed``, and ``outer``:
    the distance from the media box's edge to the trim (the bleed plus room for crop marks);
    ``safe``: the least distance from the trim to anything printed; ``pod_bleed``: the bleed is on
    the top, bottom and outside edge only (print-on-demand); ``marks``: ``""`` (none), ``"western"``
    or ``"tombo"``; ``right_bound``: the book opens on the right (右綴じ)."""

    width: float
    height: float
    top: float
    bottom: float
    inside: float
    outside: float
    bleed: float
    outer: float = 0.0
    marks: bool | str = False
    safe: float = 0.0
    pod_bleed: bool = False
    right_bound: bool = False

    @classmethod
    def of(cls, page: Any, preset: str = "none", pages: int = 0, binding: str = "left") -> Geometry:
        """The geometry of a book config's ``page`` section; with ``preset="print-on-demand"`` the
        margins are raised to the service's rules for a book of ``pages`` pages, and a bleed is the
        service's 0.125 in on three sides."""
        w, h = PAGE_MM[page.size]
        m = page.margins
        top, bottom, inside, outside = m.top * MM, m.bottom * MM, m.inside * MM, m.outside * MM
        bleed = page.bleed * MM
        pod = preset == "print-on-demand"
        safe = safe_in(preset, page.bleed) * IN
        if pod:
            bleed = POD_BLEED_IN * IN if bleed else 0.0
            top, bottom, outside = max(top, safe), max(bottom, safe), max(outside, safe)
            inside = max(inside, gutter_in(pages) * IN)
        style = "" if not page.marks else ("tombo" if page.marks == "tombo" else "western")
        outer = bleed + (max(MARK_GAP, bleed) - bleed + MARK_LENGTH + 2 * MM if style else 0.0)
        return cls(w * MM, h * MM, top, bottom, inside, outside, bleed, outer, style, safe, pod and bleed > 0,
                   binding == "right")

    @property
    def media(self) -> tuple[float, float]:
        """The media box's width and height (a print-on-demand bleed adds to one side of the width)."""
        if self.pod_bleed:
            return self.width + self.bleed, self.height + 2 * self.bleed
        return self.width + 2 * self.outer, self.height + 2 * self.outer

    def inside_left(self, number: int) -> bool:
        """Whether page ``number``'s inside (binding) edge is on its left: odd pages of a book bound
        on the left (page 1 is a right-hand page), even pages of one bound on the right."""
        return (number % 2 == 1) != self.right_bound

    def origin(self, number: int) -> tuple[float, float]:
        """Where the trim's lower-left corner sits in page ``number``'s media box."""
        if self.pod_bleed:  # no bleed on the binding edge
            return (0.0 if self.inside_left(number) else self.bleed), self.bleed
        return self.outer, self.outer

    def boxes(self, number: int) -> tuple[tuple[float, float, float, float], tuple[float, float, float, float]]:
        """Page ``number``'s TrimBox and BleedBox in media coordinates ``(x0, y0, x1, y1)``."""
        x, y = self.origin(number)
        trim = (x, y, x + self.width, y + self.height)
        if self.pod_bleed:
            left = 0.0 if self.inside_left(number) else self.bleed
            right = self.bleed - left
            return trim, (x - left, y - self.bleed, x + self.width + right, y + self.height + self.bleed)
        b = self.bleed
        return trim, (x - b, y - b, x + self.width + b, y + self.height + b)

    def left(self, number: int) -> float:
        """Left margin of page ``number`` (its inside margin when the binding is on its left)."""
        return self.inside if self.inside_left(number) else self.outside

    def content(self, number: int) -> tuple[float, float, float, float]:
        """``(x, y_bottom, width, height)`` of the area inside the margins on page ``number``."""
        x = self.left(number)
        return x, self.bottom, self.width - self.inside - self.outside, self.height - self.top - self.bottom

    def page_number_baseline(self) -> float:
        """The page number's baseline: its text box centred between the safe line and the content,
        never closer to the trim than :attr:`safe`."""
        box = PAGE_NUMBER_SIZE * PAGE_NUMBER_BOX
        descent = 0.2 * PAGE_NUMBER_SIZE
        low = self.safe + max(PAGE_NUMBER_GAP, (self.bottom - self.safe - box) / 2)
        return low + descent

    def crop_marks(self) -> list[tuple[float, float, float, float]]:
        """The crop marks as lines ``(x0, y0, x1, y1)`` in trim coordinates. Western marks: two at
        each corner, in line with the trim edges, starting outside the bleed. Japanese トンボ
        (``tombo``): at each corner two in line with the trim and two in line with the bleed edge
        (double marks), and a centre mark on each side (a line across the middle of the edge and a
        short cross bar). Empty unless marks were asked for."""
        if not self.marks:
            return []
        gap = max(MARK_GAP, self.bleed)
        out = []
        for x in (0.0, self.width):
            for y in (0.0, self.height):
                sx = -1.0 if x == 0 else 1.0
                sy = -1.0 if y == 0 else 1.0
                out.append((x + sx * gap, y, x + sx * (gap + MARK_LENGTH), y))  # horizontal, in line with y
                out.append((x, y + sy * gap, x, y + sy * (gap + MARK_LENGTH)))  # vertical, in line with x
                if self.marks == "tombo":
                    b = max(self.bleed, MARK_GAP)  # the outer line: in line with the bleed edge
                    out.append((x + sx * b, y + sy * b, x + sx * (gap + MARK_LENGTH), y + sy * b))
                    out.append((x + sx * b, y + sy * b, x + sx * b, y + sy * (gap + MARK_LENGTH)))
        if self.marks == "tombo":  # centre marks: a line on the centre of each edge and a cross bar
            cx, cy, far, half = self.width / 2, self.height / 2, gap + MARK_LENGTH, MARK_LENGTH / 2
            for y, s in ((0.0, -1.0), (self.height, 1.0)):
                out.append((cx, y + s * gap, cx, y + s * far))
                out.append((cx - half, y + s * (gap + half), cx + half, y + s * (gap + half)))
            for x, s in ((0.0, -1.0), (self.width, 1.0)):
                out.append((x + s * gap, cy, x + s * far, cy))
                out.append((x + s * (gap + half), cy - half, x + s * (gap + half), cy + half))
        return out


def slots(geo: Geometry, number: int, per_page: int, caption: float) -> list[Slot]:
    """The grid positions of a page with ``per_page`` grids, each with ``caption`` points below it,
    row by row. Grids are as large as the area allows (keeping a least gap between columns and
    rows), centred across, and the free height is shared equally: above the first row (under the
    running head's rule), between rows and below the last row's captions. A grid's frame, whose
    stroke is centred on the grid's edge, stays inside the margins too (:data:`FRAME_HALF`)."""
    cols, rows = ARRANGEMENT[per_page]
    x0, y0, w, h = geo.content(number)
    x0, w = x0 + FRAME_HALF, w - 2 * FRAME_HALF
    top = y0 + h - HEAD_RULE  # the running head's rule
    h = top - y0
    gx, gy = (8 * MM if cols > 1 else 0.0), 5 * MM
    if per_page > 6:
        gx, gy = 5 * MM, 3 * MM
    cell_w = (w - (cols - 1) * gx) / cols
    side = min(cell_w, (h - (rows + 1) * gy) / rows - caption)
    band = (h - rows * (side + caption)) / (rows + 1)  # >= gy: the equal free bands
    out = []
    for r in range(rows):
        for c in range(cols):  # each grid centred in its column
            out.append(Slot(x0 + c * (cell_w + gx) + (cell_w - side) / 2, top - band - r * (side + caption + band),
                            side))
    return out


def pad(pages: list[Page], signatures: bool, fewest: int = 0) -> list[Page]:
    """``pages`` with blank pages added at the end: to an even count (a multiple of 4 with
    ``signatures``), and to at least ``fewest``; pages renumbered from 1."""
    step = 4 if signatures else 2
    total = max(len(pages), fewest)
    total = math.ceil(total / step) * step
    out = [*pages, *(Page("blank", 0) for _ in range(total - len(pages)))]
    for i, p in enumerate(out):
        p.number = i + 1
    return out


def paginate(sections: Sequence[Section], cfg: Any, *, rules: int = 0, answers_per_page: int | None = None,
             range_text: Any = None, section_rules: Sequence[tuple[tuple[str, ...], str]] = ()) -> list[Page]:
    """Every page of the book in order, numbered from 1 (the title page): title, contents, ``rules``
    variant rules pages, the puzzles section by section, the answers (``answers_per_page`` a page,
    default the config's). ``range_text(section)`` is a contents line's detail. ``section_rules``
    (one ``(kinds, title)`` per section; empty kinds for none) puts a rules page of those kinds before
    a section: a book sectioned by variant explains each variant once, where it starts."""
    pages: list[Page] = []
    if cfg.title_page:
        pages.append(Page("title", 1))
    words = cfg.words
    contents_at = len(pages)
    n_contents = 0
    if cfg.contents:
        n_rules = (1 if rules else 0) + sum(1 for kinds, _t in section_rules if kinds)
        n_contents = max(1, math.ceil((len(sections) + (1 if cfg.answers.include else 0) + n_rules)
                                      / CONTENTS_PER_PAGE))
        pages += [Page("contents", 0) for _ in range(n_contents)]
    lines: list[tuple[str, str, int]] = []
    if rules:
        lines.append((words.rules, "", len(pages) + 1))
        pages += [Page("rules", 0, words.rules, starts_section=k == 0) for k in range(rules)]
    for i, sec in enumerate(sections):
        kinds, rules_title = section_rules[i] if i < len(section_rules) else ((), "")
        if kinds:
            lines.append((rules_title, "", len(pages) + 1))
            pages.append(Page("rules", 0, rules_title, starts_section=True, kinds=kinds))
        first = len(pages) + 1
        items = list(zip(sec.rows, sec.numbers, strict=True))
        for k in range(0, len(items), cfg.per_page):
            pages.append(Page("puzzles", 0, sec.title, items[k : k + cfg.per_page], starts_section=k == 0,
                              per_page=cfg.per_page))
        lines.append((sec.title, range_text(sec) if range_text else "", first))
    if cfg.answers.include:
        first = len(pages) + 1
        every = [(r, n) for sec in sections for r, n in zip(sec.rows, sec.numbers, strict=True)]
        per = answers_per_page or cfg.answers.per_page
        for k in range(0, len(every), per):
            pages.append(Page("answers", 0, words.answers, every[k : k + per], starts_section=k == 0, per_page=per))
        lines.append((words.answers, "", first))
    for k in range(n_contents):
        pages[contents_at + k].contents_lines = lines[k * CONTENTS_PER_PAGE : (k + 1) * CONTENTS_PER_PAGE]
    for i, p in enumerate(pages):
        p.number = i + 1
    return pages
