"""The technique registry and the rulebooks (pipeline.difficulty.techniques): every entry complete, every
finder and probe they name exists, and the names other rooms read are derived from them."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pipeline.difficulty import logic_jit
from pipeline.difficulty.killer import cages
from pipeline.difficulty.logic import finder_at, finders_of
from pipeline.difficulty.techniques import (
    CAGES,
    GRADER_VERSION,
    HODOKU_LEVELS,
    LEVELS,
    MAX_SCORE,
    NOT_IN_SOLVER,
    ORDERS,
    RULEBOOKS,
    TECHNIQUE_ORDER,
    TECHNIQUES,
    TITLES,
    UNIQUENESS,
    rulebook,
)
from pipeline.studio.steps import JA, title
from tests.conftest import DATA

#: HoDoKu's own defaults, transcribed from its source (tests/data/README.md): the oracle the registry's
#: rows are held against. The registry is the one place numplace writes them.
HODOKU = json.loads((DATA / "hodoku_defaults.json").read_text(encoding="utf-8"))


def test_every_entry_is_complete() -> None:
    for name, t in TECHNIQUES.items():
        assert t.name == name and t.title and t.ja and t.level in LEVELS and t.weight > 0, name
        assert t.scope in ("any", "unique", "classic", "cages"), name
        assert (t.finder is None) == (name == "trial_and_error"), name
        assert (t.hodoku == "") == (t.scope == "cages"), name  # HoDoKu has every row but the killer ones


def test_every_hodoku_row_has_hodokus_step_index_level_and_weight() -> None:
    """Each entry's ``hodoku_index`` is the index of HoDoKu's solver step for its ``hodoku`` name
    (HoDoKu's ``DEFAULT_SOLVER_STEPS``, tests/data/hodoku_defaults.json), and its level and weight are
    that step's defaults; every step of the transcription is some entry's."""
    for name, t in TECHNIQUES.items():
        if not t.hodoku:
            assert t.hodoku_index is None, name
            continue
        step = HODOKU["steps"][t.hodoku]
        assert t.hodoku_index == step["index"], name
        assert HODOKU_LEVELS[LEVELS.index(t.level)] == step["level"] and t.weight == step["score"], name
    assert set(HODOKU["steps"]) == {t.hodoku for t in TECHNIQUES.values() if t.hodoku}


def test_the_score_limits_are_hodokus() -> None:
    """:data:`MAX_SCORE`, the one place numplace writes the limits, is HoDoKu's ``DifficultyLevel``."""
    assert {HODOKU_LEVELS[LEVELS.index(lv)]: v for lv, v in MAX_SCORE.items() if lv != "extreme"} \
        == HODOKU["level_limits"]
    assert MAX_SCORE["extreme"] == float("inf") and tuple(MAX_SCORE) == LEVELS


def test_hodoku_step_indexes_are_unique_but_for_hodokus_one_step_families() -> None:
    """Two entries share an index only where one HoDoKu step finds both (its nice-loop steps: a
    discontinuous loop, a continuous loop or an AIC, plain or grouped), and the registry's order is
    HoDoKu's solver order (indexes never decrease along it; the killer rows have none)."""
    by_index: dict[int, set[str]] = {}
    for name, t in TECHNIQUES.items():
        if t.hodoku_index is not None:
            by_index.setdefault(t.hodoku_index, set()).add(name)
    shared = {i: names for i, names in by_index.items() if len(names) > 1}
    assert shared == {5600: {"discontinuous_nice_loop", "continuous_nice_loop", "aic"},
                      5650: {"grouped_discontinuous_nice_loop", "grouped_continuous_nice_loop", "grouped_aic"}}
    for names in shared.values():
        assert len({json.dumps(HODOKU["steps"][TECHNIQUES[n].hodoku]) for n in names}) == 1  # one HoDoKu step
    order = [TECHNIQUES[n].hodoku_index for n in TECHNIQUE_ORDER if TECHNIQUES[n].hodoku_index is not None]
    assert order == sorted(order)
    assert len(by_index) == len({t.hodoku for t in TECHNIQUES.values() if t.hodoku}) - 4  # 6 names, 2 steps


@pytest.mark.parametrize("version", sorted(RULEBOOKS))
def test_every_finder_and_probe_a_rulebook_names_exists(version: int) -> None:
    rules = rulebook(version)
    assert rules.version == version and rules.change
    assert rules.order[-1] == "trial_and_error" and set(rules.order) <= set(TECHNIQUES)
    assert len(set(rules.order)) == len(rules.order)
    assert set(rules.finders) | set(rules.probes) <= set(rules.order)  # no rule for a row it does not have
    found = finders_of(version)
    assert tuple(found) == rules.order[:-1]
    for t in rules.order[:-1]:
        assert callable(found[t]) and found[t] is finder_at(rules.finder(t) or "")
        probe = rules.probe(t)
        assert probe is None or probe in logic_jit.PROBES, (t, probe)


def test_every_probe_is_named_by_some_rulebook() -> None:
    used = {rb.probe(t) for rb in RULEBOOKS.values() for t in rb.order}
    assert set(logic_jit.PROBES) <= used
    assert all(p.startswith(t) for rb in RULEBOOKS.values() for t in rb.order if (p := rb.probe(t)))


def test_the_importable_names_are_the_rulebooks() -> None:
    assert max(RULEBOOKS) == GRADER_VERSION and {v: rb.order for v, rb in RULEBOOKS.items()} == ORDERS
    assert TECHNIQUE_ORDER == tuple(TECHNIQUES) == ORDERS[GRADER_VERSION]
    assert RULEBOOKS[GRADER_VERSION].finders == {} and RULEBOOKS[GRADER_VERSION].probes == {}
    assert {n: t.title for n, t in TECHNIQUES.items()} == TITLES
    assert set(cages.KILLER_TECHNIQUES) == CAGES and {"death_blossom"} == NOT_IN_SOLVER
    assert {"bug_plus_1", "hidden_rectangle", "avoidable_rectangle_1", "avoidable_rectangle_2",
                          *(f"uniqueness_{k}" for k in range(1, 7))} == UNIQUENESS


def test_the_studio_reads_the_registry_words() -> None:
    assert {n: t.ja for n, t in TECHNIQUES.items()} == JA
    assert title("x_wing", "ja") == "Xウィング" and title("x_wing") == "X-Wing"


def test_an_unknown_probe_or_finder_fails_loudly() -> None:
    with pytest.raises(ValueError, match="no compiled probe named 'x_wing_9'"):
        logic_jit.codes_for(("x_wing", "x_wing_9"))
    with pytest.raises(ValueError, match=r"no finder 'fish\.search:x_wing_9'"):
        finder_at("fish.search:x_wing_9")
    with pytest.raises(ValueError, match="grader version 1 is not held"):
        rulebook(1)


def test_probe_codes_are_named_rows() -> None:
    codes = logic_jit.codes_for(("locked_pair", None, "sashimi_jellyfish"))
    assert codes.shape == (3, 4) and codes.dtype == np.int64
    assert tuple(codes[0]) == logic_jit.PROBES["locked_pair"] and codes[1, 0] == -1
    assert tuple(codes[2]) == (logic_jit.FISH, 4, 1, 1)


def test_a_rulebook_from_version_3_on_tries_the_rows_of_its_version_and_before() -> None:
    """A row says the grader version that first has it (``since``): a new row with a new version leaves
    every held version's order as it was."""
    for version, rules in RULEBOOKS.items():
        if version >= 3:
            assert rules.order == tuple(t for t, x in TECHNIQUES.items() if x.since <= version), version
    assert all(min(RULEBOOKS) <= t.since <= GRADER_VERSION for t in TECHNIQUES.values())
    assert set(RULEBOOKS[2].order) == {t for t, x in TECHNIQUES.items() if x.since <= 2}


def test_current_code_calls_no_retired_helper() -> None:
    """The rulebook of GRADER_VERSION names no ``_until_<N>`` finder or probe, and no module of
    the grader calls one (they exist only to be named by older rulebooks, so retiring a version deletes
    them and nothing else)."""
    import ast
    import re
    from pathlib import Path

    import pipeline.difficulty as pkg

    current = rulebook(GRADER_VERSION)
    for t in current.order:
        assert "_until_" not in (current.finder(t) or "") and "_until_" not in (current.probe(t) or ""), t
    helper = re.compile(r"_until_\d+$")
    calls = []
    for path in Path(pkg.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
                if helper.search(name):
                    calls.append(f"{path.name}: {name}")
    assert calls == []


def test_the_walk_pairs_probes_with_finders_by_name() -> None:
    """The compiled walk holds (technique, probe) by name, after the singles the kernels place."""
    from pipeline.difficulty.logic import KERNEL_SINGLES, _allowed, _walked

    for version, rules in RULEBOOKS.items():
        allowed = tuple(_allowed(None, grader=version))
        walked = _walked(version, allowed)
        assert walked is not None and allowed[: len(KERNEL_SINGLES)] == KERNEL_SINGLES
        assert [t for t, _ in walked] == list(allowed[len(KERNEL_SINGLES):])
        assert all(p == rules.probe(t) for t, p in walked)
        kernel = logic_jit.Kernel(9, walked)
        assert [tuple(row) for row in kernel.codes] == [logic_jit.PROBES[p] if p else (-1, 0, 0, 0) for _, p in walked]
    assert _walked(GRADER_VERSION, ("hidden_single", "naked_single")) is None  # not the kernels' order
    assert _walked(GRADER_VERSION, ("naked_single",)) == ()
