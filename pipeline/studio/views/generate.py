"""``/generate?size=9&symmetry=rot180&count=2&seed=11&...``: make puzzles as ``numplace run`` would.

The query parameters are :mod:`pipeline.studio.forms`'s (every key of the config's ``board``,
``grid``, ``removal`` and ``difficulty`` sections, dotted, and short aliases). A URL with any of them
makes the puzzles when it is opened; the form writes them to the URL. The puzzles come from
:func:`pipeline.run.runner.stream_graded_later` (``numplace generate``'s engine and
:func:`~pipeline.run.runner.stream`'s puzzles: the same seeds, certification, grading and independent
verification), one worker, ``count`` capped at :data:`~pipeline.studio.forms.COUNT_CAP`. Shown: each
puzzle drawn as soon as it is made and verified, as a line, with its grade (filled in when the grade
is done: a request whose grade decides nothing, i.e. no level, score, logic-only or technique target,
shows each puzzle while it is graded; the same puzzles and grades), hints and seed (and the
technique it was made for, for a technique target); downloads PNG and SVG per puzzle, CSV and a PDF
(the book's layout) of all, each file made when its button is clicked; the equivalent YAML config,
which ``numplace run`` takes as it is. Results are kept per config in the session, so a download or
a second look does not make them again.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import streamlit as st

from pipeline import config as cfgmod
from pipeline.board import PuzzleFormatError, parse
from pipeline.config.sections import IMAGE_MAPS
from pipeline.config.technique import OFFERED, names_of
from pipeline.difficulty.techniques import LEVELS, TECHNIQUES
from pipeline.errors import UserError
from pipeline.generate.version import NEW_SET_METHOD
from pipeline.studio import books, draw, forms, puzzle_io, widgets
from pipeline.studio.puzzle_io import KINDS, SIDES
from pipeline.studio.widgets import say, t
from pipeline.studio.words import Lang
from pipeline.symmetry import TAGS


def _table_editor(key: str, rows: list[list[Any]], checkbox: bool = False) -> list[list[Any]]:
    """An n x n editor (text cells, or tick boxes); returns its rows."""
    import pandas as pd

    n = len(rows)
    names = [str(c) for c in range(1, n + 1)]
    frame = pd.DataFrame(rows, columns=names, index=names)
    column = st.column_config.CheckboxColumn if checkbox else st.column_config.TextColumn
    config: dict[str, Any] = {c: column(" ", width=widgets.CELL) for c in names}
    config["_index"] = st.column_config.TextColumn(" ", width=widgets.CELL)
    widgets.column_numbers(n)
    edited = st.data_editor(frame, key=key, num_rows="fixed", column_config=config, width="content")
    return [list(r) for r in edited.itertuples(index=False)]


def _form(data: dict[str, Any]) -> dict[str, Any] | None:
    """The form, filled from ``data``; the new config dict when submitted, else None."""
    board = data.get("board", {})
    grid = data.get("grid", {})
    removal = data.get("removal", {})
    difficulty = data.get("difficulty") or {}
    n = int(board.get("size", 9)) if board.get("size") in SIDES else 9
    with st.form("generate.form"):
        a, b, c, d = st.columns(4)
        size = a.selectbox(t("size"), SIDES, index=SIDES.index(n), placeholder=t("choose"))
        count = b.number_input(t("count"), 1, forms.COUNT_CAP, int(data.get("count", 2)))
        seed = c.text_input(t("seed"), str(data.get("seed", 0)))
        tags = (*TAGS, "random")
        symmetry = d.selectbox(t("symmetry"), tags, placeholder=t("choose"),
                               index=tags.index(removal.get("symmetry", "rot180"))
                               if removal.get("symmetry", "rot180") in tags else 1, format_func=_sym)
        a, b, c, d = st.columns(4)
        kinds = board.get("variant", "classic")
        kinds = kinds.split("+") if isinstance(kinds, str) else list(kinds)
        variant = a.multiselect(t("variant"), KINDS, default=[k for k in kinds if k in KINDS], format_func=t,
                                placeholder=t("choose"))
        hints = removal.get("hints") or {}
        hint_text = b.text_input(t("hints"), f"{hints.get('min', '')}-{hints.get('max', '')}" if hints else "",
                                 placeholder=t("hints_placeholder"))
        levels = c.multiselect(t("levels"), LEVELS, default=[x for x in difficulty.get("levels") or [] if x in LEVELS],
                               format_func=t, placeholder=t("choose"))
        steer = d.checkbox(t("steer"), bool(difficulty.get("steer")))
        targets = [x for x in names_of(difficulty.get("technique")) if x in OFFERED]
        aimed = st.multiselect(t("technique_target"), OFFERED, default=targets, format_func=_technique,
                               placeholder=t("choose"), help=t("technique_help"))
        a, b, c = st.columns(3)
        methods = ("weighted-lp", "weighted-ilp", "uniform")
        named = grid.get("method")  # None: the set's own method (a new set: NEW_SET_METHOD)
        method = a.selectbox(t("method"), methods, placeholder=t("choose"),
                             index=methods.index(named if named in methods else NEW_SET_METHOD),
                             format_func=lambda m: t(f"method.{m}"))
        maps = ("", *IMAGE_MAPS)
        current = (grid.get("solution_symmetry") or {}).get("map", "")
        image = b.selectbox(t("solution_symmetry"), maps, placeholder=t("choose"),
                            index=maps.index(current) if current in maps else 0,
                            format_func=_sym)
        keep = c.checkbox(t("keep_fixed"), bool(grid.get("keep_fixed")))
        with st.expander(t("fixed"), expanded=bool(grid.get("fixed"))):
            fixed_rows = _table_editor("generate.fixed", _rows_of(grid.get("fixed"), n))
        with st.expander(t("pattern"), expanded=bool(removal.get("pattern"))):
            pattern_rows = _table_editor("generate.pattern", _mask_of(removal.get("pattern"), n), checkbox=True)
        with st.expander(t("regions"), expanded=bool(board.get("regions"))):
            region_rows = _table_editor("generate.regions", _labels_of(board.get("regions"), n))
        with st.expander(t("areas"), expanded=bool(grid.get("areas"))):
            area_rows = _areas_editor(grid.get("areas"))
        if not st.form_submit_button(t("go"), type="primary"):
            return None
    if not seed.strip().isdigit():
        raise forms.FormError(f"seed: {seed!r} is not a whole number (0 or more)")
    out: dict[str, Any] = {"name": data.get("name", "studio"), "seed": int(seed), "count": int(count)}
    out["board"] = {"size": size, **({"variant": "+".join(variant)} if variant else {})}
    regions = "".join(str(v or "").strip() for r in region_rows for v in r)
    if "jigsaw" in variant and regions:
        out["board"]["regions"] = regions
    if "killer" in variant and isinstance(board.get("cages"), dict):
        out["board"]["cages"] = board["cages"]
    fixed = puzzle_io.from_table(fixed_rows) if size == n else ""
    out["grid"] = {k: v for k, v in (("method", None if named is None and method == NEW_SET_METHOD else method),
                                      ("fixed", fixed if fixed.strip(".") else None),
                                      ("keep_fixed", keep or None),
                                      ("solution_symmetry", {"map": image} if image else None),
                                      ("areas", area_rows or None)) if v is not None}
    pattern = "\n".join("".join("#" if v else "." for v in r) for r in pattern_rows)
    out["removal"] = {"symmetry": symmetry}
    if "#" in pattern and size == n:
        out["removal"] = {"pattern": pattern}
    elif hint_text.strip():
        out["removal"]["hints"] = forms.config_from_params({"hints": hint_text.strip()})["removal"]["hints"]
    if levels:
        out["difficulty"] = {"levels": levels, **({"steer": True} if steer else {})}
    if aimed:  # a technique fixes the level and steers by itself: levels with it are refused in one line
        out.setdefault("difficulty", {})["technique"] = aimed[0] if len(aimed) == 1 else list(aimed)
    return {k: v for k, v in out.items() if v != {}}


def _technique(name: str) -> str:
    """A technique as the select lists it: its name in the page's language and its level."""
    from pipeline.studio import steps

    return f"{steps.title(name, widgets.settings().lang)} ({t(TECHNIQUES[name].level)})"


def _sym(tag: str) -> str:
    return t(f"sym.{tag}")


#: The rules an area may have (``grid.areas[].rule``).
RULES = ("only", "never", "somewhere")


def _areas_editor(areas: Any) -> list[dict[str, Any]]:
    """``grid.areas`` as an editable table (cells, digits, rule; a row a area, rows added at the
    bottom); returns the areas of the filled rows. A row with bad digits is refused in one line."""
    import pandas as pd

    rows = [{"cells": str(a.get("cells", "")), "digits": " ".join(str(d) for d in a.get("digits") or []),
             "rule": a.get("rule", "only")} for a in (areas or []) if isinstance(a, dict)]
    frame = pd.DataFrame(rows or [{"cells": "", "digits": "", "rule": "only"}], columns=["cells", "digits", "rule"])
    config = {"cells": st.column_config.TextColumn(t("area_cells"), width="medium"),
              "digits": st.column_config.TextColumn(t("area_digits"), width="small"),
              "rule": st.column_config.SelectboxColumn(t("area_rule"), options=RULES, required=True,
                                                       format_func=lambda r: t(f"rule.{r}"))}
    edited = st.data_editor(frame, key="generate.areas", num_rows="dynamic", column_config=config, hide_index=True)
    out: list[dict[str, Any]] = []
    for k, row in enumerate(edited.itertuples(index=False)):
        cells, digits, rule = (str(v or "").strip() for v in (row.cells, row.digits, row.rule))
        if not cells and not digits:
            continue
        parts = digits.replace(",", " ").split()
        if not parts or not all(p.isdigit() for p in parts):
            raise forms.FormError(f"grid.areas.{k}.digits: {digits!r} is not a list of digits")
        out.append({"cells": cells, "digits": [int(p) for p in parts], "rule": rule or "only"})
    return out


def _rows_of(text: Any, n: int) -> list[list[Any]]:
    try:
        line = "".join("." if not d else "123456789ABCDEFG"[d - 1] for d in parse(str(text), n)) if text else ""
    except PuzzleFormatError:
        line = ""
    return puzzle_io.table(line or puzzle_io.empty(n), n)


def _mask_of(text: Any, n: int) -> list[list[bool]]:
    cells = [ch in "#X1x" for ch in str(text or "") if not ch.isspace()]
    cells = cells if len(cells) == n * n else [False] * (n * n)
    return [cells[r * n:(r + 1) * n] for r in range(n)]


def _labels_of(text: Any, n: int) -> list[list[str]]:
    cells = [ch for ch in str(text or "") if not ch.isspace()]
    cells = cells if len(cells) == n * n else [""] * (n * n)
    return [cells[r * n:(r + 1) * n] for r in range(n)]


#: Seconds between two updates of the progress line while a puzzle is being made.
TICK = 0.5


def _what(cfg: cfgmod.Config) -> str:
    """What the request makes, in this view's language: the board (side, variant) and the symmetry."""
    n = cfg.board.size
    named = cfg.board.variant  # as the request wrote it (x+hyper), not sorted
    variant = widgets.variant_name(named if isinstance(named, str) else "+".join(named) or "classic")
    sym = cfg.removal.symmetry if cfg.removal.pattern is None else None
    return f"{n}x{n} {variant}" + (f" · {t('symmetry')} {_sym(str(sym))}" if sym else "")


def _line(k: int, count: int, what: str, seconds: float) -> str:
    """The progress line: which puzzle is being made, of how many, what, how many are done, and the
    seconds since making began (it moves while a puzzle takes long: the page is working, not stuck)."""
    doing = t("making").format(k=min(k + 1, count), n=count) if k < count else t("working")
    return f"{doing} · {what} · {t('made_n').format(k=k)} · {t('elapsed').format(s=int(seconds))}"


class _Job:
    """One request's puzzles being made by :func:`pipeline.run.runner.stream` on a thread of its own
    (the same puzzles in the same order: only where they are made moves), so the page's script stays
    free to draw the form and to update the progress line. Items (or the exception that ended the
    stream) arrive in ``items``, then :attr:`END`.

    The stop contract (:meth:`stop`), exact whatever the timing: the puzzles whose making began before
    the stop was seen are handed over, each whole (the one being made is finished, never cancelled),
    and nothing else: no puzzle is begun after it, and the grade of a puzzle handed over ungraded is
    cancelled within a step (:func:`~pipeline.difficulty.logic.cancel_when`) rather than waited for. A
    stop before the first puzzle began hands over nothing."""

    END = object()

    def __init__(self, data: dict[str, Any]) -> None:
        """Validate ``data`` (raises :class:`~pipeline.errors.UserError`) and start making."""
        import queue
        import threading
        import time

        self.text = forms.yaml_text(data)
        self.cfg = cfgmod.validate({**data, "workers": 1})
        self.what = _what(self.cfg)
        self.start = time.monotonic()
        self.items: queue.Queue[Any] = queue.Queue()
        self._stop = threading.Event()
        self._phase = "before"  # before the first puzzle, "making" one, or "grading" one handed over
        threading.Thread(target=self._work, name="numplace-studio-generate", daemon=True).start()

    def _work(self) -> None:
        from pipeline.run import runner
        from pipeline.run.work import Made

        try:
            stream = runner.stream_graded_later(self.cfg, stop=self._halt)
            try:
                for item in stream:
                    self.items.put(item)
                    if self._stop.is_set():
                        return  # the stream stays where it is: nothing more is made or graded
                    self._phase = "grading" if isinstance(item, Made) and item.ungraded is not None else "making"
            finally:
                getattr(stream, "close", lambda: None)()  # a generator: run its cleanup now, not at collection
        except BaseException as exc:  # the page shows it (a UserError as its one line)
            self.items.put(exc)
        finally:
            self.items.put(self.END)

    def _halt(self) -> bool:
        """The stream's ``stop``: its first call is its check before the first puzzle (a stop there
        makes nothing); later calls come within a puzzle's making (never cancelled: it is finished)
        or its later grade (cancelled). Between puzzles :meth:`_work` sees the stop itself."""
        if self._phase == "before":
            self._phase = "making"
            return self._stop.is_set()
        return self._stop.is_set() and self._phase == "grading"

    def stop(self) -> None:
        """Stop making: see the class's stop contract."""
        self._stop.set()


def _make(job: _Job, made: list[dict[str, Any]], failed: list[str],
          each: Callable[[int, dict[str, Any]], Any], status: Any) -> None:
    """The puzzles of ``job`` into ``made`` (and the failure lines into ``failed``), under a progress
    line in ``status`` (an ``st.empty`` above the form) that says what is being made, how many are done
    and the seconds since making began (updated every :data:`TICK` s; cleared at the end);
    ``each(k, row)`` draws puzzle ``k`` as soon as it is made, so the first puzzle is on screen while
    it is graded and the next is being made, and returns what writes its caption again, with the
    grade, when the grade comes (``made`` then holds the whole row). When the view goes away (another
    click, a closed tab) the script stops at its next update and the job within a step of the grade
    it is computing, or after the puzzle it is making, instead of making the rest for nobody."""
    import queue
    import time

    from pipeline.run.work import Made

    count, k = job.cfg.count, 0
    grading: dict[int, tuple[int, Any]] = {}  # index -> (its place in made, its caption writer), while graded
    status.progress(0.0, text=_line(0, count, job.what, time.monotonic() - job.start))
    try:
        while True:
            try:
                item = job.items.get(timeout=TICK)
            except queue.Empty:
                status.progress(k / count, text=_line(k, count, job.what, time.monotonic() - job.start))
                continue
            if item is _Job.END:
                break
            if isinstance(item, BaseException):
                raise item
            if isinstance(item, Made) and item.index in grading:  # the grade of a puzzle on screen
                place, caption = grading.pop(item.index)
                made[place] = dict(item.row)
                caption(made[place])
                continue
            k += 1
            if isinstance(item, Made):
                made.append(dict(item.row))
                caption = each(len(made) - 1, made[-1])
                if item.ungraded is not None:
                    grading[item.index] = (len(made) - 1, caption)
            else:
                failed.append(f"puzzle {item.index}: {item.kind} failed: {item.failure}")
            status.progress(k / count, text=_line(k, count, job.what, time.monotonic() - job.start))
    finally:
        job.stop()
        status.empty()


def render() -> None:
    """Draw the page (see the module docstring)."""
    st.title(t("generate"))
    widgets.style()
    refused = False
    try:
        data = forms.config_from_params(st.query_params)
    except UserError as exc:
        st.error(say(str(exc)))
        data = dict(forms.DEFAULTS)
        refused = True  # a refused link makes nothing: the form shows the defaults, nothing is made
    status = st.empty()  # the progress line, above the form: on screen before the form's editors are drawn
    job = None  # a link's request starts making at once: its first puzzle is being made while the form is drawn
    if not refused and set(st.query_params) - set(forms.PAGE_KEYS) \
            and st.session_state.get("generate.key") != forms.yaml_text(data):
        try:
            job = _Job(data)
            status.progress(0.0, text=_line(0, job.cfg.count, job.what, 0))
        except UserError:
            job = None  # refused: said below, where the request is made
    try:
        submitted = _form(data)
    except UserError as exc:
        if job is not None:
            job.stop()
        status.empty()
        st.error(say(str(exc)))
        return
    except BaseException:  # the view went away while the form was drawn: make nothing for nobody
        if job is not None:
            job.stop()
        raise
    if submitted is not None and job is not None and forms.yaml_text(submitted) != job.text:
        job.stop()  # the form asks for something else
        job = None
    if submitted is not None:
        widgets.set_params(forms.params_from_config(submitted))
        data = submitted
    elif refused or not (set(st.query_params) - set(forms.PAGE_KEYS)):
        return  # nothing asked for yet, or the link was refused
    text = forms.yaml_text(data)
    seed = int(data.get("seed") or 0)
    warnings = st.container()
    cols = st.columns(3)
    each = partial(_one, cols, seed)
    if st.session_state.get("generate.key") != text:
        made: list[dict[str, Any]] = []
        failed: list[str] = []
        try:
            _make(job if job is not None else _Job(data), made, failed, each, status)
        except UserError as exc:
            st.error(say(str(exc)))
            return
        st.session_state["generate.key"] = text
        st.session_state["generate.result"] = (made, failed)
    else:
        made, failed = st.session_state["generate.result"]
        for k, row in enumerate(made):
            each(k, row)
    with warnings:
        for line in failed:
            st.warning(say(line))
    _downloads(made, forms.yaml_text(data, widgets.settings().lang))


def _png(row: dict[str, Any]) -> bytes:
    """The PNG file of one puzzle, as ``numplace export --format png`` draws it."""
    from pipeline.publish import render

    out = io.BytesIO()
    render.to_image(render.art_of(row)).save(out, format="PNG")
    return out.getvalue()


def _csv(made: list[dict[str, Any]]) -> str:
    """The puzzles as ``numplace export --format csv`` writes them."""
    import polars as pl

    from pipeline.publish import export
    from pipeline.run.rows import SCHEMA

    frame = pl.DataFrame(made, schema={k: v for k, v in SCHEMA.items() if k in made[0]})
    return export.text_frame(frame, lists=False).write_csv()


def _pdf(made: list[dict[str, Any]], title: str, section: str, lang: Lang) -> bytes:
    """The puzzles in the book's layout (title page, puzzle pages, answers), as ``numplace book`` draws
    them, every printed word in ``lang`` (the page's: bound when the button is drawn, since the file is
    made when it is clicked, outside the page's run)."""
    return books.puzzles_pdf(made, title, section, lang)


def _caption(slot: Any, seed: int, row: dict[str, Any]) -> None:
    """A puzzle's caption into ``slot``: its grade (or that it is being graded), hints, the page's seed
    and its number, and the technique it was made for."""
    level = row.get("difficulty")
    grade = (t("being_graded") if level is None
             else f"{t(str(level or 'unrated'))} · {t('score')} {widgets.number(row.get('difficulty_score'))}")
    slot.caption(f"{grade} · {t('hints')} {row.get('hints')} · {t('seed')} {seed} · "
                 f"{t('number')} {row.get('index')}"
                 + (f" · {t('made_for')} {_technique(row['technique'])}" if row.get("technique") else ""))


def _one(cols: Sequence[Any], seed: int, k: int, row: dict[str, Any]) -> Any:
    """Puzzle ``k`` in its column: drawn, as a line (a killer's cages under it), with its caption
    (:func:`_caption`), and its files (made when clicked); returns what writes its caption again
    (``caption(row)``: the graded row, when its grade comes)."""
    from pipeline.board import describe_variant
    from pipeline.publish import render

    with cols[k % len(cols)]:
        variant = render.variant_of_row(row)
        grid = parse(row["puzzle"])
        widgets.grid(draw.svg(grid, variant, title=row["puzzle_id"]), width=300)
        st.code(row["puzzle"], language=None, wrap_lines=True)
        if variant.cages:  # the cages as numplace show lists them, under this view's word for them
            lines = [ln for ln in describe_variant(variant, int(row["size"]))[1:] if not ln.startswith("cages (")]
            st.code("\n".join([f"{t('cages_list')} ({len(variant.cages)}):", *lines]), language=None, wrap_lines=True)
        caption = partial(_caption, st.empty(), seed)
        caption(row)
        a, b = st.columns(2)
        a.download_button("PNG", partial(_png, row), f"{row['puzzle_id']}.png", "image/png", on_click="ignore",
                          key=f"generate.png{k}")
        b.download_button("SVG", render.to_svg(render.art_of(row), row["puzzle_id"]), f"{row['puzzle_id']}.svg",
                          "image/svg+xml", on_click="ignore", key=f"generate.svg{k}")
    return caption


def _downloads(made: list[dict[str, Any]], text: str) -> None:
    """CSV and PDF of all the puzzles (made when clicked), and the YAML config."""
    st.subheader(t("download"))
    a, b, c = st.columns(3)
    if made:
        a.download_button("CSV", partial(_csv, made), "puzzles.csv", "text/csv", on_click="ignore",
                          key="generate.csv")
        pdf = partial(_pdf, made, t("app"), t("book_section"), widgets.settings().lang)
        b.download_button("PDF", pdf, f"{books.file_stem(t('app'))}.pdf", "application/pdf", on_click="ignore",
                          key="generate.pdf")
    c.download_button("YAML", text, "studio.yaml", "application/yaml", on_click="ignore", key="generate.yaml")
    st.markdown(f"**{t('config')}**")
    st.code(text, language="yaml")
