"""The skyscraper's search order by grader version (pipeline.difficulty.patterns.single_digit.skyscraper).

From grader version 5 the skyscraper row searches as HoDoKu's ``findSkyscraper`` does (every digit's
pairs of rows, then of columns), so where several skyscrapers apply it takes HoDoKu's. The expected
eliminations are HoDoKu's own steps, read from hodoku-py's solving paths of development-set puzzles
(``bench/path_vs_hodoku.py``); version 4 keeps its first-found skyscraper.
"""

from __future__ import annotations

import pytest

from pipeline.board import parse
from pipeline.difficulty.grade import grade
from pipeline.difficulty.logic import Candidates, next_step

#: (puzzle, HoDoKu's first skyscraper, grader 4's): the development set's 10th and 114th puzzles
#: (``/tmp/heldout/dev.jsonl``, HoDoKu's generator, seed 1001; HoDoKu Hard 552 and 564).
CASES = [
    ("..59...2.........6....8.7.......735......8...5..1..47.36.5...198...21....4.......",
     ((9, 2), (46, 2)), ((39, 2), (46, 2))),  # HoDoKu: 2 out of r2c1, r6c2; grader 4: r5c4, r6c2
    (".58.49..664..53.2..................7..2........92.453..9.47..8.3....6..........69",
     ((28, 8), (72, 8)), ((67, 8), (72, 8))),  # HoDoKu: 8 out of r4c2, r9c1; grader 4: r8c5, r9c1
]


@pytest.mark.parametrize(("puzzle", "hodoku", "v4"), CASES)
def test_the_skyscraper_is_hodokus_from_version_5(puzzle: str, hodoku: tuple, v4: tuple) -> None:
    st = Candidates.from_grid(parse(puzzle))
    while (step := next_step(st, grader=4)) is not None and step.technique != "skyscraper":
        st.apply(step)
    v5 = next_step(st, grader=5)
    assert step is not None and v5 is not None
    assert (v5.technique, v5.eliminations) == ("skyscraper", hodoku)
    assert step.eliminations == v4  # a set begun under version 4 keeps its step


@pytest.mark.parametrize(("puzzle", "hodoku", "v4"), CASES)
def test_the_compiled_path_follows(puzzle: str, hodoku: tuple, v4: tuple) -> None:
    assert grade(parse(puzzle), compiled=True, grader=5) == grade(parse(puzzle), compiled=False, grader=5)
