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
from tests.conftest import ROOT, error_line, numplace

KILLER: dict[str, Any] = {"name": "k", "seed": 1, "count": 5, "board": {"size": 9, "variant": "killer"}}


def test_the_probe_is_the_published_killer_puzzle() -> None:
    """The probe is janko.at Killer 116 as the golden file holds it (whose uniqueness
    tests/verify/test_variants.py checks with both counters)."""
    golden = json.loads((ROOT / "tests" / "data" / "variants" / "golden.json").read_text(encoding="utf-8"))
    p = next(x for x in golden["puzzles"] if x["name"] == "killer-janko-116")
    assert p["puzzle"] == "." * 81 and p["solution"] == reach.PROBE_SOLUTION
    assert [(tuple(c["cells"]), c["sum"]) for c in p["cages"]] == list(reach.PROBE_CAGES)


@pytest.mark.parametrize(("difficulty", "key"), [({"levels": ["easy", "hard"]}, "levels"),
                                                 ({"quota": {"easy": 2, "hard": 3}}, "quota")])
def test_killer_levels_without_givens_are_refused(difficulty: dict[str, Any], key: str) -> None:
    with pytest.raises(ConfigError) as err:
        config.validate({**KILLER, "difficulty": difficulty})
    line = str(err.value)
    assert line.startswith(f"difficulty.{key}: the grader rates every killer puzzle without givens unrated "
                           "(killer cages (not graded yet))") and "easy or hard" in line and "\n" not in line


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


@pytest.mark.heavy
def test_run_refuses_it_before_any_work(tmp_path: Path, write_config: Any) -> None:
    cfg = write_config({**KILLER, "difficulty": {"levels": ["expert"]}, "output": {"dir": str(tmp_path / "out")}})
    res = numplace("run", str(cfg))
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1
    assert error_line(res.stderr).startswith("numplace: error: difficulty.levels: the grader rates every killer")
    assert not (tmp_path / "out").exists()
