"""Tier 1: structural invariants of every board size, and parse/format."""

from __future__ import annotations

import pytest

from pipeline.board import SIZES, PuzzleFormatError, board, format_grid, format_line, parse

SUPPORTED = [4, 6, 9, 16]


@pytest.mark.parametrize("n", SUPPORTED)
def test_units_and_peers(n: int) -> None:
    b = board(n)
    assert b.box_rows * b.box_cols == n
    assert len(b.units) == 3 * n
    assert all(len(u) == n and len(set(u)) == n for u in b.units)
    # every cell is in exactly one row, one column and one box
    for i in range(n * n):
        assert sum(i in u for u in b.units) == 3
        # peers: n-1 in the row, n-1 in the column, plus the box cells outside both
        expected = 2 * (n - 1) + (b.box_rows - 1) * (b.box_cols - 1)
        assert len(b.peers[i]) == expected
        assert i not in b.peers[i]
    assert b.symbols == "123456789ABCDEFG"[:n]


def test_box_shapes() -> None:
    assert [(board(n).box_rows, board(n).box_cols) for n in SUPPORTED] == [(2, 2), (2, 3), (3, 3), (4, 4)]
    assert 25 in SIZES
    with pytest.raises(ValueError, match="not supported"):
        board(7)


def test_parse_line_and_drawing_agree() -> None:
    line = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    grid = parse(line)
    assert grid[:5] == (5, 3, 0, 0, 7)
    assert parse(format_grid(grid)) == grid
    assert format_line(grid) == line
    assert parse(line.replace(".", "0")) == grid


def test_parse_16_uses_letters() -> None:
    text = "G" + "." * 255
    assert parse(text)[0] == 16
    assert format_line(parse(text))[0] == "G"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1" * 80, "80 cells"),
        ("." * 80 + "X", "unknown symbol 'X' at row 9, column 9"),
        ("." * 15 + "5", "unknown symbol '5' at row 4, column 4"),
        ("", "0 cells"),
    ],
)
def test_parse_errors_name_the_place(text: str, message: str) -> None:
    with pytest.raises(PuzzleFormatError, match=message):
        parse(text)
