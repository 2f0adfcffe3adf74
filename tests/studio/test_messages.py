"""The library's messages in Japanese (issue 39 item 7): each pattern's line comes out with no English
word, keeping what the user typed; unknown lines keep their text after a Japanese lead."""

from __future__ import annotations

import re

import pytest

from pipeline.studio.messages import say

LINES = [
    "unknown symbol 'X' at row 5, column 5 (a 9x9 puzzle uses 1-9 and . or 0 for blank)",
    "puzzle has 80 cells; expected 16 for 4x4, 36 for 6x6, 81 for 9x9, 256 for 16x16",
    "row 1, column 3: 'Q' is not a symbol of a 9x9 puzzle (1-9, or empty)",
    "count: 51 is over the page's cap of 50 a request (numplace run makes sets)",
    "seed: 'abc' is not a whole number (0 or more)",
    "hints: 'abc' is not N or A-B",
    "score: 'x' is not N, A-B, A- or -B",
    "row 1 has two 5s (columns 1 and 2)",
    "box 3 has two 1s (r1c7 and r3c9)",
    "the givens admit no solution (no two givens clash directly)",
    "the solver hit its time limit; no answer",
    "no repair with 1 change gives a unique puzzle",
    "board.regions region '3' is not connected (row 4, column 5 is cut off from the rest)",
    "grid.fixed: row 1 has two 7s (columns 1 and 2)",  # a deep link's config error: its field, then the line
    "board.variant: jigsaw needs board.regions",
    "uses: 'nonsense' is not a technique a path of this set uses",
    "technique: 'x_wing' is not a technique a puzzle of this set was made for (no puzzle of it was made for a "
    "technique)",
    "workbook: no puzzle of the sets was made for a technique (make them with difficulty: {technique: NAME} or "
    "numplace generate --technique)",
    "workbook.techniques: x_wing has 2 puzzles made for it left, a chapter needs 7 (a worked example and "
    "workbook.per_technique 6)",
]


@pytest.mark.parametrize("line", LINES)
def test_each_known_line_has_no_english_word(line: str) -> None:
    ja = say(line, "ja")
    words = [w for w in re.findall(r"[A-Za-z]{2,}", re.sub(r"\br\d+c\d+\b|numplace \w+|'[^']*'", " ", ja))]
    assert not words, ja
    assert say(line, "en") == line


def test_what_the_user_typed_is_kept_and_an_unknown_line_is_not_hidden() -> None:
    assert "'abc'" in say("seed: 'abc' is not a whole number (0 or more)", "ja")
    assert say("something new went wrong", "ja") == "入力エラー: something new went wrong"


def test_a_config_error_is_told_under_its_fields_name_and_cells_are_named_alike() -> None:
    assert say("grid.fixed: row 1 has two 7s (columns 1 and 2)", "ja") == \
        "解答の固定マス: 行 1 に 7 が2つあります(1列目と2列目)"
    assert say("board.variant: jigsaw needs board.regions", "ja").startswith("バリアント: ジグソーには")
    assert say("uses: 'nonsense' is not a technique a path of this set uses", "ja").startswith("解き筋で使う手筋: ")
    cell = say("unknown symbol 'a' at row 5, column 5 (a 9x9 puzzle uses 1-9 and . or 0 for blank)", "ja")
    assert cell.startswith("r5c5 の記号 'a' ")  # a cell by its name, as every other line names it
