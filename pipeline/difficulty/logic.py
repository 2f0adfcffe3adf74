"""A human-style logical solver: techniques in order of difficulty, every step recorded.

The solver keeps a candidate grid (one bitmask int per cell, bit ``d-1`` for digit ``d``; a solved
cell holds its digit in ``values`` and mask ``0``) and repeatedly applies the *easiest* technique of
:data:`TECHNIQUE_ORDER` that makes progress, restarting from the singles after every step, so the
path is the one a human guide (or HoDoKu's step-by-step solver) would give. Each step records what
it saw and what it did as a :class:`Step`.

Contracts
---------
* **Soundness first.** Every technique here is a valid deduction for *any* puzzle, except the
  uniqueness techniques (unique rectangles, hidden rectangle, BUG+1), which run only once the puzzle
  is known to have exactly one solution (``unique``; counted when not told). So an elimination never
  removes a digit that some solution of the current state has in that cell, and a placement always
  agrees with every solution. On a puzzle with several solutions the only step that picks one of
  them is ``trial_and_error``.
* **Order.** Techniques are tried in :data:`TECHNIQUE_ORDER` (HoDoKu's default solver order for the
  techniques implemented; the killer rows right after the singles), or in the order of an older
  grader version a set began with (``grader``, :data:`~pipeline.difficulty.techniques.ORDERS`); the
  first one that makes progress is applied, one pattern per step.
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
  windows (hyper) as extra units, killer cage mates as peers; the killer rows of the table
  (:mod:`.killer`, cage sums) are tried only on boards with cages. Which
  technique does what there, and why each stays sound, is listed in :mod:`pipeline.difficulty.grade`.
  Variants run in pure Python only (the compiled kernels are classic).

Public API (:data:`__all__`): :func:`solve_logically`, :func:`next_step`, :func:`find_step`,
:func:`search_solution`, :class:`Candidates`, :class:`Step`, :class:`LogicResult`,
:class:`Contradiction`, :data:`TECHNIQUE_ORDER`, :data:`TITLES`, and the namers :func:`cell_name`,
:func:`unit_name`, :func:`digit_name`. This module is the solve loop; the rest lives beside it:

* :mod:`.candidates`: the candidate state, the step, the geometry tables and the namers;
* the finders, one module per family: :mod:`.basic` (singles, intersections, subsets),
  :mod:`.fish`, :mod:`.single_digit` (skyscraper, kite, turbot fish, empty rectangle),
  :mod:`.wings`, :mod:`.chains` (remote pairs, colours, chains), :mod:`.uniqueness` (unique
  rectangles, hidden rectangle, BUG+1), :mod:`.loops` (nice loops, AICs, forcing chains and nets),
  :mod:`.trial` (trial and error);
* :mod:`.techniques`: the technique table (names, order, titles, levels, weights);
  :data:`TECHNIQUE_ORDER` and :data:`TITLES` are re-exported from it;
* :mod:`.logic_jit`: the compiled kernels (singles and probes) of ``compiled=True``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pipeline.board import Grid, Variant, size_of_grid
from pipeline.difficulty.als import _als_xy_chain, _als_xy_wing, _als_xz, _death_blossom
from pipeline.difficulty.basic import _claiming, _hidden_single, _hidden_subset, _naked_single, _naked_subset, _pointing
from pipeline.difficulty.candidates import (
    Candidates,
    Contradiction,
    Finder,
    Step,
    _Ctx,
    cell_name,
    digit_name,
    unit_name,
)
from pipeline.difficulty.chains import (
    _multi_colors,
    _remote_pair,
    _simple_colors,
    _x_chain,
    _x_chain_5,
    _xy_chain,
    _xy_chain_5,
)
from pipeline.difficulty.fish import _finned_fish, _fish
from pipeline.difficulty.grouped import grouped_loop
from pipeline.difficulty.killer import FINDERS as KILLER_FINDERS
from pipeline.difficulty.killer import KILLER_TECHNIQUES
from pipeline.difficulty.loop_choice import aic_4, aic_5, nice_loop_4, nice_loop_5
from pipeline.difficulty.loops import (
    _aic,
    _discontinuous_nice_loop,
    _forcing_chain,
    _forcing_net,
)
from pipeline.difficulty.single_digit import _empty_rectangle, _skyscraper_5, _turbot, _turbot_fish_5
from pipeline.difficulty.sue_de_coq import _sue_de_coq
from pipeline.difficulty.techniques import GRADER_VERSION, NOT_IN_SOLVER, TECHNIQUE_ORDER, TITLES, UNIQUENESS, order_of
from pipeline.difficulty.trial import _Guesser, count_solutions, search_solution
from pipeline.difficulty.uniqueness import (
    _avoidable_finder,
    _bug_plus_1,
    _hidden_rectangle,
    _uniqueness_finder,
    hidden_rectangle_6,
)
from pipeline.difficulty.wings import _w_wing, _xy_wing, _xyz_wing

if TYPE_CHECKING:
    from pipeline.difficulty.logic_jit import Kernel

__all__ = [
    "TECHNIQUE_ORDER",
    "TITLES",
    "Candidates",
    "Contradiction",
    "LogicResult",
    "Step",
    "cell_name",
    "digit_name",
    "find_step",
    "next_step",
    "search_solution",
    "solve_logically",
    "unit_name",
]


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


# ---------------------------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------------------------


def _finders() -> dict[str, Finder]:
    return {
        "naked_single": _naked_single,
        "hidden_single": _hidden_single,
        **KILLER_FINDERS,
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
        "bug_plus_1": _bug_plus_1,
        "skyscraper": lambda st, ctx: _turbot(st, ctx, "skyscraper"),
        "two_string_kite": lambda st, ctx: _turbot(st, ctx, "two_string_kite"),
        "turbot_fish": lambda st, ctx: _turbot(st, ctx, "turbot_fish"),
        "empty_rectangle": _empty_rectangle,
        "w_wing": _w_wing,
        "xy_wing": _xy_wing,
        "xyz_wing": _xyz_wing,
        **{f"uniqueness_{k}": _uniqueness_finder(k) for k in (1, 2, 3, 4, 5, 6)},
        "hidden_rectangle": _hidden_rectangle,
        **{f"avoidable_rectangle_{k}": _avoidable_finder(k) for k in (1, 2)},
        "finned_x_wing": lambda st, ctx: _finned_fish(st, ctx, 2, False),
        "sashimi_x_wing": lambda st, ctx: _finned_fish(st, ctx, 2, True),
        "finned_swordfish": lambda st, ctx: _finned_fish(st, ctx, 3, False),
        "sashimi_swordfish": lambda st, ctx: _finned_fish(st, ctx, 3, True),
        "finned_jellyfish": lambda st, ctx: _finned_fish(st, ctx, 4, False),
        "sashimi_jellyfish": lambda st, ctx: _finned_fish(st, ctx, 4, True),
        "sue_de_coq": _sue_de_coq,
        "simple_colors": _simple_colors,
        "multi_colors": _multi_colors,
        "x_chain": _x_chain,
        "xy_chain": _xy_chain,
        "discontinuous_nice_loop": _discontinuous_nice_loop,
        "continuous_nice_loop": nice_loop_5,  # only in grader 5's order
        "aic": _aic,
        **dict.fromkeys(("grouped_discontinuous_nice_loop", "grouped_continuous_nice_loop", "grouped_aic"),
                        grouped_loop),  # only in grader 6's order
        "als_xz": _als_xz,
        "als_xy_wing": _als_xy_wing,
        "als_xy_chain": _als_xy_chain,
        "death_blossom": _death_blossom,
        "forcing_chain": _forcing_chain,
        "forcing_net": _forcing_net,
    }


#: name -> finder, for every technique of :data:`TECHNIQUE_ORDER` but ``trial_and_error``, in that order
#: (an older grader's order, :data:`~pipeline.difficulty.techniques.ORDERS`, picks from the same finders).
_FINDERS = _finders()


def _allowed(max_technique: str | None, cages: bool = False, grader: int = GRADER_VERSION) -> list[str]:
    """The techniques up to ``max_technique``, in grader ``grader``'s order; the killer rows only when
    the board has ``cages``; never the rows HoDoKu's solver leaves out
    (:data:`~pipeline.difficulty.techniques.NOT_IN_SOLVER`)."""
    order = order_of(grader)
    if max_technique is not None and max_technique not in order:
        raise ValueError(f"unknown technique {max_technique!r} (one of {', '.join(order)})")
    upto = order if max_technique is None else order[: order.index(max_technique) + 1]
    return [t for t in upto if (cages or t not in KILLER_TECHNIQUES) and t not in NOT_IN_SOLVER]


class _Unique:
    """Whether the puzzle being solved has exactly one solution, as the uniqueness techniques need:
    ``known`` when the caller says so, else counted once (up to two solutions), when a uniqueness
    finder is first reached. Variant boards never use them (``start`` None)."""

    def __init__(self, start: Candidates | None, known: bool | None) -> None:
        self.start = start
        self.known = known if start is not None else False

    def proved(self) -> bool:
        if self.known is None:
            self.known = self.start is not None and count_solutions(self.start, 2) == 1
        return self.known

    def gate(self, finder: Finder) -> Finder:
        """``finder``, run only once the puzzle is known to be unique (None otherwise)."""

        def gated(st: Candidates, ctx: _Ctx) -> Step | None:
            return finder(st, ctx) if self.proved() else None

        return gated


#: The rows whose finder a grader version replaces: from version 4 the nice-loop and AIC rows both make
#: HoDoKu's choice among every nice loop and AIC on boards up to 9x9
#: (:mod:`~pipeline.difficulty.loop_choice`); from version 5 the X-chain, XY-chain and turbot fish rows
#: make HoDoKu's choice too, a pair or triple inside a box and a line is locked only when it removes
#: candidates from both (:func:`~pipeline.difficulty.basic._naked_subset`), and the skyscraper is searched
#: in HoDoKu's order; from version 6 the unique rectangles and the hidden rectangle take HoDoKu's
#: rectangles with missing candidates and its Test 4 rule (:mod:`~pipeline.difficulty.uniqueness`).
_FINDERS_FROM: dict[int, dict[str, Finder]] = {
    4: {"discontinuous_nice_loop": nice_loop_4, "aic": aic_4},
    5: {"turbot_fish": _turbot_fish_5, "x_chain": _x_chain_5, "xy_chain": _xy_chain_5, "skyscraper": _skyscraper_5,
        "discontinuous_nice_loop": nice_loop_5, "continuous_nice_loop": nice_loop_5, "aic": aic_5,
        "locked_pair": lambda st, ctx: _naked_subset(st, 2, True, hodoku=True),
        "locked_triple": lambda st, ctx: _naked_subset(st, 3, True, hodoku=True),
        "naked_pair": lambda st, ctx: _naked_subset(st, 2, False, hodoku=True),
        "naked_triple": lambda st, ctx: _naked_subset(st, 3, False, hodoku=True)},
    6: {**{f"uniqueness_{k}": _uniqueness_finder(k, hodoku=True) for k in (1, 2, 3, 4, 5, 6)},
        "hidden_rectangle": hidden_rectangle_6}}


def _finder_of(t: str, grader: int) -> Finder:
    for version in sorted(_FINDERS_FROM, reverse=True):
        if grader >= version and t in _FINDERS_FROM[version]:
            return _FINDERS_FROM[version][t]
    return _FINDERS[t]


def _finder_list(names: Sequence[str], guess: _Guesser, unique: _Unique,
                 grader: int = GRADER_VERSION) -> list[tuple[str, Finder]]:
    return [(t, guess if t == "trial_and_error" else unique.gate(_finder_of(t, grader)) if t in UNIQUENESS
             else _finder_of(t, grader)) for t in names]


def _unique_for(st: Candidates, unique: bool | None) -> _Unique:
    return _Unique(st.copy() if st.geo.classic else None, unique)


def find_step(st: Candidates, technique: str, unique: bool | None = None) -> Step | None:
    """The first instance of ``technique`` in state ``st`` that makes progress, or None (state unchanged).

    ``unique``: whether ``st`` has one solution (None: counted when a uniqueness technique asks)."""
    if technique == "trial_and_error":
        return _Guesser()(st, _Ctx(st))
    if technique not in _FINDERS:
        raise ValueError(f"unknown technique {technique!r}")
    return _finder_list([technique], _Guesser(), _unique_for(st, unique))[0][1](st, _Ctx(st))


def next_step(st: Candidates, max_technique: str | None = None, unique: bool | None = None,
              grader: int = GRADER_VERSION) -> Step | None:
    """The step a human guide would take next: the first technique of grader ``grader``'s order (up to
    ``max_technique``) that makes progress in ``st``; None if none does. ``st`` is not modified.
    ``unique`` as for :func:`find_step`."""
    allowed = _allowed(max_technique, bool(st.variant.cages), grader)
    return _next(st, _finder_list(allowed, _Guesser(), _unique_for(st, unique), grader))


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
#: Boards of this side and larger take the compiled kernels from the first solve: one pure-Python
#: solve of a hard 16x16 puzzle costs more than loading them.
AUTO_COMPILE_SIDE = 16
_solves = 0


def _use_kernels(compiled: bool | None, n: int = 9) -> bool:
    global _solves
    if compiled is not None:
        return compiled
    _solves += 1
    return _solves > AUTO_COMPILE_AFTER or n >= AUTO_COMPILE_SIDE


#: The rows whose compiled probe a grader version replaces, by version: the probe of row ``t`` is then
#: ``f"{t}_{version}"`` in :data:`pipeline.difficulty.logic_jit.PROBED`.
_PROBES_FROM: dict[int, tuple[str, ...]] = {5: ("locked_pair", "locked_triple", "naked_pair", "naked_triple")}


def _probe_name(t: str, grader: int) -> str:
    """The name of the compiled probe for row ``t`` under grader ``grader``."""
    for version in sorted(_PROBES_FROM, reverse=True):
        if grader >= version and t in _PROBES_FROM[version]:
            return f"{t}_{version}"
    return t


def _kernel(n: int, after_singles: tuple[str, ...]) -> Kernel:
    from pipeline.difficulty import logic_jit  # lazy: numba is loaded only when the kernels are used

    return logic_jit.Kernel(n, logic_jit.codes_for(after_singles))


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
    ctx.cache["jit"] = True  # the finders with a compiled twin (the loops) may use it
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
    unique: bool | None = None,
    grader: int = GRADER_VERSION,
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
    :mod:`pipeline.difficulty.logic_jit`; ``compiled=False`` is the pure-Python reference; ``None``
    (default) picks by :data:`AUTO_COMPILE_AFTER` and :data:`AUTO_COMPILE_SIDE`. All give the same result, step for step
    (``tests/difficulty/test_logic_jit.py``); only the speed differs.

    ``variant`` (None = classic) solves on that variant's board (:func:`pipeline.board.board`): every
    technique uses its units and peers, as described in :mod:`pipeline.difficulty.grade`. A non-classic
    variant always runs the pure-Python solver (the kernels know only the classic geometry), whatever
    ``compiled`` says, and does not count towards :data:`AUTO_COMPILE_AFTER`. Killer cage sums are used
    by the killer rows (:mod:`.killer`), which are skipped on boards without cages; trial and error's own
    search ignores the sums (a ``solution`` that keeps them is used first).

    ``unique`` says whether the puzzle has exactly one solution, which the uniqueness techniques
    (:data:`~pipeline.difficulty.techniques.UNIQUENESS`) assume: ``True`` (e.g. a certified puzzle)
    lets them run, ``False`` skips them, ``None`` (default) counts the solutions of the starting state
    (up to two) the first time one of them is reached, so a puzzle with several solutions never uses
    them. Variant boards never use them.

    ``grader`` is the grader version whose technique order the solver follows
    (:data:`~pipeline.difficulty.techniques.ORDERS`; a set keeps the version it began with); raises
    ``ValueError`` for a version this code does not hold.
    """
    allowed = _allowed(max_technique, variant is not None and bool(variant.cages), grader)
    classic = variant is None or variant.classic
    try:
        st = Candidates.from_grid(puzzle, eliminated) if classic else Candidates.from_grid(puzzle, eliminated, variant)
    except Contradiction:
        return LogicResult(solved=False, grid=tuple(puzzle), stuck=True, contradiction=True)
    guess = _Guesser(solution, st.n, st.geo)
    finders = _finder_list(allowed, guess, _unique_for(st, unique), grader)
    steps: list[Step] = []
    probes = tuple(_probe_name(t, grader) for t in allowed[2:])
    kernel = _kernel(st.n, probes) if classic and _use_kernels(compiled, st.n) else None
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
