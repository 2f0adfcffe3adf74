"""Issue 5 in the pipeline: every row graded, difficulty targets, rejections counted, `numplace rate`."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from pipeline import config
from pipeline.difficulty.grade import LEVELS, TECHNIQUES
from pipeline.run import runner
from pipeline.run.manifest import read_manifest
from tests.conftest import numplace, tiny
from tests.golden import TDOKU

pytestmark = pytest.mark.heavy  # the tests here make sets or run the CLI: seconds each

P = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def test_every_row_is_graded(tmp_path: Path) -> None:
    summary = runner.run(config.validate(tiny(tmp_path / "out", count=6)))
    frame = pl.read_parquet(summary.run_dir / "part-*.parquet")
    assert frame["difficulty"].is_in(list(LEVELS)).all()
    assert (frame["difficulty_score"] > 0).all() and (frame["logic_steps"] > 0).all()
    for techniques in frame["techniques"].to_list():
        assert techniques and all(t in TECHNIQUES for t in techniques)


@pytest.mark.deep
def test_a_level_target_yields_only_that_level_and_counts_rejections(tmp_path: Path) -> None:
    sets = []
    for workers in (1, 2):
        data = tiny(tmp_path / f"w{workers}", count=4, workers=workers, difficulty={"levels": ["hard", "expert"]})
        summary = runner.run(config.validate(data))
        assert summary.ok
        frame = pl.read_parquet(summary.run_dir / "part-*.parquet")
        assert set(frame["difficulty"]) <= {"hard", "expert"}
        totals = read_manifest(summary.run_dir)["totals"]
        rejected = totals["difficulty_rejections"]
        assert sum(rejected.values()) == totals["attempts"] - 4 and set(rejected) <= set(LEVELS) - {"hard", "expert"}
        assert sum(totals["levels"].values()) == 4
        sets.append(frame.select("index", "puzzle", "difficulty", "difficulty_score", "attempts"))
    assert sets[0].equals(sets[1])


def test_score_range_and_attempt_bound(tmp_path: Path) -> None:
    # a 4x4 puzzle never needs more than singles, so "extreme" cannot be reached: a clear failure
    data = tiny(tmp_path / "out", count=2, board={"size": 4}, difficulty={"levels": ["extreme"], "max_attempts": 3})
    summary = runner.run(config.validate(data))
    assert summary.written == 0
    assert all("no puzzle in the difficulty range" in f["failure"] for f in summary.failures)
    assert read_manifest(summary.run_dir)["totals"]["difficulty_rejections"] == {"easy": 6}
    data = tiny(tmp_path / "out2", count=3, difficulty={"score": {"max": 300}})
    frame = pl.read_parquet(runner.run(config.validate(data)).run_dir / "part-*.parquet")
    assert (frame["difficulty_score"] <= 300).all()


@pytest.mark.deep
def test_bad_difficulty_config(tmp_path: Path, write_config) -> None:
    for change, message in [({"difficulty": {"levels": ["insane"]}}, "difficulty.levels.0: 'insane' is not allowed"),
                            ({"difficulty": {}},
                             "difficulty: give levels, score, quota, logic_only, or levels and score"),
                            ({"difficulty": {"score": {"min": 5, "max": 1}}}, "min (5.0) is greater than max")]:
        res = numplace("run", str(write_config(tiny(tmp_path / "out") | change)))
        assert res.returncode == 2 and message in res.stderr, res.stderr
        assert not (tmp_path / "out").exists()


@pytest.mark.deep
def test_rate_command(tmp_path: Path) -> None:
    res = numplace("rate", P)
    assert res.returncode == 0 and res.stdout.startswith("easy ")
    explained = numplace("rate", P, "--explain").stdout.splitlines()
    assert explained[1].startswith("  Step 1: ") and "sets r" in explained[1]
    f = tmp_path / "many.txt"
    f.write_text("\n".join([P, "123", *(p for p, c, _ in TDOKU if c == 1)][:6]) + "\n")
    res = numplace("rate", str(f))
    assert res.returncode == 1 and "many.txt line 2: puzzle has 3 cells" in res.stderr
    assert [line.split()[0] for line in res.stdout.splitlines()][:2] == ["line", "line"]
    none = numplace("rate", "55" + P[2:])
    assert none.returncode == 1
    assert none.stderr.strip() == "numplace: error: cannot grade: no solution: row 1 has two 5s (columns 1 and 2)"
    assert numplace("rate", "123").returncode == 2  # unreadable: a user mistake


@pytest.mark.deep
def test_rate_refuses_a_puzzle_without_a_unique_solution() -> None:
    """Regression: the empty grid and puzzles with many solutions were graded, exit 0."""
    several = next(p for p, c, _ in TDOKU if c > 1)
    for puzzle in ("." * 81, several, "." * 16):
        res = numplace("rate", puzzle)
        assert res.returncode == 1, res.stdout
        assert res.stderr.strip() == "numplace: error: cannot grade: not unique: 2+ solutions"
        assert res.stdout == ""
    no_solution = next(p for p, c, _ in TDOKU if c == 0)
    res = numplace("rate", no_solution)
    assert res.returncode == 1 and res.stdout == ""
    assert res.stderr.startswith("numplace: error: cannot grade: no solution")
    assert len(res.stderr.strip().splitlines()) == 1 and "Traceback" not in res.stderr


def test_rate_batch_grades_the_unique_lines_and_exits_1(tmp_path: Path) -> None:
    several = next(p for p, c, _ in TDOKU if c > 1)
    f = tmp_path / "mixed.txt"
    f.write_text("\n".join([P, "." * 81, several, "55" + P[2:], P]) + "\n")
    res = numplace("rate", str(f))
    assert res.returncode == 1
    assert [ln.split(":")[0] for ln in res.stdout.splitlines()] == ["line 1", "line 5"]
    assert res.stderr.splitlines() == [
        "numplace: error: " + str(f) + " line 2: cannot grade: not unique: 2+ solutions",
        "numplace: error: " + str(f) + " line 3: cannot grade: not unique: 2+ solutions",
        "numplace: error: " + str(f) + " line 4: cannot grade: no solution: row 1 has two 5s (columns 1 and 2)",
    ]
    unique_only = tmp_path / "unique.txt"
    unique_only.write_text(f"{P}\n{P}\n")
    assert numplace("rate", str(unique_only)).returncode == 0


def test_rate_a_complete_grid() -> None:
    """Regression: a full grid (no step to make) crashed with IndexError."""
    solved = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
    res = numplace("rate", solved, "--explain")
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "easy 0 (0 logic steps; the grid is already complete)"
    assert res.stderr == ""
    broken = numplace("rate", "55" + solved[2:])
    assert broken.returncode == 1 and "cannot grade: no solution: row 1 has two 5s" in broken.stderr
