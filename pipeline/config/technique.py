"""Which techniques a technique target (``difficulty: {technique: NAME}``, ``numplace generate
--technique``) may name, and on which boards; when a graded path was *made for* one is
:mod:`pipeline.generate.technique`'s (the rule is restated below, for the config's readers).

Contracts
---------
* **Offered.** A target names rows of the technique table (:data:`OFFERED`): every row the solve loop
  uses except trial and error and the killer cage rows. It is refused up front, in one line naming
  ``difficulty.technique`` (:func:`board_problem`), on a board where the grader never takes the step:
  boards other than 9x9 (4x4 and 6x6 paths are singles; 16x16 and 25x25 are not steered), killer boards
  (steering moves givens, a killer grade lies in its cages), and on the other variants the uniqueness
  rows (never used on variant boards), Sue de Coq and the ALS rows (classic boards only).
* **Harder.** Techniques are ordered by :func:`pipeline.generate.technique.key`: level, then weight,
  then the solver order of the set's grader version. That is the grade's own order of its
  ``techniques`` column (hardest last), so a tie in level and weight (Swordfish, 2-String Kite,
  W-Wing, Simple Colors, Hidden Quad and Sashimi X-Wing all weigh 150 at hard) is broken by the
  solver order: the row tried later counts as harder.
* **Made for.** A path is made for ``NAME`` (:func:`pipeline.generate.technique.made_for`) when it needs
  no trial and error, uses ``NAME``, uses nothing harder (by that order), its level is ``NAME``'s own
  (a score that lifts the grade a level misses), and the first ``NAME`` step (the *key step*) comes after at least
  one placement: the reader starts with singles and meets ``NAME`` once nothing easier applies (the
  solver tries every row before ``NAME`` first, restarting from the singles after each step).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pipeline.difficulty.techniques import CAGES, CLASSIC_ONLY, NOT_IN_SOLVER, TECHNIQUES, UNIQUENESS

#: The killer cage rows (tried only on boards with cages; never a target).
KILLER_ROWS: frozenset[str] = CAGES
#: Rows the solve loop never takes (HoDoKu's default settings switch them off), and trial and error.
_NOT_USED: frozenset[str] = NOT_IN_SOLVER | {"trial_and_error"}
#: The techniques a target may name, in the table's (solver) order.
OFFERED: tuple[str, ...] = tuple(t for t in TECHNIQUES if t not in KILLER_ROWS and t not in _NOT_USED)
#: Rows that assume a unique classic puzzle (never used on variant boards).
_UNIQUENESS: frozenset[str] = UNIQUENESS
#: Offered rows the grader runs on classic boards only (the registry's scopes ``unique`` and ``classic``).
_CLASSIC_ONLY: frozenset[str] = CLASSIC_ONLY & frozenset(OFFERED)


def names_of(value: str | Sequence[str] | None) -> tuple[str, ...]:
    """The target's names as a tuple (``technique: x_wing`` or ``technique: [x_wing, swordfish]``)."""
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


def unknown(name: str) -> str | None:
    """Why ``name`` cannot be a target (one clause), or None when it is offered."""
    if name in OFFERED:
        return None
    if name in TECHNIQUES:
        return f"{name!r} is never a target (the solver does not take it as a step of its own choosing)"
    import difflib

    close = difflib.get_close_matches(name, OFFERED, n=1)
    hint = f" (did you mean {close[0]}?)" if close else " (numplace rate --explain names them; docs/workbook.md)"
    return f"{name!r} is not a technique{hint}"


def board_problem(size: int, kinds: Iterable[str], names: Sequence[str]) -> str | None:
    """Why no puzzle of a ``size`` board with variant ``kinds`` can be made for ``names`` (one line
    naming ``difficulty.technique``), or None."""
    if not names:
        return None
    kinds = tuple(kinds)
    if size != 9:
        return (f"difficulty.technique: technique targets are for 9x9 boards (a {size}x{size} board's paths "
                f"{'are singles' if size < 9 else 'are not steered'})")
    if "killer" in kinds:
        return ("difficulty.technique: not on killer boards (steering moves givens, and a killer puzzle's grade "
                "lies in its cages)")
    if kinds:
        off = [n for n in names if n in _CLASSIC_ONLY]
        if off:
            return (f"difficulty.technique: {off[0]} is never used on {'+'.join(kinds)} boards (the uniqueness "
                    "rows, Sue de Coq and the ALS rows are classic only)")
    return None
