"""The killer certificate by HiGHS's presolve alone (:meth:`Engine.unique_by_presolve`): it proves what
it proves, never more, and a layout it cannot settle is a budget verdict, not an answer."""

from __future__ import annotations

import json

import pytest

from pipeline.board import Cage, Grid, make_variant, parse
from pipeline.generate import count_jit
from pipeline.ilp.engine import SolverTimeout, engine_for
from tests.conftest import DATA


def _layout(entry: dict) -> tuple[Grid, tuple[Cage, ...]]:  # type: ignore[type-arg]
    return parse(entry["solution"]), tuple(sorted(Cage(tuple(c["cells"]), c["sum"]) for c in entry["cages"]))


GOLDEN = [_layout(json.loads(line)) for line in (DATA / "killer" / "killer-yaml.jsonl").read_text().splitlines()[:3]]
#: A zero-given layout the generator drew for configs/killer.yaml whose cages have one solution (the
#: compiled counter says so) but whose certificate ran past 8 branch-and-bound nodes and survives presolve.
SURVIVOR = _layout(json.loads((DATA / "killer" / "presolve-survivor.json").read_text()))
BLANK: Grid = (0,) * 81


@pytest.mark.parametrize(("solution", "cages"), GOLDEN, ids=["0", "1", "2"])
def test_presolve_certifies_the_puzzles_of_killer_yaml_as_the_node_budget_does(solution: Grid,
                                                                               cages: tuple[Cage, ...]) -> None:
    eng = engine_for(9, variant=make_variant("killer", cages=cages))
    eng.set_nogood(solution)
    try:
        assert eng.unique_by_presolve(BLANK)
        assert eng.unique_without(BLANK, 8)  # the rule of generator versions 1 and 2 agrees
    finally:
        eng.set_nogood(None)


def test_a_layout_presolve_cannot_settle_raises_though_it_is_unique() -> None:
    solution, cages = SURVIVOR
    variant = make_variant("killer", cages=cages)
    assert count_jit.solutions(BLANK, 2, variant=variant) == (solution,)  # unique: the verdict is a budget
    eng = engine_for(9, variant=variant)
    eng.set_nogood(solution)
    try:
        with pytest.raises(SolverTimeout, match="presolve did not decide"):
            eng.unique_by_presolve(BLANK)
    finally:
        eng.set_nogood(None)


@pytest.mark.parametrize(("dropped", "verdict"), [(2, False), (4, None)])
def test_presolve_never_certifies_a_layout_with_a_second_solution(dropped: int, verdict: bool | None) -> None:
    """Cages dropped from a golden layout leave two solutions: presolve settles every column and finds
    a second solution (False), or does not decide (raises: the attempt is dropped); never True."""
    solution, cages = GOLDEN[0]
    variant = make_variant("killer", cages=cages[dropped:])
    found = count_jit.solutions(BLANK, 2, variant=variant)
    assert found is not None and len(found) == 2  # the counter finds a second solution
    eng = engine_for(9, variant=variant)
    eng.set_nogood(solution)
    try:
        if verdict is None:
            with pytest.raises(SolverTimeout, match="presolve did not decide"):
                eng.unique_by_presolve(BLANK)
        else:
            assert eng.unique_by_presolve(BLANK) is verdict
    finally:
        eng.set_nogood(None)


def test_the_verdict_does_not_depend_on_the_engines_earlier_work() -> None:
    """HiGHS's run clock adds up over an object's calls; presolve's time limit counts from each call's
    start, so an engine whose earlier presolves took longer than its time limit still answers the same."""
    from pipeline.ilp.engine import Engine

    solution, cages = SURVIVOR
    eng = Engine(9, time_limit=0.25, variant=make_variant("killer", cages=cages))
    eng.set_cages(cages)
    eng.set_nogood(solution)
    for _ in range(6):  # about 0.1 s each: well past 0.25 s in all
        with pytest.raises(SolverTimeout, match="presolve did not decide"):
            eng.unique_by_presolve(BLANK)
    golden, golden_cages = GOLDEN[0]
    eng.set_cages(golden_cages)
    eng.set_nogood(golden)
    assert eng.unique_by_presolve(BLANK)


def test_presolve_needs_the_no_good_row() -> None:
    _, cages = GOLDEN[0]
    eng = engine_for(9, variant=make_variant("killer", cages=cages))
    eng.set_nogood(None)
    with pytest.raises(RuntimeError, match="set_nogood"):
        eng.unique_by_presolve(BLANK)
