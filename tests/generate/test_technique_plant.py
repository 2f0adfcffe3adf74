"""Planting a digit for a technique target (generator 6 on, :mod:`pipeline.generate.plant`): the draw, the
removal order, the orbits the climb may move, and that older generators and other targets draw nothing."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from pipeline import config, symmetry
from pipeline.generate import plant
from pipeline.generate.spec import Spec
from pipeline.generate.version import GENERATOR_VERSION, PASSED_TARGET_CLIMB, PLANTED_DIGIT
from pipeline.run.plan import spec_of

GRID = tuple(int(c) for c in "534678912672195348198342567859761423426853791713924856961537284287419635345286179")
ORBITS = symmetry.orbits("rot180", 9)


def _spec(name: str | None, generator: int = GENERATOR_VERSION) -> Spec:
    data: dict = {"name": "p", "seed": 1, "count": 1, "grid": {"method": "weighted-ilp"}}
    if name:
        data["difficulty"] = {"technique": name}
    return dataclasses.replace(spec_of(config.validate(data)), generator=generator)


def test_a_planted_target_puts_the_digits_orbits_first_in_their_drawn_order() -> None:
    assert PLANTED_DIGIT == GENERATOR_VERSION == PASSED_TARGET_CLIMB + 1
    drawn = [ORBITS[k] for k in np.random.default_rng(5).permutation(len(ORBITS))]
    rng = np.random.default_rng(11)
    order, digit = plant.plant(_spec("simple_colors"), GRID, drawn, rng)
    assert digit == int(np.random.default_rng(11).integers(1, 10))  # one draw: the digit
    assert sorted(order) == sorted(drawn)
    holds = [any(GRID[i] == digit for i in o) for o in order]
    k = holds.index(False)
    assert all(holds[:k]) and not any(holds[k:])  # the digit's orbits first, then the rest
    # each part keeps the drawn order
    assert order[:k] == [o for o in drawn if any(GRID[i] == digit for i in o)]
    assert order[k:] == [o for o in drawn if not any(GRID[i] == digit for i in o)]
    # every cell holding the digit is in the front part
    assert {i for o in order[:k] for i in o} >= {i for i, d in enumerate(GRID) if d == digit}


@pytest.mark.parametrize(("name", "generator"), [("simple_colors", PASSED_TARGET_CLIMB), ("x_wing", GENERATOR_VERSION),
                                                 (None, GENERATOR_VERSION)])
def test_older_generators_and_other_targets_plant_nothing_and_draw_nothing(name: str | None, generator: int) -> None:
    drawn = list(ORBITS)
    rng = np.random.default_rng(3)
    assert plant.plant(_spec(name, generator), GRID, drawn, rng) == (drawn, None)
    assert rng.integers(1 << 30) == np.random.default_rng(3).integers(1 << 30)  # the stream did not move
    assert plant.movable(GRID, ORBITS, GRID, None) is ORBITS


def test_the_climb_moves_every_orbit_but_the_planted_blank_ones() -> None:
    digit = 4
    planted = [o for o in ORBITS if any(GRID[i] == digit for i in o)]
    kept = planted[0]  # a planted orbit the removal pass could not blank stays movable
    puzzle = tuple(GRID[i] if i in kept or not any(i in o for o in planted) else 0 for i in range(81))
    moved = plant.movable(GRID, ORBITS, puzzle, digit)
    assert kept in moved
    assert [o for o in ORBITS if o not in moved] == planted[1:]
    assert all(o in moved for o in ORBITS if o not in planted)


@pytest.mark.heavy
def test_generator_5_still_makes_its_simple_colors_puzzle() -> None:
    """A Simple Colors set begun under generator 5 plants nothing: seed 7006 gives the very puzzle b7ca466
    (generator 5, before planting existed) made."""
    from pipeline.generate.puzzle import make_puzzle

    made = make_puzzle(_spec("simple_colors", PASSED_TARGET_CLIMB), 7006)
    assert "".join(map(str, made.puzzle)) == ("700300050060009007002008060070800503000406000809005070080500700200600010"
                                             "030004005")
    assert made.technique == "simple_colors"
