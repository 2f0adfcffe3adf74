"""``/repair?puzzle=LINE[&variant=..&regions=..&cages=..]``: what to do with a puzzle that is not fit
to print.

* No solution: the fewest changed givens (:func:`pipeline.solve.solver.repair`, ``numplace solve
  --repair``), preferring givens of the clashes, marked on the original and on the repaired puzzle,
  which is given as a line with its status; when other repairs are as good (as few changes, unique
  when the one shown is), the page says how many and lists every one, and that the choice is the
  editor's. Then why the original has no solution: *every* independent clash at once
  (:func:`pipeline.solve.why.clashes`: disjoint sets of givens that cannot stand together, each
  minimal), each listed and all marked at once; when one of them is not known to be the smallest, the
  smallest such set (:func:`pipeline.solve.why.explain`, ``numplace solve --why``, which may take
  seconds) is looked for in the background (:mod:`pipeline.studio.background`) and shown when found;
  the page does not wait for it.
* Several solutions: not fit to print either (:func:`pipeline.studio.verdict.show_multiple`: two
  solutions, the fewest givens to add).
* One solution: nothing to repair.
"""

from __future__ import annotations

import streamlit as st

from pipeline.board import Grid, Variant, format_line
from pipeline.solve import solver, why
from pipeline.studio import background, draw, puzzle_io, verdict, widgets
from pipeline.studio.widgets import say, t


@st.cache_data(max_entries=32, show_spinner=False)
def _clashes(grid: Grid, variant: Variant) -> why.Clashes | str:
    try:
        return why.clashes(grid, variant=variant)
    except why.Undecided as exc:
        return str(exc)


@st.cache_data(max_entries=32, show_spinner=False)
def _repair(grid: Grid, variant: Variant, core: frozenset[int]) -> solver.RepairResult:
    return solver.repair(grid, variant=variant, core=core)


def _why(grid: Grid, variant: Variant) -> why.Core | str | None:
    """The smallest clash (the background job: no Streamlit call here)."""
    try:
        return why.explain(grid, variant=variant)
    except why.Undecided as exc:
        return str(exc)


def _changes(changes: tuple[solver.Change, ...]) -> str:
    return " · ".join(f"`{c}`" for c in changes)


def render() -> None:
    """Draw the page (see the module docstring)."""
    st.title(t("repair"))
    got = widgets.entered("repair")
    if got is None:
        return
    query, grid, variant = got
    with st.spinner(t("working")):
        counted = verdict.count(grid, variant)
    st.subheader(f"{t('status')}: {verdict.status_line(counted)}")
    if counted.status == "unique":
        st.success(t("nothing_to_repair"))
        return
    if counted.status == "multiple":
        verdict.show_multiple(query, grid, variant, counted)
        return
    if counted.status == "timeout":
        st.error(say("the solver hit its time limit; no answer"))
        return
    with st.spinner(t("working")):
        clashes = _clashes(grid, variant)
        core = clashes.cells() if isinstance(clashes, why.Clashes) else frozenset()
        result = _repair(grid, variant, core)
    if not result.changes:
        st.error(say("the solver hit its time limit; no answer"))
        return
    n = puzzle_io.side_of(grid)
    changed = [c.row * n + c.col for c in result.changes]
    st.subheader(f"{t('changes')}: {len(result.changes)}")
    st.markdown(_changes(result.changes))
    if result.alternatives:
        _equally_good(result)
    left, right = st.columns(2)
    with left:
        st.markdown(f"**{t('puzzle')}**")
        widgets.grid(draw.svg(grid, variant, highlight=draw.marks(changed=changed)))
    with right:
        st.markdown(f"**{t('repaired')}** ({t(result.repaired_status)})")
        widgets.grid(draw.svg(result.repaired, variant, highlight=draw.marks(changed=changed)))
    st.code(format_line(result.repaired), language=None, wrap_lines=True)
    if result.repaired_status != "unique":
        st.warning(f"{t('repaired_not_unique')}" + (f" ({say(result.note)})" if result.note else ""))
    _explain(grid, variant, clashes)


def _equally_good(result: solver.RepairResult) -> None:
    """How many repairs are as good as the one shown, every one listed (the one shown first), and
    that the choice is the editor's: the solver cannot know which given was mistyped."""
    k = len(result.alternatives) + 1
    more = f" {t('equally_good_more')}" if result.capped else ""
    lines = [f"1. {_changes(result.changes)} ({t('shown')})"]
    lines += [f"{j}. {_changes(a)}" for j, a in enumerate(result.alternatives, 2)]
    st.info(t("equally_good_n").format(k=k) + more + "\n\n" + "\n".join(lines))


def _explain(grid: Grid, variant: Variant, clashes: why.Clashes | str) -> None:
    """Every independent clash, listed and marked; the smallest set on request."""
    st.subheader(t("why"))
    if isinstance(clashes, str):
        st.warning(say(clashes))
        return
    cores = clashes.cores
    st.markdown(t("clashes_n").format(k=len(cores)) + (f" {t('more_remain')}" if clashes.more else ""))
    for k, core in enumerate(cores, 1):
        kind = t("smallest") if core.smallest else t("minimal")
        st.markdown(f"**{k}.** {t('why_core')} ({len(core.cells)}, {kind}): `{core}`")
    widgets.grid(draw.svg(grid, variant, highlight=draw.marks(core=clashes.cells())))
    if all(c.smallest for c in cores):
        return
    key = ("why", grid, variant)
    job = background.submit(key, _why, grid, variant)
    if not job.done():
        widgets.pending(key, t("looking_smallest"))
        return
    found = job.result()
    if isinstance(found, str):
        st.warning(say(found))
    elif found is not None:
        if not found.smallest:  # the budget ran out: say so rather than show a minimal set twice
            st.info(t("smallest_not_proved").format(k=f"{why.SUBSET_BUDGET:,}"))
        if found.smallest or all(set(found.cells) != set(c.cells) for c in cores):
            kind = t("smallest") if found.smallest else t("minimal")
            st.markdown(f"{t('why_core')} ({len(found.cells)}, {kind}): `{found}`")
            widgets.grid(draw.svg(grid, variant, highlight=draw.marks(core=found.cells)))
