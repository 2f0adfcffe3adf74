"""Fingerprint what numplace writes, to show that a refactor changes no byte of it.

Runs ``numplace run`` on each config (``--count`` set below, one worker, so every row is made in
this process) with ``datetime.datetime.now`` frozen (run ids and ``created_at`` come from it) and
``time.perf_counter`` frozen (``gen_ms`` and the run's seconds are measured with it), in a
fresh output root, and prints the sha256 of every part file, its name relative to the root. Also
prints the sha256 of ``numplace generate``'s stdout for a few flag sets. Two checkouts that print the
same lines write the same bytes.

Usage: python bench/fingerprint.py [--out FILE] [--root CHECKOUT] [--without COLUMN ...]     (a few minutes)

``--root`` runs another checkout's code on its own configs (e.g. a ``git worktree add --detach`` of an
older commit). ``--without COLUMN`` fingerprints content instead of bytes: each part's rows without
those columns (polars' NDJSON of them) and each JSON line of ``generate`` without those keys, so a change
that adds a column can show that every other value stayed the same.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]  # the checkout that runs (--root)
FROZEN = "2026-01-01T00:00:00"
RUNS: list[tuple[str, int]] = [  # config, count
    ("default.yaml", 200), ("small-4x4.yaml", 7), ("junior-6x6.yaml", 40), ("x-sudoku.yaml", 12),
    ("hyper.yaml", 12), ("killer.yaml", 6), ("heart-pattern.yaml", 6), ("automorphic-rot180.yaml", 6),
    ("target-fixed-9x9.yaml", 6),
]
GENERATE: list[list[str]] = [
    ["--count", "20", "--seed", "7"],
    ["--count", "20", "--seed", "7", "--grid", "uniform"],
    ["--count", "5", "--seed", "3", "--engine", "ilp"],
    ["--count", "6", "--seed", "5", "--size", "4", "--symmetry", "none", "--format", "json"],
]


FROZEN_NOW = f"""
import datetime, runpy, sys, time
time.perf_counter = lambda: 1000.0  # gen_ms and the run's seconds are measured with it: frozen, they are 0
class _Frozen(datetime.datetime):
    @classmethod
    def now(cls, tz=None):
        return cls.fromisoformat("{FROZEN}").replace(tzinfo=datetime.UTC).astimezone(tz)
datetime.datetime = _Frozen
sys.argv = ["numplace", *sys.argv[1:]]
runpy.run_module("pipeline", run_name="__main__")
"""


def _numplace(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-c", FROZEN_NOW, *args], capture_output=True, cwd=ROOT,
                          env=dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=str(ROOT)))


def _part_bytes(part: Path, without: list[str]) -> bytes:
    if not without:
        return part.read_bytes()
    import polars as pl

    frame = pl.read_parquet(part)
    return frame.drop([c for c in without if c in frame.columns]).write_ndjson().encode()


def _stdout_bytes(out: bytes, without: list[str]) -> bytes:
    if not without:
        return out
    import json

    lines = []
    for line in out.decode().splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            lines.append(line)
            continue
        lines.append(json.dumps({k: v for k, v in row.items() if k not in without}, sort_keys=True))
    return "\n".join(lines).encode()


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="also write the lines to this file")
    parser.add_argument("--root", type=Path, help="the checkout whose code and configs run (default: this one)")
    parser.add_argument("--without", action="append", default=[], help="a column left out (content mode)")
    args = parser.parse_args()
    global ROOT
    if args.root is not None:
        ROOT = args.root.resolve()
    lines: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, count in RUNS:
            cfg = yaml.safe_load((ROOT / "configs" / name).read_text(encoding="utf-8"))
            cfg["output"] = {**cfg.get("output", {}), "dir": f"{tmp}/out"}
            path = Path(tmp) / name
            path.write_text(yaml.safe_dump(cfg), encoding="utf-8")
            proc = _numplace("run", str(path), "--count", str(count), "--workers", "1")
            if proc.returncode != 0:
                sys.exit(f"fingerprint: {name}: exit {proc.returncode}: {proc.stderr.decode()[-400:]}")
        out = Path(tmp) / "out"
        for part in sorted(out.rglob("*.parquet")):
            lines.append(f"{part.relative_to(out)} {_sha(_part_bytes(part, args.without))}")
        for flags in GENERATE:
            proc = _numplace("generate", *flags)
            lines.append(f"generate {' '.join(flags)} {_sha(_stdout_bytes(proc.stdout, args.without))} "
                         f"exit={proc.returncode}")
        shutil.rmtree(out, ignore_errors=True)
    print("\n".join(lines))
    if args.out:
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
