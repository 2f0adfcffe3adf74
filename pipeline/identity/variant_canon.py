"""Canonical forms of variant puzzles (X, hyper, jigsaw, killer) under each variant's own group.

Contract. :func:`canonical_variant` maps a puzzle and its rules to the smallest member of its class:
two (puzzle, rules) pairs get equal answers exactly when some element of the variant's group carries
one onto the other. :func:`canonical_variant_key` spells that answer as one line (the
``canonical_puzzle`` column of variant rows); None where no form is defined (classic boards go to
:mod:`pipeline.identity.canon`; 16x16 boards other than jigsaw have none). ``ValueError`` when the
rules do not fit the board (:func:`pipeline.board.variant_problem`'s message).

The groups. A position map is written ``(r, c, t)``: output cell ``(i, j)`` reads source cell
``(r[i], c[j])``, or ``(c[j], r[i])`` when ``t`` (the transpose). Every group below is a set of such
maps, times a set of digit maps:

* **X, hyper** (and X+hyper): the maps of the classic group (rows within bands, bands, columns within
  stacks, stacks, the transpose where boxes are square) that carry the set of extra units (both
  diagonals, the four windows) onto itself; digits relabelled freely (by first appearance, as for
  classic puzzles). The subgroup is found once per board by hashing each unit's image for all
  ``(r, c, t)`` at once (a product of small integer matrices) and checking the survivors exactly.
* **jigsaw**: the eight maps of the square (rotations, reflections; exactly the ``(r, c, t)`` with
  ``r, c`` the identity or the reversal), which carry every region layout to a region layout, filtered
  as above when diagonals or windows are added; digits relabelled freely. The layout is compared first
  (region labels renamed by first appearance), then the puzzle. Not caught: copies related by row or
  column moves that happen to keep every region connected (such moves break most layouts; searching
  all ``9!**2 * 2`` line maps per puzzle was not worth it).
* **killer**: the position maps of the board's group (classic for plain killer, the subgroups above
  with X, hyper or jigsaw), carrying cages with their sums, times two digit maps: the identity and
  the complement ``d -> n + 1 - d`` (which turns a ``k``-cell cage's sum ``s`` into ``k * (n + 1) - s``);
  no other relabelling keeps sums. Cells compare by (cage label by first appearance, the cage's sum,
  the given), so the cages come first.

Speed. Every group is an explicit list of maps scanned in Python (at most a few thousand maps),
except plain 9x9 killer, whose ``2 * 6**8`` maps times two are scanned by a compiled kernel
(:mod:`pipeline.identity.variant_canon_jit`) that skips every block of maps whose first cell cannot
reach the smallest first cell; :func:`_killer9_py` is its numpy reference, the tests' oracle.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache

import numpy as np

from pipeline.board import BOX_SHAPES, Cage, Grid, Variant, board, format_line, variant_problem

__all__ = ["canonical_variant", "canonical_variant_key", "group_maps", "has_form"]

#: a position map: for each output cell, the source cell it reads
Map = tuple[int, ...]


def _perms(groups: int, size: int) -> list[list[int]]:
    """Every permutation of ``groups * size`` lines that moves whole groups and lines within groups."""
    out = []
    for order in itertools.permutations(range(groups)):
        for inner in itertools.product(list(itertools.permutations(range(size))), repeat=groups):
            out.append([g * size + inner[k][j] for k, g in enumerate(order) for j in range(size)])
    return out


@cache
def _lines(n: int, jigsaw: bool) -> tuple[np.ndarray, np.ndarray, tuple[int, ...]]:
    """The row maps, column maps and transposes of the board's line group: the classic group's
    (bands, stacks), or for jigsaw the square's eight maps (identity and reversal, both ways)."""
    if jigsaw:
        ident, rev = list(range(n)), list(range(n - 1, -1, -1))
        both = np.array([ident, rev], dtype=np.int64)
        return both, both, (0, 1)
    br, bc = BOX_SHAPES[n]
    rows = np.array(_perms(n // br, br), dtype=np.int64)
    cols = np.array(_perms(n // bc, bc), dtype=np.int64)
    return rows, cols, ((0, 1) if br == bc else (0,))


def _src(n: int, r: Sequence[int], c: Sequence[int], t: int) -> Map:
    """The position map ``(r, c, t)`` as the source cell of each output cell."""
    if t:
        return tuple(c[j] * n + r[i] for i in range(n) for j in range(n))
    return tuple(r[i] * n + c[j] for i in range(n) for j in range(n))


@cache
def group_maps(n: int, extra: tuple[str, ...], jigsaw: bool) -> tuple[Map, ...]:
    """The position maps of the line group of side ``n`` (:func:`_lines`) that carry the extra units
    of ``extra`` (a sorted subset of ``("hyper", "x")``) onto themselves, identity first.

    Hash filter: with random weights ``A``, ``B`` per line, a cell set's hash is the sum of
    ``A[row] * B[col]`` over its cells; the image of a unit under every ``(r, c)`` at once is one
    matrix product. Maps whose every unit image hashes to a unit survive and are checked exactly."""
    rows, cols, ts = _lines(n, jigsaw)
    units = board(n, Variant(extra)).extra if extra else ()
    unit_sets = {frozenset(u) for u in units}
    rng = np.random.default_rng(0)
    a, b = rng.integers(1, 2**20, size=n), rng.integers(1, 2**20, size=n)
    hashes = np.array(sorted({int(sum(a[i // n] * b[i % n] for i in u)) for u in units}), dtype=np.int64)
    out: list[Map] = []
    for t in ts:
        ok = np.ones((len(rows), len(cols)), dtype=bool)
        for u in units:
            m = np.zeros((n, n), dtype=np.int64)
            for i in u:
                m[i // n, i % n] = 1
            h = a[rows] @ m @ b[cols].T if not t else b[rows] @ m @ a[cols].T
            ok &= np.isin(h, hashes)
        for ia, ib in zip(*np.nonzero(ok), strict=True):
            src = _src(n, rows[ia].tolist(), cols[ib].tolist(), t)
            if all(frozenset(src[k] for k in u) in unit_sets for u in units):
                out.append(src)
    ident = tuple(range(n * n))
    return (ident, *sorted(set(out) - {ident}))


def has_form(n: int, variant: Variant) -> bool:
    """Whether a variant puzzle of side ``n`` has a canonical form here: jigsaw on every size,
    the others on 4x4, 6x6 and 9x9 (16x16's line group is too large to scan)."""
    return not variant.classic and (variant.regions is not None or n in (4, 6, 9))


# ---------------------------------------------------------------------------------------------
# the forms
# ---------------------------------------------------------------------------------------------


def _relabel(seq: Sequence[int]) -> list[int]:
    """``seq`` with its nonzero values renamed 1, 2, ... by first appearance (0 stays 0)."""
    names: dict[int, int] = {}
    return [names.setdefault(x, len(names) + 1) if x else 0 for x in seq]


def _region_key(regions: str | None, src: Map) -> tuple[int, ...]:
    """The layout read through ``src``, labels renamed by first appearance (empty without regions)."""
    if regions is None:
        return ()
    return tuple(_relabel([ord(regions[s]) for s in src]))


def _cage_tables(n: int, cages: tuple[Cage, ...]) -> tuple[list[int], list[int], list[int]]:
    """The cage of each cell (-1 outside every cage), each cage's sum and size."""
    cage_of = [-1] * (n * n)
    for k, cage in enumerate(cages):
        for i in cage.cells:
            cage_of[i] = k
    return cage_of, [c.total for c in cages], [len(c.cells) for c in cages]


def _killer_codes(puzzle: Grid, n: int, tables: tuple[list[int], list[int], list[int]], src: Map,
                  flip: bool) -> tuple[int, ...]:
    """Each output cell's (cage label by first appearance, sum, given) as one int, read through
    ``src``, digits and sums complemented when ``flip``."""
    cage_of, sums, sizes = tables
    lab: dict[int, int] = {}
    out = []
    for s in src:
        k, d = cage_of[s], puzzle[s]
        if flip and d:
            d = n + 1 - d
        if k < 0:
            out.append(d)
            continue
        total = sizes[k] * (n + 1) - sums[k] if flip else sums[k]
        out.append((lab.setdefault(k, len(lab) + 1) * 1024 + total) * 32 + d)
    return tuple(out)


def _apply(puzzle: Grid, variant: Variant, n: int, src: Map, flip: bool) -> tuple[Grid, Variant]:
    """The puzzle and rules read through ``src``: digits relabelled by first appearance (complemented
    instead for killer when ``flip``, kept otherwise), regions renamed, cages moved and re-summed."""
    image = [puzzle[s] for s in src]
    digits = [n + 1 - d if flip and d else d for d in image] if variant.cages else _relabel(image)
    regions = None
    if variant.regions is not None:
        regions = "".join("123456789ABCDEFGHIJKLMNOP"[x - 1] for x in _region_key(variant.regions, src))
    where = {s: k for k, s in enumerate(src)}
    cages = tuple(sorted(Cage(tuple(sorted(where[i] for i in c.cells)),
                              len(c.cells) * (n + 1) - c.total if flip else c.total) for c in variant.cages))
    return tuple(digits), Variant(variant.kinds, regions, cages)


def _best_explicit(puzzle: Grid, variant: Variant, n: int, maps: tuple[Map, ...]) -> tuple[Map, bool]:
    """The map (and complement flag) of the smallest image over an explicit group."""
    best: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    found: tuple[Map, bool] = (maps[0], False)
    tables = _cage_tables(n, variant.cages) if variant.cages else None
    for src in maps:
        lay = _region_key(variant.regions, src)
        for flip in (False, True) if tables else (False,):
            body = (_killer_codes(puzzle, n, tables, src, flip) if tables
                    else tuple(_relabel([puzzle[s] for s in src])))
            if best is None or (lay, body) < best:
                best, found = (lay, body), (src, flip)
    return found


@cache
def _killer9_tables() -> tuple[np.ndarray, np.ndarray]:
    rows, cols, _ = _lines(9, False)
    return np.ascontiguousarray(rows, dtype=np.int8), np.ascontiguousarray(cols, dtype=np.int8)


def _killer9_inputs(puzzle: Grid, variant: Variant) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    cage_of, sums, sizes = _cage_tables(9, variant.cages)
    return (np.array(puzzle, dtype=np.int32), np.array(cage_of, dtype=np.int32),
            np.array(sums or [0], dtype=np.int32), np.array(sizes or [0], dtype=np.int32))


def _killer9(puzzle: Grid, variant: Variant) -> tuple[Map, bool]:
    """The map and flag of the smallest image of a plain 9x9 killer puzzle over the whole classic
    group times the complement, by the compiled kernel."""
    rows, cols = _killer9_tables()
    best = np.zeros(4, dtype=np.int64)
    from pipeline.identity import variant_canon_jit  # numba: loaded for killer boards, not on import

    variant_canon_jit.killer9(*_killer9_inputs(puzzle, variant), rows, cols, best)
    a, b, t, flip = (int(x) for x in best)
    return _src(9, rows[a].tolist(), cols[b].tolist(), t), bool(flip)


def _first_cell_bounds(p: np.ndarray, cage_of: np.ndarray, sums: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """The smallest code the first output cell can have, per (transpose, source line, flip): the
    bound both scans use to skip whole blocks of maps (every map of a block starts in that line)."""
    lb = np.zeros((2, 9, 2), dtype=np.int64)
    for t in range(2):
        for line in range(9):
            for flip in range(2):
                cells = [line * 9 + j for j in range(9)] if t == 0 else [j * 9 + line for j in range(9)]
                codes = []
                for s in cells:
                    k, d = int(cage_of[s]), int(p[s])
                    if flip and d:
                        d = 10 - d
                    total = (int(sizes[k]) * 10 - int(sums[k]) if flip else int(sums[k])) if k >= 0 else 0
                    codes.append((1024 + total) * 32 + d if k >= 0 else d)
                lb[t, line, flip] = min(codes)
    return lb


def _killer9_py(puzzle: Grid, variant: Variant) -> tuple[Map, bool]:
    """Reference for :func:`_killer9` (numpy; the tests' oracle): for each (transpose, row map, flip)
    whose first cell can reach the smallest first cell, every column map at once."""
    p, cage_of, sums, sizes = _killer9_inputs(puzzle, variant)
    rows, cols, _ = _lines(9, False)
    lb = _first_cell_bounds(p, cage_of, sums, sizes)
    low = lb.min()
    best: tuple[tuple[int, ...], tuple[int, int, int, int]] | None = None
    for t in range(2):
        for flip in range(2):
            for a in range(len(rows)):
                if lb[t, rows[a, 0], flip] > low:
                    continue
                r = rows[a]
                src = (r[:, None] * 9 + cols[:, None, :] if not t else cols[:, None, :] * 9 + r[:, None])
                src = src.reshape(len(cols), 81)
                k, d = cage_of[src], p[src]
                if flip:
                    d = np.where(d > 0, 10 - d, 0)
                total = np.where(k >= 0, (sizes[k] * 10 - sums[k]) if flip else sums[k], 0)
                # cage labels by first appearance along each row of src
                first = np.full((len(cols), len(sums) + 1), 99, dtype=np.int64)
                for cell in range(80, -1, -1):
                    first[np.arange(len(cols)), np.where(k[:, cell] >= 0, k[:, cell], len(sums))] = cell
                order = np.argsort(first[:, :-1], axis=1, kind="stable")
                label = np.zeros_like(first[:, :-1])
                np.put_along_axis(label, order, np.arange(1, len(sums) + 1)[None, :].repeat(len(cols), 0), axis=1)
                lab = np.where(k >= 0, np.take_along_axis(label, np.where(k >= 0, k, 0), axis=1), 0)
                codes = np.where(k >= 0, (lab * 1024 + total) * 32 + d, d)
                i = int(np.lexsort(codes.T[::-1])[0])
                cand = (tuple(codes[i].tolist()), (t, flip, a, i))
                if best is None or cand < best:
                    best = cand
    assert best is not None
    t, flip, a, b = best[1]
    return _src(9, rows[a].tolist(), cols[b].tolist(), t), bool(flip)


def canonical_variant(puzzle: Sequence[int], variant: Variant) -> tuple[Grid, Variant] | None:
    """The smallest (puzzle, rules) pair in the class of ``(puzzle, variant)`` under the variant's
    group (module docstring), or None where no form is defined (:func:`has_form`). ``ValueError``
    if ``variant`` does not fit the puzzle's board, or for a classic ``variant``."""
    if variant.classic:
        raise ValueError("a classic puzzle's form is pipeline.identity.canon's")
    p = tuple(int(x) for x in puzzle)
    n = round(len(p) ** 0.5)
    why = variant_problem(n, variant) if n * n == len(p) else f"{len(p)} cells is not a square board"
    if why:
        raise ValueError(why)
    if not has_form(n, variant):
        return None
    extra = tuple(k for k in variant.kinds if k in ("hyper", "x"))
    jigsaw = variant.regions is not None
    if variant.cages and n == 9 and not extra and not jigsaw:
        src, flip = _killer9(p, variant)
    else:
        src, flip = _best_explicit(p, variant, n, group_maps(n, extra, jigsaw))
    return _apply(p, variant, n, src, flip)


def _cages_text(cages: tuple[Cage, ...]) -> str:
    return ";".join(f"{'.'.join(map(str, c.cells))}={c.total}" for c in cages)


def canonical_variant_key(puzzle: Sequence[int], variant: Variant) -> str | None:
    """:func:`canonical_variant` as one line: the canonical puzzle, then ``|regions`` (jigsaw) and
    ``|cells=sum;...`` (killer: 0-based cells joined by ``.``, cages in order of their first cell).
    None where no form is defined. The variant's kinds are not part of it (they are the row's
    ``variant`` column; the dedup key joins the two)."""
    form = canonical_variant(puzzle, variant)
    if form is None:
        return None
    grid, rules = form
    parts = [format_line(grid)]
    if rules.regions is not None:
        parts.append(rules.regions)
    if rules.cages:
        parts.append(_cages_text(rules.cages))
    return "|".join(parts)
