"""A config whose difficulty target the grader cannot reach is refused before any work, in one line
that says why; the check asks the grader (it is not a rule of its own)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pipeline import config
from pipeline.config import ConfigError, reach
from pipeline.difficulty import grade as grademod
from tests.conftest import ROOT, error_line

KILLER: dict[str, Any] = {"name": "k", "seed": 1, "count": 5, "board": {"size": 9, "variant": "killer"}}


def test_the_probe_is_the_published_killer_puzzle() -> None:
    """The probe is janko.at Killer 116 as the golden file holds it (whose uniqueness
    tests/verify/test_variants.py checks with both counters)."""
    golden = json.loads((ROOT / "tests" / "data" / "variants" / "golden.json").read_text(encoding="utf-8"))
    p = next(x for x in golden["puzzles"] if x["name"] == "killer-janko-116")
    assert p["puzzle"] == "." * 81 and p["solution"] == reach.PROBE_SOLUTION
    assert [(tuple(c["cells"]), c["sum"]) for c in p["cages"]] == list(reach.PROBE_CAGES)


@pytest.fixture
def unrating(monkeypatch: pytest.MonkeyPatch) -> Any:
    """A grader that, like the grader before killer techniques, calls every killer puzzle without
    givens unrated (the probe is graded again under it)."""
    real = grademod.grade

    def grade(*args: Any, **kwargs: Any) -> grademod.Grade:
        g = real(*args, **kwargs)
        variant = kwargs.get("variant")
        if variant is not None and "killer" in variant.kinds:
            return grademod.Grade(level="unrated", score=0.0, techniques=[], logic_steps=0, steps=[], n=g.n,
                                  reason="killer cages (not graded yet): no step uses the cage sums")
        return g

    reach.killer_without_givens.cache_clear()
    monkeypatch.setattr(grademod, "grade", grade)
    yield
    reach.killer_without_givens.cache_clear()


@pytest.mark.parametrize(("difficulty", "key"), [({"levels": ["easy", "hard"]}, "levels"),
                                                 ({"quota": {"easy": 2, "hard": 3}}, "quota")])
def test_levels_the_grader_cannot_reach_are_refused(unrating: None, difficulty: dict[str, Any], key: str) -> None:
    with pytest.raises(ConfigError) as err:
        config.validate({**KILLER, "difficulty": difficulty})
    line = str(err.value)
    assert line.startswith(f"difficulty.{key}: the grader rates every killer puzzle without givens unrated "
                           "(killer cages (not graded yet))") and "easy or hard" in line and "\n" not in line


def test_today_the_grader_rates_killer_puzzles_so_their_levels_are_accepted() -> None:
    reach.killer_without_givens.cache_clear()
    level, _ = reach.killer_without_givens()
    assert level in grademod.LEVELS
    config.validate({**KILLER, "difficulty": {"levels": [level]}})


def test_what_the_grader_can_reach_is_accepted() -> None:
    config.validate(KILLER)  # no target
    config.validate({**KILLER, "board": {**KILLER["board"], "cages": {"givens": True}},
                     "difficulty": {"levels": ["easy"]}})  # givens: the techniques can finish a puzzle
    config.validate({**KILLER, "board": {"size": 9, "variant": "x"}, "difficulty": {"levels": ["easy"]}})


def test_the_check_asks_the_grader(monkeypatch: pytest.MonkeyPatch) -> None:
    """A grader that rates killer puzzles (as the probe shows) lets the same config through: the check
    has no rule of its own about killer puzzles."""
    real = grademod.grade

    def rating(*args: Any, **kwargs: Any) -> grademod.Grade:
        g = real(*args, **kwargs)
        return grademod.Grade(level="hard", score=1000.0, techniques=g.techniques, logic_steps=g.logic_steps,
                              steps=g.steps, n=g.n)

    reach.killer_without_givens.cache_clear()
    monkeypatch.setattr(grademod, "grade", rating)
    try:
        assert reach.killer_without_givens()[0] == "hard"
        config.validate({**KILLER, "difficulty": {"levels": ["hard"]}})
    finally:
        reach.killer_without_givens.cache_clear()


def test_run_refuses_it_before_any_work(unrating: None, tmp_path: Path, write_config: Any) -> None:
    """``numplace run`` (in this process, so the stand-in grader holds) refuses in one line, writes nothing."""
    from typer.testing import CliRunner

    from pipeline.cli import app

    cfg = write_config({**KILLER, "difficulty": {"levels": ["expert"]}, "output": {"dir": str(tmp_path / "out")}})
    res = CliRunner().invoke(app, ["run", str(cfg)])
    assert res.exit_code == 2, res.output
    assert error_line(res.stderr).startswith("numplace: error: difficulty.levels: the grader rates every killer")
    assert len(res.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()
