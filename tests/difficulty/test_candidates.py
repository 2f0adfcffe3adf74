"""The candidate state's construction: :meth:`Candidates.from_grid` takes its masks from one pass over
the units where a board's peers are its units (every board but killer) and from the peers elsewhere;
both give the same candidates and refuse the same clashes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pipeline.board import CLASSIC, Cage, Variant, conflict, parse
from pipeline.difficulty.candidates import (
    Candidates,
    Contradiction,
    _geo,
    _peer_candidates,
    _peers_are_units,
    _unit_candidates,
)

TOP95 = Path(__file__).resolve().parents[1] / "data" / "top95.txt"
BOARDS = [(9, CLASSIC), (4, CLASSIC), (6, CLASSIC), (16, CLASSIC), (9, Variant(("x",))), (9, Variant(("hyper",))),
          (9, Variant(("hyper", "x")))]


@pytest.mark.parametrize(("n", "variant"), BOARDS)
def test_the_unit_pass_gives_the_peer_candidates_and_the_same_clashes(n: int, variant: Variant) -> None:
    g = _geo(n, variant)
    assert _peers_are_units(g)
    rng = random.Random(n * 7 + len(variant.kinds))
    clashes = 0
    for density in (0.05, 0.15, 0.3) * 40:
        values = [rng.randint(1, n) if rng.random() < density else 0 for _ in range(n * n)]
        fast = _unit_candidates(g, values)
        clash = conflict(tuple(values), None if variant.classic else variant)
        assert (fast is None) == (clash is not None)
        clashes += fast is None
        if fast is not None:
            assert fast == _peer_candidates(g, values)
    assert 0 < clashes < 120  # both kinds of grid were met


def test_killer_cage_mates_take_the_peer_path() -> None:
    killer = Variant(("killer",), None, (Cage((8, 9), 3),))  # r1c9 and r2c1 share no unit
    g = _geo(9, killer)
    assert not _peers_are_units(g)
    values = [0] * 81
    values[8] = 1
    st = Candidates.from_grid(tuple(values), variant=killer)
    assert not st.cand[9] & 1  # r2c1 shares only the cage with r1c9: no 1
    values[9] = 1
    with pytest.raises(Contradiction):
        Candidates.from_grid(tuple(values), variant=killer)


def test_real_puzzles_start_from_the_same_candidates() -> None:
    g = _geo(9)
    lines = [ln for ln in TOP95.read_text(encoding="utf-8").splitlines() if ln and not ln.startswith("#")]
    for line in lines[:40]:
        grid = parse(line)
        assert Candidates.from_grid(grid).cand == _peer_candidates(g, list(grid))


def test_a_clash_is_still_worded() -> None:
    values = [0] * 81
    values[0] = values[8] = 5
    with pytest.raises(Contradiction, match="row 1 has two 5s"):
        Candidates.from_grid(tuple(values))
