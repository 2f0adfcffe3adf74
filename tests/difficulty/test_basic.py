"""Locked versus naked subsets by grader version (pipeline.difficulty.basic.subsets._naked_subset).

From grader version 5 a pair or triple inside a box and a line is a Locked Pair/Triple only when its
eliminations reach both (HoDoKu's ``createSubsetStep``); otherwise it is a Naked Pair/Triple, found
later in the order. The expected steps below are HoDoKu's own, read from hodoku-py's solving paths of
development-set puzzles (``bench/path_vs_hodoku.py``); version 4 keeps its older rule.
"""

from __future__ import annotations

import pytest

from pipeline.board import parse
from pipeline.difficulty.grade import grade
from pipeline.difficulty.logic import Candidates, next_step


def _cell(text: str) -> int:
    r, c = text[1:].split("c")
    return (int(r) - 1) * 9 + int(c) - 1


def _state(state: str, removed: str) -> Candidates:
    """A position as ``tests/data/make_hodoku_positions.py`` writes it (``+d`` placed on the way)."""
    digits, placed, k = [], 0, 0
    while k < len(state):
        if state[k] == "+":
            placed |= 1 << len(digits)
            k += 1
        digits.append(state[k])
        k += 1
    elims = [(_cell(t.split(":")[0]), int(t.split(":")[1])) for t in removed.split()]
    st = Candidates.from_grid(parse("".join(digits)), elims)
    st.given &= ~placed
    return st


#: The development set's 59th puzzle (``/tmp/heldout/dev.jsonl``, HoDoKu's generator, seed 1001), the state
#: before HoDoKu's Naked Pair 2/x in r4c4 and r6c4 (box 5 and column 4): it removes 2 from r5c4 only,
#: inside the box, so HoDoKu does not call it locked.
NAKED_IN_BOX_AND_LINE = (
    "34+2+759+1+861854...7....1+8+2+5+3+4..3..+1.+65.1.....4.6.....3.+1..+1..7..+8.3.+5.84178..91..53",
    "r4c5:2 r4c7:2 r4c7:9 r5c1:7 r5c1:9 r5c3:9 r5c4:8 r5c5:2 r5c5:6 r5c5:7 r5c7:2 r5c7:9 r6c2:7 r6c5:2 "
    "r6c5:4 r7c1:2 r7c1:9 r7c2:6 r7c2:9 r7c4:2")

#: The development set's 13th puzzle, the state before HoDoKu's Locked Pair in r1c3 and r3c3 (removing from
#: box 1 and from column 3 below it): locked under both rules.
LOCKED_BOTH = "7....312.+16+249+753+8........78.7.4...+3....+3..+8.....8.2.56+7+8+9+2+4+3+5+1+215+376+89+4+4935+1+8..2"

#: dev2's 198th puzzle (HoDoKu: Extreme 1860). After the singles HoDoKu points 5 out of box 2 into column 6
#: (Locked Candidates Type 1, 50 points); grader 4 called a pair in box 2 and column 6 locked (40 points)
#: although it removes only from the column, and rated the puzzle 1800 (expert).
POINTING_FIRST = ".7.29..1...27..9..5...6.........3..53.1...7.66..8.........8...9..3..94...2..46.3."


def test_a_pair_removing_only_inside_its_box_is_naked_from_version_5() -> None:
    st = _state(*NAKED_IN_BOX_AND_LINE)
    v5, v4 = next_step(st, grader=5), next_step(st, grader=4)
    assert v5 is not None and v4 is not None
    assert (v5.technique, v5.cells, v5.eliminations) == ("naked_pair", (30, 48), ((39, 2),))  # HoDoKu's step
    assert (v4.technique, v4.eliminations) == ("locked_pair", ((39, 2),))  # version 4 keeps its rule


def test_a_pair_removing_from_box_and_line_stays_locked() -> None:
    st = _state(LOCKED_BOTH, "")
    want = {(1, 4), (18, 9), (19, 4), (38, 4), (38, 9), (47, 4), (47, 9)}  # HoDoKu's Locked Pair
    for grader in (4, 5):
        step = next_step(st, grader=grader)
        assert step is not None and step.technique == "locked_pair" and set(step.eliminations) == want


def test_version_5_points_where_version_4_took_a_locked_pair() -> None:
    st = Candidates.from_grid(parse(POINTING_FIRST))
    while (step := next_step(st, grader=4)) is not None and step.technique in ("naked_single", "hidden_single"):
        st.apply(step)
    v5 = next_step(st, grader=5)
    assert step is not None and v5 is not None
    removed = ((41, 5), (50, 5), (59, 5))  # 5 from r5c6, r6c6, r7c6
    assert (step.technique, step.eliminations) == ("locked_pair", removed)
    assert (v5.technique, v5.eliminations) == ("pointing", removed)  # HoDoKu's step


@pytest.mark.parametrize("grader", [4, 5])
def test_the_compiled_probes_follow_each_versions_rule(grader: int) -> None:
    """The kernels probe version 5's subset rows with version 5's rule (and 4's with 4's): the same
    path, step for step, as the pure-Python solver."""
    for puzzle in (POINTING_FIRST, "34..59..61854...7....1.......3.....5.1.....4.6.....3.......7....3...84178..91..53",
                   "7....312..6.49.53.........78.7.4.................8.2.56.........15.76.9..935....2"):
        assert grade(parse(puzzle), compiled=True, grader=grader) == grade(parse(puzzle), compiled=False, grader=grader)


def test_the_level_moves_with_the_rule() -> None:
    """The whole path: version 5 rates dev2's 198th puzzle as HoDoKu does (Extreme, 1860)."""
    g5, g4 = grade(parse(POINTING_FIRST), grader=5), grade(parse(POINTING_FIRST), grader=4)
    assert (g5.level, g5.score) == ("extreme", 1860)
    assert (g4.level, g4.score) == ("expert", 1800)
