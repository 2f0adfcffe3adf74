"""``/sets``: being built."""

from __future__ import annotations

import streamlit as st


def render() -> None:
    """Draw the page."""
    st.title("sets")
