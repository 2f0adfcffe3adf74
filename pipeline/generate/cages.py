"""The cage maker for killer generation: draw a random cage layout over a solution grid, then refine
it until the zero-given killer puzzle has one solution.

Contracts
---------
* Pure functions of their arguments: every random choice comes from the ``rng`` passed in (in a fixed
  order), so the same grid, policy and generator state give the same cages. No solver is imported
  here; :func:`refine` takes the uniqueness test as a callable (the compiled counter, the ILP or a
  test's toy solver), so this module stays below both.
* Cells are ``r*n + c``; two cells are adjacent when they share an edge. Every cage this module
  returns is a :class:`~pipeline.board.Cage` (sorted cells, total = the sum of ``grid``'s digits on
  them) that is edge-connected, holds distinct digits of ``grid`` and has a size allowed by the
  :class:`CagePolicy`: ``min_size <= size <= min(max_size, n)``, or size 1 when ``singles`` is on.
  The cages partition all ``n*n`` cells and are returned sorted (the order ``make_variant`` uses),
  so ``cages_problem(n, cages) is None``.

Drawing (:func:`draw_cages`)
----------------------------
Cages are grown one at a time. The seed of the next cage is a free cell with the fewest free
neighbours (ties broken at random): corners and pockets of the free area are used up first, which
keeps the free area compact and makes stranded cells rare. Each cage draws a target size uniformly
from ``[min_size, max_size]`` and grows by a random free neighbour whose digit is not yet in the
cage until it reaches the target or has no such neighbour.

A cage that stops short of ``min_size`` (a stranded cell or pocket; a 1-cell cage is fine when
``singles`` is on) is repaired, in this order:

1. *merge* it into an adjacent cage when their digits are disjoint and the union fits ``max_size``
   (the smallest such neighbour, ties at random);
2. *re-partition* it with an adjacent cage: the union is cut into two connected pieces within the
   policy with distinct digits each (one of all such cuts, at random, by :func:`partitions`), which
   also covers "steal a cell from the neighbour";
3. otherwise *redraw* the whole layout (the generator has moved on, so the redraw differs). After
   :data:`MAX_DRAWS` failed layouts :func:`draw_cages` raises ``RuntimeError``: never seen with the
   default policy (20 seeds each of 4x4 to 16x16) nor with sizes 2..4, 3..5 or exactly 3 on 9x9,
   only for policies no partition meets (sizes exactly 3 on 4x4, exactly 5 on 9x9).

A 1-cell cage is never emitted unless ``policy.singles``.

Refining (:func:`refine`)
-------------------------
What makes a killer puzzle unique quickly: small cages and cages whose (size, sum) has few digit
combinations (``3 = 1+2``, ``17 = 8+9``, ``6 = 1+2+3``: a *one-combination* cage pins its digit set).
Each step asks ``second_solution(cages)``; while it returns a solution ``other != grid`` the step
changes the cages where ``other`` differs from ``grid``. The candidate moves, for every cage ``K``
holding a cell where ``other`` differs and every cage ``T`` adjacent to ``K``:

* *cut* ``K`` into two connected pieces within the policy (one cage more);
* *re-partition* ``K + T`` into three pieces (one cage more; unions of at most
  :data:`MAX_CUT3_CELLS` cells) or into two other pieces (as many cages). These are what make
  progress possible under policies where small cages cannot be cut (with ``2..4`` and no singles a
  2- or 3-cell cage has no cut). Cuts walk subsets, so a region over :data:`MAX_CUT_CELLS` cells
  (only with policies of cages over 8 cells) is not cut at all.

A move must *kill* ``other``: some new piece's sum under ``other`` differs from its sum under
``grid`` (or ``other`` repeats a digit in it), or the same ``other`` could come back. Killing moves
are ranked by

1. how many *earlier* second solutions the move revives (fewest first): refine remembers every
   second solution it was shown, and a move that replaces all the cages an earlier one broke by
   pieces it satisfies would let it back. Without this memory re-partitions can flip between two
   layouts for ever (they do on 9x9 with sizes 2..4);
2. ``rank="random"`` (the default): a uniform random draw among the rest. ``rank="information"``:
   the information gained (most first), ``log2`` of the number of digit fillings the replaced cages
   allow minus that of the new pieces, where a cage of ``m`` cells and sum ``s`` allows
   ``combinations(n, m, s) * m!`` fillings, plus a random jitter in ``[0, 1)`` bits for near-ties.
   It prefers cuts into small pieces with few combinations (``3``, ``17``, ...).

Why random is the default: the folklore "few-combination cages make it unique faster" did not show
in the step counts. On 9x9 (random grids, seeds 0..15/0..19) the two ranks took the same number of
steps: sizes ``2..5`` with the ILP as oracle, mean 3.6 steps for both (max 8 random, 13
information); sizes ``2..4`` with the tests' pure-Python solver, mean 2.3 (random) and 2.6
(information), max 9 and 7. But the information rank changes the drawn layout more: per puzzle
(``2..5``) 10.9 two-cell cages and 4.1 one-combination cages against 9.1 and 2.0 for random, i.e.
easier puzzles that look less like the draw. Pick ``"information"`` for easier puzzles.

A move never returns to a layout refine has already tried. When no untried move kills ``other`` (not
seen in practice) a random untried move is made so that the search moves on; when no untried move is left,
or after ``max_steps`` changes, :func:`refine` gives up (returns None). A returned ``other`` equal to
``grid`` counts as "no second solution"; one that breaks a current cage is a caller bug
(``ValueError``).

Every sample above ended unique (none gave up); the moves cost about 0.02-0.3 s per whole refine in
pure Python, against 0.1-10 s per ILP call on 9x9, so the oracle's time is what matters.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

import numpy as np

from pipeline.board import Cage, Grid

#: Layouts :func:`draw_cages` tries before it gives up on a policy.
MAX_DRAWS = 100
#: The most cells :func:`partitions` cuts (a cage, or two cages together); and the most a refine step
#: cuts into three pieces (a 12-cell union has a few hundred 3-cuts, found in about 0.05 s).
MAX_CUT_CELLS = 16
MAX_CUT3_CELLS = 12


@dataclass(frozen=True)
class CagePolicy:
    """Which cage sizes a layout may have: ``min_size..max_size`` cells (``max_size`` is capped at the
    board side ``n``, the most distinct digits a cage can hold), plus 1-cell cages when ``singles``."""

    min_size: int = 2
    max_size: int = 5
    singles: bool = False  # allow 1-cell cages

    def bounds(self, n: int) -> tuple[int, int]:
        """(min, max) cage size on side ``n``; raises ``ValueError`` for a policy no layout can meet."""
        lo, hi = self.min_size, min(self.max_size, n)
        if lo < 1 or lo > hi:
            raise ValueError(f"cage sizes {self.min_size}-{self.max_size} are impossible on a {n}x{n} board "
                             f"(a cage holds 1-{n} distinct digits)")
        if lo == 1 and not self.singles:
            raise ValueError("min_size 1 needs singles=True (1-cell cages)")
        return lo, hi

    def allows(self, size: int, n: int) -> bool:
        lo, hi = self.bounds(n)
        return lo <= size <= hi or (size == 1 and self.singles)


# ---------------------------------------------------------------------------------------------
# geometry and arithmetic helpers
# ---------------------------------------------------------------------------------------------

@cache
def _neighbours(n: int) -> tuple[tuple[int, ...], ...]:
    """Edge neighbours of every cell of side ``n``."""
    out = []
    for i in range(n * n):
        r, c = divmod(i, n)
        out.append(tuple(j for j, ok in ((i - n, r > 0), (i + n, r < n - 1), (i - 1, c > 0), (i + 1, c < n - 1))
                         if ok))
    return tuple(out)


@cache
def _combo_counts(n: int) -> dict[tuple[int, int], int]:
    """``(size, sum) -> number of sets of ``size`` distinct digits 1..n adding up to ``sum``."""
    ways: dict[tuple[int, int], int] = {(0, 0): 1}
    for d in range(1, n + 1):
        for (m, s), k in list(ways.items()):
            ways[(m + 1, s + d)] = ways.get((m + 1, s + d), 0) + k
    return ways


def combinations(n: int, size: int, total: int) -> int:
    """How many sets of ``size`` distinct digits of 1..n add up to ``total`` (1 = the cage's digit set
    is forced, e.g. 2 cells summing to 3 on any board, or to 17 on 9x9)."""
    return _combo_counts(n).get((size, total), 0)


def connected(cells: Iterable[int], n: int) -> bool:
    """Whether ``cells`` (non-empty) are joined through shared edges."""
    inside = set(cells)
    if not inside:
        return False
    start = next(iter(inside))
    seen, todo = {start}, [start]
    nb = _neighbours(n)
    while todo:
        for j in nb[todo.pop()]:
            if j in inside and j not in seen:
                seen.add(j)
                todo.append(j)
    return len(seen) == len(inside)


def _cage(cells: Iterable[int], grid: Grid) -> Cage:
    cs = tuple(sorted(cells))
    return Cage(cs, sum(grid[i] for i in cs))


def partitions(cells: Sequence[int], grid: Grid, n: int, policy: CagePolicy,
               pieces: int = 2) -> list[tuple[tuple[int, ...], ...]]:
    """Every way to cut ``cells`` into ``pieces`` connected pieces, each within the policy and with
    distinct ``grid`` digits; each partition once, in a fixed order (pieces ordered by their first
    cell, each piece sorted). The search walks subsets, so more than :data:`MAX_CUT_CELLS` cells
    give ``[]`` (no cut) rather than an exponential wait."""
    cells = sorted(cells)
    k = len(cells)
    if pieces < 1 or k > MAX_CUT_CELLS:
        return []
    lo, hi = policy.bounds(n)
    ok = [lo <= m <= hi or (m == 1 and policy.singles) for m in range(k + 1)]
    smallest = 1 if policy.singles else lo
    pos = {c: t for t, c in enumerate(cells)}
    nb = _neighbours(n)
    adj = [sum(1 << pos[j] for j in nb[c] if j in pos) for c in cells]
    bits = [1 << grid[c] for c in cells]
    valid: dict[int, bool] = {}

    def good(mask: int) -> bool:
        """Connected, distinct digits (size checked by the caller)."""
        if mask in valid:
            return valid[mask]
        low = mask & -mask
        seen, frontier = low, low
        while frontier:
            nxt, m = 0, frontier
            while m:
                b = m & -m
                nxt |= adj[b.bit_length() - 1]
                m ^= b
            frontier = nxt & mask & ~seen
            seen |= frontier
        res = seen == mask
        if res:
            digits, m = 0, mask
            while m:
                b = m & -m
                d = bits[b.bit_length() - 1]
                if digits & d:
                    res = False
                    break
                digits |= d
                m ^= b
        valid[mask] = res
        return res

    def cut(mask: int, parts: int) -> list[tuple[int, ...]]:
        size = mask.bit_count()
        if parts == 1:
            return [(mask,)] if ok[size] and good(mask) else []
        low = mask & -mask
        rest = mask ^ low
        out: list[tuple[int, ...]] = []
        sub = rest
        while True:  # every subset of rest, largest first; the piece is low | sub
            piece = low | sub
            left = size - piece.bit_count()
            if ok[piece.bit_count()] and smallest * (parts - 1) <= left <= hi * (parts - 1) and good(piece):
                out += [(piece, *tail) for tail in cut(mask ^ piece, parts - 1)]
            if sub == 0:
                break
            sub = (sub - 1) & rest
        return out

    def cells_of(mask: int) -> tuple[int, ...]:
        return tuple(cells[t] for t in range(k) if mask >> t & 1)

    return [tuple(cells_of(m) for m in part) for part in cut((1 << k) - 1, pieces)] if k else []


# ---------------------------------------------------------------------------------------------
# drawing
# ---------------------------------------------------------------------------------------------

def _check_grid(grid: Grid, n: int) -> None:
    if len(grid) != n * n or any(not 1 <= d <= n for d in grid):
        raise ValueError(f"cages need a complete {n}x{n} solution grid (n*n digits 1..{n})")


def draw_cages(grid: Grid, n: int, rng: np.random.Generator, policy: CagePolicy) -> tuple[Cage, ...]:
    """A random partition of all ``n*n`` cells into connected cages with distinct digits of ``grid``
    in each cage and sizes within ``policy``, sorted; see the module docstring for the growth rule and
    the repair of short cages (merge, re-partition with a neighbour, else redraw). Raises
    ``ValueError`` for an impossible policy or an incomplete grid, ``RuntimeError`` when
    :data:`MAX_DRAWS` layouts all fail."""
    _check_grid(grid, n)
    policy.bounds(n)
    for _ in range(MAX_DRAWS):
        layout = _draw_once(grid, n, rng, policy)
        if layout is not None:
            return tuple(sorted(_cage(cells, grid) for cells in layout))
    raise RuntimeError(f"no cage layout within sizes {policy.min_size}-{policy.max_size} "
                       f"(singles={policy.singles}) after {MAX_DRAWS} draws on this {n}x{n} grid")


def _draw_once(grid: Grid, n: int, rng: np.random.Generator, policy: CagePolicy) -> list[list[int]] | None:
    lo, hi = policy.bounds(n)
    nb = _neighbours(n)
    owner = [-1] * (n * n)
    cages: list[list[int]] = []
    free = set(range(n * n))
    while free:
        deg = {i: sum(1 for j in nb[i] if owner[j] < 0) for i in free}
        least = min(deg.values())
        pool = sorted(i for i, d in deg.items() if d == least)
        seed = pool[int(rng.integers(len(pool)))]
        target = int(rng.integers(lo, hi + 1))
        k = len(cages)
        cage, digits = [seed], {grid[seed]}
        owner[seed] = k
        free.discard(seed)
        while len(cage) < target:
            frontier = sorted({j for i in cage for j in nb[i] if owner[j] < 0 and grid[j] not in digits})
            if not frontier:
                break
            j = frontier[int(rng.integers(len(frontier)))]
            cage.append(j)
            digits.add(grid[j])
            owner[j] = k
            free.discard(j)
        cages.append(cage)
    # repair short cages (a 1-cell cage is short unless singles; see the module docstring)
    short = [k for k, c in enumerate(cages) if not policy.allows(len(c), n)]
    for k in short:
        cage = cages[k]
        if not cage or policy.allows(len(cage), n):  # merged away, or grown by an earlier repair
            continue
        near = sorted({owner[j] for i in cage for j in nb[i]} - {k})
        digits = {grid[i] for i in cage}
        merges = [t for t in near if len(cages[t]) + len(cage) <= hi and not digits & {grid[i] for i in cages[t]}]
        if merges:
            best = min(len(cages[t]) for t in merges)
            pool = [t for t in merges if len(cages[t]) == best]
            t = pool[int(rng.integers(len(pool)))]
            cages[t] += cage
            for i in cage:
                owner[i] = t
            cages[k] = []
            continue
        options = [(t, split) for t in near for split in partitions(cages[t] + cage, grid, n, policy)]
        if not options:
            return None
        t, (a, b) = options[int(rng.integers(len(options)))]
        cages[k], cages[t] = list(a), list(b)
        for i in a:
            owner[i] = k
        for i in b:
            owner[i] = t
    out = [c for c in cages if c]
    return out if all(policy.allows(len(c), n) for c in out) else None


# ---------------------------------------------------------------------------------------------
# refining
# ---------------------------------------------------------------------------------------------

def refine(grid: Grid, n: int, cages: tuple[Cage, ...], rng: np.random.Generator, policy: CagePolicy,
           second_solution: Callable[[tuple[Cage, ...]], Grid | None],
           max_steps: int = 200, rank: Literal["random", "information"] = "random",
           ) -> tuple[tuple[Cage, ...], int] | None:
    """Change ``cages`` until the zero-given killer puzzle has ``grid`` as its only solution.

    ``second_solution(cages)`` must return a solution of the killer puzzle with those cages other than
    ``grid``, or None when there is none. While it returns one, a step cuts or re-partitions the
    cages where it differs from ``grid`` so that it is no longer a solution (module docstring).
    Returns ``(cages, steps)`` with the unique layout (sorted) and the number of changes made (so
    ``steps + 1`` calls of ``second_solution``), or None when ``max_steps`` changes did not make it
    unique or no move was left. ``rank`` orders the killing moves (module docstring)."""
    if rank not in ("random", "information"):
        raise ValueError(f"rank must be 'random' or 'information', not {rank!r}")
    _check_grid(grid, n)
    policy.bounds(n)
    current = tuple(sorted(cages))
    seen: list[Grid] = []  # the second solutions met so far, each killed by a step
    visited = {current}
    for steps in range(max_steps + 1):
        found = second_solution(current)
        if found is None or tuple(found) == tuple(grid):
            return current, steps
        if steps == max_steps:
            break
        other = tuple(found)
        _check_other(other, n, current)
        seen.append(other)
        nxt = _step(grid, n, current, rng, policy, seen, visited, rank == "information")
        if nxt is None:
            return None
        current = nxt
        visited.add(current)
    return None


def _check_other(other: Grid, n: int, cages: tuple[Cage, ...]) -> None:
    if len(other) != n * n:
        raise ValueError(f"second_solution returned {len(other)} cells; a {n}x{n} grid has {n * n}")
    for c in cages:
        if not _holds(other, c):
            raise ValueError(f"second_solution returned a grid that breaks the cage at cells {c.cells}")


_Move = tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]  # (indices of the cages replaced, new pieces)


def _fillings(n: int, size: int, total: int) -> float:
    """log2 of the number of ways to write distinct digits summing to ``total`` into ``size`` cells."""
    return math.log2(combinations(n, size, total) * math.factorial(size))


def _step(grid: Grid, n: int, cages: tuple[Cage, ...], rng: np.random.Generator, policy: CagePolicy,
          seen: list[Grid], visited: set[tuple[Cage, ...]], informed: bool) -> tuple[Cage, ...] | None:
    """One refine move against ``seen[-1]`` (None when no move is possible); see the module docstring."""
    other = seen[-1]
    nb = _neighbours(n)
    owner = {i: k for k, c in enumerate(cages) for i in c.cells}
    differing = sorted({owner[i] for i in range(n * n) if other[i] != grid[i]})

    # candidate moves: cut a differing cage in two; re-partition it with an adjacent cage into 3 or 2
    moves: list[_Move] = [((k,), p) for k in differing for p in partitions(cages[k].cells, grid, n, policy, 2)]
    pairs = sorted({(min(k, t), max(k, t)) for k in differing
                    for t in {owner[j] for i in cages[k].cells for j in nb[i]} - {k}})
    for k, t in pairs:
        union = cages[k].cells + cages[t].cells
        same = {frozenset(cages[k].cells), frozenset(cages[t].cells)}
        if len(union) <= MAX_CUT3_CELLS:
            moves += [((k, t), p) for p in partitions(union, grid, n, policy, 3)]
        moves += [((k, t), p) for p in partitions(union, grid, n, policy, 2) if {frozenset(q) for q in p} != same]
    if not moves:
        return None

    # the cages each earlier second solution breaks now (it stays dead unless a move replaces all of them)
    earlier = seen[:-1]
    broken = [{k for k, c in enumerate(cages) if not _holds(p, c)} for p in earlier]
    old_fill = [_fillings(n, len(c.cells), c.total) for c in cages]
    jitter = rng.random(len(moves))
    ranked: list[tuple[int, float, int]] = []
    shakes: list[int] = []
    for m, ((old, pieces), j) in enumerate(zip(moves, jitter, strict=True)):
        new = [_cage(p, grid) for p in pieces]
        if all(_holds(other, c) for c in new):  # does not kill the current second solution
            shakes.append(m)
            continue
        revived = sum(1 for p, br in zip(earlier, broken, strict=True)
                      if br <= set(old) and all(_holds(p, c) for c in new))
        gain = sum(old_fill[k] for k in old) - sum(_fillings(n, len(c.cells), c.total) for c in new) if informed else 0
        ranked.append((revived, -(gain + float(j)), m))
    ranked.sort()
    # nothing kills it (not seen in practice): shake the layout there, at random
    order = [m for *_, m in ranked] + [shakes[int(t)] for t in rng.permutation(len(shakes))]
    for m in order:
        old, pieces = moves[m]
        layout = tuple(sorted([c for k, c in enumerate(cages) if k not in old] + [_cage(p, grid) for p in pieces]))
        if layout not in visited:
            return layout
    return None


def _holds(grid: Grid, cage: Cage) -> bool:
    """Whether ``grid`` satisfies ``cage``: distinct digits adding up to its total."""
    return sum(grid[i] for i in cage.cells) == cage.total and len({grid[i] for i in cage.cells}) == len(cage.cells)


def cage_stats(cages: Sequence[Cage], n: int | None = None) -> dict[str, object]:
    """A summary of a layout: ``cages`` (count), ``sizes`` (size -> count, ascending), ``mean_size``,
    and with ``n`` given ``one_combination`` (cages whose sum has a single digit set)."""
    sizes = Counter(len(c.cells) for c in cages)
    out: dict[str, object] = {"cages": len(cages), "sizes": dict(sorted(sizes.items())),
                              "mean_size": (sum(len(c.cells) for c in cages) / len(cages)) if cages else 0.0}
    if n is not None:
        out["one_combination"] = sum(1 for c in cages if combinations(n, len(c.cells), c.total) == 1)
    return out
