"""The independent checker that guards everything written (after Norvig's ``is_solution``).

It knows nothing of the integer program, HiGHS or :mod:`pipeline.symmetry`, nor of the removal loop's
compiled counter: the symmetry tag is recomputed here from the eight maps' definitions, and the
uniqueness count comes from :mod:`pipeline.verify_fast`, a compiled dancing-links (exact-cover)
search written apart from every counter it checks. :func:`count_solutions` here, a plain bitmask
backtracking search (singles propagation, fewest-candidates cell first) in pure Python, is that
counter's test oracle and the reference for its contract; it costs seconds on a 16x16 puzzle where the
compiled one takes tens of milliseconds (``bench/profile_phases.py``). If the ILP engine or the
removal loop has a bug, this module is meant to disagree with it.

Variants (the Parquet columns ``variant``, ``regions``, ``cages``) are checked the same way: the units
are built here from first principles (:func:`rules_for`: the diagonals, the hyper windows, the jigsaw
regions from their labels, the killer cages), never read from board.py's variant boards, units or
peers; only its classic geometry (rows, columns, boxes of ``board(n)``), ``parse`` and ``Grid`` are
used. If board.py had a bug in a diagonal or a window, this module is meant to disagree with it too.

``verify_puzzle`` and ``verify_row`` return a list of problems (empty = sound), one line each naming
what and where (``cage 3 sums to 17 in the solution but says 18``, ``solution is not a valid grid:
diagonal 1 has two 5s (r1c1 and r4c4)``, ``region 4 (label '4') is not connected (...)``); they never
raise for bad data. The verifier keeps its own copy of the *checks* on purpose; the columns it reads
are the parameters of :func:`verify_puzzle`, named as in the Parquet contract.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from numbers import Integral
from typing import Any

from pipeline.board import SYMBOLS, Board, Grid, PuzzleFormatError, board, parse

# The eight maps of DESIGN.md, written out again on purpose (independence from symmetry.py).
_MAPS = {
    "identity": lambda r, c, n: (r, c),
    "rot90": lambda r, c, n: (c, n - 1 - r),
    "rot180": lambda r, c, n: (n - 1 - r, n - 1 - c),
    "rot270": lambda r, c, n: (n - 1 - c, r),
    "mirror-h": lambda r, c, n: (n - 1 - r, c),
    "mirror-v": lambda r, c, n: (r, n - 1 - c),
    "mirror-d": lambda r, c, n: (c, r),
    "mirror-a": lambda r, c, n: (n - 1 - c, n - 1 - r),
}
_TAGS = {
    frozenset({"identity"}): "none",
    frozenset({"identity", "rot180"}): "rot180",
    frozenset({"identity", "rot90", "rot180", "rot270"}): "rot90",
    frozenset({"identity", "mirror-h"}): "mirror-h",
    frozenset({"identity", "mirror-v"}): "mirror-v",
    frozenset({"identity", "mirror-d"}): "mirror-d",
    frozenset({"identity", "mirror-a"}): "mirror-a",
    frozenset({"identity", "mirror-h", "mirror-v", "rot180"}): "orthogonal",
    frozenset({"identity", "mirror-d", "mirror-a", "rot180"}): "diagonal",
    frozenset(_MAPS): "full",
}


def layout_tag(puzzle: Grid, n: int) -> str:
    """Symmetry tag of the given cells of ``puzzle``, from first principles."""
    given = {(i // n, i % n) for i, d in enumerate(puzzle) if d}
    fixing = frozenset(name for name, f in _MAPS.items() if all(f(r, c, n) in given for r, c in given))
    return _TAGS[fixing]


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
    same units in the terms of :func:`pipeline.verify_fast.count_solutions`.
    """

    n: int
    units: tuple[tuple[str, tuple[int, ...]], ...]
    cages: tuple[tuple[tuple[int, ...], int], ...] = ()
    boxes: tuple[tuple[int, ...], ...] | None = None
    extra: tuple[tuple[int, ...], ...] = ()

    @property
    def classic(self) -> bool:
        return self.boxes is None and not self.extra and not self.cages


def _rc(i: int, n: int) -> str:
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
            problems.append(f"{name} has {len(cells)} cells (first at {_rc(cells[0], n)}); each region needs {n}")
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
            problems.append(f"{name} is not connected ({_rc(cut, n)} is cut off from {_rc(cells[0], n)})")
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
                problems.append(f"cage {k + 1} lists {_rc(i, n)} twice" if owner[i] == k
                                else f"cages {owner[i] + 1} and {k + 1} share {_rc(i, n)}")
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


def _rules_of_board(b: Board) -> Rules:
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
        twice = _twice(grid, cells, n)
        if twice:
            if kind in first:
                more[kind] = more.get(kind, 0) + 1
            else:
                first[kind] = f"{name} has {twice}"
    out = [f"{what} is not a valid grid: {line}" + _and_more(more.get(kind, 0), kind) for kind, line in first.items()]
    for k, (cells, total) in enumerate(rules.cages):
        twice = _twice(grid, cells, n)
        if twice:
            out.append(f"cage {k + 1} has {twice} in the {what}")
        got = sum(grid[i] for i in cells)
        if got != total:
            out.append(f"cage {k + 1} sums to {got} in the {what} but says {total}")
    return out


def _and_more(k: int, kind: str) -> str:
    return "" if k == 0 else f" (and 1 more {kind})" if k == 1 else f" (and {k} more {_PLURAL[kind]})"


def _twice(grid: Grid, cells: tuple[int, ...], n: int) -> str | None:
    """``two 5s (r1c1 and r2c3)`` for the first digit ``grid`` holds twice in ``cells``, else None."""
    seen: dict[int, int] = {}
    for i in cells:
        d = grid[i]
        if d and d in seen:
            return f"two {SYMBOLS[d - 1]}s ({_rc(seen[d], n)} and {_rc(i, n)})"
        seen[d] = i
    return None


def is_valid_solution(grid: Grid, b: Board, rules: Rules | None = None) -> bool:
    """Every unit of ``grid`` holds each digit 1..n exactly once (and every cage holds no digit twice
    and adds up to its sum); the rules are ``rules``, else ``b``'s, built here from first principles."""
    return not grid_problems(grid, rules if rules is not None else _rules_of_board(b))


def count_solutions(puzzle: Grid, b: Board, limit: int = 2, rules: Rules | None = None) -> int:
    """Number of solutions of ``puzzle`` capped at ``limit >= 1`` (0 for contradictory givens) under
    ``rules`` (else ``b``'s, built here from first principles). Pure Python, exact, no node budget: the
    oracle that :func:`pipeline.verify_fast.count_solutions` must agree with
    (``tests/test_verify_fast.py``, ``tests/test_verify_variants.py``). Cage mates are peers (no
    digit twice) and each cage bounds its cells' candidates (:func:`_propagate`)."""
    if rules is None:
        rules = _rules_of_board(b)
    n = rules.n
    full = (1 << n) - 1
    groups: list[set[int]] = [set() for _ in range(n * n)]
    for cells in [u for _, u in rules.units] + [c for c, _ in rules.cages]:
        for i in cells:
            groups[i].update(cells)
    peers = [sorted(g - {i}) for i, g in enumerate(groups)]
    cand = [full] * (n * n)
    for i, d in enumerate(puzzle):
        if d:
            bit = 1 << (d - 1)
            if not cand[i] & bit:
                return 0
            cand[i] = bit
            for j in peers[i]:
                cand[j] &= ~bit
    if any(c == 0 for c in cand):
        return 0
    g = _Geometry(peers, [list(u) for _, u in rules.units], [(list(c), t) for c, t in rules.cages], full, n)
    return min(_search(cand, g, limit), limit)


@dataclass(frozen=True)
class _Geometry:
    peers: list[list[int]]
    units: list[list[int]]
    cages: list[tuple[list[int], int]]
    full: int  # the mask of all n digits
    n: int


def _propagate(c: list[int], g: _Geometry) -> bool:
    """Naked and hidden singles and the cages' bounds (each candidate of a cage's cell must leave the
    other cells' smallest and largest candidates able to make up the sum) to a fixpoint, in place;
    False on contradiction."""
    changed = True
    while changed:
        changed = False
        for i in range(len(c)):
            v = c[i]
            if v == 0:
                return False
            if v & (v - 1) == 0:
                for j in g.peers[i]:
                    if c[j] & v:
                        c[j] &= ~v
                        if c[j] == 0:
                            return False
                        changed = True
        for u in g.units:
            seen = once = 0
            for i in u:
                once = (once & ~c[i]) | (c[i] & ~seen)
                seen |= c[i]
            if seen != g.full:
                return False
            for i in u:
                h = c[i] & once
                if h and c[i] != h:
                    if h & (h - 1):
                        return False
                    c[i] = h
                    changed = True
        for cells, total in g.cages:
            low = sum((c[i] & -c[i]).bit_length() for i in cells)  # the cells' smallest candidates
            high = sum(c[i].bit_length() for i in cells)  # and largest
            if not low <= total <= high:
                return False
            for i in cells:  # a digit d of cell i needs the others' bounds to bracket total - d
                v = c[i]
                others_low, others_high = low - (v & -v).bit_length(), high - v.bit_length()
                keep = 0
                while v:
                    bit = v & -v
                    v ^= bit
                    if others_low <= total - bit.bit_length() <= others_high:
                        keep |= bit
                if keep != c[i]:
                    if not keep:
                        return False
                    c[i] = keep
                    changed = True
    return True


def _search(c: list[int], g: _Geometry, limit: int) -> int:
    """Solutions below candidate state ``c`` (modified), counted up to ``limit``: propagate, then
    branch on the cell with fewest candidates."""
    if not _propagate(c, g):
        return 0
    best, best_k = -1, g.n + 1
    for i, v in enumerate(c):
        k = bin(v).count("1")
        if 1 < k < best_k:
            best, best_k = i, k
    if best < 0:
        return 1
    found = 0
    v = c[best]
    while v and found < limit:
        bit = v & -v
        v ^= bit
        nc = c[:]
        nc[best] = bit
        found += _search(nc, g, limit - found)
    return found


#: Columns of the Parquet contract that a classic row may lack (absent or null: classic, no regions,
#: no cages); every other parameter of :func:`verify_puzzle` is a required column.
OPTIONAL_COLUMNS = ("variant", "regions", "cages")


def verify_row(row: Mapping[str, Any]) -> list[str]:
    """:func:`verify_puzzle` on the values of ``row`` under the names of its parameters (a row of the
    Parquet contract); a missing or null required value is itself a problem, while ``variant``,
    ``regions`` and ``cages`` may be absent or null (a classic row). Never raises for bad data."""
    names = list(inspect.signature(verify_puzzle).parameters)
    required = [k for k in names if k not in OPTIONAL_COLUMNS]
    missing = [k for k in required if row.get(k) is None]
    if missing:
        return [f"missing column(s): {', '.join(missing)}"]
    values: dict[str, Any] = {k: row[k] for k in required} | {k: row.get(k) for k in OPTIONAL_COLUMNS}
    return verify_puzzle(**values)


def verify_puzzle(size: int, puzzle: str, solution: str, hints: int, symmetry: str, symmetry_requested: str,
                  variant: Any = None, regions: Any = None, cages: Any = None) -> list[str]:
    """Problems with one written puzzle (empty = sound): the variant columns describe rules that fit
    the board (:func:`rules_for`), the solution is a valid grid under them (cages: no digit twice,
    the sum), the givens agree with it, there are ``hints`` of them, their layout has tag
    ``symmetry`` and at least the group ``symmetry_requested``, and the puzzle has exactly one
    solution under the rules. ``variant`` is the list of kinds ([] or None: classic), ``regions`` the
    jigsaw labels, ``cages`` the killer cages as ``{"cells": [...], "sum": s}``."""
    try:
        b = board(int(size))
        grid = parse(str(puzzle), b.n)
        answer = parse(str(solution), b.n)
    except (ValueError, PuzzleFormatError) as exc:
        return [str(exc)]
    rules, problems = rules_for(b.n, variant, regions, cages)
    if rules is not None:
        problems += grid_problems(answer, rules)
    disagree = [i for i, d in enumerate(grid) if d and d != answer[i]]
    if disagree:
        r, c = divmod(disagree[0], b.n)
        problems.append(f"given at row {r + 1}, column {c + 1} disagrees with the solution")
    if rules is not None:
        for k, (cells, total) in enumerate(rules.cages):
            twice = _twice(grid, cells, b.n)
            if twice:
                problems.append(f"cage {k + 1} has {twice} among its givens")
            given = sum(grid[i] for i in cells)
            if given > total or (given != total and all(grid[i] for i in cells)):
                problems.append(f"cage {k + 1}'s givens add up to {given} but the cage says {total}")
    k = sum(1 for d in grid if d)
    if k != int(hints):
        problems.append(f"hints says {hints} but the puzzle has {k} givens")
    tag = layout_tag(grid, b.n)
    if tag != symmetry:
        problems.append(f"symmetry says {symmetry} but the layout is {tag}")
    if symmetry_requested in _TAGS.values():
        want = next(g for g, t in _TAGS.items() if t == symmetry_requested)
        have = next(g for g, t in _TAGS.items() if t == tag)
        if not want <= have:
            problems.append(f"layout {tag} lacks the requested symmetry {symmetry_requested}")
    else:
        problems.append(f"unknown symmetry_requested {symmetry_requested!r}")
    if not problems and rules is not None:
        from pipeline import verify_fast  # numba is loaded on the first count, not on import

        if rules.classic:
            count = verify_fast.count_solutions(grid, b, limit=2)
        else:
            count = verify_fast.count_solutions(grid, b, limit=2, boxes=rules.boxes, extra=rules.extra,
                                                cages=rules.cages)
        if count != 1:
            problems.append("puzzle has no solution" if count == 0 else "puzzle has more than one solution")
    return problems
