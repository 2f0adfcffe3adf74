"""Canonical forms of 9x9 grids and puzzles under the whole validity-preserving group.

The group: relabel digits x permute rows within bands x permute bands x permute columns within
stacks x permute stacks x transpose (``9! * 2 * 6**8`` elements). The canonical form of a grid or
puzzle is the lexicographically smallest row-major digit tuple (blank = 0) over the whole orbit,
so two grids/puzzles are equivalent exactly when their canonical forms are equal. For a fixed
position map the best relabelling numbers the digits 1, 2, ... in order of first appearance
(blanks stay blanks), so only the ``2 * 6**8`` position maps are searched.

Grids (:func:`canonical_grid`). All nine digits appear in row 1, so row 1 of the canonical form is
``123456789`` and the form starts with the smallest *top band* reachable. For each of the six bands
(three bands of the grid and of its transpose) a table gives the smallest form that band can take
under row/column/stack permutations and every position map that reaches it. Only the bands whose
smallest form is the overall smallest are completed; with the top band fixed the other six rows are
forced (their column-1 digits are distinct, so rows go in ascending order of column 1 within each
band and the band with the smaller column-1 digit comes first). The table is built from the 36,288
standard bands of :mod:`pipeline.identity.bands` (416 classes under row, column and stack swaps), in a
few seconds, and cached next to the numbering tables (``canon-v{VERSION}.npz``, checksummed); loading
it loads the numbering tables too, whose band list it is checked against
(:mod:`pipeline.identity.canon_tables`).

Puzzles (:func:`canonical_puzzle`). Branch and bound, row by row, with every surviving partial map
kept (the search is exact): level 0 picks the first row and the column arrangement from the
pattern of givens (blanks first, labels 1, 2, ... in order), then each further level appends a row
allowed by the band structure and keeps only candidates whose relabelled prefix is minimal. The
candidates live in numpy arrays; when a puzzle has more than a few thousand (sparse puzzles, blank
rows), candidates with identical futures are merged. That numpy search (about 0.7 ms per 25-given
puzzle) is kept as the reference (:func:`_canonical_puzzle_py`, the tests' oracle); the public
functions run the same breadth-first search compiled with numba (:mod:`pipeline.identity.canon_jit`,
tens of microseconds per puzzle), with exact reductions for blank rows and columns instead of the
merging. Small boards (4x4, 6x6) likewise: a compiled scan over every position map
(:func:`canonical_small`) with the numpy brute force as its reference (:func:`_canonical_small_py`).

Public functions and their references give identical results for every input (errors included:
whatever the compiled path does not handle, from validation messages to odd input types, is passed
to the reference). Where :func:`pipeline.compiled.use_compiled` says Python (a one-shot command) the
references answer (about a millisecond each, against about 0.35 s of CPU to load numba and the
kernels), so ``numplace generate --count 1`` loads no compiler.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Sequence
from functools import cache

import numpy as np

from pipeline.board import Grid, board, conflict, format_line
from pipeline.compiled import use_compiled
from pipeline.identity.canon_tables import COLPERMS as _COLPERMS
from pipeline.identity.canon_tables import VERSION, reset_tables, tables
from pipeline.identity.standard import ARRANGEMENTS, BOX1, PERMS3, check_grid

__all__ = ["VERSION", "canonical_grid", "canonical_key", "canonical_puzzle", "canonical_puzzles", "canonical_small",
           "check_puzzle", "dedup_key", "reset_tables", "tables"]

_POW10 = 10 ** np.arange(8, -1, -1, dtype=np.int64)
_TRANSPOSE = tuple(9 * (i % 9) + i // 9 for i in range(81))
# standardization of a band whose box 1 reads 1..9: by the arrangement of row 1 (see identity.standard)
_STD_COLS = tuple(tuple(int(x) for x in np.argsort(ARRANGEMENTS[a])) for a in range(72))
_GATHER = tuple(tuple(9 * i + cs[j] for i in range(3) for j in range(9)) for cs in _STD_COLS)


# ---------------------------------------------------------------------------------------------
# grids
# ---------------------------------------------------------------------------------------------


def _arr6(v0: int, v1: int, v2: int, v3: int, v4: int, v5: int) -> int:
    """Arrangement number (:func:`pipeline.identity.standard.arrangement_of`) of six distinct values, inlined."""
    a = 36 if min(v0, v1, v2) > min(v3, v4, v5) else 0
    r0 = (v0 > v1) + (v0 > v2)
    r1 = (v1 > v0) + (v1 > v2)
    r2 = (v3 > v4) + (v3 > v5)
    r3 = (v4 > v3) + (v4 > v5)
    return a + _P3IDX[r0 * 3 + r1] * 6 + _P3IDX[r2 * 3 + r3]


_P3IDX = [0] * 9
for _i, _p in enumerate(PERMS3):
    _P3IDX[_p[0] * 3 + _p[1]] = _i


_BOX1_GET = operator.itemgetter(*BOX1)
_TRANSPOSE_GET = operator.itemgetter(*_TRANSPOSE)
_GATHER_GET = tuple(operator.itemgetter(*ix) for ix in _GATHER)
_DIGITS = bytes(range(1, 10))


def canonical_grid(grid: Sequence[int]) -> Grid:
    """The smallest row-major tuple equivalent to a valid 9x9 grid under the validity-preserving
    group; ``ValueError`` if ``grid`` is not a complete valid grid. Equal for equivalent grids only.

    Validation is folded into the band look-ups: a band whose relabelled standard form is in the
    table has valid rows and boxes, so six successful look-ups (three bands of the grid, three of its
    transpose) prove every row, column and box valid; any failure re-checks with ``check_grid`` for
    the error message.
    """
    try:
        g0 = bytes(grid) if isinstance(grid, tuple | list) else bytes(check_grid(grid))
        if len(g0) != 81:
            raise ValueError
    except (TypeError, ValueError):
        check_grid(grid)
        raise
    t = tables()
    pattern_of, min_key = t.pattern_of, t.min_key
    best_key = -1
    cands: list[tuple[bytes, int, int, tuple[int, ...]]] = []
    for src in (g0, bytes(_TRANSPOSE_GET(g0))):
        for b in (0, 27, 54):
            x = src[b : b + 27]
            x = x.translate(bytes.maketrans(bytes(_BOX1_GET(x)), _DIGITS))
            a = _arr6(x[3], x[4], x[5], x[6], x[7], x[8])
            p = pattern_of.get(bytes(_GATHER_GET[a](x)), -1)
            if p < 0:
                check_grid(grid)
                raise ValueError("not a valid Sudoku grid")  # pragma: no cover - check_grid has raised
            key = min_key[p]
            if best_key < 0 or key < best_key:
                best_key = key
                cands = [(src, b, p, _STD_COLS[a])]
            elif key == best_key:
                cands.append((src, b, p, _STD_COLS[a]))
    best: Grid | None = None
    for src, b, p, cs in cands:
        others = [r for r in range(0, 81, 9) if not b <= r < b + 27]
        for mr, mc in t.maps(p):
            order = [cs[m] for m in mc]
            r0 = b + 9 * mr[0]
            lab = [0] * 10
            for j, o in enumerate(order):
                lab[src[r0 + o]] = j + 1
            top = [lab[src[b + 9 * i + o]] for i in mr for o in order]
            rest = [[lab[src[r + o]] for o in order] for r in others]
            b2, b3 = sorted(rest[0:3]), sorted(rest[3:6])
            if b3[0][0] < b2[0][0]:
                b2, b3 = b3, b2
            out = tuple(top + b2[0] + b2[1] + b2[2] + b3[0] + b3[1] + b3[2])
            if best is None or out < best:
                best = out
    assert best is not None
    return best


# ---------------------------------------------------------------------------------------------
# puzzles
# ---------------------------------------------------------------------------------------------


def check_puzzle(puzzle: Sequence[int]) -> Grid:
    """``puzzle`` as a tuple if it is 81 digits 0..9 with no digit twice in a unit, else ``ValueError``."""
    try:
        p = tuple(int(d) for d in puzzle)
    except (TypeError, ValueError):
        raise ValueError("a puzzle must be a sequence of 81 digits 0..9 (0 = blank)") from None
    if len(p) != 81:
        raise ValueError(f"a 9x9 puzzle has 81 cells, got {len(p)}")
    bad = [i for i, d in enumerate(p) if not 0 <= d <= 9]
    if bad:
        r, c = divmod(bad[0], 9)
        raise ValueError(f"row {r + 1}, column {c + 1} holds {p[bad[0]]}; cells hold 0 (blank) or 1..9")
    why = conflict(p)
    if why:
        raise ValueError(f"puzzle has a conflict: {why}")
    return p


# _PKEY[cp, mask]: the nonzero-pattern of a row (bit j = column j given) after column map cp, read
# with column 1 as the most significant bit; smaller means more leading blanks (int16: keys < 512).
_MASKBIT = (np.arange(512, dtype=np.int16)[None, :] >> np.arange(9, dtype=np.int16)[:, None]) & 1  # [bit, mask]
_PKEY = np.zeros((len(_COLPERMS), 512), dtype=np.int16)
_TERM = np.empty_like(_PKEY)  # one work array: fresh large temporaries cost more than the arithmetic
for _j in range(9):
    np.take(_MASKBIT, _COLPERMS[:, _j], axis=0, out=_TERM)
    _TERM <<= 8 - _j
    _PKEY += _TERM
del _TERM
_MINKEY = _PKEY.min(axis=0).astype(np.int64)  # (512,)
# the column maps reaching _MINKEY[m], ascending, for each mask m: _ARG_FLAT[_ARG_OFF[m] : _ARG_OFF[m + 1]]
_ARG_MASK, _ARG_FLAT = (np.ascontiguousarray(x) for x in np.nonzero(np.equal(_PKEY.T, _MINKEY[:, None])))
_ARG_OFF = np.concatenate([[0], np.cumsum(np.bincount(_ARG_MASK, minlength=512))])
_OTHERS = np.array([[3 * (r // 3) + x for x in range(3) if x != r % 3] for r in range(9)], dtype=np.int64)
_NOT_BAND = np.array([[r for r in range(9) if r // 3 != b] for b in range(3)], dtype=np.int64)
_SHIFT9 = np.arange(9)
_BIT9 = 1 << _SHIFT9
# _PREFIX[mask, j]: how many of columns 0..j are set in mask (a fast cumsum of a 9-wide bool row)
_PREFIX = np.cumsum((np.arange(512)[:, None] >> _SHIFT9[None, :]) & 1, axis=1)


def _ragged(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For groups of sizes ``counts``: (group of each item, index of each item within its group)."""
    grp = np.repeat(np.arange(len(counts)), counts)
    starts = np.cumsum(counts) - counts
    return grp, np.arange(len(grp)) - starts[grp]


_DEDUP_AT = 4096
_BAND_ROWS = np.arange(9).reshape(3, 3)
_Cands = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _dedup(
    k: int,
    cid: np.ndarray,
    pid: np.ndarray,
    v: np.ndarray,
    cp: np.ndarray,
    order: np.ndarray,
    lab: np.ndarray,
    nxt: np.ndarray,
) -> _Cands:
    """Drop candidates (after ``k + 1`` rows) whose future is the same as an earlier one's.

    The future of a candidate depends on its puzzle, orientation, column map and labels, and on
    the rows still to place: the rest of the current band and the untouched bands, as multisets of
    row contents (rows with equal content, i.e. blank rows, are interchangeable).
    """
    n = len(cp)
    ids = cid[pid, v]  # (n, 9) content id of each row
    cols = [pid, v, cp]
    used = k + 1
    if used % 3:
        band = order[:, used - 1] // 3
        rows = _BAND_ROWS[band]
        left = np.ones((n, 3), dtype=bool)
        for j in range(used - used % 3, used):
            left &= rows != order[:, j : j + 1]
        rest = np.where(left, ids[np.arange(n)[:, None], rows], 99)
        rest.sort(axis=1)
        cols.append(rest @ np.array([10_000, 100, 1]))
    touched = np.zeros((n, 3), dtype=bool)
    for j in range(0, used, 3):
        touched[np.arange(n), order[:, j] // 3] = True
    codes = []
    for b in range(3):
        member = np.sort(ids[:, 3 * b : 3 * b + 3], axis=1) @ np.array([10_000, 100, 1])
        codes.append(np.where(touched[:, b], -1, member))
    bands = np.sort(np.stack(codes, axis=1), axis=1)
    key = np.column_stack([*cols, bands, lab])
    _, first = np.unique(key, axis=0, return_index=True)
    keep = np.sort(first)
    return pid[keep], v[keep], cp[keep], order[keep], lab[keep], nxt[keep]


def _row_options(order: np.ndarray, k: int) -> np.ndarray:
    """The rows each candidate may put at position ``k`` (1..8), given the rows ``order[:, :k]``
    it placed so far: the band structure allows 2 (second row of a band), 1 (third row), 6 (first
    row of the second band) or 3 (first row of the third band) choices."""
    if k % 3 == 1:
        return _OTHERS[order[:, k - 1]]
    if k % 3 == 2:
        prev = order[:, k - 1]
        return (3 * (prev // 3) + 3 - prev % 3 - order[:, k - 2] % 3)[:, None]
    if k == 3:
        return _NOT_BAND[order[:, 0] // 3]
    return (3 * (3 - order[:, 0] // 3 - order[:, 3] // 3))[:, None] + np.arange(3)[None, :]


def _search_many(puzzles: Sequence[Grid]) -> list[Grid]:
    """Exact branch and bound over all position maps for a batch of puzzles (module docstring).

    Candidates of all puzzles live in the same arrays, grouped by puzzle (``pid`` ascending); each
    level keeps, per puzzle, the candidates whose relabelled row is the smallest.
    """
    a = np.array(puzzles, dtype=np.int64).reshape(-1, 9, 9)
    nb = len(a)
    ver = np.stack([a, a.transpose(0, 2, 1)], axis=1)  # (B, 2, 9, 9)
    masks = ((ver != 0) << _SHIFT9).sum(3).reshape(nb, 18)
    mk = _MINKEY[masks]
    sel_b, sel_vr = np.nonzero(mk == mk.min(axis=1, keepdims=True))
    m = masks[sel_b, sel_vr]
    grp, within = _ragged(_ARG_OFF[m + 1] - _ARG_OFF[m])
    pid, vr = sel_b[grp], sel_vr[grp]
    cp = _ARG_FLAT[_ARG_OFF[m][grp] + within]
    v, first = vr // 9, vr % 9
    n = len(cp)
    flat = ver.ravel()
    order = np.zeros((n, 9), dtype=np.int64)
    order[:, 0] = first
    vals = flat[((pid * 2 + v) * 81 + first * 9)[:, None] + _COLPERMS[cp]]
    nz = vals > 0
    lab = np.zeros((n, 10), dtype=np.int64)
    lab[np.arange(n)[:, None], vals] = np.where(nz, _PREFIX[nz @ _BIT9], 0)
    nxt = nz.sum(1) + 1
    # rows with identical content are interchangeable: all-blank rows share one id
    cid = np.where((ver != 0).any(axis=3), np.arange(9)[None, None, :], 9)  # (B, 2, 9)
    if len(cp) > _DEDUP_AT and np.bincount(pid).max() > _DEDUP_AT:
        pid, v, cp, order, lab, nxt = _dedup(0, cid, pid, v, cp, order, lab, nxt)
    for k in range(1, 9):
        opts = _row_options(order, k)
        width = opts.shape[1]
        src = np.repeat(np.arange(len(order)), width) if width > 1 else np.arange(len(order))
        rows = opts.ravel()
        ps = pid[src]
        vals = flat[((ps * 2 + v[src]) * 81 + rows * 9)[:, None] + _COLPERMS[cp[src]]]
        cur = lab.ravel()[(src * 10)[:, None] + vals]
        new = (vals > 0) & (cur == 0)
        cur += np.where(new, nxt[src][:, None] + _PREFIX[new @ _BIT9] - 1, 0)
        rk = cur @ _POW10
        if nb == 1:
            keep = np.flatnonzero(rk == rk.min())
        else:
            starts = np.flatnonzero(np.concatenate([[True], ps[1:] != ps[:-1]]))
            gmin = np.minimum.reduceat(rk, starts)
            keep = np.flatnonzero(rk == np.repeat(gmin, np.diff(np.append(starts, len(ps)))))
        sel = src[keep]
        pid, v, cp, order, lab = pid[sel], v[sel], cp[sel], order[sel], lab[sel]
        order[:, k] = rows[keep]
        lab.ravel()[(np.arange(len(sel)) * 10)[:, None] + vals[keep]] = cur[keep]
        nxt = nxt[sel] + new[keep].sum(1)
        if len(cp) > _DEDUP_AT and k < 8 and np.bincount(pid).max() > _DEDUP_AT:
            pid, v, cp, order, lab, nxt = _dedup(k, cid, pid, v, cp, order, lab, nxt)
    out: list[Grid] = []
    firsts = np.flatnonzero(np.concatenate([[True], pid[1:] != pid[:-1]]))
    for i in firsts.tolist():
        w = ver[pid[i], v[i]][order[i]][:, _COLPERMS[cp[i]]]
        out.append(tuple(lab[i][w].ravel().tolist()))
    return out


def _search(p: Grid) -> Grid:
    """:func:`_search_many` of one puzzle (an all-blank puzzle is its own form)."""
    return p if not any(p) else _search_many([p])[0]


def _canonical_puzzle_py(puzzle: Sequence[int]) -> Grid:
    """Reference for :func:`canonical_puzzle`: the numpy branch and bound (the tests' oracle)."""
    p = check_puzzle(puzzle)
    if all(p):
        return canonical_grid(p)
    return _search(p)


def _canonical_puzzles_py(puzzles: Sequence[Sequence[int]], batch: int = 32) -> list[Grid]:
    """Reference for :func:`canonical_puzzles`: the numpy search, ``batch`` puzzles at a time."""
    checked = [check_puzzle(p) for p in puzzles]
    out: list[Grid | None] = [None] * len(checked)
    todo = []
    for i, p in enumerate(checked):
        if all(p):
            out[i] = canonical_grid(p)
        elif not any(p):
            out[i] = p
        else:
            todo.append(i)
    for s in range(0, len(todo), batch):
        part = todo[s : s + batch]
        for i, form in zip(part, _search_many([checked[i] for i in part]), strict=True):
            out[i] = form
    return [p for p in out if p is not None]


# ---------------------------------------------------------------------------------------------
# puzzles, compiled (pipeline.identity.canon_jit)
# ---------------------------------------------------------------------------------------------

# the kernel's tables: the same column maps and first-row tables as the reference, compact dtypes
_K_COLPERMS = np.ascontiguousarray(_COLPERMS, dtype=np.int8)
_K_MINKEY = np.ascontiguousarray(_MINKEY, dtype=np.int32)
_K_ARG_OFF = np.ascontiguousarray(_ARG_OFF, dtype=np.int32)
_K_ARG_FLAT = np.ascontiguousarray(_ARG_FLAT, dtype=np.int32)
# digit bytes -> the characters of format_line (0 -> ".", d -> SYMBOLS[d - 1] for d <= 9)
_TO_TEXT = bytes.maketrans(bytes(range(10)), b".123456789")


def _digit_bytes(puzzle: Sequence[int]) -> bytes | None:
    """The cells of a list or tuple of ints 0..255 as bytes (the kernels' input), else None (other
    types and values go the reference's way, so they get exactly its conversion and messages)."""
    if isinstance(puzzle, tuple | list):
        try:
            return bytes(puzzle)
        except (TypeError, ValueError):
            return None
    return None


def _form9(puzzle: Sequence[int], search_complete: bool = False) -> bytes:
    """:func:`canonical_puzzle` of a 9x9 puzzle as 81 digit bytes, by the compiled kernel.

    ``ValueError`` exactly as :func:`check_puzzle` (which is asked for the message). A complete grid
    goes to :func:`canonical_grid` unless ``search_complete`` (tests: the kernel on grids).
    """
    if not search_complete and not use_compiled():
        return bytes(_canonical_puzzle_py(puzzle))
    buf = _digit_bytes(puzzle)
    if buf is None or len(buf) != 81:
        buf = bytes(check_puzzle(puzzle))  # converts the same way as the reference, or raises its error
    from pipeline.identity import canon_jit  # numba: loaded on the first compiled call, not on import

    out = np.empty(81, dtype=np.uint8)
    status = canon_jit.canon9(
        np.frombuffer(buf, dtype=np.uint8), out, _K_COLPERMS, _K_MINKEY, _K_ARG_OFF, _K_ARG_FLAT, search_complete
    )
    if status == 0:
        return out.tobytes()
    if status == 1:
        return bytes(canonical_grid(tuple(buf)))
    check_puzzle(puzzle)  # raises: a digit above 9 or a conflict
    raise AssertionError("the kernel rejected a puzzle that check_puzzle accepts")  # pragma: no cover


def canonical_puzzle(puzzle: Sequence[int]) -> Grid:
    """The smallest row-major tuple (blank = 0) equivalent to ``puzzle`` under the validity-preserving
    group, digits relabelled in order of first appearance. ``ValueError`` if ``puzzle`` is not 81
    digits 0..9 or has a digit twice in a row, column or box. A complete grid gets the same answer
    as :func:`canonical_grid` (which is used for it, being faster). Compiled; identical to
    :func:`_canonical_puzzle_py` for every input."""
    return tuple(_form9(puzzle))


def canonical_puzzles(puzzles: Sequence[Sequence[int]], batch: int = 32) -> list[Grid]:
    """:func:`canonical_puzzle` of each puzzle. ``batch`` is accepted and ignored: it sizes the batches
    of the numpy search (:func:`_canonical_puzzles_py`); the compiled kernel takes one puzzle at a time.
    ``ValueError`` for the first bad puzzle, as :func:`check_puzzle` words it."""
    del batch  # the same signature as _canonical_puzzles_py's, so callers may pass it
    return [canonical_puzzle(p) for p in puzzles]


# ---------------------------------------------------------------------------------------------
# Small boards (4x4, 6x6): brute force over the whole group, vectorized
# ---------------------------------------------------------------------------------------------


@cache
def _small_maps(n: int) -> np.ndarray:
    """Every position map of the validity-preserving group of board ``n`` (rows of cell indices)."""
    b = board(n)
    br, bc = b.box_rows, b.box_cols

    def perms(groups: int, size: int) -> list[list[int]]:
        out = []
        for order in itertools.permutations(range(groups)):
            for inner in itertools.product(list(itertools.permutations(range(size))), repeat=groups):
                out.append([g * size + inner[k][j] for k, g in enumerate(order) for j in range(size)])
        return out

    rows, cols = perms(n // br, br), perms(n // bc, bc)
    maps = [[r[i] * n + c[j] for i in range(n) for j in range(n)] for r in rows for c in cols]
    if br == bc:
        maps += [[m[j * n + i] for i in range(n) for j in range(n)] for m in maps]
    return np.array(maps, dtype=np.int64)


def _canonical_small_py(puzzle: Sequence[int]) -> Grid:
    """Reference for :func:`canonical_small`: numpy brute force over every position map."""
    n = round(len(puzzle) ** 0.5)
    if n not in (4, 6):
        raise ValueError(f"canonical_small handles 4x4 and 6x6, not {n}x{n}")
    arr = np.asarray(puzzle, dtype=np.int64)[_small_maps(n)]  # (maps, cells)
    big = arr.shape[1]
    first = np.full((arr.shape[0], n + 1), big + np.arange(n + 1), dtype=np.int64)
    for d in range(1, n + 1):
        hit = arr == d
        pos = np.where(hit.any(axis=1), hit.argmax(axis=1), big + d)
        first[:, d] = pos
    order = np.argsort(first[:, 1:], axis=1, kind="stable") + 1  # digits by first appearance
    relabel = np.zeros((arr.shape[0], n + 1), dtype=np.int64)
    np.put_along_axis(relabel, order, np.arange(1, n + 1)[None, :].repeat(arr.shape[0], 0), axis=1)
    out = np.take_along_axis(relabel, arr, axis=1)
    best = np.lexsort(out.T[::-1])[0]
    return tuple(int(v) for v in out[best])


@cache
def _small_maps_kernel(n: int) -> np.ndarray:
    """:func:`_small_maps` as the kernel takes it (int32, C order)."""
    return np.ascontiguousarray(_small_maps(n), dtype=np.int32)


def _form_small(puzzle: Sequence[int]) -> bytes:
    """:func:`canonical_small` as ``n*n`` digit bytes, by the compiled kernel when the puzzle is a
    list or tuple of ``n*n`` digits 0..n, else by the reference (whatever it returns or raises)."""
    n = round(len(puzzle) ** 0.5)
    if n not in (4, 6):
        raise ValueError(f"canonical_small handles 4x4 and 6x6, not {n}x{n}")
    buf = _digit_bytes(puzzle)
    if buf is None or len(buf) != n * n or max(buf) > n or not use_compiled(n):
        return bytes(_canonical_small_py(puzzle))
    from pipeline.identity import canon_jit  # numba: loaded on the first compiled call, not on import

    out = np.empty(n * n, dtype=np.uint8)
    canon_jit.canon_small(np.frombuffer(buf, dtype=np.uint8), _small_maps_kernel(n), n, out)
    return out.tobytes()


def canonical_small(puzzle: Sequence[int]) -> Grid:
    """Minimal-lexicographic form of a 4x4 or 6x6 puzzle (blanks 0) under the whole group:
    every position map, digits relabelled by first appearance; exact. Compiled; identical to
    :func:`_canonical_small_py` for every input (no validity check: a puzzle with a conflict gets
    a form all the same)."""
    return tuple(_form_small(puzzle))


def canonical_key(puzzle: Sequence[int]) -> str | None:
    """The canonical form of a puzzle or grid as one line (the ``canonical_puzzle`` column) for
    4x4, 6x6 and 9x9; None for 16x16, which has no canonical form here. ``ValueError`` for a 9x9
    puzzle that :func:`check_puzzle` rejects. Compiled; identical to :func:`_canonical_key_py`."""
    n = round(len(puzzle) ** 0.5)
    if n == 9:
        return _form9(puzzle).translate(_TO_TEXT).decode("ascii")
    if n in (4, 6):
        return _form_small(puzzle).translate(_TO_TEXT).decode("ascii")
    return None


def _canonical_key_py(puzzle: Sequence[int]) -> str | None:
    """Reference for :func:`canonical_key` (pure numpy/Python, the tests' oracle)."""
    n = round(len(puzzle) ** 0.5)
    if n == 9:
        return format_line(_canonical_puzzle_py(puzzle))
    if n in (4, 6):
        return format_line(_canonical_small_py(puzzle))
    return None


def dedup_key(puzzle: str, canonical: str | None) -> str:
    """The key that keeps duplicates out of sets: the canonical form where the board has one, else
    the puzzle line itself (16x16: only exact copies are caught). ``canonical`` is
    :func:`canonical_key` of ``puzzle``, usually read back from a row."""
    return puzzle if canonical is None else canonical
