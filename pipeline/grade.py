"""Difficulty grade of a puzzle from its human-style solve path (after HoDoKu's rating).

:func:`grade` solves the puzzle with :func:`pipeline.logic.solve_logically` (easiest technique
first, restarting from the singles after every step) and rates the path the way HoDoKu does:

* **score** = sum over the steps of the technique's weight (HoDoKu's default "base score" per
  step, ``Options.DEFAULT_SOLVER_STEPS``);
* **level** = the level of the hardest technique used, then raised while the score exceeds that
  level's maximum score (HoDoKu's ``DifficultyLevel`` limits: Easy 800, Medium 1000, Hard 1600,
  Unfair 1800, Extreme unbounded; for 16x16 these limits are scaled by 256/81, see :func:`max_score`).

Our level names map to HoDoKu's in order: ``easy`` = Easy, ``medium`` = Medium, ``hard`` = Hard,
``expert`` = Unfair, ``extreme`` = Extreme.

Technique table (:data:`TECHNIQUES`; HoDoKu defaults checked against its ``Options.java``)
-----------------------------------------------------------------------------------------
================  ==============================  =======  ======  =====================================
name              HoDoKu SolutionType             level    weight  difference from HoDoKu
================  ==============================  =======  ======  =====================================
naked_single      NAKED_SINGLE (+ FULL_HOUSE)     easy     4       a full house counts as a naked single
                                                                   (both weigh 4, so scores agree)
hidden_single     HIDDEN_SINGLE                   easy     14
locked_pair       LOCKED_PAIR                     medium   40
locked_triple     LOCKED_TRIPLE                   medium   60
pointing          LOCKED_CANDIDATES_1             medium   50
claiming          LOCKED_CANDIDATES_2             medium   50
naked_pair        NAKED_PAIR                      medium   60
naked_triple      NAKED_TRIPLE                    medium   80
hidden_pair       HIDDEN_PAIR                     medium   70
hidden_triple     HIDDEN_TRIPLE                   medium   100
naked_quad        NAKED_QUADRUPLE                 hard     120
hidden_quad       HIDDEN_QUADRUPLE                hard     150
x_wing            X_WING                          hard     140
swordfish         SWORDFISH                       hard     150
jellyfish         JELLYFISH                       hard     160     HoDoKu's default is Hard (not Unfair)
remote_pair       REMOTE_PAIR                     hard     110
skyscraper        SKYSCRAPER                      hard     130
two_string_kite   TWO_STRING_KITE                 hard     150
turbot_fish       TURBOT_FISH                     hard     120     any other 2-strong-link X-chain
empty_rectangle   EMPTY_RECTANGLE                 hard     120
w_wing            W_WING                          hard     150
xy_wing           XY_WING                         hard     160
xyz_wing          XYZ_WING                        hard     180
finned_x_wing     FINNED_X_WING                   hard     130
sashimi_x_wing    SASHIMI_X_WING                  hard     150
simple_colors     SIMPLE_COLORS                   hard     150     trap and wrap, as HoDoKu; tried before
                                                                   finned swordfish (HoDoKu: after)
finned_swordfish  FINNED_SWORDFISH                expert   200
sashimi_swordfish SASHIMI_SWORDFISH               expert   240
finned_jellyfish  FINNED_JELLYFISH                expert   250
sashimi_jellyfish SASHIMI_JELLYFISH               expert   260
x_chain           X_CHAIN                         expert   260
xy_chain          XY_CHAIN                        expert   260
trial_and_error   BRUTE_FORCE                     extreme  10000   places the solution digit in the cell
                                                                   with fewest candidates (HoDoKu picks
                                                                   a middle cell)
================  ==============================  =======  ======  =====================================

Not implemented (HoDoKu has them): uniqueness techniques and BUG+1 (deliberately: they are only
valid for puzzles known to be unique), Franken/mutant and kraken fish, squirmbag and larger fish,
multi-colors, nice loops / grouped AICs, ALS techniques, Sue de Coq, forcing chains/nets, templates.
A puzzle HoDoKu solves with one of those is finished here with the chains or with trial and error,
so its grade can come out *harder* than HoDoKu's; every technique we do use has HoDoKu's level and
weight. The order in which techniques are tried is HoDoKu's default order restricted to ours, except
that Simple Colors (Hard) is tried before the Unfair finned swordfish/jellyfish, so that the easiest
applicable technique is always the one used.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from pipeline.board import Grid
from pipeline.logic import TECHNIQUE_ORDER, TITLES, LogicResult, Step, cell_name, digit_name, solve_logically

LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "expert", "extreme")
#: HoDoKu's level names, index for index.
HODOKU_LEVELS: tuple[str, ...] = ("Easy", "Medium", "Hard", "Unfair", "Extreme")
#: Highest score of each level (HoDoKu's defaults); a path scoring more moves up a level.
MAX_SCORE: dict[str, float] = {"easy": 800, "medium": 1000, "hard": 1600, "expert": 1800, "extreme": float("inf")}


@dataclass(frozen=True)
class Technique:
    """One row of the technique table: our name and title, level and weight, HoDoKu's name."""

    name: str
    title: str
    level: str
    weight: float
    hodoku: str


def _t(name: str, level: str, weight: float, hodoku: str) -> Technique:
    return Technique(name, TITLES[name], level, weight, hodoku)


#: name -> :class:`Technique` (level and weight), in the order the solver tries them.
TECHNIQUES: dict[str, Technique] = {
    t.name: t
    for t in (
        _t("naked_single", "easy", 4, "NAKED_SINGLE"),
        _t("hidden_single", "easy", 14, "HIDDEN_SINGLE"),
        _t("locked_pair", "medium", 40, "LOCKED_PAIR"),
        _t("locked_triple", "medium", 60, "LOCKED_TRIPLE"),
        _t("pointing", "medium", 50, "LOCKED_CANDIDATES_1"),
        _t("claiming", "medium", 50, "LOCKED_CANDIDATES_2"),
        _t("naked_pair", "medium", 60, "NAKED_PAIR"),
        _t("naked_triple", "medium", 80, "NAKED_TRIPLE"),
        _t("hidden_pair", "medium", 70, "HIDDEN_PAIR"),
        _t("hidden_triple", "medium", 100, "HIDDEN_TRIPLE"),
        _t("naked_quad", "hard", 120, "NAKED_QUADRUPLE"),
        _t("hidden_quad", "hard", 150, "HIDDEN_QUADRUPLE"),
        _t("x_wing", "hard", 140, "X_WING"),
        _t("swordfish", "hard", 150, "SWORDFISH"),
        _t("jellyfish", "hard", 160, "JELLYFISH"),
        _t("remote_pair", "hard", 110, "REMOTE_PAIR"),
        _t("skyscraper", "hard", 130, "SKYSCRAPER"),
        _t("two_string_kite", "hard", 150, "TWO_STRING_KITE"),
        _t("turbot_fish", "hard", 120, "TURBOT_FISH"),
        _t("empty_rectangle", "hard", 120, "EMPTY_RECTANGLE"),
        _t("w_wing", "hard", 150, "W_WING"),
        _t("xy_wing", "hard", 160, "XY_WING"),
        _t("xyz_wing", "hard", 180, "XYZ_WING"),
        _t("finned_x_wing", "hard", 130, "FINNED_X_WING"),
        _t("sashimi_x_wing", "hard", 150, "SASHIMI_X_WING"),
        _t("simple_colors", "hard", 150, "SIMPLE_COLORS"),
        _t("finned_swordfish", "expert", 200, "FINNED_SWORDFISH"),
        _t("sashimi_swordfish", "expert", 240, "SASHIMI_SWORDFISH"),
        _t("finned_jellyfish", "expert", 250, "FINNED_JELLYFISH"),
        _t("sashimi_jellyfish", "expert", 260, "SASHIMI_JELLYFISH"),
        _t("x_chain", "expert", 260, "X_CHAIN"),
        _t("xy_chain", "expert", 260, "XY_CHAIN"),
        _t("trial_and_error", "extreme", 10000, "BRUTE_FORCE"),
    )
}
assert tuple(TECHNIQUES) == TECHNIQUE_ORDER


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
    """Grade an existing solve path (e.g. from :func:`pipeline.logic.solve_logically`).

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


def grade(puzzle: Grid, solution: Grid | None = None) -> Grade:
    """Grade ``puzzle`` (a grid of any supported size) by its human-style solve path.

    ``solution`` is optional: when given (and right) it spares the trial-and-error search.
    Raises ``ValueError`` if the puzzle has no solution (clashing givens included). A puzzle with
    several solutions is graded along the path to one of them.
    """
    return grade_result(solve_logically(puzzle, solution=solution))


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
