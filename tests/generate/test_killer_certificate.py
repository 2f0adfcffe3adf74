"""Which certificate a killer puzzle gets depends on the set's generator version: HiGHS's presolve alone
from version 3, a budget of 8 branch-and-bound nodes before it; a version-2 spec makes the very puzzles
it made before (``tests/data/killer/killer-yaml.jsonl``, made by version 2)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from typing import Any

import pytest

from pipeline.board import format_line
from pipeline.config import load
from pipeline.generate import version
from pipeline.generate.puzzle import KILLER_CERTIFY_NODES, make_puzzle
from pipeline.generate.spec import Spec, puzzle_seed
from pipeline.ilp.engine import Engine
from pipeline.run.plan import spec_of
from tests.conftest import DATA, ROOT

pytestmark = pytest.mark.heavy  # makes 9x9 killer puzzles: about a second each

KILLER_YAML = [json.loads(line) for line in (DATA / "killer" / "killer-yaml.jsonl").read_text().splitlines()]


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, Any]]]:
    """The certificate calls the generator makes: ("nodes", node_limit) or ("presolve", None)."""
    seen: list[tuple[str, Any]] = []
    nodes, presolve = Engine.unique_without, Engine.unique_by_presolve

    def by_nodes(self: Engine, puzzle: Any, node_limit: int | None = None) -> bool:
        seen.append(("nodes", node_limit))
        return nodes(self, puzzle, node_limit)

    def by_presolve(self: Engine, puzzle: Any) -> bool:
        seen.append(("presolve", None))
        return presolve(self, puzzle)

    monkeypatch.setattr(Engine, "unique_without", by_nodes)
    monkeypatch.setattr(Engine, "unique_by_presolve", by_presolve)
    yield seen


def _killer(made_by: int | None = None) -> tuple[Spec, int]:
    cfg = load(ROOT / "configs" / "killer.yaml")
    # the pinned puzzles are a set's whose record says weighted-ilp (new sets default to weighted-lp)
    spec = dataclasses.replace(spec_of(cfg), grid_method="weighted-ilp")
    return (spec if made_by is None else dataclasses.replace(spec, generator=made_by)), cfg.seed


def _made(spec: Spec, seed: int, k: int) -> list[dict[str, Any]]:
    out = []
    for i in range(k):
        m = make_puzzle(spec, puzzle_seed(seed, i))
        assert m.certified
        out.append({"solution": format_line(m.solution),
                    "cages": [{"cells": list(c.cells), "sum": c.total} for c in m.variant.cages]})
    return out


def test_a_new_spec_is_made_by_this_generator_version() -> None:
    spec, _ = _killer()
    assert spec.generator == version.GENERATOR_VERSION >= version.PRESOLVE_KILLER_CERTIFICATES


def test_version_2_keeps_the_node_budget_and_its_puzzles(calls: list[tuple[str, Any]]) -> None:
    spec, seed = _killer(2)
    made = _made(spec, seed, 3)
    assert made == [{"solution": e["solution"], "cages": e["cages"]} for e in KILLER_YAML[:3]]
    assert calls and set(calls) == {("nodes", KILLER_CERTIFY_NODES)}


def test_version_3_certifies_by_presolve(calls: list[tuple[str, Any]]) -> None:
    spec, seed = _killer()
    made = _made(spec, seed, 3)
    # presolve settles these three certificates, so the new rule makes the same puzzles here
    assert made == [{"solution": e["solution"], "cages": e["cages"]} for e in KILLER_YAML[:3]]
    assert calls and set(calls) == {("presolve", None)}


def test_under_version_3_a_layout_presolve_cannot_settle_is_dropped_at_once() -> None:
    """The layout of ``presolve-survivor.json`` (unique, but its proof needs more than presolve) makes
    :func:`certify` raise under version 3, so the attempt moves on to a new grid."""
    from pipeline.board import Cage, make_variant, parse
    from pipeline.generate.puzzle import certify
    from pipeline.ilp.engine import SolverTimeout, engine_for

    entry = json.loads((DATA / "killer" / "presolve-survivor.json").read_text())
    cages = tuple(sorted(Cage(tuple(c["cells"]), c["sum"]) for c in entry["cages"]))
    eng = engine_for(9, variant=make_variant("killer", cages=cages))
    eng.set_nogood(parse(entry["solution"]))
    try:
        with pytest.raises(SolverTimeout, match="presolve"):
            certify(eng, _killer()[0], (0,) * 81)
    finally:
        eng.set_nogood(None)
