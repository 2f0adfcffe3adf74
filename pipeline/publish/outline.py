"""The geometry of outlines drawn on a grid, in cell units (y down): runs of flagged edges
(:func:`runs`, the grid's thick and thin rules), the inset border loops of a set of cells
(:func:`inset_loops`, a killer cage's outline) and a closed outline cut into dashes that meet at every
corner (:func:`dash_pieces`). Pure arithmetic: no drawing back end is imported here.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

#: A point in cell units.
Point = tuple[float, float]


def runs(flags: list[bool], want: bool) -> Iterator[tuple[int, int]]:
    """The maximal runs ``[a, b)`` of positions whose flag is ``want``."""
    start = None
    for k, flag in enumerate([*flags, not want]):
        if flag == want and start is None:
            start = k
        elif flag != want and start is not None:
            yield start, k
            start = None


def inset_loops(cells: frozenset[int], n: int, inset: float, extra: Any = None) -> tuple[tuple[Point, ...], ...]:
    """The border of ``cells`` as closed loops of corners (clockwise on screen: the cells on the
    right of travel, y down), each corner moved inwards along both of its edges' normals by ``inset``
    plus ``extra(edge)`` (a function of the unit edge's two lattice points; None: nothing more)."""
    edges: dict[tuple[int, int], list[tuple[int, int]]] = {}

    def edge(a: tuple[int, int], b: tuple[int, int]) -> None:
        edges.setdefault(a, []).append(b)

    for i in sorted(cells):
        r, c = divmod(i, n)
        if r == 0 or i - n not in cells:
            edge((c, r), (c + 1, r))  # top, travelling right
        if c == n - 1 or i + 1 not in cells:
            edge((c + 1, r), (c + 1, r + 1))  # right, down
        if r == n - 1 or i + n not in cells:
            edge((c + 1, r + 1), (c, r + 1))  # bottom, left
        if c == 0 or i - 1 not in cells:
            edge((c, r + 1), (c, r))  # left, up

    def take(here: tuple[int, int], step: tuple[int, int], extra: tuple[int, int] | None) -> tuple[int, int]:
        """The next corner from ``here`` after ``step``: at a pinch (cells touching only at a corner)
        the right turn first, then straight on, then left, so each loop keeps to its own cells."""
        outs = edges.get(here, []) + ([extra] if extra is not None else [])
        order = ((-step[1], step[0]), step, (step[1], -step[0]))
        return min(outs, key=lambda v: order.index((v[0] - here[0], v[1] - here[1])))

    loops: list[tuple[Point, ...]] = []
    while edges:
        start = min(edges)
        first = edges[start][0]
        path, here, step = [start], first, (first[0] - start[0], first[1] - start[1])
        edges[start].remove(first)
        while True:
            nxt = take(here, step, first if here == start else None)
            if here == start and nxt == first:
                break  # back on the first edge: the loop is closed
            edges[here].remove(nxt)
            path.append(here)
            step, here = (nxt[0] - here[0], nxt[1] - here[1]), nxt
        for v in [v for v, outs in edges.items() if not outs]:
            del edges[v]
        loops.append(corners(path, inset, extra))
    return tuple(loops)


def corners(path: list[tuple[int, int]], inset: float, extra: Any = None) -> tuple[Point, ...]:
    """The corners of a closed lattice path, each moved along the inward normals of its two edges
    (the inward normal of a step ``(dx, dy)`` is ``(-dy, dx)``: the cells are on the right) by
    ``inset`` plus ``extra(edge)``: the meeting point of the two edges' inset lines. On a straight
    stretch whose two edges are inset differently the outline steps (two points)."""
    out: list[Point] = []
    m = len(path)
    for k, (x, y) in enumerate(path):
        prev, nxt = path[k - 1], path[(k + 1) % m]
        a = (x - prev[0], y - prev[1])
        b = (nxt[0] - x, nxt[1] - y)
        da = inset + (extra(prev, (x, y)) if extra is not None else 0.0)
        db = inset + (extra((x, y), nxt) if extra is not None else 0.0)
        if a == b:
            if abs(da - db) > 1e-12:  # the rule under the side changes here: a step
                out.append((x - a[1] * da, y + a[0] * da))
                out.append((x - a[1] * db, y + a[0] * db))
            continue  # a straight stretch: not a corner
        out.append((x - a[1] * da - b[1] * db, y + a[0] * da + b[0] * db))
    return tuple(out)


def dash_pieces(loop: tuple[Point, ...], dash: float, gap: float) -> list[tuple[Point, ...]]:
    """A closed outline ``loop`` (corner points) cut into dashes: each side gets a whole number of
    periods (the period stretched or shrunk to fit, about ``dash + gap``), with half a dash at each
    end, so every corner is the middle of a dash drawn as one polyline through it (an L, joined
    cleanly by the stroke's mitre join); a side shorter than a period is drawn whole, joining its
    corners. Returns the dashes as open polylines (a loop of short sides only: one closed polyline,
    its first point repeated at its end)."""
    period = dash + gap
    m = len(loop)
    pieces: list[list[Point]] = []
    current: list[Point] = [loop[0]]
    for k in range(m):
        (px, py), (qx, qy) = loop[k], loop[(k + 1) % m]
        length = math.hypot(qx - px, qy - py)
        if length < period:  # short: solid, part of the dash that holds its corners
            current.append((qx, qy))
            continue
        ux, uy = (qx - px) / length, (qy - py) / length
        count = max(1, round(length / period))
        step = length / count
        h = dash * step / period / 2
        current.append((px + ux * h, py + uy * h))
        pieces.append(current)
        for j in range(1, count):
            pieces.append([(px + ux * (j * step - h), py + uy * (j * step - h)),
                           (px + ux * (j * step + h), py + uy * (j * step + h))])
        current = [(qx - ux * h, qy - uy * h), (qx, qy)]
    if pieces:  # the last corner's dash runs on into the first side's
        pieces[0] = current + pieces[0][1:]
    else:
        pieces = [current]
    return [tuple(p) for p in pieces]
