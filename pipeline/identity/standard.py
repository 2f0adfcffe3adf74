"""The standard form of a 9x9 grid: how many grids there are, which sequences are grids, and the
``(A, B, C, S)`` that every grid is exactly one of.

Vocabulary (see :mod:`pipeline.board`): a grid is a row-major 81-tuple of digits 1..9.

A grid is *standardized* by (1) relabelling digits so box 1 reads 1..9 in reading order,
(2) arranging the columns of stacks 2-3 so each stack's row-1 triple is ascending and the stack with
the smaller row-1 entry comes first (72 arrangements), (3) likewise arranging the rows of bands 2-3
by column 1 (72 arrangements). The three steps commute and act freely, so every grid is exactly one
``(A, B, C, S)``: ``A`` the rank of box 1's permutation (0..9!-1), ``B``/``C`` the row-1/column-1
arrangement numbers (0..71) and ``S`` a standardized grid; hence ``N0 = 9! * 72**2 * N2``.

Arrangement numbers: ``B = swap * 36 + x2 * 6 + x3`` where ``swap`` is 1 when the grid's stack 2 is
the standardized grid's stack 3, and ``x2``/``x3`` are the lexicographic indices (in
``itertools.permutations(range(3))`` order) of the column orders of the grid's stacks 2 and 3 relative
to the ascending order. ``C`` is the same for bands 2-3 read down column 1. ``A`` is the
lexicographic rank of box 1 read as a permutation of 1..9.

Everything here is exact integer work on tuples; nothing is cached or read from disk.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Sequence

from pipeline.board import Grid, conflict

#: Standardized 9x9 grids (box 1 = 1..9, row 1 and column 1 arranged); Felgenhauer & Jarvis.
N2 = 3_546_146_300_288
#: Grids with a given box 1 (``N0 / 9!``).
N1 = 72 * 72 * N2
#: All 9x9 Sudoku grids.
N0 = math.factorial(9) * N1

#: The nine digits.
DIGITS = frozenset(range(1, 10))
#: The six orders of three things, in ``itertools.permutations`` (lexicographic) order.
PERMS3: tuple[tuple[int, ...], ...] = tuple(itertools.permutations(range(3)))
_PERM3_INDEX = {p: i for i, p in enumerate(PERMS3)}
#: Cell indices of box 1 in reading order.
BOX1 = (0, 1, 2, 9, 10, 11, 18, 19, 20)
_FACT = [math.factorial(k) for k in range(10)]

# a digit d in cell i offset by 16 * (its row / column / box): 81 distinct values iff each unit holds d once
_ROW_KEY = tuple(16 * (i // 9) for i in range(81))
_COL_KEY = tuple(16 * (i % 9) for i in range(81))
_BOX_KEY = tuple(16 * (3 * (i // 27) + (i % 9) // 3) for i in range(81))


def check_grid(grid: Sequence[int]) -> Grid:
    """``grid`` as a tuple if it is a complete valid 9x9 grid, else ``ValueError`` saying why."""
    try:
        g = tuple(map(operator.index, grid))
    except TypeError:
        raise ValueError("a grid must be a sequence of 81 integer digits 1..9") from None
    if len(g) != 81:
        raise ValueError(f"a 9x9 grid has 81 cells, got {len(g)}")
    if min(g) < 1 or max(g) > 9:
        i = next(i for i, d in enumerate(g) if not 1 <= d <= 9)
        r, c = divmod(i, 9)
        what = "a blank" if g[i] == 0 else f"{g[i]}"
        raise ValueError(f"a complete grid needs digits 1..9; row {r + 1}, column {c + 1} holds {what}")
    if (
        len(set(map(operator.add, _ROW_KEY, g))) == 81
        and len(set(map(operator.add, _COL_KEY, g))) == 81
        and len(set(map(operator.add, _BOX_KEY, g))) == 81
    ):
        return g
    raise ValueError(f"not a valid Sudoku grid: {conflict(g)}")


def perm_rank(p: Sequence[int]) -> int:
    """Lexicographic rank of a permutation of ``1..len(p)`` (Lehmer code)."""
    n = len(p)
    rank = 0
    used = 0
    for i, x in enumerate(p):
        smaller = (x - 1) - bin(used & ((1 << (x - 1)) - 1)).count("1")
        rank += smaller * _FACT[n - 1 - i]
        used |= 1 << (x - 1)
    return rank


def perm_unrank(rank: int, n: int = 9) -> tuple[int, ...]:
    """Inverse of :func:`perm_rank`: the permutation of ``1..n`` with that lexicographic rank."""
    pool = list(range(1, n + 1))
    out = []
    for i in range(n - 1, -1, -1):
        q, rank = divmod(rank, _FACT[i])
        out.append(pool.pop(q))
    return tuple(out)


def inverse(p: Sequence[int]) -> tuple[int, ...]:
    """The inverse of the permutation ``p`` of ``0..len(p)-1``."""
    inv = [0] * len(p)
    for i, x in enumerate(p):
        inv[x] = i
    return tuple(inv)


def _arrangement(a: int) -> tuple[int, ...]:
    """Source index (0..8) in standard order for each position 0..8, for arrangement number ``a``."""
    swap, x2, x3 = a // 36, (a // 6) % 6, a % 6
    stk = (1, 0) if swap else (0, 1)
    src = [0, 1, 2]
    for s, x in ((0, x2), (1, x3)):
        src.extend(3 + 3 * stk[s] + PERMS3[x][i] for i in range(3))
    return tuple(src)


#: ``ARRANGEMENTS[a]``: for arrangement number ``a`` (0..71), the source index in standard order
#: of each of the 9 positions of row 1 (or column 1); see the module docstring.
ARRANGEMENTS = tuple(_arrangement(a) for a in range(72))


def arrangement_of(v: Sequence[int]) -> int:
    """Arrangement number of the six values ``v`` (positions 3..8 of row 1 or column 1)."""
    s0, s1 = v[0:3], v[3:6]
    ranks = []
    for t in (s0, s1):
        srt = sorted(t)
        ranks.append(_PERM3_INDEX[(srt.index(t[0]), srt.index(t[1]), srt.index(t[2]))])
    return (36 if min(s0) > min(s1) else 0) + ranks[0] * 6 + ranks[1]


def standardize(g: Grid) -> tuple[int, int, int, list[int]]:
    """``(A, B, C, S)`` of a valid grid (module docstring); ``S`` as a list of 81 digits."""
    box = [g[i] for i in BOX1]
    a = perm_rank(box)
    sig = [0] * 10
    for k, d in enumerate(box):
        sig[d] = k + 1
    g1 = [sig[d] for d in g]
    b = arrangement_of(g1[3:9])
    c = arrangement_of([g1[9 * r] for r in range(3, 9)])
    colsrc, rowsrc = ARRANGEMENTS[b], ARRANGEMENTS[c]
    s = [0] * 81
    for r in range(9):
        base = 9 * rowsrc[r]
        for j in range(9):
            s[base + colsrc[j]] = g1[9 * r + j]
    return a, b, c, s


def unstandardize(a: int, b: int, c: int, s: Sequence[int]) -> Grid:
    """The grid whose :func:`standardize` is ``(a, b, c, s)`` (``s`` a standardized grid)."""
    box = perm_unrank(a)
    colsrc, rowsrc = ARRANGEMENTS[b], ARRANGEMENTS[c]
    out = []
    for r in range(9):
        base = 9 * rowsrc[r]
        for j in range(9):
            out.append(box[s[base + colsrc[j]] - 1])
    return tuple(out)
