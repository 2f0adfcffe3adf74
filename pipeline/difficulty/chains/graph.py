"""The implication graph over the candidates, read by every nice loop, AIC and forcing chain (and the
chain engine, and the grouped loops built on it).

*Nodes*: digit ``d`` in cell ``c``, numbered ``(d - 1) * N + c`` (``N = n * n``). A **weak link** joins
two nodes that cannot both be true (two digits of one cell, or one digit in two peer cells); a **strong
link** joins two nodes that cannot both be false (the two digits of a bivalue cell, or the two places of
a digit in a unit). Public API (the chain modules' shared surface): :class:`Graph`, :func:`graph_of` (one
graph per step search, cached in its context), :func:`chain_text` and :func:`node_name` (how a chain and
a node are written in a step's detail).
"""

from __future__ import annotations

from typing import Protocol

from pipeline.difficulty.candidates import TABLE_SIDE, Candidates, _bit_table, _bits, _Ctx, cell_name, digit_name

__all__ = ["Graph", "Named", "chain_text", "graph_of", "node_name"]


class Graph:
    """The links of one state, on nodes ``k * N + c`` (digit ``k + 1`` in cell ``c``, ``N = n * n``):
    ``weak[x]`` and ``strong[x]`` are the bitsets of the nodes linked to node ``x``."""

    def __init__(self, st: Candidates, ctx: _Ctx) -> None:
        n, cand, g, where = st.n, st.cand, st.geo, ctx.where
        big = n * n
        self.n, self.big = n, big
        of = _bit_table(n) if n <= TABLE_SIDE else None
        nodes: list[int] = []  # cells ascending, then digits
        weak: dict[int, int] = {}
        strong: dict[int, int] = {}
        present = 0
        pb = g.peer_bits
        for c, m in enumerate(cand):
            if not m:
                continue
            ks = of[m] if of is not None else tuple(_bits(m))
            own = 0  # the cell's nodes
            for k in ks:
                own |= 1 << (k * big + c)
            present |= own
            for k in ks:
                x = k * big + c
                nodes.append(x)
                others = own & ~(1 << x)  # the cell's other digits: weak links, strong ones in a bivalue cell
                weak[x] = ((where[k] & pb[c]) << (k * big)) | others
                strong[x] = others if len(ks) == 2 else 0
        for k in range(n):
            for a, b, _kinds in ctx.strong(k):
                strong[k * big + a] |= 1 << (k * big + b)
                strong[k * big + b] |= 1 << (k * big + a)
        self.nodes, self.present = nodes, present
        self.weak, self.strong = weak, strong

    def name(self, x: int) -> str:
        return node_name(x, self.n)

    def cell(self, x: int) -> int:
        return x % self.big

    def pair(self, x: int) -> tuple[int, int]:
        k, c = divmod(x, self.big)
        return c, k + 1


def graph_of(st: Candidates, ctx: _Ctx) -> Graph:
    """The :class:`Graph` of state ``st``, built once per step search (kept in ``ctx.cache["graph"]``)."""
    g = ctx.cache.get("graph")
    if not isinstance(g, Graph):
        g = Graph(st, ctx)
        ctx.cache["graph"] = g
    return g


class Named(Protocol):
    """Anything that names a node (a :class:`Graph`, or the chain engine's links)."""

    def name(self, x: int) -> str: ...


def chain_text(gr: Named, path: list[tuple[int, bool]]) -> str:
    """``r1c2(5) = r1c7(5) - r1c7(3) = r4c7(3)``: ``=`` a strong link, ``-`` a weak one."""
    out = gr.name(path[0][0])
    for x, on in path[1:]:
        out += (" = " if on else " - ") + gr.name(x)
    return out


def node_name(x: int, n: int) -> str:
    """``r5c3(7)``: node ``x`` (digit and cell) by name, as :meth:`Graph.name` says it."""
    k, c = divmod(x, n * n)
    return f"{cell_name(c, n)}({digit_name(k + 1)})"
