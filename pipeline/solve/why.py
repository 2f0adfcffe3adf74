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
* :func:`clashes` returns *every independent* clash at once: disjoint cores, each minimal, found
  quickly (no subset proof): first the pairs of equal givens in one unit or cage (each a core of
  two, smallest by nature), then deletion-minimal cores of what is left, until the givens outside
  every core have a solution. Disjoint cores need one change each, so their number is a lower bound
  on the changes of any repair. ``more`` on the result says the search stopped before that (a
  budget), so more clashes may remain.
* Every verdict comes from :func:`pipeline.solve.solver.count_solutions` (exact). A verdict the
  solver could not reach within its time limit raises :class:`Undecided`.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from pipeline.board import SYMBOLS, Grid, Variant, board, size_of_grid
from pipeline.solve import solver

#: How many exact searches the proof that a core is smallest may take.
SUBSET_BUDGET = 3000
#: How many cores :func:`clashes` looks for before it says that more may remain.
CLASH_LIMIT = 12


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


@dataclass(frozen=True)
class Clashes:
    """Disjoint cores of a puzzle's givens (see :func:`clashes`); ``more``: the search stopped early,
    so the givens outside the cores may still have no solution."""

    cores: tuple[Core, ...]
    more: bool

    def cells(self) -> frozenset[int]:
        """Every given of every core."""
        return frozenset(i for core in self.cores for i in core.cells)


def _pairs(puzzle: Grid, variant: Variant | None) -> list[tuple[int, int]]:
    """Disjoint pairs of equal givens in one unit (or cage), first found first."""
    b = board(size_of_grid(puzzle), variant)
    used: set[int] = set()
    out: list[tuple[int, int]] = []
    for unit in (*b.units, *(c.cells for c in b.variant.cages)):
        seen: dict[int, int] = {}
        for i in unit:
            d = puzzle[i]
            if not d or i in used:
                continue
            if d in seen and seen[d] not in used:
                out.append((seen[d], i))
                used.update((seen[d], i))
                seen.pop(d)
            else:
                seen[d] = i
    return out


def clashes(puzzle: Grid, *, variant: Variant | None = None) -> Clashes:
    """Every independent clash of ``puzzle`` (see the module contract); no cores when it has a
    solution. Raises :class:`Undecided` when the solver cannot decide."""
    caged = variant is not None and bool(variant.cages)  # a cage can refuse one given alone
    cores = [Core(puzzle, tuple(sorted(p)), not caged) for p in _pairs(puzzle, variant)]
    rest = list(puzzle)
    for core in cores:
        for i in core.cells:
            rest[i] = 0
    while not _solvable(tuple(rest), variant):
        if len(cores) >= CLASH_LIMIT:
            return Clashes(tuple(cores), True)
        if not _solvable(_keep(tuple(rest), []), variant):
            return Clashes((*cores, Core(puzzle, (), True)), False)  # the rules alone admit no grid
        found = _minimal(tuple(rest), variant)
        cores.append(Core(puzzle, found, len(found) == 1 or (len(found) == 2 and not caged)))
        for i in found:
            rest[i] = 0
    return Clashes(tuple(cores), False)
