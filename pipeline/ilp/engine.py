"""One compiled HiGHS model per worker; everything changes by bounds.

The matrix comes from the pyomo statement in :mod:`pipeline.ilp.model`, once, when the engine is built.
After that the engine talks to HiGHS (highspy) directly, because a re-solve through highspy costs a
fraction of one through pyomo's persistent interface (DESIGN.md). The rest of the code never sees
pyomo or highspy: it passes grids (tuples of digits, 0 = blank) and gets :class:`Outcome` values.

Contracts
---------
* A given ``d`` at cell ``i`` is the bound ``lower = 1`` on ``x[i, d]``. An *exclusion* ``(i, d)``
  is ``upper = 0`` on ``x[i, d]``. Bounds not asked for are back at ``[0, 1]`` on the next call.
* :meth:`Engine.unique_without` is the removal check: with the no-good row of the grid's solution
  ``S`` installed (:meth:`Engine.set_nogood`), the puzzle has a solution other than ``S`` iff the
  IP is feasible. So one solve answers it: infeasible <=> still unique.
* Before a random-grid solve the solver state is cleared and the matrix is the pristine one (no
  no-good row), so the grid depends only on (weights, seed, fixed cells, design): the same on any worker.
* An engine built with a :class:`~pipeline.ilp.model.Design` holds the designed-grid rows in its
  pristine matrix: every solve of it (grids, counts, checks) honours them. The generator makes grids
  with such an engine and judges puzzles with the plain one of the same size, since a puzzle must be
  unique under the plain rules (a solver knows nothing of the design).
* An engine built for a variant (:class:`~pipeline.board.Variant`) holds the variant's units (jigsaw
  regions, diagonals, windows) in its pristine matrix. Killer cages change with every puzzle, so
  they are rows of their own after the pristine ones (:meth:`Engine.set_cages`): row order is
  pristine, cages, then the no-good row. :func:`engine_for` installs the variant's cages on every
  call, so an engine never answers with another puzzle's cages.
* Binaries are read with a tolerance (``x > 0.5``).
* A solve that hits ``time_limit`` is reported as ``status == "timeout"``, never guessed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import highspy
import numpy as np

from pipeline.board import Cage, Grid, Variant, board
from pipeline.ilp import model
from pipeline.ilp.result import CountResult

Status = Literal["feasible", "infeasible", "timeout", "error"]

_INF = highspy.kHighsInf
_MS = highspy.HighsModelStatus
_FOUND = {_MS.kOptimal, _MS.kSolutionLimit, _MS.kObjectiveBound, _MS.kObjectiveTarget}


class SolverTimeout(RuntimeError):
    """A check hit the engine's time limit; its answer is unknown."""


@dataclass(frozen=True)
class Outcome:
    """Result of one solve: ``grid`` is set iff ``status == "feasible"``."""

    status: Status
    grid: Grid | None = None


class Engine:
    """A compiled HiGHS copy of the Sudoku IP for one board size, reused across puzzles.

    Not thread-safe and not picklable on purpose: each worker process builds its own
    (see :func:`engine_for`). ``solves`` counts every call into HiGHS.
    """

    def __init__(self, n: int, time_limit: float | None = None, design: model.Design | None = None,
                 variant: Variant | None = None) -> None:
        self.n = n
        self.board = board(n, variant.units_only if variant is not None else None)
        self.design = design
        mat = model.matrix(model.build(self.board, design=design), n)
        self.ncols = mat.ncols
        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
        h.setOptionValue("threads", 1)
        if time_limit is not None:
            h.setOptionValue("time_limit", float(time_limit))
        zeros = np.zeros(self.ncols)
        h.addVars(self.ncols, zeros, np.ones(self.ncols))
        h.changeColsCost(self.ncols, np.arange(self.ncols, dtype=np.int32), zeros)
        h.changeColsIntegrality(
            self.ncols,
            np.arange(self.ncols, dtype=np.int32),
            np.array([highspy.HighsVarType.kInteger] * self.ncols),
        )
        for cols, coefs, lo, hi in mat.rows:
            h.addRow(lo, hi, len(cols), np.array(cols, dtype=np.int32), np.array(coefs))
        self._h = h
        self._base_rows = h.getNumRow()  # pristine rows, then cage rows: _fixed_rows in all
        self._fixed_rows = self._base_rows
        self._cages: tuple[Cage, ...] = ()
        self._extra_cols = 0  # the cages' combination columns, after the n**3 x columns
        self._lower: set[int] = set()
        self._upper: set[int] = set()
        self._nogood: Grid | None = None
        self.solves = 0

    # ---- bounds ---------------------------------------------------------------------------
    def _col(self, cell: int, d: int) -> int:
        return cell * self.n + d - 1

    def _apply(self, puzzle: Grid, exclude: Iterable[tuple[int, int]] = ()) -> None:
        """Make the column bounds say exactly: givens of ``puzzle`` fixed, ``exclude`` forbidden."""
        lower = {self._col(i, d) for i, d in enumerate(puzzle) if d}
        upper = {self._col(i, d) for i, d in exclude}
        changed = (lower ^ self._lower) | (upper ^ self._upper)
        if changed:
            idx = np.fromiter(sorted(changed), dtype=np.int32)
            lo = np.array([1.0 if j in lower else 0.0 for j in idx])
            hi = np.array([0.0 if j in upper else 1.0 for j in idx])
            self._h.changeColsBounds(len(idx), idx, lo, hi)
        self._lower, self._upper = lower, upper

    def _solve(self) -> Outcome:
        self.solves += 1
        self._h.run()
        st = self._h.getModelStatus()
        if st == _MS.kInfeasible:
            return Outcome("infeasible")
        if st == _MS.kTimeLimit:
            return Outcome("timeout")
        if st in _FOUND or self._h.getInfo().primal_solution_status == 2:
            vals = self._h.getSolution().col_value
            if len(vals) != self.ncols + self._extra_cols:
                return Outcome("error")
            return Outcome("feasible", self._read(vals[: self.ncols]))
        return Outcome("error")

    def _read(self, vals: Sequence[float]) -> Grid:
        n = self.n
        x = np.asarray(vals).reshape(n * n, n)
        digits = np.argmax(x, axis=1) + 1
        if not np.all(x.max(axis=1) > 0.5):
            raise RuntimeError("HiGHS returned a non-integral solution")
        return tuple(int(d) for d in digits)

    # ---- killer cages -----------------------------------------------------------------------
    def set_cages(self, cages: tuple[Cage, ...]) -> None:
        """Make the killer cage rows (and the cages' combination columns, :func:`model.cage_rows`)
        exactly those of ``cages`` (``()`` removes them); the no-good row, if any, stays installed."""
        if cages == self._cages:
            return
        nogood = self._nogood
        self.set_nogood(None)
        h = self._h
        extra = h.getNumRow() - self._base_rows
        if extra:
            h.deleteRows(extra, np.arange(self._base_rows, self._base_rows + extra, dtype=np.int32))
        if self._extra_cols:
            h.deleteCols(self._extra_cols, np.arange(self.ncols, self.ncols + self._extra_cols, dtype=np.int32))
        self._extra_cols = 0
        for cage in (*cages, *model.derived_cages(self.board, cages)):
            first = self.ncols + self._extra_cols
            added, rows = model.cage_rows(self.n, cage, first)
            if added:
                h.addVars(added, np.zeros(added), np.ones(added))
                h.changeColsIntegrality(added, np.arange(first, first + added, dtype=np.int32),
                                        np.array([highspy.HighsVarType.kInteger] * added))
                self._extra_cols += added
            for cols, coefs, lo, hi in rows:
                h.addRow(lo, hi, len(cols), np.array(cols, dtype=np.int32), np.array(coefs))
        self._cages = cages
        self._fixed_rows = h.getNumRow()
        self.set_nogood(nogood)

    # ---- no-good row ----------------------------------------------------------------------
    def set_nogood(self, solution: Grid | None) -> None:
        """Install the row ``sum_i x[i, S_i] <= n*n - 1`` for ``solution`` S (None removes it)."""
        if self._h.getNumRow() > self._fixed_rows:
            self._h.deleteRows(1, np.array([self._fixed_rows], dtype=np.int32))
        self._nogood = solution
        if solution is not None:
            cols = np.array([self._col(i, d) for i, d in enumerate(solution)], dtype=np.int32)
            self._h.addRow(-_INF, len(solution) - 1.0, len(cols), cols, np.ones(len(cols)))

    # ---- public solves --------------------------------------------------------------------
    def solve(self, puzzle: Grid, exclude: Iterable[tuple[int, int]] = ()) -> Outcome:
        """Any solution of ``puzzle`` that avoids ``exclude`` (pairs ``(cell, digit)``)."""
        self._apply(puzzle, exclude)
        return self._solve()

    def _maximize(self, costs: np.ndarray, bounds_from: Grid, options: Mapping[str, float]) -> Outcome:
        """Solve ``max costs . x`` with ``bounds_from``'s givens fixed, from a clean solver state and
        the pristine matrix (no no-good row); restore a zero objective and the options after."""
        self.set_nogood(None)
        h = self._h
        h.clearSolver()
        idx = np.arange(self.ncols, dtype=np.int32)
        h.changeObjectiveSense(highspy.ObjSense.kMaximize)
        h.changeColsCost(self.ncols, idx, np.asarray(costs, dtype=float))
        saved = {k: h.getOptionValue(k)[1] for k in options}
        for k, v in options.items():
            h.setOptionValue(k, v)
        try:
            self._apply(bounds_from)
            return self._solve()
        finally:
            h.changeColsCost(self.ncols, idx, np.zeros(self.ncols))
            h.changeObjectiveSense(highspy.ObjSense.kMinimize)
            for k, old in saved.items():
                h.setOptionValue(k, old)
            h.clearSolver()

    def random_grid(self, weights: np.ndarray, seed: int, fixed: Grid | None = None) -> Outcome:
        """A complete grid: first feasible solution of ``max sum w*x`` containing ``fixed``.

        ``weights`` has one entry per column (``n**3``); ``seed`` also seeds HiGHS. The result
        depends only on the arguments (clean solver state, pristine matrix).
        """
        options = {"random_seed": int(seed % 2_147_483_647), "mip_max_improving_sols": 1}
        return self._maximize(weights, fixed or (0,) * (self.n * self.n), options)

    def closest(self, puzzle: Grid) -> Outcome:
        """A grid that keeps as many givens of ``puzzle`` as possible (solved to optimality).

        The repair IP of the sources: seed 000 maximizes the givens kept; seed 003 minimizes
        penalty variables z with ``x[i, g] + z[i] = 1``. Both have the same optimum, so the givens
        become objective weights instead of bounds and no column or row is added.
        """
        costs = np.zeros(self.ncols)
        for i, d in enumerate(puzzle):
            if d:
                costs[self._col(i, d)] = 1.0
        return self._maximize(costs, (0,) * (self.n * self.n), {"mip_rel_gap": 0})

    def unique_without(self, puzzle: Grid, node_limit: int | None = None) -> bool:
        """True iff ``puzzle`` has no solution other than the no-good grid (one solve).

        Requires :meth:`set_nogood` with a solution of ``puzzle``. Raises :class:`SolverTimeout` past
        the engine's time limit. With ``node_limit`` the solve starts from a clean solver state and
        may visit at most that many branch-and-bound nodes: past them it raises :class:`SolverTimeout`
        too. A node budget, unlike a time budget, gives the same verdict on every machine and in
        every worker (HiGHS runs single-threaded), so it keeps runs reproducible.
        """
        if self._nogood is None:
            raise RuntimeError("unique_without needs set_nogood(solution) first")
        self._apply(puzzle)
        if node_limit is None:
            out = self._solve()
        else:
            h = self._h
            saved = h.getOptionValue("mip_max_nodes")[1]
            h.clearSolver()
            h.setOptionValue("mip_max_nodes", int(node_limit))
            try:
                self.solves += 1
                h.run()
                st = h.getModelStatus()
                if st == _MS.kInfeasible:
                    out = Outcome("infeasible")
                elif h.getInfo().primal_solution_status == 2:
                    out = Outcome("feasible")  # a second solution: not unique
                elif st == _MS.kTimeLimit:
                    out = Outcome("timeout")
                else:
                    raise SolverTimeout(f"the uniqueness check passed its budget of {node_limit} nodes")
            finally:
                h.setOptionValue("mip_max_nodes", saved)
        if out.status == "timeout":
            raise SolverTimeout("uniqueness check hit the time limit")
        if out.status == "error":
            raise RuntimeError("HiGHS failed on a uniqueness check")
        return out.status == "infeasible"

    def count_solutions(self, puzzle: Grid, limit: int = 2) -> CountResult:
        """Count solutions of ``puzzle`` up to ``limit``: solve, forbid that solution, repeat.

        ``puzzle`` is not validated beyond its length; contradictory givens give ``count == 0``.
        The engine's rows are restored afterwards.
        """
        if len(puzzle) != self.n * self.n:
            raise ValueError(f"puzzle has {len(puzzle)} cells, expected {self.n * self.n}")
        saved = self._nogood
        self.set_nogood(None)
        self._apply(puzzle)
        found: list[Grid] = []
        complete = True
        try:
            while len(found) < limit:
                out = self._solve()
                if out.status == "timeout":
                    complete = False
                    break
                if out.status != "feasible" or out.grid is None:
                    if out.status == "error":
                        raise RuntimeError("HiGHS failed while counting solutions")
                    break
                found.append(out.grid)
                cols = np.array([self._col(i, d) for i, d in enumerate(out.grid)], dtype=np.int32)
                self._h.addRow(-_INF, len(out.grid) - 1.0, len(cols), cols, np.ones(len(cols)))
        finally:
            extra = self._h.getNumRow() - self._fixed_rows
            if extra:
                self._h.deleteRows(extra, np.arange(self._fixed_rows, self._fixed_rows + extra, dtype=np.int32))
            self._nogood = None
            self.set_nogood(saved)
        return CountResult(len(found), limit, tuple(found), complete)


_ENGINES: dict[tuple[int, float | None, model.Design | None, Variant | None], Engine] = {}


def engine_for(n: int, time_limit: float | None = None, design: model.Design | None = None,
               variant: Variant | None = None) -> Engine:
    """This process's engine for size ``n`` (and ``design``'s rows, and ``variant``'s units, if
    any): built on first use, then reused; ``variant``'s cages (none for every other variant) are
    installed on every call."""
    units = variant.units_only if variant is not None and not variant.classic else None
    key = (n, time_limit, design, units)
    if key not in _ENGINES:
        _ENGINES[key] = Engine(n, time_limit, design, units)
    eng = _ENGINES[key]
    eng.set_cages(variant.cages if variant is not None else ())
    return eng

