"""One written puzzle checked: :func:`verify_puzzle` on its columns, :func:`verify_row` on a row.

``verify_puzzle`` and ``verify_row`` return a list of problems (empty = sound), one line each naming
what and where (``cage 3 sums to 17 in the solution but says 18``, ``hints says 30 but the puzzle
has 29 givens``, ``puzzle has more than one solution``); they never raise for bad data. The columns
read are the parameters of :func:`verify_puzzle`, named as in the Parquet contract
(``docs/output.md``). The symmetry tag of the givens is recomputed here from the eight maps'
definitions (:func:`layout_tag`), and the uniqueness count comes from the compiled counter
:mod:`pipeline.verify.count_jit`, loaded on the first compiled count; where
:func:`pipeline.compiled.use_compiled` says Python (a one-shot command) classic puzzles up to 9x9 are
counted by the pure-Python counter of :mod:`pipeline.verify.count` instead (same answers, no compiler).
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any

from pipeline.board import Board, Grid, PuzzleFormatError, board, parse
from pipeline.compiled import use_compiled
from pipeline.verify.rules import Rules, grid_problems, repeated, rules_for

# The eight position maps and ten groups, written again on purpose: the verifier stays independent of symmetry.py.
_MAPS = {
    "identity": lambda r, c, n: (r, c),
    "rot90": lambda r, c, n: (c, n - 1 - r),
    "rot180": lambda r, c, n: (n - 1 - r, n - 1 - c),
    "rot270": lambda r, c, n: (n - 1 - c, r),
    "mirror-h": lambda r, c, n: (n - 1 - r, c),
    "mirror-v": lambda r, c, n: (r, n - 1 - c),
    "mirror-d": lambda r, c, n: (c, r),
    "mirror-a": lambda r, c, n: (n - 1 - c, n - 1 - r),
}
_TAGS = {
    frozenset({"identity"}): "none",
    frozenset({"identity", "rot180"}): "rot180",
    frozenset({"identity", "rot90", "rot180", "rot270"}): "rot90",
    frozenset({"identity", "mirror-h"}): "mirror-h",
    frozenset({"identity", "mirror-v"}): "mirror-v",
    frozenset({"identity", "mirror-d"}): "mirror-d",
    frozenset({"identity", "mirror-a"}): "mirror-a",
    frozenset({"identity", "mirror-h", "mirror-v", "rot180"}): "orthogonal",
    frozenset({"identity", "mirror-d", "mirror-a", "rot180"}): "diagonal",
    frozenset(_MAPS): "full",
}


def layout_tag(puzzle: Grid, n: int) -> str:
    """Symmetry tag of the given cells of ``puzzle``, from first principles."""
    given = {(i // n, i % n) for i, d in enumerate(puzzle) if d}
    fixing = frozenset(name for name, f in _MAPS.items() if all(f(r, c, n) in given for r, c in given))
    return _TAGS[fixing]


#: Columns of the Parquet contract that a classic row may lack (absent or null: classic, no regions,
#: no cages); every other parameter of :func:`verify_puzzle` is a required column.
OPTIONAL_COLUMNS = ("variant", "regions", "cages")


def verify_row(row: Mapping[str, Any]) -> list[str]:
    """:func:`verify_puzzle` on the values of ``row`` under the names of its parameters (a row of the
    Parquet contract); a missing or null required value is itself a problem, while ``variant``,
    ``regions`` and ``cages`` may be absent or null (a classic row). Never raises for bad data."""
    names = list(inspect.signature(verify_puzzle).parameters)
    required = [k for k in names if k not in OPTIONAL_COLUMNS]
    missing = [k for k in required if row.get(k) is None]
    if missing:
        return [f"missing column(s): {', '.join(missing)}"]
    values: dict[str, Any] = {k: row[k] for k in required} | {k: row.get(k) for k in OPTIONAL_COLUMNS}
    return verify_puzzle(**values)


def verify_puzzle(size: int, puzzle: str, solution: str, hints: int, symmetry: str, symmetry_requested: str,
                  variant: Any = None, regions: Any = None, cages: Any = None) -> list[str]:
    """Problems with one written puzzle (empty = sound): the variant columns describe rules that fit
    the board (:func:`rules_for`), the solution is a valid grid under them (cages: no digit twice,
    the sum), the givens agree with it, there are ``hints`` of them, their layout has tag
    ``symmetry`` and at least the group ``symmetry_requested``, and the puzzle has exactly one
    solution under the rules. ``variant`` is the list of kinds ([] or None: classic), ``regions`` the
    jigsaw labels, ``cages`` the killer cages as ``{"cells": [...], "sum": s}``."""
    try:
        b = board(int(size))
        grid = parse(str(puzzle), b.n)
        answer = parse(str(solution), b.n)
    except (ValueError, PuzzleFormatError) as exc:
        return [str(exc)]
    rules, problems = rules_for(b.n, variant, regions, cages)
    if rules is not None:
        problems += grid_problems(answer, rules)
    disagree = [i for i, d in enumerate(grid) if d and d != answer[i]]
    if disagree:
        r, c = divmod(disagree[0], b.n)
        problems.append(f"given at row {r + 1}, column {c + 1} disagrees with the solution")
    if rules is not None:
        for k, (cells, total) in enumerate(rules.cages):
            twice = repeated(grid, cells, b.n)
            if twice:
                problems.append(f"cage {k + 1} has {twice} among its givens")
            given = sum(grid[i] for i in cells)
            if given > total or (given != total and all(grid[i] for i in cells)):
                problems.append(f"cage {k + 1}'s givens add up to {given} but the cage says {total}")
    k = sum(1 for d in grid if d)
    if k != int(hints):
        problems.append(f"hints says {hints} but the puzzle has {k} givens")
    tag = layout_tag(grid, b.n)
    if tag != symmetry:
        problems.append(f"symmetry says {symmetry} but the layout is {tag}")
    if symmetry_requested in _TAGS.values():
        want = next(g for g, t in _TAGS.items() if t == symmetry_requested)
        have = next(g for g, t in _TAGS.items() if t == tag)
        if not want <= have:
            problems.append(f"layout {tag} lacks the requested symmetry {symmetry_requested}")
    else:
        problems.append(f"unknown symmetry_requested {symmetry_requested!r}")
    if not problems and rules is not None:
        if rules.classic and b.n <= 9 and not use_compiled(b.n):
            from pipeline.verify.count import independent_count

            count = independent_count(grid, b, limit=2)
        else:
            count = _count_compiled(grid, b, rules)
        if count != 1:
            problems.append("puzzle has no solution" if count == 0 else "puzzle has more than one solution")
    return problems


def _count_compiled(grid: Grid, b: Board, rules: Rules) -> int:
    """Solutions of ``grid`` under ``rules``, up to 2, by the compiled counter."""
    from pipeline.verify import count_jit  # numba is loaded on the first compiled count, not on import

    if rules.classic:
        return count_jit.independent_count(grid, b, limit=2)
    return count_jit.independent_count(grid, b, limit=2, boxes=rules.boxes, extra=rules.extra, cages=rules.cages)
