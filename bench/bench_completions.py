#!/usr/bin/env python3
"""Ways of completing a fractional LP optimum into a grid, and how close to uniform grids each lands.

    .venv/bin/python bench/bench_completions.py [--count 3000]

For ``--count`` seeds the generator's own draws of step 1 (weights, solver seed, diagonal prefill;
``generate.puzzle``'s draw order) give the LP relaxation of the weighted IP. An integral optimum is the
same grid for ``weighted-ilp`` and ``weighted-lp`` (the proven IP optimum); each fractional one is
completed in every way below, so all ways are compared on the very same LPs:

* ``ilp-incumbent``: HiGHS's first improving solution of the IP (today's ``weighted-ilp``);
* ``lp-guided``: the compiled search in the order LP value, then weight (today's ``weighted-lp``);
* ``ones+random``: the LP's ones fixed first, every other candidate in a fresh random order;
* ``lp-sampled``: each cell's candidates in a random order drawn in proportion to their LP values
  (keys ``log(u) / value``), branching in that order, or on the fewest candidates first (``-fewest``);
* ``lp+noise``: LP value plus 0.3 times a fresh uniform number;
* ``lp-guided+swapK``: ``lp-guided``, then K random digit-cycle swaps between two rows (or two columns)
  of one band (stack): a move to another valid grid that is its own inverse and is picked with the same
  probability from either end, so a long run of them tends to uniform grids.

Reported per way: the mean number of 4-cell unavoidable sets (``bench_grids.rectangles``; uniform grids
as the reference), its standard error, the mean paired difference from ``ilp-incumbent`` on the same LPs,
and CPU ms per completion. A random relabelling or any other element of the validity-preserving group
leaves the statistic unchanged, so no such step can move it. Figures: docs/benchmarks.md "Grid methods".
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_grids import rectangles  # the statistic of bench_grids.py, not a copy

from pipeline.board import Grid
from pipeline.generate import lpgrid, lpgrid_jit
from pipeline.generate.grid import prefill
from pipeline.generate.spec import puzzle_seed
from pipeline.identity import numbering
from pipeline.ilp.engine import engine_for
from pipeline.ilp.reduced import integral

PAIRS = ((0, 1), (0, 2), (1, 2))


def swap_cycle(g: np.ndarray, rng: np.random.Generator) -> None:
    """One random digit-cycle swap on the 9x9 array ``g`` (in place): two rows of a band (or, half the
    time, two columns of a stack) exchange their digits on the columns of the cycle through a random cell."""
    t = g.T if rng.random() < 0.5 else g
    band, pair, c = int(rng.integers(3)), int(rng.integers(3)), int(rng.integers(9))
    r1, r2 = (3 * band + k for k in PAIRS[pair])
    cols, first, cur = [c], t[r1, c], t[r2, c]
    while cur != first:
        c = int(np.flatnonzero(t[r1] == cur)[0])
        cols.append(c)
        cur = t[r2, c]
    t[r1, cols], t[r2, cols] = t[r2, cols].copy(), t[r1, cols].copy()


def completions(values: np.ndarray, weights: np.ndarray, start: Grid, rng: np.random.Generator
                ) -> dict[str, Callable[[], Grid | None]]:
    """Every search-based way of the module docstring, each a call that completes this LP point."""
    cand = lpgrid.candidates(start, 9)
    v = values.reshape(81, 9)
    u = rng.random((81, 9))
    keys = np.where(v > 1e-9, np.log(u) / np.maximum(v, 1e-9), -1e9)

    def search(prio: np.ndarray, fewest: bool = False) -> Callable[[], Grid | None]:
        return lambda: (lpgrid_jit.guided(cand, prio, lpgrid.GUIDED_NODES, None, fewest)
                        or lpgrid_jit.guided(cand, prio, lpgrid.GUIDED_NODES, None, True))

    return {"lp-guided": search(lpgrid.priorities(values, weights, 9)),
            "ones+random": search(np.where(v > 1 - 1e-6, 2.0, 0.0) + u),
            "lp-sampled": search(keys), "lp-sampled-fewest": search(keys, True),
            "lp+noise": search(v + 0.3 * u)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=3000, help="seeds (LP relaxations) to try")
    ap.add_argument("--swaps", default="5,20", help="K values of lp-guided+swapK")
    args = ap.parse_args()
    swaps = [int(k) for k in args.swaps.split(",") if k]
    eng = engine_for(9)
    stat: dict[str, list[int]] = {}
    cpu: dict[str, float] = {}

    def add(name: str, grid: Grid | None, seconds: float) -> None:
        assert grid is not None, name
        stat.setdefault(name, []).append(rectangles(grid))
        cpu[name] = cpu.get(name, 0.0) + seconds

    lpgrid_jit.guided(lpgrid.candidates((0,) * 81, 9), np.zeros((81, 9)), 10)  # numba's cache loaded before timing
    load0 = os.getloadavg()[0]
    for i in range(args.count):
        seed = puzzle_seed(11, i)
        rng = np.random.default_rng([seed, 0])
        weights, solver_seed = rng.random(729), int(rng.integers(2**31 - 1))
        start = prefill(9, rng)
        c0 = time.process_time()
        add("uniform (reference)", numbering.uniform_grid(np.random.default_rng([seed, 99])), time.process_time() - c0)
        values = eng.relaxation(weights, solver_seed, start)
        assert isinstance(values, np.ndarray)
        if integral(values):
            add("integral LP (shared)", tuple(int(d) + 1 for d in np.argmax(values.reshape(81, 9), axis=1)), 0.0)
            continue
        c0 = time.process_time()
        add("ilp-incumbent", eng.random_grid(weights, solver_seed, start).grid, time.process_time() - c0)
        extra = np.random.default_rng([seed, 7])
        for name, complete in completions(values, weights, start, extra).items():
            c0 = time.process_time()
            grid = complete()
            add(name, grid, time.process_time() - c0)
            if name == "lp-guided":
                assert grid is not None
                for k in swaps:
                    g = np.array(grid).reshape(9, 9)
                    moves = np.random.default_rng([seed, 8, k])
                    c0 = time.process_time()
                    for _ in range(k):
                        swap_cycle(g, moves)
                    add(f"lp-guided+swap{k}", tuple(int(d) for d in g.ravel()), time.process_time() - c0)
    ref = stat["ilp-incumbent"]
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(f"# completions of fractional LP optima, {args.count} seeds, one process, {when}, "
          f"load average {load0:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")
    print(f"{'way':<22} {'grids':>6} {'4-sets mean':>11} {'se':>6} {'vs ilp-incumbent':>17} {'CPU ms':>8}")
    for name, xs in stat.items():
        paired = (f"{statistics.fmean(a - b for a, b in zip(xs, ref, strict=True)):+17.3f}"
                  if len(xs) == len(ref) and name != "ilp-incumbent" else f"{'':>17}")
        ms = 1000 * cpu[name] / len(xs)
        print(f"{name:<22} {len(xs):6d} {statistics.fmean(xs):11.3f} {statistics.stdev(xs) / len(xs) ** 0.5:6.3f} "
              f"{paired} {ms:8.3f}")


if __name__ == "__main__":
    main()
