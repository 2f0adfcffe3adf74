#!/usr/bin/env python3
"""A night's cost as the years go by: a run's start-up time and peak memory against output roots
whose dedup catalog holds 1, 10 and 100 million keys (issue #37 item 6).

A nightly set of 4,000 puzzles holds 1.5 million keys after a year and 15 million after ten; every
run of the root dedups against all of them. This bench makes such roots synthetically, in the very
on-disk form a run leaves behind:

* one set (``nightly``) whose history is ``keys / --per-entry`` finished runs, each a run folder with
  a manifest (a real run's manifest, with its run id, start index and count changed) and ``_SUCCESS``,
  and its catalog entry ``_catalog/nightly--<run_id>.keys`` written by the product's own writer
  (:func:`pipeline.run.store.write_catalog_frame`) with ``--per-entry`` random keys of the length and
  alphabet of real 9x9 canonical keys (numpy, so 100 million keys take minutes, not hours). The
  run folders hold no part files: a run reads only the catalog entries of finished runs, so their
  parts are never opened (they are listed, and a listing of an empty folder is the cheap case);
* the baseline root (``empty``) holds the same set with one finished run that took the same index
  range and has no catalog entry, so its night makes exactly the puzzles the other roots' nights
  make (random synthetic keys never meet a real canonical key: no redraw anywhere).

Then, against each root, in a fresh child process each (so ``resource.getrusage(RUSAGE_CHILDREN)``
``ru_maxrss`` is that command's peak resident memory, the largest of its processes):

* ``start-up``: ``numplace run`` of a one-puzzle night, the whole command (``--runs`` times, min and
  median of the wall seconds; the median of the peak memory). What the catalog adds to a night is
  this minus the empty root's figure;
* ``night``: a night of ``--night`` puzzles (4,000 is the real one; smaller is a scaled night),
  once, on the roots of ``--night-keys``: wall and CPU seconds (user + system of the command and the
  worker processes it waited for) and their ratios to the empty root's night (on a loaded machine the
  CPU ratio is the steadier one). A 10-puzzle night runs first, unmeasured: the first night of a
  fresh checkout compiles and caches the workers' kernels (measured here once at 8x the CPU).

Every run's own run folder and catalog entry are removed after it is measured, so each measurement
meets the same root. The first start-up run on a root that has no key index yet builds it (the
one-time migration of a catalog written before the index); it is reported on its own row
(``first``), the steady state is the rest.

``--side LABEL=DIR`` (repeatable) runs a checkout's ``python -m pipeline`` (for instance ``git archive
f5b0210`` unpacked under /tmp: the "before" figures) with this checkout's interpreter; the sides take
turns on each root, so they meet the same load. A child whose resident
memory passes ``--cap-gb`` is killed (its process group) and reported as such, so a "before" run at
100 million keys cannot take a shared machine's memory; the figure then says "over the cap".

    .venv/bin/python bench/bench_catalog.py [--keys 1e6,1e7,1e8] [--night 4000] [--night-keys 0,1e7]
        [--runs 3] [--per-entry 4000] [--work /tmp/bench-catalog] [--side before=DIR --side after=.] [--cap-gb 8]

On a shared machine wall time includes waiting for a core: compare the ratios within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SET = "nightly"
SEED = 20261122
#: Every root's history ends at this index (a spacer run without a catalog entry fills the range the
#: synthetic nights leave), so every root's night makes the same puzzles.
TOP = 100_000_000
ALPHABET = b".123456789"


def _config(root: Path, count: int, path: Path) -> Path:
    """The nightly config (the embedded default's 9x9 rot180 minimal night) writing under ``root``;
    one worker for a one-puzzle night (no worker start-up in the figure), else ``auto``."""
    import yaml

    data = {"name": SET, "seed": SEED, "count": count, "board": {"size": 9},
            "removal": {"symmetry": "rot180", "minimal": True}, "workers": 1 if count == 1 else "auto",
            "output": {"dir": str(root), "shard_size": 500}}
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def _template(work: Path, checkout: Path) -> dict[str, Any]:
    """A real finished run's manifest (one puzzle), the model of every synthetic run."""
    root = work / "template"
    if not root.is_dir():
        cfg = _config(root, 1, work / "template.yaml")
        subprocess.run([*_numplace(checkout), "run", str(cfg)], check=True, capture_output=True, cwd=checkout)
    (run_dir,) = [d for d in (root / SET).iterdir() if d.is_dir() and not d.name.startswith((".", "_"))]
    data: dict[str, Any] = json.loads((run_dir / "_manifest.json").read_text(encoding="utf-8"))
    return data


def _run_id(k: int) -> str:
    """The run id of synthetic night ``k`` (one a day from 2000-01-01)."""
    import datetime as dt

    day = dt.datetime(2000, 1, 1, 2, 0, 0) + dt.timedelta(days=k)
    return f"{day:%Y%m%dT%H%M%SZ}-{k % 2**32:08x}"


def _add_run(root: Path, template: dict[str, Any], k: int, start: int, count: int) -> Path:
    run_id = _run_id(k)
    run_dir = root / SET / run_id
    run_dir.mkdir(parents=True)
    data = dict(template, run_id=run_id, start=start, count=count, catalog_snapshot=[], published_parts=[])
    (run_dir / "_manifest.json").write_text(json.dumps(data), encoding="utf-8")
    (run_dir / "_SUCCESS").write_bytes(b"")
    return run_dir


def make_root(root: Path, keys: int, per_entry: int, template: dict[str, Any]) -> None:
    """A root of ``keys`` synthetic catalog keys in nightly entries of ``per_entry`` (0: the
    baseline, one run of the same index range without an entry)."""
    import numpy as np
    import polars as pl

    from pipeline.run import store

    tmp = root.with_name(root.name + ".making")
    shutil.rmtree(tmp, ignore_errors=True)
    if keys > TOP:
        raise SystemExit(f"at most {TOP:,} keys")
    nights = -(-keys // per_entry)
    if keys < TOP:
        _add_run(tmp, template, -1, 0, TOP - keys)  # the spacer: no entry
    rng = np.random.default_rng(keys)
    alphabet = np.frombuffer(ALPHABET, dtype=np.uint8)
    t0 = time.perf_counter()
    for k in range(nights):
        n = min(per_entry, keys - k * per_entry)
        run_dir = _add_run(tmp, template, k, TOP - keys + k * per_entry, n)
        chars = alphabet[rng.integers(0, len(ALPHABET), size=(n, 81), dtype=np.uint8)]
        key = pl.Series("key", chars.view("S81").ravel()).cast(pl.String)
        frame = pl.DataFrame({"key": key, "size": pl.Series([9] * n, dtype=pl.Int32),
                              "set_name": pl.Series([SET] * n, dtype=pl.String),
                              "run_id": pl.Series([run_dir.name] * n, dtype=pl.String),
                              "puzzle_id": pl.Series([f"{SET}-{k * per_entry + i:08d}" for i in range(n)],
                                                     dtype=pl.String)})
        store.write_catalog_frame(tmp, SET, run_dir.name, frame)
        if k % 500 == 0:
            print(f"  {root.name}: {k}/{nights} entries, {time.perf_counter() - t0:.0f} s", flush=True)
    tmp.rename(root)


def _numplace(checkout: Path) -> list[str]:
    return [sys.executable, "-m", "pipeline"]


def measure(cmd: list[str], cwd: Path, cap_gb: float) -> dict[str, Any]:
    """Run ``cmd`` in a fresh child (this script with ``--measure``) and return its wall seconds,
    peak resident memory (MB) and return code; ``over_cap`` when it was killed at ``cap_gb``."""
    out = subprocess.run([sys.executable, __file__, "--measure", str(cap_gb), "--", *cmd], cwd=cwd,
                         capture_output=True, text=True, check=False)
    try:
        return dict(json.loads(out.stdout.strip().splitlines()[-1]))
    except (IndexError, json.JSONDecodeError):
        raise SystemExit(f"measure failed: {out.stdout[-2000:]} {out.stderr[-2000:]}") from None


def _measure_child(cap_gb: float, cmd: list[str]) -> None:
    """The child of :func:`measure`: runs ``cmd`` in its own session, watches the resident memory of
    its main process, kills the group past the cap; prints one JSON line."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    over = threading.Event()

    def watch() -> None:
        status = Path(f"/proc/{proc.pid}/status")
        while proc.poll() is None:
            try:
                rss_kb = next(int(line.split()[1]) for line in status.read_text().splitlines()
                              if line.startswith("VmRSS:"))
            except (OSError, StopIteration, ValueError):
                rss_kb = 0
            if rss_kb > cap_gb * 1024 * 1024:
                over.set()
                os.killpg(proc.pid, signal.SIGKILL)
                return
            time.sleep(0.05)

    threading.Thread(target=watch, daemon=True).start()
    _, err = proc.communicate()
    wall = time.perf_counter() - t0
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    maxrss = use.ru_maxrss / 1024
    print(json.dumps({"wall": wall, "cpu": use.ru_utime + use.ru_stime, "maxrss_mb": maxrss,
                      "rc": proc.returncode, "over_cap": over.is_set(),
                      "stderr": err.decode(errors="replace")[-600:]}))


def _clean_new_runs(root: Path, before: set[str]) -> None:
    """Remove the run folders (and their catalog entries) a measured run added to ``root``."""
    for d in (root / SET).iterdir():
        if d.name not in before and not d.name.startswith((".", "_")):
            shutil.rmtree(d)
            (root / "_catalog" / f"{SET}--{d.name}.keys").unlink(missing_ok=True)


def bench_root(name: str, root: Path, checkout: Path, work: Path, night: int, runs: int,
               cap_gb: float) -> dict[str, Any]:
    before = {d.name for d in (root / SET).iterdir()}
    out: dict[str, Any] = {}
    cmd1 = [*_numplace(checkout), "run", str(_config(root, 1, work / f"{name}-1.yaml"))]
    starts = []
    for k in range(runs + 1):
        m = measure(cmd1, checkout, cap_gb)
        _clean_new_runs(root, before)
        if m["over_cap"] or m["rc"] != 0:
            out["first" if k == 0 else "startup"] = m
            return out
        if k == 0:
            out["first"] = m
        else:
            starts.append(m)
    out["startup"] = {"wall_min": min(m["wall"] for m in starts),
                      "wall_median": statistics.median(m["wall"] for m in starts),
                      "maxrss_mb": statistics.median(m["maxrss_mb"] for m in starts)}
    if night:  # a small night first, not measured: the workers' compiled kernels cached for this checkout
        measure([*_numplace(checkout), "run", str(_config(root, 10, work / f"{name}-w.yaml"))], checkout, cap_gb)
        _clean_new_runs(root, before)
        m = measure([*_numplace(checkout), "run", str(_config(root, night, work / f"{name}-n.yaml"))],
                    checkout, cap_gb)
        _clean_new_runs(root, before)
        out["night"] = m
    return out


def _name(keys: int) -> str:
    return "empty" if keys == 0 else f"k{keys:.0e}".replace("+", "")


def _row(label: str, name: str, keys: int, r: dict[str, Any], base: dict[str, Any], cap_gb: float) -> str:
    first = r.get("first", {})
    st = r.get("startup")
    if st is None or "wall_min" not in st:
        bad = st or first
        why = f"over the cap ({cap_gb} GB)" if bad.get("over_cap") else f"rc {bad.get('rc')}"
        return (f"{label:7} {name:6} {keys:12,} {first.get('wall', 0):8.2f} {first.get('maxrss_mb', 0):9.0f}   "
                f"{why} after {bad.get('wall', 0):.0f} s {bad.get('stderr', '')[-200:]!r}")
    extra = st["wall_min"] - base["startup"]["wall_min"] if "startup" in base else float("nan")
    night = r.get("night")
    bn = base.get("night")
    nx = night["wall"] / bn["wall"] if night and bn else float("nan")
    cx = night["cpu"] / bn["cpu"] if night and bn else float("nan")
    return (f"{label:7} {name:6} {keys:12,} {first['wall']:8.2f} {first['maxrss_mb']:9.0f} "
            f"{st['wall_min']:8.2f} {st['wall_median']:8.2f} {st['maxrss_mb']:9.0f} {extra:+9.2f} "
            f"{night['wall'] if night else float('nan'):8.2f} {night['cpu'] if night else float('nan'):8.2f} "
            f"{night['maxrss_mb'] if night else float('nan'):9.0f} {nx:8.3f} {cx:8.3f}")


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--measure":
        _measure_child(float(sys.argv[2]), sys.argv[4:])
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--keys", default="1e6,1e7,1e8", help="catalog sizes, comma-separated")
    ap.add_argument("--per-entry", type=int, default=4000, help="keys per catalog entry (one night)")
    ap.add_argument("--night", type=int, default=4000, help="puzzles of the measured night (0: none)")
    ap.add_argument("--night-keys", default="0,1e7", help="the catalog sizes whose root gets a night too")
    ap.add_argument("--runs", type=int, default=3, help="start-up runs per root (after the first)")
    ap.add_argument("--work", type=Path, default=Path("/tmp/bench-catalog"))
    ap.add_argument("--side", action="append", default=[],
                    help="LABEL=CHECKOUT: a checkout whose numplace runs (repeatable; default after=this one)")
    ap.add_argument("--cap-gb", type=float, default=8.0, help="kill a child past this resident memory")
    args = ap.parse_args()
    sides = [tuple(x.split("=", 1)) for x in args.side] or [("after", str(ROOT))]
    work = args.work
    work.mkdir(parents=True, exist_ok=True)
    template = _template(work, ROOT)
    sizes = [0] + [int(float(x)) for x in args.keys.split(",") if x]
    with_night = {int(float(x)) for x in args.night_keys.split(",") if x}
    for keys in sizes:
        root = work / _name(keys)
        if not root.is_dir():
            t0 = time.perf_counter()
            make_root(root, keys, args.per_entry, template)
            print(f"made {root}: {keys:,} keys in {time.perf_counter() - t0:.0f} s", flush=True)
    print(f"# bench_catalog: night of {args.night} on roots of {args.keys} keys, {args.per_entry} a run; "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {os.getloadavg()[0]:.1f}", flush=True)
    print(f"{'side':7} {'root':6} {'keys':>12} {'first s':>8} {'first MB':>9} {'start s':>8} {'median':>8} "
          f"{'start MB':>9} {'+start s':>9} {'night s':>8} {'cpu s':>8} {'night MB':>9} {'night x':>8} {'cpu x':>8}",
          flush=True)
    base: dict[str, dict[str, Any]] = {}
    for keys in sizes:
        for label, checkout in sides:
            night = args.night if keys in with_night else 0
            r = bench_root(_name(keys), work / _name(keys), Path(checkout), work, night, args.runs, args.cap_gb)
            if keys == 0:
                base[label] = r
            print(_row(label, _name(keys), keys, r, base.get(label, {}), args.cap_gb), flush=True)
    print(f"# load average {os.getloadavg()[0]:.1f} at the end", flush=True)


if __name__ == "__main__":
    main()
