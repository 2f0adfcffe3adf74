"""The 36,288 standard top bands ("patterns") and their classes under band moves.

A *band* here is rows 1-3 of a grid, 27 digits row-major. A band is *standard* when box 1 reads
1..9 and row 1 is arranged (:mod:`pipeline.identity.standard`); :func:`standard_bands` lists them in
lexicographic order, the order the grid numbers use. :func:`band_classes` groups them into orbits
(breadth-first, so the first band of a class is its representative) and records, for every band,
the row/column map and relabelling that take the representative's completions to its own: the
grid numbering ranks every completion through its class representative
(:mod:`pipeline.identity.numbering_tables`), and the canonical forms use the orbits of the band group
alone (:mod:`pipeline.identity.canon`).

Pure functions of nothing; :func:`standard_bands` is memoized (the list is about 2 MB of tuples).
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from pipeline.identity.standard import BOX1, DIGITS

Band = tuple[int, ...]  # 27 digits, rows 1-3 row-major


@cache
def standard_bands() -> tuple[Band, ...]:
    """The 36,288 top bands in standard form (box 1 = 1..9, row 1 arranged), lexicographic order."""
    out = []
    for s2 in itertools.combinations((5, 6, 7, 8, 9), 2):
        a = (4, *s2)
        b = tuple(x for x in range(4, 10) if x not in a)
        row0 = (1, 2, 3, *a, *b)
        for row1p in itertools.permutations((1, 2, 3, 7, 8, 9)):
            if set(row1p[:3]) & set(a) or set(row1p[3:]) & set(b):
                continue
            rest2 = sorted(DIGITS - set(a) - set(row1p[:3]))
            rest3 = sorted(DIGITS - set(b) - set(row1p[3:]))
            if set(rest2) | set(rest3) != {1, 2, 3, 4, 5, 6}:
                continue
            row1 = (4, 5, 6, *row1p)
            for p2 in itertools.permutations(rest2):
                if any(p2[i] in (row0[3 + i], row1[3 + i]) for i in range(3)):
                    continue
                for p3 in itertools.permutations(rest3):
                    if any(p3[i] in (row0[6 + i], row1[6 + i]) for i in range(3)):
                        continue
                    out.append((*row0, *row1, 7, 8, 9, *p2, *p3))
    out.sort()
    return tuple(out)


def _act(band: Band, rows: Sequence[int], cols: Sequence[int]) -> tuple[Band, tuple[int, ...]]:
    """``X[i][j] = tau(band[rows[i]][cols[j]])`` with ``tau`` making box 1 read 1..9; returns (X, tau)."""
    x = [band[9 * rows[i] + cols[j]] for i in range(3) for j in range(9)]
    tau = [0] * 10
    for k, cell in enumerate(BOX1):
        tau[x[cell]] = k + 1
    return tuple(tau[d] for d in x), tuple(tau)


def _standard_columns(x: Band) -> tuple[int, ...]:
    """Column order that puts a band with box 1 = 1..9 into standard form (row 1 arranged)."""
    s2 = sorted(range(3, 6), key=lambda j: x[j])
    s3 = sorted(range(6, 9), key=lambda j: x[j])
    if x[s3[0]] < x[s2[0]]:
        s2, s3 = s3, s2
    return (0, 1, 2, *s2, *s3)


_ID3 = (0, 1, 2)
_ID9 = tuple(range(9))
# the band moves the orbits are closed under: two row swaps, two column swaps in stack 1, two stack swaps
_GENERATORS = (
    ((1, 0, 2), _ID9),
    ((0, 2, 1), _ID9),
    (_ID3, (1, 0, 2, 3, 4, 5, 6, 7, 8)),
    (_ID3, (0, 2, 1, 3, 4, 5, 6, 7, 8)),
    (_ID3, (3, 4, 5, 0, 1, 2, 6, 7, 8)),
    (_ID3, (0, 1, 2, 6, 7, 8, 3, 4, 5)),
)


@dataclass(frozen=True)
class BandClasses:
    """Orbits of the standard bands; for band ``t`` with class ``cls[t]`` and representative
    ``R = bands[reps[cls[t]]]``: ``rows[t]``, ``cols[t]``, ``relabel[t]`` satisfy
    ``t = relabel(R[rows][cols])`` (only meaningful when the orbits use the band group alone) and,
    always, every completion ``Y`` (rows 4-9) of ``R`` gives the completion
    ``Y_t[i][j] = relabel[Y[i][cols[j]]]`` of ``t`` (a bijection of completions)."""

    cls: tuple[int, ...]
    reps: tuple[int, ...]
    rows: tuple[tuple[int, ...], ...]
    cols: tuple[tuple[int, ...], ...]
    relabel: tuple[tuple[int, ...], ...]


def band_classes(column_sets: bool) -> BandClasses:
    """Breadth-first orbits of :func:`standard_bands` under row swaps, column and stack swaps
    (re-standardized after each move), plus, if ``column_sets``, "same column sets" (two bands with
    the same digits in every column have literally the same completions)."""
    bands = standard_bands()
    index = {b: i for i, b in enumerate(bands)}
    groups: dict[tuple[frozenset[int], ...], list[int]] = {}
    if column_sets:
        for i, b in enumerate(bands):
            groups.setdefault(tuple(frozenset((b[j], b[9 + j], b[18 + j])) for j in range(9)), []).append(i)
    n = len(bands)
    cls = [-1] * n
    rows: list[tuple[int, ...]] = [_ID3] * n
    cols: list[tuple[int, ...]] = [_ID9] * n
    relabel: list[tuple[int, ...]] = [tuple(range(10))] * n
    reps: list[int] = []
    for start in range(n):
        if cls[start] >= 0:
            continue
        cid = len(reps)
        reps.append(start)
        cls[start] = cid
        todo = deque([start])
        while todo:
            u = todo.popleft()
            m, r, c, sg = bands[u], rows[u], cols[u], relabel[u]
            if column_sets:
                for v in groups[tuple(frozenset((m[j], m[9 + j], m[18 + j])) for j in range(9))]:
                    if cls[v] < 0:
                        cls[v], rows[v], cols[v], relabel[v] = cid, r, c, sg
                        todo.append(v)
            for rg, cg in _GENERATORS:
                x, _ = _act(m, rg, cg)
                cc = tuple(cg[k] for k in _standard_columns(x))
                x, tau = _act(m, rg, cc)
                v = index[x]
                if cls[v] < 0:
                    cls[v] = cid
                    rows[v] = tuple(r[k] for k in rg)
                    cols[v] = tuple(c[k] for k in cc)
                    relabel[v] = tuple(tau[sg[k]] for k in range(10))
                    todo.append(v)
    return BandClasses(tuple(cls), tuple(reps), tuple(rows), tuple(cols), tuple(relabel))
