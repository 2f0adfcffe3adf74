"""Trial and error: an exact search for a solution of a candidate state, and the step it gives.

Contracts
---------
* :func:`settle` is the singles propagation of every exact search in pure Python: this module's
  :func:`search_solution` and :func:`pipeline.generate.count.search` both run it, so they agree on
  what a dead state is.
* :func:`search_solution` returns the first solution in a deterministic depth-first order, or None
  when there is none; it respects the candidates (every elimination made so far). Killer cage sums
  are not used (the cages act only as peers).
* :func:`count_state_solutions` counts the solutions of a state up to a limit (the uniqueness techniques'
  gate in :mod:`.logic`). Killer cage sums are not used there either.
* :class:`_Guesser` is the ``trial_and_error`` finder (HoDoKu's "Brute Force" step): it places the
  solution's digit in the unsolved cell with fewest candidates.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from pipeline.difficulty.candidates import Candidates, Step, _bits, _cand, _Ctx, _Geo, _geo, cell_name, digit_name


def settle(cand: list[int], queue: list[int], peers: Sequence[Sequence[int]], units: Sequence[Sequence[int]],
           full: int) -> bool:
    """Naked and hidden singles to a fixpoint, in place; False on a contradiction.

    ``cand`` holds full masks (a fixed cell keeps its one bit), ``peers`` and ``units`` are the
    board's (cell -> its peers; the units' cells), ``full`` is the mask of all ``n`` digits.
    ``queue`` holds the cells fixed to one candidate whose digit is not yet removed from their
    peers; every cell enters it once, when it becomes fixed.
    """
    while True:
        while queue:
            i = queue.pop()
            v = cand[i]
            for j in peers[i]:
                c = cand[j]
                if c & v:
                    c ^= v
                    if not c:
                        return False
                    cand[j] = c
                    if not c & (c - 1):
                        queue.append(j)
        for u in units:  # hidden singles: a digit with one place left in a unit goes there
            seen = twice = 0
            for i in u:
                c = cand[i]
                twice |= seen & c
                seen |= c
            if seen != full:
                return False
            once = seen & ~twice
            if once:
                for i in u:
                    c = cand[i]
                    h = c & once
                    if h and h != c:
                        if h & (h - 1):
                            return False  # one cell is the only place of two digits
                        cand[i] = h
                        queue.append(i)
        if not queue:
            return True


def search_solution(st: Candidates) -> list[int] | None:
    """A solution (list of digits) of the candidate state by backtracking search, or None.

    Singles propagation, then the cell with fewest candidates first; candidates are respected, so
    the result is consistent with every elimination made so far.
    """
    g = st.geo
    masks = [(1 << (v - 1)) if v else m for v, m in zip(st.values, st.cand, strict=True)]
    queue = [i for i, m in enumerate(masks) if m and not m & (m - 1)]
    out = _search(masks, queue, g)
    return None if out is None else [m.bit_length() for m in out]


def count_state_solutions(st: Candidates, limit: int = 2) -> int:
    """The number of solutions of the candidate state, counted up to ``limit`` (an exact search with
    the same propagation and branching as :func:`search_solution`). Not a puzzle's count on a board
    (:func:`pipeline.verify.count.independent_count` and its compiled twin) nor the solver's verdict
    (:func:`pipeline.solve.solver.count_solutions`): this one counts what a candidate state allows."""
    g = st.geo
    masks = [(1 << (v - 1)) if v else m for v, m in zip(st.values, st.cand, strict=True)]
    queue = [i for i, m in enumerate(masks) if m and not m & (m - 1)]
    found = [0]

    def rec(ms: list[int], q: list[int]) -> None:
        if not settle(ms, q, g.peers, g.units, (1 << g.n) - 1):
            return
        best, best_count = -1, g.n + 1
        for i, m in enumerate(ms):
            c = m.bit_count()
            if 1 < c < best_count:
                best, best_count = i, c
        if best < 0:
            found[0] += 1
            return
        for k in _bits(ms[best]):
            if found[0] >= limit:
                return
            trial = list(ms)
            trial[best] = 1 << k
            rec(trial, [best])

    rec(masks, queue)
    return min(found[0], limit)


def _search(masks: list[int], queue: list[int], g: _Geo) -> list[int] | None:
    """Depth-first search; branches on the cell with fewest candidates, or on the unit-digit with
    fewest places when that is smaller (both complete case splits)."""
    if not settle(masks, queue, g.peers, g.units, (1 << g.n) - 1):
        return None
    best, best_count = -1, g.n + 1
    for i, m in enumerate(masks):
        c = m.bit_count()
        if 1 < c < best_count:
            best, best_count = i, c
            if c == 2:
                break
    if best < 0:
        return masks
    branches: list[tuple[int, int]] = [(best, 1 << k) for k in _bits(masks[best])]
    if best_count > 2:
        for u in g.units:
            for k in range(g.n):
                bit = 1 << k
                places = [i for i in u if masks[i] & bit]
                if 1 < len(places) < len(branches) and any(masks[i] != bit for i in places):
                    branches = [(i, bit) for i in places]
                    if len(branches) == 2:
                        break
            if len(branches) == 2:
                break
    for i, bit in branches:
        trial = list(masks)
        trial[i] = bit
        out = _search(trial, [i], g)
        if out is not None:
            return out
    return None


def _is_complete_solution(grid: Sequence[int], n: int, g: _Geo | None = None) -> bool:
    full = set(range(1, n + 1))
    g = _geo(n) if g is None else g
    return (len(grid) == n * n and all({grid[i] for i in u} == full for u in g.units)
            and all(len({grid[i] for i in c.cells}) == len(c.cells) for c in g.b.cages))


#: The last few solutions :func:`_complete` checked, with its answer (a generator's climb grades hundreds
#: of puzzles of one grid, each handing the solver the same solution).
_CHECKED: dict[tuple[tuple[int, ...], int, object], bool] = {}
_CHECKED_MAX = 16


_CHECKED_LOCK = threading.Lock()  # the studio grades on several threads


def _complete(grid: Sequence[int], n: int, g: _Geo | None) -> bool:
    """:func:`_is_complete_solution`, remembered for the last :data:`_CHECKED_MAX` grids (same answers)."""
    key = (tuple(grid), n, None if g is None else g.variant)
    with _CHECKED_LOCK:
        known = _CHECKED.get(key)
    if known is None:
        known = _is_complete_solution(grid, n, g)
        with _CHECKED_LOCK:
            _CHECKED[key] = known
            while len(_CHECKED) > _CHECKED_MAX:
                del _CHECKED[next(iter(_CHECKED))]
    return known


class _Guesser:
    """Trial and error, with the solution found once per solve (later steps are sound, so it stays
    valid). A known solution may be handed in; it is used only while it agrees with the state."""

    def __init__(self, solution: Sequence[int] | None = None, n: int = 0, geo: _Geo | None = None) -> None:
        self.solution: list[int] | None = None
        self.no_solution = False  # set when the search proved the state has no solution
        # checked on the first call (most paths never guess): the same answer, without the cost
        self._handed = (solution, n, geo) if solution is not None else None

    def __call__(self, st: Candidates, ctx: _Ctx) -> Step | None:
        if self._handed is not None:
            solution, n, geo = self._handed
            self._handed = None
            if _complete(solution, n, geo):
                self.solution = list(solution)
        n, cand = st.n, st.cand
        if self.solution is None or any(v and v != self.solution[i] for i, v in enumerate(st.values)) or any(
            not v and not cand[i] >> (self.solution[i] - 1) & 1 for i, v in enumerate(st.values)
        ):
            self.solution = search_solution(st)
            if self.solution is None:
                self.no_solution = True
                return None
        best, best_count = -1, n + 1
        for i, m in enumerate(cand):
            c = m.bit_count()
            if 0 < c < best_count:
                best, best_count = i, c
        if best < 0:
            return None
        d = self.solution[best]
        return Step("trial_and_error", (best,), placements=((best, d),), digits=(d,),
                    detail=f"in {cell_name(best, n)}: of {_cand(cand[best])} only {digit_name(d)} leads to a solution")

