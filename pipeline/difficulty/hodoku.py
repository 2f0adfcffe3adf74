"""HoDoKu's comparator of two steps of one technique: the tie-break every "HoDoKu's choice" uses.

HoDoKu's ``SolutionStep.compareTo`` puts first the step that removes the most candidates, then the one
with the lowest *index sum* (``getIndexSumme``: the eliminations sorted by digit, then cell, the i-th
weighted ``1 + 80 * i``), then (per technique) the shorter chain. :func:`index_sum` is that sum, written
once: the chains (:mod:`.chains.simple`, :mod:`.patterns.single_digit`), the chain engine (:mod:`.chains.engine`, whose
compiled twin :mod:`.chains.engine_jit` reads :data:`INDEX_STRIDE`) and the ALS chains (:mod:`.als.sets`) all
call it. :func:`key` is the comparator's order as a sort key (lower first).

HoDoKu's solver steps (index, level and base score of each ``SolutionType``) are written once, in the
technique registry (:data:`pipeline.difficulty.techniques.TECHNIQUES`); the tests hold them against a
transcription of HoDoKu's own table (``tests/data/hodoku_defaults.json``).
"""

from __future__ import annotations

from collections.abc import Iterable

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
