"""The Sets page's long jobs (issue 50, "Waits") through Streamlit's headless ``AppTest``: the report
fold and the full check answer the click at once with a line saying they run and a progress line,
run on in the background when the editor leaves the page, and show their result when the editor
comes back. The jobs are held by a gate so that what the click draws is seen before they finish."""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("streamlit")

from streamlit.testing.v1 import AppTest

from pipeline.studio import background, widgets
from pipeline.studio.words import word
from tests.studio.test_sets import TIMEOUT, _app, mix_root, page, texts  # noqa: F401 (the fixture)


def _session(monkeypatch: pytest.MonkeyPatch, root: Path, **params: str) -> AppTest:
    monkeypatch.setenv("NUMPLACE_STUDIO_ROOT", str(root))
    at = AppTest.from_function(_app, default_timeout=TIMEOUT)
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    return at


def _leave_and_come_back(at: AppTest, name: str) -> None:
    """The editor goes to the list of sets (the same session: its state is kept, but its widgets, such as
    the report's fold, are closed when another page ran) and back to ``name``."""
    at.query_params.clear()
    at.run()
    assert not at.exception and not [e for e in at.info if "running" in str(e.value)]
    at.query_params["set"] = name
    at.run()


def test_the_report_answers_at_once_and_counts_its_charts(monkeypatch: pytest.MonkeyPatch, mix_root: Path,  # noqa: F811
                                                           tmp_path: Path) -> None:
    from pipeline.studio.views import sets

    monkeypatch.setenv("NUMPLACE_CACHE_DIR", str(tmp_path))
    gate, made = threading.Event(), threading.Event()
    real = sets.report_specs

    def held(rows: Any, lang: Any, job: Any = None) -> Any:
        specs = real(rows, lang, job)  # every chart made (and counted), then held until the test lets it go
        made.set()
        gate.wait(TIMEOUT)
        return specs

    monkeypatch.setattr(sets, "report_specs", held)
    key = ("report", str(mix_root / "mix"), hash(sets.signature(mix_root / "mix")), "en")
    background.forget(key)
    at = page(monkeypatch, mix_root, set="mix")  # the quick check done, so only the report is pending
    at.session_state["sets.plots"] = True  # the fold opened
    at.run()
    assert not at.exception and word("reporting", "en") in texts(at, "info")
    assert not at.get("vega_lite_chart")  # nothing half-made is drawn
    assert made.wait(TIMEOUT)
    at.run()  # what the line's own poll does every half second
    assert word("reporting", "en") in texts(at, "info") and not at.get("vega_lite_chart")
    (line,) = [c for c in texts(at, "caption") if c.startswith("working:")]
    assert re.fullmatch(r"working: 6 of 6 charts, \d+ s so far", line), line
    assert at.markdown and any("puzzles match" in m for m in texts(at, "markdown"))  # the rest of the page is there
    _leave_and_come_back(at, "mix")  # the job still held: the fold opened again shows the line, no chart
    at.session_state["sets.plots"] = True
    at.run()
    assert word("reporting", "en") in texts(at, "info") and not at.get("vega_lite_chart")
    gate.set()
    assert background.wait(TIMEOUT)
    _leave_and_come_back(at, "mix")
    at.session_state["sets.plots"] = True
    at.run()
    assert word("reporting", "en") not in texts(at, "info")
    assert len(at.get("vega_lite_chart")) == 6
    background.forget(key)


def test_the_full_check_answers_at_once_and_runs_on_when_the_editor_leaves(
        monkeypatch: pytest.MonkeyPatch, mix_root: Path, tmp_path: Path) -> None:  # noqa: F811
    from pipeline.studio import checks
    from pipeline.studio.views import sets

    monkeypatch.setenv("NUMPLACE_CACHE_DIR", str(tmp_path))
    gate, begun = threading.Event(), threading.Event()
    real = checks.in_child
    full_runs: list[str] = []

    def held(path: str, fast: bool, sig: tuple[Any, ...]) -> dict[str, list[str]]:
        if not fast:
            full_runs.append(path)
            begun.set()
            gate.wait(TIMEOUT)
        return real(path, fast, sig)

    monkeypatch.setattr(checks, "in_child", held)
    key = ("check-full", str(mix_root / "mix"), hash(sets.signature(mix_root / "mix")))
    background.forget(key)
    at = page(monkeypatch, mix_root, set="mix")
    (full,) = [b for b in at.button if b.label == "Full check"]
    full.click().run()
    assert not at.exception and word("checking_full", "en") in texts(at, "info")
    assert begun.wait(TIMEOUT)
    at.run()  # what the line's own poll does every half second
    (line,) = [c for c in texts(at, "caption") if c.startswith("working:")]
    assert re.fullmatch(r"working: \d+ s so far", line), line
    _leave_and_come_back(at, "mix")
    assert word("checking_full", "en") in texts(at, "info")  # still running, not started twice
    gate.set()
    assert background.wait(TIMEOUT)
    _leave_and_come_back(at, "mix")
    assert word("checking_full", "en") not in texts(at, "info")
    assert texts(at, "error") == ["Full check (numplace check): problems found"]  # the mix set's fake rows
    assert full_runs == [str(mix_root / "mix")]
    background.forget(key)


def test_the_progress_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before the job starts (another runs first), counted steps, seconds only; in Japanese too."""
    gate, started = threading.Event(), threading.Event()

    def first() -> None:
        started.set()
        gate.wait(TIMEOUT)

    background.forget(("test", "first"))
    background.forget(("test", "second"))
    background.submit(("test", "first"), first)
    background.submit(("test", "second"), lambda: None)
    assert started.wait(TIMEOUT)
    monkeypatch.setattr(widgets, "t", lambda k: word(k, "en"))
    assert widgets.progress_line(("test", "second"), "charts") == "Waiting for the job before it to finish"
    assert re.fullmatch(r"working: \d+ s so far", widgets.progress_line(("test", "first"), "charts"))
    background.step(("test", "first"), 2, 6)
    assert re.fullmatch(r"working: 2 of 6 charts, \d+ s so far", widgets.progress_line(("test", "first"), "charts"))
    monkeypatch.setattr(widgets, "t", lambda k: word(k, "ja"))
    assert re.fullmatch(r"作業中: 6 図中 2、\d+ 秒経過", widgets.progress_line(("test", "first"), "charts"))
    gate.set()
    assert background.wait(TIMEOUT)
    background.forget(("test", "first"))
    background.forget(("test", "second"))


def test_repair_left_and_come_back_to_shows_its_puzzle_again() -> None:
    """Streamlit drops the state of the widgets another page's run did not draw: the puzzle the page
    showed is kept apart from them, so coming back by the navigation bar (no puzzle in the URL) shows it."""
    from tests.studio.test_repair import BROKEN

    def app() -> None:
        import streamlit as st

        from pipeline.studio.views import repair

        if st.session_state.get("elsewhere"):
            st.title("Another page")  # none of Repair's widgets drawn in this run
        else:
            repair.render()

    at = AppTest.from_function(app, default_timeout=TIMEOUT)
    at.query_params["puzzle"] = BROKEN
    at.run()
    assert "Changed givens: 1" in [s.value for s in at.subheader]
    at.session_state["elsewhere"] = True
    at.query_params.clear()
    at.run()
    assert "repair.text" not in at.session_state  # what Streamlit dropped
    at.session_state["elsewhere"] = False
    at.run()
    assert not at.exception and "Changed givens: 1" in [s.value for s in at.subheader]
    assert at.query_params["puzzle"] == BROKEN
