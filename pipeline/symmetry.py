"""Symmetry of a layout of givens: the eight position maps, the ten groups, orbits, detection.

Cells are 0-based ``(r, c)`` on a board of side ``n``. The maps (``docs/config.md`` "Symmetry tags"):
``identity``; ``rot90`` (r,c)->(c, n-1-r); ``rot180`` (r,c)->(n-1-r, n-1-c); ``rot270``;
``mirror-h`` (r,c)->(n-1-r, c); ``mirror-v`` (r,c)->(r, n-1-c); ``mirror-d`` (r,c)->(c, r);
``mirror-a`` (r,c)->(n-1-c, n-1-r).

A layout's tag is the name of the set of maps that send its given cells onto themselves; that set is
always one of the ten subgroups in :data:`GROUPS`. The maps are pure geometry on the ``n x n``
square, so every tag applies to every board size, whatever its box shape.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache

MapFn = Callable[[int, int, int], tuple[int, int]]

MAPS: dict[str, MapFn] = {
    "identity": lambda r, c, n: (r, c),
    "rot90": lambda r, c, n: (c, n - 1 - r),
    "rot180": lambda r, c, n: (n - 1 - r, n - 1 - c),
    "rot270": lambda r, c, n: (n - 1 - c, r),
    "mirror-h": lambda r, c, n: (n - 1 - r, c),
    "mirror-v": lambda r, c, n: (r, n - 1 - c),
    "mirror-d": lambda r, c, n: (c, r),
    "mirror-a": lambda r, c, n: (n - 1 - c, n - 1 - r),
}

GROUPS: dict[str, frozenset[str]] = {
    "none": frozenset({"identity"}),
    "rot180": frozenset({"identity", "rot180"}),
    "rot90": frozenset({"identity", "rot90", "rot180", "rot270"}),
    "mirror-h": frozenset({"identity", "mirror-h"}),
    "mirror-v": frozenset({"identity", "mirror-v"}),
    "mirror-d": frozenset({"identity", "mirror-d"}),
    "mirror-a": frozenset({"identity", "mirror-a"}),
    "orthogonal": frozenset({"identity", "mirror-h", "mirror-v", "rot180"}),
    "diagonal": frozenset({"identity", "mirror-d", "mirror-a", "rot180"}),
    "full": frozenset(MAPS),
}
TAGS: tuple[str, ...] = tuple(GROUPS)
_TAG_OF_GROUP = {g: name for name, g in GROUPS.items()}


@cache
def permutation(name: str, n: int) -> tuple[int, ...]:
    """The map ``name`` as a permutation of cell indices on a board of side ``n``."""
    f = MAPS[name]
    out = []
    for i in range(n * n):
        r, c = f(*divmod(i, n), n)
        out.append(r * n + c)
    return tuple(out)


@cache
def orbits(tag: str, n: int) -> tuple[tuple[int, ...], ...]:
    """Orbits of the cells under group ``tag``: disjoint sorted cell tuples, ordered by first cell."""
    perms = [permutation(m, n) for m in GROUPS[tag]]
    seen: set[int] = set()
    out = []
    for i in range(n * n):
        if i in seen:
            continue
        orb = tuple(sorted({p[i] for p in perms}))
        seen.update(orb)
        out.append(orb)
    return tuple(out)


def symmetry_tag(given_cells: Iterable[int], n: int) -> str:
    """The tag of the layout: the name of the group of maps that fix the set of given cells."""
    cells = frozenset(given_cells)
    fixing = frozenset(m for m in MAPS if all(permutation(m, n)[i] in cells for i in cells))
    return _TAG_OF_GROUP[fixing]


def contains(tag: str, requested: str) -> bool:
    """True when group ``tag`` contains group ``requested`` (a layout tagged ``tag`` honours it)."""
    return GROUPS[requested] <= GROUPS[tag]
