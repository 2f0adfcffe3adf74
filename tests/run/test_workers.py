"""``workers`` is capped at a documented multiple of the CPUs, and a run never plans more worker
processes than it has tasks."""

from __future__ import annotations

from pathlib import Path

from pipeline import config
from pipeline.run.plan import plan
from pipeline.run.workers import MAX_PER_CPU, cpus, worker_count
from tests.conftest import ROOT, tiny


def test_a_huge_worker_count_is_capped_per_cpu() -> None:
    assert worker_count(100_000) == MAX_PER_CPU * cpus()
    assert worker_count(1) == 1 and worker_count("auto") == cpus()
    assert f"capped at {MAX_PER_CPU} per such CPU" in (ROOT / "docs" / "config.md").read_text()


def test_a_run_plans_no_more_processes_than_tasks(tmp_path: Path) -> None:
    said: list[tuple[str, dict]] = []
    cfg = config.validate(tiny(tmp_path / "out", count=3, workers=100_000, board={"size": 4},
                               removal={"symmetry": "none", "minimal": True}))
    p = plan(cfg, None, lambda msg, **f: said.append((msg, f)))
    try:
        assert p.workers <= len(p.chunks) and p.workers <= MAX_PER_CPU * cpus()
        assert any(f.get("event") == "workers_capped" and f["workers"] == MAX_PER_CPU * cpus() for _, f in said)
    finally:
        p.lock.release()
