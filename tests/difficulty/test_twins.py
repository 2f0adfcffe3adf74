"""Twins that cannot drift: every compiled probe (pipeline.difficulty.logic_jit.PROBES) says a technique
applies exactly when the Python finder it stands for (under every rulebook that pairs them) finds a step,
position by position, over the golden positions: ``tests/data/logic_positions.txt`` and every state on
the solving paths of puzzles of ``top95.txt``, ``tdoku_test_puzzles.txt`` and ``grader_paths.json``."""

from __future__ import annotations

import json
from functools import cache
from typing import cast

import pytest

from pipeline.board import parse
from pipeline.difficulty import logic_jit
from pipeline.difficulty.candidates import Candidates, Finder, _Ctx
from pipeline.difficulty.logic import TwinDrift, _compiled_next, finders_of, solve_logically
from pipeline.difficulty.logic_jit import Kernel
from pipeline.difficulty.techniques import RULEBOOKS
from tests.conftest import DATA


def _lines(name: str) -> list[str]:
    return [x.strip() for x in (DATA / name).read_text(encoding="utf-8").splitlines()
            if x.strip() and not x.startswith("#")]


@cache
def states() -> tuple[tuple[int, tuple[int, ...], tuple[int, ...], int], ...]:
    """(n, values, candidates, given) of every golden position and of the state before every step of the
    paths but the singles (which the kernels place themselves)."""
    out: list[tuple[int, tuple[int, ...], tuple[int, ...], int]] = []

    def add(st: Candidates) -> None:
        out.append((st.n, tuple(st.values), tuple(st.cand), st.given))

    for raw in _lines("logic_positions.txt"):
        _tech, _mode, state, removed, _effects, _source = (f.strip() for f in raw.split("|"))
        grid = parse(state.replace("+", ""))
        n = round(len(grid) ** 0.5)
        rem = []
        for tok in removed.split():
            if tok != "-":
                where, d = tok.split(":")
                r, c = where[1:].split("c")
                rem.append(((int(r) - 1) * n + int(c) - 1, int(d)))
        add(Candidates.from_grid(grid, rem))
    puzzles = _lines("top95.txt")[:8] + [x.split(":")[0] for x in _lines("tdoku_test_puzzles.txt")
                                         if x.split(":")[1] == "1"][:6]
    puzzles += [row["puzzle"] for row in json.loads((DATA / "grader_paths.json").read_text())["puzzles"][-20:]]
    for p in puzzles:
        res = solve_logically(parse(p), compiled=False)
        st = Candidates.from_grid(parse(p))
        for step in res.steps:
            if step.technique not in ("naked_single", "hidden_single"):
                add(st)
            st.apply(step)
    return tuple(dict.fromkeys(out))


def pairs() -> list[tuple[str, str, Finder, bool]]:
    """(probe, technique, finder, loose) for every probe and every distinct finder a rulebook pairs it
    with; ``loose``: the rulebook says the probe may say yes where the finder finds nothing."""
    seen: dict[tuple[str, int], tuple[str, str, Finder, bool]] = {}
    for version, rules in sorted(RULEBOOKS.items()):
        for t, finder in finders_of(version).items():
            probe = rules.probe(t)
            if probe is not None:
                seen.setdefault((probe, id(finder)), (probe, t, finder, t in rules.loose))
    return list(seen.values())


def test_every_probe_has_a_twin() -> None:
    assert {p[0] for p in pairs()} == set(logic_jit.PROBES)
    assert [(p, t) for p, t, _, loose in pairs() if loose] == [("skyscraper", "skyscraper")]  # the one loose twin


@pytest.mark.heavy
@pytest.mark.parametrize("probe,technique,finder,loose", pairs(),
                         ids=lambda x: x if isinstance(x, str) else "loose" if x is True else "")
def test_probe_agrees_with_its_finder(probe: str, technique: str, finder: Finder, loose: bool) -> None:
    """An exact twin says yes exactly where its finder finds a step; a loose one (named by its rulebook)
    at least everywhere its finder does."""
    assert len(states()) > 200
    applies = wider = 0
    for n, values, cand, given in states():
        st = Candidates(n, list(values), list(cand), given=given)
        found = finder(st, _Ctx(st)) is not None
        says = logic_jit.probe(probe, n, list(cand))
        assert says >= found if loose else says == found, (probe, technique, values, cand)
        applies += found
        wider += says and not found
    assert applies  # the positions exercise the technique, not only its absence
    assert wider or not loose  # a loose twin is loose on some golden position (else make it exact)


class _SaysYes:
    """A kernel whose probe says the first technique after the singles applies, whatever the state."""

    walked = (("x_wing", "x_wing"), ("trial_and_error", None))

    def advance(self, values: list[int], cand: list[int]) -> tuple[list[int], list[int], list, int]:
        return values, cand, [], 0

    def walk(self, start: int) -> int:
        return start


def test_a_drifting_probe_fails_under_tests(monkeypatch: pytest.MonkeyPatch) -> None:
    """With NUMPLACE_STRICT_TWINS=1 (the test session's), a probe that says yes where its finder says no
    raises instead of falling back on the Python search; without it (or for a rulebook's loose row), the
    driver asks the Python search, as the pure solver would."""
    st = Candidates.from_grid(parse(_lines("top95.txt")[0]))
    none: Finder = lambda st, ctx: None  # noqa: E731
    finders = {"naked_single": none, "hidden_single": none, "x_wing": none, "trial_and_error": none}
    kernel = cast(Kernel, _SaysYes())
    with pytest.raises(TwinDrift, match="x_wing"):
        _compiled_next(st, finders, [], kernel)
    assert _compiled_next(st, finders, [], kernel, frozenset({"x_wing"})) is None
    monkeypatch.setenv("NUMPLACE_STRICT_TWINS", "0")
    assert _compiled_next(st, finders, [], kernel) is None


@pytest.mark.heavy
def test_the_compiled_xy_chain_choice_builds_the_python_step() -> None:
    """Grader 5's XY-chain row in the compiled solver (its choice made by ``simple_jit.xy_chain_choice``)
    gives the very step of the Python search, on every golden state."""
    from pipeline.difficulty.chains import simple

    found = 0
    for n, values, cand, given in states():
        st = Candidates(n, list(values), list(cand), given=given)
        jit = _Ctx(st)
        jit.cache["jit"] = True
        step = simple.xy_chain(st, jit)
        assert step == simple._xy_chain(st, _Ctx(st), hodoku=True), (values, cand)
        found += step is not None
    assert found > 10
