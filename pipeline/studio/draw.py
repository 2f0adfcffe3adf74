"""Grids for the studio's pages: the publisher's SVG (:func:`pipeline.publish.render.to_svg`) with
marked cells. Pure: returns SVG text.

The marks and their meaning are fixed (:data:`MARKS`), so a legend can say what a colour means.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from pipeline.board import Grid, Variant, board, format_line, size_of_grid
from pipeline.publish import render

#: What a marked cell means -> its fill colour.
MARKS: dict[str, str] = {
    "changed": "#ffd54f",  # a given the repair changed
    "differ": "#ffab91",  # the two solutions differ here
    "core": "#ef9a9a",  # a given of the core that cannot stand together
    "pattern": "#bbdefb",  # a cell of the current step's pattern
    "placed": "#a5d6a7",  # the current step sets this cell
    "removed": "#f8bbd0",  # the current step removes a candidate here
    "fixed": "#d1c4e9",  # a fixed cell of a generated grid
}


def marks(**cells: Iterable[int]) -> dict[int, str]:
    """Cell -> colour for the given kinds, e.g. ``marks(pattern=[0, 1], placed=[5])``; a later kind
    wins where two mark the same cell. Raises ``KeyError`` for an unknown kind."""
    out: dict[int, str] = {}
    for kind, where in cells.items():
        colour = MARKS[kind]
        for i in where:
            out[int(i)] = colour
    return out


def svg(puzzle: Grid, variant: Variant | None = None, solution: Grid | None = None,
        highlight: Mapping[int, str] | None = None, title: str = "") -> str:
    """The SVG of ``puzzle`` (givens bold) or, with ``solution``, of the answer (the givens bold, the
    rest grey; blanks of a partial ``solution`` stay blank), under ``variant``, with ``highlight``
    cells filled (see :data:`MARKS`)."""
    n = size_of_grid(puzzle)
    b = board(n)
    art = render.grid_art(format_line(puzzle), b.box_rows, b.box_cols,
                          format_line(solution) if solution is not None else None, variant=variant)
    if solution is not None and 0 in solution:  # a grid part-way through a solve: its blanks stay blank
        art = replace(art, marks=tuple(m for m in art.marks if m.symbol != "."))
    return render.to_svg(art, title, highlight)
