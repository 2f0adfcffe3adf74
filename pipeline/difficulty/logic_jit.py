"""Compiled kernels (numba) for the hot part of the logical solver: the singles, and a probe that
says whether a technique applies.

:func:`pipeline.difficulty.logic.solve_logically` spends its time on two things: placing naked and
hidden singles (the bulk of every path) and asking the techniques after them whether they apply,
which they mostly do not (a medium puzzle asks the locked pair a few times and gets one step; a hard
one asks every finned fish and chain after each step). This module does both in compiled code; the
Python solver stays the reference and builds every :class:`~pipeline.difficulty.candidates.Step` itself.
The probes sit beside the finders they mirror, one ``_jit`` module per finder module
(:mod:`.basic.intersections_jit`, :mod:`.basic.subsets_jit`, :mod:`.fish.search_jit`,
:mod:`.patterns.single_digit_jit`, :mod:`.patterns.wings_jit`, :mod:`.chains.simple_jit`; their shared
helpers in :mod:`.candidates_jit`); each mirrors its Python finder on purpose, as its compiled reading.

Contracts
---------
* **State.** ``values`` (int64, 0 = blank) and ``cand`` (int64 bitmask, bit ``d-1`` for digit ``d``,
  ``0`` on solved cells) of one board, as :class:`~pipeline.difficulty.candidates.Candidates` holds them.
  Every board of :mod:`pipeline.board` (up to 25x25: candidates fit in 25 bits, lines in 25 bits).
* **Singles** (:meth:`Kernel.advance`) are placed exactly as the Python driver would: after every
  placement it restarts from the naked single, so each step is the *first* naked single (lowest
  cell), else the first hidden single (units in scan order boxes, rows, columns; the lowest digit
  missing elsewhere in the unit; the first cell of the unit holding it). Each placement is reported
  as ``(cell, digit, unit)`` with ``unit = -1`` for a naked single.
* **Probes.** For each probe of :data:`PROBES` (named, as the technique registry and the rulebooks name
  them; an unknown name is an error, never a fallback) a kernel answers *whether* the Python finder
  would return a step in this state: the same conditions over the same candidates, without the
  search order (the existence of a pattern does not depend on it). The one exception is the chains,
  whose Python search keeps the first parent of each breadth-first state and drops chains that
  repeat a cell: their probes run the same search in the same neighbour order. The walk
  (:meth:`Kernel.walk`) goes through the techniques after the singles in solver order and stops at
  the first one that applies, or that it cannot probe (remote pair, trial and error); Python then
  runs that technique's finder, which finds *which* instance comes first, so steps, their order and
  their wording stay the Python solver's.
* Nothing here is trusted alone: ``tests/difficulty/test_logic_jit.py`` compares whole solve paths of the
  compiled and the pure-Python driver over thousands of puzzles of every size.

Roads not taken: returning the steps themselves from compiled code would also spare the Python
finder its one successful call per advanced step, at the price of reproducing every technique's
search order and wording (finned-fish enumeration, chain tie-breaks) to the step; the failing calls
are where the time went. Remote pairs stay in Python (cheap, and their path choice is fiddly).
The first call in a process compiles the kernels (tens of seconds; cached on disk by numba, then
about half a second to load); :mod:`pipeline.compiled` decides where they answer, and ``make`` compiles
them at set-up (:mod:`pipeline.run.kernels`). numba keys a kernel's cache on its own file only, and
:func:`_probe` and :func:`_walk` compile the probes of the family modules into themselves: a change to a
probe there must come with a change to this file (as this sentence came with the finned fish's cheaper
cover search in :mod:`.fish.search_jit`), or a checkout with a cache keeps walking the old probe.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numba as nb
import numpy as np

from pipeline.board import board
from pipeline.difficulty.basic.intersections_jit import _claiming, _pointing
from pipeline.difficulty.basic.subsets_jit import _hidden_subset, _naked_subset
from pipeline.difficulty.candidates_jit import _bitlen
from pipeline.difficulty.chains.simple_jit import _multi_colors, _simple_colors, _x_chain, _xy_chain
from pipeline.difficulty.fish.search_jit import FINNED, SASHIMI, _fish, _fish_kinds
from pipeline.difficulty.patterns.single_digit_jit import _empty_rectangle, _turbot
from pipeline.difficulty.patterns.wings_jit import _w_wing, _xy_wing, _xyz_wing

# The probe kernels (one compiled function per family), named; a probe's spec row says which one and
# its arguments. Numba reads these module constants as compile-time constants.
NAKED_SUBSET = 0  # (size, locked, hodoku)
HIDDEN_SUBSET = 1  # (size,)
POINTING = 2
CLAIMING = 3
FISH = 4  # (size, finned, sashimi)
TURBOT = 5  # (kind: 0 skyscraper, 1 two-string kite, 2 turbot fish)
EMPTY_RECTANGLE = 6
W_WING = 7
XY_WING = 8
XYZ_WING = 9
SIMPLE_COLORS = 10
X_CHAIN = 11
XY_CHAIN = 12
MULTI_COLORS = 13

#: probe name -> (kernel, three arguments): every compiled probe, named as the registry
#: (:data:`pipeline.difficulty.techniques.TECHNIQUES`, ``probe``) and the rulebooks name them. A probe kept
#: only for older graders is named ``<row>_until_<N>`` (see :class:`~pipeline.difficulty.techniques.Rulebook`).
PROBES: dict[str, tuple[int, int, int, int]] = {
    "locked_pair": (NAKED_SUBSET, 2, 1, 1),
    "locked_triple": (NAKED_SUBSET, 3, 1, 1),
    "pointing": (POINTING, 0, 0, 0),
    "claiming": (CLAIMING, 0, 0, 0),
    "naked_pair": (NAKED_SUBSET, 2, 0, 1),
    "naked_triple": (NAKED_SUBSET, 3, 0, 1),
    "hidden_pair": (HIDDEN_SUBSET, 2, 0, 0),
    "hidden_triple": (HIDDEN_SUBSET, 3, 0, 0),
    "naked_quad": (NAKED_SUBSET, 4, 0, 0),
    "hidden_quad": (HIDDEN_SUBSET, 4, 0, 0),
    "x_wing": (FISH, 2, 0, 0),
    "swordfish": (FISH, 3, 0, 0),
    "jellyfish": (FISH, 4, 0, 0),
    "skyscraper": (TURBOT, 0, 0, 0),
    "two_string_kite": (TURBOT, 1, 0, 0),
    "turbot_fish": (TURBOT, 2, 0, 0),
    "empty_rectangle": (EMPTY_RECTANGLE, 0, 0, 0),
    "w_wing": (W_WING, 0, 0, 0),
    "xy_wing": (XY_WING, 0, 0, 0),
    "xyz_wing": (XYZ_WING, 0, 0, 0),
    "finned_x_wing": (FISH, 2, 1, 0),
    "sashimi_x_wing": (FISH, 2, 1, 1),
    "simple_colors": (SIMPLE_COLORS, 0, 0, 0),
    "finned_swordfish": (FISH, 3, 1, 0),
    "sashimi_swordfish": (FISH, 3, 1, 1),
    "finned_jellyfish": (FISH, 4, 1, 0),
    "sashimi_jellyfish": (FISH, 4, 1, 1),
    "x_chain": (X_CHAIN, 0, 0, 0),
    "xy_chain": (XY_CHAIN, 0, 0, 0),
    "multi_colors": (MULTI_COLORS, 0, 0, 0),
    "locked_pair_until_4": (NAKED_SUBSET, 2, 1, 0),
    "locked_triple_until_4": (NAKED_SUBSET, 3, 1, 0),
    "naked_pair_until_4": (NAKED_SUBSET, 2, 0, 0),
    "naked_triple_until_4": (NAKED_SUBSET, 3, 0, 0),
}
#: The probe names (the keys of :data:`PROBES`).
PROBED: tuple[str, ...] = tuple(PROBES)
_NOT_PROBED = (-1, 0, 0, 0)
#: The length of a probe memo (:func:`_probe`): one entry per fish size.
MEMO = 8


@nb.njit(cache=True, nogil=True)
def _probe(cand: np.ndarray, peers: np.ndarray, units: np.ndarray, row_of: np.ndarray, col_of: np.ndarray,
           box_of: np.ndarray, is_peer: np.ndarray, row_band: np.ndarray, col_band: np.ndarray, width: int,
           n: int, spec: np.ndarray, memo: np.ndarray) -> bool:  # pragma: no cover - compiled
    """Does the probe of ``spec`` (a row of :func:`codes_for`: kernel and arguments) make progress?
    ``memo[size]``: the kinds of finned fish of that size in this state (:func:`_fish_kinds`), -1 until
    searched: the finned and the sashimi probe of a size share one search."""
    kind = spec[0]
    a = spec[1]
    b = spec[2]
    c = spec[3]
    if kind == NAKED_SUBSET:
        return _naked_subset(cand, units, row_of, col_of, box_of, n, a, b == 1, c == 1)
    if kind == HIDDEN_SUBSET:
        return _hidden_subset(cand, units, n, a)
    if kind == POINTING:
        return _pointing(cand, units, row_of, col_of, box_of, n)
    if kind == CLAIMING:
        return _claiming(cand, units, row_of, col_of, box_of, n)
    if kind == FISH:
        if b != 1:
            return _fish(cand, row_band, col_band, width, n, a, False, False)
        if memo[a] < 0:
            memo[a] = _fish_kinds(cand, row_band, col_band, width, n, a, True)
        return memo[a] & (SASHIMI if c == 1 else FINNED) != 0
    if kind == TURBOT:
        return _turbot(cand, units, is_peer, row_of, col_of, box_of, n, a)
    if kind == EMPTY_RECTANGLE:
        return _empty_rectangle(cand, row_of, col_of, box_of, row_band, col_band, n)
    if kind == W_WING:
        return _w_wing(cand, units, is_peer, n)
    if kind == XY_WING:
        return _xy_wing(cand, peers, is_peer, n)
    if kind == XYZ_WING:
        return _xyz_wing(cand, peers, is_peer, n)
    if kind == SIMPLE_COLORS:
        return _simple_colors(cand, units, is_peer, n)
    if kind == X_CHAIN:
        return _x_chain(cand, units, is_peer, n)
    if kind == XY_CHAIN:
        return _xy_chain(cand, is_peer, n)
    if kind == MULTI_COLORS:
        return _multi_colors(cand, units, is_peer, n)
    raise ValueError("unknown probe kernel")


@nb.njit(cache=True, nogil=True)
def _walk(cand: np.ndarray, peers: np.ndarray, units: np.ndarray, row_of: np.ndarray, col_of: np.ndarray,
          box_of: np.ndarray, is_peer: np.ndarray, row_band: np.ndarray, col_band: np.ndarray, width: int,
          codes: np.ndarray, start: int, memo: np.ndarray) -> int:  # pragma: no cover - compiled
    """First position ``p >= start`` of ``codes`` that is not probed (``codes[p, 0] < 0``: Python must
    try it) or whose technique applies; ``len(codes)`` if none. ``memo`` as for :func:`_probe` (this state's)."""
    n = units.shape[1]
    for p in range(start, codes.shape[0]):
        spec = codes[p]
        if spec[0] < 0 or _probe(cand, peers, units, row_of, col_of, box_of, is_peer, row_band, col_band, width, n,
                                 spec, memo):
            return p
    return codes.shape[0]


@nb.njit(cache=True, nogil=True)
def _singles(values: np.ndarray, cand: np.ndarray, peers: np.ndarray, units: np.ndarray, scan: np.ndarray,
             hidden: bool, out: np.ndarray) -> int:  # pragma: no cover - compiled
    """Singles in place, each recorded in ``out`` as one key (:func:`single_of`); returns their number."""
    ncells = values.shape[0]
    n = units.shape[1]
    unsolved = 0
    for i in range(ncells):
        if values[i] == 0:
            unsolved += 1
    nsteps = 0
    while unsolved > 0:
        cell = -1
        d = 0
        unit = -1
        for i in range(ncells):
            m = cand[i]
            if m != 0 and m & (m - 1) == 0:
                cell = i
                d = _bitlen(m)
                break
        if cell < 0 and hidden:
            for s in range(scan.shape[0]):
                u = scan[s]
                once = 0
                twice = 0
                for p in range(n):
                    m = cand[units[u, p]]
                    twice |= once & m
                    once |= m
                h = once & ~twice
                if h:
                    low = h & -h
                    d = _bitlen(low)
                    for p in range(n):
                        i = units[u, p]
                        if cand[i] & low:
                            cell = i
                            break
                    unit = u
                    break
        if cell < 0:
            break
        bit = 1 << (d - 1)
        values[cell] = d
        cand[cell] = 0
        for q in range(peers.shape[1]):
            cand[peers[cell, q]] &= ~bit
        out[nsteps] = ((unit + 1) * ncells + cell) * n + d - 1  # single_of decodes it
        nsteps += 1
        unsolved -= 1
    return nsteps


@nb.njit(cache=True, nogil=True)
def _start(values: np.ndarray, units: np.ndarray, row_of: np.ndarray, col_of: np.ndarray, box_of: np.ndarray,
           cand: np.ndarray) -> bool:  # pragma: no cover - compiled
    """The candidates of ``values`` into ``cand`` (a blank: the digits none of its row, column and box
    holds; 0 on a given), as ``candidates._unit_candidates`` makes them; False when a unit holds a digit twice."""
    n = units.shape[1]
    used = np.zeros(units.shape[0], dtype=np.int64)
    for u in range(units.shape[0]):
        m = 0
        for p in range(n):
            v = values[units[u, p]]
            if v:
                bit = 1 << (v - 1)
                if m & bit:
                    return False
                m |= bit
        used[u] = m
    full = (1 << n) - 1
    for i in range(values.shape[0]):
        cand[i] = 0 if values[i] else full & ~(used[row_of[i]] | used[n + col_of[i]] | used[2 * n + box_of[i]])
    return True


@nb.njit(cache=True, nogil=True)
def _advance(values: np.ndarray, cand: np.ndarray, peers: np.ndarray, units: np.ndarray, scan: np.ndarray,
             row_of: np.ndarray, col_of: np.ndarray, box_of: np.ndarray, is_peer: np.ndarray, row_band: np.ndarray,
             col_band: np.ndarray, width: int, hidden: bool, codes: np.ndarray,
             out: np.ndarray, memo: np.ndarray) -> tuple[int, int]:  # pragma: no cover - compiled
    """:func:`_singles`, then (board not full) :func:`_walk` from 0; (singles placed, walk position).
    ``memo`` (:func:`_probe`) is cleared: a new state."""
    memo[:] = -1
    nsteps = _singles(values, cand, peers, units, scan, hidden, out)
    for i in range(values.shape[0]):
        if values[i] == 0:
            return nsteps, _walk(cand, peers, units, row_of, col_of, box_of, is_peer, row_band, col_band, width,
                                 codes, 0, memo)
    return nsteps, codes.shape[0]


@cache
def _tables(n: int) -> tuple[tuple[np.ndarray, ...], int]:
    """(peers, units (rows, columns, boxes as in :func:`pipeline.board.board`), scan order (boxes,
    rows, columns), row_of, col_of, box_of, is_peer, row_band and col_band (per box, the rows and the
    columns it crosses, as bits)), and the larger box side."""
    b = board(n)
    peers = np.array([sorted(p) for p in b.peers], dtype=np.int64)
    units = np.array(b.units, dtype=np.int64)
    scan = np.array(list(range(2 * n, 3 * n)) + list(range(2 * n)), dtype=np.int64)
    cells = np.arange(n * n, dtype=np.int64)
    is_peer = np.zeros((n * n, n * n), dtype=np.bool_)
    for i, p in enumerate(b.peers):
        is_peer[i, sorted(p)] = True
    row_band = np.array([sum(1 << r for r in {i // n for i in bx}) for bx in b.boxes], dtype=np.int64)
    col_band = np.array([sum(1 << c for c in {i % n for i in bx}) for bx in b.boxes], dtype=np.int64)
    arrays = (peers, units, scan, cells // n, cells % n, np.array(b.box_of, dtype=np.int64), is_peer, row_band,
              col_band)
    return arrays, max(b.box_rows, b.box_cols)


def single_of(n: int, key: int) -> tuple[int, int, int]:
    """The ``(cell, digit, unit)`` of a single's key (:meth:`Kernel.advance`; ``unit = -1``: a naked single)."""
    rest, d = divmod(key, n)
    unit, cell = divmod(rest, n * n)
    return cell, d + 1, unit - 1


@cache
def codes_for(names: tuple[str | None, ...]) -> np.ndarray:
    """One row per probe name: its kernel and arguments (:data:`PROBES`); ``(-1, 0, 0, 0)`` for None (not
    probed: Python must try that technique). Raises ValueError for a name :data:`PROBES` does not hold.
    Built once per tuple of names: do not write to it."""
    unknown = [t for t in names if t is not None and t not in PROBES]
    if unknown:
        raise ValueError(f"no compiled probe named {', '.join(map(repr, unknown))} (one of {', '.join(PROBES)})")
    return np.array([_NOT_PROBED if t is None else PROBES[t] for t in names], dtype=np.int64).reshape(-1, 4)


@cache
def _codes_of(walked: tuple[tuple[str, str | None], ...]) -> np.ndarray:
    """:func:`codes_for` the probes of ``walked`` (:class:`Kernel`), once per tuple."""
    return codes_for(tuple(p for _, p in walked))


def probe(name: str, n: int, cand: list[int]) -> bool:
    """Does the compiled probe ``name`` say its technique applies to the candidates ``cand`` of an
    ``n`` x ``n`` classic board? (The twin tests compare it with its Python finder.)"""
    peers, units, _, row_of, col_of, box_of, is_peer, row_band, col_band = _tables(n)[0]
    width = _tables(n)[1]
    spec = codes_for((name,))[0]
    return bool(_probe(np.array(cand, dtype=np.int64), peers, units, row_of, col_of, box_of, is_peer, row_band,
                       col_band, width, n, spec, np.full(MEMO, -1, dtype=np.int64)))


class Kernel:
    """The compiled side of one solve: the state as arrays, synced from and to the Python lists.

    ``walked``: ``(technique, probe name or None)`` of every technique after the singles, in the solver's
    order; the walk's positions are positions of ``walked``, so a technique and its probe are paired by
    name. ``hidden``: whether the singles include the hidden single.
    """

    __slots__ = ("cand", "codes", "hidden", "memo", "n", "tables", "walked", "width")

    def __init__(self, n: int, walked: tuple[tuple[str, str | None], ...], hidden: bool = True) -> None:
        self.n = n
        self.tables, self.width = _tables(n)
        self.walked = walked
        self.hidden = hidden
        self.codes = _codes_of(walked)
        self.cand = np.zeros(n * n, dtype=np.int64)
        self.memo = np.full(MEMO, -1, dtype=np.int64)

    def start(self, grid: Sequence[int]) -> tuple[list[int], list[int], int] | None:
        """The starting state of the classic ``grid``: its values, candidates (as
        :meth:`~pipeline.difficulty.candidates.Candidates.from_grid` makes them) and givens (as bits); None
        when givens clash (the caller words the clash)."""
        _, units, _, row_of, col_of, box_of, _, _, _ = self.tables
        v = np.array(grid, dtype=np.int64)
        c = np.empty(len(grid), dtype=np.int64)
        if not _start(v, units, row_of, col_of, box_of, c):
            return None
        given = int.from_bytes(np.packbits(v != 0, bitorder="little").tobytes(), "little")
        return list(grid), c.tolist(), given

    def advance(self, values: list[int], cand: list[int]) -> tuple[list[int], list[int], list[int], int]:
        """Singles, then the walk from position 0 (see the module contracts) on a copy of the state.

        Returns the new ``values`` and ``cand``, the singles placed, in order, as keys (:func:`single_of`),
        and the first position of ``walked`` that Python must try (not probed, or probed and applies);
        ``len(walked)`` when none is left or the board is full.
        """
        peers, units, scan, row_of, col_of, box_of, is_peer, row_band, col_band = self.tables
        v = np.array(values, dtype=np.int64)
        c = np.array(cand, dtype=np.int64)
        out = np.empty(self.n * self.n, dtype=np.int64)
        nsteps, pos = _advance(v, c, peers, units, scan, row_of, col_of, box_of, is_peer, row_band, col_band,
                               self.width, self.hidden, self.codes, out, self.memo)
        self.cand = c
        return v.tolist(), c.tolist(), out[:nsteps].tolist(), int(pos)

    def walk(self, start: int) -> int:
        """The walk from position ``start`` on the state of the last :meth:`advance` (unchanged since)."""
        peers, units, _, row_of, col_of, box_of, is_peer, row_band, col_band = self.tables
        return int(_walk(self.cand, peers, units, row_of, col_of, box_of, is_peer, row_band, col_band, self.width,
                         self.codes, start, self.memo))
