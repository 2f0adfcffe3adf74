"""The Streamlit pieces every page shares: the settings (root, language), a drawn grid, the puzzle
input (click a cell and type, paste text, upload a file, variant fields) kept in step with the URL.

Contracts:

* :func:`settings` reads ``NUMPLACE_STUDIO_ROOT`` and ``NUMPLACE_STUDIO_LANG`` (set by
  :func:`pipeline.studio.launch.launch`); ``?lang=ja|en`` in the URL wins over the default.
* :func:`puzzle_input` returns the page's :class:`~pipeline.studio.puzzle_io.PuzzleQuery` and writes
  it back to the URL's query parameters, so the address bar always reproduces what the page shows.
  The grid editor, the text box and an upload all edit the same puzzle; the last one used wins. The
  puzzle a page last showed is kept in the session apart from its widgets: coming back from another
  page to a URL that names no puzzle shows it again.
* Nothing here writes a file.
"""

from __future__ import annotations

import os
from collections.abc import Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import streamlit as st

from pipeline.board import Grid, PuzzleFormatError, Variant
from pipeline.errors import UserError
from pipeline.studio import background, messages, puzzle_io
from pipeline.studio.puzzle_io import KINDS, SIDES, PuzzleQuery
from pipeline.studio.words import Lang, lang_of, word
from pipeline.studio.words import variant_name as _variant_name

ROOT_ENV = "NUMPLACE_STUDIO_ROOT"
#: A grid editor's column width in pixels: nine columns and the row numbers fit a phone (390 px).
CELL = 34
LANG_ENV = "NUMPLACE_STUDIO_LANG"


@dataclass(frozen=True)
class Settings:
    """The output root the studio shows and the language of its labels."""

    root: Path
    lang: Lang


def settings() -> Settings:
    """The studio's settings for this page view (see the module contract). A ``lang`` once in the URL
    stays for the session: a page reached by the navigation bar (whose links carry no query) keeps it
    and writes it back into its URL."""
    if "lang" in st.query_params:
        st.session_state["studio.lang"] = lang_of(st.query_params["lang"])
    elif "studio.lang" in st.session_state:
        st.query_params["lang"] = st.session_state["studio.lang"]
    lang = st.session_state.get("studio.lang") or os.environ.get(LANG_ENV, "en")
    return Settings(Path(os.environ.get(ROOT_ENV, "outputs")), lang_of(lang))


def t(key: str) -> str:
    """The label of ``key`` in this view's language."""
    return word(key, settings().lang)


def variant_name(name: str) -> str:
    """A variant name (``x+hyper``, ``classic``) in this view's language."""
    return _variant_name(name, settings().lang)


def say(message: str) -> str:
    """A library message line in this view's language (:func:`pipeline.studio.messages.say`)."""
    return messages.say(message, settings().lang)


def number(value: float | int | None) -> str:
    """A grade's score, a count or a seed as every page prints it: a whole number without ``.0``,
    a fraction with at most one decimal (``306``, ``204.5``), ``-`` for none."""
    if value is None:
        return "-"
    f = float(value)
    return f"{int(f)}" if f.is_integer() else f"{f:.1f}"


#: Page-wide style: code lines wrap (a solution line is never clipped), the data editor scrolls
#: sideways instead of losing columns, and columns stack on a narrow (tablet, phone) screen.
STYLE = """<style>
pre code, .stCode pre {white-space: pre-wrap !important; word-break: break-all !important;}
[data-testid="stDataFrame"], [data-testid="stDataFrameResizable"] {max-width: 100%; overflow-x: auto;}
@media (max-width: 820px) {
  [data-testid="stHorizontalBlock"] {flex-wrap: wrap !important;}
  [data-testid="stHorizontalBlock"] > [data-testid="stColumn"] {min-width: 100% !important; flex: 1 1 100% !important;}
}
</style>"""


#: Streamlit's own words in the file uploader, put into Japanese (its instructions and button have no
#: parameter for their text: the English is hidden and the Japanese drawn in its place).
STYLE_JA = """<style>
[data-testid="stFileUploaderDropzoneInstructions"] > div > span,
[data-testid="stFileUploaderDropzoneInstructions"] > div > small {display: none;}
[data-testid="stFileUploaderDropzoneInstructions"] > div::before {
  content: "ここにファイルをドロップ(txt、sdk、csv、parquet、jsonl。最大 200MB)";}
[data-testid="stFileUploaderDropzone"] button [data-testid="stMarkdownContainer"] {display: none;}
[data-testid="stFileUploaderDropzone"] button::after {content: "ファイルを選ぶ"; font-size: 0.875rem;}
</style>"""


def style() -> None:
    """Put :data:`STYLE` (and, in Japanese, :data:`STYLE_JA`) on the page."""
    st.html(STYLE + (STYLE_JA if settings().lang == "ja" else ""))


def grid(svg: str, width: int = 360) -> None:
    """Draw one SVG grid at ``width`` pixels (it scales down on a narrow screen)."""
    scaled = svg.replace("<svg ", '<svg style="width:100%;height:auto" ', 1)  # shrinks in a narrow column
    st.markdown(f'<div class="np-grid" style="max-width:{width}px">{scaled}</div>', unsafe_allow_html=True)


#: Seconds between two looks at a background job from the page.
POLL = 0.5


def progress_line(job_key: Hashable, unit: str = "") -> str:
    """The progress line of a background job: ``Working: N of M <unit>, S s so far`` when the job
    counts its steps (:func:`pipeline.studio.background.step`), else ``Working: S s so far``; before
    the job starts on the thread (another job runs first), that it waits for it."""
    seen = background.progress(job_key)
    if seen is None:
        return t("queued")
    seconds, steps = seen
    if steps is None or not unit:
        return t("progress_s").format(s=f"{seconds:.0f}")
    return t("progress_n").format(done=steps[0], total=steps[1], unit=t(unit), s=f"{seconds:.0f}")


def pending(job_key: Hashable, text: str, unit: str = "") -> None:
    """``text`` (what runs in the background) and its :func:`progress_line` (``unit``: the word key of
    what the job counts), looked at again every :data:`POLL` seconds; the whole page is drawn again
    (from its caches) when the job of ``job_key`` (:func:`pipeline.studio.background.submit`) is done.
    The job runs on whether the editor stays or leaves: the page shows its result when it comes back."""

    @st.fragment(run_every=POLL)
    def _look() -> None:
        job = background.get(job_key)
        if job is None or job.done():
            st.rerun()
        st.info(text)
        st.caption(progress_line(job_key, unit))

    _look()


def set_params(params: dict[str, str], keep: tuple[str, ...] = ("lang",)) -> None:
    """Make the URL's query parameters exactly ``params`` (plus the ``keep`` ones already there)."""
    kept = {k: st.query_params[k] for k in keep if k in st.query_params}
    wanted = {**kept, **params}
    if dict(st.query_params) != wanted:
        st.query_params.from_dict(wanted)


def _init(key: str) -> None:
    """First view of the page in this session, or back from another page (Streamlit drops the state of
    the widgets another page's run did not draw): the puzzle from the URL, else the one the page last
    showed (:func:`puzzle_input` keeps it apart from the widgets), so that coming back shows it again."""
    if f"{key}.text" in st.session_state:
        return
    query = puzzle_io.from_params(st.query_params)
    left = st.session_state.get(f"{key}.left")
    if not query.puzzle and isinstance(left, PuzzleQuery):
        query = left
    st.session_state[f"{key}.text"] = query.puzzle
    st.session_state[f"{key}.variant"] = [k for k in query.variant.lower().split("+") if k in KINDS]
    st.session_state[f"{key}.regions"] = query.regions
    st.session_state[f"{key}.cages"] = query.cages
    st.session_state[f"{key}.ver"] = 0
    line = puzzle_io.line_of(query.puzzle)
    st.session_state[f"{key}.base"] = line or puzzle_io.empty(9)


def _rebase(key: str) -> None:
    """The text box changed: the grid editor starts again from its puzzle (when it is one)."""
    st.session_state.pop(f"{key}.bad", None)  # the text box holds the puzzle now
    line = puzzle_io.line_of(st.session_state[f"{key}.text"])
    if line is not None:
        st.session_state[f"{key}.base"] = line
        st.session_state[f"{key}.ver"] += 1


def _from_editor(key: str) -> None:
    """The grid editor changed: its cells become the puzzle text."""
    base = st.session_state[f"{key}.base"]
    n = round(len(base) ** 0.5)
    rows = puzzle_io.table(base, n)
    edits = st.session_state[f"{key}.ed{st.session_state[f'{key}.ver']}"].get("edited_rows", {})
    for r, changed in edits.items():
        for c, value in changed.items():
            rows[int(r)][int(c) - 1] = "" if value is None else str(value)
    try:
        st.session_state[f"{key}.text"] = puzzle_io.from_table(rows)
        st.session_state.pop(f"{key}.bad", None)
    except puzzle_io.PuzzleFormatError as exc:
        st.session_state[f"{key}.bad"] = str(exc)


def _new_size(key: str) -> None:
    n = st.session_state[f"{key}.size"]
    st.session_state[f"{key}.base"] = puzzle_io.empty(n)
    st.session_state[f"{key}.text"] = ""
    st.session_state[f"{key}.ver"] += 1
    st.session_state.pop(f"{key}.bad", None)


def _editor(key: str) -> None:
    import pandas as pd

    base = st.session_state[f"{key}.base"]
    n = round(len(base) ** 0.5)
    frame = pd.DataFrame(puzzle_io.table(base, n), columns=[str(c) for c in range(1, n + 1)],
                         index=[str(r) for r in range(1, n + 1)])
    columns: dict[str, Any] = {str(c): st.column_config.TextColumn(" ", max_chars=1, width=CELL)
                               for c in range(1, n + 1)}
    columns["_index"] = st.column_config.TextColumn(" ", width=CELL)
    column_numbers(n)
    st.data_editor(frame, key=f"{key}.ed{st.session_state[f'{key}.ver']}", num_rows="fixed",
                   column_config=columns, on_change=_from_editor, args=(key,), width="content")


def column_numbers(n: int) -> None:
    """The column numbers 1..n of a grid editor, drawn above it in line with its columns (the editor
    draws an edit icon over a narrow column's own header, hiding its number): the editor's row-number
    column and each of its columns are :data:`CELL` pixels wide, so the numbers need no measuring."""
    cells = "".join(f'<span style="display:inline-block;width:{CELL}px;text-align:center">{c}</span>'
                    for c in range(1, n + 1))
    st.markdown(f'<div class="np-cols" style="padding-left:{CELL}px;font-size:13px;color:#6b6f7b;'
                f'white-space:nowrap;line-height:1;margin-bottom:-0.6rem">{cells}</div>', unsafe_allow_html=True)


def _upload(key: str) -> None:
    file = st.session_state.get(f"{key}.file")
    if file is None:
        return
    try:
        text, count = puzzle_io.read_upload(file.name, file.getvalue())
    except (UserError, ValueError, OSError) as exc:  # one line from the reader, shown inline
        st.session_state[f"{key}.bad"] = str(exc)
        return
    st.session_state.pop(f"{key}.bad", None)
    query = puzzle_io.query_of(text)
    st.session_state[f"{key}.variant"] = [k for k in query.variant.lower().split("+") if k in KINDS]
    st.session_state[f"{key}.regions"] = query.regions
    st.session_state[f"{key}.cages"] = query.cages
    text = query.puzzle
    st.session_state[f"{key}.text"] = text
    st.session_state[f"{key}.note"] = f"{file.name}: the first of {count} puzzles" if count > 1 else ""
    st.session_state.pop(f"{key}.bad", None)
    _rebase(key)


def puzzle_input(key: str) -> PuzzleQuery:
    """The puzzle input block of a page (see the module contract); returns the current puzzle."""
    _init(key)
    style()
    edit, paste, upload = st.tabs([t("type_in"), t("paste"), t("upload")])
    with edit:
        side = round(len(st.session_state[f"{key}.base"]) ** 0.5)
        st.columns(4)[0].selectbox(t("size"), SIDES, index=SIDES.index(side), key=f"{key}.size",
                                   placeholder=t("choose"), on_change=_new_size, args=(key,))
        _editor(key)
    with paste:
        st.text_area(t("paste"), key=f"{key}.text", height=120, on_change=_rebase, args=(key,),
                     label_visibility="collapsed", placeholder=t("puzzle_placeholder"))
    with upload:
        st.file_uploader(t("upload"), key=f"{key}.file", on_change=_upload, args=(key,),
                         type=["txt", "sdk", "csv", "parquet", "jsonl"], label_visibility="collapsed")
        if st.session_state.get(f"{key}.note"):
            st.caption(say(st.session_state[f"{key}.note"]))
    with st.expander(t("variant"), expanded=bool(st.session_state[f"{key}.variant"])):
        st.multiselect(t("variant"), KINDS, key=f"{key}.variant", format_func=t, placeholder=t("choose"))
        st.text_area(t("regions"), key=f"{key}.regions", height=80)
        st.text_area(t("cages"), key=f"{key}.cages", height=80,
                     placeholder='[{"cells": [0, 1], "sum": 3}, ...]')
    if st.session_state.get(f"{key}.bad"):
        st.error(say(st.session_state[f"{key}.bad"]))
    text = st.session_state[f"{key}.text"].strip()
    line = puzzle_io.line_of(text)
    query = PuzzleQuery(line or text, "+".join(st.session_state[f"{key}.variant"]),
                        st.session_state[f"{key}.regions"].strip(), st.session_state[f"{key}.cages"].strip())
    st.session_state[f"{key}.left"] = query  # not a widget's key: kept when another page runs (:func:`_init`)
    set_params(query.params())
    return query


def _elsewhere() -> None:
    """Stands for another page in :func:`link` (Streamlit finds a page by its URL path)."""


def link(page: str, label: str, params: dict[str, str] | None = None) -> None:
    """A link to the studio page at URL path ``page`` with ``params`` as its query, opened in this tab
    (a markdown link would open a new one); this view's ``lang`` goes along."""
    query = {**({"lang": st.query_params["lang"]} if "lang" in st.query_params else {}), **(params or {})}
    st.page_link(st.Page(_elsewhere, title=label, url_path=page), label=label, query_params=query or None)


def entered(key: str) -> tuple[PuzzleQuery, Grid, Variant] | None:
    """The puzzle input block (:func:`puzzle_input`) and what it holds, read: the query, its grid and
    rules; None when nothing is entered yet or the puzzle cannot be read (then one inline line says
    why, naming the cell or field)."""
    query = puzzle_input(key)
    if st.session_state.get(f"{key}.bad"):
        return None  # the grid on screen is not a puzzle: no answer of an earlier one stays below it
    if not query.puzzle:
        return None
    try:
        grid, variant = puzzle_io.parse(query)
    except PuzzleFormatError as exc:
        st.error(say(str(exc)))
        return None
    return query, grid, variant
