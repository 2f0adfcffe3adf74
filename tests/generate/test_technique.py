"""Technique targets (``difficulty: {technique: NAME}``): the config key and its refusals, what "made for"
means, the steering loss, the ``technique`` column, ``check`` re-proving it, and ``generate --technique``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline import config
from pipeline.board import parse
from pipeline.config.hashing import config_hash
from pipeline.difficulty.candidates import Step
from pipeline.difficulty.grade import Grade, grade
from pipeline.difficulty.techniques import GRADER_VERSION
from pipeline.generate import technique as steering
from pipeline.run import rows
from pipeline.run.plan import spec_of
from tests.conftest import error_line, numplace, tiny


def _cfg(tmp_path: Path, **difficulty: object) -> config.Config:
    return config.validate(tiny(tmp_path / "out", difficulty=difficulty))


def test_the_key_implies_steering_and_logic_only(tmp_path: Path) -> None:
    spec = spec_of(_cfg(tmp_path, technique="x_wing"))
    assert spec.techniques == ("x_wing",) and spec.steer and spec.logic_only and spec.levels is None
    assert spec_of(_cfg(tmp_path, technique=["x_wing", "swordfish"])).techniques == ("x_wing", "swordfish")
    # unset, the key leaves the hash (and the puzzles) of every existing config as it was
    plain = config.validate(tiny(tmp_path / "out", difficulty={"levels": ["hard"]}))
    assert config_hash(plain) == config_hash(config.validate(tiny(tmp_path / "out", difficulty={
        "levels": ["hard"], "technique": None})))
    assert config_hash(_cfg(tmp_path, technique="x_wing")) != config_hash(_cfg(tmp_path, technique="swordfish"))


@pytest.mark.parametrize(("over", "message"), [
    ({"difficulty": {"technique": "x_wings"}}, "difficulty.technique: 'x_wings' is not a technique (did you mean "
                                               "x_wing?)"),
    ({"difficulty": {"technique": "trial_and_error"}}, "difficulty.technique: 'trial_and_error' is never a target"),
    ({"difficulty": {"technique": "cage_splitting"}}, "difficulty.technique: 'cage_splitting' is never a target"),
    ({"difficulty": {"technique": []}}, "difficulty.technique: name at least one technique"),
    ({"difficulty": {"technique": ["x_wing", "x_wing"]}}, "difficulty.technique: a technique is named twice"),
    ({"difficulty": {"technique": "x_wing", "levels": ["hard"]}}, "difficulty: technique fixes the level"),
    ({"difficulty": {"technique": "x_wing", "quota": {"hard": 8}}}, "difficulty: technique fixes the level"),
    ({"difficulty": {"technique": "x_wing"}, "board": {"size": 6}}, "difficulty.technique: technique targets are "
                                                                     "for 9x9 boards"),
    ({"difficulty": {"technique": "uniqueness_1"}, "board": {"size": 9, "variant": "x"}},
     "difficulty.technique: uniqueness_1 is never used on x boards"),
    ({"difficulty": {"technique": "x_wing"}, "removal": {"hints": {"target": 30}}},
     "difficulty.technique: works on orbit-minimal puzzles (a technique is reached by steering); remove "
     "removal.hints"),
])
def test_refused_up_front_in_one_line(tmp_path: Path, over: dict, message: str) -> None:
    with pytest.raises(config.ConfigError) as err:
        config.validate(tiny(tmp_path / "out", **over))
    line = str(err.value)
    assert "\n" not in line and line.startswith(message), line


def test_killer_is_refused(tmp_path: Path) -> None:
    with pytest.raises(config.ConfigError, match=r"difficulty\.technique: not on killer boards"):
        config.validate(tiny(tmp_path / "out", board={"size": 9, "variant": "killer"},
                             removal={"symmetry": "none", "minimal": True}, difficulty={"technique": "x_wing"}))


def test_ties_in_weight_are_broken_by_solver_order() -> None:
    g = GRADER_VERSION
    assert steering.key("swordfish", g) < steering.key("two_string_kite", g)  # both hard, 150: swordfish is tried first
    assert steering.key("skyscraper", g) < steering.key("x_wing", g)  # 130 < 140 though x_wing is tried first
    assert steering.key("x_wing", g) < steering.key("finned_swordfish", g)  # expert above hard


def _steps(*names: str, placed_first: bool = True) -> list[Step]:
    out = [Step("hidden_single", (0,), placements=((0, 1),))] if placed_first else []
    out += [Step(n, (1, 2), eliminations=((5, 3),)) for n in names]
    return out


def test_made_for_names_the_hardest_step_at_its_level() -> None:
    g = GRADER_VERSION
    assert steering.made_for(_steps("pointing", "x_wing"), "hard", 0, ("x_wing",), g) == "x_wing"
    assert steering.made_for(_steps("x_wing", "skyscraper"), "hard", 0, ("x_wing",), g) == "x_wing"
    assert steering.made_for(_steps("x_wing", "swordfish"), "hard", 0, ("x_wing",), g) is None  # harder step
    assert steering.made_for(_steps("x_wing", "swordfish"), "hard", 0, ("x_wing", "swordfish"), g) == "swordfish"
    assert steering.made_for(_steps("x_wing"), "expert", 0, ("x_wing",), g) is None  # its score lifted the level
    assert steering.made_for(_steps("x_wing"), "hard", 1, ("x_wing",), g) is None  # trial and error
    assert steering.made_for(_steps("x_wing", placed_first=False), "hard", 0, ("x_wing",), g) is None  # no single first


def _grade(steps: list[Step], level: str) -> Grade:
    return Grade(level=level, score=0.0, techniques=[], logic_steps=len(steps), steps=steps)


def test_the_loss_orders_grades_toward_the_target() -> None:
    g, name = GRADER_VERSION, ("x_wing",)
    hit = steering.miss(_grade(_steps("x_wing"), "hard"), name, g)
    harder = steering.miss(_grade(_steps("x_wing", "swordfish"), "hard"), name, g)
    unused = steering.miss(_grade(_steps("skyscraper"), "hard"), name, g)
    below = steering.miss(_grade(_steps("pointing"), "medium"), name, g)
    above = steering.miss(_grade(_steps("x_chain"), "expert"), name, g)
    assert hit == (0, 0.0)
    assert hit < harder < unused < below and unused < above


def test_the_column_is_nullable_and_new_in_schema_5() -> None:
    import polars as pl

    assert rows.SCHEMA["technique"] == pl.String() and "technique" in rows.NULLABLE
    assert rows.ADDED_IN["technique"] == rows.SCHEMA_VERSION == 5


@pytest.mark.heavy
def test_generate_makes_puzzles_made_for_the_technique() -> None:
    res = numplace("generate", "--count", "2", "--seed", "3", "--technique", "x_wing", "--format", "json")
    assert res.returncode == 0, res.stderr
    made = [json.loads(line) for line in res.stdout.splitlines()]
    assert len(made) == 2
    for row in made:
        assert row["technique"] == "x_wing" and row["difficulty"] == "hard" and row["techniques"][-1] == "x_wing"
        g = grade(parse(row["puzzle"]), parse(row["solution"]))
        assert steering.made_for(g.steps, g.level, g.guesses, ("x_wing",), GRADER_VERSION) == "x_wing"


def test_generate_refuses_an_unknown_technique_in_one_line() -> None:
    res = numplace("generate", "--count", "1", "--technique", "x-wing")
    assert res.returncode == 2
    line = error_line(res.stderr)
    assert line.startswith("numplace: error: difficulty.technique: 'x-wing' is not a technique"), res.stderr


def test_check_re_proves_the_technique_column() -> None:
    from pipeline.board import CLASSIC
    from pipeline.run.audit import puzzles as audit
    from tests.conftest import DATA

    made = [json.loads(line) for line in (DATA / "workbook_rows.jsonl").read_text(encoding="utf-8").splitlines()]
    sword = next(r for r in made if r["technique"] == "swordfish")
    wing = next(r for r in made if r["technique"] == "x_wing")

    def findings(row: dict) -> list[str]:
        full = {**row, "logic_steps": grade(parse(row["puzzle"]), parse(row["solution"])).logic_steps}
        return [f for f in audit._grade_findings(full, parse(row["puzzle"]), parse(row["solution"]), CLASSIC,
                                                 GRADER_VERSION) if "technique" in f]

    assert findings(wing) == [] and findings(sword) == [] and findings({**wing, "technique": None}) == []
    assert findings({**sword, "technique": "x_wing"}) == [
        "technique is x_wing, but the grader's path is not made for it (hardest step swordfish, level hard; "
        "docs/workbook.md)"]
    assert audit.consistency({**wing, "size": 9, "box_rows": 3, "box_cols": 3, "difficulty_rank": 3,
                              "grid_number": "1", "canonical_puzzle": "x", "technique": "jellyfish"}) == [
        "technique is jellyfish, which its techniques do not use"]
