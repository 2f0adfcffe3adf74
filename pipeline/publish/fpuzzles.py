"""Puzzles as f-puzzles links: the JSON form of f-puzzles.com, lz-string compressed, in a URL.

Contracts
---------
* :func:`to_fpuzzles` gives the f-puzzles JSON of a set row: ``size``, ``title`` (the puzzle id),
  ``author``, ``ruleset``, and ``grid``, ``size`` rows of ``size`` cells, each ``{"value": d,
  "given": true}`` for a given and ``{}`` for a blank. Variants: X sets ``"diagonal+"`` and
  ``"diagonal-"``; hyper adds its four windows as ``extraregion`` entries (``{"cells": ["R2C2",
  ...]}``, 1-based ``R<row>C<col>`` names); jigsaw gives every cell its ``region`` (0-based, in
  order of first appearance, as the ``regions`` column numbers them from 1); killer adds
  ``killercage`` entries ``{"cells": [...], "value": "<sum>"}``. The layout of givens, the rules and
  the cages are all in it, so the puzzle is the same puzzle.
* :func:`link` is ``https://f-puzzles.com/?load=`` followed by lz-string's ``compressToBase64`` of
  that JSON (compact, keys in the order above), the form f-puzzles and the solvers that read its
  links (SudokuPad among them) load.
* :func:`from_fpuzzles` and :func:`read_link` read such a JSON or link back into the row's
  ``puzzle``, ``size``, ``variant``, ``regions`` and ``cages`` (what the round-trip test compares).
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

from pipeline.board import BOX_SHAPES, HYPER_WINDOWS_9, SYMBOLS, make_variant, normal_regions
from pipeline.publish.lzstring import compress_to_base64, decompress_from_base64

BASE = "https://f-puzzles.com/?load="
RULES = {"x": "Each main diagonal holds every digit once.",
         "hyper": "Each of the four shaded 3x3 windows holds every digit once.",
         "jigsaw": "Each outlined region holds every digit once.",
         "killer": "The digits in a cage add up to its sum and do not repeat."}
_CELL = re.compile(r"^R(\d+)C(\d+)$")


def _name(i: int, n: int) -> str:
    return f"R{i // n + 1}C{i % n + 1}"


def _index(name: str, n: int) -> int:
    m = _CELL.match(name)
    if m is None:
        raise ValueError(f"f-puzzles cell {name!r} is not R<row>C<col>")
    return (int(m.group(1)) - 1) * n + int(m.group(2)) - 1


def to_fpuzzles(row: dict[str, Any]) -> dict[str, Any]:
    """The f-puzzles JSON of a set row (see the module docstring)."""
    n = int(row["size"])
    puzzle = str(row["puzzle"])
    v = make_variant(row.get("variant"), row.get("regions"), row.get("cages"))
    kinds = [k for k in v.kinds]
    base = "Normal sudoku rules apply: each row, column and box holds every digit once."
    ruleset = " ".join([base if "jigsaw" not in kinds else base.replace("box", "region"),
                        *(RULES[k] for k in kinds if k != "jigsaw")])
    regions = v.regions
    grid = []
    for r in range(n):
        cells = []
        for c in range(n):
            i = r * n + c
            cell: dict[str, Any] = {}
            if puzzle[i] != ".":
                cell = {"value": SYMBOLS.index(puzzle[i]) + 1, "given": True}
            if regions is not None:
                cell["region"] = SYMBOLS.index(regions[i])
            cells.append(cell)
        grid.append(cells)
    out: dict[str, Any] = {"size": n, "title": str(row.get("puzzle_id") or ""), "author": "numplace",
                           "ruleset": ruleset, "grid": grid}
    if "x" in kinds:
        out["diagonal+"] = True
        out["diagonal-"] = True
    if "hyper" in kinds:
        out["extraregion"] = [{"cells": [_name(i, n) for i in w]} for w in HYPER_WINDOWS_9]
    if "killer" in kinds:
        out["killercage"] = [{"cells": [_name(i, n) for i in cage.cells], "value": str(cage.total)}
                             for cage in v.cages]
    return out


def link(row: dict[str, Any]) -> str:
    """The f-puzzles link of a set row: :data:`BASE` + lz-string base64 of its compact JSON."""
    return BASE + compress_to_base64(json.dumps(to_fpuzzles(row), separators=(",", ":")))


def from_fpuzzles(data: dict[str, Any]) -> dict[str, Any]:
    """The row fields an f-puzzles JSON describes: ``size``, ``puzzle``, ``variant``, ``regions``, ``cages``."""
    n = int(data["size"])
    if n not in BOX_SHAPES or len(data["grid"]) != n:
        raise ValueError(f"f-puzzles size {n} is not a board numplace knows")
    cells = [cell for line in data["grid"] for cell in line]
    puzzle = "".join(SYMBOLS[int(c["value"]) - 1] if c.get("given") and c.get("value") else "." for c in cells)
    kinds = []
    if data.get("diagonal+") and data.get("diagonal-"):
        kinds.append("x")
    windows = {tuple(sorted(_index(x, n) for x in e["cells"])) for e in data.get("extraregion") or []}
    if windows and windows == set(HYPER_WINDOWS_9):
        kinds.append("hyper")
    regions = None
    if any("region" in c for c in cells):
        kinds.append("jigsaw")
        regions = normal_regions("".join(SYMBOLS[int(c["region"])] for c in cells))
    cages = None
    if data.get("killercage"):
        kinds.append("killer")
        cages = [{"cells": sorted(_index(x, n) for x in e["cells"]), "sum": int(e["value"])}
                 for e in data["killercage"]]
    return {"size": n, "puzzle": puzzle, "variant": sorted(kinds), "regions": regions, "cages": cages}


def read_link(url: str) -> dict[str, Any]:
    """:func:`from_fpuzzles` of the JSON in an f-puzzles link."""
    raw = parse_qs(urlsplit(url).query, keep_blank_values=True).get("load", [""])[0].replace(" ", "+")
    text = decompress_from_base64(raw)
    if not text:
        raise ValueError("not an f-puzzles link: its load= data does not decompress")
    return from_fpuzzles(json.loads(text))
