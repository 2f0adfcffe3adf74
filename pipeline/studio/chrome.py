"""Streamlit's own words on the studio's pages (a multiselect's "Select all", a table toolbar's
"Download as CSV", "Search", "Fullscreen", "Show/hide columns", a column menu's "Sort ascending", a
form's "Press Enter to submit form") put into Japanese under ``--lang ja``.

Streamlit has no parameter for these texts, so :func:`install` puts a small script on the page (our
own, inline: nothing is fetched) that rewrites them in the browser where they appear: whole text
nodes and the ``aria-label``, ``placeholder`` and ``title`` attributes that are exactly one of
:data:`JA` (or match :data:`JA_PATTERNS`), watched by a ``MutationObserver`` (tooltips and menus
are drawn on hover). Under ``en`` the script only records the language, so nothing is rewritten.
Words drawn on a canvas (a table's column headers are the page's own labels) are not touched.
"""

from __future__ import annotations

import json

import streamlit as st

from pipeline.studio.words import Lang

#: Streamlit's English text -> Japanese (whole texts only).
JA: dict[str, str] = {
    "Select all": "すべて選ぶ",
    "No results": "該当なし",
    "No options to select": "選べる項目がありません",
    "No options to select.": "選べる項目がありません。",
    "Choose an option": "選んでください",
    "Download as CSV": "CSV でダウンロード",
    "Download as PNG": "PNG でダウンロード",
    "Search": "検索",
    "Type to search": "入力して検索",
    "Fullscreen": "全画面",
    "Close fullscreen": "全画面を閉じる",
    "Toggle fullscreen": "全画面の切り替え",
    "Show/hide columns": "列の表示/非表示",
    "Clear selection": "選択を解除",
    "Sort ascending": "昇順に並べる",
    "Sort descending": "降順に並べる",
    "Pin column": "列を固定",
    "Unpin column": "列の固定を外す",
    "Hide column": "列を隠す",
    "Autosize": "幅を自動調整",
    "Format": "表示形式",
    "Add row": "行を追加",
    "Delete row(s)": "行を削除",
    "Show data": "データを表示",
    "Show chart": "グラフを表示",
    "Running...": "実行中...",
    "Stop": "停止",
    "Copy to clipboard": "クリップボードにコピー",
    "Copied to clipboard": "コピーしました",
}
#: Texts with a part that varies (JavaScript regular expressions -> replacements).
JA_PATTERNS: list[tuple[str, str]] = [
    (r"^Select (\d+) matches$", "一致する $1 件を選ぶ"),
    (r"^Press (.*)Enter to apply$", "$1Enter で確定"),
    (r"^Press (.*)Enter to submit form$", "$1Enter でフォームを送信"),
]

_SCRIPT = """<script>
(() => {
  window.__npLang = %(lang)s;
  if (window.__npChrome) { window.__npChrome(); return; }
  const EXACT = %(exact)s;
  const PATTERNS = %(patterns)s.map(([re, to]) => [new RegExp(re), to]);
  const ATTRS = ["aria-label", "placeholder", "title"];
  const tr = (s) => {
    const k = s.trim();
    if (Object.prototype.hasOwnProperty.call(EXACT, k)) return s.replace(k, EXACT[k]);
    for (const [re, to] of PATTERNS) if (re.test(k)) return s.replace(k, k.replace(re, to));
    return null;
  };
  const fix = () => {
    queued = false;
    if (window.__npLang !== "ja") return;
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const to = tr(n.nodeValue);
      if (to !== null && to !== n.nodeValue) n.nodeValue = to;
    }
    for (const e of document.body.querySelectorAll("[aria-label],[placeholder],[title]")) {
      for (const a of ATTRS) {
        const v = e.getAttribute(a);
        const to = v ? tr(v) : null;
        if (to !== null && to !== v) e.setAttribute(a, to);
      }
    }
  };
  let queued = false;
  window.__npChrome = () => { if (!queued) { queued = true; requestAnimationFrame(fix); } };
  new MutationObserver(window.__npChrome).observe(document.body,
    {subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ATTRS});
  window.__npChrome();
})();
</script>"""


def script(lang: Lang) -> str:
    """The page's script for ``lang`` (see the module contract)."""
    return _SCRIPT % {"lang": json.dumps(lang), "exact": json.dumps(JA, ensure_ascii=False),
                      "patterns": json.dumps(JA_PATTERNS, ensure_ascii=False)}


def install(lang: Lang) -> None:
    """Put :func:`script` on the page."""
    st.html(script(lang), unsafe_allow_javascript=True)
