"""Why a puzzle has no solution: a set of its givens that cannot stand together.

The lecture's question, "how do you show someone that a puzzle cannot be solved?", answered with a
*core*: givens that, with the board's rules (and a variant's units and cages), admit no complete
grid. Anyone can check a small core by hand, and the rest of the puzzle is not to blame.

Contracts:

* :func:`explain` returns ``None`` when the puzzle has a solution, else a :class:`Core`;
  :func:`diagnose` also tells a puzzle with a solution as ``unique`` or ``multiple``, from the same
  one count.
* A core is always **minimal**: drop any one of its givens and the others have a solution (each of
  those drops is checked, not assumed).
* ``smallest`` is True only when no smaller set of the puzzle's givens is without a solution,
  proved by trying every smaller subset (by size, up to :data:`SUBSET_BUDGET` exact searches); when
  the budget runs out the core is minimal and ``smallest`` is False. A clash of two givens in one
  unit is found in the first rounds, so such a core is always proved smallest.
* An empty core means the rules alone (a variant's cages) admit no grid.
* Every verdict comes from :func:`pipeline.solve.solver.count_solutions` (exact). A verdict the
  solver could not reach within its time limit raises :class:`Undecided`.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from pipeline.board import SYMBOLS, Grid, Variant, size_of_grid
from pipeline.solve import solver

#: How many exact searches the proof that a core is smallest may take.
SUBSET_BUDGET = 3000


class Undecided(RuntimeError):
    """The solver hit its time limit on a subset: no core is claimed."""


@dataclass(frozen=True)
class Core:
    """Givens (0-based cell indices, in row-major order) that cannot stand together."""

    puzzle: Grid
    cells: tuple[int, ...]
    smallest: bool

    def givens(self) -> list[tuple[int, int, str]]:
        """``(row, col, symbol)`` of each given of the core, 0-based."""
        n = size_of_grid(self.puzzle)
        return [(i // n, i % n, SYMBOLS[self.puzzle[i] - 1]) for i in self.cells]

    def grid(self) -> Grid:
        """The puzzle with only the core's givens."""
        return _keep(self.puzzle, self.cells)

    def __str__(self) -> str:
        return " ".join(f"r{r + 1}c{c + 1}={s}" for r, c, s in self.givens())


def _keep(puzzle: Grid, cells: tuple[int, ...] | list[int]) -> Grid:
    keep = set(cells)
    return tuple(d if i in keep else 0 for i, d in enumerate(puzzle))


def _solvable(puzzle: Grid, variant: Variant | None) -> bool:
    status = solver.count_solutions(puzzle, 1, variant=variant).status
    if status == "timeout":
        raise Undecided("the solver hit its time limit; no answer")
    return status != "none"


def _minimal(puzzle: Grid, variant: Variant | None) -> tuple[int, ...]:
    """Drop givens one by one while the rest still has no solution (deletion-based core)."""
    core = [i for i, d in enumerate(puzzle) if d]
    for i in list(core):
        trial = [j for j in core if j != i]
        if not _solvable(_keep(puzzle, trial), variant):
            core = trial
    return tuple(core)


def _smaller(puzzle: Grid, variant: Variant | None, size: int) -> tuple[tuple[int, ...] | None, bool]:
    """The first subset of the givens with fewer than ``size`` givens and no solution, by size, and
    whether every smaller subset was tried within :data:`SUBSET_BUDGET`."""
    givens = [i for i, d in enumerate(puzzle) if d]
    budget = SUBSET_BUDGET
    for k in range(1, size):
        for subset in combinations(givens, k):
            if budget == 0:
                return None, False
            budget -= 1
            if not _solvable(_keep(puzzle, subset), variant):
                return subset, True
    return None, True


def explain(puzzle: Grid, *, variant: Variant | None = None) -> Core | None:
    """A core of ``puzzle``'s givens (see the module contract), or None when it has a solution."""
    if _solvable(puzzle, variant):
        return None
    return _core(puzzle, variant)


def diagnose(puzzle: Grid, *, variant: Variant | None = None) -> tuple[str, Core | None]:
    """``puzzle``'s status from one exact count up to two solutions, ``unique`` or ``multiple`` with
    no core, or ``none`` with the core :func:`explain` finds; the first search tells both, so a puzzle
    with a solution is counted once."""
    status = solver.count_solutions(puzzle, 2, variant=variant).status
    if status == "timeout":
        raise Undecided("the solver hit its time limit; no answer")
    if status != "none":
        return status, None
    return "none", _core(puzzle, variant)


def _core(puzzle: Grid, variant: Variant | None) -> Core:
    """The core of ``puzzle``, known to have no solution."""
    if not _solvable(_keep(puzzle, []), variant):
        return Core(puzzle, (), True)
    core = _minimal(puzzle, variant)
    found, complete = _smaller(puzzle, variant, len(core))
    if found is not None:
        return Core(puzzle, found, True)  # the first infeasible subset by size: smallest, and minimal
    return Core(puzzle, core, complete)
