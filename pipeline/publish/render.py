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
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from pipeline.publish.select import PublishError

if TYPE_CHECKING:
    from PIL import Image

#: Cap height of DejaVu Sans (digits and capitals), as a fraction of the font size.
CAP_HEIGHT = 0.729
GREY = (0.36, 0.36, 0.36)  # filled-in symbols of an answer, as RGB in 0..1

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
    (the givens of a puzzle; every cell of an answer). Coordinates are in cells, origin top-left."""

    n: int
    box_rows: int
    box_cols: int
    marks: tuple[Mark, ...]

    def rules(self) -> Iterator[tuple[str, float, float, float, float]]:
        """Inner rules as ``(kind, x0, y0, x1, y1)``: ``kind`` is ``cell`` or ``box``; cell rules
        come first, so box rules are drawn over them. The frame is not among them."""
        n = self.n
        for kind in ("cell", "box"):
            for k in range(1, n):
                if (k % self.box_cols == 0) == (kind == "box"):
                    yield kind, float(k), 0.0, float(k), float(n)  # vertical, between columns k-1 and k
                if (k % self.box_rows == 0) == (kind == "box"):
                    yield kind, 0.0, float(k), float(n), float(k)  # horizontal


def grid_art(puzzle: str, box_rows: int, box_cols: int, solution: str | None = None) -> GridArt:
    """The drawing of ``puzzle`` (a row's string: ``.`` blank, ``1-9A-G``), or of its answer when
    ``solution`` is given (every cell, the givens marked as such)."""
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
    return GridArt(n, box_rows, box_cols, tuple(marks))


def art_of(row: dict[str, Any], answer: bool = False) -> GridArt:
    """:func:`grid_art` for a set row (a mapping with ``puzzle``, ``solution``, ``box_rows``, ``box_cols``)."""
    return grid_art(row["puzzle"], int(row["box_rows"]), int(row["box_cols"]), row["solution"] if answer else None)


def weights(side: float) -> tuple[float, float, float]:
    """Line widths ``(cell, box, frame)`` in points for a grid ``side`` points wide."""
    box = min(2.0, max(0.9, side / 150.0))
    cell = min(0.6, max(0.3, box / 3.2))
    return cell, box, box * 1.25


def font_ratio(n: int) -> float:
    """Symbol size as a fraction of the cell side (16x16 a little smaller: its cells are small)."""
    return 0.6 if n <= 9 else 0.56


# ---------------------------------------------------------------------------------------------
# PDF (reportlab canvas; the caller registered the fonts)
# ---------------------------------------------------------------------------------------------


def draw_pdf(canvas: Any, art: GridArt, x: float, y_top: float, side: float, *, bold: str, regular: str,
             cap_height: float = CAP_HEIGHT) -> None:
    """Draw ``art`` on a reportlab ``canvas`` as vectors: top-left corner at (``x``, ``y_top``) in
    PDF points (y up), ``side`` points wide. ``bold``/``regular`` are registered font names for
    givens and filled-in symbols; ``cap_height`` is their cap height per point of font size."""
    cell = side / art.n
    thin, thick, frame = weights(side)
    canvas.saveState()
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineCap(2)  # projecting square caps: box rules meet the frame without notches
    for kind, x0, y0, x1, y1 in art.rules():
        canvas.setLineWidth(thin if kind == "cell" else thick)
        canvas.line(x + x0 * cell, y_top - y0 * cell, x + x1 * cell, y_top - y1 * cell)
    canvas.setLineWidth(frame)
    canvas.setLineJoin(0)
    canvas.rect(x, y_top - side, side, side, stroke=1, fill=0)
    size = cell * font_ratio(art.n)
    for given in (True, False):
        marks = [m for m in art.marks if m.given == given]
        if not marks:
            continue
        canvas.setFont(bold if given else regular, size)
        canvas.setFillColorRGB(*((0.0, 0.0, 0.0) if given else GREY))
        for m in marks:
            cx = x + (m.col + 0.5) * cell
            cy = y_top - (m.row + 0.5) * cell
            canvas.drawCentredString(cx, cy - cap_height * size / 2, m.symbol)
    canvas.restoreState()


# ---------------------------------------------------------------------------------------------
# SVG (plain text; one <text> element per mark, nothing else is <text>)
# ---------------------------------------------------------------------------------------------

SVG_CELL = 40.0  # px per cell


def to_svg(art: GridArt, title: str = "") -> str:
    """An SVG document of ``art``: exactly one ``<text>`` element per mark (so a puzzle's file has
    one per given), the rules as ``<line>`` elements and the frame as a ``<rect>``; ``title`` goes
    into ``<title>`` (the puzzle id)."""
    side = art.n * SVG_CELL
    thin, thick, frame = (w / 0.75 for w in weights(side * 0.75))  # pt -> px at 96 dpi
    pad = frame
    total = side + 2 * pad
    size = SVG_CELL * font_ratio(art.n)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{total:g}" height="{total:g}" '
           f'viewBox="0 0 {total:g} {total:g}">',
           f"<title>{escape(title)}</title>",
           f'<rect x="0" y="0" width="{total:g}" height="{total:g}" fill="#fff"/>',
           '<g stroke="#000" stroke-linecap="square">']
    for kind, x0, y0, x1, y1 in art.rules():
        out.append(f'<line x1="{pad + x0 * SVG_CELL:g}" y1="{pad + y0 * SVG_CELL:g}" x2="{pad + x1 * SVG_CELL:g}" '
                   f'y2="{pad + y1 * SVG_CELL:g}" stroke-width="{thin if kind == "cell" else thick:.2f}"/>')
    out.append(f'<rect x="{pad:g}" y="{pad:g}" width="{side:g}" height="{side:g}" fill="none" '
               f'stroke-width="{frame:.2f}"/>')
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


def to_png(art: GridArt, path: Path, cell: int | None = None) -> None:
    """Write ``art`` as a PNG file at ``path`` (see :func:`to_image`)."""
    to_image(art, cell).save(path, format="PNG", optimize=True)

