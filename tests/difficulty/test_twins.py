"""Twins that cannot drift: every compiled probe (pipeline.difficulty.logic_jit.PROBES) says a technique
applies exactly when the Python finder it stands for (under every rulebook that pairs them) finds a step,
position by position, over the golden positions: ``tests/data/logic_positions.txt`` and every state on
the solving paths of puzzles of ``top95.txt``, ``tdoku_test_puzzles.txt`` and ``grader_paths.json``."""

from __future__ import annotations

import json
from functools import cache

import pytest

from pipeline.board import parse
from pipeline.difficulty import logic_jit
from pipeline.difficulty.candidates import Candidates, Finder, _Ctx
from pipeline.difficulty.logic import TwinDrift, finders_of, solve_logically
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


def pairs() -> list[tuple[str, str, Finder]]:
    """(probe, technique, finder) for every probe and every distinct finder a rulebook pairs it with."""
    seen: dict[tuple[str, int], tuple[str, str, Finder]] = {}
    for version, rules in sorted(RULEBOOKS.items()):
        for t, finder in finders_of(version).items():
            probe = rules.probe(t)
            if probe is not None:
                seen.setdefault((probe, id(finder)), (probe, t, finder))
    return list(seen.values())


def test_every_probe_has_a_twin() -> None:
    assert {p for p, _, _ in pairs()} == set(logic_jit.PROBES)


@pytest.mark.heavy
@pytest.mark.parametrize("probe,technique,finder", pairs(), ids=lambda x: x if isinstance(x, str) else "")
def test_probe_agrees_with_its_finder(probe: str, technique: str, finder: Finder) -> None:
    assert len(states()) > 300
    applies = 0
    for n, values, cand, given in states():
        st = Candidates(n, list(values), list(cand), given=given)
        found = finder(st, _Ctx(st)) is not None
        assert logic_jit.probe(probe, n, list(cand)) == found, (probe, technique, values, cand)
        applies += found
    assert applies  # the positions exercise the technique, not only its absence


def test_a_drifting_probe_fails_under_tests(monkeypatch: pytest.MonkeyPatch) -> None:
    """With NUMPLACE_STRICT_TWINS=1 (the test session's), a probe that says yes where its finder says no
    raises instead of falling back on the Python search; without it, the solve goes on with the same path."""
    puzzle = parse(_lines("top95.txt")[0])
    ref = solve_logically(puzzle, compiled=False)
    # pointing's probe answers for the X-chain: on a hard puzzle it says yes where no pointing exists
    monkeypatch.setattr(logic_jit, "PROBES", {**logic_jit.PROBES, "pointing": logic_jit.PROBES["x_chain"]})
    with pytest.raises(TwinDrift, match="pointing"):
        solve_logically(puzzle, compiled=True)
    monkeypatch.setenv("NUMPLACE_STRICT_TWINS", "0")
    assert solve_logically(puzzle, compiled=True) == ref
