"""The IP reduced by its givens, as HiGHS's presolve would reduce it, solved on a small model of its own.

On a plain model whose rows are all "exactly one of these columns" (``sum x = 1``, every
coefficient 1) and whose every column is in the same number ``k`` of rows (classic boards), a given
decides its rows: a row holding a given is satisfied, so its other columns are 0 and it goes. What
is left are the free columns and the rows they meet, taken from the engine's own (pyomo) matrix
(:meth:`Reduction.reduce`). An optional no-good row of a grid ``S`` is reduced the same way: the
givens' part of it moves to the right-hand side.

The engine (:mod:`pipeline.ilp.engine`) uses it where it was measured to give the same answers as
the full IP, faster: the grids of :meth:`~pipeline.ilp.engine.Engine.random_grid` on classic 4x4 and
9x9 boards (:meth:`Reduction.grid`: the LP relaxation first, whose integral optimum is the IP's) and
the uniqueness certificates on those boards (:func:`unique`: the same IP with the givens'
columns substituted, which is what HiGHS's presolve does first anyway); ``weighted-lp``'s relaxation
is solved by :func:`relax`, from a crash start. See ``docs/benchmarks.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import highspy
import numpy as np

from pipeline.board import Grid
from pipeline.ilp import model
from pipeline.ilp.highs import FOUND, INF, MS
from pipeline.ilp.result import Outcome


@dataclass(frozen=True, eq=False)
class Reduction:
    """The rows of each column of a partition model: ``rows_of`` is ``(ncols, k)``, ``nrows`` the
    model's rows, ``n`` the board side."""

    rows_of: np.ndarray
    nrows: int
    n: int

    @classmethod
    def of(cls, mat: model.Matrix, n: int, plain: bool) -> Reduction | None:
        """The reduction of ``mat`` when ``plain`` and every row of it is ``sum x = 1`` with
        coefficients 1 and every column is in equally many rows; None otherwise."""
        if not plain or not all(lo == hi == 1.0 and all(a == 1.0 for a in coefs) for _, coefs, lo, hi in mat.rows):
            return None
        rows_of: list[list[int]] = [[] for _ in range(mat.ncols)]
        for r, (cols, _, _, _) in enumerate(mat.rows):
            for j in cols:
                rows_of[j].append(r)
        if len({len(r) for r in rows_of}) != 1:
            return None
        return cls(np.array(rows_of, dtype=np.int64), len(mat.rows), n)

    def reduce(self, fixed: Grid, nogood: Grid | None = None) -> tuple[Model, np.ndarray] | Outcome:
        """The IP reduced by the givens of ``fixed``: the reduced model (objective zero, all columns
        continuous) and the engine columns of its columns; or the :class:`Outcome` when the givens
        decide it: ``infeasible`` (two givens in one row, or a row no free column can satisfy) or
        ``feasible`` (nothing left free: ``fixed`` is the grid). With ``nogood`` (a grid S), the
        no-good row ``sum x[i, S_i] <= n*n - 1`` is added, reduced the same way."""
        rows_of, n = self.rows_of, self.n
        digits = np.asarray(fixed, dtype=np.int64)
        cells = np.flatnonzero(digits)
        given = cells * n + digits[cells] - 1  # the givens' columns (HighsModel._col)
        held = np.bincount(rows_of[given].ravel(), minlength=self.nrows)
        if held.max(initial=0) > 1:
            return Outcome("infeasible")  # two givens in one row (e.g. a digit twice in a unit)
        done = held == 1
        free = np.flatnonzero(~done[rows_of].any(axis=1))
        met = np.zeros(self.nrows, dtype=bool)  # the rows free columns meet: all of them open
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
        return _lp(inv, on_s, left, nogood is not None, rhs), free

    def grid(self, h: highspy.Highs, reduced: tuple[Model, np.ndarray], weights: np.ndarray,
             fixed: Grid, options: Mapping[str, float]) -> Outcome:
        """The grid of ``max weights . x`` with ``fixed``'s givens, from ``reduced`` (:meth:`reduce` of
        ``fixed``), solved on ``h`` with ``options`` set: the reduced LP relaxation first; when its
        optimum is integral it is the IP's optimum and the grid, otherwise the reduced IP is solved
        (with HiGHS's presolve)."""
        lp, free = reduced
        cost = np.ascontiguousarray(weights[free], dtype=np.float64)
        for key, value in options.items():  # every option set on every call
            h.setOptionValue(key, value)
        status = run(h, lp, integer=False, presolve="off", maximize=cost)
        if status == MS.kInfeasible:
            return Outcome("infeasible")
        vals = np.asarray(h.getSolution().col_value) if status == MS.kOptimal else None
        proven = vals is not None and integral(vals)
        if not proven:
            status = run(h, lp, integer=True, presolve="choose", maximize=cost)
            proven = status == MS.kOptimal
            if status == MS.kInfeasible:
                return Outcome("infeasible")
            if status == MS.kTimeLimit:
                return Outcome("timeout")
            if status not in FOUND and h.getInfo().primal_solution_status != 2:
                return Outcome("error")
            vals = np.asarray(h.getSolution().col_value)
        assert vals is not None
        out = list(fixed)
        for j in free[vals > 0.5]:
            out[int(j) // self.n] = int(j) % self.n + 1
        if not all(out):
            raise RuntimeError("HiGHS returned a non-integral solution")
        return Outcome("feasible", tuple(out), proven)


def integral(vals: np.ndarray) -> bool:
    """True when every value is within 1e-7 of 0 or 1 (an LP point that is a 0-1 point)."""
    return bool(np.all(np.minimum(np.abs(vals), np.abs(1.0 - vals)) < 1e-7))


def unique(h: highspy.Highs, lp: Model) -> Outcome:
    """The certificate's reduced IP ``lp`` (:meth:`Reduction.reduce` of the puzzle with the no-good row)
    solved as an IP on ``h`` without presolve (the reduced model is what presolve would leave):
    ``infeasible`` means unique, the same verdict as the full IP."""
    status = run(h, lp, integer=True, presolve="off")
    if status == MS.kInfeasible:
        return Outcome("infeasible")
    if status == MS.kTimeLimit:
        return Outcome("timeout")
    if status in FOUND or h.getInfo().primal_solution_status == 2:
        return Outcome("feasible")
    return Outcome("error")


def relax(h: highspy.Highs, lp: Model, cost: np.ndarray) -> highspy.HighsModelStatus:
    """The LP ``max cost . x`` over ``lp`` (a reduced model without a no-good row: every row is
    ``sum x = 1`` and every column meets the same number ``k`` of rows), solved on ``h`` by HiGHS's dual
    simplex from a crash start: the same optimal point as :func:`run` with ``integer=False``, in about
    half the iterations (``bench/bench_grids.py``). Two moves, neither of which changes the optimal point:

    * **costs less row constants**: every feasible ``x`` puts 1 on each row, so subtracting a constant
      from the cost of every column of a row lowers every objective value alike. Row by row of each of
      the ``k`` row kinds in turn, the constant is the row's highest cost left (the best column of a
      row then costs 0, every other less): a feasible dual start;
    * **a crash basis**: each first-kind row's best column basic (first on a tie), that row's slack
      nonbasic, every other row's slack basic, every other column at 0. Its matrix is a permutation
      of the identity, so it is never singular.

    Only the values of the optimal point are meant to be read: the objective value is the shifted one.
    A model whose columns do not all meet ``k`` rows is solved by :func:`run` as it is."""
    n = lp.ncols
    k, extra = divmod(lp.index.size, n) if n else (0, 1)
    if extra or k == 0:
        return run(h, lp, integer=False, presolve="off", maximize=cost)
    rows = lp.index.reshape(n, k)
    shifted = np.array(cost, dtype=np.float64)
    for kind in range(k):
        best = np.full(lp.nrows, -np.inf)
        np.maximum.at(best, rows[:, kind], shifted)
        shifted -= best[rows[:, kind]]
    first = rows[:, 0]
    order = np.lexsort((-shifted, first))  # by first-kind row, then the highest shifted cost, then the column
    lead = np.ones(n, dtype=bool)
    lead[1:] = first[order][1:] != first[order][:-1]
    picked = order[lead]
    basic_col = np.zeros(n, dtype=bool)
    basic_col[picked] = True
    basic_row = np.ones(lp.nrows, dtype=bool)
    basic_row[first[picked]] = False
    _load(h, lp, integer=False, presolve="off", maximize=shifted)
    status = (highspy.HighsBasisStatus.kLower, highspy.HighsBasisStatus.kBasic)
    basis = highspy.HighsBasis()
    basis.col_status = [status[b] for b in basic_col.tolist()]
    basis.row_status = [status[b] for b in basic_row.tolist()]
    basis.valid = True
    if h.setBasis(basis) != highspy.HighsStatus.kOk:
        raise RuntimeError("HiGHS refused the crash basis of a reduced model")
    h.run()
    return h.getModelStatus()


@dataclass(frozen=True, eq=False)
class Model:
    """A reduced model as the arrays HiGHS takes (:func:`run` passes them as they are, which costs a
    fraction of filling a ``highspy.HighsLp``): ``ncols`` columns in ``[0, 1]`` and ``nrows`` rows
    ``row_lower <= A x <= row_upper``, ``A`` column-wise (``start``: each column's first entry in
    ``index``, the rows it meets; every coefficient 1)."""

    ncols: int
    nrows: int
    start: np.ndarray
    index: np.ndarray
    row_lower: np.ndarray
    row_upper: np.ndarray


def _lp(inv: np.ndarray, on_s: np.ndarray, left: int, extra: bool, rhs: float) -> Model:
    """The reduced model: a column per free column, meeting its rows ``inv`` (numbered among the
    ``left`` rows that are left) and, where ``on_s`` and ``extra``, the no-good row ``<= rhs`` after them."""
    ncols, k = inv.shape
    index = np.full((ncols, k + 1), left, dtype=np.int32)  # last slot: the no-good row
    index[:, :k] = np.sort(inv, axis=1)
    keep = np.ones((ncols, k + 1), dtype=bool)
    keep[:, k] = on_s
    ones = np.ones(left + extra)
    upper = ones.copy()
    if extra:
        ones[left], upper[left] = -INF, rhs
    return Model(int(ncols), left + extra, np.concatenate([[0], np.cumsum(keep.sum(axis=1))[:-1]]).astype(np.int32),
                 index[keep], ones, upper)


def run(h: highspy.Highs, lp: Model, integer: bool, presolve: str, maximize: np.ndarray | None = None
        ) -> highspy.HighsModelStatus:
    """Solve ``lp`` (as an IP when ``integer``) on ``h``, a reduced models' solver, from a clean state:
    ``max maximize . x`` when ``maximize`` (one cost per column) is given, else ``min 0``."""
    _load(h, lp, integer, presolve, maximize)
    h.run()
    return h.getModelStatus()


def _load(h: highspy.Highs, lp: Model, integer: bool, presolve: str, maximize: np.ndarray | None) -> None:
    """Put ``lp`` on ``h`` in place of its model (:func:`run`'s arguments), not solved yet."""
    h.clearModel()
    h.setOptionValue("presolve", presolve)
    n = lp.ncols
    cost = np.zeros(n) if maximize is None else maximize
    sense = highspy.ObjSense.kMinimize if maximize is None else highspy.ObjSense.kMaximize
    kind = highspy.HighsVarType.kInteger if integer else highspy.HighsVarType.kContinuous
    passed = h.passModel(n, lp.nrows, lp.index.size, int(highspy.MatrixFormat.kColwise), int(sense), 0.0, cost,
                np.zeros(n), np.ones(n), lp.row_lower, lp.row_upper, lp.start, lp.index, np.ones(lp.index.size),
                np.full(n, int(kind), dtype=np.int32))
    if passed != highspy.HighsStatus.kOk:
        raise RuntimeError(f"HiGHS refused a reduced model ({passed})")
