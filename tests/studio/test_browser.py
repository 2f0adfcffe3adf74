"""The studio in a real browser: ``numplace studio`` started as a user starts it, Debian's Chromium
driven by playwright (``executable_path``: nothing downloads a browser) through the deep links and
clicks an editor makes: solve a linked puzzle, type a digit into the grid, repair a broken puzzle,
generate two puzzles with a fixed cell clicked in.

``NUMPLACE_SHOTS=docs/img`` keeps the screenshots there (the pictures in docs/studio.md are made so).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT
from tests.studio.test_repair import BROKEN
from tests.studio.test_solve import EASY, EASY_SOLUTION

pytestmark = [pytest.mark.browser, pytest.mark.heavy, pytest.mark.system]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CELL = 34  # the grid editor's column width in pixels (widgets.CELL)
ROW = 35  # a row of Streamlit's data editor, header included


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``numplace studio`` on a free port over a root holding the small set ``tiny`` (made by
    ``numplace run``); its base URL."""
    if CHROMIUM is None:
        pytest.skip("no Chromium installed (make test-system installs Debian's chromium)")
    pytest.importorskip("playwright.sync_api", reason="playwright is a dev dependency")
    pytest.importorskip("streamlit", reason="the studio extra is not installed")
    import yaml

    from tests.conftest import numplace, tiny

    root = tmp_path_factory.mktemp("root")
    config = root.parent / "tiny.yaml"
    config.write_text(yaml.safe_dump(tiny(root, count=6)), encoding="utf-8")
    made = numplace("run", str(config))
    assert made.returncode == 0, made.stderr
    port = _free_port()
    log = open(root / "studio.log", "w", encoding="utf-8")  # noqa: SIM115 (closed below)
    proc = subprocess.Popen([sys.executable, "-m", "pipeline", "studio", str(root), "--port", str(port)],
                            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ))
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 120
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                if proc.poll() is not None or time.time() > deadline:
                    raise AssertionError((root / "studio.log").read_text()) from None
                time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()


@pytest.fixture(scope="module")
def browser(studio: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def tab(browser: Any) -> Iterator[Any]:
    page = browser.new_page(viewport={"width": 1280, "height": 2000})
    yield page
    page.close()


def _shot(tab: Any, name: str, tmp_path: Path, min_width: int = 1000) -> Path:
    """A full-page screenshot, kept under $NUMPLACE_SHOTS when set; checked to be a real picture."""
    from PIL import Image

    folder = Path(os.environ.get("NUMPLACE_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"studio-{name}.png"
    tab.wait_for_timeout(1500)  # the grid editor and the slider draw a moment after the text
    tab.locator('[data-testid="stStatusWidget"]').wait_for(state="detached", timeout=120_000)  # the run done
    tab.wait_for_function("() => !document.querySelector('[data-stale=\"true\"]')", timeout=60_000)
    tab.screenshot(path=str(path), full_page=True)
    with Image.open(path) as im:
        assert im.width >= min_width and len(im.convert("L").getcolors(256) or ()) > 20  # not a blank page
    return path


def _type_into_grid(tab: Any, editor: Any, row: int, col: int, text: str) -> None:
    """Double-click cell (row, col) (0-based) of a grid editor, type ``text`` into the cell editor that
    opens and press Enter, as a person would; then read the cell back from the grid's accessible
    table (one try more if the grid had not taken the keys yet)."""
    from playwright.sync_api import expect

    box = editor.bounding_box()
    n = round((box["height"] - 2) / ROW) - 1
    cell = editor.locator("table td").nth(row * (n + 1) + 1 + col)  # each row: its number, then n cells
    for attempt in range(3):
        x = box["x"] + box["width"] - (n - col - 0.5) * CELL
        y = box["y"] + ROW * (row + 1.5)
        tab.mouse.dblclick(x, y)
        box_editor = tab.locator("textarea.gdg-input").first  # the data editor's cell editor
        box_editor.wait_for(timeout=10_000)
        box_editor.fill(text)  # typed into the cell editor itself, wherever the focus went
        box_editor.press("Enter")
        try:
            expect(cell).to_have_text(text, timeout=5_000)
            return
        except AssertionError:
            if attempt == 2:
                raise


def test_solve_from_a_link_then_type_a_digit(studio: str, tab: Any, tmp_path: Path) -> None:
    tab.goto(f"{studio}/solve?puzzle={EASY}")
    tab.get_by_text("Status: unique").wait_for(timeout=90_000)
    tab.get_by_text("Step 1: Naked Single").first.wait_for()
    from playwright.sync_api import expect

    expect(tab.locator("svg rect.mark")).to_have_count(1, timeout=30_000)  # the step's cell on the path grid
    _shot(tab, "solve", tmp_path)
    _type_into_grid(tab, tab.locator('[data-testid="stDataFrame"]').first, 0, 2, "4")  # r1c3, the right digit
    tab.wait_for_function("() => location.search.includes('puzzle=534')", timeout=60_000)
    assert tab.url.endswith("puzzle=534.7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5"
                            "....8..79")
    tab.get_by_text("Status: unique").wait_for()


def test_repair_from_a_link(studio: str, tab: Any, tmp_path: Path) -> None:
    tab.goto(f"{studio}/repair?puzzle={BROKEN}")
    tab.get_by_text("Changed givens: 1").wait_for(timeout=120_000)
    tab.get_by_text("1 independent clash(es)").wait_for(timeout=120_000)
    tab.get_by_text("These givens cannot stand together").wait_for(timeout=120_000)
    tab.locator("svg rect.mark").nth(2).wait_for(timeout=30_000)  # the change twice, the core at least once
    _shot(tab, "repair", tmp_path)


def test_generate_two_puzzles_with_a_fixed_cell(studio: str, tab: Any, tmp_path: Path) -> None:
    tab.goto(f"{studio}/generate?lang=en")
    tab.get_by_text("Fixed cells of the solution").click()
    editor = tab.locator('[data-testid="stDataFrame"]').first
    editor.wait_for()
    _type_into_grid(tab, editor, 0, 0, "7")
    count = tab.get_by_label("Count")
    count.fill("2")
    tab.get_by_role("button", name="Generate").click()
    tab.get_by_text("The same as a config for numplace run").wait_for(timeout=180_000)
    assert "fixed=7" in tab.url and "count=2" in tab.url
    from playwright.sync_api import expect

    expect(tab.get_by_text("fixed: 7....")).to_have_count(1, timeout=30_000)  # the YAML for numplace run
    expect(tab.locator('[data-testid="stDownloadButton"]')).to_have_count(2 * 2 + 3)  # PNG, SVG each; CSV, PDF, YAML
    captions = tab.locator('[data-testid="stCaptionContainer"]')
    expect(captions.filter(has_text=" · Hints ")).to_have_count(2)  # each puzzle's caption, drawn before its grade
    expect(captions.filter(has_text=" · Score ")).to_have_count(2)  # the grade written into it when done
    expect(tab.get_by_text("Being graded")).to_have_count(0)
    with tab.expect_download() as got:  # the PDF is made when its button is clicked
        tab.get_by_role("button", name="PDF", exact=True).click()
    assert Path(got.value.path()).read_bytes().startswith(b"%PDF")
    _shot(tab, "generate", tmp_path)


def test_the_pages_in_japanese(studio: str, tab: Any, tmp_path: Path) -> None:
    tab.goto(f"{studio}/?lang=ja")
    tab.get_by_text("ナンプレ スタジオ").first.wait_for(timeout=60_000)
    tab.locator('[data-testid="stPageLink"]').get_by_text("解く").click()  # the home page's link to Solve
    tab.wait_for_function("() => location.pathname.endsWith('/solve') && location.search.includes('lang=ja')",
                          timeout=60_000)
    tab.get_by_role("heading", name="解く").wait_for()
    tab.get_by_role("link", name="修正").first.click()  # the navigation bar: its links carry no query
    tab.get_by_role("heading", name="修正").wait_for(timeout=60_000)  # still Japanese
    tab.wait_for_function("() => location.search.includes('lang=ja')", timeout=30_000)
    tab.goto(f"{studio}/solve?puzzle={EASY}&lang=ja")
    tab.get_by_text("状態: 唯一解").wait_for(timeout=90_000)
    tab.get_by_text("初級").first.wait_for()
    tab.get_by_text("ステップ 1: ネイキッドシングル").first.wait_for()  # the path in Japanese too
    tab.get_by_text(EASY_SOLUTION).first.wait_for(timeout=60_000)  # the solution line drawn
    _shot(tab, "solve-ja", tmp_path)


def test_open_a_set_and_make_a_book(studio: str, tab: Any, tmp_path: Path) -> None:
    tab.goto(f"{studio}/sets")
    tab.get_by_role("link", name="tiny").first.click()
    tab.wait_for_function("() => location.search.includes('set=tiny')", timeout=60_000)
    tab.get_by_text("OK").first.wait_for(timeout=120_000)  # the check's summary
    tab.get_by_role("button", name="Make a book").click()
    button = tab.get_by_role("button", name="Download PDF")
    button.wait_for(timeout=180_000)
    with tab.expect_download() as got:
        button.click()
    pdf = Path(got.value.path()).read_bytes()
    assert pdf.startswith(b"%PDF")
    _shot(tab, "sets", tmp_path)  # docs/img/studio-sets.png
