"""The verifier's compiled solution counter: Knuth's dancing links (DLX) on the exact-cover matrix.

:func:`count_solutions` has the contract of :func:`pipeline.verify.count_solutions` (the pure-Python
counter, kept as this one's test oracle) and gives the same numbers; :mod:`pipeline.verify` asks it
for the uniqueness count of every written puzzle, where the pure-Python search costs seconds on a
16x16 board.

It is written apart from the counters it checks, on purpose, and shares no code or scheme with them:
the ILP (:mod:`pipeline.ilp`) and the removal loop's counter (:mod:`pipeline.generate.fastcount`,
bitmask candidates with singles propagation, branching on cells only) may not be imported here, and
this module does not propagate candidates at all. Sudoku is stated as an exact cover instead:

* an *option* is a placement (cell, digit), ``n**3`` of them; option ``o = cell * n + digit - 1``;
* an *item* is a constraint to be met exactly once, ``4 * n**2`` of them: each cell holds one digit,
  each row / column / box holds each digit once;
* a solution is a set of options that covers every item exactly once (Knuth, "Dancing links", 2000,
  algorithm X with the minimum-remaining-values item choice).

The matrix is a toroidal doubly linked list in flat integer arrays (node 0 is the root, nodes
``1..4n**2`` the item headers, then four nodes per option). Each call copies the pristine links of
its board, selects the givens' options, then runs algorithm X iteratively (numba does not recurse
well) until ``limit`` solutions are found or the tree is exhausted. The item with the fewest options
is chosen at each node, so an item with one option (a naked or hidden single) is a forced move and
an item with none is a dead end. Cost: about ``n**3`` words per call to copy the links; the first
call in a process loads the kernels from numba's on-disk cache (compiled once, ``cache=True``).

Not validated beyond the grid's length and its digits' range: a grid of other than ``n * n`` cells, or
a digit outside ``0..n``, raises :class:`ValueError`.

Roads not taken: counting with the pure-Python counter alone (about 2.8 s per 16x16 puzzle, up to
20 s; this takes about 0.02 s); asking :mod:`pipeline.generate.fastcount` (then the removal loop's
decisions and the check of them would share every bug); a second bitmask search with another
propagation (the exact-cover statement differs more, and its branching on the scarcest item, a cell
or a digit's places in a unit, also beats cell-only branching on hard 16x16 puzzles).
"""

from __future__ import annotations

from functools import cache

import numba as nb
import numpy as np

from pipeline.board import Board, Grid

_ROOT = 0


@cache
def _links(n: int, box_rows: int, box_cols: int) -> tuple[np.ndarray, ...]:
    """Pristine links of the board's exact-cover matrix: ``(left, right, up, down, item, size)``.

    Item headers are nodes ``1..4n**2``: cell items first, then row-digit, column-digit and
    box-digit items. Option ``o`` owns nodes ``first + 4o .. first + 4o + 3`` (one per item it
    covers, in that order) with ``first = 4n**2 + 1``; each item's column lists its options in
    increasing ``o``. Every item has exactly ``n`` options. Read-only: callers copy what they change.
    """
    n2 = n * n
    nitems = 4 * n2
    first = nitems + 1
    option = np.arange(n2 * n)
    cell, d = np.divmod(option, n)
    r, c = np.divmod(cell, n)
    box = (r // box_rows) * (n // box_cols) + c // box_cols
    covers = np.stack([1 + cell, 1 + n2 + r * n + d, 1 + 2 * n2 + c * n + d, 1 + 3 * n2 + box * n + d], axis=1)
    nodes = first + 4 * option[:, None] + np.arange(4)  # nodes[o, k] meets item covers[o, k]
    total = first + 4 * n2 * n
    headers = np.arange(nitems + 1)
    left = np.empty(total, dtype=np.int32)
    right = np.empty(total, dtype=np.int32)
    up = np.empty(total, dtype=np.int32)
    down = np.empty(total, dtype=np.int32)
    item = np.empty(total, dtype=np.int32)
    # the header list, a ring: root <-> 1 <-> ... <-> nitems <-> root
    left[: nitems + 1] = np.roll(headers, 1)
    right[: nitems + 1] = np.roll(headers, -1)
    item[: nitems + 1] = headers
    # each option's four nodes, a ring
    left[nodes] = np.roll(nodes, 1, axis=1)
    right[nodes] = np.roll(nodes, -1, axis=1)
    item[nodes] = covers
    # each item's column, a ring through its header: its n nodes in increasing node order
    flat = nodes.ravel()
    column = flat[np.argsort(covers.ravel(), kind="stable")].reshape(nitems, n)
    ring = np.concatenate([headers[1:, None], column], axis=1)  # header first
    up[ring] = np.roll(ring, 1, axis=1)
    down[ring] = np.roll(ring, -1, axis=1)
    up[_ROOT] = down[_ROOT] = _ROOT
    size = np.full(nitems + 1, n, dtype=np.int32)
    size[_ROOT] = 0
    for a in (left, right, up, down, item, size):
        a.flags.writeable = False
    return left, right, up, down, item, size


@nb.njit(cache=True, nogil=True)
def _cover(h: int, left: np.ndarray, right: np.ndarray, up: np.ndarray, down: np.ndarray,
           item: np.ndarray, size: np.ndarray) -> None:  # pragma: no cover - compiled
    """Take item ``h`` out of the header list and every option that covers it out of the other
    items' columns."""
    right[left[h]] = right[h]
    left[right[h]] = left[h]
    i = down[h]
    while i != h:
        j = right[i]
        while j != i:
            down[up[j]] = down[j]
            up[down[j]] = up[j]
            size[item[j]] -= 1
            j = right[j]
        i = down[i]


@nb.njit(cache=True, nogil=True)
def _uncover(h: int, left: np.ndarray, right: np.ndarray, up: np.ndarray, down: np.ndarray,
             item: np.ndarray, size: np.ndarray) -> None:  # pragma: no cover - compiled
    """Undo :func:`_cover` of ``h`` exactly (links restored in the reverse order)."""
    i = up[h]
    while i != h:
        j = left[i]
        while j != i:
            size[item[j]] += 1
            down[up[j]] = j
            up[down[j]] = j
            j = left[j]
        i = up[i]
    right[left[h]] = h
    left[right[h]] = h


@nb.njit(cache=True, nogil=True)
def _algorithm_x(givens: np.ndarray, limit: int, left: np.ndarray, right: np.ndarray, up: np.ndarray,
                 down: np.ndarray, item: np.ndarray, size: np.ndarray,
                 first: int) -> int:  # pragma: no cover - compiled
    """Exact covers that contain the options ``givens``, counted up to ``limit``; 0 when two givens
    share an item. Mutates the link arrays (the caller passes copies)."""
    nitems = first - 1
    covered = np.zeros(nitems + 1, dtype=np.bool_)
    for g in range(givens.shape[0]):
        x = first + 4 * givens[g]
        for k in range(4):
            if covered[item[x + k]]:
                return 0  # an item already met by another given: contradictory givens
        for k in range(4):
            covered[item[x + k]] = True
            _cover(item[x + k], left, right, up, down, item, size)
    depth_max = nitems // 4 + 1  # at most one option per cell below the givens
    item_at = np.empty(depth_max, dtype=np.int32)
    node_at = np.empty(depth_max, dtype=np.int32)
    level = 0
    found = 0
    enter = True  # True: a new node to expand at ``level``; False: try node_at[level]
    while True:
        if enter:
            if right[_ROOT] == _ROOT:  # every item met: a solution
                found += 1
                if found >= limit:
                    return found
                level -= 1
            else:
                best = right[_ROOT]
                fewest = size[best]
                h = right[best]
                while h != _ROOT and fewest > 1:
                    if size[h] < fewest:
                        best = h
                        fewest = size[h]
                    h = right[h]
                if fewest == 0:
                    level -= 1  # an item nothing can meet: dead end
                else:
                    _cover(best, left, right, up, down, item, size)
                    item_at[level] = best
                    node_at[level] = down[best]
                    enter = False
                    continue
            # back up one level: withdraw the option tried there and move to the next one
            if level < 0:
                return found
            r = node_at[level]
            j = left[r]
            while j != r:
                _uncover(item[j], left, right, up, down, item, size)
                j = left[j]
            node_at[level] = down[r]
            enter = False
            continue
        r = node_at[level]
        h = item_at[level]
        if r == h:  # every option of this item tried
            _uncover(h, left, right, up, down, item, size)
            level -= 1
            if level < 0:
                return found
            r = node_at[level]
            j = left[r]
            while j != r:
                _uncover(item[j], left, right, up, down, item, size)
                j = left[j]
            node_at[level] = down[r]
            continue
        j = right[r]  # select option r: cover the other items it meets
        while j != r:
            _cover(item[j], left, right, up, down, item, size)
            j = right[j]
        level += 1
        enter = True


def count_solutions(puzzle: Grid, b: Board, limit: int = 2) -> int:
    """Number of solutions of ``puzzle`` (a grid of ``b``, 0 = blank) capped at ``limit``; 0 for
    contradictory givens and for ``limit < 1``. Exact: no node budget, so a pathological puzzle
    costs what its search tree costs (as for the pure-Python oracle). Raises :class:`ValueError`
    for a grid of the wrong length or a digit outside ``0..b.n``."""
    n = b.n
    if len(puzzle) != n * n:
        raise ValueError(f"puzzle has {len(puzzle)} cells, expected {n * n}")
    grid = np.asarray(puzzle, dtype=np.int64)
    if grid.size and (grid.min() < 0 or grid.max() > n):
        raise ValueError(f"a digit is outside 0..{n}")
    if limit < 1:
        return 0
    cells = np.flatnonzero(grid)
    givens = (cells * n + grid[cells] - 1).astype(np.int64)
    left, right, up, down, item, size = _links(n, b.box_rows, b.box_cols)
    return int(_algorithm_x(givens, int(limit), left.copy(), right.copy(), up.copy(), down.copy(), item,
                            size.copy(), 4 * n * n + 1))
