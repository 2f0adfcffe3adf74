"""The subsets: locked, naked and hidden pairs, triples and quads.

Finders (see :data:`~pipeline.difficulty.candidates.Finder`) for ``locked_pair/triple``,
``naked_pair/triple/quad`` and ``hidden_pair/triple/quad`` (and graders 2-4's locked and naked pairs and
triples, ``_until_4``). Units are scanned in the order a human scans them (boxes, rows, columns, then a
variant's extra units: :attr:`~pipeline.difficulty.candidates._Geo.scan_order`); on a variant board every
unit takes part. Compiled twins: :mod:`.subsets_jit`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from pipeline.difficulty.candidates import (
    Candidates,
    Step,
    _bits,
    _cells,
    _Ctx,
    _digits,
    _elims_of,
    _Geo,
    _slash,
)

_SUBSET = {2: "pair", 3: "triple", 4: "quad"}


def _shared_units(g: _Geo, cells: Sequence[int]) -> list[int]:
    """The units holding every cell of ``cells``, in unit order (rows, columns, boxes, extra units)."""
    if g.classic:
        n = g.n
        out = []
        c0 = cells[0]
        if all(g.row_of[c] == g.row_of[c0] for c in cells):
            out.append(g.row_of[c0])
        if all(g.col_of[c] == g.col_of[c0] for c in cells):
            out.append(n + g.col_of[c0])
        if all(g.box_of[c] == g.box_of[c0] for c in cells):
            out.append(2 * n + g.box_of[c0])
        return out
    bits = 0
    for c in cells:
        bits |= 1 << c
    return [u for u in g.containing[cells[0]] if not bits & ~g.unit_mask[u]]


def _naked_subset(st: Candidates, k: int, locked: bool, hodoku: bool = False) -> Step | None:
    """Naked subset of size ``k``. ``locked``: only subsets inside a box *and* a line (k <= 3),
    eliminating from both (HoDoKu's Locked Pair/Triple; on a variant board any two shared units, e.g.
    a region and a row, or a box and a diagonal); otherwise only the others.

    ``hodoku`` (grader 5's rows): a subset is locked only when its eliminations reach two of its shared
    units, as HoDoKu's ``createSubsetStep`` decides (:func:`_locked_by_elims`); one inside a box and a
    line that removes candidates from only one of them is a naked subset (HoDoKu's Naked Pair/Triple).
    """
    g, n, cand = st.geo, st.n, st.cand
    for u in g.scan_order:
        cells = [i for i in g.units[u] if 2 <= cand[i].bit_count() <= k]
        if len(cells) < k:
            continue
        for combo in combinations(cells, k):
            m = 0
            for i in combo:
                m |= cand[i]
            if m.bit_count() != k:
                continue
            shared = _shared_units(g, combo)
            is_locked = len(shared) >= 2 and k <= 3
            if not hodoku and is_locked != locked:
                continue
            els: list[tuple[int, int]] = []
            for s in shared:
                for j in g.units[s]:
                    if j not in combo and cand[j] & m:
                        els.extend((j, d) for d in _digits(cand[j] & m))
            if hodoku:
                is_locked = is_locked and _locked_by_elims(g, shared, els)
                if is_locked != locked:
                    continue
            if els:
                name = ("locked_" if locked else "naked_") + _SUBSET[k]
                where = " and ".join(g.names[s] for s in shared)
                return Step(name, combo, eliminations=_elims_of(els), digits=tuple(_digits(m)), units=tuple(shared),
                            detail=f"{_slash(m)} in {_cells(combo, n)} ({where})")
    return None


def _locked_by_elims(g: _Geo, shared: Sequence[int], els: Sequence[tuple[int, int]]) -> bool:
    """HoDoKu's test of a locked subset: of the units the subset shares, at least two lose a candidate,
    a box (or region) by any elimination in it, any other unit only by one outside the shared box."""
    n = g.n
    boxes = [s for s in shared if 2 * n <= s < 3 * n]
    box_mask = g.unit_mask[boxes[0]] if boxes else 0
    hit = 0
    for s in shared:
        um = g.unit_mask[s] if s in boxes else g.unit_mask[s] & ~box_mask
        if any(um >> j & 1 for j, _d in els):
            hit += 1
    return hit >= 2


def _hidden_subset(st: Candidates, ctx: _Ctx, k: int) -> Step | None:
    g, n, cand, w = st.geo, st.n, st.cand, ctx.where
    for u in g.scan_order:
        um = g.unit_mask[u]
        digs = []
        for j in range(n):
            pos = w[j] & um
            if 2 <= pos.bit_count() <= k:
                digs.append((j, pos))
        if len(digs) < k:
            continue
        for combo in combinations(digs, k):
            cm = 0
            dm = 0
            for j, pos in combo:
                cm |= pos
                dm |= 1 << j
            if cm.bit_count() != k:
                continue
            cells = tuple(_bits(cm))
            els = [(i, d) for i in cells for d in _digits(cand[i] & ~dm)]
            if els:
                return Step("hidden_" + _SUBSET[k], cells, eliminations=_elims_of(els), digits=tuple(_digits(dm)),
                            units=(u,), detail=f"{_slash(dm)} in {_cells(cells, n)} ({g.names[u]})")
    return None


# The finders the technique registry names (pipeline.difficulty.techniques); ``_until_4``: graders 2-4's rule
# (any pair or triple inside a box and a line is locked), kept for their rulebooks.


def locked_pair(st: Candidates, ctx: _Ctx) -> Step | None:
    return _naked_subset(st, 2, True, hodoku=True)


def locked_triple(st: Candidates, ctx: _Ctx) -> Step | None:
    return _naked_subset(st, 3, True, hodoku=True)


def naked_pair(st: Candidates, ctx: _Ctx) -> Step | None:
    return _naked_subset(st, 2, False, hodoku=True)


def naked_triple(st: Candidates, ctx: _Ctx) -> Step | None:
    return _naked_subset(st, 3, False, hodoku=True)


def naked_quad(st: Candidates, ctx: _Ctx) -> Step | None:
    return _naked_subset(st, 4, False)


def hidden_pair(st: Candidates, ctx: _Ctx) -> Step | None:
    return _hidden_subset(st, ctx, 2)


def hidden_triple(st: Candidates, ctx: _Ctx) -> Step | None:
    return _hidden_subset(st, ctx, 3)


def hidden_quad(st: Candidates, ctx: _Ctx) -> Step | None:
    return _hidden_subset(st, ctx, 4)


def locked_pair_until_4(st: Candidates, ctx: _Ctx) -> Step | None:
    return _naked_subset(st, 2, True)


def locked_triple_until_4(st: Candidates, ctx: _Ctx) -> Step | None:
    return _naked_subset(st, 3, True)


def naked_pair_until_4(st: Candidates, ctx: _Ctx) -> Step | None:
    return _naked_subset(st, 2, False)


def naked_triple_until_4(st: Candidates, ctx: _Ctx) -> Step | None:
    return _naked_subset(st, 3, False)
