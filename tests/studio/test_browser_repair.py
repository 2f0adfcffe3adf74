"""Repair in a real browser (Debian's Chromium, as :mod:`tests.studio.test_browser` drives it): the
issue 50 puzzle lists all six equally good repairs and says the choice is the editor's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.studio.test_browser import _shot, browser, studio, tab  # noqa: F401 (the fixtures)
from tests.studio.test_repair import R1C4

pytestmark = [pytest.mark.browser, pytest.mark.heavy, pytest.mark.system]


def test_repair_lists_every_equally_good_repair(studio: str, tab: Any, tmp_path: Path) -> None:  # noqa: F811
    tab.goto(f"{studio}/repair?puzzle={R1C4}")
    tab.get_by_text("Changed givens: 1").wait_for(timeout=480_000)
    box = tab.get_by_text("6 repairs change as few givens and are equally good")
    box.wait_for(timeout=480_000)
    text = tab.locator('[data-testid="stAlert"]', has_text="equally good").inner_text()
    for change in ("r9c2: 4 -> 3", "r1c4: 4 -> 5", "r1c9: 2 -> 7", "r3c5: 2 -> 9", "r6c6: 4 -> 3", "r6c6: 4 -> 8"):
        assert change in text, text
    assert "editor's choice" in text
    _shot(tab, "repair-equally-good", tmp_path)
