"""Running one studio page under Streamlit's headless harness (``AppTest``), shared by the page tests."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pytest

pytest.importorskip("streamlit", reason="the studio extra is not installed (pip install 'numplace[studio]')")

from streamlit.testing.v1 import AppTest


def _solve() -> None:
    from pipeline.studio.views import solve

    solve.render()


def _repair() -> None:
    from pipeline.studio.views import repair

    repair.render()


def _generate() -> None:
    from pipeline.studio.views import generate

    generate.render()


def _home() -> None:
    from pipeline.studio.views import home

    home.render()


PAGES: dict[str, Callable[[], None]] = {"solve": _solve, "repair": _repair, "generate": _generate, "home": _home}


def page(name: str, params: Mapping[str, str] | None = None, timeout: float = 180) -> AppTest:
    """The page ``name`` run once with ``params`` as its URL's query parameters."""
    at = AppTest.from_function(PAGES[name], default_timeout=timeout)
    for k, v in (params or {}).items():
        at.query_params[k] = v
    return at.run()


def texts(at: AppTest) -> str:
    """Every text element of the page (markdown, captions, subheaders, code, alerts), one per line."""
    parts = [e.value for kind in ("title", "subheader", "markdown", "caption", "code", "error", "warning",
                                  "info", "success") for e in getattr(at, kind)]
    return "\n".join(str(p) for p in parts)
