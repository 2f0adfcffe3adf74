#!/usr/bin/env python3
"""Grid methods side by side on 9x9 (one process, one core): grids/s of step 1 as the generator runs
it (`generate.puzzle.grid_of`: weights, prefill, the solve, the group element) and how varied the grids
are, with exactly uniform grids (`grid.method: uniform`) as the reference.

    .venv/bin/python bench/bench_grids.py [--count 10000] [--methods weighted-ilp,weighted-lp,uniform] [--puzzles 0]

With ``--puzzles N`` it also times N whole puzzles per method (`generate.make_puzzle`, the default
removal: rot180, orbit-minimal, hybrid engine, grade, certificate), methods again taking turns.

The methods take turns seed by seed, so the machine's load falls on all of them alike. Variety, per
method, over the same number of grids:

* distinct canonical grids (`identity.canon.canonical_grid`: equal forms = the same grid up to the
  validity-preserving group);
* three statistics that the group leaves unchanged, so they say something about which grids a method
  favours, not where it puts them: the number of 4-cell unavoidable sets (two rows and two columns
  whose four cells hold two digits crosswise and lie in two boxes), the number of *pure* bands and
  stacks (all three boxes split into the same three mini-row sets), and the number of 2-digit
  cycles between the first two rows of each band (digit pairs swapped between two rows in one band).

For each statistic: mean, standard deviation and the total variation distance of its histogram from the
uniform method's; `noise` is that distance between two halves of the uniform sample (what sampling alone gives).
Figures: docs/benchmarks.md "Grid methods".
"""

from __future__ import annotations

import argparse
import collections
import datetime as dt
import os
import platform
import statistics
import time
from collections.abc import Sequence

from pipeline.board import Grid
from pipeline.generate.puzzle import grid_of, make_puzzle
from pipeline.generate.spec import Spec, puzzle_seed
from pipeline.identity.canon import canonical_grid


def rectangles(g: Grid) -> int:
    """4-cell unavoidable sets: cells (r1,c1),(r1,c2),(r2,c1),(r2,c2) in two boxes, digits crosswise."""
    out = 0
    for r1 in range(9):
        for r2 in range(r1 + 1, 9):
            same_band = r1 // 3 == r2 // 3
            for c1 in range(9):
                for c2 in range(c1 + 1, 9):
                    if same_band == (c1 // 3 == c2 // 3):
                        continue  # one box (both same) or four boxes (neither)
                    a, b = g[r1 * 9 + c1], g[r1 * 9 + c2]
                    if g[r2 * 9 + c2] == a and g[r2 * 9 + c1] == b:
                        out += 1
    return out


def pure(g: Grid) -> int:
    """Bands and stacks whose three boxes hold the same three mini-row (mini-column) sets."""
    out = 0
    for t in (g, tuple(g[c * 9 + r] for r in range(9) for c in range(9))):
        for band in range(3):
            rows = range(band * 3, band * 3 + 3)
            sets = [frozenset(frozenset(t[r * 9 + s * 3: r * 9 + s * 3 + 3]) for r in rows) for s in range(3)]
            out += sets[0] == sets[1] == sets[2]
    return out


def cycles(g: Grid) -> int:
    """2-digit cycles between two rows of a band: digit pairs {a, b} with a above b in one column and
    b above a in another."""
    out = 0
    for band in range(3):
        for r1, r2 in ((0, 1), (0, 2), (1, 2)):
            top, low = g[(band * 3 + r1) * 9:(band * 3 + r1) * 9 + 9], g[(band * 3 + r2) * 9:(band * 3 + r2) * 9 + 9]
            pairs = {(a, b) for a, b in zip(top, low, strict=True)}
            out += sum(1 for a, b in pairs if a < b and (b, a) in pairs)
    return out


STATS = {"unavoidable 4-sets": rectangles, "pure bands+stacks": pure, "2-cycles in bands": cycles}


def tv(xs: Sequence[int], ys: Sequence[int]) -> float:
    """Total variation distance between the empirical distributions of ``xs`` and ``ys``."""
    cx, cy = collections.Counter(xs), collections.Counter(ys)
    return 0.5 * sum(abs(cx[k] / len(xs) - cy[k] / len(ys)) for k in set(cx) | set(cy))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=10_000)
    ap.add_argument("--methods", default="weighted-ilp,weighted-lp,uniform")
    ap.add_argument("--seed", type=int, default=20261126)
    ap.add_argument("--puzzles", type=int, default=0)
    args = ap.parse_args()
    methods = args.methods.split(",")
    specs = {m: Spec(size=9, symmetry="none", minimal=True, grid_method=m) for m in methods}
    for m in methods:  # warm up: engines, tables, compiled kernels (a fractional LP among the first seeds)
        for k in range(8):
            grid_of(specs[m], k)
    grids: dict[str, list[Grid]] = {m: [] for m in methods}
    secs = dict.fromkeys(methods, 0.0)
    sources: dict[str, collections.Counter[str]] = {m: collections.Counter() for m in methods}
    for i in range(args.count):
        seed = puzzle_seed(args.seed, i)
        for m in methods:
            t0 = time.perf_counter()
            grid, source = grid_of(specs[m], seed)
            secs[m] += time.perf_counter() - t0
            assert grid is not None
            grids[m].append(grid)
            sources[m][source] += 1
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else "?"
    print(f"# bench_grids {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, {platform.python_version()}, "
          f"cpus {cpus}, load {os.getloadavg()[0]:.2f}, {args.count} grids per method, seed {args.seed}")
    print(f"{'method':14} {'grids/s':>9} {'ms/grid':>8} {'distinct canonical':>19}  sources")
    for m in methods:
        distinct = len({canonical_grid(g) for g in grids[m]})
        print(f"{m:14} {args.count / secs[m]:9.1f} {secs[m] / args.count * 1e3:8.2f} "
              f"{distinct:>11}/{args.count}  {dict(sources[m])}")
    if args.puzzles:
        puzzle_specs = {m: Spec(size=9, symmetry="rot180", minimal=True, grid_method=m) for m in methods}
        for m in methods:
            make_puzzle(puzzle_specs[m], 1)
        psecs, gsecs = dict.fromkeys(methods, 0.0), dict.fromkeys(methods, 0.0)
        for i in range(args.puzzles):
            for m in methods:
                t0 = time.perf_counter()
                made = make_puzzle(puzzle_specs[m], puzzle_seed(args.seed + 1, i))
                psecs[m] += time.perf_counter() - t0
                gsecs[m] += made.phase_ms["grid"] / 1e3
        print(f"\n{'method':14} {'puzzles/s':>9} {'ms/puzzle':>9} {'grid ms':>8}  ({args.puzzles} make_puzzle)")
        for m in methods:
            print(f"{m:14} {args.puzzles / psecs[m]:9.1f} {psecs[m] / args.puzzles * 1e3:9.2f} "
                  f"{gsecs[m] / args.puzzles * 1e3:8.2f}")
    ref = "uniform" if "uniform" in methods else methods[0]
    values = {m: {name: [f(g) for g in grids[m]] for name, f in STATS.items()} for m in methods}
    for name in STATS:
        half = len(values[ref][name]) // 2
        noise = tv(values[ref][name][:half], values[ref][name][half:])
        print(f"\n{name} (TV vs {ref}; noise between its halves {noise:.3f})")
        for m in methods:
            xs = values[m][name]
            print(f"  {m:14} mean {statistics.fmean(xs):7.3f}  sd {statistics.pstdev(xs):6.3f}  "
                  f"TV {tv(xs, values[ref][name]):.3f}")


if __name__ == "__main__":
    main()
