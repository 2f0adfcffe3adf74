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
  grader version a set began with (``grader``, its :class:`~pipeline.difficulty.techniques.Rulebook`); the
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
  (:mod:`.killer.cages`, cage sums) are tried only on boards with cages. Which
  technique does what there, and why each stays sound, is listed in :mod:`pipeline.difficulty.grade`.
  Variants run in pure Python only (the compiled kernels are classic).

Public API (:data:`__all__`): :func:`solve_logically`, :func:`next_step`, :func:`find_step`,
:func:`search_solution`, :class:`Candidates`, :class:`Step`, :class:`LogicResult`,
:class:`Contradiction`, :data:`TECHNIQUE_ORDER`, :data:`TITLES`, and the namers :func:`cell_name`,
:func:`unit_name`, :func:`digit_name`. This module is the solve loop; the rest lives beside it:

* :mod:`.candidates`: the candidate state, the step, the geometry tables and the namers;
* the finders, one sub-package per family: :mod:`.basic` (singles, intersections, subsets),
  :mod:`.fish`, :mod:`.patterns` (skyscraper, kite, turbot fish, empty rectangle; the wings),
  :mod:`.chains` (remote pairs, colours, X-/XY-chains; nice loops, AICs, forcing chains and nets; the
  chain engine, HoDoKu's choice of nice loop and AIC; grouped loops), :mod:`.als` (almost locked sets,
  Sue de Coq), :mod:`.uniqueness` (unique rectangles, hidden rectangle, BUG+1), :mod:`.killer`;
  :mod:`.trial` (trial and error);
* :mod:`.techniques`: the technique registry and one rulebook per held grader version: the driver takes
  every finder (:func:`finders_of`) and compiled probe from them, never from a list of its own;
  :data:`TECHNIQUE_ORDER` and :data:`TITLES` are re-exported from it;
* :mod:`.logic_jit`: the compiled kernels (singles and probes) of ``compiled=True``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, cast

from pipeline.board import Grid, Variant, size_of_grid
from pipeline.compiled import use_compiled
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
from pipeline.difficulty.techniques import (
    CAGES,
    GRADER_VERSION,
    NOT_IN_SOLVER,
    TECHNIQUE_ORDER,
    TECHNIQUES,
    TITLES,
    UNIQUENESS,
    order_of,
    rulebook,
)
from pipeline.difficulty.trial import _Guesser, count_state_solutions, search_solution

if TYPE_CHECKING:
    from pipeline.difficulty.logic_jit import Kernel

__all__ = [
    "TECHNIQUE_ORDER",
    "TITLES",
    "Cancelled",
    "Candidates",
    "Contradiction",
    "LogicResult",
    "Step",
    "cancel_when",
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


@cache
def finder_at(ref: str) -> Finder:
    """The finder a registry entry or rulebook names: ``"module:function"`` inside :mod:`pipeline.difficulty`
    (imported on first use). Raises ValueError for a reference that names nothing."""
    module, _, name = ref.partition(":")
    try:
        return cast(Finder, getattr(import_module(f"pipeline.difficulty.{module}"), name))
    except (ImportError, AttributeError):
        raise ValueError(f"no finder {ref!r} (a registry or rulebook reference, module:function)") from None


@cache
def finders_of(grader: int) -> dict[str, Finder]:
    """name -> finder of every technique of grader ``grader``'s order but ``trial_and_error``, in that
    order (its :class:`~pipeline.difficulty.techniques.Rulebook`, else the registry's)."""
    rules = rulebook(grader)
    return {t: finder_at(cast(str, rules.finder(t))) for t in rules.order if t != "trial_and_error"}


def finder_of(t: str, grader: int = GRADER_VERSION) -> Finder:
    """The finder of technique ``t`` under grader ``grader``'s rules."""
    return finders_of(grader)[t]


#: name -> finder of :data:`TECHNIQUE_ORDER` (the registry's, grader :data:`GRADER_VERSION`'s) but
#: ``trial_and_error``, in that order.
_FINDERS = finders_of(GRADER_VERSION)


def _allowed(max_technique: str | None, cages: bool = False, grader: int = GRADER_VERSION) -> list[str]:
    """The techniques up to ``max_technique``, in grader ``grader``'s order; the killer rows only when
    the board has ``cages``; never the rows HoDoKu's solver leaves out
    (:data:`~pipeline.difficulty.techniques.NOT_IN_SOLVER`)."""
    order = order_of(grader)
    if max_technique is not None and max_technique not in order:
        raise ValueError(f"unknown technique {max_technique!r} (one of {', '.join(order)})")
    upto = order if max_technique is None else order[: order.index(max_technique) + 1]
    return [t for t in upto if (cages or t not in CAGES) and t not in NOT_IN_SOLVER]


class _Unique:
    """Whether the puzzle being solved has exactly one solution, as the uniqueness techniques need:
    ``known`` when the caller says so, else counted once (up to two solutions), when a uniqueness
    finder is first reached. Variant boards never use them (``start`` None)."""

    def __init__(self, start: Candidates | None, known: bool | None) -> None:
        self.start = start
        self.known = known if start is not None else False

    def proved(self) -> bool:
        if self.known is None:
            self.known = self.start is not None and count_state_solutions(self.start, 2) == 1
        return self.known

    def gate(self, finder: Finder) -> Finder:
        """``finder``, run only once the puzzle is known to be unique (None otherwise)."""

        def gated(st: Candidates, ctx: _Ctx) -> Step | None:
            return finder(st, ctx) if self.proved() else None

        return gated


def _finder_list(names: Sequence[str], guess: _Guesser, unique: _Unique,
                 grader: int = GRADER_VERSION) -> list[tuple[str, Finder]]:
    found = finders_of(grader)
    return [(t, guess if t == "trial_and_error" else unique.gate(found[t]) if t in UNIQUENESS
             else found[t]) for t in names]


def _unique_for(st: Candidates, unique: bool | None) -> _Unique:
    return _Unique(st.copy() if st.geo.classic else None, unique)


def find_step(st: Candidates, technique: str, unique: bool | None = None) -> Step | None:
    """The first instance of ``technique`` in state ``st`` that makes progress, or None (state unchanged).

    ``unique``: whether ``st`` has one solution (None: counted when a uniqueness technique asks)."""
    if technique == "trial_and_error":
        return _Guesser()(st, _Ctx(st))
    if technique not in TECHNIQUES:
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


def _use_kernels(compiled: bool | None, n: int = 9) -> bool:
    """``compiled`` when given, else what :func:`pipeline.compiled.use_compiled` decides."""
    return use_compiled(n) if compiled is None else compiled


#: The singles the compiled kernels place themselves (:meth:`~.logic_jit.Kernel.advance`), by name, in the
#: order a rulebook must begin with for the kernels to run it.
KERNEL_SINGLES: tuple[str, ...] = ("naked_single", "hidden_single")


@cache
def _walked(grader: int, allowed: tuple[str, ...]) -> tuple[tuple[str, str | None], ...] | None:
    """``(technique, probe name or None)`` of every allowed technique after the singles the kernels place,
    in grader ``grader``'s order: what :meth:`~.logic_jit.Kernel.walk` walks; None when ``allowed`` does not
    begin with :data:`KERNEL_SINGLES` (or a prefix of it), so the kernels cannot run that order."""
    head = allowed[: len(KERNEL_SINGLES)]
    if not head or head != KERNEL_SINGLES[: len(head)]:
        return None
    rules = rulebook(grader)
    return tuple((t, rules.probe(t)) for t in allowed[len(KERNEL_SINGLES):])


def _kernel(n: int, walked: tuple[tuple[str, str | None], ...], hidden: bool) -> Kernel:
    """The compiled kernels of one solve: the singles (hidden ones with ``hidden``), then the probes of
    ``walked`` (:func:`_walked`), each technique paired with its probe by name."""
    from pipeline.difficulty import logic_jit  # lazy: numba is loaded only when the kernels are used

    return logic_jit.Kernel(n, walked, hidden)


#: The environment variable that makes twin drift fail: with ``NUMPLACE_STRICT_TWINS=1`` (the test session
#: sets it, tests/conftest.py) a compiled probe that says a technique applies where its Python finder
#: finds nothing raises :class:`TwinDrift`; otherwise the driver falls back on the Python search (the
#: path stays the reference's) and the solve goes on. Read when it happens (never, if the twins agree).
STRICT_TWINS_ENV = "NUMPLACE_STRICT_TWINS"


class TwinDrift(AssertionError):
    """A compiled probe and its Python finder disagree (raised only with :data:`STRICT_TWINS`)."""


class Cancelled(Exception):
    """A solve stopped by its thread's cancel check (:func:`cancel_when`); it returns nothing."""


_cancel = threading.local()


@contextmanager
def cancel_when(check: Callable[[], bool]) -> Iterator[None]:
    """Inside the block, :func:`solve_logically` on this thread calls ``check()`` before each step and
    raises :class:`Cancelled` once it is True (a page that went away stops its grade within a step,
    not at its end). Other threads' solves are not affected; nothing else changes (a solve that is not
    cancelled gives the same path). Blocks nest: the innermost check applies."""
    before = getattr(_cancel, "check", None)
    _cancel.check = check
    try:
        yield
    finally:
        _cancel.check = before


_SINGLES: dict[int, dict[int, Step]] = {}


def _single(n: int, key: int) -> Step:
    """The step of the single ``key`` (:meth:`~.logic_jit.Kernel.advance`: cell, digit and unit, ``unit = -1``
    for a naked single) on an ``n`` x ``n`` board, exactly as :func:`_naked_single` / :func:`_hidden_single`
    word it (steps are immutable: shared)."""
    from pipeline.difficulty.logic_jit import single_of  # lazy, as in _kernel

    cell, d, unit = single_of(n, key)
    if unit < 0:
        step = Step("naked_single", (cell,), placements=((cell, d),), digits=(d,), detail=f"in {cell_name(cell, n)}")
    else:
        step = Step("hidden_single", (cell,), placements=((cell, d),), digits=(d,), units=(unit,),
                    detail=f"for {digit_name(d)} in {unit_name(unit, n)}")
    _SINGLES.setdefault(n, {})[key] = step
    return step


def _compiled_next(st: Candidates, finders: dict[str, Finder], steps: list[Step], kernel: Kernel,
                   loose: frozenset[str] = frozenset()) -> Step | None:
    """One round of the compiled driver: place every single (appended to ``steps`` and applied to
    ``st``), then return the next step exactly as :func:`_next` would find it, or None (the board is
    full, or nothing applies).

    ``finders``: technique -> finder, every allowed technique; ``kernel`` probes the techniques it names
    (``kernel.walked``, those after the singles, in the solver's order) and stops at the first one that
    applies (or that it cannot probe); the finder of that name then gives the step. A probe that says yes
    where its finder finds nothing raises :class:`TwinDrift` under tests (:data:`STRICT_TWINS_ENV`), unless
    the rulebook calls it ``loose``.
    """
    values, cand, placed, pos = kernel.advance(st.values, st.cand)
    st.values, st.cand = values, cand
    if placed:
        n = st.n
        known = _SINGLES.get(n, {})
        steps.extend([known.get(k) or _single(n, k) for k in placed])
    if st.is_solved():
        return None
    walked = kernel.walked
    ctx = _Ctx(st)
    ctx.cache["jit"] = True  # the finders with a compiled twin (the loops) may use it
    while pos < len(walked):
        name, probe = walked[pos]
        step = finders[name](st, ctx)
        if step is not None:
            return step
        if probe is not None:  # the probe said yes, the finder no: a kernel bug
            if os.environ.get(STRICT_TWINS_ENV) == "1" and name not in loose:
                raise TwinDrift(f"the compiled probe of {name} found a step its finder does not, in "
                                f"{st.grid()} (candidates {st.cand})")
            return _next(st, [(t, finders[t]) for t, _ in walked])  # outside tests: trust the Python search
        pos = kernel.walk(pos + 1)
    return None


def _start(puzzle: Grid, eliminated: Iterable[tuple[int, int]], variant: Variant | None,
           kernel: Kernel | None) -> Candidates:
    """The starting state of ``puzzle`` (:meth:`Candidates.from_grid`); a classic puzzle without
    eliminations that the kernels solve gets its candidates from them (the same masks). Raises
    :class:`Contradiction` when givens clash."""
    if kernel is not None and eliminated == ():
        got = kernel.start(puzzle)
        if got is not None:
            values, cand, given = got
            return Candidates(kernel.n, values, cand, given=given)
    return Candidates.from_grid(puzzle, eliminated) if variant is None else Candidates.from_grid(puzzle, eliminated,
                                                                                                 variant)


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
    (default) is what :func:`pipeline.compiled.use_compiled` decides. All give the same result, step for step
    (``tests/difficulty/test_logic_jit.py``); only the speed differs.

    ``variant`` (None = classic) solves on that variant's board (:func:`pipeline.board.board`): every
    technique uses its units and peers, as described in :mod:`pipeline.difficulty.grade`. A non-classic
    variant always runs the pure-Python solver (the kernels know only the classic geometry), whatever
    ``compiled`` says. Killer cage sums are used
    by the killer rows (:mod:`.killer.cages`), which are skipped on boards without cages; trial and error's own
    search ignores the sums (a ``solution`` that keeps them is used first).

    ``unique`` says whether the puzzle has exactly one solution, which the uniqueness techniques
    (:data:`~pipeline.difficulty.techniques.UNIQUENESS`) assume: ``True`` (e.g. a certified puzzle)
    lets them run, ``False`` skips them, ``None`` (default) counts the solutions of the starting state
    (up to two) the first time one of them is reached, so a puzzle with several solutions never uses
    them. Variant boards never use them.

    Inside :func:`cancel_when`, raises :class:`Cancelled` before a step once its check is True.

    ``grader`` is the grader version whose technique order the solver follows
    (:data:`~pipeline.difficulty.techniques.ORDERS`; a set keeps the version it began with); raises
    ``ValueError`` for a version this code does not hold.
    """
    allowed = _allowed(max_technique, variant is not None and bool(variant.cages), grader)
    classic = variant is None or variant.classic
    n = size_of_grid(puzzle)
    walked = _walked(grader, tuple(allowed)) if classic and _use_kernels(compiled, n) else None
    kernel = _kernel(n, walked, "hidden_single" in allowed) if walked is not None else None
    try:
        st = _start(puzzle, eliminated, variant if not classic else None, kernel)
    except Contradiction:
        return LogicResult(solved=False, grid=tuple(puzzle), stuck=True, contradiction=True)
    guess = _Guesser(solution, st.n, st.geo)
    finders = _finder_list(allowed, guess, _unique_for(st, unique), grader)
    steps: list[Step] = []
    loose = rulebook(grader).loose
    by_name = dict(finders)
    cancelled = getattr(_cancel, "check", None)
    while not st.is_solved():
        if cancelled is not None and cancelled():
            raise Cancelled
        step = _compiled_next(st, by_name, steps, kernel, loose) if kernel is not None else _next(st, finders)
        if st.is_solved():
            break  # the compiled singles finished the board
        if step is None:
            dead = guess.no_solution or st.contradiction()
            return LogicResult(solved=False, grid=st.grid(), steps=steps, stuck=True, contradiction=dead)
        st.apply(step)
        steps.append(step)
    return LogicResult(solved=True, grid=st.grid(), steps=steps)
