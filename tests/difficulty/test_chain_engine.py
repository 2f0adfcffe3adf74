"""Grader 4's nice loop / AIC choice (:mod:`pipeline.difficulty.chains.engine`) and its compiled twin.

The twin must pick the very chain the Python search picks, on every state where the search runs:
states along the solve paths of hard classic puzzles (where the choice decides the path), and states
of X and jigsaw boards (the twin takes any geometry's peers and units).
"""

from __future__ import annotations

import pytest

from pipeline.board import parse
from pipeline.difficulty.candidates import _Ctx
from pipeline.difficulty.chains import engine, engine_jit
from pipeline.difficulty.chains.graph import graph_of
from pipeline.difficulty.grade import grade
from pipeline.difficulty.logic import Candidates, solve_logically
from tests.difficulty.test_logic import tdoku_rows
from tests.difficulty.test_loops import _path_states
from tests.difficulty.test_variants import VARIANTS, make


def _compare(states: list[Candidates]) -> tuple[int, int]:
    """(states compared, states where a chain was chosen); asserts the twins agree on each."""
    chosen = 0
    for st in states:
        ctx = _Ctx(st)
        four = engine._choose_py(st, ctx, graph_of(st, ctx))
        assert engine_jit.choose(st.cand, st.n, st.geo.peers, st.geo.units) == four, st.cand
        five = engine.choose_tables(st, ctx, graph_of(st, ctx))
        assert engine_jit.choose(st.cand, st.n, st.geo.peers, st.geo.units, True) == (
            five[0] if five is not None else None), st.cand
        if five is not None:  # and the path the compiled solver's step is built on
            got = engine_jit.choose_path(st.cand, st.n, st.geo.peers, st.geo.units, True)
            assert got is not None
            assert got[1] == engine.tables_path(engine.Links(st, graph_of(st, ctx)), five[0]), st.cand
        chosen += four is not None
    return len(states), chosen


@pytest.mark.deep
@pytest.mark.parametrize("share", [pytest.param(4, marks=pytest.mark.heavy), pytest.param(1, marks=pytest.mark.system)])
def test_compiled_choice_agrees_with_python_on_classic_paths(share: int) -> None:
    """Every ``share``-th state along the hard tdoku paths and top95's first four (a quarter in make
    test, all in the system tier)."""
    from tests.golden import TOP95

    puzzles = [p for p, c, _ in tdoku_rows() if c == 1 and not solve_logically(p, max_technique="xy_chain").solved]
    puzzles += [parse(p) for p in TOP95[:4]]
    n, chosen = _compare([st for p in puzzles for st in _path_states(p)][::share])
    assert n > 100 // share and chosen > 20 // share  # the comparison saw many real choices, not only "no chain"


@pytest.mark.parametrize("kind", [pytest.param("x", marks=pytest.mark.deep), "jigsaw"])
def test_compiled_choice_agrees_with_python_on_variant_boards(kind: str) -> None:
    states = []
    for seed in range(6):
        puzzle, _sol = make(kind, seed, givens=24)
        states += _path_states(puzzle, VARIANTS[kind])
    n, chosen = _compare(states)
    assert n > 10 and chosen > 10


def test_the_compiled_grader_runs_the_twin(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled solver asks the twin (and grades as the Python solver does)."""
    from tests.golden import TOP95

    calls = {"n": 0}
    real = engine_jit.choose

    def counted(*args: object) -> object:
        calls["n"] += 1
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(engine_jit, "choose", counted)
    for line in TOP95[:12]:
        puzzle = parse(line)
        compiled = grade(puzzle, compiled=True, grader=4)
        assert compiled == grade(puzzle, compiled=False, grader=4)
        if {"aic", "discontinuous_nice_loop"} & set(compiled.techniques):
            break
    assert calls["n"] > 0


def test_elims_of_the_four_nice_loop_cases() -> None:
    """HoDoKu's four discontinuous nice loop cases, on a cell with candidates 1, 2, 5 (r1c1)."""
    st = Candidates.from_grid(parse("." * 81))
    st.cand[0] = 0b10011
    ctx = _Ctx(st)
    a, e = 0, 81  # 1 and 2 in r1c1
    loop = "discontinuous_nice_loop"
    assert engine._elims(st, ctx, (loop, a, True, a, 3)) == ((0, 1),)  # a on ... a off
    assert engine._elims(st, ctx, (loop, a, True, e, 4)) == ((0, 1),)  # a on ... 2 on
    assert engine._elims(st, ctx, (loop, a, False, a, 3)) == ((0, 2), (0, 5))  # a off ... a on
    assert engine._elims(st, ctx, (loop, a, False, e, 4)) == ((0, 2),)  # a off ... 2 off
    assert engine._elims(st, ctx, (loop, a, True, e, 3)) == ()  # a on ... 2 off: nothing follows
