#!/usr/bin/env python3
"""What a level costs: variant puzzles at easy, medium and hard on demand, and a quota with and without
steering, measured on one core.

    .venv/bin/python bench/bench_levels.py [--n 5] [--configs x-sudoku,hyper,jigsaw,killer] [--levels easy,medium,hard]

Per config and level, the recipe of :data:`RECIPES` (``difficulty.levels: [level]`` plus: easy and medium a hint
range, since minimal variant puzzles are rarely easy; hard the minimal rule with ``difficulty.steer``; killer only
``levels``: steering moves givens, a killer puzzle is drawn until its grade fits), ``max_attempts`` 200;
``make_puzzle`` for seeds 0..N-1 in this process, pinned to one CPU, after one warm-up puzzle. Columns:
puzzles/s, s/puzzle, grids (attempts) per puzzle, failures (no puzzle of the level within the attempts).

Quota: ``configs/default.yaml``'s board with ``difficulty.quota`` (``--quota``, default easy 2, medium 2, hard 2,
expert 2) run by the runner with one worker into a temporary root, once without and once with ``steer``: seconds,
puzzles made in all (rows + stocked surplus) and redraws. Figures depend on the machine's load; say it beside them.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: level -> (removal keys, steer) for X, hyper and jigsaw; killer takes its config's removal and no steering
RECIPES: dict[str, tuple[dict[str, object], bool]] = {
    "easy": ({"hints": {"min": 34, "max": 38}}, False),
    "medium": ({"hints": {"min": 28, "max": 32}}, False),
    "hard": ({"minimal": True}, True),
}


def levels_row(config: str, level: str, n: int, steer_all: bool = False) -> str:
    from pipeline.config import load
    from pipeline.generate.puzzle import make_puzzle
    from pipeline.generate.spec import GenerationFailed, puzzle_seed
    from pipeline.run.plan import spec_of

    cfg = load(ROOT / "configs" / f"{config}.yaml")
    killer = "killer" in cfg.board.rules.kinds
    from pipeline.config import validate

    data = cfg.model_dump(mode="json", exclude_none=True)
    removal, steer = ({"minimal": True}, True) if steer_all else RECIPES.get(level, ({"minimal": True}, True))
    if not killer:
        data["removal"] = {k: v for k, v in data.get("removal", {}).items()
                           if k not in ("minimal", "hints", "pattern")} | removal
    data["difficulty"] = {"levels": [level], "steer": steer and not killer, "max_attempts": 200}

    from pipeline.config import ConfigError

    try:
        spec = spec_of(validate(data))
    except ConfigError as exc:  # a target the config check refuses (killer easy without givens): no row to time
        return f"| {config} | {level} | refused before any work: {str(exc).split(':', 1)[0]} | 0 | {n} | | | | |"
    with contextlib.suppress(GenerationFailed):
        make_puzzle(spec, puzzle_seed(cfg.seed, 10_000))  # warm-up: tables, compiled kernels
    attempts, failed = [], 0
    t0 = time.perf_counter()
    for i in range(n):
        try:
            attempts.append(make_puzzle(spec, puzzle_seed(cfg.seed, i)).attempts)
        except GenerationFailed:
            failed += 1
    s = time.perf_counter() - t0
    made = len(attempts)
    rate = made / s if s else 0.0
    mean = statistics.fmean(attempts) if attempts else float("nan")
    how = ("levels" if killer else "levels, hints " + "-".join(str(v) for v in removal["hints"].values())  # type: ignore[union-attr]
           if "hints" in removal else "levels + steer, minimal")
    return (f"| {config} | {level} | {how} | {made} | {failed} | {s:.1f} | {rate:.3f} | {s / max(1, made):.1f} | "
            f"{mean:.1f} |")


def quota_row(quota: dict[str, int], steer: bool) -> str:
    from pipeline.config import load, validate
    from pipeline.run import runner
    from pipeline.run.manifest import read_manifest

    cfg = load(ROOT / "configs" / "default.yaml")
    with tempfile.TemporaryDirectory(prefix="bench_levels_") as tmp:
        data = cfg.model_dump(mode="json", exclude_none=True)
        data.update(count=sum(quota.values()), workers=1, difficulty={"quota": quota, "steer": steer},
                    output={"dir": tmp, "shard_size": 500})
        t0 = time.perf_counter()
        summary = runner.run(validate(data))
        s = time.perf_counter() - t0
        totals = read_manifest(summary.run_dir)["totals"]
    made = totals["puzzles"] + totals["stocked"]
    return (f"| quota {'+ steer' if steer else 'alone'} | {totals['puzzles']} | {totals['stocked']} | {made} | "
            f"{s:.1f} | {totals['puzzles'] / s:.3f} | {totals['levels']} |")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=5)
    ap.add_argument("--configs", default="x-sudoku,hyper,jigsaw,killer")
    ap.add_argument("--levels", default="easy,medium,hard")
    ap.add_argument("--quota", default="easy=2,medium=2,hard=2,expert=2")
    ap.add_argument("--skip-quota", action="store_true")
    ap.add_argument("--steer-all", action="store_true", help="minimal + steer for every level (not the recipes)")
    a = ap.parse_args()
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print(f"# levels on demand, one core, {time.strftime('%Y-%m-%d %H:%M')}, load {os.getloadavg()[0]:.1f}")
    print("| config | level | how | made | failed | seconds | puzzles/s | s/puzzle | grids/puzzle |")
    print("|---|---|---|--:|--:|--:|--:|--:|--:|")
    for config in a.configs.split(","):
        for level in a.levels.split(","):
            print(levels_row(config, level, a.n, a.steer_all), flush=True)
    if not a.skip_quota:
        quota = {k: int(v) for k, v in (x.split("=") for x in a.quota.split(","))}
        print(f"\n9x9 default, quota {quota}, one worker")
        print("| run | rows | stocked | made in all | seconds | rows/s | levels |")
        print("|---|--:|--:|--:|--:|--:|---|")
        for steer in (False, True):
            print(quota_row(quota, steer), flush=True)
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
