#!/usr/bin/env python3
"""Technique targets (``difficulty: {technique: NAME}``), held out against HoDoKu, and what they cost.

Two halves, two interpreters (hodoku-py is never a numplace dependency):

1. ``make`` (numplace's Python): for each technique, ``--count`` puzzles made for it by steering
   (9x9 rot180 orbit-minimal, one process, one worker), CPU time measured per technique, and the same
   count of plain puzzles (no difficulty key) measured in the same run for the ratio. Writes JSON lines
   ``{"technique", "puzzle", "level", "score", "cpu_s"}`` and prints a table of puzzles per CPU-second.

       .venv/bin/python bench/bench_technique.py make --count 20 --out /tmp/tech.jsonl

   ``--generator 3`` makes them by generator version 3's climb (every candidate graded in full) for a
   before/after table in one checkout; ``--budget S`` stops a technique after S CPU seconds (the row
   then says how many it made in that time: the rate of a rare technique without waiting for all).

2. ``rate`` (the peers' Python, hodoku-py): HoDoKu's own solver rates every puzzle; a puzzle passes
   when HoDoKu's path uses the technique (or the HoDoKu step it maps to) and HoDoKu's level is no
   higher than the technique's level (ours: hard = Hard, expert = Unfair). Prints the share per technique.

       /tmp/peers/bin/python bench/bench_technique.py rate /tmp/tech.jsonl

Nothing is tuned on HoDoKu: the puzzles are made by numplace's grader alone, then rated once.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

#: The techniques of the issue's >= 95 % target (hard level), then the others measured.
HARD = ("x_wing", "swordfish", "skyscraper", "two_string_kite", "xy_wing", "w_wing", "simple_colors",
        "empty_rectangle", "uniqueness_1")
MORE = ("jellyfish", "turbot_fish", "xyz_wing", "remote_pair", "finned_x_wing", "multi_colors", "naked_quad",
        "hidden_quad", "uniqueness_2", "bug_plus_1", "finned_swordfish", "x_chain", "xy_chain",
        "discontinuous_nice_loop", "aic", "sue_de_coq", "als_xz")
#: The expert-level techniques a target offers (pipeline.config.technique.OFFERED), in the solver order.
EXPERT = ("finned_swordfish", "sashimi_swordfish", "finned_jellyfish", "sashimi_jellyfish", "sue_de_coq", "x_chain",
          "xy_chain", "discontinuous_nice_loop", "continuous_nice_loop", "aic", "grouped_discontinuous_nice_loop",
          "grouped_continuous_nice_loop", "grouped_aic", "als_xz", "als_xy_wing", "als_xy_chain")
ALL = HARD + MORE + tuple(e for e in EXPERT if e not in MORE)
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the registry, from the peers' Python too
from pipeline.difficulty.techniques import HODOKU_LEVELS, LEVELS  # noqa: E402  (imports nothing else)

#: HoDoKu step names (snake-cased SolutionType values) that are one of ours under another name.
NAMES = {
    "locked_candidates_type_1_pointing": "pointing", "locked_candidates_type_2_claiming": "claiming",
    "naked_quadruple": "naked_quad", "hidden_quadruple": "hidden_quad", "2_string_kite": "two_string_kite",
    "bivalue_universal_grave_1": "bug_plus_1", "simple_colors_trap": "simple_colors",
    "simple_colors_wrap": "simple_colors", "multi_colors_1": "multi_colors", "multi_colors_2": "multi_colors",
    "almost_locked_set_xz_rule": "als_xz", "almost_locked_set_xy_wing": "als_xy_wing",
    "almost_locked_set_xy_chain": "als_xy_chain",
}


def _make(args: argparse.Namespace) -> None:
    from pipeline import config as cfgmod
    from pipeline.difficulty.techniques import TECHNIQUES
    from pipeline.generate.version import GENERATOR_VERSION
    from pipeline.run import runner
    from pipeline.run.work import Made

    names = args.techniques.split(",") if args.techniques else list(HARD + MORE)

    made_by = args.generator or GENERATOR_VERSION
    print(f"generator version {made_by}; CPU budget per technique: {args.budget or 'none'}", flush=True)

    def run(difficulty: dict | None, seed: int, budget: float | None = None) -> tuple[list[dict], float, int]:
        data = {"name": "bench", "seed": seed, "count": args.count, "workers": 1,
                "grid": {"method": "weighted-ilp"}}
        if difficulty:
            data["difficulty"] = difficulty
        cfg = cfgmod.validate(data)
        t0 = time.process_time()
        rows, failed = [], 0
        for item in runner.stream(cfg, chunk=1, made_by=made_by):
            if isinstance(item, Made):
                rows.append(item.row)
            else:
                failed += 1
            if budget and time.process_time() - t0 > budget:
                break
        return rows, time.process_time() - t0, failed

    list(run(None, 1)[0])  # warm-up: compiled kernels, tables
    plain_rows, plain_s, _ = run(None, args.seed)
    plain_rate = len(plain_rows) / plain_s
    print(f"plain generation: {len(plain_rows)} puzzles in {plain_s:.1f} CPU s = {plain_rate:.2f} puzzles per "
          "CPU-second", flush=True)
    print("| technique | level | made | failed | CPU s | puzzles per CPU-second | x plain |")
    print("|---|---|---|---|---|---|---|")
    with Path(args.out).open("w", encoding="utf-8") as out:
        for k, name in enumerate(names):
            # the seed of a technique is its place in ALL (or, for another name, in --techniques)
            place = ALL.index(name) if name in ALL else k
            rows, secs, failed = run({"technique": name}, args.seed + 1 + place, args.budget)
            for r in rows:
                out.write(json.dumps({"technique": name, "made_for": r["technique"], "puzzle": r["puzzle"],
                                      "level": r["difficulty"], "score": r["difficulty_score"],
                                      "cpu_s": secs / max(1, len(rows))}) + "\n")
            out.flush()
            rate = len(rows) / secs if secs else float("inf")
            print(f"| {name} | {TECHNIQUES[name].level} | {len(rows)} | {failed} | {secs:.1f} | {rate:.2f} | "
                  f"{rate / plain_rate:.2f} |", flush=True)


def _hodoku_name(value: str) -> str:
    own = re.sub(r"[^a-z0-9]+", "_", value.lower()).strip("_")
    return NAMES.get(own) or own.replace("uniqueness_test", "uniqueness")


def _rate(args: argparse.Namespace) -> None:
    from hodoku.solver.solver import SudokuSolver  # the peer, from the benchmark venv

    rows = [json.loads(line) for line in Path(args.file).read_text(encoding="utf-8").splitlines() if line.strip()]
    by: dict[str, list[int]] = {}
    misses: list[str] = []
    for r in rows:
        res = SudokuSolver().solve(r["puzzle"])
        used = {_hodoku_name(s.type.value) for s in res.steps}
        level = res.level.name.capitalize()
        ours = HODOKU_LEVELS[LEVELS.index(r["level"])]
        ok_tech = r["technique"] in used
        ok_level = HODOKU_LEVELS.index(level) <= HODOKU_LEVELS.index(ours)
        by.setdefault(r["technique"], [0, 0, 0, 0])
        tally = by[r["technique"]]
        tally[0] += 1
        tally[1] += ok_tech
        tally[2] += ok_level
        tally[3] += ok_tech and ok_level
        if not (ok_tech and ok_level):
            misses.append(f"{r['technique']}: {r['puzzle']} HoDoKu {level} {res.score}, uses "
                          f"{sorted(used - {'naked_single', 'hidden_single', 'full_house'})}")
    print("| technique | puzzles | HoDoKu's path uses it | HoDoKu's level no higher | both |")
    print("|---|---|---|---|---|")
    for name, (n, tech, lvl, both) in by.items():
        print(f"| {name} | {n} | {tech} | {lvl} | {both} ({100 * both / n:.0f} %) |")
    for m in misses:
        print("miss:", m, file=sys.stderr)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    mk = sub.add_parser("make")
    mk.add_argument("--count", type=int, default=20)
    mk.add_argument("--seed", type=int, default=4242)
    mk.add_argument("--techniques", default="")
    mk.add_argument("--out", required=True)
    mk.add_argument("--generator", type=int, default=0, help="generator version (default: this code's)")
    mk.add_argument("--budget", type=float, default=0.0, help="CPU seconds per technique (default: no limit)")
    rt = sub.add_parser("rate")
    rt.add_argument("file")
    args = ap.parse_args()
    _make(args) if args.cmd == "make" else _rate(args)


if __name__ == "__main__":
    main()
