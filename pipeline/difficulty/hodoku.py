"""HoDoKu's comparator of two steps of one technique: the tie-break every "HoDoKu's choice" uses.

HoDoKu's ``SolutionStep.compareTo`` puts first the step that removes the most candidates, then the one
with the lowest *index sum* (``getIndexSumme``: the eliminations sorted by digit, then cell, the i-th
weighted ``1 + 80 * i``), then (per technique) the shorter chain. :func:`index_sum` is that sum, written
once: the chains (:mod:`.chains.simple`, :mod:`.patterns.single_digit`), the chain engine (:mod:`.chains.engine`, whose
compiled twin :mod:`.chains.engine_jit` reads :data:`INDEX_STRIDE`) and the ALS chains (:mod:`.als.sets`) all
call it. :func:`key` is the comparator's order as a sort key (lower first).

Also HoDoKu's table of solver steps (:data:`STEPS`: index, level and base score by ``SolutionType``
name), which the technique registry's ``hodoku_index`` and levels and weights are checked against.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: The stride of HoDoKu's index sum: the i-th elimination (by digit, then cell) weighs ``1 + INDEX_STRIDE * i``.
INDEX_STRIDE = 80


def index_sum(elims: Iterable[tuple[int, int]]) -> int:
    """HoDoKu's index sum of the eliminations ``(cell, digit)`` (any order: sorted here by digit, then cell)."""
    return sum(c * (1 + INDEX_STRIDE * i) + d for i, (c, d) in enumerate(sorted(elims, key=lambda e: (e[1], e[0]))))


def index_sum_of_digit(cells: Iterable[int], d: int) -> int:
    """:func:`index_sum` of removing digit ``d`` from ``cells`` (ascending: one digit needs no sort)."""
    return sum(c * (1 + INDEX_STRIDE * i) + d for i, c in enumerate(cells))


def key(removed: int, isum: int, length: int) -> tuple[int, int, int]:
    """HoDoKu's comparator as a sort key: more candidates ``removed`` first, then the lower index sum
    ``isum``, then the shorter ``length``."""
    return (-removed, isum, length)


@dataclass(frozen=True)
class HodokuStep:
    """One of HoDoKu's solver steps (a ``StepConfig`` row of ``Options.DEFAULT_SOLVER_STEPS``): its
    ``index`` (its place in HoDoKu's solve loop, lower first: the first enabled step that applies is
    taken), its default ``level`` (HoDoKu's names) and ``score`` (its base score per step)."""

    index: int
    level: str
    score: int


# One HoDoKu step can find several SolutionTypes (its NICE_LOOP step the discontinuous and continuous
# nice loops and the AIC; SIMPLE_COLORS trap and wrap): those names share the step's index.
_NICE_LOOP = HodokuStep(5600, "Unfair", 280)
_GROUPED_NICE_LOOP = HodokuStep(5650, "Unfair", 300)

#: HoDoKu's solver steps by ``SolutionType`` name, for the types this grader implements (the ``hodoku``
#: names of :data:`pipeline.difficulty.techniques.TECHNIQUES`), transcribed from HoDoKu's
#: ``Options.java`` (``DEFAULT_SOLVER_STEPS``; checked against hodoku-py 0.2.1's ``scoring.DEFAULT_STEPS``).
#: The registry's ``hodoku_index`` of each row is its step's index here (``tests/difficulty/test_registry.py``).
STEPS: dict[str, HodokuStep] = {
    "NAKED_SINGLE": HodokuStep(200, "Easy", 4),
    "HIDDEN_SINGLE": HodokuStep(300, "Easy", 14),
    "LOCKED_PAIR": HodokuStep(1000, "Medium", 40),
    "LOCKED_TRIPLE": HodokuStep(1100, "Medium", 60),
    "LOCKED_CANDIDATES_1": HodokuStep(1200, "Medium", 50),
    "LOCKED_CANDIDATES_2": HodokuStep(1210, "Medium", 50),
    "NAKED_PAIR": HodokuStep(1300, "Medium", 60),
    "NAKED_TRIPLE": HodokuStep(1400, "Medium", 80),
    "HIDDEN_PAIR": HodokuStep(1500, "Medium", 70),
    "HIDDEN_TRIPLE": HodokuStep(1600, "Medium", 100),
    "NAKED_QUADRUPLE": HodokuStep(2000, "Hard", 120),
    "HIDDEN_QUADRUPLE": HodokuStep(2100, "Hard", 150),
    "X_WING": HodokuStep(2200, "Hard", 140),
    "SWORDFISH": HodokuStep(2300, "Hard", 150),
    "JELLYFISH": HodokuStep(2400, "Hard", 160),
    "REMOTE_PAIR": HodokuStep(2800, "Hard", 110),
    "BUG_PLUS_1": HodokuStep(2900, "Hard", 100),
    "SKYSCRAPER": HodokuStep(3000, "Hard", 130),
    "TWO_STRING_KITE": HodokuStep(3100, "Hard", 150),
    "TURBOT_FISH": HodokuStep(3120, "Hard", 120),
    "EMPTY_RECTANGLE": HodokuStep(3170, "Hard", 120),
    "W_WING": HodokuStep(3200, "Hard", 150),
    "XY_WING": HodokuStep(3300, "Hard", 160),
    "XYZ_WING": HodokuStep(3400, "Hard", 180),
    **{f"UNIQUENESS_{k}": HodokuStep(3400 + 100 * k, "Hard", 100) for k in range(1, 7)},
    "HIDDEN_RECTANGLE": HodokuStep(4010, "Hard", 100),
    "AVOIDABLE_RECTANGLE_1": HodokuStep(4020, "Hard", 100),
    "AVOIDABLE_RECTANGLE_2": HodokuStep(4030, "Hard", 100),
    "FINNED_X_WING": HodokuStep(4100, "Hard", 130),
    "SASHIMI_X_WING": HodokuStep(4200, "Hard", 150),
    "FINNED_SWORDFISH": HodokuStep(4300, "Unfair", 200),
    "SASHIMI_SWORDFISH": HodokuStep(4400, "Unfair", 240),
    "FINNED_JELLYFISH": HodokuStep(4500, "Unfair", 250),
    "SASHIMI_JELLYFISH": HodokuStep(4600, "Unfair", 260),
    "SUE_DE_COQ": HodokuStep(5300, "Unfair", 250),
    "SIMPLE_COLORS": HodokuStep(5330, "Hard", 150),
    "MULTI_COLORS": HodokuStep(5360, "Hard", 200),
    "X_CHAIN": HodokuStep(5400, "Unfair", 260),
    "XY_CHAIN": HodokuStep(5500, "Unfair", 260),
    "DISCONTINUOUS_NICE_LOOP": _NICE_LOOP,
    "CONTINUOUS_NICE_LOOP": _NICE_LOOP,
    "AIC": _NICE_LOOP,
    "GROUPED_DISCONTINUOUS_NICE_LOOP": _GROUPED_NICE_LOOP,
    "GROUPED_CONTINUOUS_NICE_LOOP": _GROUPED_NICE_LOOP,
    "GROUPED_AIC": _GROUPED_NICE_LOOP,
    "ALS_XZ": HodokuStep(5700, "Unfair", 300),
    "ALS_XY_WING": HodokuStep(5800, "Unfair", 320),
    "ALS_XY_CHAIN": HodokuStep(5900, "Unfair", 340),
    "DEATH_BLOSSOM": HodokuStep(6000, "Unfair", 360),
    "FORCING_CHAIN_CONTRADICTION": HodokuStep(8500, "Extreme", 500),
    "FORCING_NET_CONTRADICTION": HodokuStep(8600, "Extreme", 700),
    "BRUTE_FORCE": HodokuStep(8900, "Extreme", 10000),
}
