#!/usr/bin/env python3
"""Variant puzzles/s on one core, and numplace's killer generation against pencilmark's (a PyPI peer).

    .venv/bin/python bench/bench_variants.py [--n 20] [--budget 60] [--grace 60] [--peer-python /tmp/peers/bin/python]
                                             [--configs killer] [--killer-generators 2,3] [--peer-modes cage-count]

numplace, per variant (classic ``configs/default.yaml`` for reference, then ``x-sudoku``, ``hyper``, ``jigsaw``,
``killer``): this one process, pinned to one CPU (``os.sched_setaffinity``), loads the config and builds the spec
(:func:`pipeline.run.plan.spec_of`, which for a variant asks the integer program once that a grid fits), makes one
warm-up puzzle (seed index N, outside the timed range) and verifies it, then times ``make_puzzle(spec,
puzzle_seed(cfg.seed, i))`` for i in 0..N-1, each puzzle checked by :func:`pipeline.verify.verify_puzzle` (rules,
solution, givens, symmetry, uniqueness by the compiled counter) inside the timed loop. Set-up (load + spec) and the
warm-up are reported apart; the import of numplace once, at the top. Columns: puzzles/s and ms/puzzle (generation
+ verification), mean givens, attempts (grids drawn) per puzzle, share ``certified`` (the ILP found no second
solution), verification failures (must be 0), the grader's levels. No runner, no Parquet, no worker pool.

pencilmark (MIT, PyPI; docs/benchmarks.md names the version) runs in a child process of its own Python 3.12
venv, pinned to the same CPU, after numplace. It has two killer generators (``pencilmark.gen.generate``):

  cage-count  ``{"size": 9, "elements": {"cage": K}, "max_givens": 0, "seed": s}``: no givens, exactly K cages: tile
              the grid with 2-cell cages, merge neighbours (distinct digits) while the cages alone keep one solution
              (CP-SAT with a counterexample cache). Needs OR-Tools (``pencilmark[verify]``); skipped without it.
              The closest to numplace's killer (no givens, uniqueness decided by an exact solver, not by human logic);
              K defaults to numplace's mean cage count in this run (``--cages`` overrides).
  partition   ``{"size": 9, "elements": {"cage": "partition"}, "seed": s}``: no givens (min_givens 0), cages merged
              up to 6 cells while pencilmark's human-logic solver (every technique allowed) still solves the whole grid,
              so unique by construction. Its merge loop has no deadline: one puzzle can take longer than any budget.

Both then grade the puzzle (the sudoku-grade card) and re-check uniqueness (``gen.api._verify``: CP-SAT with
OR-Tools, else pencilmark's exhaustive C++ search; ``info["unique_verified"]``). numplace's killer is not graded
and pencilmark's are graded; the child times pencilmark's grading apart (wrapping ``pencilmark.export.grade``), and
numplace's grader is timed apart by grading each made puzzle once more after the timed loop (``grade_s``), so the
table shows both rates with and without grading. Every pencilmark puzzle is also re-verified, untimed, by numplace's
own verifier (cages to cell indices, zero givens): an independent uniqueness count.

Per core on a shared machine: both sides also report their CPU seconds (``time.process_time`` of the timed loop,
numplace in this process, pencilmark in its child), and a second table gives the rates and ratios per CPU second,
graded and ungraded; the wall-clock rates depend on what else the machine runs. For killer, numplace's timed loop
is broken down by phase in CPU seconds (:func:`phase_clock`): the grid, the cage counter and the refining moves, the
grade, the HiGHS certificate (passed, or past its node budget: that attempt is dropped and a new grid drawn) and the
independent verification; with the share of puzzles that get a level (not ``unrated``).

Before and after in one run: ``--killer-generators 2,3`` makes the same ``killer.yaml`` seeds once per generator
version (:mod:`pipeline.generate.version`; the spec's ``generator``, as a set recorded under that version would),
one after the other in this process, each with its own warm-up and phase table, then a side-by-side table (CPU
seconds, graded and ungraded puzzles per CPU second, certificates past their budget, level mix, share graded) and
how many seeds gave the same puzzle under both. The last version is the one compared with pencilmark.

Budget: the child starts puzzles (seeds ``--seed`` + i) until N are made or ``--budget`` seconds have passed (a puzzle
already started is finished); a puzzle pencilmark gives up on (its own 120 s time limit) counts as failed, its time
included. The child is killed at budget + ``--grace`` seconds (partition mode can run that long on one puzzle); then
the puzzles finished count over the whole time spent, and with none finished the rate is an upper bound (< 1 per
elapsed). Time is measured inside the child from after its imports. ratio = numplace killer puzzles/s / pencilmark's.

Peers venv (outside the repository, never a project dependency):
    python3.12 -m venv /tmp/peers && /tmp/peers/bin/pip install pencilmark      # partition mode only
    /tmp/peers/bin/pip install "pencilmark[verify]"                              # + OR-Tools: cage-count mode
Without pencilmark (or its Python) the script says so in one line and runs the numplace part.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = ("default", "x-sudoku", "hyper", "jigsaw", "killer")
PEER_PYTHON = "/tmp/peers/bin/python"
PEER_MODES = ("cage-count", "partition")

# The pencilmark child: argv = cpu n budget seed mode cages; one JSON object per line on stdout.
CHILD = r'''
import json, os, sys, time
cpu, n, budget, seed, mode, cages = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), \
    sys.argv[5], int(sys.argv[6])
os.sched_setaffinity(0, {cpu})
try:
    from importlib.metadata import version
    import pencilmark.export as E2
    from pencilmark import cpsat_verify
    from pencilmark.gen import api as GA
    from pencilmark.gen import GenerationFailed, generate, params
except ImportError as exc:
    print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}), flush=True)
    sys.exit(0)
params()  # the engine's parameters, loaded once (start-up, not per puzzle)
spent = {"grade": 0.0, "verify": 0.0, "grade_cpu": 0.0, "verify_cpu": 0.0}
def timed(name, fn):
    def run(*a, **k):
        t, c = time.perf_counter(), time.process_time()
        try:
            return fn(*a, **k)
        finally:
            spent[name] += time.perf_counter() - t
            spent[name + "_cpu"] += time.process_time() - c
    return run
E2.grade = timed("grade", E2.grade)
GA._verify = timed("verify", GA._verify)
ortools = cpsat_verify.have_ortools()
print(json.dumps({"start": time.time(), "version": version("pencilmark"), "ortools": ortools,
                  "python": sys.version.split()[0]}), flush=True)
if mode == "cage-count" and not ortools:
    sys.exit(0)
def index(rc):
    r, c = rc[1:].split("c")
    return (int(r) - 1) * 9 + int(c) - 1
t0, c0 = time.perf_counter(), time.process_time()
for i in range(n):
    if time.perf_counter() - t0 >= budget:
        break
    spec = {"size": 9, "seed": seed + i}
    if mode == "partition":
        spec["elements"] = {"cage": "partition"}
    else:
        spec.update(elements={"cage": cages}, max_givens=0)
    g0, v0, gc0, t = spent["grade"], spent["verify"], spent["grade_cpu"], time.perf_counter()
    row = {"i": i, "seed": seed + i}
    try:
        r = generate(spec)
    except GenerationFailed as exc:
        row["failed"] = str(exc)[:160]
    else:
        d = r["puzzle"]
        row.update(givens=r["info"]["givens"], attempts=r["info"]["attempts"],
                   unique=r["info"]["unique_verified"], band=r["card"].get("band"),
                   numbers=d["numbers"], solution=d["solution"],
                   cages=[[[index(c) for c in g["cells"]], g["sum"]] for g in d.get("regions", [])
                          if g.get("kind") == "cage"])
    row.update(s=time.perf_counter() - t, grade_s=spent["grade"] - g0, verify_s=spent["verify"] - v0,
               grade_cpu=spent["grade_cpu"] - gc0,
               t=time.perf_counter() - t0, cpu=time.process_time() - c0)
    print(json.dumps(row), flush=True)
print(json.dumps({"end": time.perf_counter() - t0, "cpu": time.process_time() - c0}), flush=True)
'''


@dataclass
class Ours:
    """numplace's figures for one config."""

    name: str
    n: int
    setup_s: float
    warm_s: float
    seconds: float = 0.0
    failed: int = 0
    bad: int = 0
    givens: list[int] = field(default_factory=list)
    attempts: list[int] = field(default_factory=list)
    certified: int = 0
    levels: collections.Counter[str] = field(default_factory=collections.Counter)
    cages: list[list[int]] = field(default_factory=list)  # killer: the cage sizes of each puzzle
    grade_s: float = 0.0  # the grader again on each made puzzle, timed apart (its share of ``seconds``)
    cpu: float = 0.0  # CPU seconds of the timed loop (this process): the per-core figure on a shared machine
    phases: collections.Counter[str] = field(default_factory=collections.Counter)  # CPU seconds by phase
    calls: collections.Counter[str] = field(default_factory=collections.Counter)
    budget_misses: int = 0  # killer certificates past their node budget (attempt dropped)
    keys: list[tuple[str, str]] = field(default_factory=list)  # killer: (solution, cages) of each puzzle, in order

    @property
    def made(self) -> int:
        return len(self.givens)

    @property
    def rate(self) -> float:
        return self.made / self.seconds if self.seconds > 0 else 0.0

    @property
    def cpu_rate(self) -> float:
        return self.made / self.cpu if self.cpu > 0 else 0.0


#: The phases of a killer puzzle timed by :func:`phase_clock` (CPU seconds), with the call they wrap.
PHASES = (("grid", "pipeline.ilp.engine", "Engine", "random_grid"),
          ("cages: uniqueness counter", "pipeline.generate.count_jit", None, "solutions"),
          ("cages: drawing and refining moves", "pipeline.generate.cages", None, "refine"),
          ("certificate (HiGHS, passed)", "pipeline.ilp.engine", "Engine", "unique_without"),
          ("certificate (HiGHS presolve, passed)", "pipeline.ilp.engine", "Engine", "unique_by_presolve"))


@contextlib.contextmanager
def phase_clock(out: Ours) -> Iterator[None]:
    """Time the phases of :data:`PHASES` in CPU seconds into ``out.phases`` while the block runs (the
    wrapped calls are numplace's own; nothing else changes). The refining moves are ``refine`` less
    the counter calls it makes; a certificate past its node budget (``SolverTimeout``: the attempt is
    dropped) is booked apart. The grader is wrapped by :func:`ours` (``_rater``)."""
    import importlib

    saved = []
    for name, module, cls, attr in PHASES:
        owner: Any = importlib.import_module(module)
        if cls:
            owner = getattr(owner, cls)
        fn = getattr(owner, attr)

        def timed(*a: Any, _fn: Any = fn, _name: str = name, **k: Any) -> Any:
            t = time.process_time()
            try:
                return _fn(*a, **k)
            except Exception as exc:
                if _name.startswith("certificate") and type(exc).__name__ == "SolverTimeout":
                    _name = "certificate (HiGHS, past its budget: attempt dropped)"
                    out.budget_misses += 1
                raise
            finally:
                out.phases[_name] += time.process_time() - t
                out.calls[_name] += 1

        saved.append((owner, attr, fn))
        setattr(owner, attr, timed)
    try:
        yield
    finally:
        for owner, attr, fn in saved:
            setattr(owner, attr, fn)
        moves = "cages: drawing and refining moves"
        out.phases[moves] -= out.phases["cages: uniqueness counter"]


def machine() -> str:
    """CPU model and core count, for the header."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{platform.node()}, {model}, {os.cpu_count()} cores, Python {platform.python_version()}"


def ours(config: str, n: int, made_by: int | None = None) -> Ours:
    """Time ``n`` puzzles of ``configs/<config>.yaml`` in this (pinned) process, each verified; with
    ``made_by``, by that generator version's rules (:mod:`pipeline.generate.version`), named
    ``<config> (generator V)``."""
    import dataclasses

    from pipeline.board import format_line, variant_columns
    from pipeline.config import load
    from pipeline.generate.puzzle import MadePuzzle, make_puzzle
    from pipeline.generate.spec import GenerationFailed, puzzle_seed
    from pipeline.run.plan import spec_of
    from pipeline.verify import verify_puzzle

    def check(size: int, made: MadePuzzle) -> list[str]:
        return verify_puzzle(size, format_line(made.puzzle), format_line(made.solution), made.hints, made.symmetry,
                             made.symmetry_requested, **variant_columns(made.variant))

    t0 = time.perf_counter()
    cfg = load(ROOT / "configs" / f"{config}.yaml")
    from pipeline.generate.version import NEW_SET_METHOD

    # a new set's grid method where the config leaves it unset (the plan settles it so for a new set)
    spec = dataclasses.replace(spec_of(cfg), grid_method=cfg.grid.method or NEW_SET_METHOD)
    spec = spec if made_by is None else dataclasses.replace(spec, generator=made_by)
    size = cfg.board.size
    t1 = time.perf_counter()
    warm = make_puzzle(spec, puzzle_seed(cfg.seed, n))
    if check(size, warm):
        raise SystemExit(f"{config}: the warm-up puzzle fails verification: {check(size, warm)}")
    name = config if made_by is None else f"{config} (generator {made_by})"
    out = Ours(name, n, setup_s=t1 - t0, warm_s=time.perf_counter() - t1)
    made: list[MadePuzzle] = []
    killer = "killer" in cfg.board.rules.kinds
    import pipeline.generate.puzzle as gen

    rater = gen._rater

    def timed_rater(solution: Any, variant: Any, *rest: Any) -> Callable[[Any], Any]:
        rate = rater(solution, variant, *rest)

        def graded(puzzle: Any) -> Any:
            t = time.process_time()
            try:
                return rate(puzzle)
            finally:
                out.phases["grade"] += time.process_time() - t
                out.calls["grade"] += 1
        return graded

    clock = phase_clock(out) if killer else contextlib.nullcontext()
    if killer:
        gen._rater = timed_rater  # type: ignore[assignment]
    try:
        with clock:
            t0, c0 = time.perf_counter(), time.process_time()
            for i in range(n):
                try:
                    m = make_puzzle(spec, puzzle_seed(cfg.seed, i))
                except GenerationFailed:
                    out.failed += 1
                    continue
                v0 = time.process_time()
                out.bad += bool(check(size, m))
                out.phases["verify (independent counter)"] += time.process_time() - v0
                made.append(m)
            out.seconds, out.cpu = time.perf_counter() - t0, time.process_time() - c0
    finally:
        gen._rater = rater
    from pipeline.difficulty.grade import grade

    t0 = time.perf_counter()
    for m in made:
        grade(m.puzzle, m.solution, variant=None if m.variant.classic else m.variant)
    out.grade_s = time.perf_counter() - t0
    for m in made:
        out.givens.append(m.hints)
        out.attempts.append(m.attempts)
        out.certified += m.certified
        out.levels[m.difficulty] += 1
        if m.variant.cages:
            out.cages.append([len(c.cells) for c in m.variant.cages])
            out.keys.append((format_line(m.solution), repr(m.variant.cages)))
    return out


@dataclass
class Peer:
    """pencilmark's figures for one killer mode."""

    mode: str
    info: dict[str, Any] = field(default_factory=dict)
    rows: list[dict[str, Any]] = field(default_factory=list)
    elapsed: float = 0.0
    killed: bool = False
    error: str = ""
    cpu: float = 0.0  # CPU seconds of the child's loop (killed: up to its last finished puzzle)
    ours_ok: int = 0  # puzzles numplace's verifier finds sound (unique)
    ours_problems: collections.Counter[str] = field(default_factory=collections.Counter)

    @property
    def done(self) -> list[dict[str, Any]]:
        return [r for r in self.rows if "failed" not in r]

    @property
    def rate(self) -> float:
        return len(self.done) / self.elapsed if self.elapsed > 0 else 0.0


def peer(python: str, mode: str, cpu: int, n: int, budget: float, grace: float, seed: int, cages: int) -> Peer:
    """Run pencilmark's killer ``mode`` in a child of ``python``, killed at ``budget + grace`` seconds."""
    out = Peer(mode)
    with tempfile.TemporaryDirectory(prefix="bench_variants_") as tmp:
        script, log = Path(tmp) / "pencilmark_killer.py", Path(tmp) / "out.jsonl"
        script.write_text(CHILD)
        with log.open("w") as f:
            proc = subprocess.Popen([python, str(script), str(cpu), str(n), str(budget), str(seed), mode, str(cages)],
                                    stdout=f, stderr=subprocess.PIPE, text=True, cwd=tmp)
            try:
                _, err = proc.communicate(timeout=budget + grace)
            except subprocess.TimeoutExpired:
                proc.kill()
                _, err = proc.communicate()
                out.killed = True
            killed_at = time.time()
        for line in log.read_text().splitlines():
            rec = json.loads(line)
            if "error" in rec:
                out.error = rec["error"]
            elif "start" in rec:
                out.info = rec
            elif "end" in rec:
                out.elapsed = rec["end"]
                out.cpu = rec.get("cpu", 0.0)
            else:
                out.rows.append(rec)
    if not out.info and not out.error:
        out.error = (err.strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
    if out.killed and "start" in out.info:
        out.elapsed = killed_at - out.info["start"]
        out.cpu = max((r.get("cpu", 0.0) for r in out.rows), default=0.0)
    return out


def verify_peer(p: Peer) -> None:
    """numplace's verifier on each pencilmark puzzle (untimed): an independent uniqueness count."""
    from pipeline.symmetry import symmetry_tag
    from pipeline.verify import verify_puzzle

    for r in p.done:
        givens = [i for i, ch in enumerate(r["numbers"]) if ch not in ".0"]
        problems = verify_puzzle(9, r["numbers"], r["solution"], len(givens), symmetry_tag(givens, 9), "none",
                                 variant=["killer"], cages=[{"cells": c, "sum": s} for c, s in r["cages"]])
        if problems:
            p.ours_problems[problems[0]] += 1
        else:
            p.ours_ok += 1


def sizes(cages: list[list[int]]) -> str:
    """Cage size histogram over all puzzles, as ``size:count``."""
    hist = collections.Counter(s for one in cages for s in one)
    return " ".join(f"{k}:{hist[k]}" for k in sorted(hist))


def mean(xs: list[float] | list[int]) -> float:
    return statistics.fmean(xs) if xs else float("nan")


def one(x: float) -> str:
    """``x`` to one decimal, ``-`` for no data."""
    return "-" if x != x else f"{x:.1f}"


def killer_block(killer: Ours) -> None:
    """The killer summary, share graded and phase table of one killer result."""
    per = [len(c) for c in killer.cages]
    print(f"\nnumplace {killer.name}: {mean(per):.1f} cages per puzzle ({min(per)}-{max(per)}), sizes "
          f"{sizes(killer.cages)}, {mean(killer.givens):.1f} givens, {killer.rate:.2f} puzzles/s graded; the grader "
          f"alone {1000 * killer.grade_s / max(1, killer.made):.0f} ms/puzzle ({killer.grade_s / killer.seconds:.0%} "
          f"of the time); levels {dict(killer.levels.most_common())}")
    graded = sum(v for k, v in killer.levels.items() if k != "unrated")
    print(f"share graded (a level, not unrated): {graded}/{killer.made} = {graded / max(1, killer.made):.0%}; "
          f"per CPU second of this process: {killer.cpu_rate:.2f} puzzles/s ({killer.cpu:.1f} s CPU, "
          f"{killer.seconds:.1f} s wall, load average {os.getloadavg()[0]:.1f})")
    print()
    print("| killer phase (CPU, timed loop) | seconds | share | per puzzle ms | calls |")
    print("|---|--:|--:|--:|--:|")
    for name, sec in sorted(killer.phases.items(), key=lambda kv: -kv[1]):
        if not sec and not killer.calls.get(name):
            continue
        print(f"| {name} | {sec:.2f} | {sec / max(killer.cpu, 1e-9):.0%} | {1000 * sec / max(1, killer.made):.0f} | "
              f"{killer.calls.get(name, killer.made if name.startswith('verify') else 0)} |")
    rest = killer.cpu - sum(killer.phases.values())
    print(f"| the rest (removal bookkeeping, symmetry, records) | {rest:.2f} | {rest / max(killer.cpu, 1e-9):.0%} | "
          f"{1000 * rest / max(1, killer.made):.0f} | |")
    print(f"certificates past their budget: {killer.budget_misses} (each drops its attempt; attempts/puzzle "
          f"{mean(killer.attempts):.2f})")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20, help="puzzles per numplace config, and at most per pencilmark mode")
    ap.add_argument("--budget", type=float, default=60.0, help="seconds after which pencilmark starts no new puzzle")
    ap.add_argument("--grace", type=float, default=60.0, help="seconds past the budget before the child is killed")
    ap.add_argument("--seed", type=int, default=1, help="pencilmark's first seed")
    ap.add_argument("--cages", type=int, default=0, help="cage-count mode's K (0: numplace's mean cage count)")
    ap.add_argument("--peer-python", default=PEER_PYTHON, help="Python of a venv with pencilmark installed")
    ap.add_argument("--peer-modes", default=",".join(PEER_MODES), help="pencilmark killer modes, comma-separated")
    ap.add_argument("--configs", default=",".join(CONFIGS), help="numplace configs (names in configs/)")
    ap.add_argument("--killer-generators", default="",
                    help="generator versions to make killer.yaml by, one after the other in this process, e.g. 2,3 "
                         "(before/after; the last is compared with pencilmark); empty: this code's")
    a = ap.parse_args()
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})  # before numplace's imports: thread pools see one CPU
    t0 = time.perf_counter()
    import pipeline.generate.puzzle
    import pipeline.run.plan
    import pipeline.verify
    imported = time.perf_counter() - t0

    print(f"# numplace variants and killer vs pencilmark, one core (cpu {cpu}), {time.strftime('%Y-%m-%d %H:%M')}, "
          f"{machine()}, numplace {pipeline.__version__}")
    print(f"import numplace (generator + verifier): {imported:.2f} s")
    print()
    versions = [int(v) for v in a.killer_generators.split(",") if v.strip()]
    results = [r for c in a.configs.split(",")
               for r in ([ours(c, a.n, v) for v in versions] if c == "killer" and versions else [ours(c, a.n)])]
    base = next((r for r in results if r.name == "default"), None)
    print("| config | N | set-up s | warm-up s | seconds | puzzles/s | ms/puzzle | x classic | mean givens "
          "| attempts/puzzle | certified | failed | verify fail | levels |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|")
    for r in results:
        vs = f"{r.rate / base.rate:.2f}" if base and base.rate > 0 else "n/a"
        lv = " ".join(f"{k}:{v}" for k, v in r.levels.most_common())
        print(f"| {r.name} | {r.n} | {r.setup_s:.2f} | {r.warm_s:.2f} | {r.seconds:.2f} | {r.rate:.2f} | "
              f"{1000 * r.seconds / max(1, r.made):.0f} | {vs} | {mean(r.givens):.1f} | {mean(r.attempts):.2f} | "
              f"{r.certified / max(1, r.made):.0%} | {r.failed} | {r.bad} | {lv} |")
    killers = [r for r in results if r.name.split(" ")[0] == "killer" and r.made]
    if not killers:
        print("\nno numplace killer puzzles (configs without killer): the pencilmark comparison is skipped")
        return 0
    for r in killers:
        killer_block(r)
    killer = killers[-1]  # this code's rules, or the last version asked for: the one compared with pencilmark
    if len(killers) > 1:
        print()
        print("| killer.yaml by | made | CPU s | graded puzzles/s per CPU s | ungraded | certificates past budget "
              "| attempts/puzzle | levels | share graded |")
        print("|---|--:|--:|--:|--:|--:|--:|---|--:|")
        for r in killers:
            graded = sum(v for lv, v in r.levels.items() if lv != "unrated")
            bare = r.made / (r.cpu - r.phases["grade"]) if r.cpu > r.phases["grade"] else 0.0
            print(f"| {r.name} | {r.made} | {r.cpu:.1f} | {r.cpu_rate:.3f} | {bare:.3f} | {r.budget_misses} | "
                  f"{mean(r.attempts):.2f} | {' '.join(f'{lv}:{v}' for lv, v in r.levels.most_common())} | "
                  f"{graded / r.made:.0%} |")
        same = sum(x == y for x, y in zip(killers[0].keys, killer.keys, strict=False))
        print(f"the same puzzle (solution and cages) for the same seed in {killers[0].name} and {killer.name}: "
              f"{same}/{min(killers[0].made, killer.made)}; load average {os.getloadavg()[0]:.1f} (1 min)")
    per = [len(c) for c in killer.cages]
    k = a.cages or round(mean(per))
    print()
    if not Path(a.peer_python).exists():
        print(f"pencilmark: {a.peer_python} does not exist; no comparison (install recipe in this script's docstring)")
        return 0
    peers: list[Peer] = []
    for mode in a.peer_modes.split(","):
        p = peer(a.peer_python, mode, cpu, a.n, a.budget, a.grace, a.seed, k)
        if p.error:
            print(f"pencilmark: not available in {a.peer_python} ({p.error}); no comparison "
                  f"(install recipe in this script's docstring)")
            return 0
        if mode == "cage-count" and not p.info.get("ortools"):
            print("pencilmark cage-count mode skipped: OR-Tools is not installed in the peers venv "
                  "(pip install 'pencilmark[verify]')")
            continue
        verify_peer(p)
        peers.append(p)
    if not peers:
        return 0
    info = peers[0].info
    print(f"pencilmark {info.get('version')} (Python {info.get('python')}, OR-Tools "
          f"{'yes' if info.get('ortools') else 'no'}), budget {a.budget:.0f} s + {a.grace:.0f} s grace, N <= {a.n}, "
          f"seeds from {a.seed}; cage-count K = {k}")
    print()
    print("| generator | mode | made | failed | seconds | puzzles/s | s/puzzle | grading share | puzzles/s w/o grading "
          "| givens | cages/puzzle | cage sizes | unique (own check) | unique (numplace verifier) "
          "| numplace/pencilmark |")
    print("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|--:|--:|--:|")
    bare_ours = killer.made / (killer.seconds - killer.grade_s) if killer.seconds > killer.grade_s else 0.0
    print(f"| numplace | killer.yaml | {killer.made} | {killer.failed} | {killer.seconds:.2f} | {killer.rate:.3f} | "
          f"{killer.seconds / max(1, killer.made):.2f} | {killer.grade_s / killer.seconds:.0%} | {bare_ours:.3f} | "
          f"{mean(killer.givens):.1f} | "
          f"{mean(per):.1f} | {sizes(killer.cages)} | {killer.certified}/{killer.made} certified | "
          f"{killer.made - killer.bad}/{killer.made} | 1 |")
    for p in peers:
        done = p.done
        grade = sum(r["grade_s"] for r in p.rows)
        rate = p.rate
        bare = len(done) / (p.elapsed - grade) if p.elapsed > grade else 0.0
        if done:
            ratio = f"{killer.rate / rate:.1f} ({killer.rate / bare:.1f} w/o grading)"
            per_s, rate_s = f"{p.elapsed / len(done):.1f}", f"{rate:.4f}"
        else:
            ratio = f"> {killer.rate * p.elapsed:.0f}"
            per_s, rate_s = f"> {p.elapsed:.0f}", f"< {1 / p.elapsed:.4f}" if p.elapsed > 0 else "0"
        uniq = collections.Counter(str(r["unique"]) for r in done)
        own = f"{uniq.get('True', 0)}/{len(done)}" + (f" ({dict(uniq)})" if len(uniq) > 1 else "")
        cages = [[len(c) for c, _ in r["cages"]] for r in done]
        note = " (killed)" if p.killed else ""
        print(f"| pencilmark | {p.mode} | {len(done)} | {len(p.rows) - len(done)} | {p.elapsed:.1f}{note} | {rate_s} | "
              f"{per_s} | {grade / p.elapsed if p.elapsed else 0:.0%} | {bare:.4f} | "
              f"{one(mean([r['givens'] for r in done]))} | {one(mean([len(c) for c in cages]))} | "
              f"{sizes(cages) or '-'} | {own} | {p.ours_ok}/{len(done)} | {ratio} |")
    print()
    print("Per CPU second (each generator's own process time, the fair per-core figure on a shared machine):")
    print()
    print("| generator | made | CPU s | graded puzzles/s | ungraded puzzles/s | numplace/peer graded "
          "| numplace/peer ungraded |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    ours_bare = killer.made / (killer.cpu - killer.phases["grade"]) if killer.cpu > killer.phases["grade"] else 0.0
    print(f"| numplace killer.yaml | {killer.made} | {killer.cpu:.1f} | {killer.cpu_rate:.3f} | {ours_bare:.3f} "
          "| 1 | 1 |")
    for p in peers:
        done, grade_s = len(p.done), sum(r.get("grade_cpu", 0.0) for r in p.rows)
        rate = done / p.cpu if p.cpu > 0 else 0.0
        bare = done / (p.cpu - grade_s) if p.cpu > grade_s else 0.0
        vs, vs_bare = (killer.cpu_rate / rate if rate else float("inf")), (ours_bare / bare if bare else float("inf"))
        print(f"| pencilmark {p.mode} | {done} | {p.cpu:.1f} | {rate:.4f} | {bare:.4f} | {vs:.1f} | {vs_bare:.1f} |")
    print("(numplace's ungraded rate takes its grading calls' CPU out of the loop; pencilmark's its "
          "export.grade calls'; a killed child's CPU counts up to its last finished puzzle)")
    for p in peers:
        for why, count in p.ours_problems.items():
            print(f"numplace's verifier on pencilmark {p.mode}: {count} x {why}")
        fails = collections.Counter(r["failed"] for r in p.rows if "failed" in r)
        for why, count in fails.items():
            print(f"pencilmark {p.mode} failed {count} x: {why}")
        bands = collections.Counter(r["band"] for r in p.done)
        if bands:
            print(f"pencilmark {p.mode} bands: {dict(bands.most_common())}; attempts/puzzle "
                  f"{mean([r['attempts'] for r in p.done]):.2f}; verify share "
                  f"{sum(r['verify_s'] for r in p.rows) / p.elapsed:.0%}")
        if p.killed:
            print(f"pencilmark {p.mode}: killed at budget + grace = {a.budget + a.grace:.0f} s with a puzzle "
                  f"unfinished (its time is counted; with none finished the rate is an upper bound)")
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
