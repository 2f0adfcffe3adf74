"""Difficulty grade of a puzzle from its human-style solve path (after HoDoKu's rating).

:func:`grade` solves the puzzle with :func:`pipeline.difficulty.logic.solve_logically` (easiest technique
first, restarting from the singles after every step) and rates the path the way HoDoKu does:

* **score** = sum over the steps of the technique's weight (HoDoKu's default "base score" per
  step, ``Options.DEFAULT_SOLVER_STEPS``);
* **level** = the level of the hardest technique used, then raised while the score exceeds that
  level's maximum score (HoDoKu's ``DifficultyLevel`` limits: Easy 800, Medium 1000, Hard 1600,
  Unfair 1800, Extreme unbounded; for 16x16 these limits are scaled by 256/81, see :func:`max_score`).

Our level names map to HoDoKu's in order: ``easy`` = Easy, ``medium`` = Medium, ``hard`` = Hard,
``expert`` = Unfair, ``extreme`` = Extreme.

The levels, weights and HoDoKu names of the techniques, with the differences from HoDoKu, are the
table in :mod:`pipeline.difficulty.techniques`; :data:`TECHNIQUES`, :data:`LEVELS`, :data:`HODOKU_LEVELS`,
:data:`MAX_SCORE` and :class:`Technique` are re-exported from there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from pipeline.board import Grid
from pipeline.difficulty.logic import LogicResult, Step, cell_name, digit_name, solve_logically
from pipeline.difficulty.techniques import HODOKU_LEVELS, LEVELS, MAX_SCORE, TECHNIQUE_ORDER, TECHNIQUES, TITLES
from pipeline.difficulty.techniques import (
    Technique as Technique,  # re-exported (as are the table and levels): this module's API
)


def difficulty_key(name: str) -> tuple[int, float, int]:
    """Sort key of a technique, easiest first: level, then weight, then solver order."""
    t = TECHNIQUES[name]
    return (LEVELS.index(t.level), t.weight, TECHNIQUE_ORDER.index(name))


@dataclass
class Grade:
    """The grade of one puzzle.

    ``level``: one of :data:`LEVELS`. ``score``: sum of the step weights. ``techniques``: the
    distinct techniques used, easiest first (hardest last, by :func:`difficulty_key`).
    ``logic_steps``: steps made by logic (all but ``trial_and_error``); ``guesses``: trial-and-error
    steps. ``steps``: the whole path, for :func:`explain`. ``n``: board side.
    """

    level: str
    score: float
    techniques: list[str]
    logic_steps: int
    steps: list[Step] = field(repr=False)
    n: int = 9
    guesses: int = 0

    @property
    def hodoku_level(self) -> str:
        return HODOKU_LEVELS[LEVELS.index(self.level)]


def score_steps(steps: Sequence[Step]) -> float:
    """Sum of the weights of ``steps``."""
    return float(sum(TECHNIQUES[s.technique].weight for s in steps))


def max_score(level: str, n: int = 9) -> float:
    """Highest score of ``level`` on an ``n`` x ``n`` board: HoDoKu's limit for 9x9 and smaller; for
    16x16 scaled by the number of cells (256/81), since a 16x16 path has about 3x the steps."""
    return MAX_SCORE[level] * max(1.0, n * n / 81)


def level_of(steps: Sequence[Step], score: float | None = None, n: int = 9) -> str:
    """HoDoKu's rule: the hardest technique's level, raised while the score exceeds its maximum."""
    k = max((LEVELS.index(TECHNIQUES[s.technique].level) for s in steps), default=0)
    total = score_steps(steps) if score is None else score
    while total > max_score(LEVELS[k], n):
        k += 1
    return LEVELS[k]


def grade_result(result: LogicResult) -> Grade:
    """Grade an existing solve path (e.g. from :func:`pipeline.difficulty.logic.solve_logically`).

    Raises ``ValueError`` if the path did not solve the puzzle.
    """
    if not result.solved:
        why = "has no solution" if result.contradiction else "was not solved by the allowed techniques"
        raise ValueError(f"cannot grade: the puzzle {why}")
    steps = list(result.steps)
    score = score_steps(steps)
    used = sorted({s.technique for s in steps}, key=difficulty_key)
    guesses = sum(1 for s in steps if s.technique == "trial_and_error")
    return Grade(level=level_of(steps, score, result.n), score=score, techniques=used, logic_steps=len(steps) - guesses,
                 steps=steps, n=result.n, guesses=guesses)


def grade(puzzle: Grid, solution: Grid | None = None, compiled: bool | None = None) -> Grade:
    """Grade ``puzzle`` (a grid of any supported size) by its human-style solve path.

    ``solution`` is optional: when given (and right) it spares the trial-and-error search.
    Raises ``ValueError`` if the puzzle has no solution (clashing givens included). A puzzle with
    several solutions is graded along the path to one of them. ``compiled``: ``True`` the compiled
    kernels, ``False`` the pure-Python solver (the reference), ``None`` pick by speed; the grade is
    the same (see :func:`pipeline.difficulty.logic.solve_logically`).
    """
    return grade_result(solve_logically(puzzle, solution=solution, compiled=compiled))


# ---------------------------------------------------------------------------------------------
# Explanations
# ---------------------------------------------------------------------------------------------


class _HasSteps(Protocol):
    @property
    def steps(self) -> list[Step]: ...

    @property
    def n(self) -> int: ...


def _effects(step: Step, n: int) -> str:
    parts = []
    if step.placements:
        parts.append("sets " + ", ".join(f"{cell_name(i, n)} = {digit_name(d)}" for i, d in step.placements))
    if step.eliminations:
        by_digit: dict[int, list[int]] = {}
        for i, d in step.eliminations:
            by_digit.setdefault(d, []).append(i)
        parts.append("removes " + "; ".join(
            f"{digit_name(d)} from {', '.join(cell_name(i, n) for i in sorted(cells))}"
            for d, cells in sorted(by_digit.items())
        ))
    return "; ".join(parts)


def explain_step(step: Step, n: int, number: int | None = None) -> str:
    """One line for ``step``, e.g. ``Step 12: X-Wing on 7 in rows 2 and 8, columns 3 and 6 —
    removes 7 from r5c3, r9c6`` (1-based rows and columns)."""
    head = f"Step {number}: " if number is not None else ""
    detail = f" {step.detail}" if step.detail else ""
    return f"{head}{TITLES[step.technique]}{detail} — {_effects(step, n)}"


def explain(result: _HasSteps) -> list[str]:
    """Human-readable lines, one per step, for a :class:`Grade` or a :class:`LogicResult`."""
    return [explain_step(s, result.n, k) for k, s in enumerate(result.steps, 1)]
