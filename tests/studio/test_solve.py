"""The Solve page: status word for word as ``numplace solve --count``, both solutions of a puzzle
with two, the solution of a unique one, its grade and path, and bad input as one inline line."""

from __future__ import annotations

import re

from pipeline.board import format_line, parse
from pipeline.solve import solver
from tests.studio.apptest import page, texts

EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
EASY_SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def _multiple() -> str:
    """EASY with givens taken away (last first) until it has several solutions."""
    cells = list(EASY)
    for i in reversed(range(81)):
        if cells[i] != ".":
            cells[i] = "."
            if solver.solve(parse("".join(cells))).status == "multiple":
                return "".join(cells)
    raise AssertionError("unreachable")


def two_solutions() -> str:
    """EASY with givens taken away (last first, a removal that gives three or more put back) until
    it has exactly two solutions."""
    cells = list(EASY)
    for i in reversed(range(81)):
        if cells[i] != ".":
            keep, cells[i] = cells[i], "."
            found = solver.count_solutions(parse("".join(cells)), 3)
            if found.count == 2:
                return "".join(cells)
            if found.count > 2:
                cells[i] = keep
    raise AssertionError("no two-solution puzzle on this path")


def _marks(svg: str) -> int:
    return len(re.findall(r'<rect class="mark"', svg))


def marked_cells(svg: str, n: int = 9) -> set[tuple[int, int]]:
    """The (row, col) of every marked cell of a drawn grid, 0-based, read back from the SVG."""
    pad = float(re.search(r'<rect x="([\d.]+)" y="[\d.]+" width="[\d.]+" height="[\d.]+" fill="none"', svg).group(1))
    out = set()
    for x, y, w in re.findall(r'<rect class="mark" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"', svg):
        out.add((round((float(y) - pad) / float(w)), round((float(x) - pad) / float(w))))
    return out


def test_a_unique_puzzle_from_the_url_is_solved_graded_and_explained() -> None:
    at = page("solve", {"puzzle": EASY})
    assert not at.exception
    assert at.subheader[0].value == "Status: unique"
    assert EASY_SOLUTION in [c.value for c in at.code]
    text = texts(at)
    assert "**Easy**" in text and "Step 1: Naked Single" in text
    assert at.query_params["puzzle"] == EASY


def test_stepping_through_the_path_marks_the_cells_of_the_step() -> None:
    at = page("solve", {"puzzle": EASY})
    at.slider(key="solve.step").set_value(3).run()
    text = texts(at)
    step = re.search(r"Step 3: Naked Single in r(\d)c(\d) — sets r\dc\d = (\d)", text)
    assert step, text
    grids = [m.value for m in at.markdown if "<svg" in m.value]
    r, c = int(step.group(1)) - 1, int(step.group(2)) - 1
    assert marked_cells(grids[-1]) == {(r, c)}  # the one cell the single sets, and no other


def test_two_solutions_are_drawn_side_by_side_with_the_differences_marked() -> None:
    puzzle = two_solutions()
    at = page("solve", {"puzzle": puzzle})
    result = solver.solve(parse(puzzle), 3)
    assert len(result.solutions) == 2
    assert at.subheader[0].value == "Status: multiple: exactly 2 solutions"  # not "at least 2 (limit 2)"
    a, b = (format_line(s) for s in result.solutions)
    codes = [c.value for c in at.code]
    assert a in codes and b in codes
    text = texts(at)
    assert "**Solution 1**" in text and "**Solution 2**" in text
    differ = sum(x != y for x, y in zip(a, b, strict=True))
    grids = [m.value for m in at.markdown if "<svg" in m.value]
    assert [_marks(g) for g in grids[:2]] == [differ, differ]
    assert "Add these givens and the puzzle has one solution (1, the fewest" in text  # two solutions: one cell


def test_three_or_more_solutions_are_at_least_three() -> None:
    at = page("solve", {"puzzle": _multiple()})
    assert at.subheader[0].value in ("Status: multiple: at least 3 solutions", "Status: multiple: exactly 2 solutions")
    at = page("solve", {"puzzle": "." * 81})
    assert at.subheader[0].value == "Status: multiple: at least 3 solutions"
    assert at.warning[0].value.startswith("Not fit to print")


def test_no_solution_says_why_and_links_the_repair_page() -> None:
    bad = "55" + EASY[2:]
    at = page("solve", {"puzzle": bad})
    assert at.subheader[0].value == "Status: none"
    assert "row 1 has two 5s" in texts(at)
    (link,) = at.get("page_link")  # to the Repair page of the same puzzle, in this tab
    assert (link.proto.page, link.proto.query_string) == ("repair", f"puzzle={bad}")


def test_bad_input_is_one_inline_line_naming_the_cell() -> None:
    at = page("solve", {"puzzle": EASY[:40] + "x" + EASY[41:]})
    assert not at.exception
    assert [e.value for e in at.error] == ["unknown symbol 'x' at row 5, column 5 (a 9x9 puzzle uses 1-9 and . or 0 "
                                           "for blank)"]
    at = page("solve", {"puzzle": EASY[:80]})
    assert [e.value for e in at.error] == ["puzzle has 80 cells; expected 16 for 4x4, 36 for 6x6, 81 for 9x9, "
                                           "256 for 16x16; blanks . or 0 (or -, _, * in a line of cells); 16x16 "
                                           "in 1-G, or in 0-F with . for blank"]
    at = page("solve", {"puzzle": "hello world"})  # what was expected, not "10 cells"
    assert at.error[0].value.startswith("not a puzzle: expected one line of 81 symbols for 9x9")
    at = page("solve", {"puzzle": EASY[:40] + "x" + EASY[41:], "lang": "ja"})
    assert [e.value for e in at.error] == ["r5c5 の記号 'x' は使えません(9\u00d79 の問題は 1-9 と、空白に . か 0)"]
    assert not at.subheader  # no status of another puzzle


def test_a_grid_as_numplace_show_prints_it_is_read() -> None:
    from pipeline.board import format_grid

    shown = (f"default-classic-0000012  hints 30  symmetry rot180  minimal True  orbit_minimal True  "
             f"difficulty easy 24\n{format_grid(parse(EASY))}\n")
    at = page("solve", {"puzzle": shown})
    assert not at.exception and not at.error
    assert at.subheader[0].value == "Status: unique"
    assert at.query_params["puzzle"] == EASY


def test_pasting_a_drawn_grid_edits_the_puzzle_and_the_url() -> None:
    """The paste box takes a drawn grid; the URL then holds its line (typing into the grid itself is
    driven in a real browser: tests/studio/test_browser.py)."""
    at = page("solve", {"puzzle": EASY})
    changed = "531" + EASY[3:]
    drawn = "\n".join(" ".join(changed[r * 9:(r + 1) * 9]) for r in range(9))
    at.text_area(key="solve.text").set_value(drawn).run()
    assert at.query_params["puzzle"] == changed
    assert at.subheader[0].value == "Status: none"


def test_a_variant_puzzle_from_the_url() -> None:
    at = page("solve", {"puzzle": EASY, "variant": "x"})
    assert not at.exception
    # EASY is not an X-sudoku: its solution breaks the diagonals, so under X rules it has none
    assert at.subheader[0].value == "Status: none"
    at = page("solve", {"puzzle": EASY, "variant": "jigsaw", "regions": "1" * 81})
    assert at.error and "region" in at.error[0].value


def test_every_technique_has_a_japanese_name() -> None:
    from pipeline.difficulty.techniques import TECHNIQUES
    from pipeline.studio import steps

    missing = [name for name in TECHNIQUES if steps.title(name, "ja") == name]
    assert not missing, missing
    assert all(not any("a" <= ch <= "z" for ch in steps.title(name, "ja")) for name in TECHNIQUES)  # no English words


def test_the_path_in_japanese_names_techniques_and_steps_in_japanese() -> None:
    at = page("solve", {"puzzle": EASY, "lang": "ja"})
    assert not at.exception
    text = texts(at)
    assert "ステップ 1: ネイキッドシングル — r" in text and "を入れる" in text, text
    assert "最も難しい手筋: ネイキッドシングル" in text or "最も難しい手筋: ヒドゥンシングル" in text, text
    assert "Naked Single" not in text and "Step 1" not in text


def test_a_japanese_elimination_step_names_the_digit_and_cells() -> None:
    from pipeline.difficulty.candidates import Step
    from pipeline.studio import steps

    step = Step("x_wing", (1, 2, 3, 4), eliminations=((40, 7), (80, 7), (0, 3)), digits=(7,))
    assert steps.step_line(step, 9, 12, "ja") == ("ステップ 12: Xウィング — 候補 3 を r1c1 から消す、"
                                                  "候補 7 を r5c5, r9c9 から消す")
    assert steps.step_line(step, 9, 12, "en").startswith("Step 12: X-Wing")
