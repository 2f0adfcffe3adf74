"""``difficulty.steer`` (issue 15): the local search that moves a minimal puzzle toward the requested
difficulty on the same grid. Every puzzle it hands back is checked here by the independent verifier
(unique, orbit-minimal, givens from the grid) and graded again from scratch."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from pipeline import symmetry, verify
from pipeline.board import board
from pipeline.difficulty.grade import Grade, grade
from pipeline.generate import count_jit
from pipeline.generate.puzzle import make_puzzle
from pipeline.generate.removal import remove
from pipeline.generate.spec import Spec, puzzle_seed
from pipeline.generate.steer import climb, miss
from tests.conftest import numplace

B9 = board(9)
ORBITS = symmetry.orbits("rot180", 9)


def _grade(level: str, score: float) -> Grade:
    return Grade(level=level, score=score, techniques=[], logic_steps=0, steps=[])


def test_miss_is_zero_inside_the_range_and_points_toward_it() -> None:
    assert miss(_grade("expert", 5000), ["expert"], None, None) == (0, 0.0)
    assert miss(_grade("hard", 900), ["expert"], None, None) == (1, -900)  # up: a higher score is closer
    assert miss(_grade("hard", 1200), ["expert"], None, None) < miss(_grade("hard", 900), ["expert"], None, None)
    assert miss(_grade("easy", 100), ["expert"], None, None)[0] == 3
    assert miss(_grade("extreme", 9000), ["expert"], None, None) == (1, 9000)  # down: a lower score is closer
    assert miss(_grade("medium", 300), ["easy", "expert"], None, None) == (1, 300)  # the nearer level, easy
    assert miss(_grade("hard", 900), None, 1000, None) == (0, 100)
    assert miss(_grade("hard", 900), ["hard"], None, 800) == (0, 100)


def _orbit_minimal(puzzle: tuple[int, ...]) -> bool:
    """Every given orbit is needed, by the independent counter."""
    for orb in ORBITS:
        if puzzle[orb[0]]:
            trial = list(puzzle)
            for i in orb:
                trial[i] = 0
            if verify.independent_count(tuple(trial), B9, limit=2) == 1:
                return False
    return True


def test_climb_reaches_expert_from_an_easy_puzzle_and_keeps_it_unique_and_orbit_minimal() -> None:
    """From the first easy minimal puzzle of a seed, the search finds an expert one on the same grid."""
    def unique(p: tuple[int, ...]) -> bool:
        return count_jit.count(p, 2) == 1

    for s in range(40):
        made = make_puzzle(Spec(size=9, symmetry="rot180", minimal=True), puzzle_seed(21, s))
        if made.difficulty == "easy":
            break
    else:
        pytest.fail("no easy puzzle among 40 seeds")
    grid, start = made.solution, made.puzzle
    rng = np.random.default_rng(5)
    puzzle, graded = climb(unique, lambda p: grade(p, grid), lambda g: miss(g, ["expert"], None, None),
                           grid, start, grade(start, grid), ORBITS, set(), rng, steps=300)
    assert graded.level == "expert" and puzzle != start
    assert grade(puzzle).level == "expert"  # graded afresh, without the solution
    assert all(d in (0, g) for d, g in zip(puzzle, grid, strict=True))
    assert verify.independent_count(puzzle, B9, limit=2) == 1
    assert symmetry.contains(verify.layout_tag(puzzle, 9), "rot180")
    assert _orbit_minimal(puzzle)


def test_climb_never_blanks_a_locked_cell() -> None:
    made = make_puzzle(Spec(size=9, symmetry="rot180", minimal=True), puzzle_seed(22, 0))
    grid = made.solution
    locked_orbits = [orb for orb in ORBITS if made.puzzle[orb[0]]][:3]
    locked = {i for orb in locked_orbits for i in orb}
    puzzle, _ = climb(lambda p: count_jit.count(p, 2) == 1, lambda p: grade(p, grid),
                      lambda g: miss(g, ["extreme"], None, None), grid, made.puzzle, grade(made.puzzle, grid),
                      ORBITS, locked, np.random.default_rng(1), steps=40)
    assert all(puzzle[i] == grid[i] for i in locked)
    assert verify.independent_count(puzzle, B9, limit=2) == 1


@pytest.mark.heavy
def test_steered_puzzles_are_in_range_certified_and_the_same_on_every_run() -> None:
    spec = Spec(size=9, symmetry="rot180", minimal=True, levels=("expert",), steer=True, max_attempts=50)
    first = [make_puzzle(spec, puzzle_seed(3, i)) for i in range(4)]
    again = [make_puzzle(spec, puzzle_seed(3, i)) for i in reversed(range(4))][::-1]
    for made, twin in zip(first, again, strict=True):
        assert (made.puzzle, made.solution) == (twin.puzzle, twin.solution)  # no state carried between puzzles
        assert made.difficulty == "expert" == grade(made.puzzle).level
        assert made.certified and made.orbit_minimal
        assert verify.independent_count(made.puzzle, B9, limit=2) == 1
        assert _orbit_minimal(made.puzzle)


@pytest.mark.heavy
def test_steering_reaches_the_range_on_fewer_grids_than_filtering() -> None:
    """The point of steering, counted in grids (never in seconds): the same seeds need fewer attempts."""
    plain = Spec(size=9, symmetry="rot180", minimal=True, levels=("expert",), max_attempts=400)
    steered = Spec(size=9, symmetry="rot180", minimal=True, levels=("expert",), steer=True, max_attempts=400)
    seeds = [puzzle_seed(8, i) for i in range(3)]
    grids_plain = sum(make_puzzle(plain, s).attempts for s in seeds)
    grids_steered = sum(make_puzzle(steered, s).attempts for s in seeds)
    assert grids_steered < grids_plain


@pytest.mark.heavy
def test_steer_without_a_level_is_one_line() -> None:
    res = numplace("generate", "--steer", "--count", "1")
    assert res.returncode == 2 and res.stderr.strip() == "numplace: error: --steer: needs --level (the difficulty " \
                                                         "to steer toward)"


@pytest.mark.deep
@pytest.mark.heavy
def test_generate_steer_prints_expert_puzzles_only() -> None:
    res = numplace("generate", "--count", "2", "--level", "expert", "--steer", "--seed", "4")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.split()
    assert len(lines) == 2
    for line in lines:
        assert grade(tuple(int(c) for c in line.replace(".", "0"))).level == "expert"


def test_climb_leaves_a_puzzle_already_in_range_alone() -> None:
    made = make_puzzle(Spec(size=9, symmetry="rot180", minimal=True), puzzle_seed(23, 0))
    grid = made.solution
    order = list(ORBITS)
    puzzle, _ = remove(lambda p: count_jit.count(p, 2) == 1, grid, order, set(), None)
    g = grade(puzzle, grid)
    out, out_grade = climb(lambda p: count_jit.count(p, 2) == 1, lambda p: grade(p, grid),
                           lambda gr: miss(gr, [gr.level], None, None), grid, puzzle, g, ORBITS, set(),
                           np.random.default_rng(0))
    assert out == puzzle and out_grade is g


def test_a_quota_steers_each_seed_toward_its_level() -> None:
    spec = Spec(size=9, symmetry="rot180", minimal=True, steer=True, steer_pool=("easy", "hard", "hard"))
    targets = [spec.target(puzzle_seed(4, i)) for i in range(600)]
    assert set(targets) == {"easy", "hard"} and 0.25 < targets.count("easy") / 600 < 0.42
    assert Spec(size=9, symmetry="rot180", minimal=True).target(5) is None


@pytest.mark.heavy
def test_quota_steering_keeps_every_first_grid_and_climbs_toward_the_target() -> None:
    """With a quota nothing is rejected for its level (the run's quota takes it or stocks it): every
    puzzle comes from its first grid, and the climb moves it toward its seed's level."""
    spec = Spec(size=9, symmetry="rot180", minimal=True, steer=True, steer_pool=("hard",))
    plain = Spec(size=9, symmetry="rot180", minimal=True)
    seeds = [puzzle_seed(9, i) for i in range(4)]
    made = [make_puzzle(spec, s) for s in seeds]
    unsteered = [make_puzzle(plain, s) for s in seeds]
    assert all(m.attempts == 1 and m.certified and m.orbit_minimal for m in made)
    rank = ("easy", "medium", "hard", "expert", "extreme").index
    assert sum(m.difficulty == "hard" for m in made) > sum(u.difficulty == "hard" for u in unsteered)
    for m, u in zip(made, unsteered, strict=True):
        assert m.solution == u.solution  # the same grid, climbed
        assert abs(rank(m.difficulty) - 2) <= abs(rank(u.difficulty) - 2)


@pytest.mark.heavy
def test_killer_puzzles_come_at_a_requested_level() -> None:
    """Killer puzzles are graded by their cage sums, so difficulty.levels draws cages until the grade
    fits (before, every killer puzzle was unrated and no level could be asked for)."""
    from pipeline.board import Variant

    spec = Spec(size=9, symmetry="none", minimal=True, variant=Variant(("killer",)), levels=("hard",),
                max_attempts=60)
    for i in range(2):
        made = make_puzzle(spec, puzzle_seed(164, i))
        assert made.difficulty == "hard" and made.hints == 0 and made.certified
        assert grade(made.puzzle, made.solution, variant=made.variant).level == "hard"



@functools.cache
def _minimal() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A rot180 orbit-minimal puzzle and its grid (shared by the witness tests)."""
    made = make_puzzle(Spec(size=9, symmetry="rot180", minimal=True), puzzle_seed(23, 0))
    return made.puzzle, made.solution


def test_witnessed_checks_give_the_plain_answers_with_fewer_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    """The climb's witnessed check (second solutions kept and reused) answers every neighbour of a minimal
    puzzle as the plain counter does, and settles some of them without a search."""
    from pipeline.generate.removal import witnessed

    start, grid = _minimal()
    searches = 0
    real = count_jit.rows

    def counted(*args: object, **kwargs: object) -> tuple[int, np.ndarray]:
        nonlocal searches
        searches += 1
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(count_jit, "rows", counted)
    check = witnessed(lambda p: count_jit.count(p, 2) == 1, grid, "hybrid")
    given = [orb for orb in ORBITS if start[orb[0]]]
    asked = []
    for k, a in enumerate(given):  # blank one orbit, then one more: many are not unique in the same way
        one = tuple(0 if i in a else d for i, d in enumerate(start))
        asked.append(one)
        asked.extend(tuple(0 if i in b else d for i, d in enumerate(one)) for b in given[k + 1:])
    answers = [check(p) for p in asked]
    assert answers == [count_jit.count(p, 2) == 1 for p in asked]
    assert not any(answers)  # orbit-minimal: every one of them has a second solution
    assert searches < len(asked) // 2
    assert check(start)  # the puzzle itself is unique: no witness fits all its givens
    assert witnessed(check, grid, "ilp") is check  # the ILP engine's check is left as it is


def test_a_climb_with_witnessed_checks_is_the_climb_with_plain_ones() -> None:
    """Same draws, same answers: the climb asks the same candidates and ends on the same puzzle whichever
    check it is given (the grade here is the count of givens: only the checks are compared)."""
    from pipeline.generate.removal import witnessed

    start, grid = _minimal()

    def plain(p: tuple[int, ...]) -> bool:
        return count_jit.count(p, 2) == 1

    def by_givens(p: tuple[int, ...]) -> Grade:
        return _grade("hard", float(sum(1 for d in p if d)))

    runs = []
    for check in (plain, witnessed(plain, grid, "hybrid")):
        rated: list[tuple[int, ...]] = []

        def rate(p: tuple[int, ...], rated: list[tuple[int, ...]] = rated) -> Grade:
            rated.append(p)
            return by_givens(p)

        end, _ = climb(check, rate, lambda g: (1, g.score), grid, start, by_givens(start), ORBITS, set(),
                       np.random.default_rng(3), steps=40)  # fewer givens is closer, never reached
        runs.append((end, rated))
    assert runs[0] == runs[1]
    assert len(runs[0][1]) >= 20  # most of the 40 steps made a new candidate, each asked in the same order
