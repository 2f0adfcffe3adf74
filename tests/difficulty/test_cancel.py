"""A solve inside :func:`~pipeline.difficulty.logic.cancel_when` stops at its next step once the check
says so (the studio's Generate page stops a grade nobody waits for), and only then: a check that stays
False leaves the path as it is, and other threads' solves never see it."""

from __future__ import annotations

import threading

import pytest

from pipeline.board import parse
from pipeline.difficulty.logic import Cancelled, cancel_when, solve_logically

EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def test_a_check_that_says_stop_cancels_the_solve_and_one_that_does_not_changes_nothing() -> None:
    puzzle = parse(EASY)
    asked: list[int] = []

    def after_three() -> bool:
        asked.append(1)
        return len(asked) > 3

    with pytest.raises(Cancelled), cancel_when(after_three):
        solve_logically(puzzle, compiled=False)
    assert len(asked) == 4  # asked before each step: stopped at the fourth
    with cancel_when(lambda: False):
        kept = solve_logically(puzzle, compiled=False)
    assert kept.steps == solve_logically(puzzle, compiled=False).steps and kept.solved


def test_the_check_belongs_to_its_thread_and_its_block() -> None:
    puzzle = parse(EASY)
    other: list[bool] = []
    with cancel_when(lambda: True):
        t = threading.Thread(target=lambda: other.append(solve_logically(puzzle, compiled=False).solved))
        t.start()
        t.join()
    assert other == [True]  # another thread's solve is not cancelled
    assert solve_logically(puzzle, compiled=False).solved  # nor a solve after the block
