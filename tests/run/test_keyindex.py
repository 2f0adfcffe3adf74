"""The catalog's key index (issue #37 item 6): the same dedup answers as the old linear read of every
catalog key, an index that is damaged, cut short or stale rebuilt, an interrupted write leaving the
old state. No test here times anything."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import numpy as np
import pytest

from pipeline.run import keyindex, layout, store
from pipeline.run.finish import Dedup
from pipeline.run.keyindex import SeenKeys, key_hashes
from pipeline.run.work import Made

ALPHABET = ".123456789"


def _keys(rng: random.Random, n: int) -> list[str]:
    """Keys of the forms a catalog holds: 9x9 canonical lines, 4x4 ones, variant keys, 16x16 lines."""
    out = []
    for i in range(n):
        kind = i % 4
        if kind == 0:
            out.append("".join(rng.choice(ALPHABET) for _ in range(81)))
        elif kind == 1:
            out.append("".join(rng.choice(".1234") for _ in range(16)))
        elif kind == 2:
            out.append("killer+x|" + "".join(rng.choice(ALPHABET) for _ in range(rng.randint(81, 140))))
        else:
            out.append("".join(rng.choice(".123456789ABCDEFG") for _ in range(256)))
    return out


def _entry(root: Path, set_name: str, run_id: str, keys: list[str]) -> str:
    (root / set_name / run_id).mkdir(parents=True, exist_ok=True)  # an entry counts while its run folder exists
    return store.write_catalog(root, set_name, run_id, [
        {"key": k, "size": 9, "set_name": set_name, "run_id": run_id, "puzzle_id": f"{set_name}-{i}"}
        for i, k in enumerate(keys)])


def _root(tmp_path: Path, entries: int = 6, per: int = 40) -> tuple[Path, list[str], list[str]]:
    """A root of ``entries`` catalog entries (keys shared between some of them, as a set and its
    copies would), their names, and every key."""
    rng = random.Random(7)
    root = tmp_path / "out"
    names, every = [], []
    for e in range(entries):
        keys = _keys(rng, per) + (every[:5] if every else [])  # some keys in two entries
        names.append(_entry(root, f"set{e % 2}", f"r{e}", keys))
        every += keys
    return root, names, every


def _queries(rng: random.Random, every: list[str]) -> list[str]:
    return rng.sample(every, min(60, len(every))) + _keys(rng, 60)


def test_a_keys_hash_is_pinned_and_does_not_depend_on_its_batch() -> None:
    # the segments on disk hold these hashes: a change of the function must be a new format version
    assert int(key_hashes(["abc"])[0]) == int(key_hashes(["abc", "x" * 300, ""])[0])
    assert [hex(int(h)) for h in key_hashes(["", "abc", "1" + "." * 80])] == PINNED
    many = _keys(random.Random(1), 400)
    alone = np.array([key_hashes([k])[0] for k in many], dtype=np.uint64)
    assert np.array_equal(key_hashes(many), alone)
    assert len(set(key_hashes(many).tolist())) == len(set(many))  # no collision among 400 distinct keys


PINNED = ["0x288c9477e780542", "0x7f2d026ac45d0b21", "0xc050b5494d479512"]


def test_the_index_answers_what_the_linear_read_answers(tmp_path: Path) -> None:
    root, names, every = _root(tmp_path)
    rng = random.Random(3)
    for snapshot in (names, names[:3], names[2:5], []):
        linear = store.catalog_keys(root, snapshot)
        index = store.catalog_index(root, snapshot)
        queries = _queries(rng, every)
        found = index.hits(queries)
        assert found == {q for q in queries if q in linear}
        assert found or not snapshot  # the comparison is not between two empty answers
        assert all((q in index) == (q in linear) for q in queries[:20])
    assert keyindex.segment_files(root)  # the index was written, beside the entries


def test_hash_collisions_are_confirmed_exactly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a hash that collides all the time (the key's length), a hit still needs the key itself."""
    def weak(keys: list[str]) -> np.ndarray:
        return np.array([len(k) for k in keys], dtype=np.uint64)

    monkeypatch.setattr(keyindex, "key_hashes", weak)
    root, names, every = _root(tmp_path)
    linear = store.catalog_keys(root, names)
    queries = _queries(random.Random(4), every)
    found = store.catalog_index(root, names).hits(queries)
    assert found == {q for q in queries if q in linear} and len(found) < len(queries)


def test_seen_keys_and_a_set_make_the_same_dedup_decisions(tmp_path: Path) -> None:
    root, names, every = _root(tmp_path)
    rng = random.Random(5)
    fresh = _keys(rng, 30)
    stream = [rng.choice(every) if rng.random() < 0.4 else rng.choice(fresh) for _ in range(80)]
    rows = [{"variant": [], "regions": None, "cages": None, "puzzle": k, "canonical_puzzle": k, "difficulty": "easy"}
            for k in stream]
    items = [Made(i, r, 1, 0) for i, r in enumerate(rows)]
    outcomes = []
    for seen in (store.catalog_keys(root, names), store.snapshot_keys(root, names)):
        out, replaced, _ = Dedup(seen, lambda indices, redraw: [], 0).resolve(items)
        outcomes.append(([type(it).__name__ for it in out], replaced))
    assert outcomes[0] == outcomes[1]
    assert "Failed" in outcomes[0][0] and "Made" in outcomes[0][0]  # both answers occur


def test_an_entry_left_out_of_the_snapshot_or_rewritten_counts_as_the_snapshot_says(tmp_path: Path) -> None:
    root, names, _every = _root(tmp_path, entries=3)
    store.catalog_index(root, names)  # indexed as they are now
    old = store.catalog_keys(root, [names[0]])
    new_keys = _keys(random.Random(9), 10)
    _entry(root, "set0", "r0", new_keys)  # rewritten (a resumed run's entry, or --repair): new file
    index = store.catalog_index(root, names)
    assert index.hits(new_keys) == set(new_keys)
    only_old = old - store.catalog_keys(root, names)
    assert only_old and not index.hits(only_old)
    assert not store.catalog_index(root, names[1:]).hits(new_keys)  # not in the snapshot: not taken


@pytest.mark.parametrize("damage", ["truncated", "garbage", "empty", "wrong-magic"])
def test_a_damaged_segment_is_rebuilt(tmp_path: Path, damage: str) -> None:
    root, names, every = _root(tmp_path)
    store.catalog_index(root, names)
    (seg,) = keyindex.segment_files(root)
    data = seg.read_bytes()
    seg.write_bytes({"truncated": data[: len(data) // 2], "garbage": data[:40] + b"\x00" * (len(data) - 40),
                     "empty": b"", "wrong-magic": b"XXXXXXX\n" + data[8:]}[damage])
    queries = _queries(random.Random(6), every)
    linear = store.catalog_keys(root, names)
    index = store.catalog_index(root, names)
    assert index.hits(queries) == {q for q in queries if q in linear}
    assert seg not in keyindex.segment_files(root) and len(keyindex.segment_files(root)) == 1


def test_an_interrupted_index_write_leaves_the_old_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root, names, every = _root(tmp_path)
    store.catalog_index(root, names[:3])
    before = {p: p.read_bytes() for p in keyindex.segment_files(root)}

    def killed(*_a: object) -> None:
        raise KeyboardInterrupt  # a kill while the segment of the other entries is written

    monkeypatch.setattr(keyindex, "_encode", killed)
    with pytest.raises(KeyboardInterrupt):
        store.catalog_index(root, names)
    assert {p: p.read_bytes() for p in keyindex.segment_files(root)} == before
    assert not list(keyindex.index_dir(root).glob(layout.TEMP_GLOB))
    (keyindex.index_dir(root) / ".seg-0123456789abcdef.idx.x1y2.tmp").write_bytes(b"half")  # a SIGKILL's leftover
    monkeypatch.undo()
    queries = _queries(random.Random(8), every)
    linear = store.catalog_keys(root, names)
    assert store.catalog_index(root, names).hits(queries) == {q for q in queries if q in linear}
    assert not list(keyindex.index_dir(root).glob(layout.TEMP_GLOB))


def test_segments_merge_and_a_merge_cut_short_still_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(keyindex, "_tier", lambda keys: 0)  # every segment in one tier: merges at 4
    root = tmp_path / "out"
    rng = random.Random(11)
    names: list[str] = []
    every: list[str] = []
    for e in range(9):  # one run after another, each indexing the entries before it
        keys = _keys(rng, 20)
        names.append(_entry(root, "nightly", f"r{e}", keys))
        every += keys
        store.catalog_index(root, names)
        assert len(keyindex.segment_files(root)) < keyindex.TIER
    segs = keyindex.segment_files(root)
    # a merge killed after it wrote its segment, before it removed its inputs: entries covered twice
    (segs[0].parent / "seg-ffffffffffffffff.idx").write_bytes(segs[0].read_bytes())
    queries = _queries(rng, every)
    linear = store.catalog_keys(root, names)
    assert store.catalog_index(root, names).hits(queries) == {q for q in queries if q in linear}


def test_a_damaged_entry_is_named_and_what_was_indexed_stays(tmp_path: Path) -> None:
    root, names, _ = _root(tmp_path, entries=3)
    store.catalog_index(root, names[:2])
    before = keyindex.segment_files(root)
    (root / names[2]).write_bytes(b"not parquet")
    with pytest.raises(store.StoreError, match="damaged catalog file"):
        store.check_catalog(root, names)
    assert keyindex.segment_files(root) == before


def test_seen_keys_takes_the_keys_it_is_given() -> None:
    seen = SeenKeys(None, {"a"})
    seen.update(["b"])
    assert "a" in seen and "b" in seen and "c" not in seen


def test_a_snapshot_entry_whose_file_has_gone_is_read_from_its_runs_parts(tmp_path: Path) -> None:
    root, names, _ = _root(tmp_path, entries=2)
    (root / names[0]).unlink()
    seen = store.snapshot_keys(root, names)
    assert not seen.extra  # the run folder holds no parts here: nothing published by it any more
    assert all(k in seen for k in store.catalog_keys(root, names[1:]))


def _part(run_dir: Path, shard: int) -> None:
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "_manifest.json").write_text("{}", encoding="utf-8")
    (run_dir / layout.part_name(shard)).write_bytes(b"")


def _settle(root: Path) -> None:
    """Every folder under ``root`` modified long ago (so the watch keeps its listings)."""
    for folder in [root, *[p for p in root.rglob("*") if p.is_dir()]]:
        os.utime(folder, ns=(1_000_000_000, 1_000_000_000))


def test_the_parts_watch_lists_what_a_full_listing_lists(tmp_path: Path) -> None:
    """Before each part a run asks which part files other runs wrote: the watch lists a folder again
    only when it changed, and must still see every new part, run and set."""
    root = tmp_path / "out"
    _part(root / "a" / "r1", 0)
    _part(root / "a" / "r2", 0)
    (root / "a" / "r3").mkdir()  # no manifest: not a run
    (root / "_catalog").mkdir()
    _settle(root)
    watch = store.PartsWatch(root)

    def full() -> list[Path]:
        return [root / p for p in store.uncataloged_parts(root, [])]

    assert watch.parts() == full() and len(full()) == 2
    _part(root / "a" / "r1", 1)  # a new part in a settled run folder
    assert watch.parts() == full() and len(full()) == 3
    _settle(root)
    _part(root / "a" / "r4", 0)  # a new run
    _part(root / "b" / "r1", 0)  # a new set
    (root / "a" / "r3" / "_manifest.json").write_text("{}", encoding="utf-8")  # a run folder gets its manifest
    (root / "a" / "r3" / layout.part_name(0)).write_bytes(b"")
    assert watch.parts() == full() and len(full()) == 6
    _settle(root)
    assert watch.parts() == full()


def test_catalog_files_lists_the_entries_of_existing_runs(tmp_path: Path) -> None:
    root, names, _ = _root(tmp_path, entries=4)
    assert store.catalog_files(root) == sorted(names)
    shutil.rmtree(root / "set1" / "r1")  # deleting a run folder unpublishes its entry
    assert store.catalog_files(root) == sorted(n for n in names if "--r1." not in n)


def test_entries_of_the_old_catalog_folder_are_indexed_too(tmp_path: Path) -> None:
    """Runs older than the underscore names kept ``.catalog/<set>--<run_id>.parquet``, named bare in
    their manifests' snapshots: still read, now through the index."""
    root, names, every = _root(tmp_path, entries=3)
    old = root / layout.OLD_CATALOG
    old.mkdir()
    (root / names[0]).rename(old / "set0--r0.parquet")
    names = ["set0--r0.parquet", *names[1:]]
    queries = _queries(random.Random(12), every)
    linear = store.catalog_keys(root, names)
    assert linear and store.catalog_index(root, names).hits(queries) == {q for q in queries if q in linear}
