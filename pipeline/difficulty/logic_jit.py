"""Compiled kernels (numba) for the hot part of the logical solver: the singles, and a probe that
says whether a technique applies.

:func:`pipeline.difficulty.logic.solve_logically` spends its time on two things: placing naked and
hidden singles (the bulk of every path) and asking the techniques after them whether they apply,
which they mostly do not (a medium puzzle asks the locked pair a few times and gets one step; a hard
one asks every finned fish and chain after each step). This module does both in compiled code; the
Python solver stays the reference and builds every :class:`~pipeline.difficulty.candidates.Step` itself.
The probes sit beside the finders they mirror, one ``_jit`` module per family (:mod:`.basic_jit`,
:mod:`.fish_jit`, :mod:`.single_digit_jit`, :mod:`.wings_jit`, :mod:`.chains_jit`; their shared helpers
in :mod:`.candidates_jit`); each mirrors its Python finder on purpose, as its compiled reading.

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
* **Probes.** For each technique of :data:`PROBED` a kernel answers *whether* the Python finder
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
about half a second to load), which is why :func:`~pipeline.difficulty.logic.solve_logically` only
switches to them after a number of solves (``AUTO_COMPILE_AFTER``).
"""

from __future__ import annotations

from functools import cache

import numba as nb
import numpy as np

from pipeline.board import board
from pipeline.difficulty.basic_jit import _claiming, _hidden_subset, _naked_subset, _pointing
from pipeline.difficulty.candidates_jit import _bitlen
from pipeline.difficulty.chains_jit import _simple_colors, _x_chain, _xy_chain
from pipeline.difficulty.fish_jit import _fish
from pipeline.difficulty.single_digit_jit import _empty_rectangle, _turbot
from pipeline.difficulty.wings_jit import _w_wing, _xy_wing, _xyz_wing

#: The techniques the kernels can probe; a technique's code is its index here.
PROBED: tuple[str, ...] = (
    "locked_pair", "locked_triple", "pointing", "claiming", "naked_pair", "naked_triple", "hidden_pair",
    "hidden_triple", "naked_quad", "hidden_quad", "x_wing", "swordfish", "jellyfish", "skyscraper",
    "two_string_kite", "turbot_fish", "empty_rectangle", "w_wing", "xy_wing", "xyz_wing", "finned_x_wing",
    "sashimi_x_wing", "simple_colors", "finned_swordfish", "sashimi_swordfish", "finned_jellyfish",
    "sashimi_jellyfish", "x_chain", "xy_chain", "locked_pair_5", "locked_triple_5", "naked_pair_5",
    "naked_triple_5",
)


@nb.njit(cache=True, nogil=True)
def _probe(cand: np.ndarray, peers: np.ndarray, units: np.ndarray, row_of: np.ndarray, col_of: np.ndarray,
           box_of: np.ndarray, is_peer: np.ndarray, row_band: np.ndarray, col_band: np.ndarray, width: int,
           n: int, t: int) -> bool:  # pragma: no cover - compiled
    """Does technique ``PROBED[t]`` make progress?"""
    if t == 0:
        return _naked_subset(cand, units, row_of, col_of, box_of, n, 2, True)
    if t == 1:
        return _naked_subset(cand, units, row_of, col_of, box_of, n, 3, True)
    if t == 2:
        return _pointing(cand, units, row_of, col_of, box_of, n)
    if t == 3:
        return _claiming(cand, units, row_of, col_of, box_of, n)
    if t == 4:
        return _naked_subset(cand, units, row_of, col_of, box_of, n, 2, False)
    if t == 5:
        return _naked_subset(cand, units, row_of, col_of, box_of, n, 3, False)
    if t == 6:
        return _hidden_subset(cand, units, n, 2)
    if t == 7:
        return _hidden_subset(cand, units, n, 3)
    if t == 8:
        return _naked_subset(cand, units, row_of, col_of, box_of, n, 4, False)
    if t == 9:
        return _hidden_subset(cand, units, n, 4)
    if t <= 12:
        return _fish(cand, row_band, col_band, width, n, t - 8, False, False)
    if t <= 15:
        return _turbot(cand, units, is_peer, row_of, col_of, box_of, n, t - 13)
    if t == 16:
        return _empty_rectangle(cand, row_of, col_of, box_of, row_band, col_band, n)
    if t == 17:
        return _w_wing(cand, units, is_peer, n)
    if t == 18:
        return _xy_wing(cand, peers, is_peer, n)
    if t == 19:
        return _xyz_wing(cand, peers, is_peer, n)
    if t == 20 or t == 21:
        return _fish(cand, row_band, col_band, width, n, 2, True, t == 21)
    if t == 22:
        return _simple_colors(cand, units, is_peer, n)
    if t <= 26:
        return _fish(cand, row_band, col_band, width, n, 3 + (t - 23) // 2, True, (t - 23) % 2 == 1)
    if t == 27:
        return _x_chain(cand, units, is_peer, n)
    if t == 28:
        return _xy_chain(cand, is_peer, n)
    return _naked_subset(cand, units, row_of, col_of, box_of, n, 2 + (t - 29) % 2, t < 31, True)


@nb.njit(cache=True, nogil=True)
def _walk(cand: np.ndarray, peers: np.ndarray, units: np.ndarray, row_of: np.ndarray, col_of: np.ndarray,
          box_of: np.ndarray, is_peer: np.ndarray, row_band: np.ndarray, col_band: np.ndarray, width: int,
          codes: np.ndarray, start: int) -> int:  # pragma: no cover - compiled
    """First position ``p >= start`` of ``codes`` that is not probed (``codes[p] < 0``: Python must
    try it) or whose technique applies; ``len(codes)`` if none."""
    n = units.shape[1]
    for p in range(start, codes.shape[0]):
        t = codes[p]
        if t < 0 or _probe(cand, peers, units, row_of, col_of, box_of, is_peer, row_band, col_band, width, n, t):
            return p
    return codes.shape[0]


@nb.njit(cache=True, nogil=True)
def _singles(values: np.ndarray, cand: np.ndarray, peers: np.ndarray, units: np.ndarray, scan: np.ndarray,
             hidden: bool, out: np.ndarray) -> int:  # pragma: no cover - compiled
    """Singles in place, each recorded as a row ``(cell, digit, unit)`` of ``out``; returns their number."""
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
        out[nsteps, 0] = cell
        out[nsteps, 1] = d
        out[nsteps, 2] = unit
        nsteps += 1
        unsolved -= 1
    return nsteps


@nb.njit(cache=True, nogil=True)
def _advance(values: np.ndarray, cand: np.ndarray, peers: np.ndarray, units: np.ndarray, scan: np.ndarray,
             row_of: np.ndarray, col_of: np.ndarray, box_of: np.ndarray, is_peer: np.ndarray, row_band: np.ndarray,
             col_band: np.ndarray, width: int, hidden: bool, codes: np.ndarray,
             out: np.ndarray) -> tuple[int, int]:  # pragma: no cover - compiled
    """:func:`_singles`, then (board not full) :func:`_walk` from 0; (singles placed, walk position)."""
    nsteps = _singles(values, cand, peers, units, scan, hidden, out)
    for i in range(values.shape[0]):
        if values[i] == 0:
            return nsteps, _walk(cand, peers, units, row_of, col_of, box_of, is_peer, row_band, col_band, width,
                                 codes, 0)
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


def codes_for(names: tuple[str, ...]) -> np.ndarray:
    """The probe code of each technique name (its index in :data:`PROBED`), ``-1`` for one that is not probed."""
    return np.array([PROBED.index(t) if t in PROBED else -1 for t in names], dtype=np.int64)


class Kernel:
    """The compiled side of one solve: the state as arrays, synced from and to the Python lists.

    ``codes`` (from :func:`codes_for`) are the techniques after the singles, in the solver's order.
    """

    __slots__ = ("cand", "codes", "n", "tables", "width")

    def __init__(self, n: int, codes: np.ndarray) -> None:
        self.n = n
        self.tables, self.width = _tables(n)
        self.codes = codes
        self.cand = np.zeros(n * n, dtype=np.int64)

    def advance(self, values: list[int], cand: list[int],
                hidden: bool) -> tuple[list[int], list[int], list[tuple[int, int, int]], int]:
        """Singles, then the walk from position 0 (see the module contracts) on a copy of the state.

        Returns the new ``values`` and ``cand``, the singles placed as ``(cell, digit, unit)``
        (``unit = -1``: naked), and the first position of ``codes`` that Python must try (not
        probed, or probed and applies); ``len(codes)`` when none is left or the board is full.
        """
        peers, units, scan, row_of, col_of, box_of, is_peer, row_band, col_band = self.tables
        v = np.array(values, dtype=np.int64)
        c = np.array(cand, dtype=np.int64)
        out = np.empty((self.n * self.n, 3), dtype=np.int64)
        nsteps, pos = _advance(v, c, peers, units, scan, row_of, col_of, box_of, is_peer, row_band, col_band,
                               self.width, hidden, self.codes, out)
        self.cand = c
        placed = [(a, d, u) for a, d, u in out[:nsteps].tolist()]
        return v.tolist(), c.tolist(), placed, int(pos)

    def walk(self, start: int) -> int:
        """The walk from position ``start`` on the state of the last :meth:`advance` (unchanged since)."""
        peers, units, _, row_of, col_of, box_of, is_peer, row_band, col_band = self.tables
        return int(_walk(self.cand, peers, units, row_of, col_of, box_of, is_peer, row_band, col_band, self.width,
                         self.codes, start))
