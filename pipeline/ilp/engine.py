"""One compiled HiGHS model per worker; everything changes by bounds.

The matrix comes from the pyomo statement in :mod:`pipeline.ilp.model`, once, when the engine is built
(through its checksummed disk cache, :func:`pipeline.ilp.model.compiled`). After that the engine
talks to HiGHS (highspy) directly, because a re-solve through highspy costs a fraction of one
through pyomo's persistent interface. The rest of the code never sees pyomo or highspy: it passes
grids (tuples of digits, 0 = blank) and gets :class:`Outcome` values.

An :class:`Engine` is a :class:`~pipeline.ilp.highs.HighsModel` (the solver, its bounds, cage rows
and no-good row: the column, bound and row contracts are stated there) that answers the questions
of the generator and the solver: a random grid, a solution count, the uniqueness check and its
certificate, the repair of a puzzle. Where it was measured to give the same answers faster, it
answers on the IP reduced by the givens instead (:mod:`pipeline.ilp.reduced`).

Contracts
---------
* :meth:`Engine.unique_without` is the removal check: with the no-good row of the grid's solution
  ``S`` installed (:meth:`Engine.set_nogood`), the puzzle has a solution other than ``S`` iff the
  IP is feasible. So one solve answers it: infeasible <=> still unique.
* :meth:`Engine.unique_by_presolve` is the same question answered by HiGHS's presolve alone: True
  only when presolve proves the IP infeasible; a model presolve leaves undecided raises
  :class:`SolverTimeout` (the killer certificate of generator version 3).
* Before a random-grid solve the solver state is cleared and the matrix is the pristine one (no
  no-good row), so the grid depends only on (weights, seed, fixed cells, design): the same on any worker.
* An engine built with a :class:`~pipeline.ilp.model.Design` holds the designed-grid rows in its
  pristine matrix: every solve of it (grids, counts, checks) honours them. The generator makes grids
  with such an engine and judges puzzles with the plain one of the same size, since a puzzle must be
  unique under the plain rules (a solver knows nothing of the design).
* An engine built for a variant (:class:`~pipeline.board.Variant`) holds the variant's units (jigsaw
  regions, diagonals, windows) in its pristine matrix. Killer cages change with every puzzle, so
  they are rows of their own after the pristine ones (:meth:`Engine.set_cages`).
  :func:`engine_for` installs the variant's cages on every call, so an engine never answers with
  another puzzle's cages.
* A solve that hits ``time_limit`` is reported as ``status == "timeout"``, never guessed.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

import highspy
import numpy as np

from pipeline.board import Grid, Variant, board
from pipeline.ilp import model, reduced
from pipeline.ilp.highs import INF, MS, HighsModel, new_solver, options
from pipeline.ilp.reduced import Reduction
from pipeline.ilp.result import CountResult, Outcome, SolverTimeout, Status

PS = highspy.HighsPresolveStatus

__all__ = ["PROOF_OPTIONS", "CountResult", "Engine", "Outcome", "SolverTimeout", "engine_for"]

#: HiGHS options for a uniqueness proof (:meth:`Engine.unique_without` without a node budget): no
#: restart and no primal heuristics. Neither takes part in proving the IP infeasible (the heuristics
#: only look for feasible points, a restart only presolves again), so verdicts are the same, and
#: the proofs are about twice as fast on minimal 16x16 puzzles (``docs/benchmarks.md``).
PROOF_OPTIONS: dict[str, float | bool] = {
    "mip_allow_restart": False, "mip_heuristic_effort": 0.0, "mip_heuristic_run_feasibility_jump": False,
    "mip_heuristic_run_rins": False, "mip_heuristic_run_rens": False, "mip_heuristic_run_root_reduced_cost": False,
}


class Engine(HighsModel):
    """A compiled HiGHS copy of the Sudoku IP for one board size, reused across puzzles.

    Not thread-safe and not picklable on purpose: each worker process builds its own
    (see :func:`engine_for`). ``solves`` counts every call into HiGHS.
    """

    def __init__(self, n: int, time_limit: float | None = None, design: model.Design | None = None,
                 variant: Variant | None = None) -> None:
        b = board(n, variant.units_only if variant is not None else None)
        mat = model.compiled(b, design)
        super().__init__(b, mat, time_limit)
        self.design = design
        # the reduced IP (random_grid, certificates) where it was measured to give the same answers, faster
        plain = n in (4, 9) and design is None and (variant is None or variant.classic)
        self._partition = Reduction.of(mat, n, plain)
        self._grid_h: highspy.Highs | None = None  # the reduced grid model's solver (classic engines)
        self._proof_h: highspy.Highs | None = None  # the reduced certificates' solver (classic engines)

    # ---- grids ----------------------------------------------------------------------------
    def solve(self, puzzle: Grid, exclude: Iterable[tuple[int, int]] = ()) -> Outcome:
        """Any solution of ``puzzle`` that avoids ``exclude`` (pairs ``(cell, digit)``)."""
        self._apply(puzzle, exclude)
        return self._solve()

    def _maximize(self, costs: np.ndarray, bounds_from: Grid, values: Mapping[str, float],
                  rows: Sequence[tuple[np.ndarray, float, float]] = ()) -> Outcome:
        """Solve ``max costs . x`` with ``bounds_from``'s givens fixed, from a clean solver state and
        the pristine matrix (no no-good row) plus one row ``lo <= sum x[cols] <= hi`` for each
        ``(cols, lo, hi)`` of ``rows``; restore a zero objective, the options and the rows after."""
        self.set_nogood(None)
        h = self._h
        h.clearSolver()
        idx = np.arange(self.ncols, dtype=np.int32)
        h.changeObjectiveSense(highspy.ObjSense.kMaximize)
        h.changeColsCost(self.ncols, idx, np.asarray(costs, dtype=float))
        try:
            for cols, lo, hi in rows:
                h.addRow(lo, hi, len(cols), np.asarray(cols, dtype=np.int32), np.ones(len(cols)))
            with options(h, values):
                self._apply(bounds_from)
                return self._solve()
        finally:
            extra = h.getNumRow() - self._fixed_rows
            if extra:
                h.deleteRows(extra, np.arange(self._fixed_rows, self._fixed_rows + extra, dtype=np.int32))
            h.changeColsCost(self.ncols, idx, np.zeros(self.ncols))
            h.changeObjectiveSense(highspy.ObjSense.kMinimize)
            h.clearSolver()

    def random_grid(self, weights: np.ndarray, seed: int, fixed: Grid | None = None) -> Outcome:
        """A complete grid: the solution of ``max sum w*x`` containing ``fixed`` at which HiGHS stops
        with ``mip_max_improving_sols: 1`` (its first improving solution once the root LP is solved).

        ``weights`` has one entry per column (``n**3``); ``seed`` also seeds HiGHS. The result
        depends only on the arguments (clean solver state, pristine matrix).

        On a classic 4x4 or 9x9 engine (no design, no variant) the IP is first *reduced* by the givens
        of ``fixed`` (:mod:`pipeline.ilp.reduced`) and its LP relaxation solved first; when that
        optimum is integral it is the IP's optimum and the grid, otherwise the reduced IP is solved as
        above. On 500 prefilled 9x9 grids this gave the same grid as the full IP every time, faster
        (``docs/benchmarks.md``); 4x4 the same. Not used on 6x6 (3 of 60 grids came out different: the
        full IP stopped at an improving solution short of the integral LP optimum) nor on 16x16
        (slower there).
        """
        values = {"random_seed": int(seed % 2_147_483_647), "mip_max_improving_sols": 1}
        start = fixed or (0,) * (self.n * self.n)
        if self._partition is None:
            return self._maximize(weights, start, values)
        red = self._partition.reduce(start)
        if isinstance(red, Outcome):
            return red
        h = self._grid_solver()
        self.solves += 1  # one solve of the IP, its LP relaxation first (as its root node would)
        return self._partition.grid(h, red, np.asarray(weights, dtype=float), start, values)

    def relaxation(self, weights: np.ndarray, seed: int, fixed: Grid | None = None) -> Outcome | np.ndarray:
        """The LP relaxation of :meth:`random_grid`'s IP (``max weights . x``, ``fixed``'s givens,
        integrality dropped): its optimal values, one per ``x`` column (``n**3``), or the
        :class:`Outcome` when there are none (``infeasible``, ``timeout``, ``error``) or the givens
        decide the grid (``feasible``, every cell given).

        Classic 4x4 and 9x9 engines solve the LP reduced by the givens (:mod:`pipeline.ilp.reduced`),
        the very LP :meth:`random_grid` solves first, from a crash start (:func:`reduced.relax`: the same
        optimal point in fewer iterations); the others the full model with
        ``solve_relaxation``, from a clean solver state and the pristine matrix (no no-good row, no
        cage rows' combination columns in the answer). The values depend only on the arguments."""
        start = fixed or (0,) * (self.n * self.n)
        values: dict[str, float | bool] = {"random_seed": int(seed % 2_147_483_647)}
        w = np.asarray(weights, dtype=float)
        self.solves += 1
        if self._partition is not None:
            red = self._partition.reduce(start)
            if isinstance(red, Outcome):
                return red
            lp, free = red
            h = self._grid_solver()
            for key, value in values.items():
                h.setOptionValue(key, value)
            status = reduced.relax(h, lp, np.ascontiguousarray(w[free]))
            if status != MS.kOptimal:
                return Outcome(_status(status))
            out = np.zeros(self.ncols)
            digits = np.asarray(start, dtype=np.int64)
            cells = np.flatnonzero(digits)
            out[cells * self.n + digits[cells] - 1] = 1.0
            out[free] = h.getSolution().col_value
            return out
        self.set_nogood(None)
        h = self._h
        h.clearSolver()
        idx = np.arange(self.ncols, dtype=np.int32)
        h.changeObjectiveSense(highspy.ObjSense.kMaximize)
        h.changeColsCost(self.ncols, idx, w)
        try:
            with options(h, {**values, "solve_relaxation": True}):
                self._apply(start)
                h.run()
                status = h.getModelStatus()
                if status != MS.kOptimal:
                    return Outcome(_status(status))
                return np.asarray(h.getSolution().col_value[: self.ncols])
        finally:
            h.changeColsCost(self.ncols, idx, np.zeros(self.ncols))
            h.changeObjectiveSense(highspy.ObjSense.kMinimize)
            h.clearSolver()

    def _grid_solver(self) -> highspy.Highs:
        """The second HiGHS object, which solves reduced grid models (built on first use)."""
        if self._grid_h is None:
            self._grid_h = new_solver(self._time_limit)
        return self._grid_h

    # ---- repair ---------------------------------------------------------------------------
    def closest(self, puzzle: Grid, keep: int | None = None, avoid: Sequence[Collection[int]] = ()) -> Outcome:
        """A grid that keeps as many givens of ``puzzle`` as possible (solved to optimality); with
        ``keep``, any grid that keeps at least ``keep`` givens and changes none of the cell sets of
        ``avoid`` whole (a feasibility solve).

        The repair IP of the sources: seed 000 maximizes the givens kept; seed 003 minimizes
        penalty variables z with ``x[i, g] + z[i] = 1``. Both have the same optimum, so the givens
        become objective weights instead of bounds and no column is added.

        Each set ``C`` of given cells in ``avoid`` adds the row ``sum over i in C of x[i, g_i] >= 1``
        (keep at least one of them). With ``keep`` set to the optimum (the givens the first answer
        kept) and the changed cells of every repair found so far in ``avoid``, each call gives a
        repair of the optimal face that changes another set of cells, and ``infeasible`` once every
        set was found: feasibility solves, much cheaper than proving the optimum again. The rows are
        removed before returning (the engine's rows as before, without a no-good row).
        """
        givens = [i for i, d in enumerate(puzzle) if d]
        kept = np.array([self._col(i, puzzle[i]) for i in givens], dtype=np.int32)
        costs = np.zeros(self.ncols)
        if keep is None:
            costs[kept] = 1.0
            return self._maximize(costs, (0,) * (self.n * self.n), {"mip_rel_gap": 0})
        rows = [(np.array([self._col(i, puzzle[i]) for i in sorted(cells)], dtype=np.int32), 1.0, INF)
                for cells in avoid]
        rows.append((kept, float(keep), INF))
        return self._maximize(costs, (0,) * (self.n * self.n), {}, rows)

    # ---- uniqueness and counts --------------------------------------------------------------
    def unique_without(self, puzzle: Grid, node_limit: int | None = None) -> bool:
        """True iff ``puzzle`` has no solution other than the no-good grid (one solve).

        Requires :meth:`set_nogood` with a solution of ``puzzle``. Raises :class:`SolverTimeout` past
        the engine's time limit. With ``node_limit`` the solve starts from a clean solver state and
        may visit at most that many branch-and-bound nodes: past them it raises :class:`SolverTimeout`
        too. A node budget, unlike a time budget, gives the same verdict on every machine and in
        every worker (HiGHS runs single-threaded), so it keeps runs reproducible.

        Without a node budget, a classic 4x4 or 9x9 engine answers on the IP reduced by the givens
        (:func:`pipeline.ilp.reduced.unique`, on a solver of its own with :data:`PROOF_OPTIONS`): the
        same verdict as the full IP, faster (``docs/benchmarks.md``).
        """
        if self._nogood is None:
            raise RuntimeError("unique_without needs set_nogood(solution) first")
        if node_limit is None and self._partition is not None:
            out = self._reduced_unique(puzzle, self._nogood)
        elif node_limit is None:
            self._apply(puzzle)
            with options(self._h, PROOF_OPTIONS):
                out = self._solve()
        else:
            out = self._unique_in_nodes(puzzle, node_limit)
        if out.status == "timeout":
            raise SolverTimeout("uniqueness check hit the time limit")
        if out.status == "error":
            raise RuntimeError("HiGHS failed on a uniqueness check")
        return out.status == "infeasible"

    def unique_by_presolve(self, puzzle: Grid) -> bool:
        """True iff HiGHS's presolve alone proves that ``puzzle`` has no solution other than the
        no-good grid (the IP is infeasible); False when presolve settles every column (a second
        solution exists). A model that survives presolve raises :class:`SolverTimeout`: the budget is
        presolve, no LP and no branch-and-bound, a bound on work rather than time, so the verdict is
        the same on every machine, under any load and after any earlier work of the engine. Past the
        engine's time limit (counted from this call's start) it raises too.

        Requires :meth:`set_nogood`; starts from a clean solver state and leaves one (the next solve
        presolves afresh). Presolve proves infeasibility by the model's own rows, so True is the same
        proof as :meth:`unique_without`'s, only shorter."""
        if self._nogood is None:
            raise RuntimeError("unique_by_presolve needs set_nogood(solution) first")
        self._apply(puzzle)
        h = self._h
        h.clearSolver()
        self.solves += 1
        # HiGHS's run clock adds up over every call on this object, and presolve alone (unlike a run)
        # holds that sum against time_limit: the limit is moved to this call's start, so a verdict
        # never depends on how long the engine has worked before.
        limit = h.getRunTime() + self._time_limit if self._time_limit is not None else INF
        try:
            with options(h, {"time_limit": limit}):
                h.presolve()
            status = h.getModelPresolveStatus()
        finally:
            h.clearSolver()
        if status == PS.kInfeasible:
            return True
        if status == PS.kReducedToEmpty:
            return False  # presolve fixed every column without a contradiction: a feasible point
        if status == PS.kTimeout:
            raise SolverTimeout("uniqueness check hit the time limit")
        raise SolverTimeout(f"presolve did not decide the uniqueness check ({status.name})")

    def _reduced_unique(self, puzzle: Grid, nogood: Grid) -> Outcome:
        """The certificate on the IP reduced by ``puzzle``'s givens, with the no-good row of ``nogood``."""
        assert self._partition is not None
        red = self._partition.reduce(puzzle, nogood)
        if isinstance(red, Outcome):
            return red
        self.solves += 1
        return reduced.unique(self._proof_solver(), red[0])

    def _proof_solver(self) -> highspy.Highs:
        """The third HiGHS object, which solves reduced certificates with :data:`PROOF_OPTIONS` (built on
        first use; its options never change, so the grid solver's seed never reaches a proof)."""
        if self._proof_h is None:
            self._proof_h = new_solver(self._time_limit, PROOF_OPTIONS)
        return self._proof_h

    def _unique_in_nodes(self, puzzle: Grid, node_limit: int) -> Outcome:
        """:meth:`unique_without` within ``node_limit`` branch-and-bound nodes, from a clean state:
        ``infeasible`` (unique), ``feasible`` (a second solution), ``timeout``; past the budget
        :class:`SolverTimeout`."""
        self._apply(puzzle)
        h = self._h
        h.clearSolver()
        with options(h, {"mip_max_nodes": int(node_limit)}):
            self.solves += 1
            h.run()
            st = h.getModelStatus()
            if st == MS.kInfeasible:
                return Outcome("infeasible")
            if h.getInfo().primal_solution_status == 2:
                return Outcome("feasible")  # a second solution: not unique
            if st == MS.kTimeLimit:
                return Outcome("timeout")
            raise SolverTimeout(f"the uniqueness check passed its budget of {node_limit} nodes")

    def certified_count(self, puzzle: Grid, limit: int = 2) -> CountResult:
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
                self._add_nogood_row(out.grid)
        finally:
            extra = self._h.getNumRow() - self._fixed_rows
            if extra:
                self._h.deleteRows(extra, np.arange(self._fixed_rows, self._fixed_rows + extra, dtype=np.int32))
            self._nogood = None
            self.set_nogood(saved)
        return CountResult(len(found), limit, tuple(found), complete)


def _status(status: highspy.HighsModelStatus) -> Status:
    """The :class:`Outcome` status of a HiGHS model status that came with no optimal point."""
    if status == MS.kInfeasible:
        return "infeasible"
    return "timeout" if status == MS.kTimeLimit else "error"


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
