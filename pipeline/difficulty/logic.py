"""A human-style logical solver: techniques in order of difficulty, every step recorded.

The solver keeps a candidate grid (one bitmask int per cell, bit ``d-1`` for digit ``d``; a solved
cell holds its digit in ``values`` and mask ``0``) and repeatedly applies the *easiest* technique of
:data:`TECHNIQUE_ORDER` that makes progress, restarting from the singles after every step, so the
path is the one a human guide (or HoDoKu's step-by-step solver) would give. Each step records what
it saw and what it did as a :class:`Step`.

Contracts
---------
* **Soundness first.** Every technique here is a valid deduction for *any* puzzle: none relies on
  the puzzle having a unique solution (no uniqueness rectangles, no BUG). So an elimination never
  removes a digit that some solution of the current state has in that cell, and a placement always
  agrees with every solution. On a puzzle with several solutions the only step that picks one of
  them is ``trial_and_error``.
* **Order.** Techniques are tried in :data:`TECHNIQUE_ORDER` (HoDoKu's default solver order for the
  techniques implemented, except that Simple Colors comes before the Unfair finned fish); the first
  one that makes progress is applied, one pattern per step.
  Within a technique the search order is deterministic; for chains the shortest chain wins, then the
  one with most eliminations.
* **Trial and error** is the last rung: when nothing else applies the solver finds a solution of
  the current candidate state by search and places its digit in the unsolved cell with fewest
  candidates (HoDoKu's "Brute Force" step); a known solution can be passed to skip the search.
  It is disabled by ``max_technique`` naming an easier technique; the solver then stops with
  ``stuck=True``.
* Sizes 4, 6, 9 and 16 work with every technique (the geometry comes from :mod:`pipeline.board`).
* **Variants.** ``solve_logically(..., variant=v)`` / ``Candidates.from_grid(..., variant=v)`` use the
  units and peers of ``board(n, v)``: jigsaw regions in place of the boxes, the diagonals (x) and
  windows (hyper) as extra units, killer cage mates as peers (cage sums are never used). Which
  technique does what there, and why each stays sound, is listed in :mod:`pipeline.difficulty.grade`.
  Variants run in pure Python only (the compiled kernels are classic).

Public API: :func:`solve_logically`, :func:`next_step`, :func:`find_step`, :func:`search_solution`,
:class:`Candidates`, :class:`Step`, :class:`LogicResult`, :class:`Contradiction`,
:data:`TECHNIQUE_ORDER`, :data:`TITLES`, and the namers :func:`cell_name`, :func:`unit_name`,
:func:`digit_name`. The technique table (names, order, titles, levels, weights) lives in
:mod:`pipeline.difficulty.techniques`; :data:`TECHNIQUE_ORDER` and :data:`TITLES` are re-exported from it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import combinations
from typing import TYPE_CHECKING

from pipeline.board import CLASSIC, SYMBOLS, Board, Grid, Variant, board, conflict, size_of_grid
from pipeline.difficulty.techniques import TECHNIQUE_ORDER, TITLES  # re-exported: part of this module's API

if TYPE_CHECKING:
    from pipeline.difficulty.fastlogic import Kernel

# ---------------------------------------------------------------------------------------------
# Vocabulary
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One step of a solve path.

    ``cells`` are the cells of the pattern (for chains, in chain order; for singles, the cell set).
    ``placements`` and ``eliminations`` are ``(cell, digit)`` pairs, sorted; the eliminations that
    follow automatically from a placement (its peers) are not listed. ``digits`` are the digits the
    pattern is about, ``units`` the unit indices involved (into ``board(n, variant).units``: rows ``0..n-1``,
    columns ``n..2n-1``, boxes or jigsaw regions ``2n..3n-1``, then a variant's extra units: diagonals,
    windows; for fish the base units then the cover units).
    ``detail`` describes the pattern in words with 1-based coordinates (``r5c3``), for explanations.
    """

    technique: str
    cells: tuple[int, ...]
    placements: tuple[tuple[int, int], ...] = ()
    eliminations: tuple[tuple[int, int], ...] = ()
    digits: tuple[int, ...] = ()
    units: tuple[int, ...] = ()
    detail: str = ""


@dataclass
class LogicResult:
    """Outcome of :func:`solve_logically`.

    ``solved``: every cell is filled (the grid is then a valid solution). ``stuck``: the solver
    stopped without solving: no allowed technique applies. ``contradiction``: the puzzle (with the
    given eliminations) was shown to have no solution: clashing givens, a cell or unit left without
    candidates, or (when trial and error is allowed) an exhausted search.
    ``grid`` is the final state (0 = still blank); ``steps`` the path, in order.
    """

    solved: bool
    grid: Grid
    steps: list[Step] = field(default_factory=list)
    stuck: bool = False
    contradiction: bool = False

    @property
    def n(self) -> int:
        return size_of_grid(self.grid)


class Contradiction(ValueError):
    """The givens (or given eliminations) contradict each other."""


# ---------------------------------------------------------------------------------------------
# Geometry tables (per size, cached)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Geo:
    n: int
    b: Board
    units: tuple[tuple[int, ...], ...]
    unit_mask: tuple[int, ...]  # cell bitset of each unit
    row_of: tuple[int, ...]
    col_of: tuple[int, ...]
    box_of: tuple[int, ...]
    peers: tuple[tuple[int, ...], ...]
    peer_bits: tuple[int, ...]
    scan_order: tuple[int, ...]  # boxes, rows, columns (a human's scanning order), then the variant's extra units
    box_rows: tuple[tuple[int, ...], ...]  # row indices crossing each box
    box_cols: tuple[tuple[int, ...], ...]
    names: tuple[str, ...] = ()  # unit index -> "row 2", "box 5", "region 3", "diagonal 1", "window 4"
    containing: tuple[tuple[int, ...], ...] = ()  # cell -> the units holding it, in unit order
    classic_boxes: bool = True  # the boxes are the classic box_rows x box_cols blocks (not jigsaw regions)
    variant: Variant = CLASSIC

    @property
    def classic(self) -> bool:
        return self.variant.classic


def _unit_names(b: Board) -> tuple[str, ...]:
    n, v = b.n, b.variant
    extra = ([f"diagonal {k}" for k in (1, 2)] if "x" in v.kinds else []) + (
        [f"window {k}" for k in range(1, 5)] if "hyper" in v.kinds else [])
    box = "region" if v.regions is not None else "box"
    return (tuple(f"row {k + 1}" for k in range(n)) + tuple(f"column {k + 1}" for k in range(n))
            + tuple(f"{box} {k + 1}" for k in range(n)) + tuple(extra[: len(b.extra)]))


@lru_cache(maxsize=256)
def _geo(n: int, variant: Variant = CLASSIC) -> _Geo:
    b = board(n, variant)
    units = b.units
    unit_mask = tuple(sum(1 << i for i in u) for u in units)
    row_of = tuple(i // n for i in range(n * n))
    col_of = tuple(i % n for i in range(n * n))
    peers = tuple(tuple(sorted(p)) for p in b.peers)
    peer_bits = tuple(sum(1 << j for j in p) for p in peers)
    scan = tuple(range(2 * n, 3 * n)) + tuple(range(n)) + tuple(range(n, 2 * n)) + tuple(range(3 * n, len(units)))
    box_rows = tuple(tuple(sorted({i // n for i in bx})) for bx in b.boxes)
    box_cols = tuple(tuple(sorted({i % n for i in bx})) for bx in b.boxes)
    containing = tuple(tuple(u for u, um in enumerate(unit_mask) if um >> i & 1) for i in range(n * n))
    return _Geo(n, b, units, unit_mask, row_of, col_of, b.box_of, peers, peer_bits, scan, box_rows, box_cols,
                _unit_names(b), containing, b.boxes == board(n).boxes, b.variant)


def _bits(x: int) -> Iterator[int]:
    """Indices of the set bits of ``x``, lowest first."""
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


def _digits(mask: int) -> list[int]:
    return [k + 1 for k in _bits(mask)]


# ---------------------------------------------------------------------------------------------
# Naming (1-based, for details)
# ---------------------------------------------------------------------------------------------


def cell_name(i: int, n: int) -> str:
    """``r5c3`` style name of cell ``i`` (1-based row and column)."""
    r, c = divmod(i, n)
    return f"r{r + 1}c{c + 1}"


def unit_name(u: int, n: int, variant: Variant | None = None) -> str:
    """``row 2``, ``column 7`` or ``box 5`` (1-based) for unit index ``u`` of ``board(n, variant).units``;
    on a variant board also ``region 3`` (jigsaw), ``diagonal 1``/``diagonal 2`` (x: the main diagonal,
    then the anti-diagonal) and ``window 1``..``window 4`` (hyper)."""
    if variant is None or variant.classic:
        kind, k = divmod(u, n)
        return f"{('row', 'column', 'box')[kind]} {k + 1}"
    return _geo(n, variant).names[u]


def digit_name(d: int) -> str:
    return SYMBOLS[d - 1]


def _cells(cells: Iterable[int], n: int) -> str:
    return ", ".join(cell_name(i, n) for i in cells)


def _and(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _cand(mask: int) -> str:
    return "{" + ",".join(digit_name(d) for d in _digits(mask)) + "}"


def _slash(mask: int) -> str:
    return "/".join(digit_name(d) for d in _digits(mask))


# ---------------------------------------------------------------------------------------------
# Candidate state
# ---------------------------------------------------------------------------------------------


class Candidates:
    """Mutable candidate state: ``values[i]`` (0 = blank) and ``cand[i]`` (bitmask, 0 when solved), on
    the board of side ``n`` under ``variant`` (None = classic): its units and peers are the geometry
    every technique works with."""

    __slots__ = ("cand", "geo", "n", "values")

    def __init__(self, n: int, values: list[int], cand: list[int], variant: Variant | None = None) -> None:
        self.n = n
        self.geo = _geo(n) if variant is None or variant.classic else _geo(n, variant)
        self.values = values
        self.cand = cand

    @property
    def variant(self) -> Variant:
        return self.geo.variant

    @classmethod
    def from_grid(cls, grid: Grid, eliminated: Iterable[tuple[int, int]] = (),
                  variant: Variant | None = None) -> Candidates:
        """Candidates of ``grid`` (each blank: the digits no peer holds) minus ``eliminated``; on a
        variant board the peers include the extra units and the killer cage mates.

        Raises :class:`Contradiction` when two givens clash (in a unit or a cage); ``eliminated``
        pairs on solved cells are ignored.
        """
        n = size_of_grid(grid)
        clash = conflict(grid, variant)
        if clash:
            raise Contradiction(clash)
        g = _geo(n) if variant is None or variant.classic else _geo(n, variant)
        full = (1 << n) - 1
        values = list(grid)
        cand = [0] * (n * n)
        for i, v in enumerate(values):
            if not v:
                used = 0
                for j in g.peers[i]:
                    if values[j]:
                        used |= 1 << (values[j] - 1)
                cand[i] = full & ~used
        for i, d in eliminated:
            cand[i] &= ~(1 << (d - 1))
        return cls(n, values, cand, g.variant)

    def copy(self) -> Candidates:
        return Candidates(self.n, list(self.values), list(self.cand), self.geo.variant)

    def grid(self) -> Grid:
        return tuple(self.values)

    def is_solved(self) -> bool:
        return all(self.values)

    def has(self, i: int, d: int) -> bool:
        return bool(self.cand[i] >> (d - 1) & 1)

    def candidates(self, i: int) -> list[int]:
        """Digits still possible in cell ``i`` (empty for a solved cell)."""
        return _digits(self.cand[i])

    def place(self, i: int, d: int) -> None:
        """Set cell ``i`` to ``d`` and remove ``d`` from its peers."""
        bit = 1 << (d - 1)
        self.values[i] = d
        self.cand[i] = 0
        cand = self.cand
        for j in self.geo.peers[i]:
            cand[j] &= ~bit

    def apply(self, step: Step) -> None:
        for i, d in step.eliminations:
            self.cand[i] &= ~(1 << (d - 1))
        for i, d in step.placements:
            self.place(i, d)

    def contradiction(self) -> bool:
        """An unsolved cell with no candidate, or a unit with nowhere left for a missing digit."""
        n, cand, values = self.n, self.cand, self.values
        for i in range(n * n):
            if not values[i] and not cand[i]:
                return True
        full = (1 << n) - 1
        for u in self.geo.units:
            seen = 0
            for i in u:
                seen |= cand[i] | (1 << (values[i] - 1) if values[i] else 0)
            if seen != full:
                return True
        return False


_KINDS = ("row", "col", "box", "extra")


class _Ctx:
    """Derived tables of one state, computed lazily once per step search."""

    def __init__(self, st: Candidates) -> None:
        self.st = st
        self._strong: dict[int, list[tuple[int, int, frozenset[str]]]] = {}
        self.finned: dict[tuple[int, bool], Step | None] = {}

    @cached_property
    def where(self) -> list[int]:
        """``where[k]``: cell bitset of the candidates of digit ``k+1``."""
        w = [0] * self.st.n
        for i, m in enumerate(self.st.cand):
            while m:
                low = m & -m
                w[low.bit_length() - 1] |= 1 << i
                m ^= low
        return w

    @cached_property
    def bivalue(self) -> list[int]:
        return [i for i, m in enumerate(self.st.cand) if m.bit_count() == 2]

    @cached_property
    def bivalue_bits(self) -> int:
        return sum(1 << i for i in self.bivalue)

    def strong(self, k: int) -> list[tuple[int, int, frozenset[str]]]:
        """Conjugate pairs of digit ``k+1``: ``(a, b, kinds)`` with ``a < b`` and the unit kinds
        (``row``, ``col``, ``box`` (a box or jigsaw region), ``extra`` (a diagonal or window)) in
        which they are the only two places."""
        if k not in self._strong:
            g = self.st.geo
            n = self.st.n
            x = self.where[k]
            found: dict[tuple[int, int], set[str]] = {}
            for u, um in enumerate(g.unit_mask):
                y = x & um
                if y.bit_count() == 2:
                    a = (y & -y).bit_length() - 1
                    bb = y.bit_length() - 1
                    found.setdefault((a, bb), set()).add(_KINDS[min(u // n, 3)])
            self._strong[k] = [(a, bb, frozenset(kinds)) for (a, bb), kinds in sorted(found.items())]
        return self._strong[k]


def _elims_of(pairs: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted(set(pairs)))


Finder = Callable[[Candidates, _Ctx], "Step | None"]

# ---------------------------------------------------------------------------------------------
# Singles
# ---------------------------------------------------------------------------------------------


def _naked_single(st: Candidates, ctx: _Ctx) -> Step | None:
    n = st.n
    for i, m in enumerate(st.cand):
        if m and not m & (m - 1):
            d = m.bit_length()
            return Step("naked_single", (i,), placements=((i, d),), digits=(d,), detail=f"in {cell_name(i, n)}")
    return None


def _hidden_single(st: Candidates, ctx: _Ctx) -> Step | None:
    g, cand = st.geo, st.cand
    for u in g.scan_order:
        once = twice = 0
        unit = g.units[u]
        for i in unit:
            m = cand[i]
            twice |= once & m
            once |= m
        h = once & ~twice
        if h:
            low = h & -h
            d = low.bit_length()
            for i in unit:
                if cand[i] & low:
                    return Step("hidden_single", (i,), placements=((i, d),), digits=(d,), units=(u,),
                                detail=f"for {digit_name(d)} in {g.names[u]}")
    return None


# ---------------------------------------------------------------------------------------------
# Intersections
# ---------------------------------------------------------------------------------------------


def _pointing(st: Candidates, ctx: _Ctx) -> Step | None:
    """A digit's candidates in a box (or a jigsaw region, diagonal or window) all lie in one other
    unit: that unit's other cells lose the digit. Classic: the box's candidates in one row/column."""
    g, n, w = st.geo, st.n, ctx.where
    um, names = g.unit_mask, g.names
    for bu in range(2 * n, len(um)):
        bm = um[bu]
        for k in range(n):
            x = w[k] & bm
            if not x:
                continue
            for line in g.containing[(x & -x).bit_length() - 1]:
                if line == bu:
                    continue
                lm = um[line]
                if x & ~lm == 0:
                    el = w[k] & lm & ~bm
                    if el:
                        d = k + 1
                        where = f"on {digit_name(d)} in {names[bu]}, confined to {names[line]}"
                        return Step("pointing", tuple(_bits(x)), eliminations=tuple((i, d) for i in _bits(el)),
                                    digits=(d,), units=(bu, line), detail=where)
    return None


def _claiming(st: Candidates, ctx: _Ctx) -> Step | None:
    """A digit's candidates in a row or column all lie in one box (or jigsaw region, diagonal or
    window): that unit's other cells lose the digit."""
    g, n, w = st.geo, st.n, ctx.where
    um, names = g.unit_mask, g.names
    for line in range(2 * n):
        lm = um[line]
        for k in range(n):
            x = w[k] & lm
            if not x:
                continue
            for bu in g.containing[(x & -x).bit_length() - 1]:
                if bu < 2 * n:
                    continue
                bm = um[bu]
                if x & ~bm == 0:
                    el = w[k] & bm & ~lm
                    if el:
                        d = k + 1
                        return Step("claiming", tuple(_bits(x)), eliminations=tuple((i, d) for i in _bits(el)),
                                    digits=(d,), units=(line, bu),
                                    detail=f"on {digit_name(d)} in {names[line]}, confined to {names[bu]}")
    return None


# ---------------------------------------------------------------------------------------------
# Subsets
# ---------------------------------------------------------------------------------------------

_SUBSET = {2: "pair", 3: "triple", 4: "quad"}


def _shared_units(g: _Geo, cells: Sequence[int]) -> list[int]:
    """The units holding every cell of ``cells``, in unit order (rows, columns, boxes, extra units)."""
    if g.classic:
        n = g.n
        out = []
        c0 = cells[0]
        if all(g.row_of[c] == g.row_of[c0] for c in cells):
            out.append(g.row_of[c0])
        if all(g.col_of[c] == g.col_of[c0] for c in cells):
            out.append(n + g.col_of[c0])
        if all(g.box_of[c] == g.box_of[c0] for c in cells):
            out.append(2 * n + g.box_of[c0])
        return out
    bits = 0
    for c in cells:
        bits |= 1 << c
    return [u for u in g.containing[cells[0]] if not bits & ~g.unit_mask[u]]


def _naked_subset(st: Candidates, k: int, locked: bool) -> Step | None:
    """Naked subset of size ``k``. ``locked``: only subsets inside a box *and* a line (k <= 3),
    eliminating from both (HoDoKu's Locked Pair/Triple; on a variant board any two shared units, e.g.
    a region and a row, or a box and a diagonal); otherwise only the others."""
    g, n, cand = st.geo, st.n, st.cand
    for u in g.scan_order:
        cells = [i for i in g.units[u] if 2 <= cand[i].bit_count() <= k]
        if len(cells) < k:
            continue
        for combo in combinations(cells, k):
            m = 0
            for i in combo:
                m |= cand[i]
            if m.bit_count() != k:
                continue
            shared = _shared_units(g, combo)
            is_locked = len(shared) >= 2 and k <= 3
            if is_locked != locked:
                continue
            els: list[tuple[int, int]] = []
            for s in shared:
                for j in g.units[s]:
                    if j not in combo and cand[j] & m:
                        els.extend((j, d) for d in _digits(cand[j] & m))
            if els:
                name = ("locked_" if locked else "naked_") + _SUBSET[k]
                where = " and ".join(g.names[s] for s in shared)
                return Step(name, combo, eliminations=_elims_of(els), digits=tuple(_digits(m)), units=tuple(shared),
                            detail=f"{_slash(m)} in {_cells(combo, n)} ({where})")
    return None


def _hidden_subset(st: Candidates, ctx: _Ctx, k: int) -> Step | None:
    g, n, cand, w = st.geo, st.n, st.cand, ctx.where
    for u in g.scan_order:
        um = g.unit_mask[u]
        digs = []
        for j in range(n):
            pos = w[j] & um
            if 2 <= pos.bit_count() <= k:
                digs.append((j, pos))
        if len(digs) < k:
            continue
        for combo in combinations(digs, k):
            cm = 0
            dm = 0
            for j, pos in combo:
                cm |= pos
                dm |= 1 << j
            if cm.bit_count() != k:
                continue
            cells = tuple(_bits(cm))
            els = [(i, d) for i in cells for d in _digits(cand[i] & ~dm)]
            if els:
                return Step("hidden_" + _SUBSET[k], cells, eliminations=_elims_of(els), digits=tuple(_digits(dm)),
                            units=(u,), detail=f"{_slash(dm)} in {_cells(cells, n)} ({g.names[u]})")
    return None


# ---------------------------------------------------------------------------------------------
# Basic fish
# ---------------------------------------------------------------------------------------------

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


def _fish(st: Candidates, ctx: _Ctx, size: int) -> Step | None:
    n = st.n
    for k in range(n):
        x = ctx.where[k]
        if not x:
            continue
        by_row, by_col = _lines_of(x, n)
        for rows_base, lines, cross in ((True, by_row, by_col), (False, by_col, by_row)):
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
                    d = k + 1
                    cells = sorted(li * n + cv if rows_base else cv * n + li
                                   for li in combo for cv in _bits(lines[li]))
                    covers = list(_bits(cover))
                    b_units = tuple((0 if rows_base else n) + li for li in combo)
                    c_units = tuple((n if rows_base else 0) + cv for cv in covers)
                    bw, cw = ("rows", "columns") if rows_base else ("columns", "rows")
                    detail = (f"on {digit_name(d)} in {bw} {_and([str(li + 1) for li in combo])}, "
                              f"{cw} {_and([str(cv + 1) for cv in covers])}")
                    return Step(_FISH[size], tuple(cells), eliminations=_elims_of((i, d) for i in els), digits=(d,),
                                units=b_units + c_units, detail=detail)
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


def _finned_fish(st: Candidates, ctx: _Ctx, size: int, sashimi: bool) -> Step | None:
    """First finned (or sashimi) fish of ``size``; both kinds are found in one pass, cached per state."""
    key = (size, sashimi)
    if key not in ctx.finned:
        search = _finned_search if st.geo.classic_boxes else _finned_search_regions
        ctx.finned.update(search(st, ctx, size))
    return ctx.finned.get(key)


def _finned_search(st: Candidates, ctx: _Ctx, size: int) -> dict[tuple[int, bool], Step | None]:
    """Basic fish whose base lines also hold candidates (fins) outside the cover lines, all in one
    box: either no fin is true (a basic fish) or the fin box holds the digit, so cover-line cells
    outside the base lines *and inside the fin box* lose it. Sashimi: some base line has at most one
    candidate left in the cover lines once the fins are ignored."""
    g, n = st.geo, st.n
    found: dict[tuple[int, bool], Step | None] = {(size, False): None, (size, True): None}
    width = max(g.b.box_rows, g.b.box_cols)
    row_band = [sum(1 << r for r in g.box_rows[b]) for b in range(n)]
    col_band = [sum(1 << c for c in g.box_cols[b]) for b in range(n)]
    # (line band, position band) of each box, for row-based and for column-based fish
    bands_of = {True: list(zip(row_band, col_band, strict=True)), False: list(zip(col_band, row_band, strict=True))}
    for k in range(n):
        x = ctx.where[k]
        if not x:
            continue
        by_row, by_col = _lines_of(x, n)
        for rows_base, lines, cross in ((True, by_row, by_col), (False, by_col, by_row)):
            bands = bands_of[rows_base]
            base = [li for li in range(n) if 2 <= lines[li].bit_count() <= size + width]
            for combo in _line_combos(lines, base, size, size + width):
                union = 0
                bset = 0
                for li in combo:
                    union |= lines[li]
                    bset |= 1 << li
                if union.bit_count() <= size:
                    continue  # a basic fish (or less), not finned
                for f_lmask, f_pmask in bands:
                    if not bset & f_lmask:
                        continue
                    outside = 0  # base lines outside the fin box's band have no fins: all theirs is cover
                    for li in combo:
                        if not f_lmask >> li & 1:
                            outside |= lines[li]
                    must = (union & ~f_pmask) | outside
                    need = size - must.bit_count()
                    free = union & f_pmask & ~must
                    if need < 0 or need > free.bit_count():
                        continue
                    for extra in combinations(list(_bits(free)), need):
                        cover = must
                        for p in extra:
                            cover |= 1 << p
                        if not union & ~cover:
                            continue  # no fin
                        tgt = [(li, p) for p in _bits(cover & f_pmask) for li in _bits(cross[p] & f_lmask & ~bset)]
                        if not tgt:
                            continue
                        counts = [(lines[li] & cover).bit_count() for li in combo]
                        sashimi = min(counts) <= 1
                        if 0 in counts or found[(size, sashimi)] is not None:
                            continue
                        found[(size, sashimi)] = _finned_step(n, k + 1, size, sashimi, rows_base, combo, lines,
                                                              cover, tgt)
                        if all(v is not None for v in found.values()):
                            return found
    return found


def _finned_search_regions(st: Candidates, ctx: _Ctx, size: int) -> dict[tuple[int, bool], Step | None]:
    """:func:`_finned_search` for a board whose boxes are not blocks of rows and columns (jigsaw
    regions): the fins must all lie in one region, and only cover-line cells outside the base lines
    *inside that region* lose the digit (they see every fin through the region). On classic boxes it
    finds exactly what :func:`_finned_search` finds (``tests/test_grade_variants.py`` checks), so it is
    the same technique with the box read as a region."""
    g, n = st.geo, st.n
    found: dict[tuple[int, bool], Step | None] = {(size, False): None, (size, True): None}
    width = max(g.b.box_rows, g.b.box_cols)
    regions = [g.unit_mask[2 * n + b] for b in range(n)]
    for k in range(n):
        x = ctx.where[k]
        if not x:
            continue
        by_row, by_col = _lines_of(x, n)
        for rows_base, lines, cross in ((True, by_row, by_col), (False, by_col, by_row)):

            def cell(li: int, p: int, rows_base: bool = rows_base) -> int:
                return li * n + p if rows_base else p * n + li

            base = [li for li in range(n) if 2 <= lines[li].bit_count() <= size + width]
            for combo in _line_combos(lines, base, size, size + width):
                union = 0
                bset = 0
                cells = 0
                for li in combo:
                    union |= lines[li]
                    bset |= 1 << li
                    for p in _bits(lines[li]):
                        cells |= 1 << cell(li, p)
                if union.bit_count() <= size:
                    continue  # a basic fish (or less), not finned
                for rm in regions:
                    if not cells & rm:
                        continue
                    must = 0  # positions holding a base candidate outside the region: never a fin
                    for i in _bits(cells & ~rm):
                        must |= 1 << (i % n if rows_base else i // n)
                    need = size - must.bit_count()
                    free = union & ~must
                    if need < 0 or need > free.bit_count():
                        continue
                    for extra in combinations(list(_bits(free)), need):
                        cover = must
                        for p in extra:
                            cover |= 1 << p
                        if not union & ~cover:
                            continue  # no fin
                        tgt = [(li, p) for p in _bits(cover) for li in _bits(cross[p] & ~bset) if rm >> cell(li, p) & 1]
                        if not tgt:
                            continue
                        counts = [(lines[li] & cover).bit_count() for li in combo]
                        sashimi = min(counts) <= 1
                        if 0 in counts or found[(size, sashimi)] is not None:
                            continue
                        found[(size, sashimi)] = _finned_step(n, k + 1, size, sashimi, rows_base, combo, lines,
                                                              cover, tgt)
                        if all(v is not None for v in found.values()):
                            return found
    return found


def _finned_step(n: int, d: int, size: int, sashimi: bool, rows_base: bool, combo: Sequence[int],
                 lines: Sequence[int], cover: int, tgt: Sequence[tuple[int, int]]) -> Step:
    """The step of a finned (or sashimi) fish on digit ``d``: base lines ``combo`` (rows when
    ``rows_base``), cover positions ``cover``, eliminations ``tgt`` as (line, position)."""

    def cell(li: int, p: int) -> int:
        return li * n + p if rows_base else p * n + li

    fins = sorted(cell(li, p) for li in combo for p in _bits(lines[li] & ~cover))
    cells = sorted(cell(li, p) for li in combo for p in _bits(lines[li]))
    covers = list(_bits(cover))
    b_units = tuple((0 if rows_base else n) + li for li in combo)
    c_units = tuple((n if rows_base else 0) + cv for cv in covers)
    bw, cw = ("rows", "columns") if rows_base else ("columns", "rows")
    detail = (f"on {digit_name(d)} in {bw} {_and([str(li + 1) for li in combo])}, "
              f"{cw} {_and([str(cv + 1) for cv in covers])}, fin{'s' if len(fins) > 1 else ''} "
              f"{_cells(fins, n)}")
    name = ("sashimi_" if sashimi else "finned_") + _FISH[size]
    return Step(name, tuple(cells), eliminations=_elims_of((cell(li, p), d) for li, p in tgt),
                digits=(d,), units=b_units + c_units, detail=detail)


# ---------------------------------------------------------------------------------------------
# Remote pairs
# ---------------------------------------------------------------------------------------------


def _bfs_path(start: int, goal: int, adj: dict[int, list[int]]) -> list[int]:
    parent = {start: start}
    frontier = [start]
    while frontier and goal not in parent:
        nxt = []
        for c in frontier:
            for e in adj[c]:
                if e not in parent:
                    parent[e] = c
                    nxt.append(e)
        frontier = nxt
    path = [goal]
    while path[-1] != start:
        path.append(parent[path[-1]])
    return path[::-1]


def _components(nodes: Sequence[int], adj: dict[int, list[int]]) -> list[dict[int, int]]:
    """Connected components with a 2-colouring (``cell -> 0/1``); non-bipartite ones dropped."""
    seen: set[int] = set()
    out = []
    for s in nodes:
        if s in seen:
            continue
        color = {s: 0}
        seen.add(s)
        stack = [s]
        ok = True
        while stack:
            c = stack.pop()
            for e in adj[c]:
                if e not in color:
                    color[e] = 1 - color[c]
                    seen.add(e)
                    stack.append(e)
                elif color[e] == color[c]:
                    ok = False
        if ok:
            out.append(color)
    return out


def _remote_pair(st: Candidates, ctx: _Ctx) -> Step | None:
    g, n, cand, w = st.geo, st.n, st.cand, ctx.where
    groups: dict[int, list[int]] = {}
    for i in ctx.bivalue:
        groups.setdefault(cand[i], []).append(i)
    for m, cells in sorted(groups.items(), key=lambda kv: kv[1][0]):
        if len(cells) < 4:
            continue
        cellset = set(cells)
        adj = {c: [e for e in g.peers[c] if e in cellset] for c in cells}
        ka, kb = _bits(m)
        has_pair = w[ka] | w[kb]
        for color in _components(cells, adj):
            if len(color) < 4:
                continue
            comp = sorted(color)
            comp_bits = sum(1 << c for c in comp)
            for p, q in combinations(comp, 2):
                if color[p] == color[q]:
                    continue
                if not g.peer_bits[p] & g.peer_bits[q] & has_pair & ~comp_bits:
                    continue
                path = _bfs_path(p, q, adj)
                if len(path) < 4:
                    continue
                # every pair of path cells an odd distance >= 3 apart has opposite digits
                els: set[tuple[int, int]] = set()
                path_bits = sum(1 << c for c in path)
                for a in range(len(path)):
                    for b2 in range(a + 3, len(path), 2):
                        for x in _bits(g.peer_bits[path[a]] & g.peer_bits[path[b2]] & has_pair & ~path_bits):
                            els.update((x, d) for d in _digits(cand[x] & m))
                if els:
                    return Step("remote_pair", tuple(path), eliminations=_elims_of(els), digits=tuple(_digits(m)),
                                detail=f"{_slash(m)}: " + " - ".join(cell_name(c, n) for c in path))
    return None


# ---------------------------------------------------------------------------------------------
# Single-digit patterns: skyscraper, 2-string kite, turbot fish, empty rectangle
# ---------------------------------------------------------------------------------------------


def _turbot_kind(g: _Geo, k1: frozenset[str], k2: frozenset[str], b: int, c: int) -> str:
    if ("row" in k1 and "row" in k2 and g.col_of[b] == g.col_of[c]) or (
        "col" in k1 and "col" in k2 and g.row_of[b] == g.row_of[c]
    ):
        return "skyscraper"
    if (("row" in k1 and "col" in k2) or ("col" in k1 and "row" in k2)) and g.box_of[b] == g.box_of[c]:
        return "two_string_kite"
    return "turbot_fish"


def _turbot(st: Candidates, ctx: _Ctx, kind: str) -> Step | None:
    """Two strong links ``A = B`` and ``C = E`` joined by a weak link ``B - C``: one of ``A``, ``E`` holds
    the digit, so cells seeing both lose it."""
    g, n = st.geo, st.n
    pb = g.peer_bits
    for k in range(n):
        links = ctx.strong(k)
        wd = ctx.where[k]
        for (a1, b1, k1), (a2, b2, k2) in combinations(links, 2):
            if len({a1, b1, a2, b2}) < 4:
                continue
            for aa, bb in ((a1, b1), (b1, a1)):
                for cc, ee in ((a2, b2), (b2, a2)):
                    if not pb[bb] >> cc & 1:
                        continue
                    el = pb[aa] & pb[ee] & wd & ~((1 << bb) | (1 << cc))
                    if not el or _turbot_kind(g, k1, k2, bb, cc) != kind:
                        continue
                    d = k + 1
                    chain = (aa, bb, cc, ee)
                    return Step(kind, chain, eliminations=tuple((i, d) for i in _bits(el)), digits=(d,),
                                detail=f"on {digit_name(d)}: {_x_chain_text(chain, n)}")
    return None


def _x_chain_text(chain: Sequence[int], n: int) -> str:
    out = cell_name(chain[0], n)
    for j in range(1, len(chain)):
        out += (" = " if j % 2 else " - ") + cell_name(chain[j], n)
    return out


def _empty_rectangle(st: Candidates, ctx: _Ctx) -> Step | None:
    g, n = st.geo, st.n
    um = g.unit_mask
    for k in range(n):
        x = ctx.where[k]
        if not x:
            continue
        d = k + 1
        for b in range(n):
            bu = 2 * n + b
            bx = x & um[bu]
            if bx.bit_count() < 2:
                continue
            brows, bcols = g.box_rows[b], g.box_cols[b]
            for r in brows:
                for c in bcols:
                    rm, cm = um[r], um[n + c]
                    if bx & ~(rm | cm) or not bx & ~rm or not bx & ~cm:
                        continue  # not an ER with hinge row r / column c
                    # strong link in a column c2 outside the box with one end in row r
                    for c2 in range(n):
                        if c2 in bcols:
                            continue
                        col = x & um[n + c2]
                        if col.bit_count() != 2 or not col >> (r * n + c2) & 1:
                            continue
                        other = (col & ~(1 << (r * n + c2))).bit_length() - 1
                        r2 = other // n
                        if r2 in brows:
                            continue
                        t = r2 * n + c
                        if x >> t & 1:
                            return _er_step(st, bu, r, c, (r * n + c2, other), t, d, bx)
                    # strong link in a row r3 outside the box with one end in column c
                    for r3 in range(n):
                        if r3 in brows:
                            continue
                        row = x & um[r3]
                        if row.bit_count() != 2 or not row >> (r3 * n + c) & 1:
                            continue
                        other = (row & ~(1 << (r3 * n + c))).bit_length() - 1
                        c3 = other % n
                        if c3 in bcols:
                            continue
                        t = r * n + c3
                        if x >> t & 1:
                            return _er_step(st, bu, r, c, (r3 * n + c, other), t, d, bx)
    return None


def _er_step(st: Candidates, bu: int, r: int, c: int, link: tuple[int, int], t: int, d: int, bx: int) -> Step:
    n = st.n
    cells = (*_bits(bx), *link)
    return Step("empty_rectangle", cells, eliminations=((t, d),), digits=(d,), units=(bu, r, n + c),
                detail=(f"on {digit_name(d)} in {st.geo.names[bu]} (row {r + 1}, column {c + 1}) with strong link "
                        f"{cell_name(link[0], n)} = {cell_name(link[1], n)}"))


# ---------------------------------------------------------------------------------------------
# Wings
# ---------------------------------------------------------------------------------------------


def _w_wing(st: Candidates, ctx: _Ctx) -> Step | None:
    g, n, cand, w = st.geo, st.n, st.cand, ctx.where
    pb = g.peer_bits
    biv = ctx.bivalue
    for ia, a in enumerate(biv):
        for b in biv[ia + 1 :]:
            m = cand[a]
            if cand[b] != m or pb[a] >> b & 1:
                continue
            for kx in _bits(m):
                ky = (m & ~(1 << kx)).bit_length() - 1
                el = pb[a] & pb[b] & w[ky]
                if not el:
                    continue
                for p, q, _kinds in ctx.strong(kx):
                    if p in (a, b) or q in (a, b):
                        continue
                    if pb[p] >> a & 1 and pb[q] >> b & 1:
                        link = (p, q)
                    elif pb[p] >> b & 1 and pb[q] >> a & 1:
                        link = (q, p)
                    else:
                        continue
                    x, y = kx + 1, ky + 1
                    return Step("w_wing", (a, link[0], link[1], b), eliminations=tuple((i, y) for i in _bits(el)),
                                digits=(x, y),
                                detail=(f"{_slash(m)} in {cell_name(a, n)} and {cell_name(b, n)} connected by "
                                        f"{digit_name(x)} in {cell_name(link[0], n)} = {cell_name(link[1], n)}"))
    return None


def _xy_wing(st: Candidates, ctx: _Ctx) -> Step | None:
    g, n, cand, w = st.geo, st.n, st.cand, ctx.where
    pb = g.peer_bits
    bset = set(ctx.bivalue)
    for pivot in ctx.bivalue:
        pm = cand[pivot]
        wings = [c for c in g.peers[pivot] if c in bset and (cand[c] & pm).bit_count() == 1]
        for a, b in combinations(wings, 2):
            ma, mb = cand[a], cand[b]
            if ma & pm == mb & pm:
                continue
            z = ma & ~pm
            if z != mb & ~pm:
                continue
            kz = z.bit_length() - 1
            el = pb[a] & pb[b] & w[kz]
            if el:
                zd = kz + 1
                return Step("xy_wing", (pivot, a, b), eliminations=tuple((i, zd) for i in _bits(el)),
                            digits=(*_digits(pm), zd),
                            detail=(f"on {digit_name(zd)}: pivot {cell_name(pivot, n)} {_cand(pm)}, pincers "
                                    f"{cell_name(a, n)} {_cand(ma)} and {cell_name(b, n)} {_cand(mb)}"))
    return None


def _xyz_wing(st: Candidates, ctx: _Ctx) -> Step | None:
    g, n, cand, w = st.geo, st.n, st.cand, ctx.where
    pb = g.peer_bits
    bset = set(ctx.bivalue)
    for pivot, pm in enumerate(cand):
        if pm.bit_count() != 3:
            continue
        wings = [c for c in g.peers[pivot] if c in bset and not cand[c] & ~pm]
        for a, b in combinations(wings, 2):
            if cand[a] == cand[b]:
                continue
            z = cand[a] & cand[b]
            kz = z.bit_length() - 1
            el = pb[pivot] & pb[a] & pb[b] & w[kz]
            if el:
                zd = kz + 1
                return Step("xyz_wing", (pivot, a, b), eliminations=tuple((i, zd) for i in _bits(el)),
                            digits=(*_digits(pm),),
                            detail=(f"on {digit_name(zd)}: pivot {cell_name(pivot, n)} {_cand(pm)}, pincers "
                                    f"{cell_name(a, n)} {_cand(cand[a])} and {cell_name(b, n)} {_cand(cand[b])}"))
    return None


# ---------------------------------------------------------------------------------------------
# Colouring and chains
# ---------------------------------------------------------------------------------------------


def _simple_colors(st: Candidates, ctx: _Ctx) -> Step | None:
    g, n = st.geo, st.n
    pb = g.peer_bits
    for k in range(n):
        links = ctx.strong(k)
        if len(links) < 2:
            continue
        adj: dict[int, list[int]] = {}
        for a, b, _ in links:
            adj.setdefault(a, []).append(b)
            adj.setdefault(b, []).append(a)
        wd = ctx.where[k]
        d = k + 1
        for color in _components(sorted(adj), adj):
            if len(color) < 3:
                continue
            sides = [sorted(c for c, v in color.items() if v == s) for s in (0, 1)]
            side_bits = [sum(1 << c for c in side) for side in sides]
            desc = f"{_cells(sides[0], n)} / {_cells(sides[1], n)}"
            # colour wrap: two cells of one colour see each other -> that colour is false
            for s in (0, 1):
                if any(pb[c] & side_bits[s] for c in sides[s]):
                    return Step("simple_colors", tuple(sides[0] + sides[1]),
                                eliminations=tuple((c, d) for c in sides[s]), digits=(d,),
                                detail=f"on {digit_name(d)} (color wrap): {desc}")
            # colour trap: an uncoloured candidate sees both colours
            see0 = see1 = 0
            for c in sides[0]:
                see0 |= pb[c]
            for c in sides[1]:
                see1 |= pb[c]
            el = see0 & see1 & wd & ~(side_bits[0] | side_bits[1])
            if el:
                return Step("simple_colors", tuple(sides[0] + sides[1]), eliminations=tuple((i, d) for i in _bits(el)),
                            digits=(d,), detail=f"on {digit_name(d)} (color trap): {desc}")
    return None


def _x_chain(st: Candidates, ctx: _Ctx) -> Step | None:
    """Alternating single-digit chain ``A = . - . = ... = E`` (starting and ending with a strong link):
    ``A`` or ``E`` holds the digit. Shortest chain wins, then most eliminations."""
    g, n = st.geo, st.n
    pb = g.peer_bits
    best: tuple[int, int, tuple[int, ...], int, int] | None = None  # (len, -nelims, chain, digit, elims)
    for k in range(n):
        links = ctx.strong(k)
        if len(links) < 2:
            continue
        wd = ctx.where[k]
        sadj: dict[int, list[int]] = {}
        for a, b, _ in links:
            sadj.setdefault(a, []).append(b)
            sadj.setdefault(b, []).append(a)
        for start in sorted(sadj):
            parent: dict[tuple[int, int], tuple[int, int] | None] = {(start, 0): None}
            frontier = [(start, 0)]
            length = 1
            while frontier:
                length += 1
                if best is not None and length > best[0]:
                    break
                nxt = []
                for c, p in frontier:
                    neigh = sadj.get(c, []) if p == 0 else list(_bits(pb[c] & wd))
                    for e in neigh:
                        s = (e, 1 - p)
                        if s in parent:
                            continue
                        parent[s] = (c, p)
                        nxt.append(s)
                        if p == 0 and e != start:
                            el = pb[start] & pb[e] & wd
                            if not el:
                                continue
                            chain = _unwind(parent, s)
                            if len(set(chain)) != len(chain):
                                continue
                            key = (len(chain), -el.bit_count())
                            if best is None or key < best[:2]:
                                best = (key[0], key[1], chain, k + 1, el)
                frontier = nxt
    if best is None:
        return None
    _, _, chain, d, el = best
    return Step("x_chain", chain, eliminations=tuple((i, d) for i in _bits(el)), digits=(d,),
                detail=f"on {digit_name(d)}: {_x_chain_text(chain, n)}")


def _unwind(parent: dict[tuple[int, int], tuple[int, int] | None], s: tuple[int, int]) -> tuple[int, ...]:
    out = []
    cur: tuple[int, int] | None = s
    while cur is not None:
        out.append(cur[0])
        cur = parent[cur]
    return tuple(reversed(out))


def _xy_chain(st: Candidates, ctx: _Ctx) -> Step | None:
    """Chain of bivalue cells, each linked to the next by a shared digit: if the first cell is not
    ``x`` the last one is, so cells seeing both ends lose ``x``. Shortest first, then most eliminations."""
    g, n, cand, w = st.geo, st.n, st.cand, ctx.where
    pb = g.peer_bits
    bb = ctx.bivalue_bits
    best: tuple[int, int, tuple[int, ...], int, int] | None = None
    for start in ctx.bivalue:
        for kx in _bits(cand[start]):
            xbit = 1 << kx
            ky = (cand[start] & ~xbit).bit_length() - 1
            s0 = (start, ky)  # (cell, index of the digit it must hold if start is not x)
            parent: dict[tuple[int, int], tuple[int, int] | None] = {s0: None}
            frontier = [s0]
            length = 1
            while frontier:
                length += 1
                if best is not None and length > best[0]:
                    break
                nxt = []
                for c, kv in frontier:
                    for e in _bits(pb[c] & bb & w[kv]):
                        ko = (cand[e] & ~(1 << kv)).bit_length() - 1
                        s = (e, ko)
                        if s in parent:
                            continue
                        parent[s] = (c, kv)
                        nxt.append(s)
                        if ko == kx and e != start:
                            el = pb[start] & pb[e] & w[kx]
                            if not el:
                                continue
                            chain = _unwind(parent, s)
                            if len(set(chain)) != len(chain) or len(chain) < 3:
                                continue
                            key = (len(chain), -el.bit_count())
                            if best is None or key < best[:2]:
                                best = (key[0], key[1], chain, kx + 1, el)
                frontier = nxt
    if best is None:
        return None
    _, _, chain, d, el = best
    text = " - ".join(f"{cell_name(c, n)} {_cand(cand[c])}" for c in chain)
    return Step("xy_chain", chain, eliminations=tuple((i, d) for i in _bits(el)), digits=(d,),
                detail=f"on {digit_name(d)}: {text}")


# ---------------------------------------------------------------------------------------------
# Trial and error
# ---------------------------------------------------------------------------------------------


def search_solution(st: Candidates) -> list[int] | None:
    """A solution (list of digits) of the candidate state by backtracking search, or None.

    Singles propagation, then the cell with fewest candidates first; candidates are respected, so
    the result is consistent with every elimination made so far.
    """
    g = st.geo
    masks = [(1 << (v - 1)) if v else m for v, m in zip(st.values, st.cand, strict=True)]
    queue = [i for i, m in enumerate(masks) if m and not m & (m - 1)]
    out = _search(masks, queue, g)
    return None if out is None else [m.bit_length() for m in out]


def _propagate(masks: list[int], queue: list[int], g: _Geo) -> bool:
    """Naked singles (from ``queue``, cells just fixed) and hidden singles to a fixpoint, in place on
    full masks (a solved cell has one bit); False on a contradiction."""
    peers, units = g.peers, g.units
    full = (1 << g.n) - 1
    while True:
        while queue:
            i = queue.pop()
            m = masks[i]
            for j in peers[i]:
                mj = masks[j]
                if mj & m:
                    mj &= ~m
                    if not mj:
                        return False
                    masks[j] = mj
                    if not mj & (mj - 1):
                        queue.append(j)
        for u in units:
            once = twice = 0
            for i in u:
                m = masks[i]
                twice |= once & m
                once |= m
            if once != full:
                return False
            h = once & ~twice
            if h:
                for i in u:
                    m = masks[i]
                    if m & h and m & (m - 1):
                        one = m & h
                        if one & (one - 1):
                            return False
                        masks[i] = one
                        queue.append(i)
        if not queue:
            return True


def _search(masks: list[int], queue: list[int], g: _Geo) -> list[int] | None:
    """Depth-first search; branches on the cell with fewest candidates, or on the unit-digit with
    fewest places when that is smaller (both complete case splits)."""
    if not _propagate(masks, queue, g):
        return None
    best, best_count = -1, g.n + 1
    for i, m in enumerate(masks):
        c = m.bit_count()
        if 1 < c < best_count:
            best, best_count = i, c
            if c == 2:
                break
    if best < 0:
        return masks
    branches: list[tuple[int, int]] = [(best, 1 << k) for k in _bits(masks[best])]
    if best_count > 2:
        for u in g.units:
            for k in range(g.n):
                bit = 1 << k
                places = [i for i in u if masks[i] & bit]
                if 1 < len(places) < len(branches) and any(masks[i] != bit for i in places):
                    branches = [(i, bit) for i in places]
                    if len(branches) == 2:
                        break
            if len(branches) == 2:
                break
    for i, bit in branches:
        trial = list(masks)
        trial[i] = bit
        out = _search(trial, [i], g)
        if out is not None:
            return out
    return None


def _is_complete_solution(grid: Sequence[int], n: int, g: _Geo | None = None) -> bool:
    full = set(range(1, n + 1))
    g = _geo(n) if g is None else g
    return (len(grid) == n * n and all({grid[i] for i in u} == full for u in g.units)
            and all(len({grid[i] for i in c.cells}) == len(c.cells) for c in g.b.cages))


class _Guesser:
    """Trial and error, with the solution found once per solve (later steps are sound, so it stays
    valid). A known solution may be handed in; it is used only while it agrees with the state."""

    def __init__(self, solution: Sequence[int] | None = None, n: int = 0, geo: _Geo | None = None) -> None:
        self.solution: list[int] | None = None
        self.no_solution = False  # set when the search proved the state has no solution
        if solution is not None and _is_complete_solution(solution, n, geo):
            self.solution = list(solution)

    def __call__(self, st: Candidates, ctx: _Ctx) -> Step | None:
        n, cand = st.n, st.cand
        if self.solution is None or any(v and v != self.solution[i] for i, v in enumerate(st.values)) or any(
            not v and not cand[i] >> (self.solution[i] - 1) & 1 for i, v in enumerate(st.values)
        ):
            self.solution = search_solution(st)
            if self.solution is None:
                self.no_solution = True
                return None
        best, best_count = -1, n + 1
        for i, m in enumerate(cand):
            c = m.bit_count()
            if 0 < c < best_count:
                best, best_count = i, c
        if best < 0:
            return None
        d = self.solution[best]
        return Step("trial_and_error", (best,), placements=((best, d),), digits=(d,),
                    detail=f"in {cell_name(best, n)}: of {_cand(cand[best])} only {digit_name(d)} leads to a solution")


# ---------------------------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------------------------


def _finders() -> dict[str, Finder]:
    return {
        "naked_single": _naked_single,
        "hidden_single": _hidden_single,
        "locked_pair": lambda st, ctx: _naked_subset(st, 2, True),
        "locked_triple": lambda st, ctx: _naked_subset(st, 3, True),
        "pointing": _pointing,
        "claiming": _claiming,
        "naked_pair": lambda st, ctx: _naked_subset(st, 2, False),
        "naked_triple": lambda st, ctx: _naked_subset(st, 3, False),
        "hidden_pair": lambda st, ctx: _hidden_subset(st, ctx, 2),
        "hidden_triple": lambda st, ctx: _hidden_subset(st, ctx, 3),
        "naked_quad": lambda st, ctx: _naked_subset(st, 4, False),
        "hidden_quad": lambda st, ctx: _hidden_subset(st, ctx, 4),
        "x_wing": lambda st, ctx: _fish(st, ctx, 2),
        "swordfish": lambda st, ctx: _fish(st, ctx, 3),
        "jellyfish": lambda st, ctx: _fish(st, ctx, 4),
        "remote_pair": _remote_pair,
        "skyscraper": lambda st, ctx: _turbot(st, ctx, "skyscraper"),
        "two_string_kite": lambda st, ctx: _turbot(st, ctx, "two_string_kite"),
        "turbot_fish": lambda st, ctx: _turbot(st, ctx, "turbot_fish"),
        "empty_rectangle": _empty_rectangle,
        "w_wing": _w_wing,
        "xy_wing": _xy_wing,
        "xyz_wing": _xyz_wing,
        "finned_x_wing": lambda st, ctx: _finned_fish(st, ctx, 2, False),
        "sashimi_x_wing": lambda st, ctx: _finned_fish(st, ctx, 2, True),
        "simple_colors": _simple_colors,
        "finned_swordfish": lambda st, ctx: _finned_fish(st, ctx, 3, False),
        "sashimi_swordfish": lambda st, ctx: _finned_fish(st, ctx, 3, True),
        "finned_jellyfish": lambda st, ctx: _finned_fish(st, ctx, 4, False),
        "sashimi_jellyfish": lambda st, ctx: _finned_fish(st, ctx, 4, True),
        "x_chain": _x_chain,
        "xy_chain": _xy_chain,
    }


#: name -> finder, for every technique of :data:`TECHNIQUE_ORDER` but ``trial_and_error``, in that order.
_FINDERS = _finders()


def _allowed(max_technique: str | None) -> list[str]:
    if max_technique is None:
        return list(TECHNIQUE_ORDER)
    if max_technique not in TITLES:
        raise ValueError(f"unknown technique {max_technique!r} (one of {', '.join(TECHNIQUE_ORDER)})")
    return list(TECHNIQUE_ORDER[: TECHNIQUE_ORDER.index(max_technique) + 1])


def find_step(st: Candidates, technique: str) -> Step | None:
    """The first instance of ``technique`` in state ``st`` that makes progress, or None (state unchanged)."""
    if technique == "trial_and_error":
        return _Guesser()(st, _Ctx(st))
    if technique not in _FINDERS:
        raise ValueError(f"unknown technique {technique!r}")
    return _FINDERS[technique](st, _Ctx(st))


def next_step(st: Candidates, max_technique: str | None = None) -> Step | None:
    """The step a human guide would take next: the easiest technique (up to ``max_technique``) that
    makes progress in ``st``; None if none does. ``st`` is not modified."""
    guess = _Guesser()
    return _next(st, [(t, guess if t == "trial_and_error" else _FINDERS[t]) for t in _allowed(max_technique)])


def _next(st: Candidates, finders: Sequence[tuple[str, Finder]]) -> Step | None:
    ctx = _Ctx(st)
    for _name, f in finders:
        step = f(st, ctx)
        if step is not None:
            return step
    return None


#: With ``compiled=None``, :func:`solve_logically` runs pure Python for this many solves in a process,
#: then the compiled kernels: loading them (numba and its on-disk cache) costs about as much as 150
#: pure-Python solves, so a one-off ``numplace rate`` stays light and a batch gets the fast path.
AUTO_COMPILE_AFTER = 100
_solves = 0


def _use_kernels(compiled: bool | None) -> bool:
    global _solves
    if compiled is not None:
        return compiled
    _solves += 1
    return _solves > AUTO_COMPILE_AFTER


def _kernel(n: int, after_singles: tuple[str, ...]) -> Kernel:
    from pipeline.difficulty import fastlogic  # lazy: numba is loaded only when the kernels are used

    return fastlogic.Kernel(n, fastlogic.codes_for(after_singles))


_SINGLES: dict[tuple[int, int, int, int], Step] = {}


def _single(n: int, cell: int, d: int, unit: int) -> Step:
    """The step placing ``d`` in ``cell`` by a naked single (``unit = -1``) or a hidden single in ``unit``,
    exactly as :func:`_naked_single` / :func:`_hidden_single` word it (steps are immutable: shared)."""
    key = (n, cell, d, unit)
    step = _SINGLES.get(key)
    if step is None:
        if unit < 0:
            step = Step("naked_single", (cell,), placements=((cell, d),), digits=(d,),
                        detail=f"in {cell_name(cell, n)}")
        else:
            step = Step("hidden_single", (cell,), placements=((cell, d),), digits=(d,), units=(unit,),
                        detail=f"for {digit_name(d)} in {unit_name(unit, n)}")
        _SINGLES[key] = step
    return step


def _compiled_next(st: Candidates, finders: Sequence[tuple[str, Finder]], steps: list[Step],
                   kernel: Kernel) -> Step | None:
    """One round of the compiled driver: place every single (appended to ``steps`` and applied to
    ``st``), then return the next step exactly as :func:`_next` would find it, or None (the board is
    full, or nothing applies).

    ``finders`` is the allowed prefix of :data:`TECHNIQUE_ORDER` (the singles first); ``kernel``
    probes the techniques after the singles in that order and stops at the first one that applies
    (or that it cannot probe); that technique's Python finder then gives the step.
    """
    values, cand, placed, pos = kernel.advance(st.values, st.cand, len(finders) >= 2)
    st.values, st.cand = values, cand
    n = st.n
    steps.extend([_single(n, c, d, u) for c, d, u in placed])
    if st.is_solved():
        return None
    rest = finders[2:]
    ctx = _Ctx(st)
    while pos < len(rest):
        step = rest[pos][1](st, ctx)
        if step is not None:
            return step
        if kernel.codes[pos] >= 0:  # the probe said yes, the finder no: a kernel bug; trust the Python search
            return _next(st, rest)
        pos = kernel.walk(pos + 1)
    return None


def solve_logically(
    puzzle: Grid,
    max_technique: str | None = None,
    eliminated: Iterable[tuple[int, int]] = (),
    solution: Grid | None = None,
    compiled: bool | None = None,
    variant: Variant | None = None,
) -> LogicResult:
    """Solve ``puzzle`` step by step with the easiest technique that applies, restarting from the
    singles after each step.

    ``max_technique`` (a name of :data:`TECHNIQUE_ORDER`) bounds the techniques used; by default all,
    including ``trial_and_error``, so every solvable puzzle ends solved. ``eliminated`` are candidate
    eliminations ``(cell, digit)`` to apply before starting (a pencil-marked position). A puzzle whose
    givens clash, or a state with no solution, ends ``stuck`` with ``contradiction=True``.
    ``solution`` (optional, e.g. the generator's) spares ``trial_and_error`` its search; it is
    only used while it agrees with every given, placement and remaining candidate, so a wrong one
    is ignored, never trusted. Raises ``ValueError`` for an unknown technique name.

    ``compiled=True`` places the singles and probes the techniques with the compiled kernels of
    :mod:`pipeline.difficulty.fastlogic`; ``compiled=False`` is the pure-Python reference; ``None``
    (default) picks by :data:`AUTO_COMPILE_AFTER`. All give the same result, step for step
    (``tests/test_grade_compiled.py``); only the speed differs.

    ``variant`` (None = classic) solves on that variant's board (:func:`pipeline.board.board`): every
    technique uses its units and peers, as described in :mod:`pipeline.difficulty.grade`. A non-classic
    variant always runs the pure-Python solver (the kernels know only the classic geometry), whatever
    ``compiled`` says, and does not count towards :data:`AUTO_COMPILE_AFTER`. Killer cage *sums* are
    not used by any technique (the cages act only as peers); trial and error ignores them too.
    """
    allowed = _allowed(max_technique)
    classic = variant is None or variant.classic
    try:
        st = Candidates.from_grid(puzzle, eliminated) if classic else Candidates.from_grid(puzzle, eliminated, variant)
    except Contradiction:
        return LogicResult(solved=False, grid=tuple(puzzle), stuck=True, contradiction=True)
    guess = _Guesser(solution, st.n, st.geo)
    finders = [(t, guess if t == "trial_and_error" else _FINDERS[t]) for t in allowed]
    steps: list[Step] = []
    kernel = _kernel(st.n, tuple(allowed[2:])) if classic and _use_kernels(compiled) else None
    while not st.is_solved():
        step = _compiled_next(st, finders, steps, kernel) if kernel is not None else _next(st, finders)
        if st.is_solved():
            break  # the compiled singles finished the board
        if step is None:
            dead = guess.no_solution or st.contradiction()
            return LogicResult(solved=False, grid=st.grid(), steps=steps, stuck=True, contradiction=dead)
        st.apply(step)
        steps.append(step)
    return LogicResult(solved=True, grid=st.grid(), steps=steps)
