"""The studio's entry script, run by Streamlit (``streamlit run app.py``; :mod:`.launch` does it).

The pages and their URL paths are a contract (docs/studio.md): ``/`` home, ``/solve``, ``/repair``,
``/generate``, ``/sets``; each page reads its inputs from its query parameters. The root and the
language come from the environment (:mod:`.widgets`).
"""

from __future__ import annotations

import streamlit as st

from pipeline.studio import widgets
from pipeline.studio.views import generate, home, repair, sets, solve

#: page module, URL path (None: the root ``/``), label key, icon.
PAGES = ((home, None, "app", ":material/home:"), (solve, "solve", "solve", ":material/grid_on:"),
         (repair, "repair", "repair", ":material/build:"), (generate, "generate", "generate", ":material/add_box:"),
         (sets, "sets", "sets", ":material/folder_open:"))


def main() -> None:
    """Set up the page and run the one the URL names."""
    st.set_page_config(page_title=widgets.t("app"), page_icon=":material/grid_on:", layout="wide")
    pages = [st.Page(module.render, title=widgets.t(label), icon=icon, url_path=path, default=path is None)
             for module, path, label, icon in PAGES]
    st.navigation(pages, position="top").run()


main()
