"""Variants in the integer program and the config (issue 16): units as rows, killer cages as rows of
their own, and one clear line for every variant mistake."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pipeline.board import Cage, board, conflict, make_variant, regions_problem
from pipeline.config import ConfigError, load, validate
from pipeline.ilp.engine import engine_for

JIGSAW = "112223333111222236141122336145555336444456666447559996477559996777888899777888889"
CONFIGS = Path(__file__).resolve().parents[2] / "configs"


def _obeys(grid: tuple[int, ...], kinds: str, regions: str | None = None) -> bool:
    b = board(9, make_variant(kinds, regions))
    return all(sorted(grid[i] for i in u) == list(range(1, 10)) for u in b.units)


@pytest.mark.heavy
@pytest.mark.parametrize(("kinds", "regions"), [pytest.param("x", None, marks=pytest.mark.deep), ("hyper", None),
                                                ("x+hyper", None), ("jigsaw", JIGSAW)])
def test_random_grid_obeys_variant_units(kinds: str, regions: str | None) -> None:
    v = make_variant(kinds, regions)
    for seed in range(3):
        out = engine_for(9, variant=v).random_grid(np.random.default_rng(seed).random(729), seed)
        assert out.status == "feasible" and out.grid is not None
        assert _obeys(out.grid, kinds, regions)
        assert conflict(out.grid, v) is None
    # the plain classic engine is a different one and does not honour the diagonals in general
    plain = [engine_for(9).random_grid(np.random.default_rng(s).random(729), s).grid for s in range(6)]
    assert not all(g is not None and _obeys(g, kinds, regions) for g in plain)


def _cages_of(grid: tuple[int, ...]) -> tuple[Cage, ...]:
    """Horizontal dominoes and one single per row: a valid cage cover of ``grid``."""
    out = []
    for r in range(9):
        for c in range(0, 8, 2):
            cells = (r * 9 + c, r * 9 + c + 1)
            out.append(Cage(cells, grid[cells[0]] + grid[cells[1]]))
        out.append(Cage((r * 9 + 8,), grid[r * 9 + 8]))
    return tuple(sorted(out))


def test_killer_cage_rows_keep_the_grid_and_change_per_puzzle() -> None:
    grid = engine_for(9).random_grid(np.random.default_rng(3).random(729), 3).grid
    assert grid is not None
    cages = _cages_of(grid)
    eng = engine_for(9, variant=make_variant("killer", cages=cages))
    found = eng.certified_count((0,) * 81, limit=3)
    assert found.count == 3  # dominoes leave many grids; each one found obeys the cages
    assert len(found.solutions) == 3  # the loop below checks three solutions, not none
    for sol in found.solutions:  # every solution the ILP returns obeys the cages
        assert all(sum(sol[i] for i in c.cells) == c.total for c in cages)
        assert all(len({sol[i] for i in c.cells}) == len(c.cells) for c in cages)
    # with the no-good row of the grid installed, cages can be swapped without losing it
    eng.set_nogood(grid)
    eng.set_cages(())
    assert eng.solve((0,) * 81).status == "feasible"  # a plain empty grid has other solutions
    eng.set_cages(tuple(Cage((i,), grid[i]) for i in range(81)))  # every cell pinned: only the grid
    assert eng.unique_without((0,) * 81)
    eng.set_nogood(None)
    # asking for the rule (no cages) again removes the puzzle's cages
    assert engine_for(9, variant=make_variant("killer")) is eng and eng.solve((0,) * 81).status == "feasible"


def test_regions_problems_name_the_region() -> None:
    assert regions_problem(9, JIGSAW) is None
    assert "80 labels" in (regions_problem(9, JIGSAW[:-1]) or "")
    bad = "1" + JIGSAW[1:10] + "9" + JIGSAW[11:]  # r2c2 moves from region 1 to 9: 8 cells vs 10
    assert "region" in (regions_problem(9, bad) or "")
    cut = JIGSAW.replace("5", "x", 1)
    assert regions_problem(9, cut) is not None


@pytest.mark.parametrize(("board_cfg", "line"), [
    ({"size": 6, "variant": "hyper"}, "board.variant: hyper is defined for 9x9 only"),
    ({"variant": "jigsaw"}, "board.variant: jigsaw needs board.regions"),
    ({"variant": "jigsaw", "regions": JIGSAW[:-1]}, "board.regions has 80 labels"),
    ({"variant": "x", "cages": {}}, "board.cages: only a killer variant has cages"),
    ({"variant": "zz"}, "board.variant: unknown variant 'zz'"),
    ({"variant": "killer", "cages": {"min_size": 1}}, "board.cages: min_size 1 makes one-cell cages"),
    ({"variant": "killer", "cages": {"min_size": 4, "max_size": 3}}, "board.cages: min_size (4) is greater"),
    ({"variant": "killer", "cages": {"colour": 1}}, "board.cages.colour: unknown key"),
])
def test_variant_config_mistakes_are_one_line(board_cfg: dict[str, object], line: str) -> None:
    with pytest.raises(ConfigError) as err:
        validate({"name": "t", "seed": 1, "count": 1, "board": board_cfg})
    assert str(err.value).startswith(line), str(err.value)
    assert "\n" not in str(err.value)


def test_variant_keys_refused_where_they_cannot_work() -> None:
    base = {"name": "t", "seed": 1, "count": 1}
    with pytest.raises(ConfigError, match=r"grid\.method: uniform grids are classic"):
        validate({**base, "board": {"variant": "x"}, "grid": {"method": "uniform"}})
    with pytest.raises(ConfigError, match=r"removal\.hints: a killer puzzle without givens"):
        validate({**base, "board": {"variant": "killer"}, "removal": {"hints": {"target": 30}}})
    with pytest.raises(ConfigError, match="does not carry the jigsaw regions"):
        validate({**base, "board": {"variant": "jigsaw", "regions": JIGSAW},
                  "grid": {"solution_symmetry": {"map": "rot180"}}})
    # below 17 givens is fine for a variant (the classic floor does not hold for X or killer)
    validate({**base, "board": {"variant": "x"}, "removal": {"minimal": False, "hints": {"target": 14}}})


def test_variant_keys_leave_classic_config_hashes_alone() -> None:
    from pipeline.config import config_hash
    base = {"name": "t", "seed": 1, "count": 1}
    assert config_hash(validate(base)) == config_hash(validate({**base, "board": {"variant": "classic"}}))
    assert config_hash(validate(base)) != config_hash(validate({**base, "board": {"variant": "x"}}))


@pytest.mark.parametrize("name", ["x-sudoku", "hyper", "jigsaw", "killer"])
def test_shipped_variant_configs_load(name: str) -> None:
    cfg = load(CONFIGS / f"{name}.yaml")
    assert not cfg.board.rules.classic
