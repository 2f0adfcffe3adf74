"""``numplace generate --technique`` and ``--max-attempts``: the attempt limit is a flag, and a run that
runs out of grids for some puzzles says what it made."""

from __future__ import annotations

from typing import Any

import pytest

from pipeline.board import parse
from pipeline.difficulty.grade import grade
from pipeline.difficulty.techniques import GRADER_VERSION
from pipeline.generate import technique as steering
from tests.conftest import numplace


def _configs(monkeypatch: pytest.MonkeyPatch, max_attempts: int | None, technique: str) -> list[Any]:
    """The config data ``generate`` hands to validation for a technique target, a level and neither, with
    ``--max-attempts max_attempts`` (validation refuses each, so nothing is made)."""
    from pipeline import config as cfgmod
    from pipeline.cli import puzzles

    seen: list[Any] = []

    def validate(data: dict) -> Any:
        seen.append(data)
        raise cfgmod.ConfigError("stop here")

    monkeypatch.setattr(cfgmod, "validate", validate)
    for args in ({"technique": [technique]}, {"level": ["hard"]}, {}):
        with pytest.raises(BaseException):  # noqa: B017 - the refusal ends the command; only `seen` is asked
            puzzles.generate(count=1, max_attempts=max_attempts, **args)  # type: ignore[arg-type]
    return seen


def test_max_attempts_reaches_the_config_key_it_names(monkeypatch: pytest.MonkeyPatch) -> None:
    """With --technique (or --level) the flag is difficulty.max_attempts, else removal.max_attempts."""
    seen = _configs(monkeypatch, 7, "x_wing")
    assert seen[0]["difficulty"] == {"technique": "x_wing", "max_attempts": 7}
    assert seen[1]["difficulty"] == {"levels": ["hard"], "max_attempts": 7}
    assert seen[2]["removal"]["max_attempts"] == 7 and "difficulty" not in seen[2]


def test_a_technique_tries_more_grids_unless_told(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --max-attempts, --technique gives difficulty.max_attempts TECHNIQUE_ATTEMPTS (a rare technique
    needs more than the config default of 200 grids a puzzle); --level and no target leave the key unset."""
    from pipeline.cli import puzzles

    seen = _configs(monkeypatch, None, "simple_colors")
    assert puzzles.TECHNIQUE_ATTEMPTS == 2000
    assert seen[0]["difficulty"] == {"technique": "simple_colors", "max_attempts": 2000}
    assert seen[1]["difficulty"] == {"levels": ["hard"]}
    assert "max_attempts" not in seen[2]["removal"] and "difficulty" not in seen[2]


def test_max_attempts_below_one_is_refused_in_one_line() -> None:
    res = numplace("generate", "--count", "1", "--technique", "x_wing", "--max-attempts", "0")
    assert res.returncode == 2
    assert "--max-attempts" in res.stderr and "Traceback" not in res.stderr, res.stderr


@pytest.mark.heavy
def test_a_short_run_says_what_it_made() -> None:
    """Seed 2 with one grid per puzzle: index 0 is made for x_wing, index 1 runs out of grids. The puzzle made
    is printed (and is made for the target), the failure is named, and the last line counts them."""
    res = numplace("generate", "--count", "2", "--seed", "2", "--technique", "x_wing", "--max-attempts", "1")
    assert res.returncode == 1
    made = res.stdout.split()
    assert len(made) == 1
    lines = res.stderr.strip().splitlines()
    assert lines[0].startswith("numplace: puzzle 1: generation failed: no puzzle after 1 attempts"), res.stderr
    assert lines[-1] == ("numplace: made 1 of 2 puzzles (printed above); no puzzle for index 1 within 1 grids "
                         "each: raise --max-attempts to try more")
    g = grade(parse(made[0]))
    assert steering.made_for(g.steps, g.level, g.guesses, ("x_wing",), GRADER_VERSION) == "x_wing"
