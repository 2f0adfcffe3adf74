"""``/solve?puzzle=LINE[&variant=..&regions=..&cages=..]``: solve a puzzle, count its solutions, grade it.

The status line is :func:`pipeline.studio.verdict.status_line`'s (counted up to 3, so two solutions
are *exactly* two); a puzzle with several is not fit to print: two solutions labelled and drawn side
by side with the cells where they differ marked, and the fewest givens to add; a unique puzzle's
solution is drawn and given as a line, and its grade (:func:`pipeline.solve.rate.rate`, as ``numplace
rate``) comes with the solving path, one step at a time, the step's cells marked on the grid; technique
names and steps in the page's language (:mod:`pipeline.studio.steps`).
"""

from __future__ import annotations

import streamlit as st

from pipeline.board import Grid, Variant, format_line
from pipeline.difficulty import grade
from pipeline.solve import rate
from pipeline.studio import draw, puzzle_io, steps, verdict, widgets
from pipeline.studio.widgets import say, t


@st.cache_data(max_entries=64, show_spinner=False)
def _grade(grid: Grid, variant: Variant) -> grade.Grade | str:
    try:
        return rate.rate(grid, variant)
    except rate.NotGradable as exc:
        return str(exc)


def render() -> None:
    """Draw the page (see the module docstring)."""
    st.title(t("solve"))
    got = widgets.entered("solve")
    if got is None:
        return
    query, grid, variant = got
    with st.spinner(t("working")):
        result = verdict.count(grid, variant)
    st.subheader(f"{t('status')}: {verdict.status_line(result)}")
    if result.status == "none":
        st.error(say(result.reason or ""))
        widgets.link("repair", f"{t('repair')} →", query.params())
        return
    if result.status == "multiple":
        verdict.show_multiple(query, grid, variant, result)
        return
    if result.solution is None:
        st.error(say("the solver hit its time limit; no answer"))
        return
    left, right = st.columns(2)
    with left:
        st.markdown(f"**{t('puzzle')}**")
        widgets.grid(draw.svg(grid, variant))
    with right:
        st.markdown(f"**{t('solution')}**")
        widgets.grid(draw.svg(grid, variant, result.solution))
    st.markdown(f"**{t('line')}**")
    st.code(format_line(result.solution), language=None, wrap_lines=True)
    _path(grid, variant)


def _path(grid: Grid, variant: Variant) -> None:
    """The grade and the solving path, one step at a time."""
    st.subheader(t("grade"))
    with st.spinner(t("grading")):  # the status and solution are on screen already; a hard grade takes seconds
        g = _grade(grid, variant)
    if isinstance(g, str):
        st.info(f"{t('no_grade')}: {say(g)}")
        return
    lang = widgets.settings().lang
    hardest = steps.title(g.techniques[-1], lang) if g.techniques else "-"
    guesses = f" · {t('guesses_n').format(k=g.guesses)}" if g.guesses else ""
    st.markdown(f"**{t(g.level)}** · {t('score')} {widgets.number(g.score)} · "
                f"{t('logic_steps_n').format(k=g.logic_steps)}{guesses} · {t('hardest')}: {hardest}")
    if g.reason:
        st.caption(say(g.reason))
    if not g.steps:
        return
    st.subheader(t("path"))
    k = st.slider(t("step"), 1, len(g.steps), 1, key="solve.step") if len(g.steps) > 1 else 1
    step = g.steps[k - 1]
    st.markdown(steps.step_line(step, g.n, k, lang))
    before = puzzle_io.grid_after(grid, g.steps, k - 1)
    marks = draw.marks(pattern=step.cells, removed=[c for c, _ in step.eliminations],
                       placed=[c for c, _ in step.placements])
    widgets.grid(draw.svg(grid, variant, before if before != grid else None, marks))
    with st.expander(t("path")):
        st.text("\n".join(steps.step_line(s, g.n, i, lang) for i, s in enumerate(g.steps, 1)))
