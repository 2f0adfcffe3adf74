"""Puzzles as the pages take them: URL fields, JSON lines, grid tables, uploads."""

from __future__ import annotations

import json

import pytest

from pipeline.board import PuzzleFormatError, parse
from pipeline.studio import puzzle_io
from pipeline.studio.puzzle_io import PuzzleQuery
from tests.studio.test_solve import EASY


def test_a_query_reads_as_solve_reads_a_json_line() -> None:
    cages = [{"cells": [0, 1], "sum": 8}]
    q = PuzzleQuery(EASY, "x+hyper", "", json.dumps(cages))
    assert json.loads(q.json_line()) == {"puzzle": EASY, "variant": "x+hyper", "cages": cages}
    assert q.params() == {"puzzle": EASY, "variant": "x+hyper", "cages": json.dumps(cages)}
    assert puzzle_io.from_params(q.params()) == q
    assert PuzzleQuery(EASY).json_line() == EASY


def test_query_of_a_json_line_and_back() -> None:
    line = json.dumps({"puzzle": EASY, "variant": ["killer"], "cages": [{"cells": [0, 1], "sum": 8}]})
    q = puzzle_io.query_of(line)
    assert (q.puzzle, q.variant, json.loads(q.cages)) == (EASY, "killer", [{"cells": [0, 1], "sum": 8}])
    assert puzzle_io.query_of("{not json").puzzle == "{not json"


@pytest.mark.parametrize(("query", "message"), [
    (PuzzleQuery(""), "puzzle: empty"),
    (PuzzleQuery(EASY, cages="[1,"), "cages: not JSON"),
    (PuzzleQuery(EASY[:-1]), "puzzle has 80 cells"),
    (PuzzleQuery(EASY, "jigsaw", "1" * 81), "region"),
    (PuzzleQuery(EASY, "killer"), "a killer puzzle needs its cages"),
])
def test_parse_refuses_in_one_line(query: PuzzleQuery, message: str) -> None:
    with pytest.raises(PuzzleFormatError) as err:
        puzzle_io.parse(query)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_tables_round_trip_and_name_the_bad_cell() -> None:
    rows = puzzle_io.table(EASY, 9)
    assert rows[0][:3] == ["5", "3", ""]
    assert puzzle_io.from_table(rows) == EASY
    rows[4][6] = "12"
    with pytest.raises(PuzzleFormatError, match=r"^row 5, column 7: '12' is not a symbol of a 9x9 puzzle"):
        puzzle_io.from_table(rows)
    rows[4][6] = None
    assert puzzle_io.from_table(rows)[4 * 9 + 6] == "."


def test_uploads_are_read_as_solve_reads_files() -> None:
    text, count = puzzle_io.read_upload("two.txt", f"# a comment\n{EASY}\n{EASY}\n".encode())
    assert (text, count) == (EASY, 2)
    text, count = puzzle_io.read_upload("p.csv", f"id,puzzle\n1,{EASY}\n".encode())
    assert (text, count) == (EASY, 1)
    with pytest.raises(PuzzleFormatError, match=r"^empty\.txt: empty, no puzzle in it$"):
        puzzle_io.read_upload("empty.txt", b"# nothing\n")


def test_grid_after_fills_the_placements_of_the_first_steps() -> None:
    from pipeline.difficulty import grade

    g = grade.grade(parse(EASY))
    after = puzzle_io.grid_after(parse(EASY), g.steps, 2)
    placed = [i for i, (a, b) in enumerate(zip(parse(EASY), after, strict=True)) if a != b]
    assert placed == sorted(c for s in g.steps[:2] for c, _ in s.placements)
