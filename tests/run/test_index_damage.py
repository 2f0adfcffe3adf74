"""A damaged key index segment never loosens dedup (issue 51 items 1-2).

Every segment carries a CRC-32 over its header and arrays; a segment that fails it (or says anything
impossible) is logged, removed and rebuilt from the catalog entries, ``numplace catalog`` names it and
``catalog --repair`` mends it. The fuzz here flips bytes in every region of a segment file (magic,
header length, header, hashes, entry numbers, checksum, end marker) and checks that the index answers
exactly what the linear read of the catalog answers; the run-level cases make a third set with the
first set's seed over a damaged index and find no puzzle in two sets.
"""

from __future__ import annotations

import random
import shutil
import zlib
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from pipeline import config
from pipeline.run import keyindex, runner, store
from tests.conftest import numplace, tiny

SIX = {"board": {"size": 6}, "removal": {"symmetry": "none", "minimal": True}}


def _regions(data: bytes) -> dict[str, tuple[int, int]]:
    """The byte ranges of a segment file's regions (see :func:`pipeline.run.keyindex._encode`)."""
    hlen = int.from_bytes(data[8:16], "little")
    at = 16 + hlen
    n = (len(data) - at - 4 - 8) // 12
    return {"magic": (0, 8), "header-length": (8, 16), "header": (16, at), "hashes": (at, at + 8 * n),
            "entry-numbers": (at + 8 * n, at + 12 * n), "checksum": (at + 12 * n, at + 12 * n + 4),
            "end-marker": (len(data) - 8, len(data))}


def _entry(root: Path, set_name: str, run_id: str, keys: list[str]) -> str:
    (root / set_name / run_id).mkdir(parents=True, exist_ok=True)
    return store.write_catalog(root, set_name, run_id, [
        {"key": k, "size": 9, "set_name": set_name, "run_id": run_id, "puzzle_id": f"{set_name}-{i}"}
        for i, k in enumerate(keys)])


@pytest.fixture
def indexed(tmp_path: Path) -> tuple[Path, list[str], set[str]]:
    rng = random.Random(5)
    root = tmp_path / "out"
    names, every = [], set()
    for e in range(3):
        keys = ["".join(rng.choice(".123456789") for _ in range(81)) for _ in range(30)]
        names.append(_entry(root, f"s{e}", "r", keys))
        every |= set(keys)
    store.catalog_index(root, names)
    return root, names, every


def test_segments_carry_a_checksum_over_header_and_arrays(indexed: tuple[Path, list[str], set[str]]) -> None:
    root, _, _ = indexed
    (seg,) = keyindex.segment_files(root)
    data = seg.read_bytes()
    r = _regions(data)
    assert data[:8] == keyindex.MAGIC and data[-8:] == keyindex.MAGIC
    assert int.from_bytes(data[slice(*r["checksum"])], "little") == zlib.crc32(data[:r["checksum"][0]])
    assert keyindex.check_segment(seg).keys == 90


@pytest.mark.parametrize("region", ["magic", "header-length", "header", "hashes", "entry-numbers", "checksum",
                                    "end-marker"])
def test_any_flipped_bit_in_any_region_is_found_and_the_index_stays_exact(
        indexed: tuple[Path, list[str], set[str]], region: str) -> None:
    root, names, every = indexed
    (seg,) = keyindex.segment_files(root)
    good = seg.read_bytes()
    lo, hi = _regions(good)[region]
    rng = random.Random(region)
    queries = sorted(every)[::3] + ["".join(rng.choice(".123456789") for _ in range(81)) for _ in range(20)]
    for trial in range(12):
        data = bytearray(good)
        for bit in rng.sample(range(8 * lo, 8 * hi), 1 + trial % 3):  # one, two or three distinct bits
            data[bit // 8] ^= 1 << (bit % 8)
        for old in keyindex.segment_files(root):
            old.unlink()
        seg.write_bytes(bytes(data))
        assert keyindex.read_segment(seg) is None, (region, trial)
        said: list[str] = []
        index = store.catalog_index(root, names, lambda msg, _said=said, **_f: _said.append(msg))
        assert index.hits(queries) == every & set(queries), (region, trial)
        assert seg not in keyindex.segment_files(root), "the bad segment stays"
        assert said and "is bad" in said[0] and str(seg) in said[0]


@pytest.mark.parametrize("damage", ["every-hash-one-byte", "hashes-zeroed", "hashes-reversed",
                                    "entry-numbers-out-of-range"])
def test_the_audits_damage_with_a_matching_checksum_is_caught_and_the_index_stays_exact(
        indexed: tuple[Path, list[str], set[str]], damage: str) -> None:
    """The audit's damages, with the checksum made to match (a hand that knows the format): out-of-order
    hashes and entry numbers outside the entries are refused by the structure checks, the rest by the
    spot check of one entry's hashes; the bad segment is removed and the index stays exact."""
    root, names, every = indexed
    (seg,) = keyindex.segment_files(root)
    data = bytearray(seg.read_bytes())
    r = _regions(bytes(data))
    n = (r["hashes"][1] - r["hashes"][0]) // 8
    hashes = np.frombuffer(bytes(data[slice(*r["hashes"])]), dtype="<u8").copy()
    owners = np.frombuffer(bytes(data[slice(*r["entry-numbers"])]), dtype="<u4").copy()
    if damage == "every-hash-one-byte":
        raw = bytearray(hashes.tobytes())
        for i in range(n):
            raw[8 * i + 3] ^= 0x5A
        data[slice(*r["hashes"])] = raw
    elif damage == "hashes-zeroed":
        data[slice(*r["hashes"])] = bytes(8 * n)
    elif damage == "hashes-reversed":
        data[slice(*r["hashes"])] = hashes[::-1].tobytes()
    else:
        data[slice(*r["entry-numbers"])] = np.full_like(owners, 1000).tobytes()
    data[slice(*r["checksum"])] = zlib.crc32(bytes(data[:r["checksum"][0]])).to_bytes(4, "little")
    seg.write_bytes(bytes(data))
    queries = sorted(every)
    index = store.catalog_index(root, names)
    assert index.hits(queries) == set(queries)  # every key still found
    assert seg not in keyindex.segment_files(root)


def test_a_segment_of_the_first_format_is_rebuilt(indexed: tuple[Path, list[str], set[str]]) -> None:
    root, names, every = indexed
    (seg,) = keyindex.segment_files(root)
    data = seg.read_bytes()
    r = _regions(data)
    old = keyindex.OLD_MAGIC + data[8:r["checksum"][0]] + keyindex.OLD_MAGIC  # the first format: no checksum
    seg.write_bytes(old)
    with pytest.raises(keyindex.BadSegment, match="first segment format"):
        keyindex.check_segment(seg)
    said: list[str] = []
    assert store.catalog_index(root, names, lambda m, **_f: said.append(m)).hits(sorted(every)) == every
    assert seg not in keyindex.segment_files(root) and len(keyindex.segment_files(root)) == 1
    assert said and "first segment format" in said[0]


def test_a_look_up_never_reads_outside_a_segment(indexed: tuple[Path, list[str], set[str]]) -> None:
    """A segment whose entry numbers turn impossible after it was opened (no check can see the
    future) is not trusted for the look-up: its entries are read instead."""
    root, names, every = indexed
    index = store.catalog_index(root, names)
    seg = index.segments[0]
    bad = keyindex.Segment(seg.path, seg.entries, np.asarray(seg.hashes).copy(),
                           np.full(seg.keys, 1000, dtype=np.uint32))
    index = keyindex.KeyIndex([bad], index.valid, index.read_keys)
    assert index.hits(sorted(every)) == every


@pytest.mark.heavy  # the CLI in a fresh interpreter, three times
def test_catalog_names_a_bad_segment_and_repair_mends_it(indexed: tuple[Path, list[str], set[str]]) -> None:
    root = indexed[0]
    (seg,) = keyindex.segment_files(root)
    data = bytearray(seg.read_bytes())
    data[_regions(bytes(data))["hashes"][0] + 5] ^= 0x10
    seg.write_bytes(bytes(data))
    shown = numplace("catalog", "--out", str(root))
    assert shown.returncode == 0, shown.stderr
    assert f"BAD {seg}: bad key index segment (checksum mismatch (damaged))" in shown.stdout, shown.stdout
    fixed = numplace("catalog", "--repair", "--out", str(root))
    assert fixed.returncode == 0, fixed.stderr
    assert f"key index segment {seg} is bad (checksum mismatch (damaged)): removed" in fixed.stdout, fixed.stdout
    assert "1 damaged or half-written catalog file(s) or index segment(s) moved or removed" in fixed.stdout
    (new,) = keyindex.segment_files(root)
    assert new != seg and keyindex.check_segment(new).keys == 90
    again = numplace("catalog", "--repair", "--out", str(root))
    assert "no damaged catalog files or index segments" in again.stdout, again.stdout


# --- a whole root: two sets, a damaged index, a third set with the first one's seed ---------------------------

def _cfg(root: Path, name: str, seed: int) -> dict:
    return tiny(root, name=name, seed=seed, count=4, **SIX, output={"dir": str(root), "shard_size": 2})


@pytest.fixture(scope="module")
def two_sets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("index-damage") / "out"
    for name, seed in (("first", 5), ("second", 6)):
        for _ in range(2):
            assert runner.run(config.validate(_cfg(root, name, seed))).ok
    assert len(keyindex.segment_files(root)) >= 1
    return root


def _keys_in_two_sets(root: Path) -> int:
    frame = pl.read_parquet(str(root / "*" / "*" / "part-*.parquet"))
    keys = frame.select(pl.col("canonical_puzzle").alias("key"), "set_name").unique()
    return int(keys.group_by("key").agg(pl.len().alias("sets")).filter(pl.col("sets") > 1).height)


def _damage(seg: Path, how: str, rng: random.Random) -> None:
    data = bytearray(seg.read_bytes())
    r = _regions(bytes(data))
    if how == "every-hash":
        lo, hi = r["hashes"]
        for at in range(lo, hi, 8):
            data[at + rng.randrange(8)] ^= 1 << rng.randrange(8)
    elif how == "entry-numbers-out-of-range":
        lo, hi = r["entry-numbers"]
        data[lo:hi] = np.full((hi - lo) // 4, 1000, dtype="<u4").tobytes()
    else:
        lo, hi = r[how]
        data[rng.randrange(lo, hi)] ^= 1 << rng.randrange(8)
    seg.write_bytes(bytes(data))


@pytest.mark.heavy
@pytest.mark.parametrize("how", ["header", "hashes", "every-hash", "entry-numbers", "entry-numbers-out-of-range",
                                 "checksum", "end-marker"])
def test_a_third_set_with_the_first_ones_seed_over_a_damaged_index_repeats_nothing(
        two_sets: Path, tmp_path: Path, how: str) -> None:
    root = tmp_path / "out"
    shutil.copytree(two_sets, root)
    rng = random.Random(how)
    for seg in keyindex.segment_files(root):
        _damage(seg, how, rng)
    said: list[tuple[str, dict]] = []
    summary = runner.run(config.validate(_cfg(root, "third", 5)), log=lambda m, **f: said.append((m, f)))
    assert summary.ok and summary.written == 4
    assert _keys_in_two_sets(root) == 0
    assert any(f.get("event") == "index_segment_removed" for _, f in said), said
    assert all(keyindex.read_segment(p) is not None for p in keyindex.segment_files(root))
