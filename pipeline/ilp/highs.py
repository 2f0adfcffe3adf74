"""One compiled HiGHS copy of the Sudoku IP, and the rows and bounds that make it one puzzle's IP.

:class:`HighsModel` owns the solver object of an engine (:mod:`pipeline.ilp.engine`) and every change
made to it between solves; the engine's queries only say which bounds, rows and objective they want.

Contracts
---------
* Columns: ``x[i, d]`` is column ``i * n + d - 1`` (:meth:`HighsModel._col`), the ``n**3`` columns
  first, then the combination columns of the killer cages.
* A given ``d`` at cell ``i`` is the bound ``lower = 1`` on ``x[i, d]``. An *exclusion* ``(i, d)``
  is ``upper = 0`` on ``x[i, d]``. Bounds not asked for are back at ``[0, 1]`` on the next call
  (:meth:`HighsModel._apply`).
* Rows: the pristine matrix (the board's rules, and a design's rows), then the killer cage rows
  (:meth:`HighsModel.set_cages`), then at most one no-good row (:meth:`HighsModel.set_nogood`).
* Binaries are read with a tolerance (``x > 0.5``); a solve that hits ``time_limit`` is
  ``status == "timeout"``, never guessed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager

import highspy
import numpy as np

from pipeline.board import Board, Cage, Grid
from pipeline.ilp import model
from pipeline.ilp.result import Outcome

INF = highspy.kHighsInf
MS = highspy.HighsModelStatus
#: Model statuses that come with a feasible point.
FOUND = {MS.kOptimal, MS.kSolutionLimit, MS.kObjectiveBound, MS.kObjectiveTarget}


def new_solver(time_limit: float | None, options: Mapping[str, float | bool] | None = None) -> highspy.Highs:
    """A quiet single-threaded HiGHS object with the time limit ``time_limit`` and ``options``."""
    g = highspy.Highs()
    g.setOptionValue("output_flag", False)
    g.setOptionValue("threads", 1)
    if time_limit is not None:
        g.setOptionValue("time_limit", float(time_limit))
    for key, value in (options or {}).items():
        g.setOptionValue(key, value)
    return g


@contextmanager
def options(h: highspy.Highs, values: Mapping[str, float | bool]) -> Iterator[None]:
    """Set ``values`` on ``h`` for the ``with`` block, then put the previous values back."""
    saved = {k: h.getOptionValue(k)[1] for k in values}
    for k, v in values.items():
        h.setOptionValue(k, v)
    try:
        yield
    finally:
        for k, old in saved.items():
            h.setOptionValue(k, old)


class HighsModel:
    """The matrix ``mat`` of board ``b`` loaded into HiGHS once, with the bounds, cage rows and
    no-good row of the current question. ``solves`` counts every call into HiGHS."""

    def __init__(self, b: Board, mat: model.Matrix, time_limit: float | None) -> None:
        self.n = b.n
        self.board = b
        self.ncols = mat.ncols
        h = new_solver(time_limit)
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
        self._time_limit = time_limit
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

    # ---- one solve ------------------------------------------------------------------------
    def _solve(self) -> Outcome:
        """Run HiGHS on the model as it stands; the grid of the solution it found, if any."""
        self.solves += 1
        self._h.run()
        st = self._h.getModelStatus()
        if st == MS.kInfeasible:
            return Outcome("infeasible")
        if st == MS.kTimeLimit:
            return Outcome("timeout")
        if st in FOUND or self._h.getInfo().primal_solution_status == 2:
            vals = self._h.getSolution().col_value
            if len(vals) != self.ncols + self._extra_cols:
                return Outcome("error")
            return Outcome("feasible", self._read(vals[: self.ncols]), st == MS.kOptimal)
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
            self._add_nogood_row(solution)

    def _add_nogood_row(self, solution: Grid) -> None:
        """Append the no-good row of ``solution`` after the rows there are."""
        cols = np.array([self._col(i, d) for i, d in enumerate(solution)], dtype=np.int32)
        self._h.addRow(-INF, len(solution) - 1.0, len(cols), cols, np.ones(len(cols)))
