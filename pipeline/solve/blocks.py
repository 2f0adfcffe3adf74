"""Puzzles in a text of several lines as people and ``numplace show`` write them (:func:`show_lines`
is show's text): the one reading of drawn grids, shared by the command line
(:func:`pipeline.solve.batch.load`) and the studio (:mod:`pipeline.studio.puzzle_io`).

Contracts:

* :func:`puzzles` takes the non-blank, non-comment lines of a text (1-based line number, stripped
  text) and gives the puzzles in it, each as ``(line number, text)`` that
  :func:`pipeline.board.parse_with_rules` reads: plain puzzle text, or a JSON puzzle line when its
  block lists a variant.
* A line is *text* when it holds a word of two or more letters that are not all cell symbols: a
  title (``Puzzle 1 (easy)``), ``show``'s header (``default-classic-000001  hints 24 ...``); text
  before a grid is left out. Every other line is a *grid line* (cells ``1``-``9``, ``A``-``G``,
  ``.``, ``0``, drawing characters ``| + - = : _ * #``, or a mistake the parser will name).
* A run of consecutive grid lines is one drawn grid (its lines joined), except a run whose first
  line is a whole puzzle written without spaces: then each line is a puzzle of its own (one puzzle
  per line; a bad line is named by its own number). A drawn 16x16 row (16 cells with spaces) is a
  row, not a 4x4 puzzle.
* After a grid, ``show``'s variant lines belong to it: ``variant x+hyper``, ``regions:`` and the
  board's ``n`` lines of region labels, ``cages (K):`` and the lines of cages ``r1c1+r1c2=12``. The
  puzzle is then a JSON puzzle line with ``variant``, ``regions`` and ``cages``.
* A text with nothing to read gives no puzzle; a run that is not a whole puzzle comes back as it is,
  so the parser names what is wrong with it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from pipeline import board
from pipeline.board import SYMBOLS, PuzzleFormatError, size_of

#: What a grid line may hold besides the drawing characters.
_CELLS = frozenset(SYMBOLS[:16] + ".0")
_CAGE = re.compile(r"^((?:r\d+c\d+\+)*r\d+c\d+)=(\d+)$")
_CELL = re.compile(r"r(\d+)c(\d+)")

Item = tuple[int, str]


def grid_line(line: str) -> bool:
    """False for a line of text (a word of two or more letters, not all cell symbols), else True."""
    return all(len(w) < 2 or set(w.upper()) <= _CELLS for w in re.findall(r"[A-Za-z]+", line))


def _whole(text: str) -> bool:
    """True when ``text`` alone is a whole puzzle of a size read here."""
    try:
        size_of(text)
    except PuzzleFormatError:
        return False
    return True


def _variant_lines(items: list[Item], k: int, n: int) -> tuple[dict[str, object], int]:
    """The variant fields of ``show``'s lines from ``items[k]`` on, and the index after them."""
    fields: dict[str, object] = {}
    while k < len(items):
        text = items[k][1]
        if text.startswith("variant "):
            fields["variant"] = text.split(None, 1)[1].strip()
            k += 1
        elif text == "regions:":
            labels = [ln for _, ln in items[k + 1:k + 1 + n]]
            fields["regions"] = "".join("".join(ln.split()) for ln in labels)
            k += 1 + len(labels)
        elif re.match(r"^cages \(\d+\):$", text):
            cages: list[dict[str, object]] = []
            k += 1
            while k < len(items) and all(_CAGE.match(tok) for tok in items[k][1].split()):
                for tok in items[k][1].split():
                    cells, total = tok.split("=")
                    cages.append({"cells": [(int(r) - 1) * n + int(c) - 1 for r, c in _CELL.findall(cells)],
                                  "sum": int(total)})
                k += 1
            fields["cages"] = cages
        else:
            break
    return fields, k


def puzzles(items: list[Item]) -> list[Item]:
    """The puzzles of the lines ``items`` (see the module docstring), in order."""
    out: list[Item] = []
    k = 0
    while k < len(items):
        if not grid_line(items[k][1]):
            k += 1  # a title or show's header line
            continue
        run = []
        while k < len(items) and grid_line(items[k][1]):
            run.append(items[k])
            k += 1
        if _whole(run[0][1]) and len(run[0][1].split()) == 1:
            out += run  # one puzzle per line
            continue
        text = "\n".join(ln for _, ln in run)
        try:
            n = size_of(text)
        except PuzzleFormatError:
            out.append((run[0][0], text))  # the parser says what is wrong with it
            continue
        fields, k = _variant_lines(items, k, n)
        out.append((run[0][0], json.dumps({"puzzle": text, **fields}) if fields else text))
    return out


def show_lines(rows: Iterable[Mapping[str, Any]], fmt: str = "grid") -> Iterator[str]:
    """What ``numplace show`` prints for set rows (the Parquet columns), the text :func:`puzzles` reads
    back. ``grid``: per puzzle a header line (id, hints, symmetry, minimality, level and score), the
    drawn grid (:func:`pipeline.board.format_grid`: box rules, or a jigsaw's region borders), the
    variant's lines (:func:`pipeline.board.describe_variant`) and an empty line. ``line``: one line a
    puzzle, the puzzle line of a classic puzzle, else its JSON puzzle line (``puzzle``, ``variant``,
    ``regions``, ``cages``)."""
    for row in rows:
        variant = board.make_variant(row.get("variant"), row.get("regions"), row.get("cages"))
        if fmt == "line":
            if variant.classic:
                yield row["puzzle"]
            else:
                cols = board.variant_columns(variant)
                yield json.dumps({"puzzle": row["puzzle"], **{k: v for k, v in cols.items() if v}})
            continue
        grid = board.parse(row["puzzle"], row["size"])
        yield (f"{row['puzzle_id']}  hints {row['hints']}  symmetry {row['symmetry']}  "
               f"minimal {row['minimal']}  orbit_minimal {row['orbit_minimal']}  "
               f"difficulty {row.get('difficulty')} {row.get('difficulty_score', 0):g}")
        yield board.format_grid(grid, variant)
        yield from board.describe_variant(variant, int(row["size"]))
        yield ""
