"""The verifier's compiled solution counter: Knuth's dancing links (DLX) on the exact-cover matrix.

The compiled twin of :mod:`pipeline.verify.count`: :func:`independent_count` has the contract of
:func:`pipeline.verify.count.independent_count` (the pure-Python counter, kept as this one's test oracle)
and gives the same numbers; :func:`pipeline.verify.verify_puzzle` asks it for the uniqueness count of
every written puzzle, where the pure-Python search costs seconds on a 16x16 board.

It is written apart from the counters it checks, on purpose, and shares no code or scheme with them:
the ILP (:mod:`pipeline.ilp`) and the removal loop's counter (:mod:`pipeline.generate.count_jit`,
bitmask candidates with singles propagation, branching on cells only) may not be imported here, nor
may board.py's variant units and peers be read (the caller states the rules:
:func:`pipeline.verify.rules_for` builds them from first principles), and but for killer sums
(below) this module does not propagate candidates at all. Sudoku is stated as an exact cover instead:

* an *option* is a placement (cell, digit), ``n**3`` of them; option ``o = cell * n + digit - 1``;
* a *primary item* is a constraint to be met exactly once: each cell holds one digit, each row /
  column / box holds each digit once (``4 * n**2`` items); on a jigsaw board the regions' items
  replace the boxes' (``boxes``); each extra unit of ``n`` cells (the x diagonals, the hyper windows:
  ``extra``) adds ``n`` items "unit u holds digit d", exactly once, since a unit of ``n`` cells that
  holds no digit twice holds every digit once;
* a *secondary item* (Knuth's sense: met at most once, never chosen to branch on) is "killer cage c
  holds digit d", one per cage and digit (``cages``): no digit twice in a cage;
* a solution is a set of options that covers every primary item exactly once and no secondary item
  twice (Knuth, "Dancing links", 2000, algorithm X with the minimum-remaining-values item choice).

Killer sums are not exact cover. They are a filter inside the search, on *sum groups*: the cages,
and for each unit (row, column, box or region, extra unit) that holds whole cages, the rest of its
cells, which must add up to ``n(n+1)/2`` less those cages' sums (the "45 rule" of 9x9: implied by the
rules, so it changes no count, only the work). At every node each group with ``m`` open cells
missing ``need`` must be met by a set of ``m`` distinct digits adding up to ``need``, none placed in
the group yet, that its open cells can take one each (checked exactly up to 6 open cells; beyond,
each open cell must have a candidate in the set). An open cell's candidates are the digits of the live
options in its cell item's column; those in no such set are *hidden* (the option unlinked from every
column, restored on backtracking in reverse order, as covers are), so the minimum-remaining-values
choice sees the cages. A group that cannot be met is a dead end; a full cover meets every group
exactly (no open cell, nothing missing). Above 16x16 (no table of digit sets) only bounds are checked:
the open cells' smallest and largest candidates must bracket what is missing.

The matrix is a toroidal doubly linked list in flat integer arrays (node 0 is the root, nodes
``1..items`` the item headers, then each option's nodes in a row: ``4`` plus one per extra unit and
cage its cell is in; secondary headers are linked to themselves left and right, outside the root's
ring). Each call copies the pristine links of its statement, selects the givens' options, then runs
algorithm X iteratively (numba does not recurse well) until ``limit`` solutions are found or the tree
is exhausted. The item with the fewest options is chosen at each node, so an item with one option (a
naked or hidden single) is a forced move and an item with none is a dead end. Cost: about ``n**3``
words per call to copy the links; the first call in a process loads the kernels from numba's on-disk
cache (compiled once, ``cache=True``).

Not validated beyond the grid's length, its digits' range and the statement's shape: a grid of other than ``n * n``
cells, a digit outside ``0..n``, boxes that are not ``n`` groups of ``n`` cells covering the board, an extra unit of
other than ``n`` distinct cells, cages that overlap, leave the board or have no cells or more than ``n``, or a
variant board ``b`` without its rules raise :class:`ValueError`.

Roads not taken: counting with the pure-Python counter alone (seconds per 16x16 puzzle where this takes tens of
milliseconds: ``docs/benchmarks.md``); asking :mod:`pipeline.generate.count_jit` (then the removal loop's decisions
and the check of them would share every bug); a second bitmask search with another propagation (the exact-cover
statement differs more, and its branching on the scarcest item, a cell or a digit's places in a unit, also beats
cell-only branching on hard 16x16 puzzles); killer sums as exact cover (one option per way to fill a cage multiplies
the matrix); checking the sums without hiding options (the item choice never sees the cages: minutes for one
zero-given 9x9 killer); the filter to a fixpoint, or with an exact matching per cell (fewer nodes, dearer ones: no
faster). Zero-given 9x9 killers with random cages of 2-5 cells take milliseconds each (``docs/benchmarks.md``)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

import numba as nb
import numpy as np

from pipeline.board import Board, Grid

_ROOT = 0
#: Boards up to this side get the sum filter (the table of digit sets by size and sum has 2**n
#: entries); a larger one (25x25, geometry only) gets the bounds check alone.
_FILTER_MAX_N = 16


@cache
def _combinations(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Every set of distinct digits 1..n as a mask (bit ``d-1`` is digit ``d``), grouped by (size,
    sum): the sets of ``m`` digits adding up to ``s`` are ``masks[by_key[key]:by_key[key + 1]]`` with
    ``key = m * (top + 1) + s``, ``top = n(n+1)/2``. Returns ``(masks, by_key)``; ``n <= 16`` only."""
    top = n * (n + 1) // 2
    mask = np.arange(1 << n, dtype=np.int64)
    bits = (mask[:, None] >> np.arange(n)) & 1
    key = bits.sum(axis=1) * (top + 1) + bits @ np.arange(1, n + 1)
    order = np.argsort(key, kind="stable")
    start = np.searchsorted(key[order], np.arange((n + 1) * (top + 1) + 1)).astype(np.int64)
    masks = mask[order]
    masks.flags.writeable = False
    start.flags.writeable = False
    return masks, start


@cache
def _classic_box_of(n: int, box_rows: int, box_cols: int) -> tuple[int, ...]:
    return tuple((i // n // box_rows) * (n // box_cols) + (i % n) // box_cols for i in range(n * n))


@lru_cache(maxsize=64)
def _links(n: int, box_of: tuple[int, ...], extra: tuple[tuple[int, ...], ...],
           cage_of: tuple[int, ...], ncages: int) -> tuple[np.ndarray, ...]:
    """Pristine links of one statement's exact-cover matrix: ``(left, right, up, down, item, size,
    option_of, option_first, option_len)``.

    Item headers are nodes ``1..items``: cell items first, then row-digit, column-digit, box-digit
    (region-digit) and extra-unit-digit items (the primary ones, in the root's ring), then the
    cage-digit items (secondary). Option ``o`` owns the ``option_len[o]`` nodes from
    ``option_first[o]``, one per item it covers, in that order; each item's column lists its options
    in increasing ``o``. Read-only: callers copy what they change.
    """
    n2, n3 = n * n, n * n * n
    units_of: list[list[int]] = [[] for _ in range(n2)]  # the extra units of each cell
    for u, cells in enumerate(extra):
        for i in cells:
            units_of[i].append(u)
    ext = np.full((n2, max(1, *map(len, units_of))), -1, dtype=np.int64)
    for i, us in enumerate(units_of):
        ext[i, : len(us)] = us
    primary = 4 * n2 + len(extra) * n
    nitems = primary + ncages * n
    option = np.arange(n3, dtype=np.int64)
    cell, d = np.divmod(option, n)
    r, c = np.divmod(cell, n)
    box = np.asarray(box_of, dtype=np.int64)[cell]
    cage = np.asarray(cage_of, dtype=np.int64)[cell]
    table = np.column_stack([1 + cell, 1 + n2 + r * n + d, 1 + 2 * n2 + c * n + d, 1 + 3 * n2 + box * n + d,
                             np.where(ext[cell] >= 0, 1 + 4 * n2 + ext[cell] * n + d[:, None], -1),
                             np.where(cage >= 0, 1 + primary + cage * n + d, -1)])
    valid = table >= 0  # option o covers the items table[o, valid[o]], in that order
    covers = table[valid]
    option_len = valid.sum(axis=1).astype(np.int32)
    option_first = (nitems + 1 + np.concatenate([[0], np.cumsum(option_len)[:-1]])).astype(np.int32)
    nodes = nitems + 1 + np.arange(covers.size)
    owner = np.repeat(option, option_len)  # the option of each node
    pos = nodes - option_first[owner]
    total = nitems + 1 + covers.size
    left = np.empty(total, dtype=np.int32)
    right = np.empty(total, dtype=np.int32)
    up = np.empty(total, dtype=np.int32)
    down = np.empty(total, dtype=np.int32)
    item = np.empty(total, dtype=np.int32)
    option_of = np.full(total, -1, dtype=np.int32)
    headers = np.arange(primary + 1)
    # the primary header list, a ring: root <-> 1 <-> ... <-> primary <-> root; secondary headers alone
    left[: primary + 1] = np.roll(headers, 1)
    right[: primary + 1] = np.roll(headers, -1)
    secondary = np.arange(primary + 1, nitems + 1)
    left[secondary] = right[secondary] = secondary
    item[: nitems + 1] = np.arange(nitems + 1)
    item[nodes] = covers
    option_of[nodes] = owner
    # each option's nodes, a ring
    last = option_first[owner] + option_len[owner] - 1
    right[nodes] = np.where(nodes == last, option_first[owner], nodes + 1)
    left[nodes] = np.where(pos == 0, last, nodes - 1)
    # each item's column, a ring through its header: its nodes in increasing node order
    order = np.argsort(covers, kind="stable")
    col, at = covers[order], nodes[order]
    head = np.concatenate([[True], col[1:] != col[:-1]])
    tail = np.concatenate([col[1:] != col[:-1], [True]])
    up[at] = np.where(head, col, np.roll(at, 1))
    down[at] = np.where(tail, col, np.roll(at, -1))
    down[col[head]] = at[head]
    up[col[tail]] = at[tail]
    up[_ROOT] = down[_ROOT] = _ROOT
    size = np.bincount(covers, minlength=nitems + 1).astype(np.int32)
    size[_ROOT] = 0
    out = (left, right, up, down, item, size, option_of, option_first, option_len)
    for a in out:
        a.flags.writeable = False
    return out


@nb.njit(cache=True, nogil=True)
def _cover(h: int, left: np.ndarray, right: np.ndarray, up: np.ndarray, down: np.ndarray,
           item: np.ndarray, size: np.ndarray) -> None:  # pragma: no cover - compiled
    """Take item ``h`` out of the header list and every option that covers it out of the other
    items' columns (a secondary header is its own neighbour: the first two links change nothing)."""
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
def _hide(o: int, option_first: np.ndarray, option_len: np.ndarray, up: np.ndarray, down: np.ndarray,
          item: np.ndarray, size: np.ndarray) -> None:  # pragma: no cover - compiled
    """Take the live option ``o`` out of every column it is in."""
    f = option_first[o]
    for x in range(f, f + option_len[o]):
        down[up[x]] = down[x]
        up[down[x]] = up[x]
        size[item[x]] -= 1


@nb.njit(cache=True, nogil=True)
def _unhide(o: int, option_first: np.ndarray, option_len: np.ndarray, up: np.ndarray, down: np.ndarray,
            item: np.ndarray, size: np.ndarray) -> None:  # pragma: no cover - compiled
    """Undo :func:`_hide` of ``o`` exactly (links restored in the reverse order)."""
    f = option_first[o]
    for x in range(f + option_len[o] - 1, f - 1, -1):
        size[item[x]] += 1
        down[up[x]] = x
        up[down[x]] = x


@nb.njit(cache=True, nogil=True)
def _sums_filter(n: int, up: np.ndarray, down: np.ndarray, item: np.ndarray, size: np.ndarray,
                 option_of: np.ndarray, option_first: np.ndarray, option_len: np.ndarray, value: np.ndarray,
                 group_start: np.ndarray, group_cells: np.ndarray, group_total: np.ndarray, masks: np.ndarray,
                 by_key: np.ndarray, trail: np.ndarray, trail_len: np.ndarray, cand_of: np.ndarray,
                 scratch: np.ndarray, met: np.ndarray, bit_of: np.ndarray) -> bool:  # pragma: no cover - compiled
    """Whether every sum group (a killer cage, or the rest of a unit around the cages inside it:
    distinct cells with a known total) can still reach its total; hides (onto ``trail``) the options
    of its open cells that no way of reaching it uses.

    An open cell's candidates are the digits of the live options in its cell item's column. A group
    with ``m`` open cells missing ``need`` is met by a set ``S`` of ``m`` digits adding up to ``need``,
    none placed in the group, that its open cells can take one each (:func:`_matched`); an open cell
    keeps the candidates that are in some such ``S``. Without the table (``masks`` empty, side > 16)
    only bounds: the open cells' smallest and largest candidates bracket ``need``. A group with no
    open cell must match its total exactly.

    ``bit_of[x]`` is the digit bit of node ``x``'s option. ``met`` (one entry per cell of
    ``group_cells``) remembers each group's cells as they were when the group was last found to hold
    with nothing to hide (an open cell's candidates, a placed cell's ``-digit``): a group whose cells
    are as remembered holds again with nothing to hide (the check reads nothing else), so it is
    skipped; the verdicts, the hidden options and the node count are those of checking it again."""
    top = n * (n + 1) // 2
    for cell in range(n * n):
        c = 0
        if value[cell] == 0:
            h = 1 + cell
            x = down[h]
            while x != h:
                c |= bit_of[x]
                x = down[x]
            if c == 0:
                return False  # an open cell with no digit left (the search would see it too)
        cand_of[cell] = c
    cand = scratch[:n]
    for k in range(group_total.shape[0]):
        same = True
        for t in range(group_start[k], group_start[k + 1]):
            cell = group_cells[t]
            if met[t] != (cand_of[cell] if value[cell] == 0 else -value[cell]):
                same = False
                break
        if same:
            continue
        need = group_total[k]
        used = 0
        union = 0
        low = 0
        high = 0
        m = 0
        for t in range(group_start[k], group_start[k + 1]):
            cell = group_cells[t]
            if value[cell] != 0:
                need -= value[cell]
                used |= 1 << (value[cell] - 1)
                continue
            c = cand_of[cell]
            cand[m] = c
            m += 1
            union |= c
            low += _lowest(c)
            high += _highest(c)
        if m == 0:
            if need != 0:
                return False
            continue
        if need < low or need > high or need > top:
            return False
        if masks.shape[0] == 0:
            continue
        allowed = 0
        key = m * (top + 1) + need
        for idx in range(by_key[key], by_key[key + 1]):
            digits = masks[idx]
            if digits & used or digits & ~union or digits & ~allowed == 0:
                continue  # a digit placed in the group or no open cell's; or nothing new
            if _matched(digits, cand, m, n, scratch[n:]):
                allowed |= digits
        if allowed == 0:
            return False
        if allowed & union == union:
            for t in range(group_start[k], group_start[k + 1]):
                cell = group_cells[t]
                met[t] = cand_of[cell] if value[cell] == 0 else -value[cell]
            continue
        for t in range(group_start[k], group_start[k + 1]):
            cell = group_cells[t]
            drop = cand_of[cell] & ~allowed
            if value[cell] != 0 or drop == 0:
                continue
            cand_of[cell] &= allowed
            for d in range(n):
                if (drop >> d) & 1:
                    _hide(cell * n + d, option_first, option_len, up, down, item, size)
                    trail[trail_len[0]] = cell * n + d
                    trail_len[0] += 1
    return True


_WITHOUT = np.array([0x5555555555555555, 0x3333333333333333, 0x0F0F0F0F0F0F0F0F, 0x00FF00FF00FF00FF,
                     0x0000FFFF0000FFFF, 0x00000000FFFFFFFF], dtype=np.int64)


@nb.njit(cache=True, nogil=True)
def _matched(digits: int, cand: np.ndarray, m: int, n: int, where: np.ndarray) -> bool:  # pragma: no cover
    """Whether the ``m`` open cells (candidate masks ``cand[:m]``) can take the ``m`` digits of
    ``digits`` one each. Up to 6 cells: the sets of digit positions the first cells can fill, as a
    64-bit word of subsets, grown cell by cell; more: each cell has a candidate among them (a weaker
    test, never wrong: it only keeps more). ``where`` is scratch space."""
    if m > 6:
        for p in range(m):  # noqa: SIM110 - compiled: a plain loop
            if cand[p] & digits == 0:
                return False
        return True
    t = 0  # where[:m]: the digits of ``digits``, in increasing order
    for d in range(n):
        if (digits >> d) & 1:
            where[t] = d
            t += 1
    reach = np.int64(1)  # subset {} only
    for p in range(m):
        grown = np.int64(0)
        for t in range(m):
            if (cand[p] >> where[t]) & 1:
                grown |= (reach & _WITHOUT[t]) << (1 << t)
        if grown == 0:
            return False
        reach = grown
    return (reach >> ((1 << m) - 1)) & 1 == 1


# Bit helpers written again on purpose (difficulty/candidates_jit has its own): the verifier imports only board.
@nb.njit(cache=True, nogil=True)
def _lowest(c: int) -> int:  # pragma: no cover - compiled
    """The smallest digit of mask ``c`` (nonzero)."""
    d = 1
    while not c & 1:
        c >>= 1
        d += 1
    return d


@nb.njit(cache=True, nogil=True)
def _highest(c: int) -> int:  # pragma: no cover - compiled
    """The largest digit of mask ``c`` (nonzero)."""
    d = 0
    while c:
        c >>= 1
        d += 1
    return d


@nb.njit(cache=True, nogil=True)
def _restore(mark: int, trail: np.ndarray, trail_len: np.ndarray, option_first: np.ndarray, option_len: np.ndarray,
             up: np.ndarray, down: np.ndarray, item: np.ndarray, size: np.ndarray) -> None:  # pragma: no cover
    """Unhide the options hidden since the trail was ``mark`` long, last first."""
    while trail_len[0] > mark:
        trail_len[0] -= 1
        _unhide(trail[trail_len[0]], option_first, option_len, up, down, item, size)


@nb.njit(cache=True, nogil=True)
def _back_up(level: int, n: int, sums: bool, node_at: np.ndarray, mark: np.ndarray, trail: np.ndarray,
             trail_len: np.ndarray, value: np.ndarray, left: np.ndarray, right: np.ndarray, up: np.ndarray,
             down: np.ndarray, item: np.ndarray, size: np.ndarray, option_of: np.ndarray, option_first: np.ndarray,
             option_len: np.ndarray) -> int:  # pragma: no cover - compiled
    """Leave ``level`` (its item already uncovered, if it was covered): unhide what the sum filter hid
    there, then at the level above withdraw the option tried (its cell open again, its items
    uncovered, links restored in the reverse order) and move on to that item's next option. Returns
    the level above, -1 when the search is over."""
    if sums:
        _restore(mark[level], trail, trail_len, option_first, option_len, up, down, item, size)
    level -= 1
    if level < 0:
        return level
    r = node_at[level]
    if sums:
        value[option_of[r] // n] = 0
    j = left[r]
    while j != r:
        _uncover(item[j], left, right, up, down, item, size)
        j = left[j]
    node_at[level] = down[r]
    return level


@nb.njit(cache=True, nogil=True)
def _select_givens(givens: np.ndarray, n: int, value: np.ndarray, left: np.ndarray, right: np.ndarray,
                   up: np.ndarray, down: np.ndarray, item: np.ndarray, size: np.ndarray, option_first: np.ndarray,
                   option_len: np.ndarray) -> bool:  # pragma: no cover - compiled
    """Select the options ``givens`` (cover their items, set ``value`` of their cells); False when two
    of them share an item (contradictory givens)."""
    covered = np.zeros(size.shape[0], dtype=np.bool_)
    for g in range(givens.shape[0]):
        o = givens[g]
        x = option_first[o]
        for k in range(option_len[o]):
            if covered[item[x + k]]:
                return False  # an item already met by another given
        for k in range(option_len[o]):
            covered[item[x + k]] = True
            _cover(item[x + k], left, right, up, down, item, size)
        value[o // n] = o % n + 1
    return True


@nb.njit(cache=True, nogil=True)
def _algorithm_x(givens: np.ndarray, limit: int, n: int, left: np.ndarray, right: np.ndarray, up: np.ndarray,
                 down: np.ndarray, item: np.ndarray, size: np.ndarray, option_of: np.ndarray,
                 option_first: np.ndarray, option_len: np.ndarray, group_start: np.ndarray, group_cells: np.ndarray,
                 group_total: np.ndarray, masks: np.ndarray, by_key: np.ndarray) -> int:  # pragma: no cover
    """Exact covers that contain the options ``givens`` and meet every sum group's total, counted up
    to ``limit``; 0 when two givens share an item. Mutates the link arrays (the caller passes copies)."""
    sums = group_total.shape[0] > 0
    value = np.zeros(n * n, dtype=np.int64)  # the digit placed in each cell, 0 = open
    if not _select_givens(givens, n, value, left, right, up, down, item, size, option_first, option_len):
        return 0
    depth_max = n * n + 1  # at most one option per cell below the givens
    item_at = np.empty(depth_max, dtype=np.int32)
    node_at = np.empty(depth_max, dtype=np.int32)
    mark = np.zeros(depth_max, dtype=np.int64)  # the trail's length on entering each level
    trail = np.empty(n * n * n if sums else 1, dtype=np.int64)  # options hidden by the sum filter
    trail_len = np.zeros(1, dtype=np.int64)
    cand_of = np.zeros(n * n, dtype=np.int64)  # scratch of the filter: each open cell's candidates
    scratch = np.zeros(2 * n, dtype=np.int64)
    met = np.full(max(1, group_cells.shape[0]), np.int64(-1) << 40, dtype=np.int64)  # nothing remembered yet
    bit_of = np.zeros(option_of.shape[0] if sums else 1, dtype=np.int64)  # each option node's digit bit
    for x in range(bit_of.shape[0]):
        if sums and option_of[x] >= 0:
            bit_of[x] = np.int64(1) << (option_of[x] % n)
    level = 0
    found = 0
    enter = True  # True: a new node to expand at ``level``; False: try node_at[level]
    while True:
        if enter:
            if sums:
                mark[level] = trail_len[0]
            alive = not sums or _sums_filter(n, up, down, item, size, option_of, option_first, option_len, value,
                                             group_start, group_cells, group_total, masks, by_key, trail,
                                             trail_len, cand_of, scratch, met, bit_of)
            if alive and right[_ROOT] == _ROOT:  # every primary item met, every total reached: a solution
                found += 1
                if found >= limit:
                    return found
                alive = False
            if alive:
                best = right[_ROOT]
                fewest = size[best]
                h = right[best]
                while h != _ROOT and fewest > 1:
                    if size[h] < fewest:
                        best = h
                        fewest = size[h]
                    h = right[h]
                if fewest > 0:
                    _cover(best, left, right, up, down, item, size)
                    item_at[level] = best
                    node_at[level] = down[best]
                    enter = False
                    continue
            enter = False  # a dead end or a solution counted: back up one level
        elif node_at[level] == item_at[level]:  # every option of this item tried
            _uncover(item_at[level], left, right, up, down, item, size)
        else:
            r = node_at[level]
            j = right[r]  # select option r: cover the other items it meets
            while j != r:
                _cover(item[j], left, right, up, down, item, size)
                j = right[j]
            if sums:
                value[option_of[r] // n] = option_of[r] % n + 1
            level += 1
            enter = True
            continue
        level = _back_up(level, n, sums, node_at, mark, trail, trail_len, value, left, right, up, down, item, size,
                         option_of, option_first, option_len)
        if level < 0:
            return found


def _statement(b: Board, boxes: Sequence[Sequence[int]] | None, extra: Sequence[Sequence[int]],
               cages: Sequence[tuple[Sequence[int], int]]) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...],
                                                                    tuple[int, ...], list[tuple[tuple[int, ...], int]]]:
    """Check the caller's rules for shape and turn them into ``(box_of, extra, cage_of, groups)``:
    ``groups`` are the sum groups, the cages as given and then, for each unit (row, column, box or
    region, extra unit) holding whole cages, the rest of its cells with the rest of ``n(n+1)/2`` (the
    "45 rule": implied by the rules, so it prunes without changing a count). Raises ValueError."""
    n, n2 = b.n, b.n * b.n
    if boxes is None:
        if not b.variant.classic and not extra and not cages:
            raise ValueError("board b has a variant: pass its rules as boxes, extra and cages "
                             "(pipeline.verify builds them from first principles)")
        box_of = _classic_box_of(n, b.box_rows, b.box_cols)
    else:
        owner = [-1] * n2
        if len(boxes) != n:
            raise ValueError(f"boxes has {len(boxes)} groups, a {n}x{n} board needs {n}")
        for k, group in enumerate(boxes):
            if len(group) != n:
                raise ValueError(f"box {k + 1} has {len(group)} cells, each needs {n}")
            for i in group:
                if not 0 <= int(i) < n2 or owner[int(i)] >= 0:
                    raise ValueError(f"box {k + 1} has cell {i}, off the board or in another box")
                owner[int(i)] = k
        box_of = tuple(owner)
    units = tuple(tuple(int(i) for i in u) for u in extra)
    for k, u in enumerate(units):
        if len(u) != n or len(set(u)) != n or not all(0 <= i < n2 for i in u):
            raise ValueError(f"extra unit {k + 1} is not {n} distinct cells of the board")
    cage_of = [-1] * n2
    groups: list[tuple[tuple[int, ...], int]] = []
    for k, (members, total) in enumerate(cages):
        if not 0 < len(members) <= n:
            raise ValueError(f"cage {k + 1} has {len(members)} cells, a {n}x{n} cage has 1 to {n}")
        for i in members:
            if not 0 <= int(i) < n2 or cage_of[int(i)] >= 0:
                raise ValueError(f"cage {k + 1} has cell {i}, off the board or in another cage")
            cage_of[int(i)] = k
        groups.append((tuple(int(i) for i in members), int(total)))
    if groups:
        all_units = ([tuple(r * n + c for c in range(n)) for r in range(n)]
                     + [tuple(r * n + c for r in range(n)) for c in range(n)]
                     + [tuple(i for i in range(n2) if box_of[i] == k) for k in range(n)] + list(units))
        seen = set(groups)
        for unit in all_units:
            inside = {k for k in {cage_of[i] for i in unit} if k >= 0 and all(i in unit for i in groups[k][0])}
            rest = tuple(i for i in unit if cage_of[i] not in inside)
            if inside and rest:
                derived = (rest, n * (n + 1) // 2 - sum(groups[k][1] for k in inside))
                if derived not in seen:
                    seen.add(derived)
                    groups.append(derived)
    return box_of, units, tuple(cage_of), groups


def independent_count(puzzle: Grid, b: Board, limit: int = 2, *, boxes: Sequence[Sequence[int]] | None = None,
                    extra: Sequence[Sequence[int]] = (), cages: Sequence[tuple[Sequence[int], int]] = ()) -> int:
    """Number of solutions of ``puzzle`` (a grid of ``b``, 0 = blank) capped at ``limit``; 0 for
    contradictory givens and for ``limit < 1``. Exact: no node budget, so a pathological puzzle
    costs what its search tree costs (as for the pure-Python oracle).

    Only ``b``'s side and classic box shape are read. The variant rules are the caller's: ``boxes``
    (``n`` groups of ``n`` cells replacing the classic boxes: jigsaw regions), ``extra`` (more units of
    ``n`` cells each: the x diagonals, the hyper windows) and ``cages`` (``(cells, sum)`` pairs:
    killer cages). Raises :class:`ValueError` for a grid of the wrong length, a digit outside
    ``0..b.n``, rules of the wrong shape, or a variant ``b`` given without rules."""
    n = b.n
    if len(puzzle) != n * n:
        raise ValueError(f"puzzle has {len(puzzle)} cells, expected {n * n}")
    grid = np.asarray(puzzle, dtype=np.int64)
    if grid.size and (grid.min() < 0 or grid.max() > n):
        raise ValueError(f"a digit is outside 0..{n}")
    box_of, units, cage_of, groups = _statement(b, boxes, extra, cages)
    if limit < 1:
        return 0
    given_cells = np.flatnonzero(grid)
    givens = (given_cells * n + grid[given_cells] - 1).astype(np.int64)
    ncages = len(cages)
    left, right, up, down, item, size, option_of, option_first, option_len = _links(
        n, box_of, units, cage_of, ncages)
    empty = np.zeros(0, dtype=np.int64)
    masks, by_key = _combinations(n) if groups and n <= _FILTER_MAX_N else (empty, empty)
    group_start = np.cumsum([0] + [len(cells) for cells, _ in groups], dtype=np.int64)
    group_cells = np.asarray([i for cells, _ in groups for i in cells], dtype=np.int64)
    group_total = np.asarray([total for _, total in groups], dtype=np.int64)
    return int(_algorithm_x(givens, int(limit), n, left.copy(), right.copy(), up.copy(), down.copy(), item,
                            size.copy(), option_of, option_first, option_len, group_start, group_cells,
                            group_total, masks, by_key))
