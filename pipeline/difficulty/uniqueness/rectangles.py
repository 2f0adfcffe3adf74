"""Uniqueness techniques: unique rectangles (HoDoKu's Uniqueness Tests 1-6), the hidden rectangle, the
avoidable rectangles, BUG+1.

They rest on one fact that the other techniques never use: **the puzzle has exactly one solution**.
A *deadly pattern* is a set of unsolved cells whose digits could be swapped in any solution to give
another one: four cells at the corners of a rectangle over exactly two rows, two columns and two
boxes, each holding only the same two digits ``a`` and ``b``; or a board where every unsolved cell
has two candidates and every digit two places in every unit (BUG). A unique puzzle cannot end in
one, so the candidates that keep the pattern from forming must hold where the steps say.

Contracts
---------
* The finders assume the puzzle is unique and do not check it: :mod:`pipeline.difficulty.logic` calls them only when
  it knows (``unique=True``) or has proved it (an exact count of the puzzle's solutions, up to two).
  On a puzzle with several solutions they would be unsound, which is why they are gated.
* Classic boards only (any size): a variant's extra units (diagonals, windows, cages) or jigsaw
  regions could forbid the swap that makes a pattern deadly, so on a variant board every finder
  here returns None.
* Rectangles are read floor first: a *floor* cell holds exactly ``{a, b}``, a *roof* cell more.
  Rectangles are enumerated from each bivalue cell in cell order, then the other corner's row and
  column ascending, each rectangle once; the first that makes progress is the step.
* Uniqueness Test 5 is HoDoKu's: the roofs (three, or two on a diagonal) add one and the same
  extra digit, so one of them holds it and the cells seeing every roof lose it (two roofs in one
  row or column are Test 2).
* **Grader 6** (``hodoku=True``, :data:`uniqueness_1` ... :data:`uniqueness_6`, :func:`hidden_rectangle`) follows
  HoDoKu's default ``allowUniquenessMissingCandidates``: a corner other than the bivalue start need
  not hold both digits, only be unsolved with neither digit placed in a cell it sees (a candidate
  removed by an earlier step does not break a deadly pattern: the swap is of *values*); only the
  candidates present are removed. Test 4 removes the other digit from the roofs only when the digit
  is absent from every cell seeing both roofs (HoDoKu's rule; grader 5 and older: absent from one unit
  holding both roofs beside them).
* Avoidable rectangles (types 1 and 2) are HoDoKu's: a rectangle of cells whose digits were
  *placed* (not given) could be swapped, so the pattern must not close; which cells are givens is the
  state's ``given`` (the cells filled when it was made from the puzzle).
"""

from __future__ import annotations

from itertools import combinations
from typing import cast

from pipeline.difficulty.candidates import (
    Candidates,
    Finder,
    Step,
    _bits,
    _cells,
    _Ctx,
    _elims_of,
    _slash,
    cell_name,
    digit_name,
)

#: A rectangle: its corners (row-major: top left, top right, bottom left, bottom right) and the digits.
_Rect = tuple[tuple[int, int, int, int], int]


def _rects(st: Candidates, ctx: _Ctx, missing: bool = False) -> list[_Rect]:
    """Every unsolved rectangle over two rows, two columns and two boxes whose four cells all hold
    the two digits of some bivalue corner (see the module contracts for the order); with ``missing``
    (grader 6), whose other corners may hold them (:func:`_allowed`)."""
    key_ = "rects6" if missing else "rects"
    cached = ctx.cache.get(key_)
    if isinstance(cached, list):
        return cached
    g, n, cand = st.geo, st.n, st.cand
    out: list[_Rect] = []
    seen: set[tuple[tuple[int, int, int, int], int]] = set()
    if g.classic:
        box = g.box_of
        holds = _allowed(st) if missing else ctx.where  # per digit: the cells that may hold it
        for p in ctx.bivalue:
            m = cand[p]
            ok = -1  # the cells that hold (may hold) both digits
            for k in _bits(m):
                ok &= holds[k]
            r1, c1 = divmod(p, n)
            rows = [r2 for r2 in range(n) if r2 != r1 and ok >> (r2 * n + c1) & 1]
            cols = [c2 for c2 in range(n) if c2 != c1 and ok >> (r1 * n + c2) & 1]
            for r2 in rows:
                for c2 in cols:
                    s = r2 * n + c2
                    # two boxes: the row pair shares a band or the column pair a stack, not both
                    if not ok >> s & 1 or (box[p] == box[r1 * n + c2]) == (box[p] == box[r2 * n + c1]):
                        continue
                    a, b, c, d = sorted((p, r1 * n + c2, r2 * n + c1, s))
                    key = ((a, b, c, d), m)
                    if key in seen:
                        continue
                    seen.add(key)
                    out.append(key)
    ctx.cache[key_] = out
    return out


def _allowed(st: Candidates) -> list[int]:
    """``allowed[k]``: the unsolved cells that see no placed (or given) ``k + 1`` (HoDoKu's
    ``candidatesAllowed``)."""
    n, values, pb = st.n, st.values, st.geo.peer_bits
    unsolved = sum(1 << i for i, v in enumerate(values) if not v)
    out = [unsolved] * n
    for i, v in enumerate(values):
        if v:
            out[v - 1] &= ~pb[i]
    return out


def _text(cells: tuple[int, ...], m: int, n: int) -> str:
    return f"{_slash(m)} in {_cells(cells, n)}"


def _step(kind: str, cells: tuple[int, ...], m: int, n: int, els: list[tuple[int, int]], why: str) -> Step:
    return Step(kind, cells, eliminations=_elims_of(els), digits=tuple(k + 1 for k in _bits(m)),
                detail=f"{_text(cells, m, n)}: {why}")


def _common_units(st: Candidates, cells: tuple[int, ...]) -> list[int]:
    """The units holding every one of ``cells`` (at least one cell), ascending."""
    g = st.geo
    return [u for u in g.containing[cells[0]] if all(g.unit_mask[u] >> c & 1 for c in cells)]


#: One rectangle as the tests read it: corners, digits, roofs, floors, the roofs' extra digits and the
#: units holding both roofs (computed only for two roofs; empty otherwise).
_Read = tuple[tuple[int, int, int, int], int, tuple[int, ...], tuple[int, ...], int, list[int]]


def _read(st: Candidates, ctx: _Ctx, hodoku: bool) -> list[_Read]:
    """:func:`_rects` with each rectangle's roofs, floors, extra digits and shared units, computed once per
    state (kept in the context) for every test that reads them."""
    key_ = "read6" if hodoku else "read"
    cached = ctx.cache.get(key_)
    if isinstance(cached, list):
        return cached
    cand = st.cand
    out: list[_Read] = []
    for cells, m in _rects(st, ctx, hodoku):
        roofs = tuple(c for c in cells if cand[c] != m)
        floors = tuple(c for c in cells if cand[c] == m)
        extra = 0
        for c in roofs:
            extra |= cand[c] & ~m
        out.append((cells, m, roofs, floors, extra, _common_units(st, roofs) if len(roofs) == 2 else []))
    ctx.cache[key_] = out
    return out


def _uniqueness(st: Candidates, ctx: _Ctx, kind: int, hodoku: bool = False) -> Step | None:
    """Uniqueness Test ``kind`` (see the module contracts); ``hodoku``: grader 6's rules."""
    g, n, cand, w = st.geo, st.n, st.cand, ctx.where
    pb = g.peer_bits
    name = f"uniqueness_{kind}"
    for cells, m, roofs, floors, extra, shared in _read(st, ctx, hodoku):
        if kind == 1 and len(roofs) == 1:
            r = roofs[0]
            if cand[r] & m:
                return _step(name, cells, m, n, [(r, k + 1) for k in _bits(cand[r] & m)],
                             f"{cell_name(r, n)} must break the rectangle")
        # Tests 2 and 5: the roofs add one and the same digit (two roofs in one unit: 2; three roofs, or
        # two on a diagonal: 5), so one of them holds it and the cells seeing every roof lose it
        if extra.bit_count() == 1 and (
                (kind == 2 and len(roofs) == 2 and shared)
                or (kind == 5 and (len(roofs) == 3 or (len(roofs) == 2 and not shared)))):
            k = extra.bit_length() - 1
            see = w[k]
            for r in roofs:
                see &= pb[r]
            if see:
                return _step(name, cells, m, n, [(i, k + 1) for i in _bits(see)],
                             f"one of {_cells(roofs, n)} holds {digit_name(k + 1)}")
        if len(roofs) != 2 or len(floors) != 2:
            continue
        if kind == 3 and shared:
            for u in shared:
                others = [i for i in g.units[u] if cand[i] and i not in roofs]
                for size in range(1, len(others)):
                    for sub in combinations(others, size):
                        union = extra
                        for i in sub:
                            union |= cand[i]
                        if union.bit_count() != size + 1:
                            continue
                        els = [(i, k + 1) for i in others if i not in sub for k in _bits(cand[i] & union)]
                        if els:
                            return _step(name, cells, m, n, els,
                                         f"the roofs act as one cell {{{_slash(extra)}}}, a naked subset with "
                                         f"{_cells(sub, n)} in {g.names[u] if g.names else u}")
        if kind == 4 and shared and hodoku:  # HoDoKu: the digit in no cell seeing both roofs
            both = pb[roofs[0]] & pb[roofs[1]]
            for k in _bits(m):
                if w[k] & both:
                    continue
                other = (m & ~(1 << k)).bit_length() - 1
                els = [(r, other + 1) for r in roofs if cand[r] >> other & 1]
                if els:
                    return _step(name, cells, m, n, els,
                                 f"{digit_name(k + 1)} is locked in the roofs {_cells(roofs, n)}")
                break  # HoDoKu takes the first digit absent there, and no other
        elif kind == 4 and shared:
            for u in shared:
                for k in _bits(m):
                    if w[k] & g.unit_mask[u] & ~(1 << roofs[0] | 1 << roofs[1]):
                        continue
                    other = (m & ~(1 << k)).bit_length() - 1
                    return _step(name, cells, m, n, [(r, other + 1) for r in roofs],
                                 f"{digit_name(k + 1)} is locked in the roofs {_cells(roofs, n)}")
        if kind == 6 and not shared:
            rows = {st.geo.row_of[c] for c in cells}
            cols = {st.geo.col_of[c] for c in cells}
            rect = sum(1 << c for c in cells)
            lines = 0
            for r in rows:
                lines |= g.unit_mask[r]
            for c in cols:
                lines |= g.unit_mask[n + c]
            for k in _bits(m):
                if w[k] & lines & ~rect == 0 and any(cand[r] >> k & 1 for r in roofs):
                    return _step(name, cells, m, n, [(r, k + 1) for r in roofs if cand[r] >> k & 1],
                                 f"{digit_name(k + 1)} is conjugate in both rows and both columns")
    return None


def _hidden_rectangle(st: Candidates, ctx: _Ctx, hodoku: bool = False) -> Step | None:
    """The hidden rectangle (``hodoku``: grader 6's rectangles, see the module contracts)."""
    g, n, cand, w = st.geo, st.n, st.cand, ctx.where
    for cells, m in _rects(st, ctx, hodoku):
        for p in cells:
            if cand[p] != m:
                continue
            s = next(c for c in cells if g.row_of[c] != g.row_of[p] and g.col_of[c] != g.col_of[p])
            rect = sum(1 << c for c in cells)
            line = g.unit_mask[g.row_of[s]] | g.unit_mask[n + g.col_of[s]]
            for k in _bits(m):
                other = (m & ~(1 << k)).bit_length() - 1
                if w[k] & line & ~rect or not cand[s] >> other & 1:
                    continue
                return _step("hidden_rectangle", cells, m, n, [(s, other + 1)],
                             f"{digit_name(k + 1)} is conjugate in the row and column of {cell_name(s, n)}")
    return None


def _avoidable(st: Candidates, ctx: _Ctx, kind: int) -> Step | None:
    """HoDoKu's Avoidable Rectangle type ``kind`` (1 or 2): the first of :func:`_avoidables`' scan, which
    runs once per state for both types (kept in the context)."""
    found = ctx.cache.get("avoidable")
    if not isinstance(found, tuple):
        found = _avoidables(st, ctx)
        ctx.cache["avoidable"] = found
    return cast(Step | None, found[kind - 1])


def _avoidables(st: Candidates, ctx: _Ctx) -> tuple[Step | None, Step | None]:
    """The first Avoidable Rectangle of type 1 and of type 2, each searched in HoDoKu's order: from each
    placed (non-given) cell ``p`` holding ``a``, each placed cell ``q`` of its box in its row or column
    holding ``b``, then the far corners along ``p``'s and ``q``'s lines outside the box. Were the far
    corners ``b`` (``p``'s line) and ``a``, the four placed digits could be swapped: a second solution.
    Type 1: one far corner holds its digit (placed, not given), so the other loses its own; type 2: both
    far corners are bivalue with one extra digit ``x`` in common, so one of them is ``x`` and the cells
    seeing both lose it. One scan serves both: each type's step is the first of its type in the order."""
    g, n, cand, values, w = st.geo, st.n, st.cand, st.values, ctx.where
    if not g.classic:
        return None, None
    given, pb = st.given, g.peer_bits
    placed = [v != 0 and not given >> i & 1 for i, v in enumerate(values)]

    def bivalue_with(i: int, m: int) -> bool:
        return values[i] == 0 and cand[i] & m != 0 and cand[i].bit_count() == 2

    one: Step | None = None
    two: Step | None = None
    seen: set[tuple[int, ...]] = set()
    for p in range(n * n):
        if not placed[p]:
            continue
        a, rp, cp, bp = values[p], g.row_of[p], g.col_of[p], g.box_of[p]
        for q in g.units[2 * n + bp]:
            if q == p or (g.row_of[q] != rp and g.col_of[q] != cp) or not placed[q]:
                continue
            b = values[q]
            ma, mb = 1 << (a - 1), 1 << (b - 1)
            lines = g.row_of[q] == rp
            for k in range(n):
                s, t = (k * n + cp, k * n + g.col_of[q]) if lines else (rp * n + k, g.row_of[q] * n + k)
                if g.box_of[s] == bp:
                    continue
                if not ((values[s] == b and placed[s] and bivalue_with(t, ma))
                        or (values[t] == a and placed[t] and bivalue_with(s, mb))
                        or (bivalue_with(s, mb) and bivalue_with(t, ma))):
                    continue
                key = tuple(sorted((p, q, s, t)))
                if key in seen:
                    continue
                seen.add(key)
                cells = (p, q, s, t)
                m = ma | mb
                if values[s] or values[t]:
                    if one is None:
                        far, d = (t, a) if values[s] else (s, b)
                        one = _step("avoidable_rectangle_1", cells, m, n, [(far, d)],
                                    f"{cell_name(far, n)} cannot be {digit_name(d)}: the placed digits could be "
                                    "swapped")
                elif two is None:
                    x = cand[s] & ~mb
                    if not cand[t] & x:
                        continue
                    k2 = x.bit_length() - 1
                    see = pb[s] & pb[t] & w[k2]
                    if see:
                        two = _step("avoidable_rectangle_2", cells, m, n, [(i, k2 + 1) for i in _bits(see)],
                                    f"one of {cell_name(s, n)}, {cell_name(t, n)} holds {digit_name(k2 + 1)}")
                if one is not None and two is not None:
                    return one, two
    return one, two


def _avoidable_finder(kind: int) -> Finder:
    """The finder of ``avoidable_rectangle_<kind>`` (HoDoKu's Avoidable Rectangle type ``kind``)."""

    def find(st: Candidates, ctx: _Ctx) -> Step | None:
        return _avoidable(st, ctx, kind)
    return find


def _bug_plus_1(st: Candidates, ctx: _Ctx) -> Step | None:
    g, n, cand, w = st.geo, st.n, st.cand, ctx.where
    if not g.classic:
        return None
    odd = [i for i, m in enumerate(cand) if m and m.bit_count() != 2]
    if len(odd) != 1 or cand[odd[0]].bit_count() != 3:
        return None
    c = odd[0]
    for u in g.containing[c]:
        for k in _bits(cand[c]):
            if (w[k] & g.unit_mask[u]).bit_count() == 3:
                return Step("bug_plus_1", (c,), placements=((c, k + 1),), digits=(k + 1,),
                            detail=f"every other cell is bivalue: {cell_name(c, n)} must be {digit_name(k + 1)}")
    return None


def _uniqueness_finder(kind: int, hodoku: bool = False) -> Finder:
    """The finder of ``uniqueness_<kind>`` (HoDoKu's Uniqueness Test ``kind``); ``hodoku``: grader 6's."""

    def find(st: Candidates, ctx: _Ctx) -> Step | None:
        return _uniqueness(st, ctx, kind, hodoku)
    return find


def hidden_rectangle(st: Candidates, ctx: _Ctx) -> Step | None:
    """Grader 6's hidden rectangle (HoDoKu's rectangles with missing candidates)."""
    return _hidden_rectangle(st, ctx, True)


# The finders the technique registry names (pipeline.difficulty.techniques); ``_until_5``: graders 2-5's
# rectangles (every corner holds both digits), kept for their rulebooks.
bug_plus_1 = _bug_plus_1
avoidable_rectangle_1 = _avoidable_finder(1)
avoidable_rectangle_2 = _avoidable_finder(2)
uniqueness_1 = _uniqueness_finder(1, hodoku=True)
uniqueness_2 = _uniqueness_finder(2, hodoku=True)
uniqueness_3 = _uniqueness_finder(3, hodoku=True)
uniqueness_4 = _uniqueness_finder(4, hodoku=True)
uniqueness_5 = _uniqueness_finder(5, hodoku=True)
uniqueness_6 = _uniqueness_finder(6, hodoku=True)
uniqueness_1_until_5 = _uniqueness_finder(1)
uniqueness_2_until_5 = _uniqueness_finder(2)
uniqueness_3_until_5 = _uniqueness_finder(3)
uniqueness_4_until_5 = _uniqueness_finder(4)
uniqueness_5_until_5 = _uniqueness_finder(5)
uniqueness_6_until_5 = _uniqueness_finder(6)
hidden_rectangle_until_5 = _hidden_rectangle
