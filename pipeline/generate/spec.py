"""What to make and from which seed: the :class:`Spec` (plain data the run builds from the config and
ships to the workers), the puzzle seeds of a set, the symmetry group a puzzle uses, and the rows of a
designed grid (:func:`design_of`)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pipeline import symmetry
from pipeline.board import Grid, Variant
from pipeline.difficulty.techniques import GRADER_VERSION, UNRATED
from pipeline.generate.version import GENERATOR_VERSION
from pipeline.ilp.model import Area, AreaRule, Design


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
    design: Design | None = None  # rows the solution grid must honour (grid.solution_symmetry, grid.areas)
    pattern: tuple[int, ...] | None = None  # removal.pattern: exactly these cells (sorted) are the givens
    variant: Variant | None = None  # board.variant's rules (None: classic); a killer set's cages are drawn per puzzle
    cage_sizes: tuple[int, int] = (2, 5)  # board.cages.min_size, max_size
    cage_singles: bool = False  # board.cages.singles
    killer_givens: bool = False  # board.cages.givens
    steer: bool = False  # difficulty.steer: a grade outside the range starts a local search on the same grid
    # difficulty.steer with a quota: the levels a puzzle is steered toward, each as often as its share of the
    # quota (:meth:`target` picks one per seed); None otherwise
    steer_pool: tuple[str, ...] | None = None
    logic_only: bool = False  # difficulty.logic_only: refuse a puzzle whose grade needs trial and error
    # difficulty.technique: keep only puzzles made for one of these techniques (pipeline.config.technique),
    # steered toward them (pipeline.generate.technique); None otherwise
    techniques: tuple[str, ...] | None = None
    # the grader version whose rules grade the puzzles (a set keeps the one it began with; the plan settles it)
    grader: int = GRADER_VERSION
    # the generator version whose rules make the puzzles (a set keeps the one it began with; the plan settles it)
    generator: int = GENERATOR_VERSION

    @property
    def killer(self) -> bool:
        return self.variant is not None and "killer" in self.variant.kinds

    def target(self, seed: int) -> str | None:
        """The level a quota run steers the puzzle of ``seed`` toward (None without :attr:`steer_pool`):
        ``steer_pool[seed % len]``, so the targets follow the quota's shares and depend on the seed only."""
        return self.steer_pool[seed % len(self.steer_pool)] if self.steer_pool else None

    def grade_decides(self, seed: int) -> bool:
        """True when the grade decides which puzzle ``seed`` gets: a level or score range, ``logic_only``,
        a quota's target level (:meth:`target`) or a technique target (only these make an attempt
        reject or steer a puzzle by its grade). False: the grade only describes the puzzle, so it can
        be computed after the puzzle is made (``make_puzzle(..., grade=False)``) with the same result."""
        return (self.levels is not None or self.score_min is not None or self.score_max is not None
                or self.logic_only or self.techniques is not None or self.target(seed) is not None)

    def wants(self, level: str, score: float, guesses: int = 0) -> bool:
        """True when a puzzle of this grade is in the requested difficulty range (and, with
        ``logic_only``, its grade finished it by logic: no trial-and-error step, not unrated)."""
        return ((self.levels is None or level in self.levels)
                and not (self.logic_only and (guesses or level == UNRATED))
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



def design_of(n: int, image: tuple[str, tuple[int, ...]] | None,
              areas: Sequence[tuple[tuple[int, ...], tuple[int, ...], AreaRule]] = ()) -> Design | None:
    """The designed-grid rows for a board of side ``n``: ``image`` is (a map of
    :data:`pipeline.symmetry.MAPS`, the digit map ``p`` as ``(p(1), ..., p(n))``) or None; ``areas``
    are (cells, digits, rule) triples. None when there is nothing to design (a classic grid)."""
    if image is None and not areas:
        return None
    cell_map = symmetry.permutation(image[0], n) if image is not None else None
    digit_map = tuple(image[1]) if image is not None else None
    return Design(cell_map, digit_map, tuple(Area(tuple(sorted(c)), tuple(sorted(d)), r) for c, d, r in areas))



def requested_symmetry(spec: Spec, seed: int) -> str:
    """The group used for this puzzle: the spec's, or for ``random`` one drawn from the seed."""
    if spec.symmetry != "random":
        return spec.symmetry
    rng = np.random.default_rng([seed, 0x5EED])
    return symmetry.TAGS[int(rng.integers(len(symmetry.TAGS)))]
