"""Fish: the basic fish (x-wing, swordfish, jellyfish) and the finned and sashimi fish.

A fish of ``size`` on one digit takes ``size`` base lines (rows, or columns) whose candidates lie in
``size`` cover lines (columns, or rows): the digit's places in the cover lines are then all in the
base lines, so the cover lines' other cells lose it. Rows and columns only, so a fish means the same
on every variant board.

Contracts
---------
* **Finned fish** allow extra candidates (fins) in the base lines outside the cover lines, all in one
  box -- read by its cells, so on a jigsaw board a region: either no fin holds the digit (a basic
  fish) or the fin box does, so only cover-line cells outside the base lines *inside the fin box*
  lose it (they see every fin through the box). Sashimi: some base line has at most one candidate
  left in the cover lines once the fins are ignored. On classic boxes this is the classic search (a
  box as the block of its rows and columns), which :mod:`pipeline.difficulty.logic_jit` probes in that form.
* One pass finds the first finned and the first sashimi fish of a size; both are cached in the
  step search's :class:`~pipeline.difficulty.candidates._Ctx`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import combinations

from pipeline.board import Variant
from pipeline.difficulty.candidates import (
    Candidates,
    Step,
    _and,
    _bits,
    _cells,
    _Ctx,
    _elims_of,
    _geo,
    digit_name,
)

_FISH = {2: "x_wing", 3: "swordfish", 4: "jellyfish"}


def _lines_of(cells: int, n: int) -> tuple[list[int], list[int]]:
    """For a bitmask of cells: per row, the bitmask of its columns; per column, of its rows."""
    by_row = [0] * n
    by_col = [0] * n
    for i in _bits(cells):
        r, c = divmod(i, n)
        by_row[r] |= 1 << c
        by_col[c] |= 1 << r
    return by_row, by_col


def _orientations(st: Candidates, ctx: _Ctx) -> Iterator[tuple[int, bool, list[int], list[int]]]:
    """``(k, rows_base, lines, cross)`` for each digit ``k+1`` with candidates, rows as base lines
    first, then columns: ``lines`` the base lines' position masks, ``cross`` the cover lines'."""
    for k in range(st.n):
        x = ctx.where[k]
        if x:
            by_row, by_col = _lines_of(x, st.n)
            yield k, True, by_row, by_col
            yield k, False, by_col, by_row


def _fish(st: Candidates, ctx: _Ctx, size: int) -> Step | None:
    n = st.n
    for k, rows_base, lines, cross in _orientations(st, ctx):
        base = [li for li in range(n) if 2 <= lines[li].bit_count() <= size]
        for combo in combinations(base, size):
            cover = 0
            bset = 0
            for li in combo:
                cover |= lines[li]
                bset |= 1 << li
            if cover.bit_count() != size:
                continue
            els = []
            for cv in _bits(cover):
                for li in _bits(cross[cv] & ~bset):
                    els.append(li * n + cv if rows_base else cv * n + li)
            if els:
                return _fish_step(_FISH[size], n, k + 1, rows_base, combo, lines, cover, els)
    return None


def _line_combos(lines: Sequence[int], base: Sequence[int], size: int, max_union: int) -> Iterator[tuple[int, ...]]:
    """``size``-combinations of ``base`` (line indices, ascending) whose union of position masks
    has at most ``max_union`` positions; branches that already exceed it are cut."""

    def rec(start: int, chosen: tuple[int, ...], union: int) -> Iterator[tuple[int, ...]]:
        if len(chosen) == size:
            yield chosen
            return
        for j in range(start, len(base) - (size - len(chosen)) + 1):
            u = union | lines[base[j]]
            if u.bit_count() <= max_union:
                yield from rec(j + 1, (*chosen, base[j]), u)

    return rec(0, (), 0)


@lru_cache(maxsize=256)
def _box_lines(n: int, variant: Variant) -> tuple[tuple[tuple[int, int, tuple[int, ...]], ...], ...]:
    """``[rows_base][box]``: ``(span, reach, inside)`` of each box (or jigsaw region): ``inside[line]``
    the positions (columns of a row, or rows of a column) of the line's cells in it, ``span`` the lines
    crossing it, ``reach`` the positions it covers, all as bits; ``rows_base`` 1 for rows as lines, 0
    for columns."""
    boxes = _geo(n, variant).b.boxes
    out = []
    for rows_base in (False, True):
        per_box = []
        for box in boxes:
            inside = [0] * n
            for i in box:
                r, c = divmod(i, n)
                li, p = (r, c) if rows_base else (c, r)
                inside[li] |= 1 << p
            reach = 0
            for m in inside:
                reach |= m
            per_box.append((sum(1 << li for li in range(n) if inside[li]), reach, tuple(inside)))
        out.append(tuple(per_box))
    return tuple(out)


def _finned_fish(st: Candidates, ctx: _Ctx, size: int, sashimi: bool) -> Step | None:
    """First finned (or sashimi) fish of ``size``; both kinds are found in one pass, cached per state. The
    pass stops once it has the kind asked for (the other kind is cached only when the pass settled it)."""
    key = (size, sashimi)
    if key not in ctx.finned:
        found = _finned_search(st, ctx, size, key)
        ctx.finned.update(found)
    return ctx.finned.get(key)


def _finned_search(st: Candidates, ctx: _Ctx, size: int,
                   stop: tuple[int, bool] | None = None) -> dict[tuple[int, bool], Step | None]:
    """The first finned and the first sashimi fish of ``size`` (None where there is none), as the
    module contract describes: base lines in ascending combinations (rows, then columns, per digit),
    fin boxes in order, covers in ascending combinations. With ``stop``, the search ends as soon as
    the kind ``stop`` is found, and only that kind (and the other if found before it) is returned."""
    g, n = st.geo, st.n
    found: dict[tuple[int, bool], Step | None] = {(size, False): None, (size, True): None}
    width = max(g.b.box_rows, g.b.box_cols)
    box_lines = _box_lines(n, g.variant)
    for k, rows_base, lines, cross in _orientations(st, ctx):
        base = [li for li in range(n) if 2 <= lines[li].bit_count() <= size + width]
        for combo in _line_combos(lines, base, size, size + width):
            union = 0
            bset = 0
            for li in combo:
                union |= lines[li]
                bset |= 1 << li
            if union.bit_count() <= size:
                continue  # a basic fish (or less), not finned
            for span, reach, inside in box_lines[rows_base]:
                if not bset & span:
                    continue
                must = 0  # positions of base candidates outside the fin box: never a fin, so cover
                touch = 0
                for li in combo:
                    must |= lines[li] & ~inside[li]
                    touch |= lines[li] & inside[li]
                need = size - must.bit_count()
                free = union & ~must
                if not touch or need < 0 or need > free.bit_count():
                    continue
                for extra in combinations(list(_bits(free)), need):
                    cover = must
                    for p in extra:
                        cover |= 1 << p
                    if not union & ~cover:
                        continue  # no fin
                    tgt = [li * n + p if rows_base else p * n + li for p in _bits(cover & reach)
                           for li in _bits(cross[p] & span & ~bset) if inside[li] >> p & 1]
                    if not tgt:
                        continue
                    counts = [(lines[li] & cover).bit_count() for li in combo]
                    sashimi = min(counts) <= 1
                    if 0 in counts or found[(size, sashimi)] is not None:
                        continue
                    name = ("sashimi_" if sashimi else "finned_") + _FISH[size]
                    found[(size, sashimi)] = _fish_step(name, n, k + 1, rows_base, combo, lines, cover, tgt)
                    if all(v is not None for v in found.values()):
                        return found
                    if stop == (size, sashimi):
                        return {t: v for t, v in found.items() if v is not None}
    return found


def _fish_step(technique: str, n: int, d: int, rows_base: bool, combo: Sequence[int], lines: Sequence[int],
               cover: int, targets: Iterable[int]) -> Step:
    """The step of a fish on digit ``d``: base lines ``combo`` (rows when ``rows_base``) with position
    masks ``lines``, cover positions ``cover``, eliminations in the cells ``targets``; base candidates
    outside the cover are its fins, named in the detail."""

    def cell(li: int, p: int) -> int:
        return li * n + p if rows_base else p * n + li

    fins = sorted(cell(li, p) for li in combo for p in _bits(lines[li] & ~cover))
    cells = sorted(cell(li, p) for li in combo for p in _bits(lines[li]))
    covers = list(_bits(cover))
    b_units = tuple((0 if rows_base else n) + li for li in combo)
    c_units = tuple((n if rows_base else 0) + cv for cv in covers)
    bw, cw = ("rows", "columns") if rows_base else ("columns", "rows")
    detail = (f"on {digit_name(d)} in {bw} {_and([str(li + 1) for li in combo])}, "
              f"{cw} {_and([str(cv + 1) for cv in covers])}")
    if fins:
        detail += f", fin{'s' if len(fins) > 1 else ''} {_cells(fins, n)}"
    return Step(technique, tuple(cells), eliminations=_elims_of((i, d) for i in targets), digits=(d,),
                units=b_units + c_units, detail=detail)


# The finders the technique registry names (pipeline.difficulty.techniques).
def x_wing(st: Candidates, ctx: _Ctx) -> Step | None:
    return _fish(st, ctx, 2)


def swordfish(st: Candidates, ctx: _Ctx) -> Step | None:
    return _fish(st, ctx, 3)


def jellyfish(st: Candidates, ctx: _Ctx) -> Step | None:
    return _fish(st, ctx, 4)


def finned_x_wing(st: Candidates, ctx: _Ctx) -> Step | None:
    return _finned_fish(st, ctx, 2, False)


def sashimi_x_wing(st: Candidates, ctx: _Ctx) -> Step | None:
    return _finned_fish(st, ctx, 2, True)


def finned_swordfish(st: Candidates, ctx: _Ctx) -> Step | None:
    return _finned_fish(st, ctx, 3, False)


def sashimi_swordfish(st: Candidates, ctx: _Ctx) -> Step | None:
    return _finned_fish(st, ctx, 3, True)


def finned_jellyfish(st: Candidates, ctx: _Ctx) -> Step | None:
    return _finned_fish(st, ctx, 4, False)


def sashimi_jellyfish(st: Candidates, ctx: _Ctx) -> Step | None:
    return _finned_fish(st, ctx, 4, True)
