"""What the nightly log and the batch commands say (issue 41, item 4): no warning about finishing a
live run, every last line of ``run`` a JSON line in a JSON-lines log, a "wrote" line for every run a
plain run wrote, the repair fields in batch JSON lines, ``error:`` in ``rate``'s batch lines, and
foreign files in ``_catalog/`` named. Also item 6: a killer target without givens that the grader
almost never reaches is refused up front."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

from pipeline import config
from pipeline.config import ConfigError
from pipeline.run import runner
from pipeline.run.layout import SUCCESS
from pipeline.run.lock import SetLock
from pipeline.run.manifest import runs_of
from tests.conftest import numplace, tiny

pytestmark = pytest.mark.heavy  # the CLI in a fresh interpreter, small sets: seconds each

SIX = {"board": {"size": 6}, "removal": {"symmetry": "none", "minimal": True}}


def _cfg(root: Path, **over: object) -> dict:
    return tiny(root, **{"count": 4, **SIX, "output": {"dir": str(root), "shard_size": 2}, **over})


def _json_lines(stderr: str) -> list[dict]:
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    out = []
    for ln in lines:
        assert ln.startswith("{"), f"a plain line in a JSON-lines log: {ln!r}"
        out.append(json.loads(ln))
    return out


def _unfinish(run_dir: Path, status: str) -> None:
    """Make a complete run look stopped after its first part (its later parts gone)."""
    data = json.loads((run_dir / "_manifest.json").read_text())
    for k in list(data["shards"]):
        if k != "0":
            del data["shards"][k]
            (run_dir / f"part-{int(k):05d}.parquet").unlink()
    data["status"] = status
    (run_dir / "_manifest.json").write_text(json.dumps(data))
    (run_dir / SUCCESS).unlink()


def test_a_second_run_of_a_live_set_exits_75_without_finishing_it(tmp_path: Path) -> None:
    root = tmp_path / "out"
    assert runner.run(config.validate(_cfg(root))).ok
    (run_dir,) = [m.run_dir for m in runs_of(root / "tiny")]
    _unfinish(run_dir, "running")  # as a live run's manifest says while it makes puzzles
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(yaml.safe_dump(_cfg(root)), encoding="utf-8")
    lock = SetLock.acquire(root / "tiny", lambda *_a, **_k: None)  # the live run holds the set
    try:
        res = numplace("run", str(cfg))
    finally:
        lock.release()
    assert res.returncode == 75, res.stderr
    events = _json_lines(res.stderr)
    assert [e["event"] for e in events] == ["busy"], events
    assert events[0]["level"] == "error" and events[0]["exit_code"] == 75


@pytest.mark.deep
def _masked(line: str) -> str:
    """A ``wrote`` line without what differs from run to run: the run folder, the seconds, the rate."""
    line = re.sub(r" to \S+", " to RUN", line)
    return re.sub(r" in [\d.]+ s \([\d.]+ puzzles/s\)", " in T", line)


def test_a_plain_run_says_wrote_for_the_run_it_finished_first(tmp_path: Path) -> None:
    root = tmp_path / "out"
    assert runner.run(config.validate(_cfg(root))).ok
    (first,) = [m.run_dir for m in runs_of(root / "tiny")]
    _unfinish(first, "interrupted")
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(yaml.safe_dump(_cfg(root)), encoding="utf-8")
    res = numplace("run", str(cfg))
    assert res.returncode == 0, res.stderr
    wrote = [ln for ln in res.stdout.splitlines() if ln.startswith("wrote ")]
    assert len(wrote) == 2, res.stdout
    assert f"(indices 0-3) to {first} (an unfinished run, finished first)" in wrote[0]
    assert "(indices 4-7)" in wrote[1]
    # docs/operations.md shows these two lines (run folders, seconds and rates aside)
    docs = (Path(__file__).resolve().parents[2] / "docs" / "operations.md").read_text(encoding="utf-8")
    shown = [_masked(ln) for ln in docs.splitlines() if ln.startswith("wrote ") and "outputs/tiny/" in ln]
    assert [_masked(ln) for ln in wrote] == shown
    events = _json_lines(res.stderr)
    finishing = [e for e in events if e["event"] == "finishing_unfinished"]
    assert len(finishing) == 1 and finishing[0]["level"] == "warning"


@pytest.mark.deep
def test_max_minutes_ends_with_a_json_line(tmp_path: Path) -> None:
    root = tmp_path / "out"
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(yaml.safe_dump(tiny(root, count=30, workers=1, output={"dir": str(root), "shard_size": 2})),
                   encoding="utf-8")
    res = numplace("run", str(cfg), "--max-minutes", "0.01")
    if res.returncode == 0:
        pytest.skip("the run finished within the budget on this machine: nothing to stop")
    assert res.returncode == 3, res.stderr
    last = _json_lines(res.stderr)[-1]
    assert last["event"] == "stopped" and last["exit_code"] == 3 and "--resume" in last["message"]


@pytest.mark.deep
def test_solve_repair_batch_json_has_the_repair_fields(tmp_path: Path) -> None:
    p = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    batch = tmp_path / "b.txt"
    batch.write_text(f"{p}\n55{p[2:]}\n", encoding="utf-8")
    single = json.loads(numplace("solve", f"55{p[2:]}", "--repair", "--format", "json").stdout)
    res = numplace("solve", str(batch), "--repair", "--format", "json", "--workers", "1")
    assert res.returncode == 0, res.stderr
    rows = [json.loads(ln) for ln in res.stdout.splitlines()]
    assert rows[1]["repaired_status"] == single["repaired_status"] and rows[1]["repair_note"] == single["repair_note"]
    assert rows[0]["repaired_status"] == "unique"  # nothing to repair: the puzzle's own status
    plain = [json.loads(ln) for ln in numplace("solve", str(batch), "--format", "json", "--workers", "1")
             .stdout.splitlines()]
    assert plain[0]["repaired_status"] is None and plain[0]["repair_note"] is None


def test_rate_names_a_bad_batch_line_as_an_error(tmp_path: Path) -> None:
    p = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    batch = tmp_path / "b.txt"
    batch.write_text(f"{p}\n{p}\n12345\n", encoding="utf-8")
    res = numplace("rate", str(batch))
    assert res.returncode == 1
    assert [ln for ln in res.stderr.splitlines() if ln.strip()] == [
        f"numplace: error: {batch} line 3: " + res.stderr.split(f"{batch} line 3: ", 1)[1].strip()]


def test_a_foreign_file_in_the_catalog_folder_is_named(tmp_path: Path) -> None:
    root = tmp_path / "out"
    assert runner.run(config.validate(_cfg(root))).ok
    shutil.copy(next((root / "_catalog").glob("*.keys")), root / "_catalog" / "x--y.keys")
    (root / "_catalog" / "notes.txt").write_text("mine")
    (root / "_catalog" / "_index").mkdir(exist_ok=True)  # the key index's folder (a later run's): numplace's own
    res = numplace("catalog", "--out", str(root))
    assert res.returncode == 0, res.stderr
    unused = [ln for ln in res.stdout.splitlines() if ln.startswith("  UNUSED ")]
    assert len(unused) == 2, res.stdout
    assert "x--y.keys: an entry of run y of set x" in unused[1] or "x--y.keys: an entry of run y of set x" in unused[0]
    assert any("notes.txt: not a file numplace writes here" in ln for ln in unused)
    assert not any("_index" in ln for ln in unused)


@pytest.mark.parametrize("difficulty", [{"levels": ["easy"]}, {"quota": {"easy": 2, "medium": 2}}])
def test_killer_easy_without_givens_is_refused_up_front(difficulty: dict) -> None:
    killer = {"name": "k", "seed": 1, "count": 4 if "quota" in difficulty else 2,
              "board": {"size": 9, "variant": "killer"}, "difficulty": difficulty}
    with pytest.raises(ConfigError) as err:
        config.validate(killer)
    key = "quota" if "quota" in difficulty else "levels"
    assert str(err.value).startswith(f"difficulty.{key}: a killer puzzle without givens is almost never easy")
    assert "board.cages.givens: true" in str(err.value) and "\n" not in str(err.value)
    killer["count"] = 2
    config.validate({**killer, "difficulty": {"levels": ["easy", "medium"]}})  # a level it reaches is enough
    config.validate({**killer, "board": {"size": 9, "variant": "killer", "cages": {"givens": True}},
                     "difficulty": {"levels": ["easy"]}})
