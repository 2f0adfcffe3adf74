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
"""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.difficulty.candidates import Step
from pipeline.difficulty.grade import Grade
from pipeline.difficulty.techniques import LEVELS, ORDERS, TECHNIQUES
from pipeline.generate import steer

#: What a path that does not use the target adds to its distance (more than any few harder steps weigh).
NOT_USED = 1000.0


def key(name: str, grader: int) -> tuple[int, float, int]:
    """The order of techniques (easiest first): level, weight, then the solver order of ``grader``
    (a row the version lacks sorts last)."""
    t = TECHNIQUES[name]
    order = ORDERS[grader]
    return LEVELS.index(t.level), t.weight, order.index(name) if name in order else len(order)


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


def miss(g: Grade, names: Sequence[str], grader: int) -> steer.Miss:
    """How far the grade ``g`` is from a puzzle made for one of ``names`` (module docstring)."""
    if made_for_grade(g, names, grader) is not None:
        return 0, 0.0
    return min(_miss_one(g, name, grader) for name in names)


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
    return 2, float(harder) + (0.0 if used else NOT_USED)
