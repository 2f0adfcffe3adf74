#!/usr/bin/env python3
"""Side-by-side benchmark of PyPI Sudoku puzzle generators, optionally against our own generator.

Peers (each optional; a missing one is reported, not fatal):

  name        call used (9x9)                                                       notes
  ----------  --------------------------------------------------------------------  ---------------------------
  rustoku     rustoku.generate_advanced(symmetry="rotational180", difficulty=None)  Rust/PyO3, MIT; no seed API
  hodoku      SudokuGenerator(random.Random(seed)).generate_sudoku(symmetric=True)  HoDoKu port, GPL-3.0; unrated
  py-sudoku   Sudoku(3, seed=seed).difficulty(0.5), redrawn until unique            MIT; no symmetry; 41 clues
  mip-solver  SudokuMIPSolver.generate_random_puzzle(3, 0.75, True, random_seed=s)  MIT; PuLP+CBC; needs pulp<4
  pencilmark  pencilmark.gen.generate({"size": 9, "symmetry": "rot180", "seed": s}) MIT; human-logic dig, slow

Install (Python 3.12 is needed for rustoku's only binary wheel, cp312):
    pip install rustoku hodoku-py py-sudoku sudoku-mip-solver "pulp<4" pencilmark

Our generator is any shell command given with --ours that prints puzzles on stdout, one per line,
81 characters, '.' or '0' for an empty cell.  The placeholders {n} and {seed} in the command are
replaced by the puzzle count and the seed, e.g.
    python peer_bench.py --ours "python -m ilpgen --count {n} --seed {seed} --symmetry rot180"

Method
  * Every generator runs in its own child process, one after another in the same invocation, pinned
    to a single CPU (os.sched_setaffinity), so figures are per-core and ratios come from one go.
  * A peer generates until --n puzzles exist or --budget seconds have passed (a puzzle already
    started is finished).  Its time is measured inside the child: interpreter start and imports
    are excluded.
  * "ours" is timed as the whole command, start-up included.  With --subtract-startup the command
    is also run with n=1 and the marginal rate (N-1)/(t(N)-t(1)) is reported as well.
  * Each generator's CPU seconds (user + system: the peer child's own time.process_time, the command's
    children from getrusage) are reported too, with the rates per CPU second: on a machine shared with
    other work a pinned child waits for its core, and the CPU figure leaves that wait out.
  * Quality uses an exact solution counter included below (pure Python, counts to 2):
      unique%   puzzles with exactly one solution (all puzzles)
      minimal%  unique puzzles where removing any single clue gives >1 solution (first --sample)
      orbmin%   same, removing a 180-degree orbit {i, 80-i} at a time (minimal under rot180)
      sym%      clue pattern is 180-degree rotationally symmetric
  * ratio = ours puzzles/s divided by the peer's puzzles/s (>1: ours is faster).

Examples
    python peer_bench.py                         # all peers, N=200 / 60 s each
    python peer_bench.py --quick --peers rustoku,hodoku
    python peer_bench.py --ours "./gen.sh {n}" --subtract-startup --json result.json
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import time

PEERS = ["rustoku", "hodoku", "py-sudoku", "mip-solver", "pencilmark"]
DIST = {"rustoku": "rustoku", "hodoku": "hodoku-py", "py-sudoku": "py-sudoku",
        "mip-solver": "sudoku-mip-solver", "pencilmark": "pencilmark"}
LINE = re.compile(r"^[0-9.]{81}$")


# ----------------------------------------------------------------------------------------------
# exact solution counter (bitmask backtracking, most-constrained cell first)
# ----------------------------------------------------------------------------------------------
_ROW = [i // 9 for i in range(81)]
_COL = [i % 9 for i in range(81)]
_BOX = [(i // 27) * 3 + (i % 9) // 3 for i in range(81)]
_FULL = 0x1FF


def count_string_solutions(puzzle: str, limit: int = 2) -> int:
    """Number of solutions of an 81-char puzzle ('.' or '0' = empty), capped at `limit`."""
    rows, cols, boxes = [0] * 9, [0] * 9, [0] * 9
    empties = []
    for i, ch in enumerate(puzzle):
        if ch in ".0":
            empties.append(i)
            continue
        bit = 1 << (int(ch) - 1)
        r, c, b = _ROW[i], _COL[i], _BOX[i]
        if (rows[r] | cols[c] | boxes[b]) & bit:
            return 0
        rows[r] |= bit
        cols[c] |= bit
        boxes[b] |= bit
    found = 0

    def search(empties):
        nonlocal found
        if not empties:
            found += 1
            return
        best_k, best_m, best_n = -1, 0, 10
        for k, i in enumerate(empties):
            m = _FULL & ~(rows[_ROW[i]] | cols[_COL[i]] | boxes[_BOX[i]])
            n = bin(m).count("1")
            if n < best_n:
                best_k, best_m, best_n = k, m, n
                if n <= 1:
                    break
        if best_n == 0:
            return
        i = empties[best_k]
        rest = empties[:best_k] + empties[best_k + 1:]
        r, c, b = _ROW[i], _COL[i], _BOX[i]
        m = best_m
        while m:
            bit = m & -m
            m ^= bit
            rows[r] |= bit
            cols[c] |= bit
            boxes[b] |= bit
            search(rest)
            rows[r] ^= bit
            cols[c] ^= bit
            boxes[b] ^= bit
            if found >= limit:
                return

    search(empties)
    return min(found, limit)


def quality(puzzles: list[str], sample: int) -> dict:
    """Clue count, uniqueness on all puzzles, minimality / symmetry on the first `sample`."""
    if not puzzles:
        return {}
    clues = [sum(ch not in ".0" for ch in p) for p in puzzles]
    unique = [count_string_solutions(p) == 1 for p in puzzles]
    minimal = orbmin = sym = checked = 0
    for p, u in zip(puzzles[:sample], unique[:sample], strict=False):
        checked += 1
        g = list(p)
        given = [i for i in range(81) if g[i] not in ".0"]
        sym += all((g[i] in ".0") == (g[80 - i] in ".0") for i in range(81))
        if not u:
            continue
        ok = True
        for i in given:
            v, g[i] = g[i], "."
            if count_string_solutions("".join(g)) == 1:
                ok = False
            g[i] = v
            if not ok:
                break
        minimal += ok
        ok = True
        for i in given:
            j = 80 - i
            if j < i and j in given:
                continue                      # orbit already tried from its lower cell
            vi, vj = g[i], g[j]
            g[i], g[j] = ".", "."
            if count_string_solutions("".join(g)) == 1:
                ok = False
            g[i], g[j] = vi, vj
            if not ok:
                break
        orbmin += ok
    return {"clues_mean": statistics.fmean(clues), "clues_min": min(clues), "clues_max": max(clues),
            "unique_frac": sum(unique) / len(puzzles), "sample": checked,
            "minimal_frac": minimal / checked, "orbmin_frac": orbmin / checked,
            "sym180_frac": sym / checked}


# ----------------------------------------------------------------------------------------------
# peer generators (run inside a child process)
# ----------------------------------------------------------------------------------------------
def _norm(s: str) -> str:
    return "".join("." if ch in ".0_" else ch for ch in s)


def _grid(board) -> str:
    return "".join("." if not v else str(v) for row in board for v in row)


def make_peer(name: str):
    """Return f(seed) -> 81-char puzzle for the named peer (imports happen here)."""
    if name == "rustoku":
        import rustoku  # no seed parameter exists
        return lambda seed: _norm(rustoku.generate_advanced(symmetry="rotational180", difficulty=None))
    if name == "hodoku":
        import random

        from hodoku.generator.generator import SudokuGenerator  # raw generator, no rating
        return lambda seed: _norm(SudokuGenerator(random.Random(seed)).generate_sudoku(symmetric=True))
    if name == "py-sudoku":
        from sudoku import Sudoku

        def f(seed):
            k = 0
            while True:                    # difficulty() only flags non-unique puzzles (-3): redraw
                p = Sudoku(3, seed=seed * 1_000_003 + k).difficulty(0.5)
                if p.get_difficulty() != -3:
                    return _grid(p.board)
                k += 1
        return f
    if name == "mip-solver":
        from sudoku_mip_solver import SudokuMIPSolver

        def f(seed):
            s, _ = SudokuMIPSolver.generate_random_puzzle(3, target_difficulty=0.75, unique_solution=True,
                                                          random_seed=seed)
            return _grid(s.board)
        return f
    if name == "pencilmark":
        from pencilmark.gen import generate
        return lambda seed: _norm(generate({"size": 9, "symmetry": "rot180", "seed": seed,
                                            "time_limit": 600.0})["puzzle"]["numbers"])
    raise ValueError(f"unknown peer {name!r}")


def worker(name: str, n: int, budget: float, seed: int) -> dict:
    try:
        f = make_peer(name)
    except ImportError as e:
        return {"error": f"not installed ({e})"}
    puzzles, t0, c0 = [], time.perf_counter(), time.process_time()
    while len(puzzles) < n and time.perf_counter() - t0 < budget:
        puzzles.append(f(seed + len(puzzles)))
    return {"puzzles": puzzles, "elapsed_s": time.perf_counter() - t0, "cpu_s": time.process_time() - c0}


# ----------------------------------------------------------------------------------------------
# parent: run children one at a time, pinned to one CPU
# ----------------------------------------------------------------------------------------------
def _pin(cpu):
    if cpu is None or not hasattr(os, "sched_setaffinity"):
        return None
    return lambda: os.sched_setaffinity(0, {cpu})


def run_peer(name, args, cpu) -> dict:
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", name, "--n", str(args.n),
           "--budget", str(args.budget), "--seed", str(args.seed)]
    p = subprocess.run(cmd, capture_output=True, text=True, preexec_fn=_pin(cpu))
    if p.returncode != 0:
        tail = (p.stderr.strip().splitlines() or ["?"])[-1]
        return {"error": f"exit {p.returncode}: {tail}"}
    return json.loads(p.stdout.strip().splitlines()[-1])


def run_ours(cmdline, n, seed, cpu) -> dict:
    cmd = cmdline.replace("{n}", str(n)).replace("{seed}", str(seed))
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, shell=True, capture_output=True, text=True, preexec_fn=_pin(cpu))
    el = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_s = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    if p.returncode != 0:
        tail = (p.stderr.strip().splitlines() or ["?"])[-1]
        return {"error": f"exit {p.returncode}: {tail}"}
    puzzles = [_norm(ln.strip()) for ln in p.stdout.splitlines() if LINE.match(ln.strip())]
    return {"puzzles": puzzles, "elapsed_s": el, "cpu_s": cpu_s}


def version(name):
    if name not in DIST:
        return "-"
    try:
        from importlib.metadata import version as v
        return v(DIST[name])
    except Exception:
        return "?"


def fmt_table(rows, ours_rates):
    head = ["tool", "version", "n", "sec", "puzzles/s", "ms/puzzle", "clues", "unique%", "minimal%",
            "orbmin%", "sym%"] + [f"{k}/peer" for k in ours_rates]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        if "error" in r:
            out.append(f"| {r['tool']} | {r['version']} | " + f"{r['error']} |" + " |" * (len(head) - 3))
            continue
        q = r["quality"]
        rate = r["per_s"]
        cells = [r["tool"], r["version"], str(r["n"]), f"{r['elapsed_s']:.2f}", f"{rate:.3g}",
                 f"{1000 / rate:.3g}" if rate else "-", f"{q.get('clues_mean', 0):.1f}",
                 f"{100 * q.get('unique_frac', 0):.0f}", f"{100 * q.get('minimal_frac', 0):.0f}",
                 f"{100 * q.get('orbmin_frac', 0):.0f}", f"{100 * q.get('sym180_frac', 0):.0f}"]
        cells += [f"{o / rate:.3g}" if rate else "-" for o in ours_rates.values()]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="See the module docstring for the method.")
    ap.add_argument("--peers", default=",".join(PEERS), help="comma list (default: %(default)s)")
    ap.add_argument("--n", type=int, default=200, help="puzzles per generator (default 200)")
    ap.add_argument("--budget", type=float, default=60.0, help="seconds per peer (default 60)")
    ap.add_argument("--seed", type=int, default=1, help="base seed (peers that accept one)")
    ap.add_argument("--sample", type=int, default=50, help="puzzles checked for minimality (default 50)")
    ap.add_argument("--ours", action="append", default=[], metavar="CMD",
                    help="command printing puzzles (81-char lines); {n} and {seed} are substituted; repeatable")
    ap.add_argument("--ours-name", action="append", default=[], metavar="NAME", help="label for each --ours")
    ap.add_argument("--subtract-startup", action="store_true",
                    help="also run each --ours with n=1 and report the marginal rate")
    ap.add_argument("--quick", action="store_true", help="shorthand for --n 50 --budget 10 --sample 20")
    ap.add_argument("--cpu", type=int, default=None, help="CPU to pin to (default: first allowed)")
    ap.add_argument("--no-pin", action="store_true", help="do not pin children to one CPU")
    ap.add_argument("--json", metavar="FILE", help="write all results (with puzzles) to FILE")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.worker:
        print(json.dumps(worker(args.worker, args.n, args.budget, args.seed)))
        return
    if args.quick:
        args.n, args.budget, args.sample = 50, 10.0, 20
    cpu = None
    if not args.no_pin and hasattr(os, "sched_getaffinity"):
        cpu = args.cpu if args.cpu is not None else min(os.sched_getaffinity(0))

    rows = []
    names = [f"ours{i + 1}" if len(args.ours) > 1 else "ours" for i in range(len(args.ours))]
    names = [args.ours_name[i] if i < len(args.ours_name) else nm for i, nm in enumerate(names)]
    jobs = [(nm, "ours", c) for nm, c in zip(names, args.ours, strict=False)]
    jobs += [(p.strip(), "peer", None) for p in args.peers.split(",") if p.strip()]
    started, load0 = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), os.getloadavg()
    print(f"# pinned to CPU {cpu}; n={args.n}, budget={args.budget:g}s, seed={args.seed}", file=sys.stderr)
    ours_rates = {}
    for name, kind, cmd in jobs:
        print(f"# running {name} ...", file=sys.stderr, flush=True)
        res = run_ours(cmd, args.n, args.seed, cpu) if kind == "ours" else run_peer(name, args, cpu)
        row = {"tool": name, "version": version(name), **res}
        if "error" not in res:
            row["n"] = len(res["puzzles"])
            row["per_s"] = row["n"] / res["elapsed_s"] if res["elapsed_s"] > 0 else 0.0
            row["quality"] = quality(res["puzzles"], args.sample)
            if kind == "ours":
                ours_rates[name] = row["per_s"]
                if args.subtract_startup and row["n"] > 1:
                    one = run_ours(cmd, 1, args.seed, cpu)
                    if "error" not in one:
                        d = res["elapsed_s"] - one["elapsed_s"]
                        row["startup_s"] = one["elapsed_s"]
                        row["marginal_per_s"] = (row["n"] - 1) / d if d > 0 else float("inf")
                        dc = res["cpu_s"] - one["cpu_s"]
                        row["startup_cpu_s"] = one["cpu_s"]
                        row["marginal_per_cpu_s"] = (row["n"] - 1) / dc if dc > 0 else float("inf")
        rows.append(row)
        print(f"#   {name}: " + (res["error"] if "error" in res else
                                 f"{row['n']} puzzles in {res['elapsed_s']:.2f}s"), file=sys.stderr)

    load1 = os.getloadavg()
    print(f"# {started} to {time.strftime('%H:%M UTC', time.gmtime())}, pinned to CPU {cpu}, n={args.n}; "
          f"load average (1 min) {load0[0]:.1f} at the start, {load1[0]:.1f} at the end")
    print(fmt_table(rows, ours_rates))
    for r in rows:
        if "marginal_per_s" in r:
            print(f"\n{r['tool']}: start-up {r['startup_s']:.2f}s (n=1 run); marginal rate "
                  f"{r['marginal_per_s']:.3g} puzzles/s")
    print("\nper CPU second (user + system; the wait for a shared core left out):")
    for r in rows:
        if "error" in r or not r.get("cpu_s"):
            continue
        line = f"  {r['tool']:<22} {r['n'] / r['cpu_s']:8.3g} puzzles per CPU-s whole ({r['cpu_s']:.2f} CPU-s)"
        if "marginal_per_cpu_s" in r:
            line += f", {r['marginal_per_cpu_s']:.3g} marginal (start-up {r['startup_cpu_s']:.2f} CPU-s)"
        print(line)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"args": vars(args), "cpu": cpu, "rows": rows}, fh, indent=1)


if __name__ == "__main__":
    main()
