"""The studio's answers in a real browser (Debian's Chromium through playwright, as
tests/studio/test_browser.py starts it), in English and Japanese (issue 39):

1. a puzzle with two solutions is not fit to print: both solutions labelled, the givens to add;
2. a refused link makes nothing;
3. a bad symbol typed into the grid takes away the answer of the puzzle before it;
4. every independent clash is shown;
5. exactly two solutions are told as exactly two;
7. every page under ``?lang=ja`` shows no English word outside puzzle ids, file names, cell names and
   numplace's own name (code blocks hold machine text: a config, puzzle lines);
8. a solution line is never clipped, and at a phone's width (390 px) the grid editor keeps every column;

and issue 42's technique target: picked on Generate, the puzzle made is one whose path uses it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.studio.test_browser import _shot, _type_into_grid, browser, studio  # noqa: F401 (fixtures)
from tests.studio.test_solve import EASY, EASY_SOLUTION

pytestmark = [pytest.mark.browser, pytest.mark.heavy, pytest.mark.system]
#: EASY without four givens: exactly two solutions (checked in test_two_solutions_exactly).
TWO = None
#: Errors in two rows: r1c2 5 (should be 3) and r5c4 4 (should be 8; row 5 has a 4 in c1).
TWO_ROWS = "55" + EASY[2:39] + "4" + EASY[40:]
#: Words a Japanese page may hold: file types, numplace's own name, OK (numplace check's last line).
ALLOWED = {"numplace", "png", "svg", "csv", "pdf", "yaml", "json", "ok"}


def two_solutions() -> str:
    """EASY with givens taken away (last first) until it has exactly two solutions."""
    from pipeline.board import parse
    from pipeline.solve import solver

    cells = list(EASY)
    for i in reversed(range(81)):
        if cells[i] != ".":
            keep = cells[i]
            cells[i] = "."
            found = solver.count_solutions(parse("".join(cells)), 3)
            if found.count == 2:
                return "".join(cells)
            if found.count > 2:
                cells[i] = keep
    raise AssertionError("no two-solution puzzle on this path")


@pytest.fixture
def tab(browser: Any) -> Iterator[Any]:  # noqa: F811
    page = browser.new_page(viewport={"width": 1400, "height": 2000})
    yield page
    page.close()


def _main_text(tab: Any) -> str:
    """The page's visible text outside code blocks, after the script finished."""
    tab.wait_for_timeout(800)
    tab.locator('[data-testid="stStatusWidget"]').wait_for(state="detached", timeout=120_000)
    return str(tab.evaluate("""() => {
        const main = document.querySelector('[data-testid="stMain"]') || document.body;
        const clone = main.cloneNode(true);
        const machine = '[data-testid="stCode"], pre, code, svg, [data-testid="stIconMaterial"], '
            + '[data-testid="stExpanderIcon"], .material-icons, .material-symbols-rounded';
        clone.querySelectorAll(machine).forEach(e => e.remove());  // machine text, icon ligatures
        document.body.appendChild(clone);
        clone.style.position = 'absolute';
        const text = clone.innerText;
        clone.remove();
        return text;
    }"""))


def english_words(text: str, typed: tuple[str, ...] = ()) -> list[str]:
    """The English words of ``text``: runs of two or more Latin letters that are not a puzzle id, a
    file or folder name, a cell name (r1c2), a technique's short name, what the user typed, or
    :data:`ALLOWED`."""
    text = re.sub(r"\S*[/\\]\S*", " ", text)  # paths (the output root, a set folder)
    text = re.sub(r"\b[\w.-]+-\d{7}\b", " ", text)  # puzzle ids
    text = re.sub(r"\b\d{8}T\d{6}Z-[0-9a-f]{8}\b", " ", text)  # run ids
    text = re.sub(r"\b[\w.-]+\.(png|svg|csv|pdf|yaml|json|txt|parquet)\b", " ", text, flags=re.I)
    text = re.sub(r"\br\d+c\d+\b", " ", text)
    text = re.sub(r"\bnumplace [a-z]+( --[a-z-]+)*", " ", text)  # numplace's own commands (numplace check --fast)
    for word in typed:
        text = text.replace(word, " ")
    return [w for w in re.findall(r"[A-Za-z]{2,}", text) if w.lower() not in ALLOWED]


def _wait(tab: Any, text: str, timeout: int = 120_000) -> None:
    tab.get_by_text(text).first.wait_for(timeout=timeout)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_puzzle_with_two_solutions_is_not_fit_to_print(studio: str, tab: Any, lang: str, tmp_path: Any) -> None:  # noqa: F811
    two = two_solutions()
    words = {"en": ("Status: multiple: exactly 2 solutions", "Not fit to print", "Solution 1", "Solution 2",
                    "Givens to add", "Nothing to repair"),
             "ja": ("状態: 複数解: 解はちょうど 2 個", "このままでは掲載できません", "解答 1", "解答 2", "足すヒント",
                    "修正不要")}[lang]
    for path in ("solve", "repair"):
        tab.goto(f"{studio}/{path}?puzzle={two}&lang={lang}")
        _wait(tab, words[0])  # item 5: exactly two
        for w in words[1:5]:  # item 1: not fit to print, both solutions labelled, what to add
            _wait(tab, w)
        assert tab.get_by_text(words[5]).count() == 0
        tab.locator("svg rect.mark").first.wait_for()
        if lang == "ja":
            assert english_words(_main_text(tab)) == []
    _shot(tab, f"multiple-{lang}", tmp_path)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_refused_link_makes_nothing(studio: str, tab: Any, lang: str) -> None:  # noqa: F811
    refused = {"en": ("over the page's cap", "not a key of the generate page"),
               "ja": ("上限 50 を超えています", "作る画面のパラメータではありません")}[lang]
    for query, said in (("count=51", refused[0]), ("colour=red", refused[1])):
        tab.goto(f"{studio}/generate?{query}&lang={lang}")
        _wait(tab, said)
        tab.locator('[data-testid="stForm"]').wait_for()
        text = _main_text(tab)
        assert tab.locator('[data-testid="stDownloadButton"]').count() == 0, text  # no puzzle, no file
        assert tab.locator(".np-grid").count() == 0, text  # nothing drawn
        if lang == "ja":
            assert english_words(text, ("colour",)) == []


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_bad_symbol_typed_takes_the_old_answer_away(studio: str, tab: Any, lang: str) -> None:  # noqa: F811
    status = {"en": "Status: unique", "ja": "状態: 唯一解"}[lang]
    tab.goto(f"{studio}/solve?puzzle={EASY}&lang={lang}")
    _wait(tab, status)
    editor = tab.locator('[data-testid="stDataFrame"]').first
    editor.wait_for(timeout=120_000)
    _type_into_grid(tab, editor, 0, 2, "x")
    said = {"en": "row 1, column 3: 'x' is not a symbol",  # what was typed, as it was typed
            "ja": "r1c3: 'x' は 9\u00d79 の問題の記号ではありません"}[lang]
    _wait(tab, said, 60_000)
    from playwright.sync_api import expect

    expect(tab.get_by_text(status)).to_have_count(0, timeout=60_000)  # no status of the puzzle before
    expect(tab.locator(".np-grid")).to_have_count(0, timeout=30_000)  # and no solution below it
    text = _main_text(tab)
    if lang == "ja":
        assert english_words(text, ("x",)) == []


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_independent_clash_is_shown(studio: str, tab: Any, lang: str) -> None:  # noqa: F811
    said = {"en": ("Changed givens: 2", "2 independent clash(es)"),
            "ja": ("変更したヒント: 2", "独立した矛盾が 2 組")}[lang]
    tab.goto(f"{studio}/repair?puzzle={TWO_ROWS}&lang={lang}")
    for w in said:
        _wait(tab, w)
    core_lines = tab.locator('[data-testid="stMarkdown"]').filter(has_text=re.compile(r"^[12]\. "))
    core_lines.nth(1).wait_for(timeout=60_000)
    assert core_lines.count() == 2
    assert "r1c1=5 r1c2=5" in core_lines.nth(0).inner_text()
    assert "r5c1=4" in core_lines.nth(1).inner_text() and "r5c4=4" in core_lines.nth(1).inner_text()
    if lang == "ja":
        assert english_words(_main_text(tab)) == []


def test_a_solution_line_is_never_clipped_and_a_phone_keeps_every_column(studio: str, browser: Any,  # noqa: F811
                                                                          tmp_path: Any) -> None:
    for width in (1400, 820, 390):
        page = browser.new_page(viewport={"width": width, "height": 1600})
        try:
            page.goto(f"{studio}/solve?puzzle={EASY}")
            _wait(page, "Status: unique")
            page.get_by_text("Step 1:").first.wait_for(timeout=120_000)  # the page drawn to its end
            page.get_by_text(EASY_SOLUTION).first.wait_for(timeout=60_000)  # the solution line
            codes = page.locator('[data-testid="stCode"]')
            assert codes.count() >= 1
            for k in range(codes.count()):  # every digit of every line inside its box, none behind a scroll
                over = codes.nth(k).evaluate(
                    "e => Math.max(...[e, ...e.querySelectorAll('*')].map(x => x.scrollWidth - x.clientWidth))")
                assert over <= 1, (width, k, over)
            editor = page.locator('[data-testid="stDataFrame"]').first
            editor.wait_for(timeout=120_000)
            box = editor.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1, (width, box)
            if width == 390:
                _type_into_grid(page, editor, 0, 8, "2")  # the last column of the first row: reachable, editable
                page.wait_for_function("() => location.search.includes('puzzle=53..7...2')", timeout=60_000)
                _shot(page, "solve-phone", tmp_path, min_width=390)
        finally:
            page.close()


def test_every_page_in_japanese_has_no_english_word(studio: str, tab: Any, tmp_path: Any) -> None:  # noqa: F811
    bad = "55" + EASY[2:]
    visits = [("/?lang=ja", "ナンプレ スタジオ"),
              (f"/solve?puzzle={EASY}&lang=ja", "ステップ 1"),
              (f"/solve?puzzle={bad}&lang=ja", "状態: 解なし"),
              (f"/solve?puzzle={EASY[:80]}&lang=ja", "マスが 80 個"),
              ("/solve?puzzle=hello%20world&lang=ja", "問題として読めません"),
              (f"/repair?puzzle={bad}&lang=ja", "変更したヒント: 1"),
              (f"/repair?puzzle={EASY}&lang=ja", "修正不要"),
              ("/generate?lang=ja", "作成"),
              ("/generate?count=2&seed=11&lang=ja", "numplace run 用の設定"),
              ("/generate?hints=abc&lang=ja", "N か A-B"),
              ("/sets?lang=ja", "tiny"),
              ("/sets?set=tiny&lang=ja", "問題なし"),  # the quick check's lines (it runs in the background)
              ("/sets?set=tiny&uses=x_wing&lang=ja", "解き筋で使う手筋: 'x_wing'"),
              ("/sets?set=tiny&score=x&lang=ja", "スコア: 'x' は N、A-B、A-、-B"),
              ("/sets?set=nothing&lang=ja", "このフォルダのセットではありません")]
    found: dict[str, list[str]] = {}
    typed = ("hello", "world", "abc", "nothing", "tiny", "x_wing")  # what the links typed, and the set folder
    for path, mark in visits:
        tab.goto(f"{studio}{path}")
        _wait(tab, mark)
        for expander in tab.locator('[data-testid="stExpander"] summary:visible').all():  # open every fold
            expander.click()
        for tab_button in tab.get_by_role("tab").all():  # every tab of the puzzle input
            tab_button.click()
            words = english_words(_main_text(tab), typed)
            if words:
                found[f"{path} [{tab_button.inner_text()}]"] = words
        words = english_words(_main_text(tab), typed)
        if words:
            found[path] = words
        if path.startswith("/sets?set=tiny&lang"):
            check = tab.locator('[data-testid="stCode"]').first.inner_text()
            assert "問、パーツファイル" in check and "対称性" in check  # the check lines too
            chart = tab.locator('[data-testid="stVegaLiteChart"]').first
            chart.wait_for(state="attached", timeout=60_000)  # the report, drawn in the page
            if not chart.is_visible():  # its fold closed again by a rerun: open it for the picture
                tab.get_by_text("レポート").first.click()
                chart.wait_for(timeout=60_000)
            _shot(tab, "sets-ja", tmp_path)
    assert not found, "\n".join(f"{k}: {v}" for k, v in found.items())


def test_a_technique_picked_on_generate_makes_a_puzzle_whose_path_uses_it(studio: str, tab: Any,  # noqa: F811
                                                                           tmp_path: Any) -> None:
    """Pick X-Wing in the form's technique select and generate: the link and the YAML carry it, the
    caption says what the puzzle was made for, and the puzzle's path (the grader's, and the Solve
    page's hardest step) has X-Wing as its hardest technique."""
    from pipeline.board import parse
    from pipeline.difficulty import grade as grading
    from pipeline.generate.technique import hardest

    tab.goto(f"{studio}/generate?lang=en")
    tab.get_by_label("Seed").fill("3")
    tab.get_by_label("Count").fill("1")
    select = tab.locator('[data-testid="stMultiSelect"]').filter(has_text="Made for a technique")
    select.click()
    tab.keyboard.type("X-Wing (Hard)")
    tab.get_by_role("option", name="X-Wing (Hard)", exact=True).click()
    tab.keyboard.press("Escape")
    tab.get_by_role("button", name="Generate").click()
    _wait(tab, "Made for X-Wing (Hard)", 300_000)
    _wait(tab, "The same as a config for numplace run")
    assert "technique=x_wing" in tab.url and "seed=3" in tab.url
    from playwright.sync_api import expect

    expect(tab.get_by_text("technique: x_wing")).to_have_count(1, timeout=30_000)  # the YAML for numplace run
    lines = [c for c in tab.locator('[data-testid="stCode"]').all_inner_texts() if len(c.strip()) == 81]
    assert len(lines) == 1
    line = lines[0].strip()
    _shot(tab, "generate-technique", tmp_path)
    g = grading.grade(parse(line))
    assert "x_wing" in g.techniques and hardest(g.steps, grading.GRADER_VERSION) == "x_wing"
    tab.goto(f"{studio}/solve?puzzle={line}")
    _wait(tab, "hardest: X-Wing", 120_000)  # the Solve page's path says the same
