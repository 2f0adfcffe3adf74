"""The verifier's pure-Python solution counter: the oracle and reference of the compiled one.

:func:`independent_count` is a plain bitmask backtracking search (singles propagation, each cage
bounding its cells' candidates, the cell with fewest candidates first). It is exact, has no node
budget and never imports numba; it costs seconds on a 16x16 puzzle where its compiled twin
:mod:`pipeline.verify.count_jit` takes tens of milliseconds (``bench/profile_phases.py``). The twin
must give the same numbers (``tests/verify/test_count_jit.py``, ``tests/verify/test_variants.py``);
:mod:`pipeline.verify.puzzle` asks the twin for the uniqueness count of every written puzzle.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.board import Board, Grid
from pipeline.verify.rules import Rules, rules_of_board


def independent_count(puzzle: Grid, b: Board, limit: int = 2, rules: Rules | None = None) -> int:
    """Number of solutions of ``puzzle`` capped at ``limit >= 1`` (0 for contradictory givens) under
    ``rules`` (else ``b``'s, built here from first principles). Pure Python, exact, no node budget: the
    oracle that :func:`pipeline.verify.count_jit.independent_count` must agree with
    (``tests/verify/test_count_jit.py``, ``tests/verify/test_variants.py``). Cage mates are peers (no
    digit twice) and each cage bounds its cells' candidates (:func:`_propagate`)."""
    if rules is None:
        rules = rules_of_board(b)
    n = rules.n
    full = (1 << n) - 1
    groups: list[set[int]] = [set() for _ in range(n * n)]
    for cells in [u for _, u in rules.units] + [c for c, _ in rules.cages]:
        for i in cells:
            groups[i].update(cells)
    peers = [sorted(g - {i}) for i, g in enumerate(groups)]
    cand = [full] * (n * n)
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
    g = _Geometry(peers, [list(u) for _, u in rules.units], [(list(c), t) for c, t in rules.cages], full, n)
    return min(_search(cand, g, limit), limit)


@dataclass(frozen=True)
class _Geometry:
    peers: list[list[int]]
    units: list[list[int]]
    cages: list[tuple[list[int], int]]
    full: int  # the mask of all n digits
    n: int


def _propagate(c: list[int], g: _Geometry) -> bool:
    """Naked and hidden singles and the cages' bounds (each candidate of a cage's cell must leave the
    other cells' smallest and largest candidates able to make up the sum) to a fixpoint, in place;
    False on contradiction."""
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
        for cells, total in g.cages:
            low = sum((c[i] & -c[i]).bit_length() for i in cells)  # the cells' smallest candidates
            high = sum(c[i].bit_length() for i in cells)  # and largest
            if not low <= total <= high:
                return False
            for i in cells:  # a digit d of cell i needs the others' bounds to bracket total - d
                v = c[i]
                others_low, others_high = low - (v & -v).bit_length(), high - v.bit_length()
                keep = 0
                while v:
                    bit = v & -v
                    v ^= bit
                    if others_low <= total - bit.bit_length() <= others_high:
                        keep |= bit
                if keep != c[i]:
                    if not keep:
                        return False
                    c[i] = keep
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
