"""Planning is linear and bounded (#12.8): tasks are computed on demand, and a run with more
parts than a manifest can record is refused up front, before anything exists."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from pipeline import config
from pipeline.config import ConfigError
from pipeline.run import plan as planmod
from pipeline.run.plan import MAX_PARTS, Chunks
from tests.conftest import tiny


def _plain(shards: list[range], skip: set[int], size: int) -> list[list[int]]:
    """The tasks as the planner built them before (one list per chunk, shard by shard)."""
    out: list[list[int]] = []
    for r in shards:
        idx = [i for i in r if i not in skip]
        out += [idx[j:j + size] for j in range(0, len(idx), size)]
    return out


@pytest.mark.parametrize("skip", [set(), {100, 101, 102}, set(range(100, 110)), set(range(100, 130))])
def test_chunks_are_the_plain_list(skip: set[int]) -> None:
    """Indexing, slicing, iterating and len agree with the explicit list, with stock-filled
    indices (a whole shard filled by the stock has no task)."""
    shards = [range(100 + 10 * k, 100 + 10 * k + (10 if k < 6 else 3)) for k in range(7)]
    for size in (1, 3, 4, 25):
        want = _plain(shards, skip, size)
        got = Chunks(shards, frozenset(skip), size)
        assert len(got) == len(want)
        assert list(got) == want
        assert [got[k] for k in range(len(got))] == want
        assert got[-1] == want[-1] and got[1:4] == want[1:4]
        with pytest.raises(IndexError):
            got[len(want)]


@pytest.mark.heavy
def test_ten_million_puzzles_plan_in_bounded_memory(tmp_path: Path) -> None:
    """``count: 10000000`` with parts of 1,000 plans without listing ten million indices: the
    plan's memory grows with its parts (10,000), not its puzzles."""
    out = {"dir": str(tmp_path / "out"), "shard_size": 1000}
    cfg = config.validate(tiny(tmp_path / "out", count=10_000_000, board={"size": 6}, output=out))
    tracemalloc.start()
    p = planmod.plan(cfg, None, lambda _m, **_k: None)
    try:
        _size, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert peak < 64 * 2**20, f"planning used {peak / 2**20:.0f} MiB"
        assert len(p.pending) == 10_000
        assert p.chunks[0] == list(range(25)) and p.chunks[-1][-1] == 9_999_999
        assert sum(1 for _ in p.chunks) == len(p.chunks) == 400_000
    finally:
        p.lock.release()


def test_too_many_parts_is_refused_before_anything_exists(tmp_path: Path) -> None:
    out = tmp_path / "out"
    cfg = config.validate(tiny(out, count=10_000_000, output={"dir": str(out), "shard_size": 1}))
    with pytest.raises(ConfigError) as err:
        planmod.plan(cfg, None, lambda _m, **_k: None)
    assert str(err.value) == (f"output.shard_size: 1 makes 10,000,000 parts for 10,000,000 puzzles; one run may "
                              f"have at most {MAX_PARTS:,} parts (use shard_size 1000 or more)")
    assert not out.exists()
