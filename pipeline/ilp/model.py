"""The 0-1 integer program of Sudoku, stated once in pyomo.

Binary ``x[r, c, d] = 1`` iff cell ``(r, c)`` holds digit ``d`` (0-based r, c; d in 1..n). Four families
of exactly-one rows (all ``= 1``): each cell holds one digit; each row, each column and each box holds
each digit once. For 9x9 that is 729 columns and 324 rows.

Givens are *not* rows: they are bounds, applied by the engine. Pyomo is used only to state the model
and to hand its matrix to the engine once per worker (:func:`matrix`); the hot loop talks to HiGHS.
:func:`compiled` keeps the matrix of a model without a design in the user cache
(:mod:`pipeline.tablecache`), keyed by this file's source, pyomo's version and the board's units, so
a process that finds it there never imports pyomo, which would weigh on every start-up
(``docs/identity.md`` "Tables and the user cache").
Variants add rows through ``extra_units`` (e.g. the two diagonals), stated in the same cell terms.

*Designed grids* (:class:`Design`) add rows that shape the solution grid itself, for the engine that
makes grids only (a puzzle's uniqueness is always judged under the plain rules):

* the **image** rows of a solution symmetry: a cell map ``m`` and a digit map ``p`` with
  ``x[i, d] = x[m(i), p(d)]`` for every cell ``i`` and digit ``d`` (one row per pair of distinct
  columns; for a map of order 2 each pair once), i.e. ``grid[m(i)] = p(grid[i])``;
* the **area** rows (:class:`Area`): ``only`` (the digits appear nowhere outside the cells:
  ``sum x[i, d] = 0`` over the other cells), ``never`` (nowhere inside them: ``sum x[i, d] = 0`` over
  the cells) and ``somewhere`` (each digit at least once inside: ``sum_i x[i, d] >= 1`` per digit).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.metadata import version
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import numpy as np

from pipeline import tablecache
from pipeline.board import Board, Cage

if TYPE_CHECKING:
    import pyomo.environ as pyo


def col_index(n: int, r: int, c: int, d: int) -> int:
    """Column of ``x[r, c, d]`` in the matrix handed to the engine (d is 1-based)."""
    return (r * n + c) * n + (d - 1)


AreaRule = Literal["only", "somewhere", "never"]


@dataclass(frozen=True)
class Area:
    """One area rule: ``cells`` (sorted cell indices), ``digits`` (sorted, 1..n) and its ``rule``
    (module docstring). Not validated here: the config says why a rule cannot hold."""

    cells: tuple[int, ...]
    digits: tuple[int, ...]
    rule: AreaRule


@dataclass(frozen=True)
class Design:
    """The rows of a designed grid, as plain hashable data (one engine per design, see
    :func:`pipeline.ilp.engine.engine_for`).

    ``cell_map[i]`` is the cell ``m(i)`` and ``digit_map[d - 1]`` the digit ``p(d)``; both or neither
    are set (both permutations; not validated here). ``areas`` in the config's order."""

    cell_map: tuple[int, ...] | None = None
    digit_map: tuple[int, ...] | None = None
    areas: tuple[Area, ...] = ()

    def image_pairs(self, n: int) -> list[tuple[int, int, int, int]]:
        """The image rows ``(i, d, m(i), p(d))`` with distinct columns, each unordered pair once, in
        cell-then-digit order (so the matrix, and the grids, never depend on set iteration)."""
        if self.cell_map is None or self.digit_map is None:
            return []
        seen: set[tuple[tuple[int, int], tuple[int, int]]] = set()
        out = []
        for i in range(n * n):
            for d in range(1, n + 1):
                a, b = (i, d), (self.cell_map[i], self.digit_map[d - 1])
                key = (min(a, b), max(a, b))
                if a != b and key not in seen:
                    seen.add(key)
                    out.append((*a, *b))
        return out


def build(b: Board, extra_units: Sequence[Sequence[int]] = (), design: Design | None = None) -> pyo.ConcreteModel:
    """The pyomo model: variables ``x`` and the exactly-one families (the board's boxes are its jigsaw
    regions on a jigsaw board; + the board's ``extra`` units, the X diagonals and hyper windows, and
    ``extra_units``, each a tuple of cells that must hold every digit once; + the rows of ``design``,
    after all the others). Killer cages are not here: they change with every puzzle, so the engine
    adds them as rows of their own (:func:`cage_rows`). No objective: the engine sets one when it needs one."""
    import pyomo.environ as pyo  # here, not at the top: only a process that builds a model pays for it

    n = b.n
    m = pyo.ConcreteModel(name=f"sudoku{n}")
    m.R = pyo.RangeSet(0, n - 1)
    m.C = pyo.RangeSet(0, n - 1)
    m.D = pyo.RangeSet(1, n)
    m.x = pyo.Var(m.R, m.C, m.D, domain=pyo.Binary)

    m.cell = pyo.Constraint(m.R, m.C, rule=lambda m, r, c: sum(m.x[r, c, d] for d in m.D) == 1)
    m.row = pyo.Constraint(m.R, m.D, rule=lambda m, r, d: sum(m.x[r, c, d] for c in m.C) == 1)
    m.col = pyo.Constraint(m.C, m.D, rule=lambda m, c, d: sum(m.x[r, c, d] for r in m.R) == 1)
    m.B = pyo.RangeSet(0, n - 1)
    m.box = pyo.Constraint(
        m.B, m.D, rule=lambda m, k, d: sum(m.x[i // n, i % n, d] for i in b.boxes[k]) == 1
    )
    units = [tuple(u) for u in (*b.extra, *extra_units)]
    m.U = pyo.RangeSet(0, len(units) - 1) if units else pyo.Set(initialize=[])
    m.extra = pyo.Constraint(
        m.U, m.D, rule=lambda m, k, d: sum(m.x[i // n, i % n, d] for i in units[k]) == 1
    )
    if design is not None:
        _add_design(m, b, design)
    return m


def _add_design(m: pyo.ConcreteModel, b: Board, design: Design) -> None:
    """The image rows, then the area rows in order (module docstring), as ``m.image`` / ``m.area``."""
    import pyomo.environ as pyo

    n = b.n

    def x(i: int, d: int) -> pyo.Var:
        return m.x[i // n, i % n, d]

    m.image = pyo.ConstraintList()
    for i, d, j, e in design.image_pairs(n):
        m.image.add(x(i, d) - x(j, e) == 0)
    m.area = pyo.ConstraintList()
    for area in design.areas:
        inside = set(area.cells)
        if area.rule == "somewhere":
            for d in area.digits:
                m.area.add(sum(x(i, d) for i in area.cells) >= 1)
        else:
            cells = [i for i in range(n * n) if (i in inside) == (area.rule == "never")]
            if cells and area.digits:  # an empty sum is no row (pyomo refuses a trivial one)
                m.area.add(sum(x(i, d) for i in cells for d in area.digits) == 0)


Row = tuple[tuple[int, ...], tuple[float, ...], float, float]


def derived_cages(b: Board, cages: tuple[Cage, ...], largest: int = 8) -> tuple[Cage, ...]:
    """The killer "45 rule" as cages: for each unit of ``b``, the cells not covered by the cages lying
    wholly inside it hold distinct digits adding up to ``n(n+1)/2`` minus those cages' sums. Every
    such remainder of 1 to ``largest`` cells (and fewer than ``n``) is returned as a cage; the rules
    imply it, so rows for it (:func:`cage_rows`) only tighten the relaxation."""
    n = b.n
    whole = n * (n + 1) // 2
    out: set[Cage] = set()
    for unit in b.units:
        inside = set(unit)
        held = [c for c in cages if inside.issuperset(c.cells)]
        rest = inside.difference(*(c.cells for c in held)) if held else inside
        if 1 <= len(rest) <= min(largest, n - 1):
            out.add(Cage(tuple(sorted(rest)), whole - sum(c.total for c in held)))
    return tuple(sorted(out - set(cages)))


def cage_rows(n: int, cage: Cage, first_col: int) -> tuple[int, list[Row]]:
    """The columns and rows of one killer cage in :class:`Matrix` form: ``(extra columns, rows)``.

    The rule itself: ``sum_{i in cage} x[i, d] <= 1`` for every digit ``d`` (no repeat) and
    ``sum_{i, d} d * x[i, d] == total`` (the sum). Then the *combination* form, which the rule
    implies and which makes the LP relaxation tight where a knapsack row is weak: over the sets of
    ``len(cage)`` distinct digits adding up to ``total``, a binary ``y[s]`` per set (columns
    ``first_col, first_col + 1, ...``) with ``sum_s y[s] == 1`` and ``sum_i x[i, d] == sum_{s owns d}
    y[s]`` per digit; with one set only, its digits are simply present and the others absent. It comes
    from the cage alone, never from a solution, so the IP's proof stays a proof of the cage rules
    (with the rule rows alone a zero-given 9x9 certificate is far slower: ``docs/variants.md`` "Killer")."""
    cells = cage.cells
    k = len(cells)
    rows: list[Row] = []
    if k > 1:
        for d in range(1, n + 1):
            rows.append((tuple(i * n + d - 1 for i in cells), (1.0,) * k, -float("inf"), 1.0))
    cols = tuple(i * n + d - 1 for i in cells for d in range(1, n + 1))
    coefs = tuple(float(d) for _ in cells for d in range(1, n + 1))
    rows.append((cols, coefs, float(cage.total), float(cage.total)))
    combos = [set(c) for c in combinations(range(1, n + 1), k) if sum(c) == cage.total]
    if len(combos) <= 1:
        owned = combos[0] if combos else set()
        for d in range(1, n + 1):
            on = 1.0 if d in owned else 0.0
            rows.append((tuple(i * n + d - 1 for i in cells), (1.0,) * k, on, on))
        return 0, rows
    ys = tuple(range(first_col, first_col + len(combos)))
    rows.append((ys, (1.0,) * len(ys), 1.0, 1.0))
    for d in range(1, n + 1):
        mine = tuple(y for y, combo in zip(ys, combos, strict=True) if d in combo)
        rows.append((tuple(i * n + d - 1 for i in cells) + mine, (1.0,) * k + (-1.0,) * len(mine), 0.0, 0.0))
    return len(combos), rows


@dataclass(frozen=True)
class Matrix:
    """A row-wise sparse copy of the model: ``ncols`` binaries ordered by :func:`col_index`,
    rows as (column indices, coefficients, lower, upper)."""

    ncols: int
    rows: tuple[tuple[tuple[int, ...], tuple[float, ...], float, float], ...]


def matrix(m: pyo.ConcreteModel, n: int) -> Matrix:
    """Extract the constraint matrix of :func:`build`'s model, columns in :func:`col_index` order."""
    import pyomo.environ as pyo
    from pyomo.repn.standard_repn import generate_standard_repn

    index = {id(m.x[r, c, d]): col_index(n, r, c, d) for r in m.R for c in m.C for d in m.D}
    rows = []
    for con in m.component_data_objects(pyo.Constraint, active=True, descend_into=True):
        repn = generate_standard_repn(con.body, compute_values=True)
        if repn.nonlinear_expr is not None or repn.quadratic_vars:
            raise ValueError(f"constraint {con.name} is not linear")
        cols = tuple(index[id(v)] for v in repn.linear_vars)
        coefs = tuple(float(a) for a in repn.linear_coefs)
        const = float(repn.constant or 0.0)
        lo = -float("inf") if con.lower is None else float(pyo.value(con.lower)) - const
        hi = float("inf") if con.upper is None else float(pyo.value(con.upper)) - const
        rows.append((cols, coefs, lo, hi))
    return Matrix(ncols=n * n * n, rows=tuple(rows))


def compiled(b: Board, design: Design | None = None) -> Matrix:
    """``matrix(build(b, design=design), b.n)``; without a design, read from the user cache when a
    checksummed copy made from the same source is there (else built and cached). The cache key is
    the SHA-256 of this file's source, pyomo's version and the board's size and units, so a change
    to the statement or to pyomo builds afresh; a damaged file is rebuilt (:mod:`pipeline.tablecache`).
    Designs (one per config) are always built, never cached."""
    if design is not None:
        return matrix(build(b, design=design), b.n)
    key = hashlib.sha256(Path(__file__).read_bytes())
    key.update(f"|pyomo {version('pyomo')}|{b.n}|{b.boxes}|{b.extra}".encode())

    def fresh() -> tablecache.Arrays:
        m = matrix(build(b), b.n)
        return {"ncols": np.array([m.ncols]), "start": np.cumsum([0] + [len(r[0]) for r in m.rows]),
                "cols": np.array([j for r in m.rows for j in r[0]], dtype=np.int64),
                "coefs": np.array([a for r in m.rows for a in r[1]], dtype=float),
                "lo": np.array([r[2] for r in m.rows], dtype=float),
                "hi": np.array([r[3] for r in m.rows], dtype=float)}

    a = tablecache.load_or_build(f"matrix-{key.hexdigest()[:24]}.npz", fresh)
    start, cols, coefs = a["start"].tolist(), a["cols"].tolist(), a["coefs"].tolist()
    rows = tuple((tuple(cols[start[k]:start[k + 1]]), tuple(coefs[start[k]:start[k + 1]]), lo, hi)
                 for k, (lo, hi) in enumerate(zip(a["lo"].tolist(), a["hi"].tolist(), strict=True)))
    return Matrix(ncols=int(a["ncols"][0]), rows=rows)
