"""What ``numplace show`` prints, read back by the one reader (:mod:`pipeline.solve.blocks`, used by
``solve``, ``rate`` and the studio); the notations a puzzle text may use (:func:`pipeline.board.parse`);
and the small words of the CLI (rates, level order)."""

from __future__ import annotations

import json
from typing import Any

import polars as pl
import pytest

from pipeline import board
from pipeline.board import PuzzleFormatError, format_grid, format_line, parse, parse_with_rules
from pipeline.solve import batch, blocks
from pipeline.studio import puzzle_io
from tests.conftest import DATA

SET = DATA / "legacy_set" / "outputs" / "legacy-classic"
P = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def _rows() -> list[dict[str, Any]]:
    return pl.concat([pl.read_parquet(p) for p in sorted(SET.rglob("part-*.parquet"))]).to_dicts()


def _read(text: str) -> list[tuple[int, str]]:
    return batch.load("-", stdin=lambda: text).items


def _variant_rows() -> list[dict[str, Any]]:
    data = json.loads((DATA / "variants" / "golden.json").read_text())
    out = []
    for p in data["puzzles"]:
        n = round(len(p["puzzle"]) ** 0.5)
        out.append({"puzzle": p["puzzle"], "size": n, "variant": p["variant"], "regions": p.get("regions"),
                    "cages": p.get("cages"), "puzzle_id": p["name"], "hints": 0, "symmetry": "none",
                    "minimal": False, "orbit_minimal": False})
    return out


def test_show_block_reads_back_as_its_puzzle() -> None:
    """The issue's `show SET --limit 1 | rate -`: the header's digits are not cells."""
    row = _rows()[0]
    text = "\n".join(blocks.show_lines([row]))
    source = batch.load("-", stdin=lambda: text)
    assert source.single
    assert format_line(parse_with_rules(source.items[0][1])[0]) == row["puzzle"]


def test_several_show_blocks_are_a_batch_in_order() -> None:
    rows = _rows()
    text = "\n".join(blocks.show_lines(rows))
    items = _read(text)
    assert [format_line(parse_with_rules(t)[0]) for _, t in items] == [r["puzzle"] for r in rows]
    lines = list(blocks.show_lines(rows, "line"))
    assert lines == [r["puzzle"] for r in rows]
    assert [t for _, t in _read("\n".join(lines))] == lines


def test_a_title_line_before_the_puzzle_is_left_out() -> None:
    for text in (f"Puzzle 1 (easy)\n{P}\n", f"Puzzle 1 (easy)\n{format_grid(parse(P))}\n"):
        source = batch.load("-", stdin=lambda text=text: text)
        assert source.single and format_line(parse_with_rules(source.items[0][1])[0]) == format_line(parse(P))
    items = _read(f"Puzzles of March\n{P}\n{P[::-1]}\n")
    assert [t for _, t in items] == [P, P[::-1]] and [k for k, _ in items] == [2, 3]


def test_a_bad_line_of_a_batch_is_still_named_by_its_number() -> None:
    items = _read(f"{P}\n53..7..X.\n{P}\n")
    assert [k for k, _ in items] == [1, 2, 3]
    rows = batch.solve_batch(items, "solve", 2, 1)
    assert [r["status"] for r in rows] == ["unique", "invalid", "unique"]


def test_the_studio_reads_a_pasted_show_block_with_the_same_reader() -> None:
    row = _rows()[1]
    assert puzzle_io.line_of("\n".join(blocks.show_lines([row]))) == row["puzzle"]
    assert puzzle_io.line_of(f"Puzzle 1 (easy)\n{format_grid(parse(P))}") == format_line(parse(P))


@pytest.mark.parametrize("row", _variant_rows(), ids=lambda r: r["puzzle_id"])
def test_variant_show_blocks_and_lines_read_back_with_their_rules(row: dict[str, Any]) -> None:
    want = parse_with_rules(json.dumps({k: row[k] for k in ("puzzle", "variant", "regions", "cages")}))
    ((_, text),) = _read("\n".join(blocks.show_lines([row])))
    assert parse_with_rules(text) == want
    (line,) = blocks.show_lines([row], "line")
    assert parse_with_rules(line) == want


def test_a_drawn_16x16_row_is_a_row_not_a_4x4_puzzle() -> None:
    line = next(ln.split(":")[0] for ln in (DATA / "golden_small.txt").read_text().splitlines()
                if len(ln.split(":")[0]) == 256)
    row = {"puzzle": line, "size": 16, "puzzle_id": "p", "hints": 0, "symmetry": "none", "minimal": False,
           "orbit_minimal": False}
    ((_, text),) = _read("\n".join(blocks.show_lines([row])))
    assert format_line(parse(text)) == line


def test_jigsaw_grids_draw_their_regions_not_boxes() -> None:
    row = next(r for r in _variant_rows() if r["regions"])
    variant = board.make_variant(row["variant"], row["regions"])
    n = row["size"]
    drawn = format_grid(parse(row["puzzle"]), variant).splitlines()
    assert "------+-------+------" not in drawn
    cells = drawn[::2]
    assert len(cells) == n
    labels = variant.regions
    assert labels is not None
    for r, line in enumerate(cells):  # a | between two cells exactly where their regions differ
        walls = [line[4 * c + 2] == "|" for c in range(n - 1)]
        assert walls == [labels[r * n + c] != labels[r * n + c + 1] for c in range(n - 1)]
    for r, rule in enumerate(drawn[1::2]):  # a - under a cell exactly where the cell below is in another region
        rule = rule.ljust(4 * n)
        assert [rule[4 * c] == "-" for c in range(n)] == [labels[r * n + c] != labels[(r + 1) * n + c]
                                                          for c in range(n)]
    assert parse(format_grid(parse(row["puzzle"]), variant)) == parse(row["puzzle"])


def test_16x16_in_0_to_f_reads_as_1_to_g() -> None:
    line = next(ln.split(":")[0] for ln in (DATA / "golden_small.txt").read_text().splitlines()
                if len(ln.split(":")[0]) == 256)
    hexed = line.translate(str.maketrans("123456789ABCDEFG", "0123456789ABCDEF"))
    assert parse(hexed) == parse(line)
    assert parse(line.replace(".", "0")) == parse(line)  # 1-G with 0 blanks: as before


@pytest.mark.parametrize("blank", ["-", "_", "*"])
def test_dash_underscore_and_star_blanks(blank: str) -> None:
    assert parse(P.replace(".", blank)) == parse(P)
    assert parse(format_grid(parse(P)).replace(".", blank)) == parse(P)  # drawn, with its rules


def test_texts_read_before_keep_their_meaning() -> None:
    assert parse(P.replace(".", "0")) == parse(P)
    assert parse(format_grid(parse(P))) == parse(P)
    assert parse("1-2-3-4" + "." * 12) == parse("1234" + "." * 12)  # a - between cells is drawing, as before


def test_a_text_that_adds_up_to_no_board_names_the_notations() -> None:
    with pytest.raises(PuzzleFormatError, match=r"puzzle has 3 cells; .*blanks \. or 0 \(or -, _, \*"):
        parse("53-7")


def test_rates_are_plain_numbers() -> None:
    from pipeline.progress import plain

    assert [plain(x) for x in (6960.4, 42.14, 9.8, 0.0131)] == ["6960", "42.1", "9.8", "0.0131"]


def test_levels_are_listed_easy_to_extreme() -> None:
    from pipeline.run.sets import by_level

    assert list(by_level({"extreme": 1, "easy": 2, "hard": 3, "medium": 4, "expert": 5})) == [
        "easy", "medium", "hard", "expert", "extreme"]
