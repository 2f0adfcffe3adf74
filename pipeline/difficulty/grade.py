"""Difficulty grade of a puzzle from its human-style solve path (after HoDoKu's rating).

:func:`grade` solves the puzzle with :func:`pipeline.difficulty.logic.solve_logically` (easiest technique
first, restarting from the singles after every step) and rates the path the way HoDoKu does:

* **score** = sum over the steps of the technique's weight (HoDoKu's default "base score" per
  step, ``Options.DEFAULT_SOLVER_STEPS``);
* **level** = the level of the hardest technique used, then raised while the score exceeds that
  level's maximum score (HoDoKu's ``DifficultyLevel`` limits, written once in
  :data:`~pipeline.difficulty.techniques.MAX_SCORE`; Extreme unbounded; for 16x16 and 25x25 these limits
  are scaled by the cells, 256/81 and 625/81, see :func:`max_score`).

Our level names map to HoDoKu's in order: ``easy`` = Easy, ``medium`` = Medium, ``hard`` = Hard,
``expert`` = Unfair, ``extreme`` = Extreme.

The levels, weights and HoDoKu names of the techniques, with the differences from HoDoKu, are the
table in :mod:`pipeline.difficulty.techniques`; :data:`TECHNIQUES`, :data:`LEVELS`, :data:`HODOKU_LEVELS`,
:data:`MAX_SCORE`, :data:`UNRATED` and :class:`Technique` are re-exported from there.

Variants
--------
``grade(puzzle, variant=v)`` grades on the board of :func:`pipeline.board.board` ``(n, v)``; a classic
variant (None or ``Variant()``) takes exactly the classic path (compiled kernels included). Any other
variant runs the pure-Python solver (the compiled kernels know only the classic geometry). Its units
are rows, columns, boxes -- or the jigsaw *regions* in their place -- and the extra units (the two
diagonals of ``x``, the four windows of ``hyper``); its peers are the cells sharing one of those
units or a killer cage. Every technique is a deduction from "each unit holds each digit once" and
"peers differ", so on a variant board, technique by technique:

* ``naked_single``: the digits no peer holds (peers include diagonals, windows, cage mates). Sound.
* ``hidden_single``, ``hidden_pair/triple/quad``: in every unit, the extra units included (scanned
  after boxes, rows and columns), e.g. a hidden single in a diagonal or a window. Sound: each unit
  holds every digit once. Killer cages are not units (a cage need not hold every digit): never used.
* ``pointing`` / ``claiming``: locked candidates in the intersection of any two units. Pointing: a
  digit's candidates in a box, region, diagonal or window all lie in one other unit (a line, a box,
  a diagonal, a window), whose other cells lose it; claiming: a row's or column's all lie in one box,
  region, diagonal or window. Sound for any two units. On a classic board: exactly the classic steps.
* ``locked_pair/triple``, ``naked_pair/triple/quad``: the cells' shared units are all the units
  holding every cell of the subset (a region and a row, a box and a diagonal, ...); "locked" means
  two or more shared units. Sound for any unit.
* ``x_wing``, ``swordfish``, ``jellyfish``: on rows and columns only, which stay units in every variant.
  Sound.
* ``finned_*`` / ``sashimi_*`` fish: rows/columns as base and cover; the fins must lie in one box and
  only cells of that box lose the digit. The search reads the box by its cells: on boards with the
  classic boxes (x, hyper, killer) that is the classic search unchanged; on jigsaw boards (where a
  box taken as the block of its rows and columns would be unsound) it is the region: fins in one
  region, targets in that region (they see every fin through it). Sound.
* ``empty_rectangle``: kept, also on jigsaw. Argument: a box/region's candidates of ``d`` lie in row
  ``r`` or column ``c``; a column strong link ``P = Q`` with ``P`` in row ``r``; target ``T`` in ``Q``'s
  row and column ``c``. If ``T`` held ``d``, ``Q`` would not, so ``P`` would, and the region would have no
  place left for ``d`` -- provided neither ``P`` nor ``T`` lies in the region, which the finder ensures
  by taking the link's column and the target's row outside *all* the rows/columns the region spans
  (for a jigsaw region a stricter condition than for a box, so it finds fewer, never unsound ones).
* ``remote_pair``, ``w_wing``, ``xy_wing``, ``xyz_wing``, ``simple_colors``, ``skyscraper``,
  ``two_string_kite``, ``turbot_fish``, ``x_chain``, ``xy_chain``: strong links are conjugate pairs in any
  unit (a diagonal or window included, never a cage), weak links are peers (cage mates included).
  Sound: both are valid for any unit and any peer relation. The names skyscraper / kite / turbot
  follow the unit kinds of the links (a link in a diagonal or window makes a turbot fish).
* ``discontinuous_nice_loop``, ``aic``, ``forcing_chain``: the same links (conjugate pairs in any unit,
  peers). ``forcing_net``: singles over the variant's units and peers. Sound for the same reason.
* The grouped rows (grader 6, :mod:`.chains.grouped`): group nodes in the intersections of
  rows and columns with boxes or jigsaw regions; a group's weak links go to the candidates seeing all
  its cells (cage mates and diagonal or window peers included), its strong links to the one candidate
  left in its box or line. Sound: a group's digit lies in one of its cells or in none, on any board.
* Uniqueness techniques (unique rectangles, hidden rectangle, BUG+1) are never used on a variant
  board (an extra unit or a cage could forbid the swap a deadly pattern relies on); on a classic
  board only once the puzzle is known to be unique (see :mod:`.uniqueness.rectangles`).
* ``trial_and_error``: a search with the variant's units and peers (killer sums ignored, see below).

Killer: the cage techniques of :mod:`.killer.cages` (cage combinations, alone and with
the other cages of a unit, the 45 rule over one unit and over groups of units, cage/unit overlap,
cage splitting) run before the classic ones, which then work on top (cage mates are peers). When
logic stops, trial and error goes on only from a known solution that keeps every cage sum (the
generator's, or the solver's for ``numplace rate``): its own search ignores the sums and could pick a
grid the cages rule out. Without one the grade has level :data:`UNRATED`, ``reason``
:data:`KILLER_UNRATED` plus how far the logic got, and the partial path (``steps``, its ``score``,
``techniques``) for :func:`explain`. Killer score limits are HoDoKu's times :data:`KILLER_SCALE`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from pipeline.board import Grid, Variant
from pipeline.difficulty.logic import LogicResult, Step, cell_name, digit_name, solve_logically
from pipeline.difficulty.techniques import (
    GRADER_VERSION,
    HODOKU_LEVELS,
    LEVELS,
    MAX_SCORE,
    TECHNIQUE_ORDER,
    TECHNIQUES,
    TITLES,
    UNRATED,
)
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

    ``level``: one of :data:`LEVELS`, or :data:`UNRATED` for a puzzle the grader cannot rate yet (a
    killer puzzle that needs its cage sums; ``reason`` then says so). ``score``: sum of the step weights.
    ``techniques``: the distinct techniques used, easiest first (hardest last, by :func:`difficulty_key`).
    ``logic_steps``: steps made by logic (all but ``trial_and_error``); ``guesses``: trial-and-error
    steps. ``steps``: the whole path (for an unrated grade, as far as it got), for :func:`explain`.
    ``n``: board side. ``reason``: empty for a rated grade.
    """

    level: str
    score: float
    techniques: list[str]
    logic_steps: int
    steps: list[Step] = field(repr=False)
    n: int = 9
    guesses: int = 0
    reason: str = ""

    @property
    def rated(self) -> bool:
        """False for an :data:`UNRATED` grade (then ``reason`` says why)."""
        return self.level != UNRATED

    @property
    def hodoku_level(self) -> str:
        return HODOKU_LEVELS[LEVELS.index(self.level)] if self.rated else "Unrated"


#: technique -> weight (:data:`TECHNIQUES`), read once per step of every graded path.
_WEIGHT: dict[str, float] = {name: t.weight for name, t in TECHNIQUES.items()}


def score_steps(steps: Sequence[Step]) -> float:
    """Sum of the weights of ``steps`` (in path order)."""
    try:
        return float(sum([_WEIGHT[s.technique] for s in steps]))
    except KeyError:  # a row registered after import (a temporary rulebook's): read the registry itself
        return float(sum([TECHNIQUES[s.technique].weight for s in steps]))


#: Killer score limits are HoDoKu's times this: a killer path starts from no givens and takes cage
#: steps besides, so it is about 2.5-3x as long as a classic 9x9 path (docs/difficulty.md, "Killer").
KILLER_SCALE = 2.5


def max_score(level: str, n: int = 9, scale: float = 1.0) -> float:
    """Highest score of ``level`` on an ``n`` x ``n`` board: HoDoKu's limit for 9x9 and smaller; for
    16x16 and 25x25 scaled by the number of cells (256/81, 625/81), since the path has that many more
    steps; times ``scale`` (:data:`KILLER_SCALE` for killer boards)."""
    return MAX_SCORE[level] * max(1.0, n * n / 81) * scale


def level_of(steps: Sequence[Step], score: float | None = None, n: int = 9, scale: float = 1.0) -> str:
    """HoDoKu's rule: the hardest technique's level, raised while the score exceeds its maximum."""
    k = max((LEVELS.index(TECHNIQUES[t].level) for t in {s.technique for s in steps}), default=0)
    total = score_steps(steps) if score is None else score
    while total > max_score(LEVELS[k], n, scale):
        k += 1
    return LEVELS[k]


def grade_result(result: LogicResult, scale: float = 1.0) -> Grade:
    """Grade an existing solve path (e.g. from :func:`pipeline.difficulty.logic.solve_logically`);
    ``scale`` multiplies the score limits (:func:`max_score`).

    Raises ``ValueError`` if the path did not solve the puzzle.
    """
    if not result.solved:
        why = "has no solution" if result.contradiction else "was not solved by the allowed techniques"
        raise ValueError(f"cannot grade: the puzzle {why}")
    steps = list(result.steps)
    score = score_steps(steps)
    used = sorted({s.technique for s in steps}, key=difficulty_key)
    guesses = sum(1 for s in steps if s.technique == "trial_and_error")
    return Grade(level=level_of(steps, score, result.n, scale), score=score, techniques=used,
                 logic_steps=len(steps) - guesses, steps=steps, n=result.n, guesses=guesses)


#: The ``reason`` of a killer puzzle's :data:`UNRATED` grade (followed by how far the logic got).
KILLER_UNRATED = "killer cages (no solution to fall back on)"


def grade(puzzle: Grid, solution: Grid | None = None, compiled: bool | None = None,
          variant: Variant | None = None, unique: bool | None = None, grader: int = GRADER_VERSION) -> Grade:
    """Grade ``puzzle`` (a grid of any supported size) by its human-style solve path.

    ``solution`` is optional: when given (and right) it spares the trial-and-error search.
    Raises ``ValueError`` if the puzzle has no solution (clashing givens included). A puzzle with
    several solutions is graded along the path to one of them. ``compiled``: ``True`` the compiled
    kernels, ``False`` the pure-Python solver (the reference), ``None`` pick by speed; the grade is
    the same (see :func:`pipeline.difficulty.logic.solve_logically`).

    ``variant`` (None or ``Variant()`` = classic, unchanged): grade on that variant's board, always with
    the pure-Python solver (``compiled`` is then ignored); see the module docstring for what each
    technique does there. A killer puzzle that logic cannot finish falls back on trial and error only
    with a ``solution`` that keeps the cage sums; without one it gets level :data:`UNRATED` with
    ``reason`` starting :data:`KILLER_UNRATED`.

    ``unique``: whether the puzzle is known to have exactly one solution (the uniqueness techniques
    assume it); None (default) lets the solver count, once, when it first needs to know.

    ``grader``: the grader version whose technique order the path follows (default this code's,
    :data:`~pipeline.difficulty.techniques.GRADER_VERSION`; a set's puzzles are graded by the version
    the set began with, :func:`~pipeline.difficulty.techniques.held_version`).
    """
    if variant is None or variant.classic:
        return grade_result(solve_logically(puzzle, solution=solution, compiled=compiled, unique=unique,
                                            grader=grader))
    if "killer" not in variant.kinds:
        return grade_result(solve_logically(puzzle, solution=solution, compiled=False, variant=variant,
                                            grader=grader))
    known = solution is not None and _fits_cages(solution, variant)
    result = solve_logically(puzzle, max_technique=None if known else TECHNIQUE_ORDER[-2], solution=solution,
                             compiled=False, variant=variant, grader=grader)
    if result.solved or result.contradiction:
        return grade_result(result, KILLER_SCALE)
    steps = list(result.steps)
    blank = sum(1 for d in result.grid if not d)
    why = (f"{KILLER_UNRATED}: the techniques leave {blank} of {len(result.grid)} cells open after "
           f"{len(steps)} steps, and without a solution that keeps the cage sums trial and error cannot go on")
    return Grade(level=UNRATED, score=score_steps(steps), techniques=sorted({s.technique for s in steps},
                 key=difficulty_key), logic_steps=len(steps), steps=steps, n=result.n, reason=why)


def _fits_cages(solution: Grid, variant: Variant) -> bool:
    """Whether ``solution`` is complete and keeps every cage's sum and distinct digits."""
    return all(solution) and all(
        sum(solution[i] for i in c.cells) == c.total and len({solution[i] for i in c.cells}) == len(c.cells)
        for c in variant.cages)


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
