"""``/sets`` and ``/sets?set=NAME``: the sets under the studio's output root, one set's puzzles, a book.

``/sets`` lists the sets and runs as ``numplace runs`` sees them (:func:`pipeline.run.sets.overview`):
per set its puzzles, runs (status, indices, puzzles, levels), next index and stock per level.

``/sets?set=NAME`` shows one set: its runs; its ``numplace check`` status
(:func:`pipeline.run.audit.audit`, ``fast`` by default, a button for the full check; the summary lines
are ``numplace check``'s; each check runs in a child process started from the background thread of
jobs that wait for a child (:mod:`pipeline.studio.checks`, :mod:`pipeline.studio.background`: the
report does not queue behind it) after the rest of the view is drawn, a line says so meanwhile with
the seconds it has run, and its lines are kept in the user cache for the set's files; a full check
asked for runs on when the editor leaves the page); the report's
plots (:mod:`pipeline.publish.report`), computed on the background thread when the fold is opened,
a line counting the charts done meanwhile; its puzzles filtered
as ``numplace export`` and ``book`` filter them (:mod:`pipeline.publish.select`), drawn with their
solutions a page at a time; and a book PDF in the view's language (``numplace book --lang``, or a
technique workbook as ``numplace book --workbook``: :mod:`pipeline.studio.books`) of the puzzles picked
in the table or of the filter's first N, offered under its title's name with its used list.

Query parameters (a contract, like the CLI's flags): ``set`` (a set folder's name under the root),
``level`` (levels, comma-separated or repeated), ``score`` and ``hints`` (``N``, ``A-B``, ``A-``,
``-B``), ``variant`` (``classic``, ``x``, ``x+hyper``, ...), ``technique`` (the technique target a
puzzle was made for: its ``technique`` column), ``uses`` (techniques, comma-separated: the puzzle's
solving path uses every one of them: its ``techniques`` column), ``page`` (the page of drawn puzzles,
from 1), and the studio's ``lang``. The filter's widgets write them back, so the address reproduces
the view. A bad value is an inline line naming the field, and the filter then matches nothing (no
table, no book) until it is fixed; a name that is not a set under the root is an inline line naming it.

Browsing never writes into a set: the set is only read (the check and the report read too), and the
book is made in a :func:`tempfile.TemporaryDirectory` whose bytes are kept in the session.
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path
from typing import Any

import polars as pl
import streamlit as st

from pipeline.board import parse
from pipeline.difficulty.techniques import TECHNIQUES
from pipeline.errors import UserError
from pipeline.publish import render as publish_render
from pipeline.publish import select
from pipeline.studio import background, checks, draw, widgets
from pipeline.studio.widgets import t
from pipeline.studio.words import Lang, word

#: The query parameters of a set's view (``set`` and ``lang`` besides).
FILTER_KEYS = ("level", "score", "hints", "variant", "technique", "uses", "page")
#: Puzzles drawn a page.
PER_PAGE = 6
#: Puzzles a book page can hold (``per_page`` of the book config).
BOOK_PER_PAGE = (1, 2, 4, 6)
#: Grids drawn in a column shrink to its width (the publisher's SVG has a fixed size).
GRID_CSS = "<style>.np-grid svg{width:100%;height:auto;display:block}.np-grid{margin-bottom:1rem}</style>"


# ---------------------------------------------------------------------------------------------
# Reading (cached by the set's files, so a new run or a changed part is read again)
# ---------------------------------------------------------------------------------------------


signature = checks.signature  # the key of every cache of a set (:func:`pipeline.studio.checks.signature`)


@st.cache_data(max_entries=16, show_spinner=False)
def _rows(path: str, _sig: tuple[Any, ...], sig: int) -> pl.DataFrame:
    """The set's rows as the publisher reads them (each puzzle once, stable order), with ``variant_name``."""
    frame = select.read_sets([Path(path)]).frame
    name = pl.col("variant").list.join("+")
    return frame.with_columns(pl.when(name.is_null() | (name == "")).then(pl.lit("classic")).otherwise(name)
                              .alias("variant_name"))


def _key(set_dir: Path) -> tuple[str, tuple[Any, ...], int]:
    """``(path, signature, hash)``: the hash is the cache key, the signature is not hashed again."""
    sig = signature(set_dir)
    return str(set_dir), sig, hash(sig)


# ---------------------------------------------------------------------------------------------
# The page
# ---------------------------------------------------------------------------------------------


def render() -> None:
    """Draw the page (see the module docstring)."""
    root = widgets.settings().root
    name = st.query_params.get("set")
    if name:
        _one_set(root, name)
    else:
        _all_sets(root)


def _link(label: str, params: dict[str, str]) -> None:
    """A link to this page with ``params`` (and the current ``lang``), opened in the same tab."""
    lang = st.query_params.get("lang")
    st.page_link(st.Page(render, title=t("sets"), url_path="sets"), label=label,
                 query_params={**params, **({"lang": lang} if lang else {})})


def _set_url(params: dict[str, str]) -> None:
    """Make the address bar's query ``params`` (and the current ``lang``). Always sent: after a
    :func:`_link` to this same page the server holds the link's parameters but the browser's address
    bar does not show them, so a conditional update would leave a stale address."""
    lang = st.query_params.get("lang")
    st.query_params.from_dict({**params, **({"lang": lang} if lang else {})})


def _overview(root: Path) -> list[dict[str, Any]] | None:
    """The sets under ``root`` (``numplace runs``), or None after an inline message."""
    from pipeline.run.sets import overview

    if not root.is_dir():
        st.info(f"{t('no_root')}: {root}")
        return None
    try:
        return overview(root)
    except (UserError, OSError) as exc:  # a damaged manifest names itself
        st.error(f"{t('bad_root')}: {exc}")
        return None


def _runs_table(runs: list[dict[str, Any]]) -> None:
    table = [{t("run_id"): r["run_id"], t("status"): t(str(r["status"])),
              t("indices"): f"{r['start']}-{r['start'] + r['count'] - 1}", t("puzzles_col"): r["puzzles"],
              t("levels"): ", ".join(f"{t(k)} {v}" for k, v in _in_order(r["levels"])),
              t("created"): r.get("created_at") or ""} for r in runs]
    st.dataframe(table, hide_index=True)


def _in_order(counts: dict[str, Any]) -> list[tuple[str, Any]]:
    """Level counts easy -> extreme (then any other key), as every page lists levels."""
    order = {lv: k for k, lv in enumerate((*select.LEVELS, "unrated"))}
    return sorted(counts.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0]))


def _headline(s: dict[str, Any]) -> str:
    held = ", ".join(f"{t(k)} {v}" for k, v in _in_order(s["stock"]))
    return (f"{s['puzzles']} {t('puzzles')} · {t('runs')} {len(s['runs'])} · {t('next_index')} "
            f"{s['next_index']}" + (f" · {t('stock')}: {held}" if held else ""))


def _all_sets(root: Path) -> None:
    st.title(t("sets"))
    _set_url({})
    st.caption(f"{t('root')}: {root}")
    sets = _overview(root)
    if sets is None:
        return
    if not sets:
        st.info(f"{t('no_sets')}: {root}")
        return
    for s in sets:
        st.subheader(s["set"])
        _link(f"{s['set']} →", {"set": s["set"]})
        st.caption(_headline(s))
        _runs_table(s["runs"])


def _one_set(root: Path, name: str) -> None:
    st.title(f"{t('set')}: {name}")
    _link(f"← {t('sets_all')}", {})
    sets = _overview(root)
    if sets is None:
        return
    found = next((s for s in sets if s["set"] == name), None)
    if found is None:
        known = ", ".join(s["set"] for s in sets) or "-"
        st.error(f"{name!r} {t('not_a_set')} {root} ({t('sets')}: {known})")
        return
    set_dir = root / name
    st.caption(f"{set_dir} · {_headline(found)}")
    st.caption(t("read_only"))
    _runs_table(found["runs"])
    key = _key(set_dir)
    holder = st.container()  # the check's place: filled last, so the puzzles are on screen before it starts
    try:
        try:
            rows = _rows(*key)
        except UserError as exc:  # an unreadable part: the store's line names it (the check lists it too)
            st.error(widgets.say(str(exc)))
            return
        plots = st.expander(t("plots"), key="sets.plots", on_change="rerun")
        if plots.open:  # drawn when opened: a closed report costs the view nothing
            with plots:
                _report(key, rows)
        frame = _filtered(name, rows)
        if frame is None:
            return
        picked = _table(name, frame)
        _drawn(name, frame)
        _book(name, set_dir, rows, frame, picked)
    finally:
        with holder:
            _check(name, key)


def _check(name: str, key: tuple[str, tuple[Any, ...], int]) -> None:
    """``numplace check --fast``, and the full check on request (asked once, it stays asked for this
    set's files in this session): each in the background (the page does not wait for it, says that it
    runs with a progress line, and shows its lines when done; kept for this set's files)."""
    st.subheader(t("check"))
    full_key = f"sets.full.{name}"
    full = st.session_state.get(full_key) == key[2]
    if not full and st.button(t("check_full"), key=f"sets.check.{name}"):
        full = True
    if full:  # asked once for these files: it runs on in the background whether the editor stays or not
        st.session_state[full_key] = key[2]
    job_key = ("check-full" if full else "check", key[0], key[2])
    job = background.submit(job_key, checks.in_child, key[0], not full, key[1], waits=True)  # the child works
    if not job.done():
        widgets.pending(job_key, t("checking_full" if full else "checking"))
        return
    try:
        lines = job.result()
    except UserError as exc:
        st.error(str(exc))
        return
    ok = lines["en"][-1] == "OK"
    label = t("check_full_done") if full else t("check_fast")
    (st.success if ok else st.error)(f"{label}: {t('check_ok') if ok else t('check_bad')}")
    st.code("\n".join(lines[widgets.settings().lang]), language=None, wrap_lines=True)


def _bars(data: pl.DataFrame, x: str, y: str, x_title: str, y_title: str, order: list[str] | None = None,
          horizontal: bool = False) -> dict[str, Any]:
    """One bar chart as a Vega-Lite spec (drawn by the browser) with this view's axis titles: the
    data inline, fields ``x`` and ``y`` (the titles are free text, so no field name needs escaping)."""
    values = [{"x": a, "y": b} for a, b in zip(data[x].to_list(), data[y].to_list(), strict=True)]
    cat: dict[str, Any] = {"field": "x", "type": "nominal", "title": x_title, "sort": order or None}
    num = {"field": "y", "type": "quantitative", "title": y_title}
    # every bar labelled, no name cut: a horizontal chart grows a row per bar (names as long as they are)
    cat["axis"] = {"labelLimit": 0, "labelOverlap": False} if horizontal else {"labelAngle": -30}
    height: Any = {"step": 22} if horizontal else 220
    return {"data": {"values": values}, "mark": {"type": "bar", "color": "#4c78a8"}, "height": height,
            "encoding": {("y" if horizontal else "x"): cat, ("x" if horizontal else "y"): num,
                         "tooltip": [{"field": "x", "type": "nominal", "title": x_title},
                                     {"field": "y", "type": "quantitative", "title": y_title}]}}


#: The report's charts (the steps its background job counts).
CHARTS = 6
Specs = list[tuple[str, dict[str, Any] | None]]


def report_specs(rows: pl.DataFrame, lang: Lang, job: Any = None) -> Specs:
    """The report's :data:`CHARTS` charts of the set's ``rows``: ``(title key, spec)``, the spec None
    when the set has no such data (no solving paths, no generation times). Run by the background
    thread (no Streamlit call): after each chart it tells :func:`pipeline.studio.background.step` of
    ``job`` (when given) how many are done."""
    from pipeline.studio import steps

    def w(k: str) -> str:
        return word(k, lang)

    out: Specs = []

    def add(item: tuple[str, dict[str, Any] | None]) -> None:
        out.append(item)
        if job is not None:
            background.step(job, len(out), CHARTS)

    puzzles = w("chart_puzzles")
    graded = rows.with_columns(pl.col("difficulty").fill_null("unrated").alias("difficulty"))
    order = [lv for lv in (*select.LEVELS, "unrated") if lv in set(graded["difficulty"].to_list())]
    names = [w(lv) for lv in order]
    level_of = pl.col("difficulty").replace_strict({lv: w(lv) for lv in order}, default=pl.col("difficulty"))
    hints = rows.group_by("hints").len().sort("hints").with_columns(pl.col("hints").cast(pl.String))
    add(("chart_hints", _bars(hints, "hints", "len", w("hints"), puzzles, hints["hints"].to_list())))
    mix = graded.group_by("difficulty").len().with_columns(level_of.alias("level"))
    add(("chart_levels", _bars(mix, "level", "len", w("level"), puzzles, names)))
    scores = graded.filter(pl.col("difficulty_score").is_not_null()).group_by("difficulty").agg(
        pl.col("difficulty_score").median().alias("median")).with_columns(level_of.alias("level"))
    add(("chart_scores", _bars(scores, "level", "median", w("level"), w("score"), names)))
    sym = rows.group_by("symmetry").len().with_columns(
        pl.col("symmetry").fill_null("none").map_elements(lambda v: w(f"sym.{v}"), return_dtype=pl.String)
        .alias("name"))
    add(("chart_symmetry", _bars(sym, "name", "len", w("symmetry"), puzzles)))
    if "techniques" in rows.columns and rows["techniques"].null_count() < rows.height:
        last = rows.filter(pl.col("techniques").list.len() > 0).select(
            pl.col("techniques").list.last().alias("technique")).group_by("technique").len() \
            .sort("len", descending=True).head(14)
        last = last.with_columns(pl.col("technique").map_elements(lambda v: steps.title(v, lang),
                                                                   return_dtype=pl.String).alias("name"))
        add(("chart_techniques", _bars(last, "name", "len", w("technique"), puzzles, last["name"].to_list(),
                                              horizontal=True)))
    else:
        add(("chart_techniques", None))
    if "gen_ms" in rows.columns:
        ms = graded.group_by("difficulty").agg(pl.col("gen_ms").median().alias("ms")) \
            .with_columns(level_of.alias("level"))
        add(("chart_time", _bars(ms, "level", "ms", w("level"), w("ms"), names)))
    else:
        add(("chart_time", None))
    return out


def _report(key: tuple[str, tuple[Any, ...], int], rows: pl.DataFrame) -> None:
    """The report's figures, drawn in the page from the set's rows (numbers as ``numplace report``
    counts them), every title, axis and value in this view's language, two a row. Computed on the
    background thread (kept per set files and language: leaving the page and coming back shows them);
    meanwhile a line says so and counts the charts done."""
    lang = widgets.settings().lang
    job_key = ("report", key[0], key[2], lang)
    job = background.submit(job_key, report_specs, rows, lang, job_key)
    if not background.settle(job):
        widgets.pending(job_key, t("reporting"), "charts")
        return
    specs = job.result()
    for k in range(0, len(specs), 2):
        for col, (title, spec) in zip(st.columns(2), specs[k:k + 2], strict=False):
            with col:
                st.markdown(f"**{t(title)}**")
                if spec is not None:
                    st.vega_lite_chart(spec, width="stretch")


# ---------------------------------------------------------------------------------------------
# Filter, table, drawn puzzles
# ---------------------------------------------------------------------------------------------


def _from_url(name: str) -> None:
    """Set the filter's widgets from the URL when it is not what the page last wrote (first view, a link)."""
    url = {k: ",".join(st.query_params.get_all(k)) if k in ("level", "uses") else st.query_params.get(k, "")
           for k in FILTER_KEYS}
    widgets_kept = all(f"sets.{k}" in st.session_state for k in FILTER_KEYS)  # gone when another page ran
    if st.session_state.get("sets.url") == (name, url) and widgets_kept:
        return
    st.session_state["sets.level"] = [x.strip() for x in url["level"].split(",") if x.strip()]
    st.session_state["sets.score"] = url["score"]
    st.session_state["sets.hints"] = url["hints"]
    st.session_state["sets.variant"] = url["variant"]
    st.session_state["sets.technique"] = url["technique"]
    st.session_state["sets.uses"] = [x.strip() for x in url["uses"].split(",") if x.strip()]
    st.session_state["sets.page"] = int(url["page"]) if url["page"].isdigit() and int(url["page"]) > 0 else 1
    st.session_state["sets.url"] = (name, url)
    st.session_state["sets.refused"] = None  # a new address: its values are checked once (:func:`_refusals`)


def _to_url(name: str) -> None:
    ss = st.session_state
    url = {"level": ",".join(ss["sets.level"]), "score": ss["sets.score"].strip(),
           "hints": ss["sets.hints"].strip(), "variant": ss["sets.variant"], "technique": ss["sets.technique"],
           "uses": ",".join(ss["sets.uses"]), "page": str(ss["sets.page"]) if ss["sets.page"] > 1 else ""}
    _set_url({"set": name, **{k: v for k, v in url.items() if v}})
    ss["sets.url"] = (name, url)


def _new_filter() -> None:
    st.session_state["sets.page"] = 1
    st.session_state["sets.refused"] = []  # the editor chose anew: what the address held is gone


def _refusals(variants: list[str], made_for: list[str], used: list[str]) -> list[str]:
    """The lines refusing the address's values no widget can hold (a level, variant, technique or used
    technique the set does not have), each naming its field; those values are taken out of the widgets."""
    ss = st.session_state
    out = []
    bad = [lv for lv in ss["sets.level"] if lv not in select.LEVELS]
    if bad:
        ss["sets.level"] = [lv for lv in ss["sets.level"] if lv in select.LEVELS]
        out.append(f"level: {', '.join(map(repr, bad))} is not one of {', '.join(select.LEVELS)}")
    if ss["sets.variant"] and ss["sets.variant"] not in variants:
        out.append(f"variant: {ss['sets.variant']!r} is not a variant of this set ({', '.join(variants)})")
        ss["sets.variant"] = ""
    if ss["sets.technique"] and ss["sets.technique"] not in made_for:
        out.append(f"technique: {ss['sets.technique']!r} is not a technique a puzzle of this set was made for "
                   + (f"({', '.join(made_for)})" if made_for else "(none of its puzzles was made for a technique)"))
        ss["sets.technique"] = ""
    unknown = [x for x in ss["sets.uses"] if x not in used]
    if unknown:
        out.append(f"uses: {unknown[0]!r} is not a technique a path of this set uses")
        ss["sets.uses"] = [x for x in ss["sets.uses"] if x in used]
    return out


def _filtered(name: str, rows: pl.DataFrame) -> pl.DataFrame | None:
    """The filter's widgets (from the URL) and the rows that match; None after an inline message."""
    _from_url(name)
    ss = st.session_state
    st.subheader(t("filter"))
    variants = sorted(set(rows["variant_name"].to_list()))
    made_for, used = _techniques(rows)
    if ss.get("sets.refused") is None:
        ss["sets.refused"] = _refusals(variants, made_for, used)
    a, b, c, d = st.columns(4)
    a.multiselect(t("levels"), select.LEVELS, key="sets.level", format_func=t, on_change=_new_filter,
                  placeholder=t("any"))
    b.text_input(t("score"), key="sets.score", placeholder="900-1500", on_change=_new_filter)
    c.text_input(t("hints"), key="sets.hints", placeholder="24-28", on_change=_new_filter)
    d.selectbox(t("variant"), ("", *variants), key="sets.variant", on_change=_new_filter, placeholder=t("choose"),
                format_func=lambda v: _variant(v) if v else t("any"))
    a, b = st.columns(2)
    a.selectbox(t("made_for"), ("", *made_for), key="sets.technique", on_change=_new_filter, placeholder=t("choose"),
                format_func=lambda v: _title(v) if v else t("any"))
    b.multiselect(t("uses"), used, key="sets.uses", format_func=_title, on_change=_new_filter,
                  placeholder=t("any"))
    refused = list(ss["sets.refused"])
    if not refused:  # a refused address stays in the address bar until the editor changes the filter
        _to_url(name)
    try:
        flt = select.filter_from_flags(ss["sets.level"], ss["sets.score"].strip() or None,
                                       ss["sets.hints"].strip() or None)
    except select.PublishError as exc:
        refused.append(str(exc).removeprefix("--"))
    if refused:  # a refused filter matches nothing until it is fixed: never the whole set
        for line in refused:
            st.error(widgets.say(line))
        st.info(t("refused_filter"))
        return None
    frame = select.apply(rows, flt)
    if ss["sets.variant"]:
        frame = frame.filter(pl.col("variant_name") == ss["sets.variant"])
    if ss["sets.technique"]:
        frame = frame.filter(pl.col("technique") == ss["sets.technique"])
    for used_one in ss["sets.uses"]:
        frame = frame.filter(pl.col("techniques").list.contains(used_one))
    what = _describe(flt, ss["sets.variant"], ss["sets.technique"], ss["sets.uses"])
    if frame.is_empty():
        st.info(f"{t('no_match')} ({what})")
        return None
    st.markdown(f"**{frame.height}** {t('matching')} ({what})")
    return frame


def _table(name: str, frame: pl.DataFrame) -> list[str]:
    """The matching puzzles as a table whose ticked rows are picked; returns the picked ids."""
    st.caption(t("pick_hint"))
    levels = {lv: t(lv) for lv in (*select.LEVELS, "unrated")}
    syms = {tag: t(f"sym.{tag}") for tag in frame["symmetry"].drop_nulls().unique().to_list()}
    kinds = {v: _variant(v) for v in frame["variant_name"].unique().to_list()}
    shown = frame.select(
        "puzzle_id",
        pl.col("difficulty").fill_null("unrated").replace_strict(levels, default=pl.col("difficulty"))
        .alias("difficulty"),
        "difficulty_score", "hints",
        pl.col("variant_name").replace_strict(kinds, default=pl.col("variant_name")).alias("variant_name"),
        pl.col("symmetry").replace_strict(syms, default=pl.col("symmetry")).alias("symmetry"),
        pl.when(pl.col("minimal")).then(pl.lit(t("yes"))).otherwise(pl.lit(t("no"))).alias("minimal"),
        "puzzle")
    if "technique" in frame.columns and frame["technique"].null_count() < frame.height:  # made for a target
        names = {n: _title(n) for n in frame["technique"].drop_nulls().unique().to_list()}
        shown = shown.insert_column(shown.width - 1, frame["technique"].replace_strict(names, default=None)
                                    .alias("technique"))
    config: dict[str, Any] = {"technique": t("made_for"), "puzzle_id": t("id"),
                              "difficulty": st.column_config.TextColumn(t("grade")),
                              "difficulty_score": st.column_config.NumberColumn(t("score"), format="%g"),
                              "hints": t("hints"), "variant_name": t("variant"), "symmetry": t("symmetry"),
                              "minimal": t("minimal_col"), "puzzle": t("puzzle")}
    # the selection is of row positions: a new filter is a new table (the key), so no stale pick survives
    ids = frame["puzzle_id"]
    key = f"sets.table.{name}.{zlib.crc32(' '.join(ids.to_list()).encode()):08x}"
    event = st.dataframe(shown, hide_index=True, on_select="rerun",
                         selection_mode="multi-row", key=key, column_config=config,
                         height="auto" if frame.height <= 10 else 400)
    rows = event.selection.rows if event is not None else []
    return [ids[i] for i in sorted(rows) if 0 <= i < len(ids)]


def _drawn(name: str, frame: pl.DataFrame) -> None:
    """The matching puzzles, :data:`PER_PAGE` a page: each puzzle beside its solution."""
    pages = (frame.height + PER_PAGE - 1) // PER_PAGE
    ss = st.session_state
    if ss["sets.page"] > pages:
        ss["sets.page"] = pages
        _to_url(name)
    if pages > 1:
        st.columns(4)[0].number_input(f"{t('page')} (1-{pages})", 1, pages, key="sets.page")
    k = ss["sets.page"]
    chunk = frame.slice((k - 1) * PER_PAGE, PER_PAGE)
    st.html(GRID_CSS)
    cols = st.columns(2, gap="large")
    for i, row in enumerate(chunk.iter_rows(named=True)):
        with cols[i % 2], st.container(border=True):
            _puzzle(row)


def _puzzle(row: dict[str, Any]) -> None:
    n = int(row["size"])
    variant = publish_render.variant_of_row(row)
    grid, solution = parse(row["puzzle"], n), parse(row["solution"], n)
    score = row.get("difficulty_score")
    scored = f" · {t('score')} {widgets.number(score)}" if score is not None else ""
    st.markdown(f"**{row['puzzle_id']}** · {t(str(row.get('difficulty') or 'unrated'))}{scored}"
                f" · {t('hints')} {row['hints']} · {_variant(row['variant_name'])}")
    a, b = st.columns(2)  # each grid under its own label: stacked on a phone, two grids never read as one
    with a:
        st.caption(t("puzzle"))
        widgets.grid(draw.svg(grid, variant, title=row["puzzle_id"]), width=260)
    with b:
        st.caption(t("solution"))
        widgets.grid(draw.svg(grid, variant, solution, title=row["puzzle_id"]), width=260)


# ---------------------------------------------------------------------------------------------
# The book
# ---------------------------------------------------------------------------------------------


def _book(name: str, set_dir: Path, rows: pl.DataFrame, frame: pl.DataFrame, picked: list[str]) -> None:
    """Make a book PDF (or a technique workbook) of the picked puzzles (or the filter's first N) in
    this view's language, in a temporary folder (:mod:`pipeline.studio.books`)."""
    from pipeline.studio import books

    st.subheader(t("book"))
    modes = ("picked", "first_n")
    with st.form(f"sets.book.{name}"):
        a, b, c, d = st.columns([2, 1, 2, 1])
        mode = a.radio(t("take"), modes, index=0 if picked else 1,
                       format_func=lambda m: f"{t('picked')} ({len(picked)})" if m == "picked" else t("first_n"))
        first = b.number_input(t("how_many"), 1, frame.height, min(12, frame.height), key="sets.book.n")
        title = c.text_input(t("title"), name, key="sets.book.title")
        per_page = d.selectbox(t("per_page"), BOOK_PER_PAGE, index=BOOK_PER_PAGE.index(4), key="sets.book.per_page",
                              placeholder=t("choose"))
        workbook = st.checkbox(t("workbook"), key="sets.book.workbook", help=t("workbook_help"))
        go = st.form_submit_button(t("make_book"), type="primary")
    if go:
        chosen = picked if mode == "picked" else frame["puzzle_id"].head(int(first)).to_list()
        if not chosen:
            st.warning(t("nothing_picked"))
        else:
            try:
                with st.spinner(t("working")):
                    made = books.set_book(set_dir, rows, chosen, title, int(per_page), widgets.settings().lang,
                                          workbook=workbook)
                st.session_state["sets.book"] = (name, books.file_stem(title, name), *made)
            except UserError as exc:
                st.error(widgets.say(str(exc)))
                st.session_state.pop("sets.book", None)
    made_now = st.session_state.get("sets.book")
    if made_now is None or made_now[0] != name:
        return
    _, stem, pdf, used, n_pages = made_now
    ids = json.loads(used)["puzzle_ids"]
    st.success(f"{t('book_made')}: {n_pages} {t('pages')}, {len(ids)} {t('puzzles')} · {stem}.pdf")
    a, b = st.columns(2)
    a.download_button(f"{t('download')} PDF", pdf, f"{stem}.pdf", "application/pdf", on_click="ignore",
                      key="sets.book.pdf", type="primary")
    b.download_button(f"{t('download')} {t('used')}", used, f"{stem}.used.json", "application/json",
                      on_click="ignore", key="sets.book.used")


def _variant(name: str) -> str:
    return widgets.variant_name(name)


def _techniques(rows: pl.DataFrame) -> tuple[list[str], list[str]]:
    """The techniques the set's puzzles were made for, and those their paths use, in the technique
    table's order (a set made before technique targets has no ``technique`` column: none)."""
    order = {name: k for k, name in enumerate(TECHNIQUES)}
    made = rows["technique"].drop_nulls().unique().to_list() if "technique" in rows.columns else []
    used = rows["techniques"].explode().drop_nulls().unique().to_list() if "techniques" in rows.columns else []
    return (sorted(made, key=lambda n: (order.get(n, len(order)), n)),
            sorted(used, key=lambda n: (order.get(n, len(order)), n)))


def _title(name: str) -> str:
    """A technique's name in this view's language."""
    from pipeline.studio import steps

    return steps.title(name, widgets.settings().lang)


def _describe(flt: select.Filter, variant: str, target: str = "", uses: list[str] | None = None) -> str:
    """The filter's conditions in this view's language (``any puzzle`` when none)."""
    parts = []
    if flt.levels:
        parts.append(f"{t('levels')} " + ", ".join(t(lv) for lv in flt.levels))
    for key, lo, hi in (("score", flt.score_min, flt.score_max), ("hints", flt.hints_min, flt.hints_max)):
        if lo is not None or hi is not None:
            low, high = ("" if v is None else widgets.number(v) for v in (lo, hi))
            parts.append(f"{t(key)} {low}-{high}")
    if variant:
        parts.append(f"{t('variant')} {_variant(variant)}")
    if target:
        parts.append(f"{t('made_for')} {_title(target)}")
    if uses:
        parts.append(f"{t('uses')} " + ", ".join(_title(u) for u in uses))
    return "; ".join(parts) or t("any_puzzle")
