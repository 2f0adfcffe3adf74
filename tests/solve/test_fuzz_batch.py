"""Fuzzing the one reader of a command's puzzle input (hypothesis): a file of any bytes under each
suffix (text, .csv, .parquet), stdin, and an inline argument give a list of puzzle lines or one
clear error line, and each line then a puzzle or one clear error line (tiers in tests/fuzzing.py)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from pipeline import board
from pipeline.solve import batch
from tests.fuzzing import TIERS, one_of_two
from tests.test_fuzz_board import any_puzzle, json_line

lines = st.lists(st.one_of(any_puzzle, st.sampled_from([4, 9]).flatmap(json_line), st.text(max_size=20),
                           st.sampled_from(["#", "", "   ", "puzzle", "puzzle,level", "\ufeff"])), max_size=6)
content = st.one_of(lines.map("\n".join), lines.map("\r\n".join).map(str.encode), st.binary(max_size=300),
                    st.sampled_from([b"PAR1", b"PAR1\x00\x00PAR1", b"\xef\xbb\xbfpuzzle\n" + b"." * 81]))


def _read_all(source: Any) -> None:
    if isinstance(source, batch.Source):
        for _, text in source.items:
            one_of_two(lambda text=text: board.parse_with_rules(text))


@pytest.mark.parametrize("tier", TIERS)
def test_any_file_is_puzzles_or_one_line(tier: Any) -> None:
    @tier
    @given(content, st.sampled_from(["p.txt", "p.csv", "p.parquet", "p", "p.sdk", "p.json"]))
    @example(b"puzzle\n" + b"." * 81, "p.csv")
    @example(b"\xff\xfe", "p.txt")
    @example(b"\r\x00", "p.csv")  # found: the header's line break was printed in the column list
    def check(data: str | bytes, name: str) -> None:
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / name
            path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass"))
            _read_all(one_of_two(lambda: batch.load(str(path))))
    check()


@pytest.mark.parametrize("tier", TIERS)
def test_any_stdin_or_argument_is_puzzles_or_one_line(tier: Any) -> None:
    @tier
    @given(st.one_of(lines.map("\n".join), st.text()), st.booleans())
    @example("", False)
    @example("a" * 5000, False)
    @example('\n{"puzzle": "0000000000000", "extra": {"/": null}}', False)  # found: read as a missing file, echoed raw
    @example('{"puzzle": "' + "." * 81 + '", "puzzle_id": "set/1"}', False)
    def check(text: str, stdin: bool) -> None:
        if stdin:
            _read_all(one_of_two(lambda: batch.load("-", stdin=lambda: text)))
        elif "\x00" not in text and text != "-":  # argv cannot hold NUL; "-" is stdin, above
            _read_all(one_of_two(lambda: batch.load(text)))
    check()
