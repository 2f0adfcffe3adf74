"""The studio's entry script, run by Streamlit (``streamlit run app.py``; :mod:`.launch` does it).

The pages and their URL paths are a contract (docs/studio.md): ``/`` home, ``/solve``, ``/repair``,
``/generate``, ``/sets``; each page reads its inputs from its query parameters. The root and the
language come from the environment (:mod:`.widgets`). A page's module is imported when the page is
first shown, so the home page does not wait for the solver, polars or the publisher.
"""

from __future__ import annotations

import importlib

import streamlit as st

from pipeline.studio import warm, widgets


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


def main() -> None:
    """Set up the page and run the one the URL names (the server's first view starts its warm-up)."""
    warm.start()
    st.set_page_config(page_title=widgets.t("app"), page_icon=":material/grid_on:", layout="wide")
    pages = [st.Page(fn, title=widgets.t(label), icon=icon, url_path=path, default=path is None)
             for fn, path, label, icon in PAGES]
    st.navigation(pages, position="top").run()


main()
