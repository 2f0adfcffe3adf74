"""One grid, drawn the same way everywhere: PDF pages (reportlab), SVG files and PNG files (Pillow).

:func:`grid_art` turns a row's ``puzzle`` (and, for an answer, its ``solution``) into a
:class:`GridArt`: the rules (thin cell lines, thick box lines, a frame) and the symbols to print, in
cell units with the origin at the top-left corner. The three back ends place that drawing at a size
and share the rules of the house style:

* **Line weights** follow the drawn size (:func:`weights`): box lines about three times the cell
  lines, the frame a little heavier than the box lines; cell lines never under 0.3 pt (a printer's
  hairline limit).
* **Symbols are centred optically**: horizontally on the cell centre, vertically on the cap height
  (digits and ``A``-``G`` have no descenders, so centring on the cap height, not on the em box, is
  what looks centred). Givens are bold and black; in an answer the filled-in symbols are regular and
  grey, so a reader sees which were given.
* **Fonts** are files shipped by PyPI packages (:func:`font_path`): DejaVu Sans (inside matplotlib)
  for symbols and Latin text, IPAex Gothic (inside japanize-matplotlib) for Japanese. Nothing relies
  on a font the viewer happens to have: the PDF embeds both, the PNG is pixels, and the SVG names
  DejaVu Sans first with common fallbacks (an SVG cannot carry a font portably).

**Variants** (``GridArt.variant``, read from a row's ``variant``/``regions``/``cages`` columns; a row
without them is classic, and none of these rules applies to it):

* *jigsaw*: the thick rules follow the region borders (wherever two neighbouring cells lie in
  different regions) instead of the box lines; every other inner edge is a thin rule.
* *killer*: each cage is a dashed outline inset :data:`CAGE_INSET` of a cell inside its cells,
  measured from the ink of the grid line under each edge (a thick box line or the frame pushes the
  outline in by its half width, so the white gap is the same everywhere); the dashes are laid out
  side by side so that every corner, convex or concave, is the middle of a dash drawn as one joined
  L (:func:`pipeline.publish.outline.dash_pieces`): no corner falls in a gap, no dash overshoots.
  Its sum is printed small at
  the top-left corner of its first cell (top-most, then left-most) on a patch of the cell's colour
  that interrupts the outline there; the sum sits above a given's cap height.
* *x*: the cells of both main diagonals are shaded light grey (:data:`SHADE`); *hyper*: the cells of
  the four windows are. A cell that is both is a little darker (:data:`SHADE_BOTH`).
"""

from __future__ import annotations

import importlib.util
import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from pipeline.board import CLASSIC, HYPER_WINDOWS_9, Cage, Variant, board, make_variant
from pipeline.errors import PublishError
from pipeline.publish.outline import Point, dash_pieces, inset_loops, runs

if TYPE_CHECKING:
    from PIL import Image

#: Cap height of DejaVu Sans (digits and capitals), as a fraction of the font size.
CAP_HEIGHT = 0.729
GREY = (0.36, 0.36, 0.36)  # filled-in symbols of an answer, as RGB in 0..1
SHADE = 0.86  # grey level (0 black .. 1 white) of an x diagonal cell or a hyper window cell
SHADE_BOTH = 0.76  # a cell on a diagonal and in a window (x+hyper)
CAGE_INSET = 0.1  # a killer cage's dashed outline, inside its cells by this fraction of a cell
CAGE_DASH = (0.09, 0.065)  # dash and gap of a cage outline, in cells
DIGIT_ADVANCE = 0.636  # advance width of a DejaVu Sans digit (all digits are tabular), per unit of size
SUM_LEFT, SUM_TOP = 0.09, 0.08  # a cage sum's left edge and cap top, in cells from its cell's corner
SUM_PAD = 0.035  # margin of the patch behind a cage sum beyond the digits, in cells

_FONTS: dict[str, tuple[str, str]] = {  # name -> (package, path inside the package)
    "sans": ("matplotlib", "mpl-data/fonts/ttf/DejaVuSans.ttf"),
    "sans-bold": ("matplotlib", "mpl-data/fonts/ttf/DejaVuSans-Bold.ttf"),
    "cjk": ("japanize_matplotlib", "fonts/ipaexg.ttf"),
}
_PIP_NAME = {"matplotlib": "matplotlib", "japanize_matplotlib": "japanize-matplotlib"}


class FontMissingError(PublishError):
    """A font file that should come with an installed package is not there (a broken install); one line."""


def font_path(name: str) -> Path:
    """The TrueType file of font ``name`` (``sans``, ``sans-bold`` or ``cjk``), found inside the
    package that ships it without importing that package. Raises :class:`FontMissingError`."""
    package, rel = _FONTS[name]
    spec = importlib.util.find_spec(package)
    roots = list(spec.submodule_search_locations or []) if spec is not None else []
    for root in roots:
        path = Path(root) / rel
        if path.is_file():
            return path
    raise FontMissingError(f"font file {rel} not found: install the {_PIP_NAME[package]} package "
                           "(the README's set-up does)")


@dataclass(frozen=True)
class Mark:
    """One symbol to print: cell (``row``, ``col``), its character, and whether it is a given."""

    row: int
    col: int
    symbol: str
    given: bool


@dataclass(frozen=True)
class GridArt:
    """What to draw for one grid of side ``n`` with boxes of ``box_rows`` x ``box_cols``: the marks
    (the givens of a puzzle; every cell of an answer) and the ``variant`` (its regions, cages and
    extra units). Coordinates are in cells, origin top-left."""

    n: int
    box_rows: int
    box_cols: int
    marks: tuple[Mark, ...]
    variant: Variant = CLASSIC

    def rules(self) -> Iterator[tuple[str, float, float, float, float]]:
        """Inner rules as ``(kind, x0, y0, x1, y1)``: ``kind`` is ``cell`` or ``box``; cell rules
        come first, so box rules are drawn over them. The frame is not among them. On a jigsaw board
        the ``box`` rules are the region borders (each a maximal straight run of cell edges between
        cells of different regions) and the ``cell`` rules the runs of edges inside a region."""
        n = self.n
        labels = self.variant.regions
        if labels is None:
            for kind in ("cell", "box"):
                for k in range(1, n):
                    if (k % self.box_cols == 0) == (kind == "box"):
                        yield kind, float(k), 0.0, float(k), float(n)  # vertical, between columns k-1 and k
                    if (k % self.box_rows == 0) == (kind == "box"):
                        yield kind, 0.0, float(k), float(n), float(k)  # horizontal
            return
        for kind in ("cell", "box"):
            for k in range(1, n):
                vertical = [labels[r * n + k - 1] != labels[r * n + k] for r in range(n)]
                for a, b in runs(vertical, kind == "box"):
                    yield kind, float(k), float(a), float(k), float(b)
                horizontal = [labels[(k - 1) * n + c] != labels[k * n + c] for c in range(n)]
                for a, b in runs(horizontal, kind == "box"):
                    yield kind, float(a), float(k), float(b), float(k)

    def shading(self) -> tuple[tuple[int, int, float], ...]:
        """Shaded cells as ``(row, col, grey)`` (grey 0 black .. 1 white), row-major: the diagonals
        of an x board and the windows of a hyper board; empty for other boards."""
        kinds = self.variant.kinds
        n = self.n
        layers: dict[int, int] = {}
        if "x" in kinds:
            for cell in {k * n + k for k in range(n)} | {k * n + n - 1 - k for k in range(n)}:
                layers[cell] = layers.get(cell, 0) + 1
        if "hyper" in kinds and n == 9:
            for cell in {i for w in HYPER_WINDOWS_9 for i in w}:
                layers[cell] = layers.get(cell, 0) + 1
        return tuple((*divmod(i, n), SHADE if k == 1 else SHADE_BOTH) for i, k in sorted(layers.items()))

    def shade_of(self, row: int, col: int) -> float:
        """The grey of cell (``row``, ``col``): 1.0 (white) unless :meth:`shading` shades it."""
        return next((g for r, c, g in self.shading() if (r, c) == (row, col)), 1.0)

    def cage_outlines(self, half: tuple[float, float, float] | None = None
                      ) -> tuple[tuple[Cage, tuple[tuple[Point, ...], ...]], ...]:
        """Each killer cage with its dashed outline: closed loops of corner points (in cells), the
        border of the cage's cells moved :data:`CAGE_INSET` inwards (one loop for a connected cage
        without holes), plus, with ``half`` (the half widths of the cell rules, box rules and frame, in
        cells), the half width of the rule under each edge: the gap from the rule's ink is even. Corners
        only: no point lies on a straight stretch (but where the rule under a straight side changes,
        as on a jigsaw region border, the side steps)."""
        extra = self._rule_half(half) if half is not None else None
        return tuple((cage, inset_loops(frozenset(cage.cells), self.n, CAGE_INSET, extra))
                     for cage in self.variant.cages)

    def _rule_half(self, half: tuple[float, float, float]) -> Any:
        """A function of a unit lattice edge: the half width (cells) of the rule drawn along it."""
        n, labels = self.n, self.variant.regions
        thin, thick, frame = half

        def of(a: tuple[int, int], b: tuple[int, int]) -> float:
            (x0, y0), (x1, y1) = a, b
            if x0 == x1:  # vertical, between columns x0 - 1 and x0, in row min(y0, y1)
                if x0 in (0, n):
                    return frame
                r = min(y0, y1)
                box = labels[r * n + x0 - 1] != labels[r * n + x0] if labels is not None else x0 % self.box_cols == 0
            else:
                if y0 in (0, n):
                    return frame
                c = min(x0, x1)
                box = labels[(y0 - 1) * n + c] != labels[y0 * n + c] if labels is not None else y0 % self.box_rows == 0
            return thick if box else thin

        return of

    def cage_sums(self) -> tuple[tuple[int, int, str], ...]:
        """Each cage's sum as ``(row, col, text)``: printed at the top-left corner of cell (``row``,
        ``col``), the cage's first cell (its top-most, then left-most)."""
        return tuple((*divmod(min(cage.cells), self.n), str(cage.total)) for cage in self.variant.cages)


def _variant_of(n: int, variant: Variant | None) -> Variant:
    """``variant`` checked against side ``n`` (None is classic); raises ``ValueError`` naming the problem."""
    if variant is None or variant == CLASSIC:
        return CLASSIC
    return board(n, variant).variant  # validates (jigsaw regions, cages on the board, ...)


def grid_art(puzzle: str, box_rows: int, box_cols: int, solution: str | None = None, *,
             variant: Variant | None = None) -> GridArt:
    """The drawing of ``puzzle`` (a row's string: ``.`` blank, ``1-9A-G``), or of its answer when
    ``solution`` is given (every cell, the givens marked as such), under ``variant`` (None: classic).
    Raises ``ValueError`` for a wrong length or a variant that does not fit the board."""
    n = box_rows * box_cols
    if len(puzzle) != n * n or (solution is not None and len(solution) != n * n):
        raise ValueError(f"a {n}x{n} grid needs {n * n} cells")
    marks = []
    for i, ch in enumerate(puzzle):
        r, c = divmod(i, n)
        if ch != ".":
            marks.append(Mark(r, c, ch, True))
        elif solution is not None:
            marks.append(Mark(r, c, solution[i], False))
    return GridArt(n, box_rows, box_cols, tuple(marks), _variant_of(n, variant))


#: The columns of a set row that describe its variant (:func:`pipeline.board.variant_columns`).
VARIANT_COLUMNS = ("variant", "regions", "cages")


def variant_of_row(row: dict[str, Any]) -> Variant:
    """The variant of a set row from its ``variant``, ``regions`` and ``cages`` columns; a row without
    them (an old part) or with nulls is classic."""
    kinds, cages = row.get("variant"), row.get("cages")
    return make_variant(list(kinds) if kinds is not None else None, row.get("regions"),
                        list(cages) if cages is not None else None)  # list(): an array has no truth value


def art_of(row: dict[str, Any], answer: bool = False) -> GridArt:
    """:func:`grid_art` for a set row (a mapping with ``puzzle``, ``solution``, ``box_rows``,
    ``box_cols`` and, for a variant, ``variant``, ``regions``, ``cages``)."""
    return grid_art(row["puzzle"], int(row["box_rows"]), int(row["box_cols"]), row["solution"] if answer else None,
                    variant=variant_of_row(row))


def weights(side: float) -> tuple[float, float, float]:
    """Line widths ``(cell, box, frame)`` in points for a grid ``side`` points wide."""
    box = min(2.0, max(0.9, side / 150.0))
    cell = min(0.6, max(0.3, box / 3.2))
    return cell, box, box * 1.25


def font_ratio(n: int) -> float:
    """Symbol size as a fraction of the cell side (16x16 a little smaller: its cells are small)."""
    return 0.6 if n <= 9 else 0.56


def sum_ratio(n: int) -> float:
    """Size of a killer cage's sum as a fraction of the cell side (small type: it shares the cell
    with a given, whose cap height starts below the sum's baseline)."""
    return 0.22 if n <= 9 else 0.2


def sum_patch(art: GridArt, row: int, col: int, text: str) -> tuple[float, float, float, float]:
    """The patch ``(x0, y0, x1, y1)`` in cells behind the sum ``text`` of the cage whose first cell
    is (``row``, ``col``): the digits' box plus :data:`SUM_PAD`, filled with the cell's colour so the
    dashed outline stops at the sum instead of running through it."""
    size = sum_ratio(art.n)
    return (col + SUM_LEFT - SUM_PAD, row + SUM_TOP - SUM_PAD,
            col + SUM_LEFT + len(text) * DIGIT_ADVANCE * size + SUM_PAD, row + SUM_TOP + CAP_HEIGHT * size + SUM_PAD)


def _grey_hex(g: float) -> str:
    v = round(255 * g)
    return f"#{v:02x}{v:02x}{v:02x}"


# ---------------------------------------------------------------------------------------------
# PDF (reportlab canvas; the caller registered the fonts)
# ---------------------------------------------------------------------------------------------


def draw_pdf(canvas: Any, art: GridArt, x: float, y_top: float, side: float, *, bold: str, regular: str,
             cap_height: float = CAP_HEIGHT, gray: bool = True) -> None:
    """Draw ``art`` on a reportlab ``canvas`` as vectors: top-left corner at (``x``, ``y_top``) in
    PDF points (y up), ``side`` points wide. ``bold``/``regular`` are registered font names for
    givens and filled-in symbols (and cage sums); ``cap_height`` is their cap height per point of
    font size. Order: shading, cage outlines and the patches behind their sums, rules, frame, sums,
    symbols (a classic grid draws only rules, frame and symbols). Every colour is DeviceGray (K only,
    what a printer wants for black type and hairlines) unless ``gray`` is False (DeviceRGB greys)."""
    cell = side / art.n
    thin, thick, frame = weights(side)
    canvas.saveState()
    _pdf_variant_under(canvas, art, x, y_top, cell, thin, gray)
    _stroke(canvas, 0.0, gray)
    canvas.setLineCap(2)  # projecting square caps: box rules meet the frame without notches
    for kind, x0, y0, x1, y1 in art.rules():
        canvas.setLineWidth(thin if kind == "cell" else thick)
        canvas.line(x + x0 * cell, y_top - y0 * cell, x + x1 * cell, y_top - y1 * cell)
    canvas.setLineWidth(frame)
    canvas.setLineJoin(0)
    canvas.rect(x, y_top - side, side, side, stroke=1, fill=0)
    sums = art.cage_sums()
    if sums:
        size = cell * sum_ratio(art.n)
        canvas.setFont(regular, size)
        _fill(canvas, 0.0, gray)
        for r, c, text in sums:
            canvas.drawString(x + (c + SUM_LEFT) * cell, y_top - (r + SUM_TOP) * cell - cap_height * size, text)
    size = cell * font_ratio(art.n)
    for given in (True, False):
        marks = [m for m in art.marks if m.given == given]
        if not marks:
            continue
        canvas.setFont(bold if given else regular, size)
        _fill(canvas, 0.0 if given else GREY[0], gray)
        for m in marks:
            cx = x + (m.col + 0.5) * cell
            cy = y_top - (m.row + 0.5) * cell
            canvas.drawCentredString(cx, cy - cap_height * size / 2, m.symbol)
    canvas.restoreState()


def _fill(canvas: Any, grey: float, gray: bool) -> None:
    """Set the fill colour to ``grey`` (0 black .. 1 white): DeviceGray, or DeviceRGB when not ``gray``."""
    if gray:
        canvas.setFillGray(grey)
    else:
        canvas.setFillColorRGB(grey, grey, grey)


def _stroke(canvas: Any, grey: float, gray: bool) -> None:
    """Set the stroke colour to ``grey``: DeviceGray, or DeviceRGB when not ``gray``."""
    if gray:
        canvas.setStrokeGray(grey)
    else:
        canvas.setStrokeColorRGB(grey, grey, grey)


def _pdf_variant_under(canvas: Any, art: GridArt, x: float, y_top: float, cell: float, width: float,
                       gray: bool = True) -> None:
    """What a variant draws under the rules: shaded cells, dashed cage outlines (``width`` points),
    the patches behind the cage sums. Nothing for a classic or jigsaw grid."""
    for r, c, grey in art.shading():
        _fill(canvas, grey, gray)
        canvas.rect(x + c * cell, y_top - (r + 1) * cell, cell, cell, stroke=0, fill=1)
    thin, thick, frame = weights(cell * art.n)
    outlines = art.cage_outlines((thin / 2 / cell, thick / 2 / cell, frame / 2 / cell))
    if not outlines:
        return
    canvas.saveState()
    _stroke(canvas, 0.0, gray)
    canvas.setLineWidth(width)
    canvas.setLineCap(0)
    canvas.setLineJoin(0)  # mitre: an L dash at a corner has a square outer corner
    for _cage, loops in outlines:
        path = canvas.beginPath()
        for loop in loops:
            for piece in dash_pieces(loop, *CAGE_DASH):
                path.moveTo(x + piece[0][0] * cell, y_top - piece[0][1] * cell)
                for px, py in piece[1:]:
                    path.lineTo(x + px * cell, y_top - py * cell)
        canvas.drawPath(path, stroke=1, fill=0)
    canvas.restoreState()
    for r, c, text in art.cage_sums():
        x0, y0, x1, y1 = sum_patch(art, r, c, text)
        _fill(canvas, art.shade_of(r, c), gray)
        canvas.rect(x + x0 * cell, y_top - y1 * cell, (x1 - x0) * cell, (y1 - y0) * cell, stroke=0, fill=1)


# ---------------------------------------------------------------------------------------------
# SVG (plain text; one <text> element per mark and per cage sum, nothing else is <text>)
# ---------------------------------------------------------------------------------------------

SVG_CELL = 40.0  # px per cell


def to_svg(art: GridArt, title: str = "", highlight: Mapping[int, str] | None = None) -> str:
    """An SVG document of ``art``: exactly one ``<text>`` element per mark (so a classic puzzle's
    file has one per given) and, on a killer board, one ``<text class="cage-sum">`` per cage; the
    rules as ``<line>`` elements and the frame as a ``<rect>``; a variant's shaded cells as ``<rect
    class="shade">`` and each cage as one dashed ``<path class="cage">`` (``stroke-dasharray``), drawn
    under the rules. ``title`` goes into ``<title>`` (the puzzle id). ``highlight`` (cell index ->
    CSS colour) fills those cells as ``<rect class="mark">`` over the shading, under the rules and
    digits (the studio's marked cells; files written by ``export`` have none)."""
    side = art.n * SVG_CELL
    thin, thick, frame = (w / 0.75 for w in weights(side * 0.75))  # pt -> px at 96 dpi
    pad = frame
    total = side + 2 * pad
    size = SVG_CELL * font_ratio(art.n)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{total:g}" height="{total:g}" '
           f'viewBox="0 0 {total:g} {total:g}">',
           f"<title>{escape(title)}</title>",
           f'<rect x="0" y="0" width="{total:g}" height="{total:g}" fill="#fff"/>']
    out += _svg_variant_under(art, pad, thin)
    for cell, colour in sorted((highlight or {}).items()):
        r, c = divmod(cell, art.n)
        out.append(f'<rect class="mark" x="{pad + c * SVG_CELL:g}" y="{pad + r * SVG_CELL:g}" '
                   f'width="{SVG_CELL:g}" height="{SVG_CELL:g}" fill="{escape(colour)}"/>')
    out.append('<g stroke="#000" stroke-linecap="square">')
    for kind, x0, y0, x1, y1 in art.rules():
        out.append(f'<line x1="{pad + x0 * SVG_CELL:g}" y1="{pad + y0 * SVG_CELL:g}" x2="{pad + x1 * SVG_CELL:g}" '
                   f'y2="{pad + y1 * SVG_CELL:g}" stroke-width="{thin if kind == "cell" else thick:.2f}"/>')
    out.append(f'<rect x="{pad:g}" y="{pad:g}" width="{side:g}" height="{side:g}" fill="none" '
               f'stroke-width="{frame:.2f}"/>')
    out.append("</g>")
    sums = art.cage_sums()
    if sums:
        small = SVG_CELL * sum_ratio(art.n)
        out.append(f'<g font-family="DejaVu Sans, Verdana, Arial, sans-serif" font-size="{small:.1f}" fill="#000">')
        for r, c, text in sums:
            out.append(f'<text class="cage-sum" x="{pad + (c + SUM_LEFT) * SVG_CELL:.2f}" '
                       f'y="{pad + (r + SUM_TOP) * SVG_CELL + CAP_HEIGHT * small:.2f}">{escape(text)}</text>')
        out.append("</g>")
    out.append(f'<g font-family="DejaVu Sans, Verdana, Arial, sans-serif" font-size="{size:.1f}" '
               'text-anchor="middle">')
    for m in art.marks:
        cx = pad + (m.col + 0.5) * SVG_CELL
        baseline = pad + (m.row + 0.5) * SVG_CELL + CAP_HEIGHT * size / 2
        style = 'font-weight="bold" fill="#000"' if m.given else 'fill="#5c5c5c"'
        out.append(f'<text x="{cx:g}" y="{baseline:.2f}" {style}>{escape(m.symbol)}</text>')
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _svg_variant_under(art: GridArt, pad: float, width: float) -> list[str]:
    """The SVG elements a variant draws under the rules (see :func:`to_svg`); none for classic or jigsaw."""
    out = []
    for r, c, grey in art.shading():
        out.append(f'<rect class="shade" x="{pad + c * SVG_CELL:g}" y="{pad + r * SVG_CELL:g}" '
                   f'width="{SVG_CELL:g}" height="{SVG_CELL:g}" fill="{_grey_hex(grey)}"/>')
    side = art.n * SVG_CELL
    thin, thick, frame = (w / 0.75 / 2 / SVG_CELL for w in weights(side * 0.75))  # as to_svg draws the rules
    outlines = art.cage_outlines((thin, thick, frame))
    if not outlines:
        return out
    out.append(f'<g fill="none" stroke="#000" stroke-width="{width:.2f}" stroke-linejoin="miter" '
               'stroke-linecap="butt">')
    for cage, loops in outlines:
        d = " ".join("M" + " L".join(f"{pad + px * SVG_CELL:.2f},{pad + py * SVG_CELL:.2f}" for px, py in piece)
                     for loop in loops for piece in dash_pieces(loop, *CAGE_DASH))
        out.append(f'<path class="cage" data-sum="{cage.total}" d="{d}"/>')
    out.append("</g>")
    for r, c, text in art.cage_sums():
        x0, y0, x1, y1 = sum_patch(art, r, c, text)
        out.append(f'<rect class="sum-patch" x="{pad + x0 * SVG_CELL:.2f}" y="{pad + y0 * SVG_CELL:.2f}" '
                   f'width="{(x1 - x0) * SVG_CELL:.2f}" height="{(y1 - y0) * SVG_CELL:.2f}" '
                   f'fill="{_grey_hex(art.shade_of(r, c))}"/>')
    return out


# ---------------------------------------------------------------------------------------------
# PNG (Pillow)
# ---------------------------------------------------------------------------------------------


def png_cell(n: int) -> int:
    """Pixels per cell of a PNG grid: 9x9 comes out 432 px wide, 16x16 576 px."""
    return 48 if n <= 9 else 36


def to_image(art: GridArt, cell: int | None = None) -> Image.Image:
    """``art`` as a white RGB Pillow image, ``cell`` pixels per cell (default :func:`png_cell`)."""
    from PIL import Image, ImageDraw, ImageFont

    cell = cell or png_cell(art.n)
    side = art.n * cell
    thin, thick, frame = (max(low, round(w / 0.75)) for low, w in zip((1, 3, 4), weights(side * 0.75), strict=True))
    pad = frame
    img = Image.new("RGB", (side + 2 * pad, side + 2 * pad), "white")
    draw = ImageDraw.Draw(img)
    _png_variant_under(draw, art, pad, cell, thin, (thin, thick, frame))

    def rule(x0: float, y0: float, x1: float, y1: float, w: int) -> None:
        a, b = int(pad + x0 * cell), int(pad + y0 * cell)
        c, d = int(pad + x1 * cell), int(pad + y1 * cell)
        lo = w // 2
        draw.rectangle((a - lo, b - lo, c - lo + w - 1, d - lo + w - 1), fill="black")

    for kind, x0, y0, x1, y1 in art.rules():
        rule(x0, y0, x1, y1, thin if kind == "cell" else thick)
    n = float(art.n)
    for x0, y0, x1, y1 in ((0, 0, n, 0), (0, n, n, n), (0, 0, 0, n), (n, 0, n, n)):
        rule(x0, y0, x1, y1, frame)
    sums = art.cage_sums()
    if sums:
        small = ImageFont.truetype(str(font_path("sans")), round(cell * sum_ratio(art.n)))
        cap = -small.getbbox("8", anchor="ls")[1]
        for r, c, text in sums:
            draw.text((pad + (c + SUM_LEFT) * cell, pad + (r + SUM_TOP) * cell + cap), text, font=small, anchor="ls",
                      fill="black")
    size = round(cell * font_ratio(art.n))
    fonts = {True: ImageFont.truetype(str(font_path("sans-bold")), size),
             False: ImageFont.truetype(str(font_path("sans")), size)}
    for m in art.marks:
        font = fonts[m.given]
        cap = -font.getbbox("8", anchor="ls")[1]
        cx = pad + (m.col + 0.5) * cell
        cy = pad + (m.row + 0.5) * cell
        draw.text((cx, cy + cap / 2), m.symbol, font=font, anchor="ms",
                  fill="black" if m.given else tuple(round(255 * v) for v in GREY))
    return img


def _png_variant_under(draw: Any, art: GridArt, pad: int, cell: int, width: int,
                       rules: tuple[int, int, int] | None = None) -> None:
    """What a variant draws under the rules (see :func:`draw_pdf`), in pixels; ``rules`` are the
    pixel widths of the cell rules, box rules and frame (the cage outlines keep clear of their ink)."""
    for r, c, grey in art.shading():
        v = round(255 * grey)
        draw.rectangle((pad + c * cell, pad + r * cell, pad + (c + 1) * cell - 1, pad + (r + 1) * cell - 1),
                       fill=(v, v, v))
    half = (rules[0] / 2 / cell, rules[1] / 2 / cell, rules[2] / 2 / cell) if rules is not None else None
    for _cage, loops in art.cage_outlines(half):
        for loop in loops:
            for piece in dash_pieces(loop, *CAGE_DASH):
                _png_polyline(draw, [(pad + px * cell, pad + py * cell) for px, py in piece], width)
    for r, c, text in art.cage_sums():
        x0, y0, x1, y1 = sum_patch(art, r, c, text)
        v = round(255 * art.shade_of(r, c))
        draw.rectangle((round(pad + x0 * cell), round(pad + y0 * cell), round(pad + x1 * cell),
                        round(pad + y1 * cell)), fill=(v, v, v))


def _png_polyline(draw: Any, points: list[tuple[float, float]], width: int) -> None:
    """An axis-parallel polyline ``width`` pixels wide in black: each segment a filled rectangle,
    reaching half the width past every inner point (a square, mitred corner) and stopping flat at
    the two ends (butt caps), as the PDF and SVG strokes are drawn."""
    last = len(points) - 2
    for k, ((ax, ay), (bx, by)) in enumerate(itertools.pairwise(points)):
        lo = width / 2
        if ay == by:  # horizontal
            x0, x1 = min(ax, bx), max(ax, bx)
            ext0 = lo if (k > 0 if ax <= bx else k < last) else 0.0
            ext1 = lo if (k < last if ax <= bx else k > 0) else 0.0
            box = (x0 - ext0, ay - lo, x1 + ext1, ay + lo)
        else:
            y0, y1 = min(ay, by), max(ay, by)
            ext0 = lo if (k > 0 if ay <= by else k < last) else 0.0
            ext1 = lo if (k < last if ay <= by else k > 0) else 0.0
            box = (ax - lo, y0 - ext0, ax + lo, y1 + ext1)
        left, top = round(box[0]), round(box[1])
        right, bottom = max(left + 1, round(box[2])), max(top + 1, round(box[3]))
        draw.rectangle((left, top, right - 1, bottom - 1), fill="black")


def to_png(art: GridArt, path: Path, cell: int | None = None) -> None:
    """Write ``art`` as a PNG file at ``path`` (see :func:`to_image`)."""
    to_image(art, cell).save(path, format="PNG", optimize=True)
