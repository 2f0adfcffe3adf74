"""The studio's waits moved out of the click: background jobs, values kept on disk across restarts
(never beside a set), the quick check kept for a set's files, and the server's warm-up."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from pipeline.studio import background, keep


def test_a_job_runs_once_per_key_and_its_result_is_kept() -> None:
    calls: list[int] = []
    gate = threading.Event()

    def job(x: int) -> int:
        gate.wait(10)
        calls.append(x)
        return x * 2

    first = background.submit(("test", "once"), job, 21)
    again = background.submit(("test", "once"), job, 99)  # a rerun of the page: the same job, not a new one
    assert again is first and not first.done()
    gate.set()
    assert background.wait(30) and first.result() == 42 and calls == [21]
    assert background.get(("test", "once")) is first
    background.forget(("test", "once"))
    assert background.get(("test", "once")) is None


def test_a_job_waiting_for_a_child_does_not_hold_the_pages_jobs() -> None:
    """A check (a job that waits for its child process) runs on a thread of its own: a report or a
    proof submitted after it does not queue behind it."""
    gate = threading.Event()
    held = background.submit(("test", "child"), gate.wait, 30, waits=True)
    quick = background.submit(("test", "page"), lambda: 42)
    assert quick.result(30) == 42 and not held.done()
    gate.set()
    assert held.result(30) is True
    background.forget(("test", "child"))
    background.forget(("test", "page"))


def test_the_warm_up_gives_way_to_a_pages_script(monkeypatch: pytest.MonkeyPatch) -> None:
    from pipeline.studio import warm

    ran: list[int] = []
    monkeypatch.setattr(warm, "steps", lambda: iter([lambda: ran.append(1)]))
    with warm.page_running():
        thread = threading.Thread(target=warm.warm_up, kwargs={"give_way": True})
        thread.start()
        thread.join(0.5)
        assert ran == [] and thread.is_alive()  # the page's script runs: the step waits
    thread.join(30)
    assert ran == [1]


def test_a_job_that_raises_keeps_its_error() -> None:
    def bad() -> None:
        raise ValueError("no such set")

    job = background.submit(("test", "raises"), bad)
    assert background.wait(30)
    with pytest.raises(ValueError, match="no such set"):
        job.result()
    background.forget(("test", "raises"))


def test_kept_values_live_in_the_cache_folder_by_key(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("NUMPLACE_CACHE_DIR", str(tmp_path / "cache"))
    assert keep.load("check", ["/a/set", 1]) is None
    keep.save("check", ["/a/set", 1], {"en": ["OK"], "ja": ["OK"]})
    assert keep.load("check", ["/a/set", 1]) == {"en": ["OK"], "ja": ["OK"]}
    assert keep.load("check", ["/a/set", 2]) is None  # a changed set is another key
    assert [p.parent for p in (tmp_path / "cache").rglob("*.json")] == [keep.folder()]


def test_a_cache_folder_that_cannot_be_written_is_no_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("NUMPLACE_CACHE_DIR", str(tmp_path / "file"))
    keep.save("check", ["k"], [1])  # the page computes it again next time
    assert keep.load("check", ["k"]) is None


def test_the_quick_check_is_kept_for_the_sets_files(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A second server (the memory caches gone) reads the check back instead of checking again; a
    changed file of the set is a new check; nothing is written beside the set."""
    from pipeline.run import audit as audit_mod
    from pipeline.studio import checks
    from tests.studio.test_sets import snapshot

    monkeypatch.setenv("NUMPLACE_CACHE_DIR", str(tmp_path / "cache"))
    set_dir = tmp_path / "root" / "s"
    (set_dir / "r1").mkdir(parents=True)
    (set_dir / "r1" / "manifest.json").write_text("{}", encoding="utf-8")
    audits: list[Path] = []

    def fake_audit(path: Path, fast: bool = False) -> audit_mod.Audit:
        audits.append(path)
        return audit_mod.Audit(path, 1, 4)

    monkeypatch.setattr(audit_mod, "audit", fake_audit)
    before = snapshot(tmp_path / "root")
    first = checks.check_lines(str(set_dir), True, checks.signature(set_dir))
    assert first["en"][-1] == "OK" and len(audits) == 1
    assert checks.check_lines(str(set_dir), True, checks.signature(set_dir)) == first and len(audits) == 1
    assert snapshot(tmp_path / "root") == before
    (set_dir / "r1" / "part-00000.parquet").write_bytes(b"new")
    checks.check_lines(str(set_dir), True, checks.signature(set_dir))
    assert len(audits) == 2


@pytest.mark.heavy
def test_the_warm_up_runs_what_the_first_clicks_need() -> None:
    import sys

    from pipeline.identity.variant_canon import group_maps
    from pipeline.studio import warm

    group_maps.cache_clear()
    warm.warm_up()  # raises if any of its calls fails (start() swallows that; here it must not happen)
    assert all(name in sys.modules for name in warm.MODULES)
    assert group_maps.cache_info().currsize >= len(warm.VARIANT_GROUPS)  # built, so a first X+hyper need not


@pytest.mark.deep
@pytest.mark.heavy
def test_the_check_runs_in_a_child_process(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The child's lines are the in-process check's; a set that cannot be checked is one line."""
    from pipeline.errors import UserError
    from pipeline.studio import checks
    from tests.publish.test_select import write_set

    monkeypatch.setenv("NUMPLACE_CACHE_DIR", str(tmp_path / "cache"))
    write_set(tmp_path / "root", "s", ["easy", "hard"])
    set_dir = tmp_path / "root" / "s"
    sig = checks.signature(set_dir)
    by_child = checks.in_child(str(set_dir), True, sig)
    assert by_child["en"][0] == f"{set_dir}: 2 puzzles in 1 part file(s)"
    assert by_child["ja"][0] == f"{set_dir}: 2 問、パーツファイル 1 個"  # (the synthetic set has no shard records)
    (tmp_path / "cache").rename(tmp_path / "cache-old")  # nothing kept: the same lines in this process
    assert checks.check_lines(str(set_dir), True, sig) == by_child
    with pytest.raises(UserError) as got:
        checks.in_child(str(tmp_path / "nothing"), True, ())
    assert "\n" not in str(got.value) and "nothing" in str(got.value)
