"""The vocabulary every other module speaks (after Norvig's sudoku glossary).

Glossary
--------
board   the geometry of one Sudoku size: side ``n = box_rows * box_cols``.
cell    an index ``0 <= i < n*n`` in row-major order; ``(r, c) = divmod(i, n)``.
unit    a row, a column or a box: a tuple of ``n`` cells that must hold each digit once.
peers   the other cells that share a unit with a cell.
digit   an int ``1..n``; ``0`` means blank.
symbol  the character of a digit: ``1``-``9`` then ``A``-``P`` for 10..25; ``.`` is blank on output,
        ``.`` or ``0`` on input.
grid    a tuple of ``n*n`` digits, row-major, with ``0`` for a blank (a puzzle is a grid with blanks).

Supported sizes: 4 (2x2 boxes), 6 (2x3), 9 (3x3), 16 (4x4), 25 (5x5; geometry only).
All static structure is computed once per size and cached.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

SYMBOLS = "123456789ABCDEFGHIJKLMNOP"
BOX_SHAPES: dict[int, tuple[int, int]] = {4: (2, 2), 6: (2, 3), 9: (3, 3), 16: (4, 4), 25: (5, 5)}
SIZES = tuple(BOX_SHAPES)
PUZZLE_SIZES = (4, 6, 9, 16)  # the sizes puzzle text may have (size_of, parse without n); 25 is geometry only

Grid = tuple[int, ...]


class PuzzleFormatError(ValueError):
    """A puzzle text that cannot be read; the message names what and where."""


@dataclass(frozen=True)
class Board:
    """Static geometry of one board size. Build with :func:`board` (cached), not directly."""

    n: int
    box_rows: int
    box_cols: int
    units: tuple[tuple[int, ...], ...] = field(repr=False)
    rows: tuple[tuple[int, ...], ...] = field(repr=False)
    cols: tuple[tuple[int, ...], ...] = field(repr=False)
    boxes: tuple[tuple[int, ...], ...] = field(repr=False)
    peers: tuple[frozenset[int], ...] = field(repr=False)
    box_of: tuple[int, ...] = field(repr=False)

    @property
    def ncells(self) -> int:
        return self.n * self.n

    @property
    def symbols(self) -> str:
        return SYMBOLS[: self.n]

    def rc(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.n)


@cache
def board(n: int) -> Board:
    """The board of side ``n``; raises ``ValueError`` for a size we do not support."""
    if n not in BOX_SHAPES:
        raise ValueError(f"board size {n} is not supported (choose one of {', '.join(map(str, SIZES))})")
    br, bc = BOX_SHAPES[n]
    rows = tuple(tuple(r * n + c for c in range(n)) for r in range(n))
    cols = tuple(tuple(r * n + c for r in range(n)) for c in range(n))
    boxes = tuple(
        tuple((b0 + r) * n + (c0 + c) for r in range(br) for c in range(bc))
        for b0 in range(0, n, br)
        for c0 in range(0, n, bc)
    )
    box_of = [0] * (n * n)
    for b, cells in enumerate(boxes):
        for i in cells:
            box_of[i] = b
    units = rows + cols + boxes
    peers = tuple(
        frozenset(j for u in (rows[i // n], cols[i % n], boxes[box_of[i]]) for j in u) - {i}
        for i in range(n * n)
    )
    return Board(n, br, bc, units, rows, cols, boxes, peers, tuple(box_of))


# ---------------------------------------------------------------------------------------------
# parse / format
# ---------------------------------------------------------------------------------------------

_BLANKS = ".0"
_DRAWING = re.compile(r"[\s|+\-=:_*#]")


def _tokens(text: str) -> str:
    """Strip whitespace and grid-drawing characters; keep symbols and blanks, upper-cased."""
    return _DRAWING.sub("", text).upper()


def size_of(text: str) -> int:
    """The board side implied by a puzzle text (``n*n`` symbols) among :data:`PUZZLE_SIZES` (25x25 is
    geometry only: no solver, grader or canonical form takes it, so its text is refused here, clearly);
    raises PuzzleFormatError."""
    k = len(_tokens(text))
    for n in PUZZLE_SIZES:
        if n * n == k:
            return n
    if k in {n * n for n in SIZES}:
        side = round(k ** 0.5)
        raise PuzzleFormatError(f"{side}x{side} puzzles are not supported (sizes "
                                f"{', '.join(f'{n}x{n}' for n in PUZZLE_SIZES)})")
    sizes = ", ".join(f"{n * n} for {n}x{n}" for n in PUZZLE_SIZES)
    raise PuzzleFormatError(f"puzzle has {k} cells; expected {sizes}")


def parse(text: str, n: int | None = None) -> Grid:
    """Read a puzzle: one line or a drawn grid, ``.`` or ``0`` for blanks.

    Whitespace and the drawing characters ``| + - = : _ * #`` are ignored. With ``n`` given the
    length must be ``n*n``; without it the size is inferred. Raises :class:`PuzzleFormatError`
    naming the first bad symbol (row and column, 1-based) or the wrong length.
    """
    toks = _tokens(text)
    if n is None:
        n = size_of(text)
    elif len(toks) != n * n:
        raise PuzzleFormatError(f"puzzle has {len(toks)} cells; a {n}x{n} puzzle needs {n * n}")
    alphabet = SYMBOLS[:n]
    out: list[int] = []
    for i, ch in enumerate(toks):
        if ch in _BLANKS:
            out.append(0)
        elif ch in alphabet:
            out.append(alphabet.index(ch) + 1)
        else:
            r, c = divmod(i, n)
            raise PuzzleFormatError(
                f"unknown symbol {ch!r} at row {r + 1}, column {c + 1} "
                f"(a {n}x{n} puzzle uses {alphabet[0]}-{alphabet[-1]} and . or 0 for blank)"
            )
    return tuple(out)


def format_line(grid: Grid) -> str:
    """One line, row-major, ``.`` for blank."""
    return "".join(SYMBOLS[d - 1] if d else "." for d in grid)


def format_grid(grid: Grid) -> str:
    """A drawn grid with box rules, e.g. for 9x9 ``5 3 . | . 7 . | . . .`` lines."""
    b = board(size_of_grid(grid))
    n, br, bc = b.n, b.box_rows, b.box_cols
    sep = "-+-".join(["-" * (2 * bc - 1)] * (n // bc))
    lines = []
    for r in range(n):
        if r and r % br == 0:
            lines.append(sep)
        row = grid[r * n : (r + 1) * n]
        chunks = [" ".join(SYMBOLS[d - 1] if d else "." for d in row[c : c + bc]) for c in range(0, n, bc)]
        lines.append(" | ".join(chunks))
    return "\n".join(lines)


def size_of_grid(grid: Grid) -> int:
    """Side of a grid given as a digit tuple."""
    k = len(grid)
    for n in SIZES:
        if n * n == k:
            return n
    raise PuzzleFormatError(f"grid has {k} cells, which is not the square of a supported size")


def conflict(grid: Grid) -> str | None:
    """The first unit holding a digit twice, in words (1-based), or None.

    E.g. ``row 1 has two 8s (columns 3 and 7)``, ``column 2 has two 5s (rows 1 and 4)``,
    ``box 3 has two 1s (r1c7 and r3c9)``.
    """
    b = board(size_of_grid(grid))
    for kind, units in (("row", b.rows), ("column", b.cols), ("box", b.boxes)):
        for k, unit in enumerate(units):
            seen: dict[int, int] = {}
            for i in unit:
                d = grid[i]
                if not d:
                    continue
                if d in seen:
                    (r1, c1), (r2, c2) = b.rc(seen[d]), b.rc(i)
                    where = {
                        "row": f"columns {c1 + 1} and {c2 + 1}",
                        "column": f"rows {r1 + 1} and {r2 + 1}",
                        "box": f"r{r1 + 1}c{c1 + 1} and r{r2 + 1}c{c2 + 1}",
                    }[kind]
                    return f"{kind} {k + 1} has two {SYMBOLS[d - 1]}s ({where})"
                seen[d] = i
    return None


def hints(grid: Grid) -> int:
    """Number of givens (non-blank cells)."""
    return sum(1 for d in grid if d)
