"""``run --dry-run``: what a config will make and a rough time from a short sample; nothing written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pipeline import config
from pipeline.run import runner
from pipeline.run.preview import Preview, preview
from tests.conftest import numplace


def _cfg(root: Path, **over: Any) -> dict[str, Any]:
    return {"name": "small", "seed": 4, "count": 30, "board": {"size": 4}, "workers": 2,
            "removal": {"symmetry": "none", "minimal": True}, "output": {"dir": str(root), "shard_size": 12}, **over}


def test_the_estimate_is_start_up_plus_the_median_over_the_workers() -> None:
    p = Preview(set_dir=Path("out/s"), start=100, count=1000, parts=2, workers=4, board="9x9 classic",
                target="any level", sampled=10, failed=0, sample_s=3.0, median_ms=80.0, startup_s=2.5)
    assert p.estimate_s == pytest.approx(2.5 + 1000 * 0.080 / 4)
    assert p.lines()[-1].startswith("estimate: about 22 s on 4 worker(s), 2 s of it start-up")
    none = Preview(Path("out/s"), 0, 5, 1, 1, "9x9 killer", "any level", 0, 3, 20.0, None)
    assert none.estimate_s is None and "none was made" in none.lines()[-1]


@pytest.mark.deep
def test_a_preview_writes_nothing_and_knows_the_next_index(tmp_path: Path) -> None:
    root = tmp_path / "out"
    p = preview(config.validate(_cfg(root)), min_s=0.0)
    assert not root.exists()  # nothing written: no set folder, no lock, no catalog
    assert (p.start, p.count, p.parts, p.workers) == (0, 30, 3, 2)
    assert p.sampled >= 4 and p.failed == 0 and p.median_ms is not None and p.median_ms > 0
    assert p.estimate_s is not None and p.estimate_s > 0
    runner.run(config.validate(_cfg(root, count=5)))
    before = sorted(str(x) for x in root.rglob("*"))
    again = preview(config.validate(_cfg(root)), min_s=0.0)
    assert again.start == 5 and sorted(str(x) for x in root.rglob("*")) == before
    assert again.lines()[:3] == ["dry run of set small: nothing is written",
                                 "makes 30 puzzle(s), 4x4 classic, any level",
                                 f"into {root / 'small'}/<new run>, indices 5-34, 3 part file(s), 2 worker(s)"]


@pytest.mark.deep
@pytest.mark.heavy
def test_cli_dry_run(tmp_path: Path, write_config: Any) -> None:
    cfg = write_config(_cfg(tmp_path / "out", difficulty={"quota": {"easy": 20, "medium": 10}}))
    res = numplace("run", str(cfg), "--dry-run")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0] == "dry run of set small: nothing is written"
    assert lines[1] == "makes 30 puzzle(s), 4x4 classic, quota easy 20, medium 10"
    assert lines[3].startswith("sample: ") and lines[4].startswith("estimate: about ")
    assert not (tmp_path / "out").exists()
    resumed = numplace("run", str(cfg), "--dry-run", "--resume", str(tmp_path))
    assert resumed.returncode == 2 and "--dry-run: previews a new run, not --resume" in resumed.stderr


@pytest.mark.deep
def test_a_preview_makes_its_sample_by_the_sets_generator_and_grader(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A dry run samples puzzles as the set's next run would: by the generator version of the set's record
    (a killer set recorded under version 2 keeps its node-budget certificates), this code's for a new set."""
    import json

    from pipeline.generate import version

    root = tmp_path / "out"
    asked: list[int] = []
    real = runner.stream

    def spy(cfg: Any, chunk: int = 8, grader: int = 0, made_by: int = 0) -> Any:
        asked.append(made_by)
        return real(cfg, chunk, grader, made_by)

    monkeypatch.setattr(runner, "stream", spy)
    preview(config.validate(_cfg(root, count=2)), sample=2, min_s=0.0)
    assert asked == [version.GENERATOR_VERSION]
    first = runner.run(config.validate(_cfg(root, count=2)))
    path = first.run_dir / "_manifest.json"
    data = json.loads(path.read_text())
    data["generator"] = {"version": 2, "grid_method": "weighted-ilp"}
    path.write_text(json.dumps(data))
    preview(config.validate(_cfg(root, count=2)), sample=2, min_s=0.0)
    assert asked[-1] == 2
