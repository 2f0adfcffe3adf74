"""Designed grids and clue patterns, read again from a run's saved config: what each row must honour.

A run whose config has ``grid.solution_symmetry``, ``grid.areas`` or ``removal.pattern``
(``docs/config.md``) makes solutions that are their own image under the map (``solution[m(r, c)] =
p(solution[r, c])``) and honour every area rule, and puzzles whose givens are exactly the pattern's
cells. :meth:`RunDesign.of` reads those keys from the config a manifest saved into the run's own
types: a :class:`~pipeline.generate.spec.Design` (the cell map of :func:`pipeline.symmetry.permutation`,
the digit map, the areas) and the pattern's cells; :meth:`RunDesign.problems` judges one row by them.

The text of the keys (masks, ``rRcC`` ranges, digit words) is parsed here, not by
:mod:`pipeline.config`'s parsers, so that a mistake there shows up as a finding instead of being
shared by the run and its check. A key this reader cannot read raises ValueError naming it (``a
grid.areas.0 the audit cannot read``); the audit reports it as a finding of the run and does not
judge the run's rows by that design. Stock puzzles are not judged by it either: another run's config
made them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pipeline import symmetry
from pipeline.board import SYMBOLS, parse
from pipeline.config import IMAGE_MAPS
from pipeline.generate.spec import Area, Design

# Masks and cell ranges read again on purpose (not config.parse_mask / parse_cells): the audit checks that parsing.
_MASK_IN = "#Xx1"
_MASK_CHARS = "#Xx1.0"


def _rc(i: int, n: int) -> str:
    return f"r{i // n + 1}c{i % n + 1}"


def _mask(text: str, n: int, what: str) -> frozenset[int]:
    """The marked cells of a drawn mask (``#``, ``X``, ``x`` or ``1`` marked; ``.`` or ``0`` not;
    whitespace ignored); raises ValueError naming ``what``."""
    chars = "".join(text.split())
    if len(chars) != n * n or any(ch not in _MASK_CHARS for ch in chars):
        raise ValueError(f"a {what} that is not a {n}x{n} mask")
    return frozenset(i for i, ch in enumerate(chars) if ch in _MASK_IN)


def _cells(text: str, n: int, what: str) -> frozenset[int]:
    """An area's cells: ``rRcC`` cells and ``rRcC-rRcC`` rectangles joined by commas (1-based), or a mask."""
    if all(ch in _MASK_CHARS or ch.isspace() for ch in text):
        return _mask(text, n, what)
    out: set[int] = set()
    for part in text.split(","):
        corners = []
        for end in part.split("-"):
            word = end.strip().lower()
            r, sep, c = word[1:].partition("c")
            if not (word.startswith("r") and sep and r.isdigit() and c.isdigit()
                    and 1 <= int(r) <= n and 1 <= int(c) <= n):
                raise ValueError(f"a {what} {part.strip()!r} the audit cannot read")
            corners.append((int(r) - 1, int(c) - 1))
        (r0, c0), (r1, c1) = corners[0], corners[-1]
        out.update(r * n + c for r in range(min(r0, r1), max(r0, r1) + 1) for c in range(min(c0, c1), max(c0, c1) + 1))
    return frozenset(out)


def _digit_map(word: str, n: int) -> tuple[int, ...] | None:
    """``grid.solution_symmetry.digits`` as ``(p(1), ..., p(n))``: ``reverse``, ``identity`` or the
    ``n`` symbols in some order; None when it is none of these."""
    alphabet = SYMBOLS[:n]
    if word == "reverse":
        return tuple(n + 1 - d for d in range(1, n + 1))
    if word == "identity":
        return tuple(range(1, n + 1))
    if sorted(word.upper()) == sorted(alphabet):
        return tuple(alphabet.index(ch) + 1 for ch in word.upper())
    return None


@dataclass(frozen=True)
class RunDesign:
    """What a run's config asks of each solution and puzzle on a board of side ``n``: ``design`` (the
    image and the areas, None when it has neither; an area's digits in the order the config lists
    them, so a finding names the first one missing), ``image`` (the words naming the image in a
    finding: ``rot180 with digits reverse``) and ``pattern`` (the given cells, or None)."""

    n: int
    design: Design | None
    image: str
    pattern: frozenset[int] | None

    @classmethod
    def of(cls, config: Mapping[str, Any]) -> RunDesign | None:
        """The design of a saved config, or None when it has none; raises ValueError (what cannot be read)."""
        grid: Mapping[str, Any] = config["grid"] if isinstance(config.get("grid"), dict) else {}
        removal: Mapping[str, Any] = config["removal"] if isinstance(config.get("removal"), dict) else {}
        sym, areas, pattern = grid.get("solution_symmetry"), grid.get("areas") or [], removal.get("pattern")
        if sym is None and not areas and pattern is None:
            return None
        size = config.get("board", {}).get("size", 9) if isinstance(config.get("board"), dict) else 9
        if size not in (4, 6, 9, 16):
            raise ValueError(f"a board size {size!r} the audit cannot read")
        n = int(size)
        cell_map = digit_map = None
        words = ""
        if sym is not None:
            if not isinstance(sym, dict) or sym.get("map") not in IMAGE_MAPS:
                raise ValueError("a grid.solution_symmetry the audit cannot read")
            name, word = sym["map"], str(sym.get("digits", "reverse"))
            digit_map = _digit_map(word, n)
            if digit_map is None:
                raise ValueError(f"a grid.solution_symmetry.digits {word!r} the audit cannot read")
            cell_map, words = symmetry.permutation(name, n), f"{name} with digits {word}"
        rules = []
        for k, area in enumerate(areas if isinstance(areas, list) else [None]):
            if not (isinstance(area, dict) and isinstance(area.get("cells"), str)
                    and area.get("rule") in ("only", "somewhere", "never") and isinstance(area.get("digits"), list)):
                raise ValueError(f"a grid.areas.{k} the audit cannot read")
            cells = _cells(area["cells"], n, f"grid.areas.{k}.cells")
            rules.append(Area(tuple(sorted(cells)), tuple(area["digits"]), area["rule"]))
        given = _mask(pattern, n, "removal.pattern") if isinstance(pattern, str) else None
        if pattern is not None and given is None:
            raise ValueError("a removal.pattern the audit cannot read")
        design = Design(cell_map, digit_map, tuple(rules)) if cell_map is not None or rules else None
        return cls(n, design, words, given)

    def problems(self, row: Mapping[str, Any]) -> list[str]:
        """Findings of one row against the design (none when its size is not the design's)."""
        n = self.n
        if row["size"] != n:
            return []  # the identity check names the size
        try:
            solution, puzzle = parse(str(row["solution"]), n), parse(str(row["puzzle"]), n)
        except ValueError:
            return []  # verify_row names it
        out = self._image_problems(solution) + self._area_problems(solution)
        if self.pattern is not None:
            given = {i for i, d in enumerate(puzzle) if d}
            missing, extra = sorted(self.pattern - given), sorted(given - self.pattern)
            if missing or extra:
                what = (f"{_rc(missing[0], n)} is blank" if missing else f"{_rc(extra[0], n)} is a given")
                out.append(f"givens are not exactly removal.pattern ({len(missing)} of its cells blank, {len(extra)} "
                           f"givens outside it; e.g. {what})")
        return out

    def _image_problems(self, solution: tuple[int, ...]) -> list[str]:
        """The first cell whose image breaks ``grid.solution_symmetry``, if any."""
        n, design = self.n, self.design
        if design is None or design.cell_map is None or design.digit_map is None:
            return []
        cell_map, p = design.cell_map, dict(enumerate(design.digit_map, start=1))
        bad = next((i for i in range(n * n) if solution[cell_map[i]] != p.get(solution[i])), None)
        if bad is None:
            return []
        j, d = cell_map[bad], solution[bad]
        return [f"solution is not its own image under grid.solution_symmetry ({self.image}): {_rc(bad, n)} holds "
                f"{SYMBOLS[d - 1]}, so {_rc(j, n)} should hold {SYMBOLS[p[d] - 1]}, not {SYMBOLS[solution[j] - 1]}"]

    def _area_problems(self, solution: tuple[int, ...]) -> list[str]:
        """One finding per ``grid.areas`` rule the solution breaks."""
        n, out = self.n, []
        for k, area in enumerate(self.design.areas if self.design is not None else ()):
            cells, digits, rule = frozenset(area.cells), area.digits, area.rule
            if rule == "somewhere":
                absent = [d for d in digits if not any(solution[i] == d for i in cells)]
                if absent:
                    out.append(f"solution breaks grid.areas.{k} (somewhere): digit {absent[0]} is not in the area")
                continue
            inside = rule == "never"
            stray = next((i for i in range(n * n) if (i in cells) == inside and solution[i] in digits), None)
            if stray is not None:
                where = "inside" if inside else "outside"
                out.append(f"solution breaks grid.areas.{k} ({rule}): digit {solution[stray]} at {_rc(stray, n)}, "
                           f"{where} the area")
        return out
