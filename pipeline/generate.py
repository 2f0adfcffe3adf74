"""Make one puzzle from its seed: a random complete grid, then hint removal on symmetry orbits.

Everything here is a pure function of (:class:`Spec`, puzzle seed) — the worker that runs it, the
order in which a worker meets its puzzles and the number of workers do not matter. Randomness comes
only from ``numpy.random.default_rng([seed, attempt])`` (PCG64: the same stream on every platform).

The removal loop, step by step (after tdoku's ``generate.cc`` and QQWing):

1. *Grid.* ``grid.method: uniform`` (9x9): draw a number uniformly in [0, N0) and unrank it
   (:mod:`pipeline.numbering`), an exactly uniform grid. Otherwise fill the boxes on the diagonal
   with random digits (they share no row or column), then solve the IP with random objective
   weights and HiGHS seeded from the puzzle's seed, stopping at the first feasible grid. Without
   fixed cells, apply a random element of the validity-preserving group (relabel digits, permute
   bands, rows in bands, stacks, columns in stacks, transpose when boxes are square).
2. *Orbits.* Split the cells into orbits of the requested symmetry group and shuffle them from the
   seed. Orbits that hold a fixed cell with ``keep_fixed`` are locked: never removed, whole.
3. *Try each orbit once.* Blank it and ask whether the puzzle is still unique: with ``engine: ilp``
   one HiGHS solve against the grid's no-good row (infeasible <=> unique); with ``hybrid`` the
   compiled counter of :mod:`pipeline.fastcount` (ILP fallback if its node budget runs out).
   Keep the removal if unique, else restore the orbit and remember that it is *proven*
   non-removable: removing more givens later can only add solutions, so the proof still holds
   for the final puzzle.
4. *Stop rule.* ``minimal``: go through every orbit. ``hints {min, max}``: draw a goal in
   ``[min, max]``, never go below ``min``, stop at or under the goal; if the pass ends above
   ``max`` the grid cannot reach the target and the next attempt uses a new grid.
5. *Honest flags.* ``orbit_minimal``: every orbit still given is proven or checked non-removable.
   ``minimal`` (strict, single givens): implied false when an orbit is removable, otherwise
   every given is checked. A check that hits the time limit abandons the attempt.
6. *Grade.* The human-style grade of :mod:`pipeline.grade`; outside a requested difficulty range
   the attempt is rejected (counted per level) and the next grid is tried.
7. *Certify.* One ILP solve with the no-good row on the finished puzzle: the model of record must
   find it infeasible (unique) in either engine mode; ``certified`` says it did.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from pipeline import fastcount, numbering, symmetry
from pipeline.board import Grid, board, conflict
from pipeline.engine import Engine, Outcome, SolverTimeout, engine_for
from pipeline.grade import grade


@dataclass(frozen=True)
class Spec:
    """What to make, as plain picklable data (built by the runner from the config)."""

    size: int
    symmetry: str  # a tag of symmetry.TAGS, or "random"
    minimal: bool  # try every orbit once
    hints_min: int | None = None
    hints_max: int | None = None
    fixed: Grid | None = None
    keep_fixed: bool = False
    max_attempts: int = 20
    time_limit: float | None = None
    engine: str = "hybrid"  # "hybrid": fast counter decides removals; "ilp": every check by HiGHS
    grid_method: str = "weighted-ilp"  # or "uniform" (9x9 only): a uniform number, unranked
    levels: tuple[str, ...] | None = None  # keep only puzzles graded at one of these levels
    score_min: float | None = None
    score_max: float | None = None

    def wants(self, level: str, score: float) -> bool:
        """True when a puzzle of this grade is in the requested difficulty range."""
        return ((self.levels is None or level in self.levels)
                and (self.score_min is None or score >= self.score_min)
                and (self.score_max is None or score <= self.score_max))


class GenerationFailed(RuntimeError):
    """No acceptable puzzle within ``max_attempts`` grids (message says why)."""

    def __init__(self, message: str, attempts: int, timeouts: int, rejected: dict[str, int] | None = None) -> None:
        super().__init__(message)
        self.attempts = attempts
        self.timeouts = timeouts
        self.rejected = rejected or {}


def puzzle_seed(config_seed: int, index: int, redraw: int = 0) -> int:
    """The seed of puzzle ``index`` of a set: a 63-bit hash of (config seed, index); ``redraw`` > 0
    gives the seed of the index's ``redraw``-th replacement (after a duplicate)."""
    key = f"numplace:{config_seed}:{index}" + (f":{redraw}" if redraw else "")
    digest = hashlib.blake2b(key.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def requested_symmetry(spec: Spec, seed: int) -> str:
    """The group used for this puzzle: the spec's, or for ``random`` one drawn from the seed."""
    if spec.symmetry != "random":
        return spec.symmetry
    rng = np.random.default_rng([seed, 0x5EED])
    return symmetry.TAGS[int(rng.integers(len(symmetry.TAGS)))]


def random_transform(grid: Grid, n: int, rng: np.random.Generator) -> Grid:
    """Apply a random element of the validity-preserving group of the board to ``grid``."""
    b = board(n)
    br, bc = b.box_rows, b.box_cols
    bands = rng.permutation(n // br)
    rows = [int(band * br + r) for band in bands for r in rng.permutation(br)]
    stacks = rng.permutation(n // bc)
    cols = [int(stack * bc + c) for stack in stacks for c in rng.permutation(bc)]
    relabel = [0, *(int(d) + 1 for d in rng.permutation(n))]
    out = [relabel[grid[rows[r] * n + cols[c]]] for r in range(n) for c in range(n)]
    if br == bc and rng.random() < 0.5:
        out = [out[c * n + r] for r in range(n) for c in range(n)]
    return tuple(out)


def _blank(puzzle: Sequence[int], cells: Sequence[int]) -> Grid:
    out = list(puzzle)
    for i in cells:
        out[i] = 0
    return tuple(out)


def _goal(spec: Spec, rng: np.random.Generator) -> tuple[int, int, int] | None:
    """(min, goal, max) for a hints stop rule; None for ``minimal``."""
    if spec.minimal or spec.hints_min is None or spec.hints_max is None:
        return None
    goal = int(rng.integers(spec.hints_min, spec.hints_max + 1))
    return spec.hints_min, goal, spec.hints_max


Check = Callable[[Grid], bool]


def checker(eng: Engine, kind: str) -> Check:
    """The removal check "is this puzzle still unique?" for engine ``kind``.

    ``ilp``: one HiGHS solve against the grid's no-good row. ``hybrid``: the compiled counter of
    :mod:`pipeline.fastcount`, falling back to the ILP only when its node budget runs out. Both
    are exact, so both give the same answer and the same puzzles.
    """
    if kind == "ilp":
        return eng.unique_without

    def hybrid(puzzle: Grid) -> bool:
        k = fastcount.count(puzzle, 2)
        return eng.unique_without(puzzle) if k < 0 else k == 1

    return hybrid


def prefill(n: int, rng: np.random.Generator) -> Grid:
    """Random digits in the boxes on the diagonal of box rows/columns (no two share a row or a
    column, so they are independent); the ILP completes the grid from there much faster.

    On 4x4 two such boxes leave about half the starts without a completion, so only the first box
    is filled there; for 6, 9 and 16 every diagonal start completes (9x9 is the classic fact;
    6 and 16 checked on samples), and :func:`make_puzzle` falls back to no prefill regardless.
    """
    b = board(n)
    out = [0] * (n * n)
    nbands, nstacks = n // b.box_rows, n // b.box_cols
    for k in range(1 if n == 4 else min(nbands, nstacks)):
        box = b.boxes[k * nstacks + k]
        for i, d in zip(box, rng.permutation(n), strict=True):
            out[i] = int(d) + 1
    return tuple(out)


def _remove(
    unique: Check, grid: Grid, orbits: Sequence[tuple[int, ...]], locked: set[int],
    goal: tuple[int, int, int] | None,
) -> tuple[Grid, set[tuple[int, ...]]]:
    """Steps 3-4: the removal pass. Returns the puzzle and the orbits proven non-removable."""
    puzzle = grid
    proven: set[tuple[int, ...]] = set()
    count = len(grid)
    for orb in orbits:
        if goal is not None and count <= goal[1]:
            break  # reached the goal
        if locked.intersection(orb):
            continue
        if goal is not None and count - len(orb) < goal[0]:
            continue  # would go below min; a smaller orbit later may still fit
        trial = _blank(puzzle, orb)
        if unique(trial):
            puzzle, count = trial, count - len(orb)
        else:
            proven.add(orb)
    return puzzle, proven


def _minimality(
    unique: Check, puzzle: Grid, orbits: Sequence[tuple[int, ...]], proven: set[tuple[int, ...]]
) -> tuple[bool, bool]:
    """Step 5: (minimal, orbit_minimal), each established by proofs or fresh checks."""
    given = [orb for orb in orbits if puzzle[orb[0]]]
    for orb in given:
        if orb not in proven and unique(_blank(puzzle, orb)):
            return False, False  # an orbit can go, so a single given of it can too
    singles = {orb[0] for orb in proven if len(orb) == 1}
    for i, d in enumerate(puzzle):
        if d and i not in singles and unique(_blank(puzzle, (i,))):
            return False, True
    return True, True


def make_puzzle(spec: Spec, seed: int) -> dict[str, object]:
    """One puzzle for ``seed`` as a plain dict of row fields; raises :class:`GenerationFailed`.

    Fields: ``puzzle``, ``solution`` (Grids), ``hints``, ``symmetry_requested``, ``minimal``,
    ``orbit_minimal``, ``ilp_solves``, ``gen_ms``, ``attempts``, ``timeouts``, ``difficulty``,
    ``difficulty_score``, ``techniques``, ``logic_steps``, ``rejected`` (level -> puzzles graded
    outside the requested difficulty and replaced), ``certified``
    (the final ILP solve with the no-good row was infeasible: the ILP agrees the puzzle is unique),
    ``phase_ms`` (grid / removal incl. minimality / certify, summed over attempts; successful
    attempts only for removal and certify).
    """
    t0 = time.perf_counter()
    n = spec.size
    eng = engine_for(n, spec.time_limit)
    solves0 = eng.solves
    tag = requested_symmetry(spec, seed)
    orbits_all = symmetry.orbits(tag, n)
    fixed_cells = {i for i, d in enumerate(spec.fixed or ()) if d}
    locked = fixed_cells if spec.keep_fixed else set()
    timeouts = 0
    why = "no attempt made"
    unique = checker(eng, spec.engine)
    phase = {"grid": 0.0, "removal": 0.0, "certify": 0.0}
    rejected: dict[str, int] = {}
    for attempt in range(spec.max_attempts):
        rng = np.random.default_rng([seed, attempt])
        weights, solver_seed = rng.random(n**3), int(rng.integers(2**31 - 1))
        start = spec.fixed if spec.fixed else prefill(n, rng)
        t1 = time.perf_counter()
        if spec.grid_method == "uniform":
            out = Outcome("feasible", numbering.uniform_grid(rng))
        else:
            out = eng.random_grid(weights, solver_seed, start)
            if out.status == "infeasible" and not spec.fixed:
                out = eng.random_grid(weights, solver_seed, None)  # the prefill had no completion
        phase["grid"] += time.perf_counter() - t1
        if out.status != "feasible" or out.grid is None:
            why = f"grid solve ended {out.status}"
            timeouts += out.status == "timeout"
            continue
        grid = out.grid if spec.fixed or spec.grid_method == "uniform" else random_transform(out.grid, n, rng)
        order = [orbits_all[int(k)] for k in rng.permutation(len(orbits_all))]
        goal = _goal(spec, rng)
        eng.set_nogood(grid)
        t2 = time.perf_counter()
        try:
            puzzle, proven = _remove(unique, grid, order, locked, goal)
            k = sum(1 for d in puzzle if d)
            if goal is not None and not (goal[0] <= k <= goal[2]):
                why = f"grid could not go below {k} givens (target {goal[0]}-{goal[2]})"
                continue
            graded = grade(puzzle, grid)
            if not spec.wants(graded.level, graded.score):
                rejected[graded.level] = rejected.get(graded.level, 0) + 1
                why = f"no puzzle in the difficulty range (last graded {graded.level} {graded.score:g})"
                continue
            minimal, orbit_minimal = _minimality(unique, puzzle, orbits_all, proven)
            t3 = time.perf_counter()
            certified = eng.unique_without(puzzle)  # the model of record signs off, one solve
            phase["certify"] += time.perf_counter() - t3
            phase["removal"] += t3 - t2
        except SolverTimeout:
            timeouts += 1
            why = "a uniqueness check hit the time limit"
            continue
        finally:
            eng.set_nogood(None)
        return {
            "puzzle": puzzle,
            "solution": grid,
            "hints": k,
            "symmetry_requested": tag,
            "symmetry": symmetry.symmetry_tag((i for i, d in enumerate(puzzle) if d), n),
            "minimal": minimal,
            "orbit_minimal": orbit_minimal,
            "ilp_solves": eng.solves - solves0,
            "gen_ms": (time.perf_counter() - t0) * 1000.0,
            "attempts": attempt + 1,
            "timeouts": timeouts,
            "certified": certified,
            "phase_ms": {k: v * 1000.0 for k, v in phase.items()},
            "difficulty": graded.level,
            "difficulty_score": graded.score,
            "techniques": graded.techniques,
            "logic_steps": graded.logic_steps,
            "rejected": rejected,
        }
    raise GenerationFailed(f"no puzzle after {spec.max_attempts} attempts: {why}", spec.max_attempts, timeouts,
                           rejected)


def fixed_cells_problem(n: int, fixed: Grid) -> str | None:
    """Why no grid can contain ``fixed`` (None when some grid does). Checks units, then the IP."""
    clash = conflict(fixed)
    if clash:
        return clash
    if engine_for(n).count_solutions(fixed, limit=1).count == 0:
        return "no complete grid contains these fixed cells"
    return None
