"""Designed grids and clue patterns (issue 16, parts 2 and 3).

Every property is checked with code of this file (the maps, the digit maps and the masks written out
again) or with :mod:`pipeline.verify`, never with the code that made the puzzles.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest

from pipeline import config, verify
from pipeline.board import board, format_line, parse
from pipeline.generate.puzzle import make_puzzle
from pipeline.generate.spec import Spec, puzzle_seed
from pipeline.run import runner
from pipeline.run.audit import audit
from pipeline.run.plan import spec_of
from tests.conftest import ROOT, error_line, numplace, tiny

# The position maps, written out again (0-based r, c on side n).
MAPS = {
    "rot90": lambda r, c, n: (c, n - 1 - r),
    "rot180": lambda r, c, n: (n - 1 - r, n - 1 - c),
    "rot270": lambda r, c, n: (n - 1 - c, r),
    "mirror-h": lambda r, c, n: (n - 1 - r, c),
    "mirror-v": lambda r, c, n: (r, n - 1 - c),
    "mirror-d": lambda r, c, n: (c, r),
    "mirror-a": lambda r, c, n: (n - 1 - c, n - 1 - r),
}

HEART = """
. # # # . # # # .
# # . # # # . # #
# . . . . . . . #
# . . . . . . . #
# # . . . . . # #
. # # . . . # # .
. . # # . # # . .
. . . # # # . . .
. . . . # . . . .
"""
RING6 = """
##..##
#....#
..##..
..##..
#....#
##..##
"""
#: 1, 2 and 3 only on the short diagonals of the boxes (27 cells, three in every row, column and box).
BOX_DIAGONALS = "\n".join(["#..#..#..", ".#..#..#.", "..#..#..#"] * 3)


def _cells(mask: str) -> set[int]:
    chars = "".join(mask.split())
    return {i for i, ch in enumerate(chars) if ch == "#"}


def _digit_map(word: str, n: int) -> dict[int, int]:
    if word == "reverse":
        return {d: n + 1 - d for d in range(1, n + 1)}
    if word == "identity":
        return {d: d for d in range(1, n + 1)}
    return {d: int(ch, 36) for d, ch in enumerate(word, start=1)}


def _is_image(solution: tuple[int, ...], name: str, p: dict[int, int], n: int) -> bool:
    """solution[m(r, c)] == p(solution[r, c]) for every cell."""
    f = MAPS[name]
    return all(solution[f(r, c, n)[0] * n + f(r, c, n)[1]] == p[solution[r * n + c]]
               for r in range(n) for c in range(n))


def _cfg(**over: object) -> config.Config:
    return config.validate({"name": "d", "seed": 16, "count": 3, "workers": 1} | over)


def _sound(puzzle: tuple[int, ...], solution: tuple[int, ...], n: int) -> None:
    b = board(n)
    assert verify.is_valid_solution(solution, b)
    assert all(g in (0, s) for g, s in zip(puzzle, solution, strict=True))
    assert verify.independent_count(puzzle, b, limit=2) == 1


# --- config: one line naming the field ------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"grid": {"solution_symmetry": {"map": "rot45"}}}, "grid.solution_symmetry.map: 'rot45' is not allowed"),
        ({"grid": {"solution_symmetry": {"map": "rot180", "digit": "reverse"}}},
         "grid.solution_symmetry.digit: unknown key (did you mean digits?)"),
        ({"grid": {"solution_symmetry": {"map": "rot180", "digits": "98765432"}}},
         "grid.solution_symmetry.digits: '98765432' is not reverse, identity or a permutation of 123456789 (8 digits)"),
        ({"grid": {"solution_symmetry": {"map": "rot180", "digits": "987654329"}}},
         "grid.solution_symmetry.digits: '987654329' is not reverse, identity or a permutation of 123456789 (1 is "
         "missing)"),
        ({"grid": {"solution_symmetry": {"map": "rot180", "digits": 234567891}}},
         "grid.solution_symmetry: rot180 applied 2 times gives back every cell, so the digit map applied 2 times must "
         "give back every digit, but it sends 1 -> 2 -> 3"),
        ({"grid": {"solution_symmetry": {"map": "rot180", "digits": "identity"}}},
         "grid.solution_symmetry: rot180 maps row 5 onto itself with 1 fixed cell and 4 swapped pairs; each digit of "
         "row 5 goes where the digit map sends it, so the digit map needs 1 fixed digit and 4 swapped pairs too (a "
         "digit in a shorter cycle would appear twice in row 5), but it has 9 fixed digits"),
        ({"grid": {"solution_symmetry": {"map": "mirror-v"}}},
         "grid.solution_symmetry: mirror-v cannot hold on a 9x9 board with any digit map: mirror-v maps row 1 onto "
         "itself with 1 fixed cell and 4 swapped pairs, and column 5 with 9 fixed cells"),
        ({"grid": {"solution_symmetry": {"map": "mirror-d"}}},
         "grid.solution_symmetry: mirror-d maps box 1 onto itself with 3 fixed cells and 3 swapped pairs"),
        ({"board": {"size": 6}, "grid": {"solution_symmetry": {"map": "mirror-d", "digits": "identity"}}},
         "grid.solution_symmetry: mirror-d sends r1c2 to r2c1, a cell of the same unit, so the digit map must move "
         "its digit; it moves none"),
        ({"grid": {"method": "uniform", "solution_symmetry": {"map": "rot180"}}},
         "grid.method: uniform grids cannot honour grid.solution_symmetry or grid.areas"),
        ({"grid": {"areas": [{"cells": "r1c1-r3c3", "digits": [1], "rule": "only"}]}},
         "grid.areas.0: each digit appears once in every row, column and box, but the cells (rule only) miss row 4"),
        ({"grid": {"areas": [{"cells": "r1c1-r3c3", "digits": [1], "rule": "never"}]}},
         "grid.areas.0: each digit appears once in every row, column and box, but the cells (rule never) cover all "
         "of box 1"),
        ({"grid": {"areas": [{"cells": BOX_DIAGONALS, "digits": [1, 2, 3, 4], "rule": "only"}]}},
         "grid.areas.0: the 4 digits fill 36 cells (9 each), the cells number 27 (rule only)"),
        ({"grid": {"areas": [{"cells": "r5c5", "digits": [1, 2], "rule": "somewhere"}]}},
         "grid.areas.0: 1 cell cannot hold the 2 digits that must each appear in it"),
        ({"grid": {"areas": [{"cells": "r5c5", "digits": [1, 1], "rule": "somewhere"}]}},
         "grid.areas.0: digits: 1 is listed twice"),
        ({"grid": {"areas": [{"cells": "r5c5", "digits": [10], "rule": "somewhere"}]}},
         "grid.areas.0: digits: 10 is not a digit of a 9x9 board (1-9)"),
        ({"grid": {"areas": [{"cells": "r0c5", "digits": [1], "rule": "somewhere"}]}},
         "grid.areas.0.cells: r0c5 is off the board (rows and columns 1-9)"),
        ({"grid": {"areas": [{"cells": "box 5", "digits": [1], "rule": "somewhere"}]}},
         "grid.areas.0.cells: 'box 5' is not a cell like r1c1 or a range like r1c1-r3c3"),
        ({"grid": {"areas": [{"cells": "r5c5", "digits": [1], "rule": "anywhere"}]}},
         "grid.areas.0.rule: 'anywhere' is not allowed"),
        ({"grid": {"areas": [{"cells": "r5c5", "digits": [1], "rule": "only", "rules": "never"}]}},
         "grid.areas.0.rules: unknown key (did you mean rule?)"),
        ({"removal": {"pattern": "#" * 16 + "." * 65}},
         "removal.pattern: 16 givens; no 9x9 puzzle with fewer than 17 givens has a unique solution"),
        ({"removal": {"pattern": "#" * 36 + "." * 18 + "#" * 27}},
         "removal.pattern: rows 5 and 6 (one band) have no givens: swapping them in a solution gives a second one"),
        ({"removal": {"pattern": "\n".join(["#######.."] * 9)}},
         "removal.pattern: columns 8 and 9 (one stack) have no givens"),
        ({"removal": {"pattern": HEART.replace("#", "o", 1)}},
         "removal.pattern: line 1, column 2: 'o' is neither a given/cell (# X 1) nor a blank (. 0)"),
        ({"removal": {"pattern": HEART + "#########"}}, "removal.pattern: has 90 cells; a 9x9 board needs 81"),
        ({"removal": {"pattern": HEART[:-8]}}, "removal.pattern: line 9 has 5 cells; draw 9 lines of 9 cells"),
        ({"removal": {"pattern": HEART, "symmetry": "rot180"}},
         "removal.symmetry: the pattern's layout is mirror-v, which lacks rot180"),
        ({"removal": {"pattern": HEART, "symmetry": "random"}}, "removal.symmetry: a pattern has its own layout"),
        ({"removal": {"pattern": HEART, "minimal": True}}, "removal.minimal: a pattern fixes the givens"),
        ({"removal": {"pattern": HEART, "hints": {"target": 30}}},
         "removal.hints: the pattern has 33 givens, not 30"),
        ({"grid": {"fixed": "1" + "." * 80, "keep_fixed": True}, "removal": {"pattern": HEART}},
         "grid.keep_fixed: the fixed cell r1c1 is not a given of removal.pattern"),
    ],
)
def test_bad_designs_and_patterns_are_one_line_naming_the_field(change: dict, message: str) -> None:
    with pytest.raises(config.ConfigError) as err:
        _cfg(**change)
    assert message in str(err.value) and "\n" not in str(err.value), str(err.value)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"board": {"size": 6}, "grid": {"solution_symmetry": {"map": "rot180", "digits": "reverse"}}},
         "grid.solution_symmetry: no 6x6 grid is its own image this way (the integer program finds none for a digit "
         "map of cycle lengths 2+2+2); digit maps that work have cycle lengths 2+2+1+1, 2+1+1+1+1, 1+1+1+1+1+1"),
        ({"grid": {"solution_symmetry": {"map": "rot180"},
                   "areas": [{"cells": "r5c5", "digits": [1], "rule": "somewhere"}]}},
         "grid.areas.0: no complete grid satisfies this rule together with grid.solution_symmetry"),
        ({"grid": {"areas": [{"cells": "r1c1-r3c3", "digits": [1, 2], "rule": "somewhere"},
                             {"cells": "r1c1-r3c2, r1c3-r2c3", "digits": [1, 2], "rule": "never"}]}},
         "grid.areas.1: no complete grid satisfies this rule (the integer program finds none)"),
        ({"grid": {"solution_symmetry": {"map": "rot180"}, "fixed": "." * 40 + "1" + "." * 40}},
         "grid.fixed: no complete grid contains these fixed cells and honours the designed-grid rules"),
    ],
)
def test_designs_the_integer_program_refuses_are_named_before_the_run(change: dict, message: str) -> None:
    cfg = _cfg(**change)  # plain reasoning finds no obstacle ...
    with pytest.raises(config.ConfigError) as err:
        spec_of(cfg)  # ... the integer program does, once, before anything is written
    assert str(err.value).startswith(message) and "\n" not in str(err.value), str(err.value)


@pytest.mark.heavy
def test_cli_refuses_an_impossible_design_before_any_output(tmp_path: Path, write_config) -> None:
    out = tmp_path / "out"
    cfg = write_config(tiny(out) | {"board": {"size": 6}, "grid": {"solution_symmetry": {"map": "rot180"}}})
    res = numplace("run", str(cfg))
    assert res.returncode == 2, res.stderr
    assert error_line(res.stderr).startswith("numplace: error: grid.solution_symmetry: no 6x6 grid is its own image")
    assert len(res.stderr.strip().splitlines()) == 1 and not out.exists()


# --- designed grids ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("n", "name", "digits"),
    [(9, "rot180", "reverse"), (9, "rot90", "234167859"), (9, "rot270", "412385679"), (9, "mirror-d", "214365789"),
     (9, "mirror-a", "214365789"), (4, "mirror-h", "reverse"),
     (4, "mirror-v", "2143"), (6, "rot90", "reverse"), (6, "rot180", "identity")],
)
def test_designed_grids_are_their_own_image(n: int, name: str, digits: str) -> None:
    cfg = _cfg(board={"size": n}, grid={"solution_symmetry": {"map": name, "digits": digits}},
               removal={"symmetry": "rot180", "minimal": True})
    spec = spec_of(cfg)
    p = _digit_map(digits, n)
    for i in range(2):
        made = make_puzzle(spec, puzzle_seed(cfg.seed, i))
        _sound(made.puzzle, made.solution, n)
        assert _is_image(made.solution, name, p, n), format_line(made.solution)
        assert made.symmetry_requested == "rot180" and made.attempts == 1


def test_automorphic_config_is_symmetric_deterministic_and_varied() -> None:
    cfg = config.load(ROOT / "configs" / "automorphic-rot180.yaml")
    spec = spec_of(cfg)
    made = [make_puzzle(spec, puzzle_seed(cfg.seed, i)) for i in range(6)]
    for m in made:
        _sound(m.puzzle, m.solution, 9)
        assert all(m.solution[80 - i] == 10 - m.solution[i] for i in range(81))
        assert m.solution[40] == 5 and verify.layout_tag(m.puzzle, 9) in ("rot180", "diagonal", "orthogonal", "full")
    assert len({m.solution for m in made}) == 6  # no prefill or group element, yet distinct grids
    again = make_puzzle(spec, puzzle_seed(cfg.seed, 3))
    assert (again.puzzle, again.solution) == (made[3].puzzle, made[3].solution)


@pytest.mark.heavy
def test_areas_are_honoured_alone_and_with_a_symmetry() -> None:
    areas = [
        {"cells": BOX_DIAGONALS, "digits": [1, 2, 3], "rule": "only"},
        {"cells": "r1c1-r1c2, r2c1", "digits": [4, 6], "rule": "somewhere"},
        {"cells": "r1c1, r2c2, r3c3, r4c4, r5c5, r6c6, r7c7, r8c8, r9c9", "digits": [9], "rule": "never"},
    ]
    inside = _cells(BOX_DIAGONALS)
    diagonal = {i * 10 for i in range(9)}
    for grid in ({"areas": areas}, {"areas": areas[1:], "solution_symmetry": {"map": "rot180"}}):
        cfg = _cfg(grid=grid)
        spec = spec_of(cfg)
        for i in range(3):
            m = make_puzzle(spec, puzzle_seed(cfg.seed, i))
            s = m.solution
            _sound(m.puzzle, s, 9)
            if "solution_symmetry" in grid:
                assert all(s[80 - k] == 10 - s[k] for k in range(81))
            else:
                assert all((s[k] in (1, 2, 3)) == (k in inside) for k in range(81))
            assert {4, 6} <= {s[0], s[1], s[9]}
            assert all(s[k] != 9 for k in diagonal)


def test_classic_specs_are_unchanged() -> None:
    """Without the new keys: no design, no pattern, the old hash (ADDED_KEYS) and the pinned puzzles of
    tests/generate/test_puzzle.py (run it)."""
    cfg = config.load(ROOT / "configs" / "default.yaml")
    spec = spec_of(cfg)
    assert spec.design is None and spec.pattern is None and spec.symmetry == "rot180"
    data = cfg.model_dump(mode="json")
    del data["grid"]["solution_symmetry"], data["grid"]["areas"], data["removal"]["pattern"]
    assert config.hash_of(data) == config.config_hash(cfg) == "02df36480de8ef48"
    assert config.config_hash(_cfg(grid={"solution_symmetry": {"map": "rot180"}})) != config.config_hash(_cfg())
    made = make_puzzle(Spec(size=9, symmetry="rot180", minimal=True), puzzle_seed(2026, 3))
    pinned = "6......749843.6........9..3.6..1.4....1...5....3.5..9.3..1........2.365742......9"
    assert format_line(made.puzzle) == pinned


# --- clue patterns ------------------------------------------------------------------------------------------------

def test_pattern_configs_take_the_patterns_layout_and_validate_again_as_saved() -> None:
    cfg = config.load(ROOT / "configs" / "heart-pattern.yaml")
    assert cfg.removal.symmetry == "mirror-v"  # left out: the pattern's own tag, written into the config
    assert config.validate(cfg.model_dump(mode="json")) == cfg  # a manifest's config is a valid config
    auto = config.load(ROOT / "configs" / "automorphic-rot180.yaml")
    assert config.validate(auto.model_dump(mode="json")) == auto
    assert _cfg(removal={"pattern": HEART, "symmetry": "none"}).removal.symmetry == "none"  # a group it contains


@pytest.mark.deep
def test_heart_puzzles_have_exactly_the_pattern_and_one_solution() -> None:
    cfg = config.load(ROOT / "configs" / "heart-pattern.yaml")
    spec = spec_of(cfg)
    heart = _cells(HEART)
    assert len(heart) == 33 and spec.pattern == tuple(sorted(heart)) and spec.symmetry == "mirror-v"
    tries = []
    for i in range(3):
        m = make_puzzle(spec, puzzle_seed(cfg.seed, i))
        assert {k for k, d in enumerate(m.puzzle) if d} == heart
        _sound(m.puzzle, m.solution, 9)
        assert m.hints == 33 and m.symmetry == verify.layout_tag(m.puzzle, 9) == "mirror-v" and m.certified
        tries.append(m.attempts)
    assert max(tries) > 1  # the search is real: some grids did not fit


def test_pattern_on_the_ilp_engine_with_a_design_and_a_group_it_contains() -> None:
    cfg = _cfg(board={"size": 6}, engine="ilp", grid={"solution_symmetry": {"map": "rot180", "digits": "214356"}},
               removal={"pattern": RING6, "symmetry": "rot180", "max_attempts": 200})
    spec = spec_of(cfg)
    ring = _cells(RING6)
    for i in range(3):
        m = make_puzzle(spec, puzzle_seed(cfg.seed, i))
        assert {k for k, d in enumerate(m.puzzle) if d} == ring
        _sound(m.puzzle, m.solution, 6)
        assert _is_image(m.solution, "rot180", _digit_map("214356", 6), 6)
        assert m.symmetry == "full" and m.symmetry_requested == "rot180"


def test_a_pattern_that_never_fits_fails_after_its_attempts() -> None:
    # every row and column holds a given, but the bottom boxes hold one each: no grid of a thousand fitted
    outline = ".##...##.\n####.####\n##.###.##\n#...#...#\n#.......#\n.#.....#.\n..#...#..\n...#.#...\n....#...."
    spec = spec_of(_cfg(removal={"pattern": outline, "max_attempts": 5}))
    from pipeline.generate.spec import GenerationFailed

    with pytest.raises(GenerationFailed, match="after 5 attempts: no grid tried gave the pattern's givens a unique"):
        make_puzzle(spec, 1)


# --- numplace check -----------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def made_sets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Two small real sets: automorphic (with an area rule) and heart-pattern, under one output root."""
    root = tmp_path_factory.mktemp("designed") / "out"
    out = {}
    for name, over in (
        ("auto", {"grid": {"solution_symmetry": {"map": "rot180"},
                           "areas": [{"cells": "r1c1-r1c3", "digits": [1], "rule": "somewhere"}]}}),
        ("heart", {"removal": {"pattern": HEART, "max_attempts": 400}}),
    ):
        summary = runner.run(config.validate(tiny(root, name=name, count=4) | over))
        assert summary.ok
        out[name] = summary.run_dir
    return out


def _copy(run_dir: Path, tmp_path: Path) -> Path:
    dest = tmp_path / run_dir.name
    shutil.copytree(run_dir, dest)
    return dest


@pytest.mark.heavy
def test_check_accepts_designed_and_pattern_sets(made_sets: dict[str, Path]) -> None:
    for run_dir in made_sets.values():
        result = audit(run_dir, fast=True)
        assert result.ok, result.problems


@pytest.mark.heavy
def test_check_catches_a_solution_that_is_not_its_own_image(made_sets: dict[str, Path], tmp_path: Path) -> None:
    """Row 0 gets a sound puzzle whose grid is not automorphic (a classic one): verify_row has nothing to
    say against it, the design check does."""
    run_dir = _copy(made_sets["auto"], tmp_path)
    made = make_puzzle(Spec(size=9, symmetry="rot180", minimal=True), 7)
    part = sorted(run_dir.glob("part-*.parquet"))[0]
    meta = {k: v for k, v in pl.read_parquet_metadata(part).items() if k.startswith("numplace.")}
    frame = pl.read_parquet(part)
    first = pl.col("index") == frame["index"][0]
    frame = frame.with_columns(
        pl.when(first).then(pl.lit(format_line(made.puzzle))).otherwise(pl.col("puzzle")).alias("puzzle"),
        pl.when(first).then(pl.lit(format_line(made.solution))).otherwise(pl.col("solution")).alias("solution"),
        pl.when(first).then(pl.lit(made.hints, pl.Int32)).otherwise(pl.col("hints")).alias("hints"),
        pl.when(first).then(pl.lit(made.symmetry)).otherwise(pl.col("symmetry")).alias("symmetry"))
    frame.write_parquet(part, metadata=meta)
    problems = audit(run_dir, fast=True).problems
    assert any("solution is not its own image under grid.solution_symmetry (rot180 with digits reverse)" in p
               for p in problems), problems
    assert not any("has more than one solution" in p or "disagrees" in p for p in problems)


@pytest.mark.heavy
def test_check_catches_givens_that_are_not_the_pattern(made_sets: dict[str, Path], tmp_path: Path) -> None:
    """The manifest's pattern is redrawn (one given moved): every row's givens now differ from it."""
    run_dir = _copy(made_sets["heart"], tmp_path)
    path = run_dir / "_manifest.json"
    data = json.loads(path.read_text())
    cells = "".join(data["config"]["removal"]["pattern"].split())
    assert cells[40] == "."
    moved = cells[:40] + "#" + cells[41:]  # r5c5 becomes a cell of the pattern
    data["config"]["removal"]["pattern"] = "\n".join(moved[k:k + 9] for k in range(0, 81, 9))
    path.write_text(json.dumps(data, indent=2))
    problems = audit(run_dir, fast=True).problems
    assert any("givens are not exactly removal.pattern (1 of its cells blank, 0 givens outside it; e.g. r5c5 is "
               "blank)" in p for p in problems), problems


@pytest.mark.heavy
def test_check_catches_a_broken_area_and_an_unreadable_design(made_sets: dict[str, Path], tmp_path: Path) -> None:
    run_dir = _copy(made_sets["auto"], tmp_path)
    path = run_dir / "_manifest.json"
    data = json.loads(path.read_text())
    first = pl.read_parquet(sorted(run_dir.glob("part-*.parquet"))[0]).row(0, named=True)
    missing = next(d for d in range(1, 10) if str(d) not in first["solution"][:3])
    data["config"]["grid"]["areas"] = [{"cells": "r1c1-r1c3", "digits": [missing], "rule": "somewhere"}]
    path.write_text(json.dumps(data, indent=2))
    problems = audit(run_dir, fast=True).problems
    assert any(f"solution breaks grid.areas.0 (somewhere): digit {missing} is not in the area" in p
               for p in problems), problems
    data["config"]["grid"]["solution_symmetry"] = {"map": "rot45"}
    path.write_text(json.dumps(data, indent=2))
    problems = audit(run_dir, fast=True).problems
    assert any("the manifest's config has a grid.solution_symmetry the audit cannot read" in p for p in problems)


def test_the_audit_reads_the_design_on_its_own() -> None:
    """The audit's parser against a row made by hand (no generator, no config code)."""
    from pipeline.run.audit.design import RunDesign

    grid = parse("495623871271895364863147259526478193384951627719236485158369742647512938932784516")
    design = RunDesign.of({"board": {"size": 9}, "grid": {"solution_symmetry": {"map": "rot180", "digits": "reverse"},
                                                           "areas": [{"cells": "#........" + "." * 72, "digits": [4],
                                                                      "rule": "only"}]},
                            "removal": {"pattern": None}})
    assert design is not None
    row = {"size": 9, "solution": format_line(grid), "puzzle": format_line(grid)}
    assert design.problems(row) == ["solution breaks grid.areas.0 (only): digit 4 at r2c9, outside the area"]
    swapped = list(grid)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    found = design.problems({**row, "solution": format_line(tuple(swapped))})
    assert found[0] == ("solution is not its own image under grid.solution_symmetry (rot180 with digits reverse): "
                        "r1c1 holds 9, so r9c9 should hold 1, not 6")
