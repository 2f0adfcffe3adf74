"""The rules of a board, built from first principles, and a complete grid checked against them.

:func:`rules_for` turns the Parquet columns ``variant``, ``regions`` and ``cages`` into :class:`Rules`
(the units and cages of one board) and names what is wrong with those columns; :func:`grid_problems`
says, one line each, why a complete grid breaks the rules (``solution is not a valid grid: diagonal 1
has two 5s (r1c1 and r4c4)``, ``cage 3 sums to 17 in the solution but says 18``). Neither raises for
bad data.

The units are built here, never read from board.py's variant boards, units or peers: only its classic
geometry (rows, columns, boxes of ``board(n)``), ``Grid`` and ``SYMBOLS`` are used. If board.py had a
bug in a diagonal or a window, this module is meant to disagree with it (see :mod:`pipeline.verify`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from numbers import Integral
from typing import Any

from pipeline.board import SYMBOLS, Board, Grid, board

#: The variant kinds the Parquet ``variant`` column may name, written out again (not read from board.py).
KINDS = ("hyper", "jigsaw", "killer", "x")
_PLURAL = {"row": "rows", "column": "columns", "box": "boxes", "region": "regions", "diagonal": "diagonals",
           "window": "windows"}


@dataclass(frozen=True)
class Rules:
    """The units and cages of one board, built by :func:`rules_for` from first principles.

    ``units`` are ``(name, cells)`` pairs, each a group of ``n`` cells that holds every digit once, named
    1-based in the order rows, columns, boxes (``region k`` on a jigsaw board), ``diagonal 1`` (top left
    to bottom right) and ``diagonal 2`` (top right to bottom left) for x, ``window 1..4`` (top left, top
    right, bottom left, bottom right) for hyper. ``cages`` are ``(cells, sum)`` pairs in the order given.
    ``boxes`` (the regions, None for the classic boxes) and ``extra`` (diagonals and windows) are the
    same units in the terms of :func:`pipeline.verify.count_jit.independent_count`.
    """

    n: int
    units: tuple[tuple[str, tuple[int, ...]], ...]
    cages: tuple[tuple[tuple[int, ...], int], ...] = ()
    boxes: tuple[tuple[int, ...], ...] | None = None
    extra: tuple[tuple[int, ...], ...] = ()

    @property
    def classic(self) -> bool:
        return self.boxes is None and not self.extra and not self.cages



def rc(i: int, n: int) -> str:
    """``r1c1``-style name of cell ``i`` on a board of side ``n``."""
    return f"r{i // n + 1}c{i % n + 1}"


@cache
def classic_rules(n: int) -> Rules:
    """Rows, columns and boxes of side ``n`` (the classic geometry of :func:`pipeline.board.board`)."""
    b = board(n)
    units = ([(f"row {k + 1}", u) for k, u in enumerate(b.rows)]
             + [(f"column {k + 1}", u) for k, u in enumerate(b.cols)]
             + [(f"box {k + 1}", u) for k, u in enumerate(b.boxes)])
    return Rules(n, tuple(units))


def _kinds(variant: Any) -> tuple[list[str], list[str]]:
    """The kinds named by the ``variant`` column (None or a list of names; ``"x+hyper"`` text is
    read too) and the problems with them."""
    if variant is None:
        return [], []
    if isinstance(variant, str):
        names: list[Any] = [k.strip() for k in variant.split("+")]
        names = [k for k in names if k and k != "classic"]
    else:
        try:
            names = list(variant)
        except TypeError:
            return [], [f"variant is {variant!r}, not a list of names"]
    kinds: list[str] = []
    problems = []
    for name in names:
        if name not in KINDS:
            problems.append(f"unknown variant {name!r} (the kinds are {', '.join(KINDS)}; classic is an empty list)")
        elif name in kinds:
            problems.append(f"variant names {name!r} twice")
        else:
            kinds.append(name)
    return kinds, problems


def _regions(n: int, text: Any) -> tuple[tuple[tuple[int, ...], ...], list[str]]:
    """The jigsaw regions of the ``regions`` labels (one per cell, row-major; whitespace ignored),
    numbered 1.. in order of first appearance, and the problems with the layout: ``n`` regions of
    ``n`` cells, each connected through shared edges."""
    if not isinstance(text, str):
        return (), [f"regions is {text!r}, not a string of labels"]
    labels = "".join(text.split())
    if len(labels) != n * n:
        return (), [f"regions has {len(labels)} labels; a {n}x{n} board needs {n * n} (one per cell, row-major)"]
    groups: dict[str, list[int]] = {}
    for i, ch in enumerate(labels):
        groups.setdefault(ch, []).append(i)
    if len(groups) != n:
        return (), [f"regions names {len(groups)} regions; a {n}x{n} board needs {n}"]
    problems = []
    for k, (label, cells) in enumerate(groups.items()):
        name = f"region {k + 1} (label {label!r})"
        if len(cells) != n:
            problems.append(f"{name} has {len(cells)} cells (first at {rc(cells[0], n)}); each region needs {n}")
            continue
        inside, seen, todo = set(cells), {cells[0]}, [cells[0]]
        while todo:
            i = todo.pop()
            r, c = divmod(i, n)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                j = rr * n + cc
                if 0 <= rr < n and 0 <= cc < n and j in inside and j not in seen:
                    seen.add(j)
                    todo.append(j)
        if len(seen) != n:
            cut = min(inside - seen)
            problems.append(f"{name} is not connected ({rc(cut, n)} is cut off from {rc(cells[0], n)})")
    return tuple(tuple(cells) for cells in groups.values()), problems


def _whole(x: Any) -> bool:
    return isinstance(x, Integral) and not isinstance(x, bool)


def _cages(n: int, cages: Any) -> tuple[tuple[tuple[tuple[int, ...], int], ...], list[str]]:
    """The killer cages of the ``cages`` column (``{"cells": [...], "sum": s}`` items, or ``(cells,
    sum)`` pairs) and the problems with them: whole numbers, cells on the board, none listed twice or
    in two cages, at most ``n`` cells a cage."""
    if cages is None:
        return (), []
    try:
        items = list(cages)
    except TypeError:
        return (), [f"cages is {cages!r}, not a list of cages"]
    out = []
    problems = []
    owner: dict[int, int] = {}
    for k, cage in enumerate(items):
        try:
            cells, total = (cage["cells"], cage["sum"]) if isinstance(cage, Mapping) else cage
            cells = list(cells)
        except (TypeError, ValueError, KeyError):
            problems.append(f"cage {k + 1} is {cage!r}, not {{'cells': [...], 'sum': s}}")
            continue
        bad = [i for i in cells if not _whole(i) or not 0 <= i < n * n]
        if bad:
            problems.append(f"cage {k + 1} has cell {bad[0]!r}, off the {n}x{n} board (cells are 0..{n * n - 1})")
            continue
        if not _whole(total):
            problems.append(f"cage {k + 1} has sum {total!r}, not a whole number")
            continue
        if not cells:
            problems.append(f"cage {k + 1} has no cells")
            continue
        if len(cells) > n:
            problems.append(f"cage {k + 1} has {len(cells)} cells; a {n}x{n} cage holds at most {n} distinct digits")
        for i in cells:
            i = int(i)
            if i in owner:
                problems.append(f"cage {k + 1} lists {rc(i, n)} twice" if owner[i] == k
                                else f"cages {owner[i] + 1} and {k + 1} share {rc(i, n)}")
            owner[i] = k
        out.append((tuple(int(i) for i in cells), int(total)))
    return tuple(out), problems


def rules_for(n: int, variant: Any = None, regions: Any = None, cages: Any = None) -> tuple[Rules | None, list[str]]:
    """The rules of a board of side ``n`` (a supported size) under the Parquet columns ``variant``,
    ``regions`` and ``cages`` (None = classic / none), and the problems with those columns; the rules
    are None when there are problems. Units are built here, not read from board.py: the diagonals are
    the cells ``(k, k)`` and ``(k, n-1-k)``, the hyper windows the 3x3 squares at rows and columns 2-4
    and 6-8 (1-based) of a 9x9 board, the regions the cells sharing a label."""
    kinds, problems = _kinds(variant)
    if "hyper" in kinds and n != 9:
        problems.append(f"hyper is defined for 9x9 only (its four windows sit inside the 3x3 boxes); this board is "
                        f"{n}x{n}")
    if "jigsaw" in kinds and regions is None:
        problems.append("jigsaw needs regions (the regions column is null)")
    if regions is not None and "jigsaw" not in kinds:
        problems.append("regions is given but the variant is not jigsaw")
    made, cage_problems = _cages(n, cages)
    problems += cage_problems
    if "killer" in kinds and not made and not cage_problems:
        problems.append("killer needs cages (the cages column is null or empty)")
    if made and "killer" not in kinds:
        problems.append("cages are given but the variant is not killer")
    classic = classic_rules(n)
    units = list(classic.units)
    boxes = None
    if "jigsaw" in kinds and regions is not None:
        groups, region_problems = _regions(n, regions)
        problems += region_problems
        boxes = groups
        units = units[: 2 * n] + [(f"region {k + 1}", g) for k, g in enumerate(groups)]
    extra: list[tuple[str, tuple[int, ...]]] = []
    if "x" in kinds:
        extra += [("diagonal 1", tuple(k * n + k for k in range(n))),
                  ("diagonal 2", tuple(k * n + (n - 1 - k) for k in range(n)))]
    if "hyper" in kinds and n == 9:
        corners = [(r0, c0) for r0 in (1, 5) for c0 in (1, 5)]
        extra += [(f"window {w + 1}", tuple((r0 + r) * 9 + c0 + c for r in range(3) for c in range(3)))
                  for w, (r0, c0) in enumerate(corners)]
    if problems:
        return None, problems
    return Rules(n, (*units, *extra), made, boxes, tuple(cells for _, cells in extra)), []


def rules_of_board(b: Board) -> Rules:
    """Rules from ``b``'s side and its variant's raw data (kinds, region labels, cages), built here;
    raises ValueError when they do not fit."""
    v = b.variant
    if v.classic:
        return classic_rules(b.n)
    rules, problems = rules_for(b.n, list(v.kinds), v.regions, [(c.cells, c.total) for c in v.cages])
    if rules is None:
        raise ValueError("; ".join(problems))
    return rules


def grid_problems(grid: Grid, rules: Rules, what: str = "solution") -> list[str]:
    """Why the complete grid ``grid`` breaks ``rules`` (empty = it is a solution), one line per kind
    of unit (its first unit holding a digit twice, and how many more do) and per cage (a digit twice
    in it; its digits not adding up to its sum)."""
    n = rules.n
    if len(grid) != n * n:
        return [f"{what} has {len(grid)} cells, expected {n * n}"]
    bad = next((i for i, d in enumerate(grid) if not 1 <= d <= n), None)
    if bad is not None:
        where = f"row {bad // n + 1}, column {bad % n + 1}"
        return [f"{what} is not a valid grid: it has a blank at {where}" if grid[bad] == 0
                else f"{what} is not a valid grid: it has {grid[bad]} at {where}, outside 1-{n}"]
    first: dict[str, str] = {}
    more: dict[str, int] = {}
    for name, cells in rules.units:
        kind = name.split()[0]
        twice = repeated(grid, cells, n)
        if twice:
            if kind in first:
                more[kind] = more.get(kind, 0) + 1
            else:
                first[kind] = f"{name} has {twice}"
    out = [f"{what} is not a valid grid: {line}" + _and_more(more.get(kind, 0), kind) for kind, line in first.items()]
    for k, (cells, total) in enumerate(rules.cages):
        twice = repeated(grid, cells, n)
        if twice:
            out.append(f"cage {k + 1} has {twice} in the {what}")
        got = sum(grid[i] for i in cells)
        if got != total:
            out.append(f"cage {k + 1} sums to {got} in the {what} but says {total}")
    return out


def _and_more(k: int, kind: str) -> str:
    return "" if k == 0 else f" (and 1 more {kind})" if k == 1 else f" (and {k} more {_PLURAL[kind]})"


def repeated(grid: Grid, cells: tuple[int, ...], n: int) -> str | None:
    """``two 5s (r1c1 and r2c3)`` for the first digit ``grid`` holds twice in ``cells``, else None."""
    seen: dict[int, int] = {}
    for i in cells:
        d = grid[i]
        if d and d in seen:
            return f"two {SYMBOLS[d - 1]}s ({rc(seen[d], n)} and {rc(i, n)})"
        seen[d] = i
    return None


def is_valid_solution(grid: Grid, b: Board, rules: Rules | None = None) -> bool:
    """Every unit of ``grid`` holds each digit 1..n exactly once (and every cage holds no digit twice
    and adds up to its sum); the rules are ``rules``, else ``b``'s, built here from first principles."""
    return not grid_problems(grid, rules if rules is not None else rules_of_board(b))
