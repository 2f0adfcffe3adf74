"""Grading one puzzle as ``numplace rate`` does: only a puzzle with exactly one solution is graded.

:func:`rate` is the one implementation behind ``numplace rate`` and the studio's Solve page. The
solver decides first (exact search; the ILP only where its budgets run out) and says why there is no
solution; its solution spares the grader's trial-and-error search. A grade along one of several
solutions would mean nothing, so a puzzle that is not unique raises :class:`NotGradable` with one
line saying why.
"""

from __future__ import annotations

from pipeline.board import Grid, Variant
from pipeline.difficulty import grade
from pipeline.solve import solver


class NotGradable(ValueError):
    """The puzzle has no solution, several, or the solver hit its time limit (the message says which)."""


def rate(puzzle: Grid, variant: Variant | None = None) -> grade.Grade:
    """The grade of ``puzzle`` under ``variant`` (None: classic); raises :class:`NotGradable`."""
    checked = solver.solve(puzzle, variant=variant)
    if checked.status == "multiple":
        raise NotGradable("cannot grade: not unique: 2+ solutions")
    if checked.status == "none":
        reason = checked.reason
        raise NotGradable(f"cannot grade: no solution{f': {reason}' if reason else ''}")
    if checked.status != "unique" or checked.solution is None:
        raise NotGradable("cannot grade: the solver hit its time limit; uniqueness not decided")
    if variant is None or variant.classic:
        return grade.grade(puzzle, checked.solution)
    return grade.grade(puzzle, checked.solution, variant=variant)


#: The singles: a path of them alone has no key step.
SINGLES = frozenset({"naked_single", "hidden_single"})


def key_step(g: grade.Grade) -> int | None:
    """Index (0-based) of the grade's *key step*: the first step of its hardest technique (the last of
    ``g.techniques``), which the solver takes only once no easier technique applies; None for an empty
    path or a path of singles only (no step there waits for an easier one). A puzzle made for a technique
    (``difficulty.technique``) has that technique hardest."""
    if not g.techniques or g.techniques[-1] in SINGLES:
        return None
    hardest = g.techniques[-1]
    return next((k for k, s in enumerate(g.steps) if s.technique == hardest), None)
