"""One compiled HiGHS model per worker; everything changes by bounds.

The matrix comes from the pyomo statement in :mod:`pipeline.ilp.model`, once, when the engine is built
(through its checksummed disk cache, :func:`pipeline.ilp.model.compiled`).
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

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
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
        mat = model.compiled(self.board, design)
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
        # the reduced grid solve (random_grid) where it was measured to give the same grids, faster
        self._partition = _partition_rows(mat, n in (4, 9) and design is None and (variant is None or variant.classic))
        self._grid_h: highspy.Highs | None = None  # the reduced grid model's solver (classic engines)
        self._proof_h: highspy.Highs | None = None  # the reduced certificates' solver (classic engines)
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
        try:
            with _options(h, options):
                self._apply(bounds_from)
                return self._solve()
        finally:
            h.changeColsCost(self.ncols, idx, np.zeros(self.ncols))
            h.changeObjectiveSense(highspy.ObjSense.kMinimize)
            h.clearSolver()

    def random_grid(self, weights: np.ndarray, seed: int, fixed: Grid | None = None) -> Outcome:
        """A complete grid: the solution of ``max sum w*x`` containing ``fixed`` at which HiGHS stops
        with ``mip_max_improving_sols: 1`` (its first improving solution once the root LP is solved).

        ``weights`` has one entry per column (``n**3``); ``seed`` also seeds HiGHS. The result
        depends only on the arguments (clean solver state, pristine matrix).

        On a classic 4x4 or 9x9 engine (no design, no variant) the IP is first *reduced* by the givens of
        ``fixed``, exactly as HiGHS's presolve does: a row holding a given is satisfied, so its other
        columns are 0 and it goes; what is left are the free columns and the rows they meet, taken from
        this engine's own (pyomo) matrix. The reduced LP relaxation is solved first; when its optimum is
        integral it is the IP's optimum and the grid, otherwise the reduced IP is solved as above.
        Measured on 500 prefilled 9x9 grids: the same grid as the full IP every time, in 10.4-12.0
        instead of 14.4-16.4 ms CPU (README, issue 15); 4x4 the same, 10x faster. Not used on 6x6 (3 of
        60 grids came out different: the full IP stopped at an improving solution short of the integral
        LP optimum) nor on 16x16 (slower there: 441 against 304 ms).
        """
        options = {"random_seed": int(seed % 2_147_483_647), "mip_max_improving_sols": 1}
        if self._partition is not None:
            return self._reduced_grid(np.asarray(weights, dtype=float), fixed or (0,) * (self.n * self.n), options)
        return self._maximize(weights, fixed or (0,) * (self.n * self.n), options)

    def _reduced(self, fixed: Grid, nogood: Grid | None = None) -> tuple[highspy.HighsLp, np.ndarray] | Outcome:
        """This engine's IP reduced by the givens of ``fixed`` (:meth:`random_grid`'s docstring): the
        reduced model (objective zero, all columns continuous) and the engine columns of its columns;
        or the :class:`Outcome` when the givens decide it: ``infeasible`` (two givens in one row, or a
        row no free column can satisfy) or ``feasible`` (nothing left free: ``fixed`` is the grid).
        With ``nogood`` (a grid S), the no-good row ``sum x[i, S_i] <= n*n - 1`` is added, reduced the
        same way: the givens' part of it moves to the right-hand side."""
        assert self._partition is not None
        rows_of, n = self._partition, self.n
        digits = np.asarray(fixed, dtype=np.int64)
        cells = np.flatnonzero(digits)
        given = cells * n + digits[cells] - 1  # the givens' columns (:meth:`_col`)
        held = np.bincount(rows_of[given].ravel(), minlength=self._base_rows)
        if held.max(initial=0) > 1:
            return Outcome("infeasible")  # two givens in one row (e.g. a digit twice in a unit)
        done = held == 1
        free = np.flatnonzero(~done[rows_of].any(axis=1))
        met = np.zeros(self._base_rows, dtype=bool)  # the rows free columns meet: all of them open
        met[rows_of[free].ravel()] = True
        if np.any(~done & ~met):
            return Outcome("infeasible")  # a row no free column can satisfy
        left = int(met.sum())
        inv = (np.cumsum(met) - 1)[rows_of[free]]  # each free column's rows, numbered among ``met``'s
        rhs = 0.0
        on_s = np.zeros(free.size, dtype=bool)
        if nogood is not None:
            s_mask = np.zeros(rows_of.shape[0], dtype=bool)
            s_mask[np.arange(n * n) * n + np.asarray(nogood, dtype=np.int64) - 1] = True
            on_s = s_mask[free]
            rhs = len(nogood) - 1.0 - float(s_mask[given].sum())
            if free.size == 0:
                return Outcome("infeasible" if rhs < 0 else "feasible", fixed)
        if free.size == 0:
            return Outcome("feasible", fixed)
        k = rows_of.shape[1]
        extra = nogood is not None
        index = np.full((free.size, k + 1), left, dtype=np.int32)  # last slot: the no-good row
        index[:, :k] = np.sort(inv, axis=1)
        keep = np.ones((free.size, k + 1), dtype=bool)
        keep[:, k] = on_s
        lp = highspy.HighsLp()
        lp.num_col_, lp.num_row_ = int(free.size), left + extra
        lp.col_cost_ = np.zeros(free.size)
        lp.col_lower_, lp.col_upper_ = np.zeros(free.size), np.ones(free.size)
        lp.row_lower_ = np.concatenate([np.ones(left), [-_INF] * extra])
        lp.row_upper_ = np.concatenate([np.ones(left), [rhs] * extra])
        lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
        lp.a_matrix_.start_ = np.concatenate([[0], np.cumsum(keep.sum(axis=1))]).astype(np.int32)
        lp.a_matrix_.index_ = index[keep]
        lp.a_matrix_.value_ = np.ones(int(keep.sum()))
        lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = lp.num_col_, lp.num_row_
        return lp, free

    def _run_reduced(self, h: highspy.Highs, lp: highspy.HighsLp, integer: bool,
                     presolve: str) -> highspy.HighsModelStatus:
        """Solve ``lp`` (as an IP when ``integer``) on ``h``, a reduced models' solver, from a clean state."""
        h.clearModel()
        h.setOptionValue("presolve", presolve)
        lp.integrality_ = [highspy.HighsVarType.kInteger] * lp.num_col_ if integer else []
        h.passModel(lp)
        h.run()
        return h.getModelStatus()

    def _reduced_grid(self, weights: np.ndarray, fixed: Grid, options: Mapping[str, float]) -> Outcome:
        """:meth:`random_grid` on the IP reduced by ``fixed`` (its docstring): LP first, then the IP."""
        reduced = self._reduced(fixed)
        if isinstance(reduced, Outcome):
            return reduced
        lp, free = reduced
        lp.col_cost_ = weights[free]
        lp.sense_ = highspy.ObjSense.kMaximize
        h = self._grid_solver()
        for key, value in options.items():  # every option set on every call
            h.setOptionValue(key, value)
        self.solves += 1  # one solve of the IP, its LP relaxation first (as its root node would)
        status = self._run_reduced(h, lp, integer=False, presolve="off")
        if status == _MS.kInfeasible:
            return Outcome("infeasible")
        vals = np.asarray(h.getSolution().col_value) if status == _MS.kOptimal else None
        if vals is None or not np.all(np.minimum(np.abs(vals), np.abs(1.0 - vals)) < 1e-7):
            status = self._run_reduced(h, lp, integer=True, presolve="choose")
            if status == _MS.kInfeasible:
                return Outcome("infeasible")
            if status == _MS.kTimeLimit:
                return Outcome("timeout")
            if status not in _FOUND and h.getInfo().primal_solution_status != 2:
                return Outcome("error")
            vals = np.asarray(h.getSolution().col_value)
        out = list(fixed)
        for j in free[vals > 0.5]:
            out[int(j) // self.n] = int(j) % self.n + 1
        if not all(out):
            raise RuntimeError("HiGHS returned a non-integral solution")
        return Outcome("feasible", tuple(out))

    def _reduced_unique(self, puzzle: Grid, nogood: Grid) -> Outcome:
        """The certificate's IP (``puzzle``'s givens, the no-good row of ``nogood``) reduced by the givens
        and solved as an IP by HiGHS: ``infeasible`` means unique. Same verdict as the full IP (it is
        the same IP with the givens' columns substituted, which HiGHS's presolve does first anyway);
        measured 2.1 instead of 2.7 ms on minimal 9x9 puzzles (README, issue 15). It runs on a solver of
        its own with :data:`PROOF_OPTIONS` and no presolve (the reduced model is what presolve would
        leave): 1.26 -> 1.02 ms of HiGHS per certificate on 240 minimal 9x9 puzzles, all 240 infeasible
        either way (issue 15)."""
        reduced = self._reduced(puzzle, nogood)
        if isinstance(reduced, Outcome):
            return reduced
        lp, _ = reduced
        self.solves += 1
        h = self._proof_solver()
        status = self._run_reduced(h, lp, integer=True, presolve="off")
        if status == _MS.kInfeasible:
            return Outcome("infeasible")
        if status == _MS.kTimeLimit:
            return Outcome("timeout")
        if status in _FOUND or h.getInfo().primal_solution_status == 2:
            return Outcome("feasible")
        return Outcome("error")

    def _new_solver(self, options: Mapping[str, float | bool] | None = None) -> highspy.Highs:
        """A quiet single-threaded HiGHS object with this engine's time limit and ``options``."""
        g = highspy.Highs()
        g.setOptionValue("output_flag", False)
        g.setOptionValue("threads", 1)
        if self._time_limit is not None:
            g.setOptionValue("time_limit", float(self._time_limit))
        for key, value in (options or {}).items():
            g.setOptionValue(key, value)
        return g

    def _grid_solver(self) -> highspy.Highs:
        """The second HiGHS object, which solves reduced grid models (built on first use)."""
        if self._grid_h is None:
            self._grid_h = self._new_solver()
        return self._grid_h

    def _proof_solver(self) -> highspy.Highs:
        """The third HiGHS object, which solves reduced certificates with :data:`PROOF_OPTIONS` (built on
        first use; its options never change, so the grid solver's seed never reaches a proof)."""
        if self._proof_h is None:
            self._proof_h = self._new_solver(PROOF_OPTIONS)
        return self._proof_h

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
        if node_limit is None and self._partition is not None:
            out = self._reduced_unique(puzzle, self._nogood)
        elif node_limit is None:
            self._apply(puzzle)
            with _options(self._h, PROOF_OPTIONS):
                out = self._solve()
        else:
            self._apply(puzzle)
            h = self._h
            h.clearSolver()
            with _options(h, {"mip_max_nodes": int(node_limit)}):
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


#: HiGHS options for a uniqueness proof on the full model (:meth:`Engine.unique_without` without a node
#: budget): no restart and no primal heuristics. Neither takes part in proving the IP infeasible (the
#: heuristics only look for feasible points, a restart only presolves again), so verdicts are the same;
#: measured on 20 minimal 16x16 certificates: mean 0.59 -> 0.30 s, worst 3.2 -> 1.5 s (issue 15).
PROOF_OPTIONS: dict[str, float | bool] = {
    "mip_allow_restart": False, "mip_heuristic_effort": 0.0, "mip_heuristic_run_feasibility_jump": False,
    "mip_heuristic_run_rins": False, "mip_heuristic_run_rens": False, "mip_heuristic_run_root_reduced_cost": False,
}


@contextmanager
def _options(h: highspy.Highs, options: Mapping[str, float | bool]) -> Iterator[None]:
    """Set ``options`` on ``h`` for the ``with`` block, then put the previous values back."""
    saved = {k: h.getOptionValue(k)[1] for k in options}
    for k, v in options.items():
        h.setOptionValue(k, v)
    try:
        yield
    finally:
        for k, old in saved.items():
            h.setOptionValue(k, old)


def _partition_rows(mat: model.Matrix, plain: bool) -> np.ndarray | None:
    """For a plain model whose rows are all "exactly one of these columns" (``sum x = 1``, every
    coefficient 1) and whose every column is in the same number ``k`` of rows: the ``(ncols, k)``
    array of each column's rows, which :meth:`Engine._reduced_grid` reduces by. None otherwise."""
    if not plain or not all(lo == hi == 1.0 and all(a == 1.0 for a in coefs) for _, coefs, lo, hi in mat.rows):
        return None
    rows_of: list[list[int]] = [[] for _ in range(mat.ncols)]
    for r, (cols, _, _, _) in enumerate(mat.rows):
        for j in cols:
            rows_of[j].append(r)
    if len({len(r) for r in rows_of}) != 1:
        return None
    return np.array(rows_of, dtype=np.int64)


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

