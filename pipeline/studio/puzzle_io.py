"""Puzzles as the studio's pages take them: query parameters, a table of cells, an uploaded file.

Pure functions, no web framework: the pages and their tests share them.

* A page's puzzle is a :class:`PuzzleQuery`: the puzzle text as typed (one line or a drawn grid) and
  the variant fields of the JSON line form (``variant``, ``regions``, ``cages``), read from and
  written to the URL's query parameters of the same names (:func:`from_params`, :meth:`PuzzleQuery.params`).
* :func:`parse` reads it exactly as ``numplace solve`` reads a JSON puzzle line
  (:func:`pipeline.board.parse_with_rules`); a mistake is a :class:`~pipeline.board.PuzzleFormatError`
  with one line naming the field, the cell or the region.
* :func:`table` / :func:`from_table`: the puzzle as rows of cells, for the click-and-type grid.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from pipeline.board import SYMBOLS, Grid, PuzzleFormatError, Variant, format_line, parse_with_rules, size_of_grid
from pipeline.difficulty.candidates import Step
from pipeline.errors import UserError

#: Board sides a page offers for an empty grid.
SIDES = (4, 6, 9, 16)
#: The variant names a page offers (the ``board.variant`` names).
KINDS = ("x", "hyper", "jigsaw", "killer")


@dataclass(frozen=True)
class PuzzleQuery:
    """A puzzle as a page holds it: ``puzzle`` text, and the JSON line form's variant fields as text
    (``variant`` like ``x+hyper``, ``regions`` one label per cell, ``cages`` a JSON list)."""

    puzzle: str = ""
    variant: str = ""
    regions: str = ""
    cages: str = ""

    def params(self) -> dict[str, str]:
        """The URL query parameters that reproduce this puzzle (empty fields left out)."""
        return {k: v for k, v in (("puzzle", self.puzzle), ("variant", self.variant), ("regions", self.regions),
                                  ("cages", self.cages)) if v}

    def json_line(self) -> str:
        """The puzzle as ``numplace solve`` takes it: a JSON puzzle line when a variant field is set,
        else the text itself. A ``cages`` field that is not JSON stays text (so :func:`parse` names it)."""
        if not (self.variant or self.regions or self.cages):
            return self.puzzle
        data: dict[str, object] = {"puzzle": self.puzzle}
        if self.variant:
            data["variant"] = self.variant
        if self.regions:
            data["regions"] = self.regions
        if self.cages:
            data["cages"] = json.loads(self.cages)
        return json.dumps(data)


def _text(value: object) -> str:
    if isinstance(value, list | tuple):
        value = value[-1] if value else ""
    return str(value).strip() if value is not None else ""


def from_params(params: Mapping[str, object]) -> PuzzleQuery:
    """The puzzle a URL names (``puzzle``, ``variant``, ``regions``, ``cages``); missing keys are empty."""
    return PuzzleQuery(*(_text(params.get(k)) for k in ("puzzle", "variant", "regions", "cages")))


def query_of(text: str) -> PuzzleQuery:
    """A puzzle as a file or a set row gives it (plain text, or a JSON puzzle line whose variant fields
    become the query's); text that is not a readable JSON object stays whole, so :func:`parse` names
    the problem."""
    stripped = text.strip()
    if not stripped.startswith("{"):
        return PuzzleQuery(stripped)
    try:
        data = json.loads(stripped)
    except json.JSONDecodeError:
        return PuzzleQuery(stripped)
    if not isinstance(data, dict) or not isinstance(data.get("puzzle"), str):
        return PuzzleQuery(stripped)
    kinds, regions, cages = data.get("variant"), data.get("regions"), data.get("cages")
    variant = "+".join(str(k) for k in kinds) if isinstance(kinds, list) else str(kinds or "")
    return PuzzleQuery(data["puzzle"], "" if variant == "classic" else variant, str(regions or ""),
                       json.dumps(cages) if cages else "")


def parse(query: PuzzleQuery) -> tuple[Grid, Variant]:
    """The grid and rules of ``query``; raises :class:`PuzzleFormatError` with one line."""
    if not query.puzzle.strip():
        raise PuzzleFormatError("puzzle: empty; type digits into the grid or paste a line")
    if query.cages:
        try:
            json.loads(query.cages)
        except json.JSONDecodeError as exc:
            raise PuzzleFormatError(f"cages: not JSON: {exc.msg} at character {exc.pos + 1}") from None
    try:
        return parse_with_rules(query.json_line())
    except PuzzleFormatError as exc:
        text = query.puzzle.strip()
        _as_typed(exc, text)
        if not text.startswith("{") and str(exc).startswith("puzzle has ") and \
                any(ch.isalpha() and ch.upper() not in SYMBOLS[:16] for ch in text):
            raise PuzzleFormatError(
                "not a puzzle: expected one line of 81 symbols for 9x9 (1-9, and . or 0 for blank; 16, 36 or "
                "256 for 4x4, 6x6, 16x16), a drawn grid as numplace show prints it, or a JSON puzzle line") from None
        raise


_UNKNOWN = re.compile(r"^unknown symbol '(.)' at row (\d+), column (\d+) ")


def _as_typed(exc: PuzzleFormatError, text: str) -> None:
    """Raise ``exc`` again naming the symbol as ``text`` (a one-line puzzle) has it (the reader names
    it upper-cased: a typed ``a`` is told as ``'a'``, not ``'A'``); return when that cannot be told."""
    m = _UNKNOWN.match(str(exc))
    line = "".join(text.split())
    n = round(len(line) ** 0.5)
    if m is None or n * n != len(line) or text.startswith("{"):
        return
    typed = line[(int(m.group(2)) - 1) * n + int(m.group(3)) - 1]
    if typed != m.group(1) and typed.upper() == m.group(1):
        raise PuzzleFormatError(f"unknown symbol {typed!r}" + str(exc)[m.end(1) + 1:]) from None


def empty(n: int) -> str:
    """The empty ``n`` x ``n`` puzzle as a line."""
    return "." * (n * n)


def table(line: str, n: int) -> list[list[str]]:
    """``line`` (``n*n`` symbols, ``.`` blank) as ``n`` rows of cells, blanks as empty strings."""
    cells = [("" if ch in ".0" else ch) for ch in line]
    return [cells[r * n:(r + 1) * n] for r in range(n)]


def from_table(rows: Sequence[Sequence[object]]) -> str:
    """Rows of cells (None, empty, ``.`` or ``0`` blank) as a line; raises :class:`PuzzleFormatError`
    naming the first cell that holds more than one symbol or one not on the board."""
    n = len(rows)
    alphabet = SYMBOLS[:n]
    out = []
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            typed = "" if value is None else str(value).strip()
            text = typed.upper()
            if text in ("", ".", "0"):
                out.append(".")
            elif text in alphabet and len(text) == 1:
                out.append(text)
            else:  # what was typed, as it was typed
                raise PuzzleFormatError(f"row {r + 1}, column {c + 1}: {typed!r} is not a symbol of a {n}x{n} puzzle "
                                        f"({alphabet[0]}-{alphabet[-1]}, or empty)")
    return "".join(out)


def drawn_grid(text: str) -> str:
    """The one puzzle of ``text`` as :func:`pipeline.solve.blocks.puzzles` reads it (the reading of
    ``numplace solve``: a title or ``show``'s header line before the grid left out, its variant lines
    after it read); other text (no puzzle, or several) is returned as it is."""
    from pipeline.solve import blocks

    items = [(k + 1, s) for k, ln in enumerate(text.splitlines()) if (s := ln.strip()) and not s.startswith("#")]
    found = blocks.puzzles(items) if len(items) > 1 else []
    return found[0][1] if len(found) == 1 else text


def line_of(text: str) -> str | None:
    """``text`` (a line or a drawn grid; a grid as ``numplace show`` prints it, header and all) as a
    line, or None if it is not a puzzle."""
    for candidate in (text, drawn_grid(text)):
        try:
            grid, _ = parse_with_rules(candidate)
        except PuzzleFormatError:
            continue
        return format_line(grid)
    return None


def side_of(grid: Grid) -> int:
    """The board side of ``grid``."""
    return size_of_grid(grid)


def differing(a: Grid, b: Grid) -> list[int]:
    """The cells where two grids differ, in order."""
    return [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]


def grid_after(puzzle: Grid, steps: Sequence[Step], k: int) -> Grid:
    """``puzzle`` with the placements of the first ``k`` steps of a solving path filled in."""
    out = list(puzzle)
    for step in steps[:k]:
        for cell, digit in step.placements:
            out[cell] = digit
    return tuple(out)


def read_upload(name: str, data: bytes) -> tuple[str, int]:
    """The first puzzle of an uploaded file and how many the file holds, read as ``numplace solve``
    reads a file (text: one puzzle per line or one drawn grid; ``.csv`` / ``.parquet`` with a puzzle
    column). Raises a :class:`~pipeline.errors.UserError` with one line for a file it cannot read."""
    from pipeline.solve import batch

    suffix = Path(name).suffix.lower() or ".txt"
    if suffix not in (".txt", ".sdk", ".csv", ".parquet", ".jsonl", ".json"):
        suffix = ".txt"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"upload{suffix}"
        path.write_bytes(data)
        try:
            source = batch.load(str(path))
        except UserError as exc:  # the reader names its file: name the upload instead
            raise PuzzleFormatError(str(exc).replace(str(path), name)) from None
    if not source.items:
        raise PuzzleFormatError(f"{name}: no puzzle in the file")
    return source.items[0][1], len(source.items)
