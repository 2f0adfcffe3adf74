"""What the Solve and Repair pages say about a puzzle's solutions, in the page's language.

* :func:`count` counts up to :data:`LIMIT` (3) solutions, so two solutions are told as *exactly*
  two and three as *at least* three (the CLI's ``--count`` line says ``at least 2 (limit 2)`` for
  both, which misled an editor).
* :func:`status_line` is that count in words: ``unique``, ``none``, ``timeout``, ``multiple:
  exactly 2 solutions`` / ``multiple: at least 3 solutions`` (Japanese: 唯一解, 解なし, 時間切れ,
  ``複数解: 解はちょうど 2 個`` / ``複数解: 解は 3 個以上``).
* :func:`show_multiple` is the whole answer for a puzzle with several solutions: not fit to print,
  two solutions labelled and drawn with the cells where they differ marked, and the fewest givens to
  add (:func:`pipeline.solve.pin.givens_to_add`) marked on the puzzle, as a line and as a link.
"""

from __future__ import annotations

import streamlit as st

from pipeline.board import Grid, Variant, format_line
from pipeline.solve import pin, solver
from pipeline.studio import draw, puzzle_io, widgets
from pipeline.studio.puzzle_io import PuzzleQuery
from pipeline.studio.widgets import t

#: Solutions counted by the pages: 2 found means exactly 2.
LIMIT = 3


@st.cache_data(max_entries=64, show_spinner=False)
def count(grid: Grid, variant: Variant) -> solver.SolveResult:
    """``numplace solve --count --limit 3``'s result."""
    return solver.solve(grid, LIMIT, variant=variant)


@st.cache_data(max_entries=32, show_spinner=False)
def _additions(grid: Grid, variant: Variant) -> pin.Additions | None:
    return pin.givens_to_add(grid, variant=variant)


def status_line(result: solver.SolveResult) -> str:
    """The count in words, in this view's language (see the module contract)."""
    if result.status != "multiple":
        return t(result.status)
    found = len(result.solutions)
    if found >= result.limit:
        return t("multiple_at_least").format(k=found)
    return t("multiple_exactly").format(k=found)


def show_multiple(query: PuzzleQuery, grid: Grid, variant: Variant, result: solver.SolveResult) -> None:
    """The answer for a puzzle with several solutions (see the module contract)."""
    st.warning(t("not_fit"))
    a, b = result.solutions[0], result.solutions[1]
    cells = puzzle_io.differing(a, b)
    st.caption(t("differ"))
    for k, (col, sol) in enumerate(zip(st.columns(2), (a, b), strict=True), 1):
        with col:
            st.markdown(f"**{t('solution')} {k}**")
            widgets.grid(draw.svg(grid, variant, sol, draw.marks(differ=cells)))
            st.code(format_line(sol), language=None, wrap_lines=True)
    st.subheader(t("to_add"))
    with st.spinner(t("working")):
        add = _additions(grid, variant)
    if add is None:
        return
    kind = t("fewest_proved") if add.fewest else t("fewest_not_proved")
    st.markdown(f"{t('add_these')} ({len(add.cells)}, {kind}): `{add}`")
    if not add.unique:
        st.warning(t("add_not_unique"))
    widgets.grid(draw.svg(add.result, variant, highlight=draw.marks(changed=[i for i, _ in add.cells])))
    st.code(format_line(add.result), language=None, wrap_lines=True)
    widgets.link("solve", f"{t('solve')} →", PuzzleQuery(format_line(add.result), query.variant, query.regions,
                                                             query.cages).params())
