"""The independent checker that guards everything written (after Norvig's ``is_solution``).

It knows nothing of the integer program, HiGHS or :mod:`pipeline.symmetry`, nor of the removal loop's
compiled counter: the symmetry tag is recomputed here from the eight maps' definitions, and the
uniqueness count comes from :mod:`pipeline.verify_fast`, a compiled dancing-links (exact-cover)
search written apart from every counter it checks. :func:`count_solutions` here, a plain bitmask
backtracking search (singles propagation, fewest-candidates cell first) in pure Python, is that
counter's test oracle and the reference for its contract; it costs seconds on a 16x16 puzzle where the
compiled one takes tens of milliseconds (``bench/profile_phases.py``). If the ILP engine or the
removal loop has a bug, this module is meant to disagree with it.

``verify_puzzle`` and ``verify_row`` return a list of problems (empty = sound); they never raise for
bad data. The verifier keeps its own copy of the *checks* on purpose; the columns it reads are the
parameters of :func:`verify_puzzle`, named as in the Parquet contract.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pipeline.board import Board, Grid, PuzzleFormatError, board, parse

# The eight maps of DESIGN.md, written out again on purpose (independence from symmetry.py).
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


def is_valid_solution(grid: Grid, b: Board) -> bool:
    """Every unit of ``grid`` holds each digit 1..n exactly once."""
    full = set(range(1, b.n + 1))
    return len(grid) == b.ncells and all({grid[i] for i in u} == full for u in b.units)


def count_solutions(puzzle: Grid, b: Board, limit: int = 2) -> int:
    """Number of solutions of ``puzzle`` capped at ``limit >= 1`` (0 for contradictory givens). Pure
    Python, exact, no node budget: the oracle that
    :func:`pipeline.verify_fast.count_solutions` must agree with (``tests/test_verify_fast.py``)."""
    full = (1 << b.n) - 1
    peers = [list(p) for p in b.peers]
    cand = [full] * b.ncells
    for i, d in enumerate(puzzle):
        if d:
            bit = 1 << (d - 1)
            if not cand[i] & bit:
                return 0
            cand[i] = bit
            for j in peers[i]:
                cand[j] &= ~bit
    if any(c == 0 for c in cand):
        return 0
    return min(_search(cand, _Geometry(peers, [list(u) for u in b.units], full, b.n), limit), limit)


@dataclass(frozen=True)
class _Geometry:
    peers: list[list[int]]
    units: list[list[int]]
    full: int  # the mask of all n digits
    n: int


def _propagate(c: list[int], g: _Geometry) -> bool:
    """Naked and hidden singles to a fixpoint, in place; False on contradiction."""
    changed = True
    while changed:
        changed = False
        for i in range(len(c)):
            v = c[i]
            if v == 0:
                return False
            if v & (v - 1) == 0:
                for j in g.peers[i]:
                    if c[j] & v:
                        c[j] &= ~v
                        if c[j] == 0:
                            return False
                        changed = True
        for u in g.units:
            seen = once = 0
            for i in u:
                once = (once & ~c[i]) | (c[i] & ~seen)
                seen |= c[i]
            if seen != g.full:
                return False
            for i in u:
                h = c[i] & once
                if h and c[i] != h:
                    if h & (h - 1):
                        return False
                    c[i] = h
                    changed = True
    return True


def _search(c: list[int], g: _Geometry, limit: int) -> int:
    """Solutions below candidate state ``c`` (modified), counted up to ``limit``: propagate, then
    branch on the cell with fewest candidates."""
    if not _propagate(c, g):
        return 0
    best, best_k = -1, g.n + 1
    for i, v in enumerate(c):
        k = bin(v).count("1")
        if 1 < k < best_k:
            best, best_k = i, k
    if best < 0:
        return 1
    found = 0
    v = c[best]
    while v and found < limit:
        bit = v & -v
        v ^= bit
        nc = c[:]
        nc[best] = bit
        found += _search(nc, g, limit - found)
    return found


def verify_row(row: Mapping[str, Any]) -> list[str]:
    """:func:`verify_puzzle` on the values of ``row`` under the names of its parameters (a row of the
    Parquet contract); a missing or null value is itself a problem. Never raises for bad data."""
    names = list(inspect.signature(verify_puzzle).parameters)
    missing = [k for k in names if row.get(k) is None]
    if missing:
        return [f"missing column(s): {', '.join(missing)}"]
    return verify_puzzle(**{k: row[k] for k in names})


def verify_puzzle(size: int, puzzle: str, solution: str, hints: int, symmetry: str,
                  symmetry_requested: str) -> list[str]:
    """Problems with one written puzzle (empty = sound): the solution is a valid grid, the givens
    agree with it, there are ``hints`` of them, their layout has tag ``symmetry`` and at least the
    group ``symmetry_requested``, and the puzzle has exactly one solution."""
    try:
        b = board(int(size))
        grid = parse(str(puzzle), b.n)
        answer = parse(str(solution), b.n)
    except (ValueError, PuzzleFormatError) as exc:
        return [str(exc)]
    problems = []
    if not is_valid_solution(answer, b):
        problems.append("solution is not a valid grid")
    disagree = [i for i, d in enumerate(grid) if d and d != answer[i]]
    if disagree:
        r, c = divmod(disagree[0], b.n)
        problems.append(f"given at row {r + 1}, column {c + 1} disagrees with the solution")
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
    if not problems:
        from pipeline import verify_fast  # numba is loaded on the first count, not on import

        count = verify_fast.count_solutions(grid, b, limit=2)
        if count != 1:
            problems.append("puzzle has no solution" if count == 0 else "puzzle has more than one solution")
    return problems
