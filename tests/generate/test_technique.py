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


@pytest.mark.parametrize("name", ["naked_pair", "x_wing", "swordfish", "simple_colors", "x_chain", "als_xy_chain"])
def test_the_cut_off_is_the_last_row_no_harder_than_the_target(name: str) -> None:
    from pipeline.difficulty.techniques import ORDERS

    order, g = ORDERS[GRADER_VERSION], GRADER_VERSION
    last = order.index(steering.cap((name,), g))
    assert last >= order.index(name)
    assert steering.key(order[last], g) <= steering.key(name, g)
    assert all(steering.key(t, g) > steering.key(name, g) for t in order[last + 1:])
    # several names: the cut-off of the hardest
    assert steering.cap(("naked_pair", name), g) == steering.cap((name,), g)


#: A puzzle made for swordfish (tests/data/workbook_rows.jsonl, the first row).
_SWORD = ".8..3...775.4...6.2.1........4.2.3.....6.3.....5.8.2........6.1.1...6.728...1..9."
_SWORD_SOLUTION = "486531927753492168291867534674129385128653749935784216342978651519346872867215493"


def test_the_capped_grade_is_the_full_grade_within_the_cut_off() -> None:
    from pipeline.board import CLASSIC

    puzzle, solution = parse(_SWORD), parse(_SWORD_SOLUTION)
    full = grade(puzzle, solution, unique=True)
    capped = steering.rater(solution, CLASSIC, ("swordfish",), GRADER_VERSION)(puzzle)
    assert not isinstance(capped, steering.Unfinished)
    assert (capped.level, capped.score, capped.techniques, capped.steps) == (full.level, full.score, full.techniques,
                                                                              full.steps)
    assert steering.miss(capped, ("swordfish",), GRADER_VERSION, capped=True) == (0, 0.0)


@pytest.mark.parametrize("target", ["naked_pair", "x_wing"])
def test_a_path_past_the_cut_off_ranks_the_same_capped_or_in_full(target: str) -> None:
    """Toward naked_pair the swordfish puzzle stops at the cut-off (its uniqueness_1, turbot_fish and swordfish
    are past it); toward x_wing it finishes (the cut-off is finned_x_wing, the swordfish is before it)."""
    from pipeline.board import CLASSIC

    puzzle, solution = parse(_SWORD), parse(_SWORD_SOLUTION)
    full = grade(puzzle, solution, unique=True)
    capped = steering.rater(solution, CLASSIC, (target,), GRADER_VERSION)(puzzle)
    g = GRADER_VERSION
    if target == "naked_pair":
        assert isinstance(capped, steering.Unfinished) and capped.open > 0
        assert capped.steps == full.steps[:len(capped.steps)]
        rank = steering.miss(capped, (target,), g, capped=True)
        assert rank == steering.miss(full, (target,), g, capped=True) == (3, float(capped.open))
        # version 3's rule ranks the full grade by its level instead
        assert steering.miss(full, (target,), g)[0] == 4
    else:
        assert not isinstance(capped, steering.Unfinished) and capped.steps == full.steps
        # the swordfish is harder than x_wing but within the cut-off: ranked as on the level, by its weight
        assert steering.miss(capped, (target,), g, capped=True) == steering.miss(full, (target,), g)


def test_the_capped_loss_puts_a_path_past_the_target_between_the_level_and_a_level_off() -> None:
    g, name = GRADER_VERSION, ("x_wing",)
    unused = steering.miss(_grade(_steps("skyscraper"), "hard"), name, g, capped=True)
    past_used = steering.miss(_grade(_steps("x_wing", "x_chain"), "expert"), name, g, capped=True)
    past = steering.miss(_grade(_steps("x_chain"), "expert"), name, g, capped=True)
    below = steering.miss(_grade(_steps("pointing"), "medium"), name, g, capped=True)
    assert unused < past_used < past < below
    assert past_used[0] == past[0] == 3


@pytest.mark.deep
@pytest.mark.heavy
def test_generator_3_still_makes_the_puzzles_it_made() -> None:
    """A set begun under generator 3 keeps its climb (every candidate graded in full): the puzzles of
    tests/data/workbook_rows.jsonl (generator 3) again; generator 4 makes puzzles made for the target."""
    import dataclasses

    from pipeline.generate.puzzle import make_puzzle
    from pipeline.generate.spec import puzzle_seed
    from pipeline.generate.version import CAPPED_TECHNIQUE_CLIMB, GENERATOR_VERSION
    from tests.conftest import DATA

    assert GENERATOR_VERSION >= CAPPED_TECHNIQUE_CLIMB == 4
    made = [json.loads(line) for line in (DATA / "workbook_rows.jsonl").read_text(encoding="utf-8").splitlines()]
    cfg = config.validate({"name": "wb-swordfish", "seed": 42, "count": 5, "grid": {"method": "weighted-ilp"},
                           "difficulty": {"technique": "swordfish"}})
    want = [r["puzzle"] for r in made if r["technique"] == "swordfish"]
    old = make_puzzle(dataclasses.replace(spec_of(cfg), generator=3), puzzle_seed(42, 0))
    assert "".join(str(d) if d else "." for d in old.puzzle) == want[0]
    new = make_puzzle(dataclasses.replace(spec_of(cfg), generator=4), puzzle_seed(42, 1))
    assert new.technique == "swordfish" and new.certified


def test_the_column_is_nullable_and_new_in_schema_5() -> None:
    import polars as pl

    assert rows.SCHEMA["technique"] == pl.String() and "technique" in rows.NULLABLE
    assert rows.ADDED_IN["technique"] == rows.SCHEMA_VERSION == 5


@pytest.mark.deep
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


@pytest.mark.heavy
@pytest.mark.parametrize(("name", "seed", "want"), [
    ("skyscraper", 501, "068200005070800060090030000002004010000090000080300700000060050030008020500001380"),
    ("w_wing", 501, "068040000304009000200030800900080603003000500406010002009060007000500409000020380"),
])
def test_generator_4_still_makes_the_puzzles_it_made(name: str, seed: int, want: str) -> None:
    """Version 4's climb, its checks answered from kept second solutions since, makes the puzzles it made
    before (each string made by the code before that change, from the same spec and seed)."""
    import dataclasses

    from pipeline.generate.puzzle import make_puzzle

    cfg = config.validate({"name": "pin", "seed": 1, "count": 1, "grid": {"method": "weighted-ilp"},
                           "difficulty": {"technique": name}})
    made = make_puzzle(dataclasses.replace(spec_of(cfg), generator=4), seed)
    assert "".join(map(str, made.puzzle)) == want and made.technique == name


def _workbook_row(technique: str, k: int) -> dict:
    from tests.conftest import DATA

    made = [json.loads(line) for line in (DATA / "workbook_rows.jsonl").read_text(encoding="utf-8").splitlines()]
    return [r for r in made if r["technique"] == technique][k]


@pytest.mark.parametrize(("k", "near"), [(0, steering.PASSED_BY_LONG), (3, steering.PASSED_BY)])
def test_a_path_that_passed_simple_colors_is_nearer(k: int, near: float) -> None:
    """Generator 5: the swordfish puzzles of the workbook rows pass states where Simple Colors had a step (a
    long one in the first, a short one in the fourth) that a hard row took first; toward simple_colors their
    path ranks nearer than the same path that never met it, still behind one that uses the target."""
    from pipeline.board import CLASSIC

    row = _workbook_row("swordfish", k)
    puzzle, solution = parse(row["puzzle"]), parse(row["solution"])
    g, name = GRADER_VERSION, ("simple_colors",)
    full = grade(puzzle, solution, unique=True)
    assert "simple_colors" not in full.techniques
    assert steering.passed_by(puzzle, full.steps, name, CLASSIC) == near
    climb = steering.rater(solution, CLASSIC, name, g, passed=True)(puzzle)
    assert isinstance(climb, steering.Passed) and climb.near == near and climb.steps == full.steps
    rank = steering.miss(climb, name, g, capped=True)
    assert rank == (2, steering.NOT_USED - near) < steering.miss(full, name, g, capped=True) == (2, steering.NOT_USED)
    assert steering.miss(_grade(_steps("simple_colors", "xy_wing"), "hard"), name, g, capped=True) < rank
    # version 4's climb (passed=False) and every other target rank it as before
    assert type(steering.rater(solution, CLASSIC, name, g)(puzzle)) is Grade
    assert type(steering.rater(solution, CLASSIC, ("x_chain",), g, passed=True)(puzzle)) is not steering.Passed
    assert steering.passed_by(puzzle, full.steps, ("x_wing",), CLASSIC) == 0.0


def test_a_path_off_the_level_is_never_passed() -> None:
    from pipeline.board import CLASSIC

    easy = parse("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
    solution = parse("534678912672195348198342567859761423426853791713924856961537284287419635345286179")
    climb = steering.rater(solution, CLASSIC, ("simple_colors",), GRADER_VERSION, passed=True)(easy)
    assert climb.level == "easy" and type(climb) is Grade


@pytest.mark.heavy
def test_generator_5_makes_a_simple_colors_puzzle() -> None:
    """Version 5's Simple Colors climb makes a puzzle made for it, graded in full and certified (seed 7006:
    about 200 candidates)."""
    import dataclasses

    from pipeline.generate.puzzle import make_puzzle

    cfg = config.validate({"name": "sc", "seed": 1, "count": 1, "grid": {"method": "weighted-ilp"},
                           "difficulty": {"technique": "simple_colors"}})
    made = make_puzzle(dataclasses.replace(spec_of(cfg), generator=5), 7006)
    assert made.technique == "simple_colors" and made.certified and made.difficulty == "hard"
    g = grade(made.puzzle, made.solution, unique=True)
    assert steering.made_for_grade(g, ("simple_colors",), GRADER_VERSION) == "simple_colors"
