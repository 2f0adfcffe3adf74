"""Killer techniques: deductions from cage sums (finders for the rows ``cage_combination``,
``innies_outies``, ``cage_unit_overlap``, ``cage_combination_unit``, ``cage_splitting`` and
``innies_outies_multi`` of :data:`pipeline.difficulty.techniques.TECHNIQUES`, in that order).

Every finder works on a *sum constraint*: a set of cells whose digits add up to a known total, with
two cells holding different digits exactly when they are peers (cage mates are peers; cells of one
unit are peers). The constraint's *options* are every assignment of candidates to its open cells
that respects that and reaches the total; a candidate no option uses is eliminated (:func:`options`).
Sound for any puzzle: an elimination only removes a digit that no completion of the state can
have there, so nothing assumes a unique solution.

The constraints, one technique each (on a board without cages every finder returns None):

* ``cage_combination``: each cage, with its sum (a cage's digits differ and add up to its sum).
* ``innies_outies`` (the 45 rule over one unit): a unit holds ``1..n`` once, so the cells of the
  unit in cages that cross its edge (the *innies*) add up to ``n(n+1)/2`` minus the sums of the
  cages inside it; the cells of those crossing cages outside the unit (the *outies*) add up to
  their cages' sums minus the innies'.
* ``cage_unit_overlap``: a digit every option of a cage uses, whose candidates in the cage all lie
  in one unit, leaves the rest of that unit; and a digit whose candidates in a unit all lie in one
  cage must be in that cage, so the cage's options without it go.
* ``cage_combination_unit``: the cages inside a unit and the unit's innies hold different digits that
  together are the unit's missing ones; a digit set of one that fits with no choice of the others goes.
* ``cage_splitting``: a cage that crosses the edge of a unit (or group of units, with at least one
  other crossing cage) is split in two: when every other innie of the unit is solved, the part inside
  adds up to the innies' remaining sum, so the part outside adds up to the cage's sum minus it.
* ``innies_outies_multi``: the 45 rule over a group of units: two or three neighbouring rows or
  columns, two neighbouring boxes in a band or stack (``k`` units hold ``k * n(n+1)/2``).

Options are enumerated with a node budget (:data:`NODE_BUDGET`); a constraint that exceeds it, or has
more than :data:`MAX_OPEN` open cells (innies and outies; blocks of a unit past ``MAX_OPEN + 2``),
yields nothing (never a guess). The search is compiled (:mod:`.cages_jit`); its
pure-Python twin :func:`_options_py` is the reference. What a constraint teaches is a function of its
cells' candidates and digits alone, so each state met on a board is worked out once and remembered
(:func:`_constraint`; most cages keep theirs over many steps of a solve): the same steps, found faster.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from pipeline.board import Cage, Variant
from pipeline.difficulty.candidates import Candidates, Step, _bits, _cells, _Ctx, _digits, _elims_of, _Geo, _geo

#: Killer technique names, in the order of the technique table.
KILLER_TECHNIQUES: tuple[str, ...] = ("cage_combination", "innies_outies", "cage_unit_overlap",
                                      "cage_combination_unit", "cage_splitting", "innies_outies_multi")
#: Search nodes one constraint may take before it is given up (soundly: no elimination).
NODE_BUDGET = 20_000
#: The most open cells an innie or outie constraint may have.
MAX_OPEN = 6


# ---------------------------------------------------------------------------------------------
# options of a sum constraint
# ---------------------------------------------------------------------------------------------


@lru_cache(maxsize=65_536)
def options(cands: tuple[int, ...], total: int, adj: tuple[int, ...]) -> dict[int, tuple[int, ...]] | None:
    """:func:`_options_py` by the compiled search of :mod:`.cages_jit` (the same
    search, node for node; the tests compare the two). Cached: callers must not mutate the result."""
    import numpy as np

    from pipeline.difficulty.killer import cages_jit  # lazy: numba and numpy load only when a killer board is graded

    k = len(cands)
    order, min_rest, max_rest = _plan(cands)
    n_masks = 1 << max((c.bit_length() for c in cands), default=1)
    unions = np.zeros((n_masks, max(k, 1)), dtype=np.int64)
    seen = np.zeros(n_masks, dtype=np.bool_)
    ok = cages_jit.options(np.array(cands, dtype=np.int64), total, np.array(adj, dtype=np.int64),
                            np.array(order, dtype=np.int64), np.array(min_rest, dtype=np.int64),
                            np.array(max_rest, dtype=np.int64), NODE_BUDGET, unions, seen)
    if not ok:
        return None
    return {int(m): tuple(int(x) for x in unions[m, :k]) for m in np.flatnonzero(seen)}


def _plan(cands: tuple[int, ...]) -> tuple[list[int], list[int], list[int]]:
    """The search order of the cells (fewest candidates first) and, per depth, the smallest and largest
    sums the cells from there on can still make (distinctness ignored)."""
    k = len(cands)
    order = sorted(range(k), key=lambda j: (cands[j].bit_count(), j))
    min_rest = [0] * (k + 1)
    max_rest = [0] * (k + 1)
    for p in range(k - 1, -1, -1):
        j = order[p]
        min_rest[p] = min_rest[p + 1] + (cands[j] & -cands[j]).bit_length()
        max_rest[p] = max_rest[p + 1] + cands[j].bit_length()
    return order, min_rest, max_rest


def _options_py(cands: tuple[int, ...], total: int, adj: tuple[int, ...]) -> dict[int, tuple[int, ...]] | None:
    """Every assignment of one candidate (bitmask ``cands[j]``) to each cell ``j`` with digits summing
    to ``total`` and differing where ``adj[j]`` (bitmask of the positions ``j`` must differ from) says,
    grouped by the digit set it uses (a mask; meaningful as a set where every pair differs): for each
    set, the digits each cell takes in some assignment of that set (a bitmask per cell). Empty when no
    assignment exists; None when the search exceeds :data:`NODE_BUDGET` nodes. The pure-Python reference
    (the tests' oracle) of :func:`options`."""
    k = len(cands)
    order, min_rest, max_rest = _plan(cands)
    found: dict[int, list[int]] = {}
    digit = [0] * k  # digit of each original position, 0 = not yet assigned
    nodes = 0

    def rec(p: int, left: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > NODE_BUDGET:
            return False
        if p == k:
            if left == 0:
                used = 0
                for j in range(k):
                    used |= 1 << (digit[j] - 1)
                unions = found.setdefault(used, [0] * k)
                for j in range(k):
                    unions[j] |= 1 << (digit[j] - 1)
            return True
        if not min_rest[p] <= left <= max_rest[p]:
            return True
        j = order[p]
        banned = 0
        a = adj[j]
        while a:
            low = a & -a
            q = low.bit_length() - 1
            if digit[q]:
                banned |= 1 << (digit[q] - 1)
            a ^= low
        m = cands[j] & ~banned
        while m:
            low = m & -m
            d = low.bit_length()
            if d > left:
                break
            digit[j] = d
            if not rec(p + 1, left - d):
                digit[j] = 0
                return False
            digit[j] = 0
            m ^= low
        return True

    if not rec(0, total):
        return None
    return {used: tuple(unions) for used, unions in found.items()}


def _union(by_set: dict[int, tuple[int, ...]], k: int, keep: Callable[[int], bool] = lambda m: True) -> list[int]:
    """Each cell's digits over the options whose digit set ``keep`` accepts."""
    out = [0] * k
    for used, unions in by_set.items():
        if keep(used):
            out = [a | b for a, b in zip(out, unions, strict=True)]
    return out


def _adjacency(g: _Geo, cells: Sequence[int]) -> tuple[int, ...]:
    return tuple(sum(1 << q for q, b in enumerate(cells) if g.peer_bits[a] >> b & 1) for a in cells)


class _Solved:
    """One sum constraint in one state of its cells: the open cells ``rest`` and the total ``left``
    for them, and (once :meth:`solve` ran) its options by digit set (``by_set``; None when the search
    gave up or no cell is open), each open cell's digits over them (``unions``), the digit sets
    (``sets``) and the candidates no option uses (``elims``, as :func:`_elims_of` sorts them)."""

    __slots__ = ("by_set", "elims", "left", "rest", "sets", "solved", "unions")

    def __init__(self, st: Candidates, cells: Sequence[int], total: int) -> None:
        values = st.values
        self.rest = [i for i in cells if not values[i]]
        self.left = total - sum(values[i] for i in cells if values[i])
        self.solved = False
        self.by_set: dict[int, tuple[int, ...]] | None = None
        self.unions: list[int] = []
        self.sets: frozenset[int] = frozenset()
        self.elims: tuple[tuple[int, int], ...] = ()

    def solve(self, st: Candidates) -> _Solved:
        if not self.solved:
            self.solved = True
            if self.rest:
                self.by_set = options(tuple(st.cand[i] for i in self.rest), self.left, _adjacency(st.geo, self.rest))
            if self.by_set is not None:
                self.unions = _union(self.by_set, len(self.rest))
                self.sets = frozenset(self.by_set)
                self.elims = _eliminations(st, self.rest, self.unions)
        return self


#: Constraint states :func:`_constraint` keeps per board before it starts afresh (a killer grade
#: meets about a thousand; a few hundred bytes each), for the last few boards (:func:`_memo`).
MEMO_SIZE = 20_000


_Memo = dict[tuple[object, ...], _Solved]


@lru_cache(maxsize=4)
def _memo(n: int, variant: Variant) -> _Memo:
    """The :class:`_Solved` constraint states met on one killer board (its geometry fixes the
    adjacency of any cells), keyed by cells, total and the cells' candidates and digits."""
    return {}


def _constraint(st: Candidates, memo: _Memo, cells: tuple[int, ...], total: int) -> _Solved:
    """The constraint ``cells`` adding up to ``total`` in state ``st`` (not yet solved when new: see
    :meth:`_Solved.solve`). A pure function of the cells' candidates and digits on this board, so a
    state met before (most cages keep theirs over many steps of a solve) is answered from ``memo``
    (the board's :func:`_memo`, fetched once per finder call): the same object, which callers never
    mutate."""
    cand, values = st.cand, st.values
    key = (cells, total, *[cand[i] or -values[i] for i in cells])
    found = memo.get(key)
    if found is None:
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        found = memo[key] = _Solved(st, cells, total)
    return found


def _eliminations(st: Candidates, rest: Sequence[int], unions: Sequence[int]) -> tuple[tuple[int, int], ...]:
    return _elims_of((i, d) for i, u in zip(rest, unions, strict=True) for d in _digits(st.cand[i] & ~u))


def _cage_name(cage: Cage, n: int) -> str:
    return f"cage {'+'.join(_cells(cage.cells, n).split(', '))} = {cage.total}"


def _combos(sets: frozenset[int], limit: int = 4) -> str:
    shown = sorted(sets, key=lambda m: _digits(m))[:limit]
    text = ", ".join("+".join(str(d) for d in _digits(m)) for m in shown)
    return text + (f" (and {len(sets) - limit} more)" if len(sets) > limit else "")


# ---------------------------------------------------------------------------------------------
# geometry of the 45 rule (per variant, cached)
# ---------------------------------------------------------------------------------------------


class _Group:
    """A unit or a group of ``k`` disjoint units: its innies and outies with their totals."""

    __slots__ = ("cells", "crossing", "in_total", "innies", "inside", "name", "out_total", "outies")

    def __init__(self, name: str, cells: frozenset[int], k: int, n: int, cages: Sequence[Cage],
                 cage_of: Sequence[int]) -> None:
        self.name = name
        self.cells = cells
        inside = [c for c in cages if set(c.cells) <= cells]
        self.inside = tuple(inside)  # the cages wholly in the group, in the variant's order
        self.crossing = [c for c in cages if set(c.cells) & cells and not set(c.cells) <= cells]
        uncaged = [i for i in cells if cage_of[i] < 0]
        self.in_total = k * n * (n + 1) // 2 - sum(c.total for c in inside)
        self.innies = tuple(sorted({i for c in self.crossing for i in c.cells if i in cells} | set(uncaged)))
        self.outies = tuple(sorted(i for c in self.crossing for i in c.cells if i not in cells))
        # outies add up to a known total only when every cell of the group is in a cage
        self.out_total = (sum(c.total for c in self.crossing) - self.in_total) if not uncaged else None


@lru_cache(maxsize=64)
def _groups(n: int, variant: Variant) -> tuple[tuple[_Group, ...], tuple[_Group, ...], tuple[int, ...]]:
    """The single units and the groups of neighbouring units of a killer board, and each cell's cage."""
    g = _geo(n, variant)
    cage_of = [-1] * (n * n)
    for k, c in enumerate(variant.cages):
        for i in c.cells:
            cage_of[i] = k
    singles = tuple(_Group(g.names[u], frozenset(cells), 1, n, variant.cages, cage_of)
                    for u, cells in enumerate(g.units))
    multi: list[_Group] = []
    for kind, base in (("rows", 0), ("columns", n)):
        for k in (2, 3):
            for s in range(n - k + 1):
                cells = frozenset(i for u in range(base + s, base + s + k) for i in g.units[u])
                multi.append(_Group(f"{kind} {s + 1}-{s + k}", cells, k, n, variant.cages, cage_of))
    if variant.regions is None:
        per_row = n // g.b.box_cols
        for b in range(n):
            right, below = b + 1, b + per_row
            for other in ([right] if (b + 1) % per_row else []) + ([below] if below < n else []):
                cells = frozenset(g.units[2 * n + b]) | frozenset(g.units[2 * n + other])
                multi.append(_Group(f"boxes {b + 1} and {other + 1}", cells, 2, n, variant.cages, cage_of))
    return singles, tuple(multi), tuple(cage_of)


# ---------------------------------------------------------------------------------------------
# finders
# ---------------------------------------------------------------------------------------------


def _cage_combination(st: Candidates, ctx: _Ctx) -> Step | None:
    n = st.n
    memo = _memo(n, st.variant)
    for cage in st.variant.cages:
        found = _constraint(st, memo, cage.cells, cage.total).solve(st)
        elims = found.elims
        if elims:
            solved = sum(1 << (st.values[i] - 1) for i in cage.cells if st.values[i])
            return Step("cage_combination", cage.cells, eliminations=elims,
                        digits=tuple(sorted({d for _, d in elims})),
                        detail=f"{_cage_name(cage, n)}: {_combos(frozenset(m | solved for m in found.sets))}")
    return None


def _cage_combination_unit(st: Candidates, ctx: _Ctx) -> Step | None:
    """The cages inside a unit and the unit's innies hold different digits that together are the
    unit's missing ones: each option (digit set) of one must fit with some options of the others."""
    n, g = st.n, st.geo
    if not st.variant.cages:
        return None
    singles = _groups(n, st.variant)[0]
    memo = _memo(n, st.variant)
    for u in g.scan_order:
        grp = singles[u]
        if len(grp.inside) + bool(grp.innies) < 2:
            continue
        parts: list[tuple[Cage | None, tuple[int, ...], int]] = [(c, c.cells, c.total) for c in grp.inside]
        if grp.innies:
            parts.append((None, grp.innies, grp.in_total))
        blocks: list[tuple[Cage | None, list[int], dict[int, tuple[int, ...]]]] = []
        for cage, cells, total in parts:
            found = _constraint(st, memo, cells, total)
            if len(found.rest) > MAX_OPEN + 2:
                break
            found.solve(st)
            if found.by_set is None:
                if found.rest:
                    break  # gave up: nothing sound to say about this unit
                continue
            blocks.append((cage, found.rest, found.by_set))
        else:
            if len(blocks) < 2:
                continue
            missing = ((1 << n) - 1) & ~sum(1 << (st.values[i] - 1) for i in g.units[u] if st.values[i])
            alive = _fitting([list(b[2]) for b in blocks], missing)
            for (cage, rest, by_set), ok in zip(blocks, alive, strict=True):
                elims = _eliminations(st, rest, _union(by_set, len(rest), lambda m, ok=ok: m in ok))  # type: ignore[misc]
                if elims:
                    name = (_cage_name(cage, n) if cage is not None else
                            f"the innies {'+'.join(_cells(grp.innies, n).split(', '))} = {grp.in_total}")
                    return Step("cage_combination_unit", tuple(rest), eliminations=elims,
                                digits=tuple(sorted({d for _, d in elims})), units=(u,),
                                detail=f"{name} in {g.names[u]}: only {_combos(frozenset(ok))} fit with the rest "
                                       "of the unit")
    return None


def _fitting(choices: list[list[int]], missing: int) -> list[set[int]]:
    """For blocks with digit-set options ``choices``, the options of each block that belong to some
    choice of one option per block with the options pairwise disjoint and together ``missing``."""
    alive: list[set[int]] = [set() for _ in choices]
    order = sorted(range(len(choices)), key=lambda b: len(choices[b]))
    picked = [0] * len(choices)

    def rec(p: int, used: int) -> bool:
        if p == len(order):
            if used == missing:
                for b in range(len(choices)):
                    alive[b].add(picked[b])
                return True
            return False
        b = order[p]
        hit = False
        for m in choices[b]:
            if m & used or m & ~missing:
                continue
            picked[b] = m
            hit |= rec(p + 1, used | m)
        return hit

    rec(0, 0)
    return alive


def _innie_outie_step(st: Candidates, technique: str, groups: Sequence[_Group]) -> Step | None:
    n = st.n
    memo = _memo(n, st.variant)
    for grp in groups:
        for side, cells, total in (("innies", grp.innies, grp.in_total), ("outies", grp.outies, grp.out_total)):
            if not cells or total is None:
                continue
            found = _constraint(st, memo, cells, total)
            if not found.rest or len(found.rest) > MAX_OPEN:
                continue
            elims = found.solve(st).elims
            if elims:
                return Step(technique, tuple(found.rest), eliminations=elims,
                            digits=tuple(sorted({d for _, d in elims})),
                            detail=f"{side} of {grp.name}: {_cells(found.rest, n)} add up to {found.left}")
    return None


def _innies_outies(st: Candidates, ctx: _Ctx) -> Step | None:
    if not st.variant.cages:
        return None
    return _innie_outie_step(st, "innies_outies", _groups(st.n, st.variant)[0])


def _innies_outies_multi(st: Candidates, ctx: _Ctx) -> Step | None:
    if not st.variant.cages:
        return None
    return _innie_outie_step(st, "innies_outies_multi", _groups(st.n, st.variant)[1])


def _cage_unit_overlap(st: Candidates, ctx: _Ctx) -> Step | None:
    n, g = st.n, st.geo
    cages = st.variant.cages
    if not cages:
        return None
    cage_of = _groups(n, st.variant)[2]
    memo = _memo(n, st.variant)
    for cage in cages:  # a digit the cage must hold, locked in one unit
        found = _constraint(st, memo, cage.cells, cage.total).solve(st)
        if not found.sets:
            continue
        rest = found.rest
        must = (1 << n) - 1
        for m in found.sets:
            must &= m
        for d in _bits(must):
            where = [i for i in rest if st.cand[i] >> d & 1]
            shared = set(g.containing[where[0]]).intersection(*(g.containing[i] for i in where[1:])) if where else set()
            for u in sorted(shared):
                elims = _elims_of((i, d + 1) for i in g.units[u] if i not in cage.cells and st.cand[i] >> d & 1)
                if elims:
                    return Step("cage_unit_overlap", tuple(where), eliminations=elims, digits=(d + 1,), units=(u,),
                                detail=f"{_cage_name(cage, n)} must hold {d + 1}, which lies in {g.names[u]}")
    for u in g.scan_order:  # a digit of a unit confined to one cage: the cage must hold it
        for d in range(n):
            where = [i for i in g.units[u] if st.cand[i] >> d & 1]
            if not where or any(cage_of[i] != cage_of[where[0]] for i in where) or cage_of[where[0]] < 0:
                continue
            cage = cages[cage_of[where[0]]]
            split = _constraint(st, memo, cage.cells, cage.total).solve(st)
            if split.by_set is None:
                continue
            rest, by_set = split.rest, split.by_set
            elims = _eliminations(st, rest, _union(by_set, len(rest), lambda m, bit=1 << d: bool(m & bit)))  # type: ignore[misc]
            if elims:
                return Step("cage_unit_overlap", tuple(where), eliminations=elims,
                            digits=tuple(sorted({x for _, x in elims})), units=(u,),
                            detail=f"{d + 1} of {g.names[u]} lies in {_cage_name(cage, n)}, so the cage holds it")
    return None


def _cage_splitting(st: Candidates, ctx: _Ctx) -> Step | None:
    n = st.n
    if not st.variant.cages:
        return None
    singles, multi, _ = _groups(n, st.variant)
    memo = _memo(n, st.variant)
    for grp in (*singles, *multi):
        if len(grp.crossing) < 2:
            continue  # one crossing cage: its outer part is the outies (innies_outies)
        for cage in grp.crossing:
            inner = tuple(i for i in cage.cells if i in grp.cells)
            outer = tuple(i for i in cage.cells if i not in grp.cells)
            others = [i for i in grp.innies if i not in inner]
            if any(not st.values[i] for i in others):
                continue
            inner_sum = grp.in_total - sum(st.values[i] for i in others)
            for part, total in ((outer, cage.total - inner_sum), (inner, inner_sum)):
                found = _constraint(st, memo, part, total).solve(st)
                elims = found.elims
                if elims:
                    return Step("cage_splitting", tuple(found.rest), eliminations=elims,
                                digits=tuple(sorted({d for _, d in elims})),
                                detail=f"{_cage_name(cage, n)} split by {grp.name}: {_cells(part, n)} add up to "
                                       f"{total}")
    return None


#: name -> finder, in :data:`KILLER_TECHNIQUES` order.
FINDERS = {
    "cage_combination": _cage_combination,
    "innies_outies": _innies_outies,
    "cage_unit_overlap": _cage_unit_overlap,
    "cage_combination_unit": _cage_combination_unit,
    "cage_splitting": _cage_splitting,
    "innies_outies_multi": _innies_outies_multi,
}

# The finders the technique registry names (pipeline.difficulty.techniques).
cage_combination = _cage_combination
innies_outies = _innies_outies
cage_unit_overlap = _cage_unit_overlap
cage_combination_unit = _cage_combination_unit
cage_splitting = _cage_splitting
innies_outies_multi = _innies_outies_multi
