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

variant the rules beyond the classic ones (:class:`Variant`): ``x`` (both main diagonals are units),
        ``hyper`` (the four windoku windows of 9x9 are units), ``jigsaw`` (irregular regions replace
        the boxes), ``killer`` (cages: no digit twice in a cage, the cage's digits add up to its sum).
region  a box of a jigsaw board: one of the ``n`` connected groups of ``n`` cells in ``Variant.regions``.
cage    a killer cage (:class:`Cage`): cells and the sum of their digits; a cage is not a unit (it need
        not hold every digit) but its cells are peers.

Supported sizes: 4 (2x2 boxes), 6 (2x3), 9 (3x3), 16 (4x4), 25 (5x5: sets of classic puzzles under a hints
rule; text of that size is read only with its size given, see :data:`PUZZLE_SIZES`).
All static structure is computed once per (size, variant) and cached.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from pipeline.errors import UserError

SYMBOLS = "123456789ABCDEFGHIJKLMNOP"
BOX_SHAPES: dict[int, tuple[int, int]] = {4: (2, 2), 6: (2, 3), 9: (3, 3), 16: (4, 4), 25: (5, 5)}
SIZES = tuple(BOX_SHAPES)
PUZZLE_SIZES = (4, 6, 9, 16)  # the sizes size_of infers (solve, rate, canon); 25x25 text needs parse(text, 25)

Grid = tuple[int, ...]

#: The variant kinds, in their canonical order (``Variant.kinds`` is a sorted subset).
VARIANT_KINDS = ("hyper", "jigsaw", "killer", "x")
#: The four windoku windows of 9x9 (rows and columns 2-4 and 6-8, 1-based): the ``hyper`` units.
HYPER_WINDOWS_9 = tuple(tuple((r0 + r) * 9 + c0 + c for r in range(3) for c in range(3))
                        for r0 in (1, 5) for c0 in (1, 5))


class PuzzleFormatError(UserError, ValueError):
    """A puzzle text that cannot be read; the message names what and where."""


@dataclass(frozen=True, order=True)
class Cage:
    """A killer cage: ``cells`` (sorted cell indices) whose digits are distinct and add up to ``total``
    (the Parquet field ``sum``)."""

    cells: tuple[int, ...]
    total: int


@dataclass(frozen=True)
class Variant:
    """The rules of a board beyond rows, columns and boxes; ``Variant()`` is classic Sudoku.

    ``kinds`` is a sorted, duplicate-free subset of :data:`VARIANT_KINDS`; ``regions`` (jigsaw only) is
    ``n*n`` region labels in row-major order, normalised by :func:`normal_regions`; ``cages`` (killer
    only) are disjoint, sorted. A killer variant without cages is the *rule* (a config's, before its
    cages are drawn); a puzzle's variant has them. Build from user text with :func:`make_variant`.
    """

    kinds: tuple[str, ...] = ()
    regions: str | None = None
    cages: tuple[Cage, ...] = ()

    @property
    def classic(self) -> bool:
        return not self.kinds

    @property
    def units_only(self) -> Variant:
        """The same rules without the cages (what every puzzle of a killer set shares)."""
        return Variant(self.kinds, self.regions) if self.cages else self


CLASSIC = Variant()


def variant_columns(variant: Variant) -> dict[str, Any]:
    """The Parquet columns of a variant: ``variant`` (list of kinds, empty for classic), ``regions``
    (normalised labels or None), ``cages`` (list of ``{"cells": [...], "sum": s}`` or None)."""
    return {"variant": list(variant.kinds), "regions": variant.regions,
            "cages": [{"cells": list(c.cells), "sum": c.total} for c in variant.cages] or None}


@dataclass(frozen=True)
class Board:
    """Static geometry of one board size and variant. Build with :func:`board` (cached), not directly.

    ``boxes`` are the jigsaw regions on a jigsaw board (``box_rows``/``box_cols`` stay the classic box
    shape, used only to draw classic box rules); ``extra`` are the variant's added units (diagonals,
    windows), also in ``units``; ``peers`` include cage mates.
    """

    n: int
    box_rows: int
    box_cols: int
    units: tuple[tuple[int, ...], ...] = field(repr=False)
    rows: tuple[tuple[int, ...], ...] = field(repr=False)
    cols: tuple[tuple[int, ...], ...] = field(repr=False)
    boxes: tuple[tuple[int, ...], ...] = field(repr=False)
    peers: tuple[frozenset[int], ...] = field(repr=False)
    box_of: tuple[int, ...] = field(repr=False)
    variant: Variant = CLASSIC
    extra: tuple[tuple[int, ...], ...] = field(default=(), repr=False)

    @property
    def cages(self) -> tuple[Cage, ...]:
        return self.variant.cages

    @property
    def ncells(self) -> int:
        return self.n * self.n

    @property
    def symbols(self) -> str:
        return SYMBOLS[: self.n]

    def rc(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.n)


def board(n: int, variant: Variant | None = None) -> Board:
    """The board of side ``n`` under ``variant`` (None = classic); raises ``ValueError`` for a size we
    do not support or a variant that does not fit the board (the message of :func:`variant_problem`)."""
    if variant is None or variant == CLASSIC:
        return _classic(n)
    return _variant_board(n, variant)


@cache
def _classic(n: int) -> Board:
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
    return _assemble(n, rows, cols, boxes, (), CLASSIC)


@lru_cache(maxsize=256)
def _variant_board(n: int, variant: Variant) -> Board:
    why = variant_problem(n, variant)
    if why:
        raise ValueError(why)
    classic = _classic(n)
    boxes = classic.boxes
    if variant.regions is not None:
        labels = variant.regions
        order = list(dict.fromkeys(labels))
        boxes = tuple(tuple(i for i in range(n * n) if labels[i] == lab) for lab in order)
    extra: list[tuple[int, ...]] = []
    if "x" in variant.kinds:
        extra += [tuple(k * n + k for k in range(n)), tuple(k * n + n - 1 - k for k in range(n))]
    if "hyper" in variant.kinds:
        extra += list(HYPER_WINDOWS_9)
    return _assemble(n, classic.rows, classic.cols, boxes, tuple(extra), variant)


def _assemble(n: int, rows: tuple[tuple[int, ...], ...], cols: tuple[tuple[int, ...], ...],
              boxes: tuple[tuple[int, ...], ...], extra: tuple[tuple[int, ...], ...], variant: Variant) -> Board:
    br, bc = BOX_SHAPES[n]
    box_of = [0] * (n * n)
    for b, cells in enumerate(boxes):
        for i in cells:
            box_of[i] = b
    units = rows + cols + boxes + extra
    groups: list[list[tuple[int, ...]]] = [[] for _ in range(n * n)]
    for u in (*units, *(c.cells for c in variant.cages)):
        for i in u:
            groups[i].append(u)
    peers = tuple(frozenset(j for u in groups[i] for j in u) - {i} for i in range(n * n))
    return Board(n, br, bc, units, rows, cols, boxes, peers, tuple(box_of), variant, extra)


# ---------------------------------------------------------------------------------------------
# variants: validation and normal forms
# ---------------------------------------------------------------------------------------------

def normal_regions(text: str) -> str:
    """Region labels without whitespace, renamed to symbols ``1``, ``2``, ... in order of first
    appearance (so two spellings of one layout compare equal). Length is not checked here."""
    labels = "".join(text.split())
    names: dict[str, str] = {}
    for ch in labels:
        if ch not in names:
            names[ch] = SYMBOLS[len(names)] if len(names) < len(SYMBOLS) else ch
    return "".join(names[ch] for ch in labels)


def regions_problem(n: int, text: str) -> str | None:
    """Why ``text`` is not a jigsaw layout for side ``n`` (None when it is): it must hold ``n*n``
    labels (whitespace ignored) naming ``n`` regions of ``n`` cells each, every region connected
    (cells joined through shared edges). The message names the region and a cell (1-based)."""
    labels = "".join(text.split())
    if len(labels) != n * n:
        return f"has {len(labels)} labels; a {n}x{n} board needs {n * n} (one per cell)"
    cells: dict[str, list[int]] = {}
    for i, ch in enumerate(labels):
        cells.setdefault(ch, []).append(i)
    if len(cells) != n:
        return f"names {len(cells)} regions ({', '.join(cells)}); a {n}x{n} board needs {n}"
    for lab, members in cells.items():
        r, c = divmod(members[0], n)
        if len(members) != n:
            return f"region {lab!r} has {len(members)} cells (first at row {r + 1}, column {c + 1}); each needs {n}"
        seen, todo, inside = {members[0]}, [members[0]], set(members)
        while todo:
            i = todo.pop()
            r0, c0 = divmod(i, n)
            for j in ((i - n) if r0 else -1, (i + n) if r0 < n - 1 else -1, (i - 1) if c0 else -1,
                      (i + 1) if c0 < n - 1 else -1):
                if j in inside and j not in seen:
                    seen.add(j)
                    todo.append(j)
        if len(seen) != n:
            cut = min(inside - seen)
            r, c = divmod(cut, n)
            return f"region {lab!r} is not connected (row {r + 1}, column {c + 1} is cut off from the rest)"
    return None


def cages_problem(n: int, cages: tuple[Cage, ...]) -> str | None:
    """Why ``cages`` cannot be killer cages on side ``n`` (None when they can): cells on the board,
    no cell in two cages, no cage longer than ``n``, and each sum reachable by distinct digits."""
    used: dict[int, int] = {}
    for k, cage in enumerate(cages):
        if not cage.cells:
            return f"cage {k + 1} has no cells"
        for i in cage.cells:
            if not 0 <= i < n * n:
                return f"cage {k + 1} has cell {i}, outside the {n}x{n} board (cells are 0..{n * n - 1})"
            if i in used:
                r, c = divmod(i, n)
                return f"cages {used[i] + 1} and {k + 1} share row {r + 1}, column {c + 1}"
            used[i] = k
        m = len(cage.cells)
        if m > n:
            return f"cage {k + 1} has {m} cells; a {n}x{n} cage holds at most {n} distinct digits"
        low, high = m * (m + 1) // 2, m * (2 * n - m + 1) // 2
        if not low <= cage.total <= high:
            return f"cage {k + 1} sums to {cage.total}; {m} distinct digits of 1-{n} sum to {low}-{high}"
    return None


def variant_problem(n: int, variant: Variant) -> str | None:
    """Why ``variant`` does not fit a board of side ``n`` (None when it does), in one line."""
    if n not in BOX_SHAPES:
        return f"board size {n} is not supported (choose one of {', '.join(map(str, SIZES))})"
    unknown = [k for k in variant.kinds if k not in VARIANT_KINDS]
    if unknown:
        return f"unknown variant {unknown[0]!r} (choose from {', '.join(VARIANT_KINDS)})"
    if list(variant.kinds) != sorted(set(variant.kinds)):
        return "variant kinds must be sorted and distinct (build with make_variant)"
    if "hyper" in variant.kinds and n != 9:
        return (f"hyper is defined for 9x9 only (its four windows sit one cell inside the box lines); "
                f"a {n}x{n} board has no agreed window layout")
    if ("jigsaw" in variant.kinds) != (variant.regions is not None):
        return ("jigsaw needs board.regions" if variant.regions is None
                else "board.regions is given but the variant is not jigsaw")
    if variant.regions is not None:
        why = regions_problem(n, variant.regions)
        if why:
            return f"board.regions {why}"
    if variant.cages and "killer" not in variant.kinds:
        return "cages are given but the variant is not killer"
    return cages_problem(n, variant.cages)


def parse_with_rules(text: str, rules: Variant | None = None) -> tuple[Grid, Variant]:
    """A puzzle and the rules it is played by. ``text`` is plain puzzle text (:func:`parse`; the rules
    are then ``rules``, classic when None) or one JSON object named as the Parquet columns:
    ``{"puzzle": "...", "variant": ["killer"], "regions": null, "cages": [{"cells": [0, 1], "sum": 3}]}``
    (``variant`` also as ``"x+hyper"``; missing keys mean classic / none). Raises
    :class:`PuzzleFormatError` with one line naming the key, the cage or the region."""
    stripped = text.strip()
    if not stripped.startswith("{"):
        grid = parse(text)
        if rules is not None and not rules.classic:
            why = variant_problem(size_of_grid(grid), rules)
            if why:
                raise PuzzleFormatError(why)
        return grid, rules or CLASSIC
    import json

    try:
        data = json.loads(stripped)
    except json.JSONDecodeError as exc:
        raise PuzzleFormatError(f"not a JSON puzzle line: {exc.msg} at character {exc.pos + 1}") from None
    if not isinstance(data, dict) or not isinstance(data.get("puzzle"), str):
        raise PuzzleFormatError('a JSON puzzle line needs "puzzle" as a string')
    unknown = sorted(set(data) - {"puzzle", "variant", "regions", "cages", "puzzle_id"})
    if unknown:
        raise PuzzleFormatError(f"JSON puzzle line: unknown key {unknown[0]!r} "
                                "(known: puzzle, variant, regions, cages)")
    kinds, regions, cages = data.get("variant"), data.get("regions"), data.get("cages")
    if not (kinds is None or isinstance(kinds, str)
            or (isinstance(kinds, list) and all(isinstance(k, str) for k in kinds))):
        raise PuzzleFormatError('JSON puzzle line: "variant" must be a string such as "x+hyper" or a list of names')
    if regions is not None and not isinstance(regions, str):
        raise PuzzleFormatError('JSON puzzle line: "regions" must be a string of region labels')
    if cages is not None:
        if not isinstance(cages, list):
            raise PuzzleFormatError('JSON puzzle line: "cages" must be a list of {"cells": [...], "sum": s}')
        for k, c in enumerate(cages):
            if not (isinstance(c, dict) and set(c) == {"cells", "sum"} and isinstance(c["cells"], list)
                    and all(type(i) is int for i in c["cells"]) and type(c["sum"]) is int):
                raise PuzzleFormatError(f'JSON puzzle line: cages[{k}] must be {{"cells": [cell, ...], "sum": s}} '
                                        "with integer cells (0-based, row-major) and an integer sum")
    grid = parse(data["puzzle"])
    variant = make_variant(kinds, regions, cages) if kinds or regions or cages else (rules or CLASSIC)
    why = variant_problem(size_of_grid(grid), variant)
    if why:
        raise PuzzleFormatError(why)
    if "killer" in variant.kinds and not variant.cages:
        raise PuzzleFormatError("a killer puzzle needs its cages")
    return grid, variant


def describe_variant(variant: Variant, n: int) -> list[str]:
    """Text lines that show a variant's rules beside a drawn grid (nothing for classic): the kinds,
    the jigsaw regions drawn as ``n`` lines of labels, the killer cages as ``r1c1+r1c2=12``."""
    if variant.classic:
        return []
    out = [f"variant {'+'.join(variant.kinds)}"]
    if variant.regions is not None:
        out += ["regions:"] + ["  " + " ".join(variant.regions[r * n:(r + 1) * n]) for r in range(n)]
    if variant.cages:
        names = [f"{'+'.join(f'r{i // n + 1}c{i % n + 1}' for i in c.cells)}={c.total}" for c in variant.cages]
        out += [f"cages ({len(names)}):"] + ["  " + "  ".join(names[k:k + 6]) for k in range(0, len(names), 6)]
    return out


def make_variant(kinds: str | list[str] | tuple[str, ...] | None, regions: str | None = None,
                 cages: Any = ()) -> Variant:
    """A :class:`Variant` from user spellings or Parquet columns: ``kinds`` as ``"x+hyper"``,
    ``["x", "hyper"]``, ``"classic"``, ``[]`` or None; regions normalised (None stays None); cages
    (None = none) as :class:`Cage`, ``(cells, sum)`` pairs or ``{"cells": [...], "sum": s}`` dicts
    (the Parquet ``cages`` struct). Not validated against a size: call :func:`variant_problem`."""
    if kinds is None or kinds == "classic" or kinds == "":
        names: list[str] = []
    elif isinstance(kinds, str):
        names = [k.strip().lower() for k in kinds.split("+")]
    else:
        names = [str(k).strip().lower() for k in kinds]
    names = [k for k in names if k and k != "classic"]
    def cage(c: Any) -> Cage:
        if isinstance(c, Cage):
            return c
        cells, total = (c["cells"], c["sum"]) if isinstance(c, dict) else c
        return Cage(tuple(sorted(int(i) for i in cells)), int(total))

    made = tuple(sorted(cage(c) for c in (cages or ())))
    return Variant(tuple(sorted(set(names))), normal_regions(regions) if regions is not None else None, made)


# ---------------------------------------------------------------------------------------------
# parse / format
# ---------------------------------------------------------------------------------------------

_BLANKS = ".0"
_DRAWING = re.compile(r"[\s|+\-=:_*#]")
#: What a line keeps when ``-``, ``_`` and ``*`` are read as blanks (the notation fallback of :func:`_cells`).
_DRAWING_NOT_BLANK = re.compile(r"[\s|+=:#]")
#: The blank notations read besides ``.`` and ``0`` (only where the text does not add up otherwise).
OTHER_BLANKS = "-_*"
#: What a puzzle text may use, in words (the end of every size or symbol refusal).
NOTATION = ("blanks . or 0 (or -, _, * in a line of cells); 16x16 in 1-G, or in 0-F with . for blank")


def _tokens(text: str) -> str:
    """Strip whitespace and grid-drawing characters; keep symbols and blanks, upper-cased."""
    return _DRAWING.sub("", text).upper()


def _square(k: int) -> bool:
    return any(n * n == k for n in SIZES)


def _cells(text: str) -> str:
    """The cells of a puzzle text, upper-cased, one character each (``.`` or ``0`` blank).

    First the drawing characters ``| + - = : _ * #`` and whitespace are left out (:func:`_tokens`). Only
    when that does not give a board's number of cells, ``-``, ``_`` and ``*`` are read as blanks
    (``1-3-...``: a common notation), first on every line, then leaving out the lines that hold
    nothing else (a grid's rules); the first reading that gives a board's number of cells is kept, so
    a text read before keeps its meaning."""
    toks = _tokens(text)
    if _square(len(toks)) or not any(ch in text for ch in OTHER_BLANKS):
        return toks
    lines = [_DRAWING_NOT_BLANK.sub("", line) for line in text.splitlines()]
    for rules_out in (False, True):
        kept = "".join(line for line in lines if line and not (rules_out and not line.strip(OTHER_BLANKS)))
        cells = re.sub(r"[-_*]", ".", kept).upper()
        if _square(len(cells)):
            return cells
    return toks


def _hex_digits(cells: str, n: int) -> bool:
    """True when a 16x16 text is written in 0-F (``0`` a digit): it holds ``0`` and ``.`` (its blank)
    and no ``G``. A 16x16 text in 1-G with ``0`` as its only blank reads as before."""
    return n == 16 and "0" in cells and "." in cells and "G" not in cells


def size_of(text: str) -> int:
    """The board side implied by a puzzle text (``n*n`` symbols) among :data:`PUZZLE_SIZES` (25x25 text,
    which runs write, is refused here, clearly: the one-puzzle commands that infer the size do not take
    it); raises PuzzleFormatError."""
    k = len(_cells(text))
    for n in PUZZLE_SIZES:
        if n * n == k:
            return n
    if k in {n * n for n in SIZES}:
        side = round(k ** 0.5)
        raise PuzzleFormatError(f"{side}x{side} puzzles are made by run and generate but not read here "
                                f"(sizes read: {', '.join(f'{n}x{n}' for n in PUZZLE_SIZES)})")
    sizes = ", ".join(f"{n * n} for {n}x{n}" for n in PUZZLE_SIZES)
    raise PuzzleFormatError(f"puzzle has {k} cells; expected {sizes}; {NOTATION}")


def parse(text: str, n: int | None = None) -> Grid:
    """Read a puzzle: one line or a drawn grid, ``.`` or ``0`` for blanks.

    Whitespace and the drawing characters ``| + - = : _ * #`` are ignored; where that does not add up
    to a board, ``-``, ``_`` and ``*`` are blanks (:func:`_cells`). A 16x16 text in 0-F (it holds
    ``0``, ``.`` and no ``G``) reads ``0``-``F`` as 1-16. With ``n`` given the length must be ``n*n``;
    without it the size is inferred. Raises :class:`PuzzleFormatError` naming the first bad symbol
    (row and column, 1-based) or the wrong length, and the notations read.
    """
    toks = _cells(text)
    if n is None:
        n = size_of(text)
    elif len(toks) != n * n:
        raise PuzzleFormatError(f"puzzle has {len(toks)} cells; a {n}x{n} puzzle needs {n * n}")
    if _hex_digits(toks, n):
        return tuple(0 if ch == "." else int(ch, 16) + 1 if ch in "0123456789ABCDEF" else _bad(ch, toks, n)
                     for ch in toks)
    alphabet = SYMBOLS[:n]
    out: list[int] = []
    for ch in toks:
        if ch in _BLANKS:
            out.append(0)
        elif ch in alphabet:
            out.append(alphabet.index(ch) + 1)
        else:
            _bad(ch, toks, n)
    return tuple(out)


def _bad(ch: str, toks: str, n: int) -> int:
    """Raise the refusal of symbol ``ch`` (its first place in ``toks``) on an ``n`` x ``n`` board."""
    r, c = divmod(toks.index(ch), n)
    alphabet = SYMBOLS[:n]
    raise PuzzleFormatError(f"unknown symbol {ch!r} at row {r + 1}, column {c + 1} "
                            f"(a {n}x{n} puzzle uses {alphabet[0]}-{alphabet[-1]} and . or 0 for blank)")


def format_line(grid: Grid) -> str:
    """One line, row-major, ``.`` for blank."""
    return "".join(SYMBOLS[d - 1] if d else "." for d in grid)


def format_grid(grid: Grid, variant: Variant | None = None) -> str:
    """A drawn grid with box rules, e.g. for 9x9 ``5 3 . | . 7 . | . . .`` lines; on a jigsaw board
    (``variant`` with regions) the rules are the regions' borders instead (:func:`_format_regions`)."""
    b = board(size_of_grid(grid))
    if variant is not None and variant.regions is not None:
        return _format_regions(grid, variant.regions, b.n)
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


def _format_regions(grid: Grid, regions: str, n: int) -> str:
    """``grid`` drawn with its jigsaw regions' borders: ``|`` between two cells of a row in different
    regions, ``-`` under a cell whose neighbour below is in another region, ``+`` where they meet;
    every cell is three characters apart, so the columns line up."""
    def label(r: int, c: int) -> str:
        return regions[r * n + c]

    def wall(r: int, c: int) -> bool:  # between (r, c) and (r, c + 1)
        return 0 <= r < n and label(r, c) != label(r, c + 1)

    lines = []
    for r in range(n):
        if r:
            floor = [label(r - 1, c) != label(r, c) for c in range(n)]
            rule = "-" if floor[0] else " "
            for c in range(n - 1):
                meet = wall(r - 1, c) or wall(r, c)
                mid = "+" if meet and (floor[c] or floor[c + 1]) else "|" if wall(r - 1, c) and wall(r, c) else \
                    "-" if floor[c] and floor[c + 1] else " "
                right = "-" if floor[c + 1] else " "
                rule += ("-" if floor[c] else " ") + mid + right + right
            lines.append(rule.rstrip())
        row = "".join((SYMBOLS[grid[r * n + c] - 1] if grid[r * n + c] else ".")
                      + ((" | " if wall(r, c) else "   ") if c < n - 1 else "") for c in range(n))
        lines.append(row)
    return "\n".join(lines)


def size_of_grid(grid: Grid) -> int:
    """Side of a grid given as a digit tuple."""
    k = len(grid)
    for n in SIZES:
        if n * n == k:
            return n
    raise PuzzleFormatError(f"grid has {k} cells, which is not the square of a supported size")


def conflict(grid: Grid, variant: Variant | None = None) -> str | None:
    """The first unit (or killer cage) holding a digit twice, in words (1-based), or None.

    E.g. ``row 1 has two 8s (columns 3 and 7)``, ``column 2 has two 5s (rows 1 and 4)``,
    ``box 3 has two 1s (r1c7 and r3c9)``; on a variant board also ``region``, ``diagonal``,
    ``window`` and ``cage``. Cage sums are not checked here (a puzzle's cages are mostly blank).
    """
    b = board(size_of_grid(grid), variant)
    v = b.variant
    extra_kind = (["diagonal", "diagonal"] if "x" in v.kinds else []) + (["window"] * 4 if "hyper" in v.kinds else [])
    groups = ([("row", k, u) for k, u in enumerate(b.rows)] + [("column", k, u) for k, u in enumerate(b.cols)]
              + [("region" if v.regions else "box", k, u) for k, u in enumerate(b.boxes)]
              + [(extra_kind[k], k, u) for k, u in enumerate(b.extra)]
              + [("cage", k, c.cells) for k, c in enumerate(v.cages)])
    for kind, k, unit in groups:
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
                }.get(kind, f"r{r1 + 1}c{c1 + 1} and r{r2 + 1}c{c2 + 1}")
                return f"{kind} {k + 1} has two {SYMBOLS[d - 1]}s ({where})"
            seen[d] = i
    return None


def hints(grid: Grid) -> int:
    """Number of givens (non-blank cells)."""
    return sum(1 for d in grid if d)
