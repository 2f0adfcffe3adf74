"""Grader 6's grouped nice loops and AICs (:mod:`pipeline.difficulty.chains.grouped`).

HoDoKu's own steps pin the choice (``tests/data/logic_positions.txt``: the grouped rows' ``next``
lines, each a state of HoDoKu's solving path where hodoku-py takes that step); here: the group nodes
and their links, the lasso rule, the grader versions, soundness on variant boards, the compiled
search (:mod:`pipeline.difficulty.chains.grouped_jit`) choosing the Python search's chain, and the compiled
solver giving the Python path.
"""

from __future__ import annotations

import json

import pytest

from pipeline.board import parse
from pipeline.difficulty.candidates import Candidates, _bits, _Ctx
from pipeline.difficulty.chains import grouped_jit
from pipeline.difficulty.chains.engine import _lasso, choose_tables, tables_path
from pipeline.difficulty.chains.graph import graph_of
from pipeline.difficulty.chains.grouped import GroupLinks, grouped_loop, groups
from pipeline.difficulty.grade import grade
from pipeline.difficulty.logic import next_step, solve_logically
from tests.conftest import DATA
from tests.difficulty.test_logic import Position, assert_sound, positions
from tests.difficulty.test_loops import _path_states
from tests.difficulty.test_variants import VARIANTS, make

GROUPED = ("grouped_discontinuous_nice_loop", "grouped_continuous_nice_loop", "grouped_aic")


def _state(pos: Position) -> Candidates:
    st = Candidates.from_grid(pos.grid, pos.removed)
    st.given &= ~pos.placed
    return st


def _grouped_positions() -> list[Position]:
    return [p for p in positions() if p.technique in GROUPED and p.mode == "next"]


def test_every_grouped_row_has_a_hodoku_position() -> None:
    assert {p.technique for p in _grouped_positions()} == set(GROUPED)
    assert sum("HoDoKu's solving path (GROUPED_" in p.source for p in _grouped_positions()) >= 4


def test_group_nodes_are_a_digits_candidates_in_a_box_line_intersection_in_hodokus_order() -> None:
    st = _state(_grouped_positions()[0])
    ctx = _Ctx(st)
    gs = groups(st, ctx)
    assert gs
    g = st.geo
    seen = set()
    for k, cells, line, box in gs:
        assert cells.bit_count() >= 2
        assert cells == ctx.where[k] & g.unit_mask[line] & g.unit_mask[box]  # all of them, not a part
        assert 0 <= line < 18 and 18 <= box < 27
        seen.add((k, cells))
    assert len(seen) == len(gs)
    lines = [line for _k, _c, line, _b in gs]
    assert lines == sorted(lines)  # rows first, then columns (then digit, box)
    # every intersection with two or more candidates of a digit is a group
    want = sum((ctx.where[k] & g.unit_mask[ln] & g.unit_mask[b]).bit_count() >= 2
               for ln in range(18) for k in range(9) for b in range(18, 27))
    assert len(gs) == want


def test_group_links_follow_hodokus_rules_and_read_back_through_the_links_into_a_node() -> None:
    for pos in _grouped_positions():
        st = _state(pos)
        ctx = _Ctx(st)
        lk = GroupLinks(st, ctx, graph_of(st, ctx))
        size = lk.base + len(lk.groups)
        for x in range(size):
            for y in _bits(lk.weak[x]):
                assert lk.weak[y] >> x & 1  # weak links go both ways
            for y in _bits(lk.strong[x]):
                assert lk.strong_in[y] >> x & 1  # the links into y: the transpose
            for y in _bits(lk.strong_in[x]):
                assert lk.strong[y] >> x & 1
        for g, (k, cells, line, box) in enumerate(lk.groups):
            x = lk.base + g
            plain = {y for y in _bits(lk.weak[x]) if y < lk.base}
            assert plain == {k * 81 + c for c in _bits(ctx.where[k] & lk.buddies(x))}  # sees every cell
            for y in _bits(lk.weak[x]):
                if y >= lk.base:
                    k2, cells2, line2, box2 = lk.groups[y - lk.base]
                    assert k2 == k and not cells & cells2 and (line2 == line or box2 == box)
            for y in _bits(lk.strong[x]):  # off: the one candidate (or group) left in the box or line
                rest = lk.cells(y)
                assert any(ctx.where[k] & st.geo.unit_mask[h] & ~cells == rest for h in (line, box))


def test_a_chain_back_through_a_cell_of_a_group_it_has_left_is_a_lasso() -> None:
    """HoDoKu's ``addChain``: leaving a group node marks all its cells; a plain node there later (its
    own cell checked, as HoDoKu checks a node's first cell) ends the chain as a lasso."""
    st = _state(_grouped_positions()[0])
    ctx = _Ctx(st)
    lk = GroupLinks(st, ctx, graph_of(st, ctx))
    g = 0
    k, cells, _line, _box = lk.groups[g]
    second = list(_bits(cells))[1]
    out, other, fresh = [c for c in range(81) if st.cand[c] and not cells >> c & 1][:3]
    back = k * 81 + second
    path = [(k * 81 + out, True), (lk.base + g, False), (k * 81 + other, True)]
    assert _lasso(lk, [*path, (k * 81 + fresh, False)], aic=True) is False
    assert _lasso(lk, [*path, (back, False)], aic=True) is True  # a cell of the group left before
    assert _lasso(lk, [*path[:2], (back, False)], aic=True) is False  # right after it: not yet left


def test_grader_5_has_no_grouped_rows_and_keeps_its_step() -> None:
    for pos in _grouped_positions():
        st = _state(pos)
        six, five = next_step(st), next_step(st, grader=5)
        assert six is not None and five is not None
        assert six.technique == pos.technique and set(six.eliminations) == pos.eliminations
        assert not five.technique.startswith("grouped_")


def test_a_grouped_step_names_its_group_nodes_and_lists_their_cells() -> None:
    pos = next(p for p in _grouped_positions() if p.technique == "grouped_continuous_nice_loop")
    st = _state(pos)
    step = grouped_loop(st, _Ctx(st))
    assert step is not None and step.technique == "grouped_continuous_nice_loop"
    # HoDoKu's step: r2c4(7) = r46c4(7) - r5c6(7) = r5c6(1) - r6c5(1) = r6c5(9) - r3c5(9) = r2c4(9)
    assert step.detail.startswith("r2c4(7) = r46c4(7) - r5c6(7)")
    assert {3 * 9 + 3, 5 * 9 + 3} <= set(step.cells)  # r4c4 and r6c4: the group's cells
    assert set(step.eliminations) == pos.eliminations == {(1 * 9 + 3, 2), (5 * 9 + 5, 7)}


@pytest.mark.deep
def test_the_compiled_solver_gives_the_python_path_through_grouped_steps() -> None:
    rows = [json.loads(x) for x in (DATA / "hodoku_grouped.jsonl").read_text().splitlines()]
    grouped = 0
    for row in rows:
        p = parse(row["puzzle"])
        py, jit = solve_logically(p, compiled=False), solve_logically(p, compiled=True)
        assert py.steps == jit.steps
        grouped += any(s.technique in GROUPED for s in py.steps)
    assert grouped >= 3


def _compare_twins(states: list[Candidates]) -> tuple[int, int]:
    """(states compared, states where a chain was chosen); asserts the compiled search picks the chain
    :func:`choose_tables` picks over :class:`GroupLinks` (none where the state has no group node)."""
    chosen = 0
    for st in states:
        ctx = _Ctx(st)
        gr = graph_of(st, ctx)
        lk = GroupLinks(st, ctx, gr)
        got = choose_tables(st, ctx, gr, lk) if lk.groups else None
        assert grouped_jit.choose(st.cand, st.n, st.geo.peers, st.geo.units) == (
            got[0] if got is not None else None), st.cand
        if got is not None:  # and the path the compiled solver's step is built on
            twin = grouped_jit.choose_path(st.cand, st.n, st.geo.peers, st.geo.units)
            assert twin is not None and twin[1] == tables_path(lk, got[0]), st.cand
        chosen += got is not None
    return len(states), chosen


@pytest.mark.deep
def test_the_compiled_grouped_search_chooses_the_python_chain_along_solve_paths() -> None:
    """Every state past the singles of the pure-Python paths of HoDoKu's grouped puzzles."""
    rows = [json.loads(x) for x in (DATA / "hodoku_grouped.jsonl").read_text().splitlines()]
    n, chosen = _compare_twins([st for row in rows for st in _path_states(parse(row["puzzle"]))])
    assert n > 50 and chosen > 20  # the comparison saw many real choices, not only "no chain"


@pytest.mark.parametrize("kind", [pytest.param("x", marks=pytest.mark.deep), "jigsaw"])
def test_the_compiled_grouped_search_chooses_the_python_chain_on_variant_boards(kind: str) -> None:
    """The twin takes any geometry's peers and units: X and jigsaw paths (their group nodes included)."""
    states = []
    for seed in (4, 12):
        puzzle, _sol = make(kind, seed, givens=22)
        states += _path_states(puzzle, VARIANTS[kind])
    n, chosen = _compare_twins(states)
    assert n > 10 and chosen > 5


@pytest.mark.parametrize("kind", [pytest.param("x", marks=pytest.mark.deep), "jigsaw"])
def test_grouped_steps_are_sound_on_variant_boards(kind: str) -> None:
    """Group nodes on X and jigsaw boards (box-line intersections of rows or columns with boxes or
    regions): every step of every path keeps the solution, and some paths take grouped steps."""
    grouped = 0
    for seed in {"x": (0, 4, 5, 10), "jigsaw": (4, 12, 22, 24)}[kind]:  # seeds whose paths take grouped steps
        puzzle, sol = make(kind, seed, givens=22)
        res = solve_logically(puzzle, compiled=False, variant=VARIANTS[kind])
        assert_sound(puzzle, sol, res)
        grouped += sum(s.technique in GROUPED for s in res.steps)
    assert grouped >= 4, "too few grouped steps: the test saw little"


def test_grader_6_grades_hodokus_grouped_puzzles_as_hodoku_does() -> None:
    """The puzzles of HoDoKu's grouped positions, whole: grader 6's level is HoDoKu's."""
    levels = {"EASY": "easy", "MEDIUM": "medium", "HARD": "hard", "UNFAIR": "expert", "EXTREME": "extreme"}
    rows = [json.loads(x) for x in (DATA / "hodoku_grouped.jsonl").read_text().splitlines()]
    for row in rows:
        assert grade(parse(row["puzzle"])).level == levels[row["hodoku_level"]], row["puzzle"]
