"""Designed grids and clue patterns: reading them, and the refusals plain reasoning can explain.

``grid.solution_symmetry`` (:func:`digit_map`, :func:`image_problem`), ``grid.areas``
(:func:`parse_cells`, :func:`area_problem`) and ``removal.pattern`` (:func:`parse_mask`,
:func:`pattern_problem`) are checked here as far as plain reasoning goes. Contract: a ``*_problem``
function returns one sentence saying why no grid (or no unique puzzle) can exist, or None when its
reasoning finds no obstacle; a parser raises ValueError naming the first mistake. Whether the integer
program finds a grid at all is asked once before the run (:func:`pipeline.generate.grid.design_problem`).
"""

from __future__ import annotations

import re

from pipeline import symmetry
from pipeline.board import SYMBOLS, Board, board
from pipeline.config.messages import echo

#: The fewest givens a unique puzzle can have, where it is known (9x9: McGuire et al. 2012).
MIN_HINTS = {4: 4, 6: 8, 9: 17}

#: Characters of a drawn mask (``removal.pattern``, an area's ``cells``): a given / a cell in, a blank / out.
MASK_IN, MASK_OUT = "#Xx1", ".0"


def parse_mask(text: str, n: int) -> tuple[int, ...]:
    """The cells marked in a drawn mask: ``n`` lines of ``n`` characters (whitespace ignored; also one
    line of ``n*n``), :data:`MASK_IN` marks a cell, :data:`MASK_OUT` leaves it out. Returns the marked
    cells, sorted; raises ValueError naming the line and column of the first mistake."""
    lines = [re.sub(r"\s", "", line) for line in text.splitlines()]
    lines = [line for line in lines if line]
    if len(lines) > 1:
        for k, line in enumerate(lines):
            if len(line) != n:
                raise ValueError(f"line {k + 1} has {len(line)} cells; draw {n} lines of {n} cells")
    chars = "".join(lines)
    if len(chars) != n * n:
        raise ValueError(f"has {len(chars)} cells; a {n}x{n} board needs {n * n} ({n} lines of {n})")
    out = []
    for i, ch in enumerate(chars):
        if ch in MASK_IN:
            out.append(i)
        elif ch not in MASK_OUT:
            r, c = divmod(i, n)
            raise ValueError(f"line {r + 1}, column {c + 1}: {ch!r} is neither a given/cell (# X 1) nor a blank (. 0)")
    return tuple(out)


_CELL = re.compile(r"^r(\d+)c(\d+)$", re.IGNORECASE)


def parse_cells(text: str, n: int) -> tuple[int, ...]:
    """An area's cells: ``r1c1-r3c3`` rectangles (corners inclusive) and ``r5c5`` cells joined by
    commas (1-based), or a drawn mask (:func:`parse_mask`). Sorted, at least one; raises ValueError."""
    if all(ch in MASK_IN + MASK_OUT or ch.isspace() for ch in text):
        cells = parse_mask(text, n)
    else:
        found: set[int] = set()
        for part in text.split(","):
            ends = []
            for end in part.strip().split("-"):
                m = _CELL.match(end.strip())
                if m is None:
                    raise ValueError(f"{echo(part.strip())} is not a cell like r1c1 or a range like r1c1-r3c3")
                r, c = int(m[1]), int(m[2])
                if not (1 <= r <= n and 1 <= c <= n):
                    raise ValueError(f"{end.strip()} is off the board (rows and columns 1-{n})")
                ends.append((r - 1, c - 1))
            if len(ends) > 2:
                raise ValueError(f"{echo(part.strip())} is not a cell like r1c1 or a range like r1c1-r3c3")
            (r0, c0), (r1, c1) = ends[0], ends[-1]
            found.update(r * n + c for r in range(min(r0, r1), max(r0, r1) + 1)
                         for c in range(min(c0, c1), max(c0, c1) + 1))
        cells = tuple(sorted(found))
    if not cells:
        raise ValueError("no cells")
    return cells


def digit_map(text: str, n: int) -> tuple[int, ...]:
    """``grid.solution_symmetry.digits`` as ``(p(1), ..., p(n))``: ``reverse``, ``identity``, or the
    ``n`` symbols ``p(1) ... p(n)``; raises ValueError unless it is a permutation of the digits."""
    if text == "reverse":
        return tuple(range(n, 0, -1))
    if text == "identity":
        return tuple(range(1, n + 1))
    alphabet = SYMBOLS[:n]
    word = text.strip().upper()
    bad = [ch for ch in word if ch not in alphabet]
    missing = [ch for ch in alphabet if ch not in word]
    if bad or len(word) != n or missing:
        why = (f"{bad[0]!r} is not a digit of a {n}x{n} board" if bad else
               f"{len(word)} digits" if len(word) != n else f"{missing[0]} is missing")
        raise ValueError(f"{echo(text)} is not reverse, identity or a permutation of {alphabet} ({why})")
    return tuple(alphabet.index(ch) + 1 for ch in word)


def _cycles(perm: tuple[int, ...], members: list[int]) -> tuple[int, ...]:
    """Cycle lengths (longest first) of ``perm`` on ``members`` (a set it maps onto itself; 0-based)."""
    seen: set[int] = set()
    out = []
    for x in members:
        if x in seen:
            continue
        k, y = 0, x
        while y not in seen:
            seen.add(y)
            y = perm[y]
            k += 1
        out.append(k)
    return tuple(sorted(out, reverse=True))


def _words(lengths: tuple[int, ...], what: str) -> str:
    """Cycle lengths in words: ``(2, 2, 1)`` -> ``1 fixed cell and 2 swapped pairs``."""
    fixed, pairs, longer = lengths.count(1), lengths.count(2), [k for k in lengths if k > 2]
    parts = [f"{fixed} fixed {what}{'s' if fixed != 1 else ''}" if fixed else f"no fixed {what}"]
    if pairs:
        parts.append(f"{pairs} swapped pair{'s' if pairs != 1 else ''}")
    if longer:
        parts.append(f"{len(longer)} cycle{'s' if len(longer) != 1 else ''} of {longer[0]}")
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _unit_name(b: Board, k: int) -> str:
    kind, idx = divmod(k, b.n)
    return f"{('row', 'column', 'box')[kind]} {idx + 1}"


def image_problem(name: str, p: tuple[int, ...], n: int) -> str | None:
    """Why no grid of side ``n`` can satisfy ``grid[m(i)] = p(grid[i])`` for the map ``name`` and
    digit map ``p`` (``p[d - 1] = p(d)``), by reasoning a reader can follow; None when this reasoning
    finds no obstacle (the integer program has the last word before the run).

    The reasoning (seed 003's footnote: "a plain mirror image repeats digits in a row"): applying the
    map ``k`` times (``k`` its order) gives back every cell, so ``p`` applied ``k`` times must give back
    every digit. A unit that ``m^t`` maps onto itself holds every digit once, and the digit of a cell
    goes where ``p^t`` sends it, so ``p^t`` must split the digits into cycles of the same lengths as
    ``m^t`` splits the unit's cells (a digit in a shorter cycle would appear twice in the unit); two
    such units that ``m^t`` splits differently rule the map out for every ``p``. A cell that ``m^t``
    sends to another cell of one of its units needs ``p^t`` to move its digit: ``p^t`` cannot be the
    identity. A cell that ``m^t`` keeps in place needs a digit ``p^t`` keeps."""
    b = board(n)
    m = symmetry.permutation(name, n)
    order = 4 if name in ("rot90", "rot270") else 2
    pz = tuple(d - 1 for d in p)  # 0-based

    def power(perm: tuple[int, ...], t: int) -> tuple[int, ...]:
        out = tuple(range(len(perm)))
        for _ in range(t):
            out = tuple(perm[x] for x in out)
        return out

    back = power(pz, order)
    if any(back[d] != d for d in range(n)):
        d = next(d for d in range(n) if back[d] != d)
        trail = [d]
        for _ in range(order):
            trail.append(pz[trail[-1]])
        steps = " -> ".join(SYMBOLS[x] for x in trail)
        return (f"{name} applied {order} times gives back every cell, so the digit map applied {order} times must "
                f"give back every digit, but it sends {steps}")
    for t in range(1, order):
        mt, pt = power(m, t), power(pz, t)
        label = name if t == 1 else f"{name} applied {t} times"
        fixers = [(k, _cycles(mt, list(u))) for k, u in enumerate(b.units) if {mt[i] for i in u} == set(u)]
        kinds = {c for _, c in fixers}
        if len(kinds) > 1:
            (k1, c1), (k2, c2) = fixers[0], next(f for f in fixers if f[1] != fixers[0][1])
            return (f"{name} cannot hold on a {n}x{n} board with any digit map: {label} maps {_unit_name(b, k1)} "
                    f"onto itself with {_words(c1, 'cell')}, and {_unit_name(b, k2)} with {_words(c2, 'cell')}; "
                    "as each unit holds every digit once, the digit map would need both (seed 003's footnote: a "
                    "plain mirror image repeats digits in a row)")
        have = _cycles(pt, list(range(n)))
        if fixers and have != fixers[0][1]:
            k, want = fixers[0]
            unit = _unit_name(b, k)
            times = f" applied {t} times" if t > 1 else ""
            return (f"{label} maps {unit} onto itself with {_words(want, 'cell')}; each digit of {unit} goes where "
                    f"the digit map sends it, so the digit map{times} needs {_words(want, 'digit')} too (a digit in "
                    f"a shorter cycle would appear twice in {unit}), but it has {_words(have, 'digit')}")
        if all(pt[d] == d for d in range(n)):
            peer = next(((i, mt[i]) for i in range(n * n) if mt[i] != i and mt[i] in b.peers[i]), None)
            if peer is not None:
                (ra, ca), (rb, cb) = divmod(peer[0], n), divmod(peer[1], n)
                return (f"{label} sends r{ra + 1}c{ca + 1} to r{rb + 1}c{cb + 1}, a cell of the same unit, so the "
                        f"digit map must move its digit; {'it' if t == 1 else f'applied {t} times it'} moves none "
                        "(seed 003's footnote: with the same digits, a symmetric grid repeats a digit in a unit)")
        if any(mt[i] == i for i in range(n * n)) and all(pt[d] != d for d in range(n)):
            i = next(i for i in range(n * n) if mt[i] == i)
            return (f"{label} keeps r{i // n + 1}c{i % n + 1} in place, so its digit must be one the digit map keeps; "
                    "it keeps none")
    return None


def area_problem(cells: tuple[int, ...], digits: tuple[int, ...], rule: str, n: int) -> str | None:
    """Why an area rule cannot hold on any grid of side ``n``, by counting; None when counting finds no
    obstacle. ``only`` puts every copy of the digits (one per row, column and box) in the cells, so
    the cells must meet every row, column and box and number at least ``n`` per digit; ``never``
    puts them all outside, so the other cells must; ``somewhere`` needs a cell per digit."""
    if len(set(digits)) != len(digits):
        d = next(d for d in digits if digits.count(d) > 1)
        return f"digits: {d} is listed twice"
    if max(digits) > n:
        return f"digits: {max(digits)} is not a digit of a {n}x{n} board (1-{n})"
    if rule == "somewhere":
        if len(cells) < len(digits):
            them = "them" if len(cells) != 1 else "it"
            return (f"{len(cells)} cell{'s' if len(cells) != 1 else ''} cannot hold the {len(digits)} digits that "
                    f"must each appear in {them}")
        return None
    b = board(n)
    room = set(cells) if rule == "only" else set(range(n * n)) - set(cells)
    where = "the cells" if rule == "only" else "the other cells"
    for k, u in enumerate(b.units):
        if not room.intersection(u):
            verb = "miss" if rule == "only" else "cover all of"
            return (f"each digit appears once in every row, column and box, but the cells (rule {rule}) {verb} "
                    f"{_unit_name(b, k)}")
    need = n * len(digits)
    if len(room) < need:
        return (f"the {len(digits)} digit{'s' if len(digits) != 1 else ''} fill {need} cells ({n} each), {where} "
                f"number {len(room)} (rule {rule})")
    return None


def pattern_problem(cells: tuple[int, ...], n: int) -> str | None:
    """Why no puzzle whose givens are exactly ``cells`` can be unique, or None: fewer givens than the
    known minimum (:data:`MIN_HINTS`), or two rows of one band (two columns of one stack) without a
    given, since swapping them in a solution gives another solution that agrees with every given."""
    floor = MIN_HINTS.get(n)
    if floor is not None and len(cells) < floor:
        return (f"{len(cells)} givens; no {n}x{n} puzzle with fewer than {floor} givens has a unique solution "
                "(9x9: McGuire et al. 2012)")
    b = board(n)
    rows = {i // n for i in cells}
    cols = {i % n for i in cells}
    for kind, used, size in (("rows", rows, b.box_rows), ("columns", cols, b.box_cols)):
        for start in range(0, n, size):
            empty = [x for x in range(start, start + size) if x not in used]
            if len(empty) >= 2:
                group = "band" if kind == "rows" else "stack"
                return (f"{kind} {empty[0] + 1} and {empty[1] + 1} (one {group}) have no givens: swapping them in "
                        "a solution gives a second one, so no puzzle with this pattern is unique")
    return None
