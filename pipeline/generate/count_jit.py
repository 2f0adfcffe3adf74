"""The fast path of the removal loop: a compiled exact solution counter (numba).

``count(puzzle, limit, node_limit, variant)`` returns the number of solutions of ``puzzle`` capped at
``limit``, or ``-1`` when the search visited more than ``node_limit`` nodes (the caller then asks the
ILP). ``solutions(puzzle, limit, node_limit, variant)`` is the same search returning the solutions
found (``None`` for ``-1``); ``numplace solve`` uses it (:mod:`pipeline.solve.search`). Exact, not
heuristic: bitmask candidates per cell, naked and hidden singles to a fixpoint, then branch on the
cell with the fewest candidates; the search stops at ``limit`` solutions. Both run the one kernel
:func:`_search`. Works for every board of :mod:`pipeline.board` (n <= 25, candidates fit in 32 bits).

Variants (``variant``, default classic): the tables come from ``board(n, variant)``, so the extra
units (X diagonals, hyper windows) and jigsaw regions take part in hidden singles, and killer cage
mates are peers. Killer cages get their own exact propagation (:func:`_cages`): for each cage, the
digit sets of its size that add up to its sum (precomputed, :func:`_cage_masks`) which hold the
cage's placed digits and can still be spread over its open cells; each open cell keeps only the
digits some such set gives it, and a digit every such set needs, with one open cell left for it,
goes there. No set left is a contradiction. Pruning only: the search stays exact.

It shares no code with :mod:`pipeline.verify` (the pure-Python guard) or the ILP, so three
independent implementations stand behind every written puzzle: this counter decides removals, the
ILP certifies the finished puzzle, and the verifier re-checks it before it is written.
The first call in a process compiles the kernels (about a second; cached on disk by numba).
"""

from __future__ import annotations

from functools import cache, lru_cache

import numba as nb
import numpy as np

from pipeline.board import CLASSIC, Grid, Variant, board, size_of_grid

#: One board's kernel tables: peers (padded), units, the all-digits mask, then the killer cages
#: flattened: cells, cell offsets per cage, digit masks, mask offsets per cage.
Tables = tuple[np.ndarray, np.ndarray, np.uint32, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


@nb.njit(cache=True, nogil=True)
def _popcount(x: np.uint32) -> int:  # pragma: no cover - compiled
    """The set bits of ``x`` (a 32-bit mask), by the bit-parallel sum (no loop over the bits)."""
    c = np.int64(x)
    c -= (c >> 1) & 0x55555555
    c = (c & 0x33333333) + ((c >> 2) & 0x33333333)
    c = (c + (c >> 4)) & 0x0F0F0F0F
    return int(((c * 0x01010101) & 0xFFFFFFFF) >> 24)


@nb.njit(cache=True, nogil=True)
def _cages(cand: np.ndarray, cage_cells: np.ndarray, cage_off: np.ndarray, cage_masks: np.ndarray,
           mask_off: np.ndarray, work: np.ndarray, queue: np.ndarray) -> int:  # pragma: no cover - compiled
    """One pass of the killer rule (module docstring) over every cage, in place: -1 on a contradiction,
    else the number of cells it left with one candidate (pushed onto ``queue[0:]``, for
    :func:`_propagate` to spread) plus 1 if a candidate went, 0 if none. A cage's *placed* digits are
    those of its single cells; a
    mask *fits* when it holds them and its other digits ``rem`` can be spread over the open cells
    (each has a candidate in ``rem``, together they cover it). ``work`` (2 x cage cells) is the
    per-cell scratch (row 0) and the candidates of each cage's cells when the rule last left that cage
    unchanged (row 1; zeros at first): a cage whose cells still hold exactly those is skipped."""
    changed, top, zero, one = 0, 0, np.uint32(0), np.uint32(1)
    keep, last = work[0], work[1]
    for g in range(cage_off.shape[0] - 1):
        a, b = cage_off[g], cage_off[g + 1]
        for k in range(a, b):
            if cand[cage_cells[k]] != last[k]:
                break
        else:  # the cells hold what they held when the rule last left this cage unchanged
            continue
        placed, nopen = zero, 0
        for k in range(a, b):
            v = cand[cage_cells[k]]
            if v == zero:
                return -1
            if v & (v - one) == zero:
                if placed & v:
                    return -1  # one digit twice in the cage
                placed |= v
            else:
                nopen += 1
            keep[k] = zero
        fits, need = False, ~zero  # keep: the candidates some fitting mask gives each open cell
        for t in range(mask_off[g], mask_off[g + 1]):
            m = cage_masks[t]
            if m & placed != placed:
                continue
            rem, cover, ok = m ^ placed, zero, True
            for k in range(a, b):
                v = cand[cage_cells[k]]
                if v & (v - one):
                    h = v & rem
                    if h == zero:
                        ok = False
                        break
                    cover |= h
            if not ok or cover != rem:
                continue
            fits, need = True, need & rem
            for k in range(a, b):
                keep[k] |= cand[cage_cells[k]] & rem
        if not fits:
            return -1
        moved, seen, twice = False, zero, zero
        if nopen:  # each open cell keeps what some fitting mask gives it; a needed digit one cell can take goes there
            for k in range(a, b):
                i = cage_cells[k]
                v = cand[i]
                if v & (v - one):
                    h = v & keep[k]
                    if h != v:
                        cand[i] = h
                        moved = True
                        if h and h & (h - one) == zero:
                            queue[top] = i
                            top += 1
                    twice |= seen & h
                    seen |= h
            once = need & seen & ~twice
            if once:
                for k in range(a, b):
                    i = cage_cells[k]
                    v = cand[i]
                    if v & (v - one) and v & once:
                        h = v & once
                        if h & (h - one):
                            return -1  # one cell is the only place of two needed digits
                        cand[i] = h
                        moved = True
                        queue[top] = i
                        top += 1
        if moved:
            changed = 1
        else:  # a fixpoint of this cage: skip it until one of its cells changes
            for k in range(a, b):
                last[k] = cand[cage_cells[k]]
    return top + changed


@nb.njit(cache=True, nogil=True)
def _push_singles(cand: np.ndarray, cells: np.ndarray, queue: np.ndarray, top: int) -> int:  # pragma: no cover
    """Push the cells of ``cells`` that hold one candidate onto ``queue`` above ``top``; the new top,
    or -1 if one of them holds none (a contradiction)."""
    for k in range(cells.shape[0]):
        i = cells[k]
        v = cand[i]
        if v == 0:
            return -1
        if v & (v - np.uint32(1)) == 0:
            queue[top] = i
            top += 1
    return top


@nb.njit(cache=True, nogil=True)
def _propagate(cand: np.ndarray, peers: np.ndarray, units: np.ndarray, full: np.uint32,
               queue: np.ndarray, top: int) -> bool:  # pragma: no cover - compiled
    """Naked and hidden singles to a fixpoint, in place; False on a contradiction.

    ``queue[:top]`` are the single cells whose digit may still stand in a peer; every other single
    cell's digit must be gone from its peers already (the search queues every single at the root and
    then only the cell it branched on, its parent having been at the fixpoint). A cell is queued when
    it becomes single, so each single's digit leaves its peers once, not once per pass; a pass over
    the units (hidden singles) follows each emptied queue until it places nothing. These elimination
    rules only remove candidates and their contradictions persist as candidates go, so the fixpoint
    and the verdict do not depend on the order they are applied in."""
    one = np.uint32(1)
    width = peers.shape[1]
    while True:
        while top > 0:
            top -= 1
            i = queue[top]
            v = cand[i]
            nv = ~v
            for k in range(width):
                j = peers[i, k]
                c = cand[j]
                if c & v:
                    c &= nv
                    if c == 0:
                        return False
                    cand[j] = c
                    if c & (c - one) == 0:
                        queue[top] = j
                        top += 1
        for u in range(units.shape[0]):
            seen = np.uint32(0)
            once = np.uint32(0)
            for k in range(units.shape[1]):
                c = cand[units[u, k]]
                once = (once & ~c) | (c & ~seen)
                seen |= c
            if seen != full:
                return False
            if once:
                for k in range(units.shape[1]):
                    i = units[u, k]
                    c = cand[i]
                    h = c & once
                    if h and c != h:
                        if h & (h - one):
                            return False
                        cand[i] = h
                        queue[top] = i
                        top += 1
        if top == 0:
            return True


#: The singles propagation and the bit count under public names, for the other kernels that search
#: grids (lpgrid_jit).
propagate = _propagate
popcount = _popcount


@nb.njit(cache=True, nogil=True)
def _cell_units(units: np.ndarray, ncells: int) -> np.ndarray:  # pragma: no cover - compiled
    """Each cell's units, one row per cell, padded with its last unit (marking it twice is a no-op)."""
    count = np.zeros(ncells, dtype=np.int64)
    for u in range(units.shape[0]):
        for k in range(units.shape[1]):
            count[units[u, k]] += 1
    out = np.zeros((ncells, max(1, count.max())), dtype=np.int64)
    count[:] = 0
    for u in range(units.shape[0]):
        for k in range(units.shape[1]):
            i = units[u, k]
            out[i, count[i]] = u
            count[i] += 1
    for i in range(ncells):
        for k in range(count[i], out.shape[1]):
            out[i, k] = out[i, count[i] - 1] if count[i] else 0
    return out


@nb.njit(cache=True, nogil=True)
def _mark(cells: np.ndarray, cell_units: np.ndarray, dirty: np.ndarray) -> None:  # pragma: no cover - compiled
    """Flag the units of the cells of ``cells`` in ``dirty``."""
    for k in range(cells.shape[0]):
        for q in range(cell_units.shape[1]):
            dirty[cell_units[cells[k], q]] = True


# Repeats _propagate's loops on purpose: one kernel with a ``tracked`` flag ran the classic 9x9 search ~3% slower.
@nb.njit(cache=True, nogil=True)
def _propagate_tracked(cand: np.ndarray, peers: np.ndarray, units: np.ndarray, full: np.uint32,
                       queue: np.ndarray, top: int, cell_units: np.ndarray,
                       dirty: np.ndarray) -> bool:  # pragma: no cover - compiled
    """:func:`_propagate` that looks for hidden singles only in the units flagged in ``dirty`` (each
    cell's units are the row of ``cell_units``): those whose cells changed since the rule last found
    nothing in them (the search flags the units of the cell it branched on, the parent having been
    at the fixpoint). Each change flags its cell's units, and each unit looked at is unflagged, so
    ``dirty`` is clear again when it returns True. The same fixpoint and verdict; cheaper where
    a pass over every unit costs more than the flags (16x16 and up)."""
    one = np.uint32(1)
    width = peers.shape[1]
    nu = cell_units.shape[1]
    while True:
        while top > 0:
            top -= 1
            i = queue[top]
            v = cand[i]
            nv = ~v
            for k in range(width):
                j = peers[i, k]
                c = cand[j]
                if c & v:
                    c &= nv
                    if c == 0:
                        return False
                    cand[j] = c
                    for q in range(nu):
                        dirty[cell_units[j, q]] = True
                    if c & (c - one) == 0:
                        queue[top] = j
                        top += 1
        for u in range(units.shape[0]):
            if not dirty[u]:
                continue
            dirty[u] = False
            seen = np.uint32(0)
            once = np.uint32(0)
            for k in range(units.shape[1]):
                c = cand[units[u, k]]
                once = (once & ~c) | (c & ~seen)
                seen |= c
            if seen != full:
                return False
            if once:
                for k in range(units.shape[1]):
                    i = units[u, k]
                    c = cand[i]
                    h = c & once
                    if h and c != h:
                        if h & (h - one):
                            return False
                        cand[i] = h
                        for q in range(nu):
                            dirty[cell_units[i, q]] = True
                        queue[top] = i
                        top += 1
        if top == 0:
            return True


@nb.njit(cache=True, nogil=True)
def _propagate_cages(cand: np.ndarray, peers: np.ndarray, units: np.ndarray, full: np.uint32,
                     cage_cells: np.ndarray, cage_off: np.ndarray, cage_masks: np.ndarray, mask_off: np.ndarray,
                     work: np.ndarray, queue: np.ndarray, top: int, cell_units: np.ndarray, dirty: np.ndarray,
                     tracked: bool) -> bool:  # pragma: no cover - compiled
    """:func:`_propagate` (or with ``tracked`` :func:`_propagate_tracked`; ``queue[:top]``,
    ``cell_units`` and ``dirty`` as there) and the killer rule (:func:`_cages`) to a joint fixpoint,
    in place; False on a contradiction. The rule changes cage cells only, so after a pass that
    changed some, the cells it left single are queued (every other single was spread before) and
    with ``tracked`` the units of every cage cell flagged (a unit already settled is a no-op). The
    rules only remove candidates, so the fixpoint is the one any order of applying them reaches."""
    while True:
        if not (_propagate_tracked(cand, peers, units, full, queue, top, cell_units, dirty) if tracked
                else _propagate(cand, peers, units, full, queue, top)):
            return False
        r = _cages(cand, cage_cells, cage_off, cage_masks, mask_off, work, queue)
        if r < 0:
            return False
        if r == 0:
            return True
        top = r - 1
        if tracked:
            _mark(cage_cells, cell_units, dirty)


@nb.njit(cache=True, nogil=True)
def _branch_cell(cur: np.ndarray) -> int:  # pragma: no cover - compiled
    """The first cell with the fewest candidates among those with two or more; -1 if every cell is
    single (a solution)."""
    best = -1
    best_k = 99
    for i in range(cur.shape[0]):
        k = _popcount(cur[i])
        if 1 < k < best_k:
            best = i
            best_k = k
            if k == 2:  # none fewer: the first such cell is the one the full scan keeps
                break
    return best


@nb.njit(cache=True, nogil=True)
def _write_digits(cur: np.ndarray, row: np.ndarray) -> None:  # pragma: no cover - compiled
    """The digit (1..n) of each single cell of ``cur`` into ``row``."""
    for i in range(cur.shape[0]):
        d = 0
        v = cur[i]
        while v:
            v >>= np.uint32(1)
            d += 1
        row[i] = d


@nb.njit(cache=True, nogil=True)
def _search(cand0: np.ndarray, peers: np.ndarray, units: np.ndarray, full: np.uint32,
            limit: int, node_limit: int, out: np.ndarray, cage_cells: np.ndarray, cage_off: np.ndarray,
            cage_masks: np.ndarray, mask_off: np.ndarray) -> int:  # pragma: no cover - compiled
    """Solutions capped at ``limit``, or -1 past ``node_limit`` nodes; the first ``out.shape[0]``
    solutions found are written to the rows of ``out`` as digits (1..n). The cage arrays are empty
    on a board without killer cages."""
    ncells = cand0.shape[0]
    stack = np.empty((ncells + 1, ncells), dtype=np.uint32)
    cell_at = np.empty(ncells + 1, dtype=np.int64)
    rest_at = np.empty(ncells + 1, dtype=np.uint32)
    killer = cage_off.shape[0] > 1
    work = np.zeros((2, cage_cells.shape[0]), dtype=np.uint32)  # scratch and memo of the cage rule
    queue = np.empty(ncells, dtype=np.int64)  # single cells still to spread (:func:`_propagate`)
    every = np.arange(ncells)
    # below the root of a 16x16 board (or larger) hidden singles are looked for only in the units
    # that changed; on smaller boards a pass over every unit is cheaper than keeping track
    track = ncells >= 256
    cell_units = np.zeros((ncells, 1), dtype=np.int64)  # each cell's units: built on the first branch
    dirty = np.zeros(units.shape[0], dtype=np.bool_)  # units to look at for hidden singles
    stack[0, :] = cand0
    depth = 0
    found = 0
    nodes = 0
    fresh = True  # stack[depth] was just set and must be propagated
    while depth >= 0:
        if fresh:
            nodes += 1
            if nodes > node_limit:
                return -1
            fresh = False
            cur = stack[depth]
            tracked = track and depth > 0
            if depth == 0:  # the root: every single is new
                top = _push_singles(cur, every, queue, 0)
            else:  # the parent was at the fixpoint: only the cell branched on is new
                queue[0] = cell_at[depth - 1]
                top = 1
                if tracked:
                    if nodes == 2:  # the first branch
                        cell_units = _cell_units(units, ncells)
                    dirty[:] = False  # (a contradiction may leave some flagged)
                    _mark(cell_at[depth - 1 : depth], cell_units, dirty)
            if top < 0 or not (
                    _propagate_cages(cur, peers, units, full, cage_cells, cage_off, cage_masks, mask_off, work,
                                     queue, top, cell_units, dirty, tracked) if killer
                    else _propagate_tracked(cur, peers, units, full, queue, top, cell_units, dirty) if tracked
                    else _propagate(cur, peers, units, full, queue, top)):
                depth -= 1
                continue
            best = _branch_cell(cur)
            if best < 0:
                if found < out.shape[0]:
                    _write_digits(cur, out[found])
                found += 1
                if found >= limit:
                    return found
                depth -= 1
                continue
            cell_at[depth] = best
            rest_at[depth] = cur[best]
        # try the next candidate of this level's branching cell
        rest = rest_at[depth]
        if rest == 0:
            depth -= 1
            continue
        bit = rest & (~rest + np.uint32(1))
        rest_at[depth] = rest ^ bit
        stack[depth + 1, :] = stack[depth]
        stack[depth + 1, cell_at[depth]] = bit
        depth += 1
        fresh = True
    return found


_NO_CELLS = np.zeros(0, dtype=np.int64)
_NO_OFF = np.zeros(1, dtype=np.int64)
_NO_MASKS = np.zeros(0, dtype=np.uint32)


@lru_cache(maxsize=4096)
def _cage_masks(n: int, size: int, total: int) -> tuple[int, ...]:
    """The bitmasks (bit ``d - 1`` for digit ``d``) of the sets of ``size`` distinct digits of
    ``1..n`` that add up to ``total``, in increasing digit order."""
    out: list[int] = []

    def extend(low: int, left: int, rest: int, mask: int) -> None:
        if left == 0:
            if rest == 0:
                out.append(mask)
            return
        # the smallest and largest sums of ``left`` distinct digits from ``low..n``
        if rest < left * (2 * low + left - 1) // 2 or rest > left * (2 * n - left + 1) // 2:
            return
        for d in range(low, n - left + 2):
            if d > rest:
                break
            extend(d + 1, left - 1, rest - d, mask | 1 << (d - 1))

    extend(1, size, total, 0)
    return tuple(out)


def _peers_units(n: int, variant: Variant) -> tuple[np.ndarray, np.ndarray]:
    b = board(n, variant)
    width = max(len(p) for p in b.peers)
    # peer counts differ between cells (cage mates); pad with the last peer, a no-op to the kernel
    rows = [sorted(p) for p in b.peers]
    peers = np.array([r + [r[-1]] * (width - len(r)) for r in rows], dtype=np.int64)
    return peers, np.array(b.units, dtype=np.int64)


@cache
def _tables(n: int) -> Tables:
    """The classic board's tables (no cages), once per size."""
    peers, units = _peers_units(n, CLASSIC)
    return peers, units, np.uint32((1 << n) - 1), _NO_CELLS, _NO_OFF, _NO_MASKS, _NO_OFF


@lru_cache(maxsize=256)
def _variant_tables(n: int, variant: Variant) -> Tables:
    """A variant board's tables; raises ``ValueError`` when the variant does not fit size ``n``."""
    if not variant.cages:
        peers, units = _peers_units(n, variant)
        return peers, units, np.uint32((1 << n) - 1), _NO_CELLS, _NO_OFF, _NO_MASKS, _NO_OFF
    peers, units = _peers_units(n, variant)
    cells: list[int] = []
    cell_off = [0]
    masks: list[int] = []
    mask_off = [0]
    for cage in variant.cages:
        cells += cage.cells
        cell_off.append(len(cells))
        masks += _cage_masks(n, len(cage.cells), cage.total)
        mask_off.append(len(masks))
    return (peers, units, np.uint32((1 << n) - 1), np.array(cells, dtype=np.int64),
            np.array(cell_off, dtype=np.int64), np.array(masks, dtype=np.uint32),
            np.array(mask_off, dtype=np.int64))


def tables(n: int, variant: Variant | None = None) -> Tables:
    """The kernel tables of side ``n`` under ``variant`` (None or classic: cached per size)."""
    if variant is None or variant == CLASSIC:
        return _tables(n)
    return _variant_tables(n, variant)


@cache
def _start_bits(n: int) -> np.ndarray:
    """A cell's starting candidates by its value (0..255): blank -> every digit, ``d`` in 1..n -> bit
    ``d - 1``, anything larger -> no candidate (the search then finds no solution). One fancy-index
    read builds the search's start; a loop over the cells cost 30 us a call, more than most searches."""
    bits = np.zeros(256, dtype=np.uint32)
    bits[0] = (1 << n) - 1
    bits[1 : n + 1] = [1 << d for d in range(n)]
    return bits


_NO_ROWS = {n: np.zeros((0, n * n), dtype=np.uint8) for n in (4, 6, 9, 16, 25)}


def _run(puzzle: Grid, limit: int, node_limit: int, keep: int, variant: Variant | None) -> tuple[int, np.ndarray]:
    """Run :func:`_search` on ``puzzle``, keeping the first ``keep`` solutions: (count, rows)."""
    n = size_of_grid(puzzle)
    peers, units, full, cage_cells, cage_off, cage_masks, mask_off = tables(n, variant)
    try:
        cand = _start_bits(n)[np.frombuffer(bytes(puzzle), dtype=np.uint8)]
    except (ValueError, TypeError):  # a value outside 0..255: the cell-by-cell way, as the kernel always read it
        cand = np.full(n * n, full, dtype=np.uint32)
        for i, d in enumerate(puzzle):
            if d:
                cand[i] = np.uint32(1 << (d - 1))
    out = np.zeros((keep, n * n), dtype=np.uint8) if keep else _NO_ROWS[n]
    found = _search(cand, peers, units, full, limit, node_limit, out, cage_cells, cage_off, cage_masks, mask_off)
    return int(found), out


def count(puzzle: Grid, limit: int = 2, node_limit: int = 200_000, variant: Variant | None = None) -> int:
    """Solutions of ``puzzle`` under ``variant`` (None = classic) capped at ``limit``; ``-1`` if
    ``node_limit`` search nodes did not decide it. Contradictory givens give 0."""
    return _run(puzzle, limit, node_limit, 0, variant)[0]


def rows(puzzle: Grid, limit: int = 2, node_limit: int = 200_000,
         variant: Variant | None = None) -> tuple[int, np.ndarray]:
    """:func:`solutions` as the kernel leaves them: ``(k, out)``, ``k`` the solutions found (at most
    ``limit``; ``-1`` past ``node_limit``) and the first ``min(k, limit)`` rows of ``out`` (uint8, one
    solution each). For callers that compare solutions with a grid in bulk (no tuples made)."""
    if limit < 1:
        raise ValueError("limit must be at least 1")
    return _run(puzzle, limit, node_limit, min(limit, max(node_limit, 0)), variant)


def solutions(puzzle: Grid, limit: int = 2, node_limit: int = 200_000,
              variant: Variant | None = None) -> tuple[Grid, ...] | None:
    """The solutions of ``puzzle`` under ``variant`` (None = classic), at most ``limit`` (in the
    search's order), or ``None`` if ``node_limit`` search nodes did not decide it. Contradictory
    givens give ``()``. Each solution is a search node, so at most ``min(limit, node_limit)`` rows
    of ``n * n`` bytes are held."""
    if limit < 1:
        raise ValueError("limit must be at least 1")
    found, out = _run(puzzle, limit, node_limit, min(limit, max(node_limit, 0)), variant)
    if found < 0:
        return None
    return tuple(tuple(int(d) for d in row) for row in out[:found].tolist())
