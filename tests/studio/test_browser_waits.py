"""The long jobs of issue 50 ("Waits") in a real browser (Debian's Chromium, as
:mod:`tests.studio.test_browser` drives it): the click answers at once with a line saying the job runs
and a progress line, the editor can leave the page (the navigation bar, the same session) and come
back, and the result is then on the page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.studio.test_browser import _shot, browser, studio, tab  # noqa: F401 (the fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.heavy, pytest.mark.system]


def _open_tiny(studio: str, tab: Any) -> None:  # noqa: F811
    tab.goto(f"{studio}/sets")
    tab.get_by_role("link", name="tiny").first.click()
    tab.wait_for_function("() => location.search.includes('set=tiny')", timeout=60_000)
    tab.get_by_text("puzzles match").first.wait_for(timeout=120_000)


def test_the_full_check_and_the_report_can_be_left(studio: str, tab: Any, tmp_path: Path) -> None:  # noqa: F811
    _open_tiny(studio, tab)
    tab.get_by_role("button", name="Full check").click()
    running = tab.get_by_text("Full check (numplace check) running")
    running.wait_for(timeout=60_000)  # the click's answer: the job runs, the page does not wait for it
    tab.get_by_text("working:").or_(tab.get_by_text("Waiting for the job before it")).first.wait_for(timeout=30_000)
    tab.get_by_text("Report", exact=True).first.click()  # the fold: its charts come in the background too
    tab.get_by_role("link", name="Solve").first.click()  # leave the page while the check runs
    tab.get_by_role("heading", name="Solve").wait_for(timeout=60_000)
    tab.get_by_role("link", name="Sets").first.click()
    tab.get_by_role("link", name="tiny").first.click()
    tab.wait_for_function("() => location.search.includes('set=tiny')", timeout=60_000)
    tab.get_by_text("Full check (numplace check): sound").wait_for(timeout=300_000)  # the result, kept
    tab.get_by_text("Report", exact=True).first.click()  # the fold closes when another page ran: open it again
    tab.locator('[data-testid="stVegaLiteChart"]').first.wait_for(timeout=120_000)
    assert tab.locator('[data-testid="stVegaLiteChart"]').count() == 6
    assert tab.get_by_role("button", name="Full check").count() == 0


def test_repair_can_be_left_while_its_proof_runs(studio: str, tab: Any, tmp_path: Path) -> None:  # noqa: F811
    from tests.studio.test_repair import HIDDEN

    tab.goto(f"{studio}/repair?puzzle={HIDDEN}")
    tab.get_by_text("Changed givens: 1").wait_for(timeout=120_000)
    looking = tab.get_by_text("Looking for the smallest such set")
    proof = tab.get_by_text("No smaller set was found within")
    looking.or_(proof).first.wait_for(timeout=60_000)  # the repair is drawn; the proof runs in the background
    tab.get_by_role("link", name="Solve").first.click()  # leave Repair (the same session) while it may run
    tab.get_by_role("heading", name="Solve").wait_for(timeout=60_000)
    tab.get_by_role("link", name="Repair").first.click()
    tab.get_by_role("heading", name="Repair").wait_for(timeout=60_000)
    # the puzzle is the one left: the repair is drawn again, the proof's line or the proof follows
    tab.get_by_text("Changed givens: 1").wait_for(timeout=120_000)
    looking.or_(proof).first.wait_for(timeout=60_000)
    tab.wait_for_function(f"() => location.search.includes('{HIDDEN[:20]}')", timeout=60_000)
    proof.wait_for(timeout=300_000)  # and the proof itself, when it is done
    _shot(tab, "repair-left-and-back", tmp_path)
