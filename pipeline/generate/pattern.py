"""Clue patterns (``removal.pattern``): the givens are a drawn set of cells, not what removal leaves.

A pattern puzzle is made by the attempt loop of :func:`pipeline.generate.puzzle.make_puzzle`: each
attempt takes that attempt's grid (step 1 as for every puzzle: the weighted ILP with its random
transform, or for a designed grid the ILP with the design's rows and no transform), keeps exactly the
pattern's cells as givens (:func:`cut`) and asks the removal check whether that puzzle is unique
(:func:`fits`). The check is the one removal uses (the compiled counter, the ILP where the counter's
node budget runs out or with ``engine: ilp``); the finished puzzle is then graded, flagged and
certified by the ILP like every other, and verified independently before it is written. A grid that
does not fit costs one attempt; ``removal.max_attempts`` bounds the search, and the row's
``attempts`` (and the run's totals) say how many grids it took.

How often a grid fits depends on the picture: with 9x9 random grids a 33-given heart fits about one
grid in ten, a 35-given one one in five, while a 31-given outline heart whose bottom boxes hold one
given each fitted none of 1,000 (``docs/variants.md`` "Clue patterns"). The config
refuses what cannot fit at all (:mod:`pipeline.config`): fewer givens than the known minimum, or two
rows of one band (two columns of one stack) without a given, since swapping them in any solution
gives a second one.

Roads not taken: *steering the grid IP* away from a failed grid, by a cut that forbids the digits the
grid had on the cells where a second solution differed (an unavoidable set inside the blanks): a fresh
random-weight grid almost never repeats those exact digits, so the cuts buy little, and they would
make each grid depend on the attempts before it. *Several group transforms of one ILP grid per
attempt* (a transform costs microseconds, the IP grid about 30 ms): cheaper candidates for plain
grids, but a transform breaks a designed grid's rows, and "attempt" would then mean two things.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from pipeline.board import Grid


def cut(grid: Grid, cells: Iterable[int]) -> Grid:
    """The puzzle whose givens are ``grid``'s digits on ``cells`` (every other cell blank)."""
    keep = set(cells)
    return tuple(d if i in keep else 0 for i, d in enumerate(grid))


def fits(unique: Callable[[Grid], bool], grid: Grid, cells: Iterable[int]) -> Grid | None:
    """The pattern's puzzle cut from ``grid`` if ``unique`` says it has one solution, else None.

    ``unique`` is the removal check of :func:`pipeline.generate.removal.checker` (for ``engine: ilp``
    it needs the grid's no-good row installed); it may raise
    :class:`~pipeline.ilp.engine.SolverTimeout`."""
    puzzle = cut(grid, cells)
    return puzzle if unique(puzzle) else None
