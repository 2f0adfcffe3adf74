"""The studio's entry script, run by Streamlit (``streamlit run app.py``; :mod:`.launch` does it).

The pages and their URL paths are a contract (docs/studio.md): ``/`` home, ``/solve``, ``/repair``,
``/generate``, ``/sets``; each page reads its inputs from its query parameters. The root and the
language come from the environment (:mod:`.widgets`). A page's module is imported when the page is
first shown, so the home page does not wait for the solver, polars or the publisher.
"""

from __future__ import annotations

import functools
import importlib
from typing import Any

import streamlit as st

from pipeline.studio import chrome, warm, widgets


def _page(name: str) -> None:
    importlib.import_module(f"pipeline.studio.views.{name}").render()


def home() -> None:
    """``/``"""
    _page("home")


def solve() -> None:
    """``/solve``"""
    _page("solve")


def repair() -> None:
    """``/repair``"""
    _page("repair")


def generate() -> None:
    """``/generate``"""
    _page("generate")


def sets() -> None:
    """``/sets``"""
    _page("sets")


#: page function, URL path (None: the root ``/``), label key, icon.
PAGES = ((home, None, "app", ":material/home:"), (solve, "solve", "solve", ":material/grid_on:"),
         (repair, "repair", "repair", ":material/build:"), (generate, "generate", "generate", ":material/add_box:"),
         (sets, "sets", "sets", ":material/folder_open:"))


@functools.cache
def icon() -> Any:
    """The tab's icon: a 3x3 grid drawn here and served by the studio itself (a ``:material/...:`` or
    emoji icon would be fetched from fonts.gstatic.com)."""
    from PIL import Image, ImageDraw

    im = Image.new("RGBA", (48, 48), (255, 255, 255, 0))
    pen = ImageDraw.Draw(im)
    pen.rectangle((2, 2, 45, 45), fill=(255, 255, 255, 255), outline=(38, 70, 120, 255), width=4)
    for k in (16, 31):
        pen.line((k, 3, k, 44), fill=(38, 70, 120, 255), width=2)
        pen.line((3, k, 44, k), fill=(38, 70, 120, 255), width=2)
    return im


def main() -> None:
    """Set up the page and run the one the URL names (the warm-up started with the server, or at its first
    view when the server was started otherwise, gives way to it)."""
    warm.start()
    st.set_page_config(page_title=widgets.t("app"), page_icon=icon(), layout="wide")
    chrome.install(widgets.settings().lang)  # Streamlit's own words in the page's language
    pages = [st.Page(fn, title=widgets.t(label), icon=icon, url_path=path, default=path is None)
             for fn, path, label, icon in PAGES]
    with warm.page_running():  # the warm-up waits for this run's script before its next step
        st.navigation(pages, position="top").run()


main()
