"""Grader 6's grouped nice loops and AICs: HoDoKu's GROUPED_* steps, with group nodes in the chains.

A *group node* is digit ``d``'s candidates in one box-line intersection when there are at least two
of them (HoDoKu's ``GroupNode``): "the group is on" means ``d`` lies in one of its cells, "off" that it
lies in none. Group nodes join :mod:`.engine`'s tables only as links in the middle of a chain; a
chain still starts and ends on one candidate.

Contracts
---------
* **Groups** (:func:`groups`), in HoDoKu's order: rows, then columns; in each, digit by digit, box by box
  (jigsaw: region by region). Every group and every link below is sound on any board (a group's digit is
  in one of its cells or in none); on a variant board the extra units (diagonals, windows) give no group
  links, only the plain ones they always give.
* **Links** (:class:`GroupLinks`, HoDoKu's ``TablingSolver.fillTablesWithGroupNodes``):

  - a group on turns off every candidate of its digit that sees all its cells, and that candidate on
    turns the group off (weak);
  - a group off turns on the one candidate of its digit left in its box, or in its line, beside it, and
    that candidate off turns the group on (strong);
  - a group on turns off every other group of its digit in its line or box that shares no cell (weak);
  - a group off turns on the one such group of its line (or box) when nothing else of the digit is left
    there (strong; HoDoKu adds this one link by link, so it may hold one way only, and the paths read
    the links *into* a node).

* **Choice** (:func:`grouped_loop`): HoDoKu's ``getStep(GROUPED_NICE_LOOP)``: the tables of
  :func:`.engine.choose_tables` over the plain and group links, every nice loop and AIC compared
  as there, the first one put first. Its kind is ``grouped_`` + the plain kind when a group node is on
  the chain (weight 300); without one (the tables may reach a plain chain the plain search did not
  take) it is the plain kind (280), as HoDoKu's step is. A group node on a chain counts as one link,
  a chain that comes back to a cell of a group node it has left is a lasso, and in a continuous loop
  the cells seeing a group node are those seeing all its cells.
* One search serves the three rows (cached in the step search's context). Boards up to
  :data:`.engine.MAX_N`; in the compiled solver (the context's ``cache["jit"]``) it runs in
  :mod:`.grouped_jit`, its compiled twin, which picks the same chain (``tests/difficulty/test_grouped.py``
  compares the two along solve paths, chains and paths), and the step is built here from that chain and
  its path (on :class:`GroupLinks` without a graph: only the nodes' facts are read).
"""

from __future__ import annotations

from pipeline.difficulty.candidates import Candidates, Step, _bits, _Ctx, digit_name
from pipeline.difficulty.chains.engine import MAX_N, Links, choose_tables, loop_step, tables_path, tables_step
from pipeline.difficulty.chains.graph import Graph, graph_of

#: One group node: ``(digit index, cells bitset, line unit, box unit)``.
Group = tuple[int, int, int, int]


def groups(st: Candidates, ctx: _Ctx) -> list[Group]:
    """The group nodes of this state, in HoDoKu's order (see the contracts)."""
    n, um = st.n, st.geo.unit_mask
    out: list[Group] = []
    for line in range(2 * n):  # rows 0..n-1, then columns n..2n-1
        for k in range(n):
            in_line = ctx.where[k] & um[line]
            for box in range(2 * n, 3 * n) if in_line else ():
                cells = in_line & um[box]
                if cells.bit_count() >= 2:
                    out.append((k, cells, line, box))
    return out


class GroupLinks(Links):
    """:class:`.engine.Links` with group nodes: node ``n * N + g`` is :func:`groups`' ``g``-th group
    (``N = n * n``), linked as the contracts say."""

    def __init__(self, st: Candidates, ctx: _Ctx, gr: Graph | None) -> None:
        """The links of ``gr`` and of the group nodes; without ``gr``, the nodes' facts only (cells, digits,
        names, the cells seeing them), as a step built on a compiled twin's path reads them."""
        super().__init__(st, gr)
        self.base = base = st.n * self.big
        self.groups = gs = groups(st, ctx)
        self.weak = self.weak + [0] * len(gs)
        self.strong = self.strong + [0] * len(gs)
        self.strong_in = list(self.strong)  # plain links are symmetric; the group-to-group strong ones need not be
        self.weak_in = self.weak  # every weak link is added both ways
        um, pb, where = st.geo.unit_mask, st.geo.peer_bits, ctx.where
        self._buddies = []
        for _k, cells, _line, _box in gs:
            bud = -1
            for c in _bits(cells):
                bud &= pb[c]
            self._buddies.append(bud)
        if gr is None:
            return
        for g, (k, _cells, line, box) in enumerate(gs):
            bud = self._buddies[g]
            x = base + g
            visible = where[k] & bud
            for c in _bits(visible):
                self._weak(x, k * self.big + c)
            for house in (box, line):
                single = visible & um[house]
                if single.bit_count() == 1:
                    self._strong(x, k * self.big + single.bit_length() - 1)
                    self._strong(k * self.big + single.bit_length() - 1, x)
        by_house: dict[tuple[int, int], list[int]] = {}  # (digit, line or box) -> its groups, in order
        for g, (k, _cells, line, box) in enumerate(gs):
            by_house.setdefault((k, line), []).append(g)
            by_house.setdefault((k, box), []).append(g)
        for g, (k, cells, line, box) in enumerate(gs):
            x = base + g
            for house in (line, box):
                others = [g2 for g2 in by_house[(k, house)] if g2 != g and not cells & gs[g2][1]]
                for g2 in others:
                    self.weak[x] |= 1 << (base + g2)
                if len(others) == 1 and not where[k] & um[house] & ~cells & ~gs[others[0]][1]:
                    self._strong(x, base + others[0])

    def _weak(self, x: int, y: int) -> None:
        self.weak[x] |= 1 << y
        self.weak[y] |= 1 << x

    def _strong(self, x: int, y: int) -> None:
        """"``x`` off turns ``y`` on"."""
        self.strong[x] |= 1 << y
        self.strong_in[y] |= 1 << x

    def _group(self, x: int) -> Group | None:
        return self.groups[x - self.base] if x >= self.base else None

    def cell(self, x: int) -> int:
        gp = self._group(x)
        return super().cell(x) if gp is None else (gp[1] & -gp[1]).bit_length() - 1

    def digit(self, x: int) -> int:
        gp = self._group(x)
        return super().digit(x) if gp is None else gp[0]

    def cells(self, x: int) -> int:
        gp = self._group(x)
        return super().cells(x) if gp is None else gp[1]

    def buddies(self, x: int) -> int:
        return super().buddies(x) if x < self.base else self._buddies[x - self.base]

    def grouped(self, x: int) -> bool:
        return x >= self.base

    def name(self, x: int) -> str:
        """``r1c23(5)``: a group node by its rows and columns (a plain node as :class:`Links` names it)."""
        gp = self._group(x)
        if gp is None:
            return super().name(x)
        cs = list(_bits(gp[1]))
        rows = "".join(str(r + 1) for r in sorted({c // self.n for c in cs}))
        cols = "".join(str(c + 1) for c in sorted({c % self.n for c in cs}))
        return f"r{rows}c{cols}({digit_name(gp[0] + 1)})"


def grouped_loop(st: Candidates, ctx: _Ctx) -> Step | None:
    """Grader 6's grouped nice loop / AIC rows (all three; see the contracts), or None. Cached in the
    context."""
    if "grouped6" in ctx.cache:
        return ctx.cache["grouped6"]  # type: ignore[return-value]
    step = None
    if st.n <= MAX_N and ctx.cache.get("jit"):
        from pipeline.difficulty.chains import grouped_jit  # lazy: numba loads only with the compiled solver

        got_path = grouped_jit.choose_path(st.cand, st.n, st.geo.peers, st.geo.units)
        if got_path is not None:  # the twin gives the path: the links need no graph
            step = tables_step(st, ctx, GroupLinks(st, ctx, None), *got_path)
    elif st.n <= MAX_N:
        gr = graph_of(st, ctx)
        lk = GroupLinks(st, ctx, gr)
        got = choose_tables(st, ctx, gr, lk) if lk.groups else None
        if got is not None:
            chain, elims = got
            step = loop_step(lk, chain[0], tables_path(lk, chain), elims)
    ctx.cache["grouped6"] = step
    return step
