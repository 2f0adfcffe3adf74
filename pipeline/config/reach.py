"""Whether the grader can reach what a config asks, asked before any work.

Contract: :func:`target_problem` returns one line saying why no puzzle of the config's board can
meet its ``difficulty`` target (None when some can), and :class:`~pipeline.config.model.Config`
refuses such a config with that line, so a run never spends its time making puzzles it must all
throw away.

The grader is asked, not restated: whether it rates a killer puzzle without givens is read from
:func:`pipeline.difficulty.grade.grade` itself, on a published killer puzzle without givens and
with one solution (janko.at Sudoku/Killer 116, as transcribed in ``tests/data/variants/golden.json``):
while the grader has no technique that uses cage sums it calls that puzzle ``unrated`` and the
check refuses ``difficulty.levels`` / ``difficulty.quota`` for such sets; once it rates killer
puzzles, the same probe comes back with a level and the check lets them through, with no change
here. Boards whose puzzles keep givens, or have no cages, are rated by every technique: no probe.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

#: The probe: janko.at Sudoku/Killer 116 (no givens), its cages as (cells 0-based row-major, sum).
PROBE_CAGES: tuple[tuple[tuple[int, ...], int], ...] = (
    ((0, 1, 9), 20), ((2, 3, 11), 11), ((4, 13), 12), ((5, 6, 15), 10), ((7, 8, 17), 14), ((10, 19, 20), 12),
    ((12, 21, 30), 17), ((14, 23, 32), 21), ((16, 24, 25), 15), ((18, 27), 4), ((22, 31), 8), ((26, 35), 14),
    ((28, 29), 6), ((33, 34), 16), ((36, 45), 17), ((37, 38), 8), ((39, 40, 41), 10), ((42, 43), 14),
    ((44, 53), 6), ((46, 47), 13), ((48, 49, 50), 18), ((51, 52), 4), ((54, 63), 9), ((55, 56, 57), 23),
    ((58, 67, 76), 13), ((59, 60, 61), 11), ((62, 71), 7), ((64, 65), 9), ((66, 74, 75), 16),
    ((68, 77, 78), 13), ((69, 70), 8), ((72, 73), 9), ((79, 80), 17))
PROBE_SOLUTION = "692183547518947263347526819124368975935271684876459132769835421281794356453612798"


@cache
def killer_without_givens() -> tuple[str, str]:
    """The grader's ``(level, reason)`` for the probe: a killer puzzle without givens."""
    from pipeline.board import make_variant, parse
    from pipeline.difficulty.grade import grade

    variant = make_variant(["killer"], None, [(cells, total) for cells, total in PROBE_CAGES])
    g = grade(parse("." * 81, 9), parse(PROBE_SOLUTION, 9), variant=variant)
    return g.level, g.reason


#: Measured (``docs/variants.md``, "Variants at a level"): killer puzzles without givens, cages of two
#: or more cells, that the grader called easy: none of 120 grids (112 medium), none of the 20 of
#: ``configs/killer.yaml``. Their path needs the 45 rule (``innies_outies``, a medium technique) on
#: nearly every grid, so a run asking for easy ones only tries ``max_attempts`` grids per puzzle and
#: writes nothing: refused up front, like an unrated target.
KILLER_EASY_MEASURED = (0, 120)


def target_problem(kinds: Sequence[str], givens: bool, levels: Sequence[str] | None,
                   quota: Sequence[str] | None, singles: bool = False) -> str | None:
    """Why no puzzle of a board with variant ``kinds`` (``givens``: whether its puzzles keep givens;
    ``singles``: whether one-cell cages, givens in all but name, may be drawn) can be of the asked
    ``levels`` (a filter: one reachable level is enough) or fill the ``quota`` (every level of it
    must be reachable); None when the target can be met, or nothing is asked. A killer set without
    givens or one-cell cages asking for ``easy`` alone (or a quota of easy puzzles) is refused on the
    measured :data:`KILLER_EASY_MEASURED`."""
    if "killer" not in kinds or givens or not (levels or quota):
        return None
    level, reason = killer_without_givens()
    from pipeline.difficulty.techniques import UNRATED

    if level != UNRATED:
        easy_only = bool(levels) and set(levels or ()) <= {"easy"}
        if singles or not (easy_only or "easy" in (quota or ())):
            return None
        key = "quota" if quota and "easy" in quota else "levels"
        found, tried = KILLER_EASY_MEASURED
        return (f"difficulty.{key}: a killer puzzle without givens is almost never easy (its path needs the 45 "
                f"rule, a medium technique: {found} easy in {tried} measured grids), so this run would try "
                f"max_attempts grids per puzzle and write no easy one; keep givens (board.cages.givens: true), or ask "
                f"for medium or harder")
    key, asked = ("quota", list(quota)) if quota else ("levels", list(levels or ()))
    why = reason.split(":", 1)[0] if reason else "not graded"
    return (f"difficulty.{key}: the grader rates every killer puzzle without givens {UNRATED} ({why}), so no "
            f"puzzle of this set can be {' or '.join(asked)}; remove difficulty, or keep givens "
            f"(board.cages.givens: true)")
