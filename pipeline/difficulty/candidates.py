"""The candidate state of the logical solver, and the vocabulary its techniques share.

A state is :class:`Candidates`: ``values[i]`` (0 = blank) and ``cand[i]``, one bitmask int per cell
(bit ``d-1`` for digit ``d``; a solved cell holds its digit in ``values`` and mask ``0``), on the
geometry of ``board(n, variant)``. Every technique module (:mod:`.basic`, :mod:`.fish.search`,
:mod:`.patterns.single_digit`, :mod:`.patterns.wings`, :mod:`.chains.simple`, :mod:`.trial`) works on it and returns a
:class:`Step`; :mod:`.logic` drives them.

Contracts
---------
* A **finder** (:data:`Finder`) takes a state and its :class:`_Ctx` and returns the first instance
  of its technique that makes progress (some elimination or placement), or None; it never modifies
  the state. Its search order is deterministic.
* :class:`_Ctx` holds tables derived from one state, computed lazily and shared by the finders of one
  step search; it is stale once the state changes.
* The geometry tables (:func:`_geo`) are built once per (size, variant) and cached; units are indexed
  as in ``board(n, variant).units``: rows, columns, boxes or jigsaw regions, then a variant's extra
  units (diagonals, windows).
* The namers (:func:`cell_name`, :func:`unit_name`, :func:`digit_name`) are 1-based, for the
  ``detail`` of a step.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

from pipeline.board import CLASSIC, SYMBOLS, Board, Grid, Variant, board, conflict, size_of_grid

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
                _unit_names(b), containing, b.variant)


def _peers_are_units(g: _Geo) -> bool:
    """Whether every cell's peers are exactly the other cells of the units holding it (every board but
    killer, whose cage mates are peers outside the units): then :func:`_unit_candidates` applies."""
    return _units_only(g.n, g.variant)


@lru_cache(maxsize=256)
def _units_only(n: int, variant: Variant) -> bool:
    g = _geo(n, variant)
    return all(g.peer_bits[i] == _union(g.unit_mask[u] for u in g.containing[i]) & ~(1 << i)
               for i in range(g.n * g.n))


def _union(masks: Iterable[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


def _unit_candidates(g: _Geo, values: list[int]) -> list[int] | None:
    """The candidates of ``values`` (a blank: the digits no unit holding it has) from one pass over the
    units, or None when a unit holds a digit twice. The same masks as :func:`_peer_candidates` on a
    board whose peers are its units (:func:`_peers_are_units`), about five times fewer operations."""
    used: list[int] = []
    for u in g.units:
        m = 0
        for i in u:
            v = values[i]
            if v:
                bit = 1 << (v - 1)
                if m & bit:
                    return None
                m |= bit
        used.append(m)
    full = (1 << g.n) - 1
    cand = [0] * len(values)
    for i, v in enumerate(values):
        if not v:
            m = 0
            for k in g.containing[i]:
                m |= used[k]
            cand[i] = full & ~m
    return cand


def _peer_candidates(g: _Geo, values: list[int]) -> list[int]:
    """The candidates of ``values``: each blank gets the digits none of its peers holds."""
    full = (1 << g.n) - 1
    cand = [0] * len(values)
    for i, v in enumerate(values):
        if not v:
            used = 0
            for j in g.peers[i]:
                if values[j]:
                    used |= 1 << (values[j] - 1)
            cand[i] = full & ~used
    return cand


def _bits(x: int) -> Iterator[int]:
    """Indices of the set bits of ``x``, lowest first."""
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


#: The largest side whose masks :func:`_bit_table` lists (9: 512 masks; 16 would be 65,536).
TABLE_SIDE = 9


@lru_cache(maxsize=8)
def _bit_table(n: int) -> tuple[tuple[int, ...], ...]:
    """``_bit_table(n)[m]``: the indices of the set bits of the candidate mask ``m`` (:func:`_bits`), for
    every mask of ``n`` digits."""
    return tuple(tuple(_bits(m)) for m in range(1 << n))


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


def _x_chain_text(chain: Sequence[int], n: int) -> str:
    """``r1c1 = r1c5 - r3c5 = r3c2``: a single-digit chain, strong and weak links alternating."""
    out = cell_name(chain[0], n)
    for j in range(1, len(chain)):
        out += (" = " if j % 2 else " - ") + cell_name(chain[j], n)
    return out

# ---------------------------------------------------------------------------------------------
# Candidate state
# ---------------------------------------------------------------------------------------------


class Candidates:
    """Mutable candidate state: ``values[i]`` (0 = blank) and ``cand[i]`` (bitmask, 0 when solved), on
    the board of side ``n`` under ``variant`` (None = classic): its units and peers are the geometry
    every technique works with. ``given``: the cells (as bits) that were filled when the state was
    made from a grid, i.e. the puzzle's givens; a digit placed later is not one (the avoidable
    rectangles tell them apart)."""

    __slots__ = ("cand", "geo", "given", "n", "values")

    def __init__(self, n: int, values: list[int], cand: list[int], variant: Variant | None = None,
                 given: int | None = None) -> None:
        self.n = n
        self.geo = _geo(n) if variant is None or variant.classic else _geo(n, variant)
        self.values = values
        self.cand = cand
        self.given = given if given is not None else sum(1 << i for i, v in enumerate(values) if v)

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
        g = _geo(n) if variant is None or variant.classic else _geo(n, variant)
        values = list(grid)
        cand = _unit_candidates(g, values) if _peers_are_units(g) else None
        if cand is None:  # a clash (conflict words it), or peers beyond the units (killer cage mates)
            clash = conflict(grid, variant)
            if clash:
                raise Contradiction(clash)
            cand = _peer_candidates(g, values)
        for i, d in eliminated:
            cand[i] &= ~(1 << (d - 1))
        return cls(n, values, cand, g.variant)

    def copy(self) -> Candidates:
        return Candidates(self.n, list(self.values), list(self.cand), self.geo.variant, self.given)

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
        self.cache: dict[str, object] = {}  # one search shared by several rows (e.g. the loops)

    @cached_property
    def where(self) -> list[int]:
        """``where[k]``: cell bitset of the candidates of digit ``k+1``."""
        n = self.st.n
        w = [0] * n
        if n > TABLE_SIDE:
            for i, m in enumerate(self.st.cand):
                while m:
                    low = m & -m
                    w[low.bit_length() - 1] |= 1 << i
                    m ^= low
            return w
        of = _bit_table(n)
        for i, m in enumerate(self.st.cand):
            if m:
                cell = 1 << i
                for k in of[m]:
                    w[k] |= cell
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
