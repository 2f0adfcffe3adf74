"""``/repair?puzzle=LINE[&variant=..&regions=..&cages=..]``: repair a puzzle with the fewest changed
givens, and show why the original has no solution.

The repair is :func:`pipeline.solve.solver.repair` (``numplace solve --repair``): the changed givens
are marked on the original and on the repaired puzzle, which is given as a line with its status. The
reason is :func:`pipeline.solve.why.explain` (``numplace solve --why``): a set of givens that cannot
stand together, marked on the original, minimal (each one needed) and called smallest only when every
smaller set was tried.
"""

from __future__ import annotations

import streamlit as st

from pipeline.board import Grid, Variant, format_line
from pipeline.solve import solver, why
from pipeline.studio import draw, puzzle_io, widgets
from pipeline.studio.widgets import t


@st.cache_data(max_entries=32, show_spinner=False)
def _repair(grid: Grid, variant: Variant) -> solver.RepairResult:
    return solver.repair(grid, variant=variant)


@st.cache_data(max_entries=32, show_spinner=False)
def _why(grid: Grid, variant: Variant) -> why.Core | str | None:
    try:
        return why.explain(grid, variant=variant)
    except why.Undecided as exc:
        return str(exc)


def render() -> None:
    """Draw the page (see the module docstring)."""
    st.title(t("repair"))
    got = widgets.entered("repair")
    if got is None:
        return
    _, grid, variant = got
    with st.spinner(t("working")):
        result = _repair(grid, variant)
    if not result.changes:
        if result.status == "timeout":
            st.error("the solver hit its time limit; no answer")
        else:
            st.success(f"{t('nothing_to_repair')} {t(result.status)}")
        return
    n = puzzle_io.side_of(grid)
    changed = [c.row * n + c.col for c in result.changes]
    st.subheader(f"{t('changes')}: {len(result.changes)}")
    st.markdown(" · ".join(f"`{c}`" for c in result.changes))
    left, right = st.columns(2)
    with left:
        st.markdown(f"**{t('puzzle')}**")
        widgets.grid(draw.svg(grid, variant, highlight=draw.marks(changed=changed)))
    with right:
        st.markdown(f"**{t('repaired')}** ({result.repaired_status})")
        widgets.grid(draw.svg(result.repaired, variant, highlight=draw.marks(changed=changed)))
    st.code(format_line(result.repaired), language=None)
    if result.repaired_status != "unique":
        st.warning(f"the repaired puzzle is {result.repaired_status}, not unique")
    st.subheader(t("why"))
    with st.spinner(t("working")):
        core = _why(grid, variant)
    if isinstance(core, str):
        st.warning(core)
    elif core is not None:
        kind = t("smallest") if core.smallest else t("minimal")
        st.markdown(f"{t('why_core')} ({len(core.cells)}, {kind}): `{core}`")
        widgets.grid(draw.svg(grid, variant, highlight=draw.marks(core=core.cells)))
