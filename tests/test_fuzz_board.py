"""Fuzzing the puzzle parsers (hypothesis): any text, puzzle-like text of every size, drawn grids and
JSON puzzle lines with variant, regions and cages give a puzzle or one clear error line, never
another exception (tiers in tests/fuzzing.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from pipeline import board
from tests.fuzzing import TIERS, one_of_two

SIDES = (4, 6, 9, 16, 25)
JUNK = ".0 |+-=:_*#\n\t\r\x00é½٣ⅷ"
json_values = st.recursive(st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats() | st.text(max_size=8),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                                      max_size=4), max_leaves=12)


def puzzle_text(n: int) -> SearchStrategy[str]:
    """Text near a puzzle of side ``n``: its symbols and blanks, some junk, about ``n*n`` of them."""
    alphabet = board.SYMBOLS[:n] + board.SYMBOLS[:n].lower() + JUNK + "Z"
    return st.text(alphabet=alphabet, min_size=max(0, n * n - 3), max_size=n * n + 3 + n)


any_puzzle = st.sampled_from(SIDES).flatmap(puzzle_text)


def _check_grid(value: Any) -> None:
    if isinstance(value, tuple):
        n = board.size_of_grid(value)
        assert all(0 <= d <= n for d in value)


@pytest.mark.parametrize("tier", TIERS)
def test_parse_any_text(tier: Any) -> None:
    @tier
    @given(st.one_of(st.text(), any_puzzle), st.one_of(st.none(), st.sampled_from(SIDES)))  # n: the caller's size
    @example("1" * 81, None)
    @example("", 9)
    @example("." * 625, None)
    def check(text: str, n: int | None) -> None:
        _check_grid(one_of_two(lambda: board.parse(text, n)))
    check()


def cage(n: int) -> SearchStrategy[Any]:
    cells = st.lists(st.integers(-2, n * n + 2), max_size=6)
    well_formed = st.fixed_dictionaries({"cells": cells, "sum": st.integers(-5, 3 * n * n)})
    return st.one_of(well_formed, json_values)


def json_line(n: int) -> SearchStrategy[str]:
    """A JSON puzzle line for side ``n``: each key present or not, each value well formed or not."""
    kinds = st.sampled_from(["x", "hyper", "jigsaw", "killer", "classic", "windoku", "", "X+Hyper", "x+killer"])
    variant = st.one_of(st.none(), kinds, st.lists(kinds, max_size=3), json_values)
    labels = st.text(alphabet="123456789ABCDEFGabc. ,\n", min_size=n * n - 2, max_size=n * n + 2)
    regions = st.one_of(st.none(), labels, json_values)
    cages = st.one_of(st.none(), st.lists(cage(n), max_size=8), json_values)
    entries = st.fixed_dictionaries({}, optional={"puzzle": st.one_of(puzzle_text(n), json_values),
                                                  "variant": variant, "regions": regions, "cages": cages,
                                                  "puzzle_id": json_values, "extra": json_values})
    return entries.map(json.dumps)


@pytest.mark.parametrize("tier", TIERS)
def test_parse_json_puzzle_lines(tier: Any) -> None:
    @tier
    @given(st.one_of(st.sampled_from(SIDES).flatmap(json_line), json_values.map(json.dumps),
                     st.text().map("{".__add__)))
    @example('{"puzzle": "' + "." * 81 + '", "variant": "killer", "cages": [{"cells": [0, 1], "sum": 10**20}]}'
             .replace("10**20", "9" * 20))
    @example('{"puzzle": "' + "." * 81 + '", "variant": "jigsaw", "regions": "1"}')
    def check(text: str) -> None:
        out = one_of_two(lambda: board.parse_with_rules(text))
        if isinstance(out, tuple):
            grid, variant = out
            _check_grid(grid)
            assert board.variant_problem(board.size_of_grid(grid), variant) is None
    check()
