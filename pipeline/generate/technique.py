"""Steering toward a technique (``difficulty: {technique: NAME}``): the loss the local search of
:mod:`pipeline.generate.steer` climbs, and the check that a graded puzzle was made for the target.

What "made for" means (:func:`made_for`: the hardest step by :func:`key`, ties, the key step) is
stated in :mod:`pipeline.config.technique`, which checks the names a config gives; this module says
whether a path was made for a target and how far a grade is from it, so that the same local search that reaches a level
(blank a given orbit, fill a blank one, re-minimise, keep the candidate when it is no farther) reaches
a technique. :func:`miss` is lexicographic, smaller is closer, ``(0, 0.0)`` exactly when
:func:`made_for` names a target:

* off the target's level: ``(2 + 2 * levels away, s)``, ``s`` the level steering's own score term
  (:func:`pipeline.generate.steer.miss`): first get to the right level;
* on it, the target used and nothing harder, but not made for it (no placement before the key step):
  ``(1, 0.0)``;
* on it otherwise: ``(2, w)``, ``w`` the weight of the steps harder than the target plus 1000 when the
  target is not used: fewer harder steps are closer, and a path that uses the target closer still.

Several names: the nearest of them.

From generator version 5 (:data:`pipeline.generate.version.PASSED_TARGET_CLIMB`) a target of :data:`PASSED`
(Simple Colors) also ranks the paths on its level that do not use it: a path that passed a state where
the target had a step but a row of the same level took the state first is nearer than one that never
met it, by :data:`PASSED_BY` (:data:`PASSED_BY_LONG` when the target's step there spans
:data:`LONG_STEP` cells or more: a colour chain longer than the single-digit patterns tried before it).
:func:`rater` with ``passed`` finds those states (:class:`Passed`, :func:`passed_by`); every other
rank is unchanged.

From generator version 4 (:data:`pipeline.generate.version.CAPPED_TECHNIQUE_CLIMB`) the climb grades each
candidate only up to the target (:func:`rater`: the solver's ``max_technique`` cut-off at :func:`cap`,
the last row of the solver order no harder than the target). A path that the cut-off finishes is the
whole path, step for step (the solver takes the first row that applies, and every row it tried comes
before the cut-off), so its grade is the full grade; a path that the cut-off leaves unfinished needs a
row past the cut-off, which is harder than every target, so the puzzle is not made for it and the
chains, ALS and forcing searches past the target are never run on it. Such a candidate
(:class:`Unfinished`) and a full grade whose path takes a row past the cut-off are both *past the
target*, and :func:`miss` with ``capped=True`` ranks them ``(3, o)`` (between a path on the target's
level and one a level off), ``o`` the cells still open where the path first needs a row past the
cut-off, plus :data:`NOT_USED` when the target was not used before that: a puzzle whose easy part
goes further, and takes the target on the way, is closer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from pipeline.board import Grid, Variant
from pipeline.difficulty.candidates import Candidates, Step
from pipeline.difficulty.grade import Grade, grade_result, score_steps
from pipeline.difficulty.logic import find_step, solve_logically
from pipeline.difficulty.techniques import LEVELS, ORDERS, TECHNIQUES, UNRATED
from pipeline.generate import steer

#: What a path that does not use the target adds to its distance (more than any few harder steps weigh).
NOT_USED = 1000.0
#: The targets whose climb (generator 5 on) ranks how near a path that does not use them came to it
#: (module docstring): Simple Colors, a longer form of the single-digit patterns the solver tries first,
#: which take most states where it has a step (``docs/difficulty.md``).
PASSED: frozenset[str] = frozenset({"simple_colors"})
#: How much nearer (taken off :data:`NOT_USED`) a path is that passed a state where the target had a step.
PASSED_BY = 300.0
#: The same when the target's step there spans at least :data:`LONG_STEP` cells.
PASSED_BY_LONG = 600.0
#: Cells from which a passed step counts as long (a chain past the four cells of a turbot fish's).
LONG_STEP = 6


@cache
def key(name: str, grader: int) -> tuple[int, float, int]:
    """The order of techniques (easiest first): level, weight, then the solver order of ``grader``
    (a row the version lacks sorts last). Cached: the climb asks it for every step of every candidate."""
    t = TECHNIQUES[name]
    order = ORDERS[grader]
    return LEVELS.index(t.level), t.weight, order.index(name) if name in order else len(order)


def cap(names: Sequence[str], grader: int) -> str:
    """The solver's cut-off for a climb toward ``names``: the last row of grader ``grader``'s solver order
    whose :func:`key` is no harder than the hardest of ``names`` (every row after it is harder than each
    of them)."""
    return _cap(tuple(names), grader)


@cache
def _cap(names: tuple[str, ...], grader: int) -> str:
    top = max(key(n, grader) for n in names)
    return [t for t in ORDERS[grader] if key(t, grader) <= top][-1]


@dataclass
class Unfinished(Grade):
    """What :func:`rater` returns for a candidate its cut-off left unfinished: ``level`` is
    :data:`~pipeline.difficulty.techniques.UNRATED`, ``steps`` the path up to where it stopped, ``open``
    the cells then still blank. Never written: the climb's own judge reads it, and a climb that ends on
    one grades the puzzle in full."""

    open: int = 0


@dataclass
class Passed(Grade):
    """A full grade from :func:`rater` with ``passed``: a path on the target's level that does not use a
    target of :data:`PASSED` but passed states where it had a step; ``near`` is what :func:`miss` takes
    off :data:`NOT_USED` (:func:`passed_by`). Never written: the climb's own judge reads it."""

    near: float = 0.0


#: The ``reason`` of an :class:`Unfinished` grade.
PAST_TARGET = "needs a technique harder than the target (graded up to the target only)"


def passed_by(puzzle: Grid, steps: Sequence[Step], names: Sequence[str], variant: Variant) -> float:
    """How near the path ``steps`` of ``puzzle`` came to a target of ``names`` in :data:`PASSED`: replayed
    step by step, at every state a row of the target's level took, whether the target had a step there;
    :data:`PASSED_BY_LONG` if one such step spans :data:`LONG_STEP` cells or more, else :data:`PASSED_BY`
    if any, else 0."""
    wanted = [n for n in names if n in PASSED]
    if not wanted:
        return 0.0
    st = Candidates.from_grid(puzzle) if variant.classic else Candidates.from_grid(puzzle, variant=variant)
    near = 0.0
    for s in steps:
        if s.technique not in wanted and any(TECHNIQUES[s.technique].level == TECHNIQUES[n].level for n in wanted):
            for n in wanted:
                found = find_step(st, n, unique=variant.classic)
                if found is not None:
                    near = max(near, PASSED_BY_LONG if len(found.cells) >= LONG_STEP else PASSED_BY)
            if near == PASSED_BY_LONG:
                break
        st.apply(s)
    return near


def rater(solution: Grid, variant: Variant, names: Sequence[str], grader: int,
          passed: bool = False) -> Callable[[Grid], Grade]:
    """The climb's grader toward ``names`` (module docstring): the full grade of a puzzle whose path
    stays within :func:`cap`, else an :class:`Unfinished` one. Same arguments as the generator's full
    grader (a classic puzzle is known unique; a variant's grade runs the Python solver). ``passed``
    (generator 5 on): a full grade on the level of a target of :data:`PASSED` whose path does not use
    it is a :class:`Passed` one when :func:`passed_by` finds it came near."""
    last = cap(names, grader)
    classic = variant.classic
    watch = passed and any(n in PASSED for n in names)
    levels = {TECHNIQUES[n].level for n in names if n in PASSED}

    def rate(puzzle: Grid) -> Grade:
        if classic:
            r = solve_logically(puzzle, max_technique=last, solution=solution, unique=True, grader=grader)
        else:
            r = solve_logically(puzzle, max_technique=last, solution=solution, compiled=False, variant=variant,
                                grader=grader)
        if r.solved:
            g = grade_result(r)
            if watch and g.level in levels and not any(s.technique in names for s in g.steps):
                near = passed_by(puzzle, g.steps, names, variant)
                if near:
                    return Passed(level=g.level, score=g.score, techniques=g.techniques, logic_steps=g.logic_steps,
                                  steps=g.steps, n=g.n, guesses=g.guesses, reason=g.reason, near=near)
            return g
        steps = list(r.steps)
        return Unfinished(level=UNRATED, score=score_steps(steps), techniques=sorted({s.technique for s in steps}),
                          logic_steps=len(steps), steps=steps, n=r.n, reason=PAST_TARGET,
                          open=sum(1 for d in r.grid if not d))

    return rate


def key_step(steps: Sequence[Step], name: str) -> int | None:
    """Index (0-based) of the first step of ``name`` in ``steps`` (the key step), or None."""
    return next((k for k, s in enumerate(steps) if s.technique == name), None)


def hardest(steps: Sequence[Step], grader: int) -> str | None:
    """The hardest technique of ``steps`` by :func:`key` (None for an empty path)."""
    used = {s.technique for s in steps}
    return max(used, key=lambda t: key(t, grader)) if used else None


def made_for(steps: Sequence[Step], level: str, guesses: int, names: Sequence[str], grader: int) -> str | None:
    """The name of ``names`` this graded path (``steps``, its ``level``, its trial-and-error ``guesses``)
    was made for by the module's rule, or None."""
    if guesses or level not in LEVELS:
        return None
    top = hardest(steps, grader)
    if top is None or top not in names or TECHNIQUES[top].level != level:
        return None
    first = key_step(steps, top)
    if first is None or not any(s.placements for s in steps[:first]):
        return None
    return top


def made_for_grade(g: Grade, names: Sequence[str], grader: int) -> str | None:
    """:func:`made_for` of a grade."""
    return made_for(g.steps, g.level, g.guesses, names, grader)


def miss(g: Grade, names: Sequence[str], grader: int, capped: bool = False) -> steer.Miss:
    """How far the grade ``g`` is from a puzzle made for one of ``names`` (module docstring);
    ``capped``: the rule of generator version 4 on, where a path past :func:`cap` ranks ``(3, o)``."""
    if made_for_grade(g, names, grader) is not None:
        return 0, 0.0
    if capped:
        past = _past(g, names, grader)
        if past is not None:
            return past
    return min(_miss_one(g, name, grader) for name in names)


def _past(g: Grade, names: Sequence[str], grader: int) -> steer.Miss | None:
    """``(3, o)`` for a path that needs a row past :func:`cap` (module docstring), else None."""
    rank = _ranks(grader)
    last = rank[cap(names, grader)]
    if isinstance(g, Unfinished):
        before, open_ = g.steps, g.open
    else:
        beyond = next((k for k, s in enumerate(g.steps) if rank.get(s.technique, len(rank)) > last), None)
        if beyond is None:
            return None
        before = g.steps[:beyond]
        open_ = sum(1 for s in g.steps[beyond:] for _ in s.placements)
    used = any(s.technique in names for s in before)
    return 3, float(open_) + (0.0 if used else NOT_USED)


@cache
def _ranks(grader: int) -> dict[str, int]:
    """technique -> its place in grader ``grader``'s solver order."""
    return {t: k for k, t in enumerate(ORDERS[grader])}


def _miss_one(g: Grade, name: str, grader: int) -> steer.Miss:
    level = TECHNIQUES[name].level
    away, s = steer.miss(g, (level,), None, None)
    if away:
        return 2 + 2 * away, s
    top = key(name, grader)
    harder = sum(TECHNIQUES[st.technique].weight for st in g.steps if key(st.technique, grader) > top)
    used = any(st.technique == name for st in g.steps)
    if used and not harder and not g.guesses:
        return 1, 0.0
    near = g.near if isinstance(g, Passed) and name in PASSED else 0.0
    return 2, float(harder) + (0.0 if used else NOT_USED - near)
