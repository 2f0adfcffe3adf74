"""``/``: what the studio does, with a link to each page and the output root it shows."""

from __future__ import annotations

import streamlit as st

from pipeline.studio import widgets
from pipeline.studio.widgets import t

_ABOUT = {
    "en": {"solve": "Type, paste or upload a puzzle: its solutions, its grade and the solving path step by step.",
           "repair": "Change the fewest givens so a puzzle solves; see which givens cannot stand together.",
           "generate": "Make puzzles with fixed cells, a drawn clue pattern, a variant; get the config for the "
                       "nightly run.",
           "sets": "Browse the sets under the output root, check them, pick puzzles and make a book."},
    "ja": {"solve": "問題を入力・貼り付け・アップロード: 解答、難易度、解き筋を1ステップずつ。",
           "repair": "解けない問題を最少の変更で直し、両立しないヒントを示します。",
           "generate": "固定マス、ヒントの配置、バリアントを指定して問題を作り、夜間実行用の設定を得ます。",
           "sets": "出力フォルダのセットを見て、検査し、問題を選んで本を作ります。"},
}


def render() -> None:
    """Draw the page."""
    s = widgets.settings()
    st.title(t("app"))
    for page in ("solve", "repair", "generate", "sets"):
        widgets.link(page, f"**{t(page)}** →")
        st.markdown(_ABOUT[s.lang][page])
    st.caption(f"{t('root')}: {s.root.resolve()}")
