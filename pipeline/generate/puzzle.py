"""Make one puzzle from its seed: a random complete grid, then hint removal on symmetry orbits.

Everything here is a pure function of (:class:`Spec`, puzzle seed) — the worker that runs it, the
order in which a worker meets its puzzles and the number of workers do not matter. Randomness comes
only from ``numpy.random.default_rng([seed, attempt])`` (PCG64: the same stream on every platform).

The removal loop, step by step (after tdoku's ``generate.cc`` and QQWing):

1. *Grid.* ``grid.method: uniform`` (9x9): draw a number uniformly in [0, N0) and unrank it
   (:mod:`pipeline.identity.numbering`), an exactly uniform grid. Otherwise fill the boxes on the diagonal
   with random digits (they share no row or column), then solve the IP with random objective
   weights and HiGHS seeded from the puzzle's seed, stopping at the first feasible grid
   (``weighted-ilp``), or solve its LP relaxation and complete a fractional optimum with the guided
   search of :mod:`pipeline.generate.lpgrid` (``weighted-lp``, the same draws). Without
   fixed cells, apply a random element of the validity-preserving group (relabel digits, permute
   bands, rows in bands, stacks, columns in stacks, transpose when boxes are square). A *designed*
   grid (``spec.design``: a solution symmetry, area rules) is solved by an engine that holds the
   design's rows, with neither prefill nor group element (both would break the design). A *variant*
   (``spec.variant``: x, hyper, jigsaw, killer) is solved by an engine that holds its units, again
   with neither prefill nor group element (a diagonal box prefill can repeat a digit on a diagonal,
   and the classic group does not keep diagonals, windows or regions in place).

   *Killer.* After the grid, cages are drawn on it (:func:`pipeline.generate.cages.draw_cages`,
   ``board.cages``' sizes) and, without givens, refined until the cages alone have one solution
   (:func:`pipeline.generate.cages.refine`; a second solution is found by the compiled counter with
   the cage rules; when its node budget runs out the attempt moves on to a new grid, and with
   ``engine: ilp`` the ILP with the cage rows finds it). The ILP certificate of a killer puzzle is
   bounded by work (:func:`certify`: HiGHS's presolve alone from generator version 3, before it
   :data:`KILLER_CERTIFY_NODES`); past the bound the puzzle is dropped and the next grid tried. The
   puzzle is then the empty grid plus cages and steps 2-4 are skipped; with ``board.cages.givens``
   the drawn cages are kept as they are and steps 2-4 remove givens under the cage rules. Every
   uniqueness check, the grade and the certificate of a killer puzzle use its cages.
2. *Orbits.* Split the cells into orbits of the requested symmetry group and shuffle them from the
   seed. Orbits that hold a fixed cell with ``keep_fixed`` are locked: never removed, whole.
3. *Try each orbit once.* Blank it and ask whether the puzzle is still unique: with ``engine: ilp``
   one HiGHS solve against the grid's no-good row (infeasible <=> unique); with ``hybrid`` the
   compiled counter of :mod:`pipeline.generate.count_jit` (ILP fallback if its node budget runs out).
   Keep the removal if unique, else restore the orbit and remember that it is *proven*
   non-removable: removing more givens later can only add solutions, so the proof still holds
   for the final puzzle.
4. *Stop rule.* ``minimal``: go through every orbit. ``hints {min, max}``: draw a goal in
   ``[min, max]``, never go below ``min``, stop at or under the goal; if the pass ends above
   ``max`` the grid cannot reach the target and the next attempt uses a new grid.
5. *Honest flags.* ``orbit_minimal``: every orbit still given is proven or checked non-removable.
   ``minimal`` (strict, single givens): implied false when an orbit is removable, otherwise
   every given is checked. A check that hits the time limit abandons the attempt.
6. *Grade.* The human-style grade of :mod:`pipeline.difficulty.grade`, by the set's grader version
   (``spec.grader``: a set keeps the grading rules it began with); outside a requested difficulty range
   the attempt is rejected (counted per level) and the next grid is tried. With ``difficulty.steer``
   (``spec.steer``; removal to orbit-minimal puzzles only), a miss first starts the local search of
   :mod:`pipeline.generate.steer` over minimal puzzles of the same grid, and only a puzzle it cannot
   bring into the range is rejected. With a quota (``spec.steer_pool``) the search climbs toward the
   level :meth:`~pipeline.generate.spec.Spec.target` gives the seed, and its result is kept at any level:
   the run's quota takes it, or puts it in the set's stock. With a technique target (``spec.techniques``,
   ``difficulty.technique``; steering implied) the search climbs :func:`pipeline.generate.technique.miss`
   and only a puzzle made for the technique (:func:`pipeline.generate.technique.made_for`) is kept; the
   row records it (``MadePuzzle.technique``).
7. *Certify.* One ILP solve with the no-good row on the finished puzzle (:func:`certify`): the model
   of record must find it infeasible (unique) in either engine mode; ``certified`` says it did.

*Clue pattern* (``spec.pattern``, :mod:`pipeline.generate.pattern`): steps 2-4 are replaced by one
check: the givens are exactly the pattern's cells of the grid, and the attempt goes on only if that
puzzle is unique (else the next attempt tries a new grid); steps 5-7 follow as for every puzzle.

:func:`make_puzzle` runs :func:`_attempt` (steps 1-7, marked in its body) for attempts 0, 1, ... until
one succeeds. Step 6 runs before step 5 so that a puzzle outside the difficulty range costs no
minimality checks.

*Grade later* (``make_puzzle(spec, seed, grade=False)``, the studio's Generate page): when the grade
decides nothing for this seed (:meth:`~pipeline.generate.spec.Spec.grade_decides` False: no level,
score, logic-only or technique target), step 6 is left out of the attempt and the puzzle comes back
with ``graded=False`` and no grade; :func:`grade_made` then computes the grade step 6 would have
given (the same rater, solution, rules and grader version; the grade draws nothing and no step
depends on it, so the puzzle, its flags and certificate are those of ``grade=True``).

**Draw order: the reproducibility contract.** Attempt ``a`` of the puzzle with seed ``s`` draws from
``numpy.random.default_rng([s, a])`` in exactly this order:

1. ``rng.random(n**3)``: the objective weights (drawn even where they are not used);
2. ``rng.integers(2**31 - 1)``: HiGHS's random seed;
3. without fixed cells or a design: the prefill, one ``rng.permutation(n)`` per diagonal box (:func:`prefill`);
4. with ``grid.method: uniform``: the grid number (:func:`pipeline.identity.numbering.uniform_grid`);
5. with neither fixed cells, a design, a variant nor ``uniform``: the group element (:func:`random_transform`);
5k. killer only: the cages (:func:`pipeline.generate.cages.draw_cages`, then, without givens, the draws
   of :func:`pipeline.generate.cages.refine`);
6. without a pattern (for killer, only with givens): ``rng.permutation(len(orbits))``, the order in
   which orbits are tried;
7. with a hints rule (never with a pattern): the goal, ``rng.integers(min, max + 1)``;
8. with ``spec.steer``, only when the first grade misses the range: the local search's draws
   (:mod:`pipeline.generate.steer`).

A pattern or a design adds no draw: it only leaves some out.

For ``symmetry: random`` the group is drawn once per puzzle from ``default_rng([s, 0x5EED])``. The
seed of puzzle ``i`` of a set is :func:`puzzle_seed` of (config seed, ``i``). Reordering, adding or
skipping a draw changes every puzzle of every set; ``tests/generate/test_puzzle.py`` pins three puzzles.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from pipeline import symmetry
from pipeline.board import CLASSIC, Cage, Grid, Variant
from pipeline.difficulty.grade import Grade, grade
from pipeline.difficulty.techniques import UNRATED
from pipeline.generate import cages as cage_maker
from pipeline.generate import lpgrid, pattern, steer, technique, version
from pipeline.generate.grid import prefill, random_transform
from pipeline.generate.removal import Check, checker, hint_goal, minimality, remove, witnessed
from pipeline.generate.spec import GenerationFailed, Spec, requested_symmetry
from pipeline.identity import numbering
from pipeline.ilp.engine import Engine, Outcome, SolverTimeout, engine_for


@dataclass(frozen=True)
class MadePuzzle:
    """One finished puzzle, typed, as :func:`make_puzzle` hands it to the run (which makes the row).

    ``puzzle`` and ``solution`` are grids; ``symmetry`` is the tag of the layout of the givens and
    ``symmetry_requested`` the group removal worked on (for ``random``, the one drawn); ``minimal`` and
    ``orbit_minimal`` are the honest flags of step 5; ``difficulty``, ``difficulty_score``,
    ``techniques`` (easiest first) and ``logic_steps`` are the grade of step 6; ``certified`` is the
    verdict of step 7 (the ILP found no second solution). Cost: ``ilp_solves``, ``gen_ms`` (wall, all
    attempts), ``attempts`` (grids used, this one included), ``timeouts``, ``rejected`` (level -> puzzles
    graded outside the requested difficulty and replaced). ``phase_ms`` (grid / removal incl.
    minimality / certify, summed over attempts; removal and certify of the successful attempt only)
    is for ``bench/`` and never written to a set.
    """

    puzzle: Grid
    solution: Grid
    symmetry: str
    symmetry_requested: str
    minimal: bool
    orbit_minimal: bool
    difficulty: str
    difficulty_score: float
    techniques: tuple[str, ...]
    logic_steps: int
    certified: bool
    ilp_solves: int
    gen_ms: float
    attempts: int
    timeouts: int
    rejected: dict[str, int]
    phase_ms: dict[str, float]
    variant: Variant = CLASSIC  # the puzzle's rules, with its cages for killer
    grid_source: str = ""  # where the grid came from: a key of lpgrid.SOURCES
    technique: str | None = None  # the technique target it was made for (difficulty.technique), else None
    graded: bool = True  # False: made with grade=False, step 6 not run yet (:func:`grade_made` runs it)

    @property
    def hints(self) -> int:
        """Number of givens."""
        return sum(1 for d in self.puzzle if d)


@dataclass
class _Puzzle:
    """What one puzzle's attempts share: the spec, the seed, the engine and the running tallies."""

    spec: Spec
    seed: int
    eng: Engine
    unique: Check
    tag: str
    orbits: tuple[tuple[int, ...], ...]
    locked: set[int]
    grid_eng: Engine  # the engine grids come from: ``eng`` itself, or one with the design's rows
    grade_later: bool = False  # step 6 is left out (make_puzzle's grade=False, when the grade decides nothing)
    source: str = ""  # the grid_source of the last grid made
    timeouts: int = 0
    why: str = "no attempt made"
    rejected: dict[str, int] = field(default_factory=dict)
    phase: dict[str, float] = field(default_factory=lambda: {"grid": 0.0, "removal": 0.0, "certify": 0.0})


@dataclass(frozen=True)
class _Found:
    """A successful attempt: the puzzle, its grid and the verdicts of steps 5-7."""

    puzzle: Grid
    solution: Grid
    minimal: bool
    orbit_minimal: bool
    grade: Grade
    certified: bool
    variant: Variant = CLASSIC
    grid_source: str = ""
    technique: str | None = None


def make_puzzle(spec: Spec, seed: int, grade: bool = True) -> MadePuzzle:
    """One puzzle for ``seed``: attempts ``0, 1, ...`` until one succeeds; raises
    :class:`GenerationFailed` (with the last reason) after ``spec.max_attempts``.

    ``grade=False``: when the grade decides nothing for ``seed`` (see *Grade later* in the module
    docstring), the puzzle comes back ungraded (``graded=False``; its grade fields are placeholders)
    for :func:`grade_made`; otherwise it is graded as usual."""
    t0 = time.perf_counter()
    eng = engine_for(spec.size, spec.time_limit, None, spec.variant)
    grid_eng = engine_for(spec.size, spec.time_limit, spec.design, spec.variant) if spec.design is not None else eng
    engines = (eng,) if grid_eng is eng else (eng, grid_eng)
    solves0 = sum(e.solves for e in engines)
    tag = requested_symmetry(spec, seed)
    fixed_cells = {i for i, d in enumerate(spec.fixed or ()) if d}
    job = _Puzzle(spec, seed, eng, checker(eng, spec.engine, spec.variant), tag, symmetry.orbits(tag, spec.size),
                  fixed_cells if spec.keep_fixed else set(), grid_eng, not grade and not spec.grade_decides(seed))
    for attempt in range(spec.max_attempts):
        found = _attempt(job, attempt)
        if found is None:
            continue
        g = found.grade
        return MadePuzzle(
            puzzle=found.puzzle, solution=found.solution,
            symmetry=symmetry.symmetry_tag((i for i, d in enumerate(found.puzzle) if d), spec.size),
            symmetry_requested=tag, minimal=found.minimal, orbit_minimal=found.orbit_minimal,
            difficulty=g.level, difficulty_score=g.score, techniques=tuple(g.techniques), logic_steps=g.logic_steps,
            certified=found.certified, ilp_solves=sum(e.solves for e in engines) - solves0,
            gen_ms=(time.perf_counter() - t0) * 1000.0,
            attempts=attempt + 1, timeouts=job.timeouts, rejected=job.rejected,
            phase_ms={k: v * 1000.0 for k, v in job.phase.items()},
            variant=found.variant, grid_source=found.grid_source, technique=found.technique,
            graded=not job.grade_later,
        )
    raise GenerationFailed(f"no puzzle after {spec.max_attempts} attempts: {job.why}", spec.max_attempts,
                           job.timeouts, job.rejected)


#: The grade an attempt carries while step 6 is left for later (``grade_later``): it rejects nothing
#: (the spec's range is empty then) and is never written (:func:`grade_made` replaces it).
_LATER = Grade(UNRATED, 0.0, [], 0, [], reason="graded after the puzzle is made")


def grade_made(spec: Spec, made: MadePuzzle) -> MadePuzzle:
    """``made`` with its grade: step 6 for a puzzle made with ``grade=False`` (the grade the attempt
    would have given: :func:`_rater` of its solution and rules under ``spec.grader``); ``made`` itself
    when it is graded already. The grade's time is added to ``gen_ms``."""
    if made.graded:
        return made
    t0 = time.perf_counter()
    g = _rater(made.solution, made.variant, spec.grader)(made.puzzle)
    return replace(made, difficulty=g.level, difficulty_score=g.score, techniques=tuple(g.techniques),
                   logic_steps=g.logic_steps, gen_ms=made.gen_ms + (time.perf_counter() - t0) * 1000.0, graded=True)


def grid_of(spec: Spec, seed: int, attempt: int = 0) -> tuple[Grid | None, str]:
    """Step 1 alone for attempt ``attempt`` of the puzzle with seed ``seed``: the grid (None when the
    solve ends without one) and its ``grid_source``, exactly as :func:`make_puzzle` makes them (for
    ``bench/`` and the tests)."""
    eng = engine_for(spec.size, spec.time_limit, None, spec.variant)
    grid_eng = engine_for(spec.size, spec.time_limit, spec.design, spec.variant) if spec.design is not None else eng
    job = _Puzzle(spec, seed, eng, checker(eng, spec.engine, spec.variant), "none", (), set(), grid_eng)
    grid = _grid(job, np.random.default_rng([seed, attempt]))
    return grid, job.source


def _attempt(job: _Puzzle, attempt: int) -> _Found | None:
    """Attempt ``attempt`` of one puzzle, steps 1-7 of the module docstring; None (with ``job.why``
    and the tallies updated) when this grid gives no acceptable puzzle.

    Every random draw comes from ``default_rng([seed, attempt])`` in the order the module docstring's
    *draw order* fixes; the engine's state does not carry over between attempts.
    """
    spec, eng = job.spec, job.eng
    rng = np.random.default_rng([job.seed, attempt])
    variant = spec.variant or CLASSIC
    if spec.killer:
        eng.set_cages(())  # grids come from the units alone
    # Step 1, grid: draws 1-5 (weights, solver seed, prefill, grid number, group element).
    t1 = time.perf_counter()
    grid = _grid(job, rng)
    job.phase["grid"] += time.perf_counter() - t1
    if grid is None:
        return None
    eng.set_nogood(grid)
    no_givens = spec.killer and not spec.killer_givens
    if spec.killer:
        # Draw 5k: the cages; the removal check, the grade and the certificate then use them.
        made = _cages(job, grid, rng)
        if made is None:
            eng.set_nogood(None)
            return None
        variant = Variant(variant.kinds, variant.regions, made)
        eng.set_cages(made)
        job.unique = checker(eng, spec.engine, variant)
    # Step 2, orbits: draw 6 (their order), then draw 7 (the hints goal, for a hints rule); a pattern draws neither.
    removing = spec.pattern is None and not no_givens
    order = [job.orbits[int(k)] for k in rng.permutation(len(job.orbits))] if removing else []
    goal = hint_goal(spec, rng) if removing else None
    t2 = time.perf_counter()
    try:
        given = _givens(job, grid, order, goal, no_givens)
        if given is None:
            return None
        puzzle, proven = given
        # Step 6, grade (before step 5: a puzzle outside the difficulty range spares the minimality checks).
        rate = _rater(grid, variant, spec.grader) if not job.grade_later else (lambda _puzzle: _LATER)
        graded = rate(puzzle)
        climb_unique = job.unique
        target = spec.target(job.seed)
        off = graded.level != target if target is not None else not spec.wants(graded.level, graded.score)
        if spec.techniques is not None:
            off = technique.made_for_grade(graded, spec.techniques, spec.grader) is None
        if spec.steer and goal is None and removing and off:
            # Step 6s, steer: a local search over minimal puzzles of this grid toward the range, or toward the
            # seed's quota level (draws 8); with a quota the result is kept whatever its level (the run's
            # quota takes it or stocks it).
            capped = spec.techniques is not None and spec.generator >= version.CAPPED_TECHNIQUE_CLIMB

            def judge(g: Grade) -> steer.Miss:
                if spec.techniques is not None:
                    return technique.miss(g, spec.techniques, spec.grader, capped)
                if target is not None:
                    return steer.miss(g, (target,), None, None)
                return steer.miss(g, spec.levels, spec.score_min, spec.score_max)

            # From generator 4 a technique climb grades its candidates only up to the target
            # (pipeline.generate.technique.rater); a climb that ends on an unfinished one grades it in full.
            # From generator 5 it also ranks how near a path came to a target of technique.PASSED (Simple Colors).
            climb_rate = (technique.rater(grid, variant, spec.techniques, spec.grader,
                                          passed=spec.generator >= version.PASSED_TARGET_CLIMB)
                          if capped and spec.techniques is not None else rate)
            # The climb's checks keep the second solutions they find (exact: the same answers, fewer searches).
            climb_unique = witnessed(job.unique, grid, spec.engine, variant)
            puzzle, graded = steer.climb(climb_unique, climb_rate, judge, grid, puzzle, graded, job.orbits, job.locked,
                                         rng)
            if isinstance(graded, (technique.Unfinished, technique.Passed)):
                graded = rate(puzzle)
            proven = set()  # step 5 checks every orbit of the new puzzle afresh
        made_for = (technique.made_for_grade(graded, spec.techniques, spec.grader) if spec.techniques is not None
                    else None)
        if not spec.wants(graded.level, graded.score, graded.guesses) or (spec.techniques is not None
                                                                           and made_for is None):
            job.rejected[graded.level] = job.rejected.get(graded.level, 0) + 1
            aim = (f"made for {' or '.join(spec.techniques)}" if spec.techniques is not None
                   else "in the difficulty range")
            job.why = f"no puzzle {aim} (last graded {graded.level} {graded.score:g})"
            return None
        # Step 5, honest flags (after a climb, by its witnessed checks: the same answers).
        minimal, orbit_minimal = minimality(climb_unique, puzzle, job.orbits, proven)
        # Step 7, certify: the model of record signs off, one solve.
        t3 = time.perf_counter()
        certified = certify(eng, spec, puzzle)
        job.phase["certify"] += time.perf_counter() - t3
        job.phase["removal"] += t3 - t2
    except SolverTimeout:
        job.timeouts += 1
        job.why = "a uniqueness check hit the time limit"
        return None
    finally:
        eng.set_nogood(None)
        if spec.killer:
            eng.set_cages(())
    return _Found(puzzle, grid, minimal, orbit_minimal, graded, certified, variant, job.source, made_for)


def _givens(job: _Puzzle, grid: Grid, order: list[tuple[int, ...]], goal: tuple[int, int, int] | None,
            no_givens: bool) -> tuple[Grid, set[tuple[int, ...]]] | None:
    """Steps 2-4 of an attempt on ``grid``: the puzzle and the orbits proven necessary on the way;
    None, with the reason in ``job``, when this grid gives no puzzle. Makes no random draw."""
    spec = job.spec
    if no_givens:
        return (0,) * len(grid), set()
    if spec.pattern is not None:
        # Steps 2-4 for a clue pattern: the pattern's cells of this grid, if they make a unique puzzle.
        fitted = pattern.fits(job.unique, grid, spec.pattern)
        if fitted is None:
            job.why = "no grid tried gave the pattern's givens a unique solution"
            return None
        return fitted, set()
    # Steps 3-4, try each orbit once under the stop rule.
    puzzle, proven = remove(job.unique, grid, order, job.locked, goal)
    k = sum(1 for d in puzzle if d)
    if goal is not None and not (goal[0] <= k <= goal[2]):
        job.why = f"grid could not go below {k} givens (target {goal[0]}-{goal[2]})"
        return None
    return puzzle, proven


class _LooseCages(Exception):
    """The compiled counter ran out of nodes on a killer layout during refinement: the attempt moves
    on to a new grid (asking the ILP for a second solution there can take tens of seconds)."""


#: Refinement steps a killer grid gets before the attempt moves on to a new grid.
CAGE_STEPS = 200
#: Branch-and-bound nodes HiGHS gets to certify a killer puzzle under generator versions 1 and 2
#: (version 3: presolve alone, :func:`certify`); past them the attempt moves on to a new grid (the
#: puzzle is dropped, never written uncertified). Of 30 zero-given 9x9 certificates,
#: 28 closed at the root (0 nodes, 0.02-0.3 s) and two took 26 and 28 nodes (4 and 11 s): not worth
#: the wait. Nodes, not seconds, so the same seed gives the same puzzles on any machine or load.
KILLER_CERTIFY_NODES = 8


def certify(eng: Engine, spec: Spec, puzzle: Grid) -> bool:
    """Step 7 on ``eng`` (its no-good row and, for killer, the puzzle's cages installed): the ILP's
    verdict that ``puzzle`` is unique. A killer puzzle's certificate is bounded by the set's generator
    version (:mod:`pipeline.generate.version`): from version 3 HiGHS's presolve alone
    (:meth:`~pipeline.ilp.engine.Engine.unique_by_presolve`), before it :data:`KILLER_CERTIFY_NODES`
    branch-and-bound nodes; past either bound :class:`SolverTimeout` (the attempt is dropped). Other
    puzzles get the unbounded proof."""
    if not spec.killer:
        return eng.unique_without(puzzle)
    if spec.generator >= version.PRESOLVE_KILLER_CERTIFICATES:
        return eng.unique_by_presolve(puzzle)
    return eng.unique_without(puzzle, KILLER_CERTIFY_NODES)


def _cages(job: _Puzzle, grid: Grid, rng: np.random.Generator) -> tuple[Cage, ...] | None:
    """Draw 5k: the killer cages of ``grid`` (refined to a unique zero-given puzzle unless the spec
    keeps givens); None, with the reason in ``job``, when refinement gives up."""
    spec, eng = job.spec, job.eng
    n = spec.size
    assert spec.variant is not None
    kinds, regions = spec.variant.kinds, spec.variant.regions
    policy = cage_maker.CagePolicy(spec.cage_sizes[0], spec.cage_sizes[1], spec.cage_singles)
    drawn = cage_maker.draw_cages(grid, n, rng, policy)
    if spec.killer_givens:
        return drawn
    blank: Grid = (0,) * (n * n)

    def second(cages: tuple[Cage, ...]) -> Grid | None:
        """A solution of the cages other than ``grid``: the compiled counter; the ILP with ``engine: ilp``."""
        if spec.engine == "hybrid":
            from pipeline.generate import count_jit  # numba: loaded for killer boards, not on import

            found = count_jit.solutions(blank, 2, variant=Variant(kinds, regions, cages))
            if found is None:  # past the node budget: these cages are too loose to settle quickly
                raise _LooseCages
            return next((g for g in found if g != grid), None)
        eng.set_cages(cages)
        out = eng.solve(blank)  # the no-good row of ``grid`` is installed
        if out.status == "timeout":
            raise SolverTimeout("a killer uniqueness check hit the time limit")
        return out.grid if out.status == "feasible" else None

    try:
        refined = cage_maker.refine(grid, n, drawn, rng, policy, second, max_steps=CAGE_STEPS)
    except SolverTimeout:
        job.timeouts += 1
        job.why = "a killer uniqueness check hit the time limit"
        return None
    except _LooseCages:
        job.why = "the cages of a grid left the compiled counter past its node budget"
        return None
    if refined is None:
        job.why = f"the cages of a grid did not become unique within {CAGE_STEPS} refinement steps"
        return None
    return refined[0]


def _rater(solution: Grid, variant: Variant, grader: int) -> Callable[[Grid], Grade]:
    """Step 6's grader for puzzles of ``solution`` under ``variant``'s rules, by grader version ``grader``.
    Every puzzle it is given has passed the removal check (exact), so a classic grade is told the puzzle
    is unique rather than counting its solutions again (the count would say the same)."""
    if variant.classic:
        return lambda puzzle: grade(puzzle, solution, unique=True, grader=grader)
    return lambda puzzle: grade(puzzle, solution, variant=variant, grader=grader)


def _grid(job: _Puzzle, rng: np.random.Generator) -> Grid | None:
    """Step 1: a complete grid from draws 1-5 (None, with the reason in ``job``, when the solve
    ends without one); ``job.source`` becomes its ``grid_source`` (:data:`lpgrid.SOURCES`)."""
    spec, n = job.spec, job.spec.size
    weights, solver_seed = rng.random(n**3), int(rng.integers(2**31 - 1))
    shaped = bool(spec.fixed) or spec.design is not None or spec.variant is not None  # no prefill, no group element
    start = spec.fixed if shaped else prefill(n, rng)

    def solve(first: Grid | None) -> tuple[Outcome, str]:
        if spec.grid_method == "weighted-lp" and spec.design is None:
            return lpgrid.lp_grid(job.grid_eng, weights, solver_seed, first, spec.variant)
        made = job.grid_eng.random_grid(weights, solver_seed, first)
        return made, lpgrid.ilp_source(made, first)

    if spec.grid_method == "uniform":
        out, job.source = Outcome("feasible", numbering.uniform_grid(rng)), "uniform"
    else:
        out, job.source = solve(start)
        if out.status == "infeasible" and not shaped:
            out, job.source = solve(None)  # the prefill had no completion
    if out.status != "feasible" or out.grid is None:
        job.why = f"grid solve ended {out.status}"
        job.timeouts += out.status == "timeout"
        return None
    if shaped or spec.grid_method == "uniform":
        return out.grid
    return random_transform(out.grid, n, rng)
