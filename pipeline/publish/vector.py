"""One grid as a vector PDF, for layout programs that place each puzzle as a graphic.

Contracts
---------
* **One page, the grid's size**: the page is ``side`` points square (``export --size``, 60 mm by
  default) and the grid fills it, its frame included; nothing else is on the page.
* **K only**: every colour is DeviceGray (``g`` / ``G`` operators; black is ``0 g``, the shading
  of variants a grey), never RGB or CMYK, so a printer's RIP prints black with black ink alone.
  The grid is drawn by :func:`pipeline.publish.render.draw_pdf` on a canvas that turns each grey
  it is given into a gray operator (a non-grey colour is an error, never printed in colour).
* **Fonts embedded**: the symbols are DejaVu Sans (regular and bold) embedded as TrueType
  subsets; the page's initial font is one of them, so no font is referenced that is not embedded.
* **Creation date**: the one rule of :mod:`pipeline.publish.dates`: the time of writing, or
  ``SOURCE_DATE_EPOCH`` when it is set (then the same grid gives the same bytes: reportlab's
  invariant mode, its document id fixed).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline import __version__
from pipeline.publish import render
from pipeline.publish.dates import source_date_epoch

REGULAR = "numplace-grid-sans"
BOLD = "numplace-grid-sans-bold"
#: The default side of a grid PDF: 60 mm, in points.
DEFAULT_SIDE_PT = 60 * 72 / 25.4


def register_fonts() -> float:
    """Register the two embedded fonts with reportlab (once); returns the bold font's cap height
    per point. Raises :class:`~pipeline.publish.render.FontMissingError` when a file is missing."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for name, key in ((REGULAR, "sans"), (BOLD, "sans-bold")):
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(render.font_path(key))))
    return float(pdfmetrics.getFont(BOLD).face.capHeight) / 1000.0


def _grey(r: float, g: float, b: float) -> float:
    if not (abs(r - g) < 1e-9 and abs(g - b) < 1e-9):
        raise ValueError(f"a grid PDF is K only: ({r}, {g}, {b}) is not a grey")
    return float(r)


class GrayCanvas:
    """A reportlab canvas whose RGB colours (greys only) are written as DeviceGray."""

    def __init__(self, canvas: Any) -> None:
        self._canvas = canvas

    def __getattr__(self, name: str) -> Any:
        return getattr(self._canvas, name)

    def setFillColorRGB(self, r: float, g: float, b: float, alpha: float | None = None) -> None:
        self._canvas.setFillGray(_grey(r, g, b))

    def setStrokeColorRGB(self, r: float, g: float, b: float, alpha: float | None = None) -> None:
        self._canvas.setStrokeGray(_grey(r, g, b))

    def setFillColor(self, color: Any, alpha: float | None = None) -> None:
        self._canvas.setFillGray(_grey(*color.rgb()))

    def setStrokeColor(self, color: Any, alpha: float | None = None) -> None:
        self._canvas.setStrokeGray(_grey(*color.rgb()))


def write_pdf(art: render.GridArt, path: Path, side: float = DEFAULT_SIDE_PT, title: str = "") -> None:
    """Write ``art`` as a one-page vector PDF ``side`` points square at ``path`` (see the module docstring)."""
    from reportlab.pdfgen.canvas import Canvas

    cap = register_fonts()
    invariant = 1 if source_date_epoch() is not None else 0
    canvas = Canvas(str(path), pagesize=(side, side), invariant=invariant, initialFontName=REGULAR,
                    initialFontSize=10, pageCompression=1)
    canvas.setTitle(title)
    canvas.setCreator(f"numplace {__version__}")
    gray = GrayCanvas(canvas)
    gray.setFillGray(0)
    gray.setStrokeGray(0)
    _, _, frame = render.weights(side)
    inset = frame / 2  # the frame's stroke is centred on the grid's edge: keep it on the page
    render.draw_pdf(gray, art, inset, side - inset, side - 2 * inset, bold=BOLD, regular=REGULAR, cap_height=cap)
    canvas.showPage()
    canvas.save()
