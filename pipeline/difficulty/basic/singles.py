"""The singles: a naked single (a cell with one candidate) and a hidden single (a digit with one place
in a unit).

Finders (see :data:`~pipeline.difficulty.candidates.Finder`) for ``naked_single`` and ``hidden_single``.
Units are scanned in the order a human scans them (boxes, rows, columns, then a variant's extra units:
:attr:`~pipeline.difficulty.candidates._Geo.scan_order`); on a variant board every unit takes part (a
hidden single in a diagonal). Their compiled twin is the singles kernel of :mod:`pipeline.difficulty.logic_jit`
(:meth:`~pipeline.difficulty.logic_jit.Kernel.advance`), which places them exactly as these do.
"""

from __future__ import annotations

from pipeline.difficulty.candidates import Candidates, Step, _Ctx, cell_name, digit_name


def _naked_single(st: Candidates, ctx: _Ctx) -> Step | None:
    n = st.n
    for i, m in enumerate(st.cand):
        if m and not m & (m - 1):
            d = m.bit_length()
            return Step("naked_single", (i,), placements=((i, d),), digits=(d,), detail=f"in {cell_name(i, n)}")
    return None


def _hidden_single(st: Candidates, ctx: _Ctx) -> Step | None:
    g, cand = st.geo, st.cand
    for u in g.scan_order:
        once = twice = 0
        unit = g.units[u]
        for i in unit:
            m = cand[i]
            twice |= once & m
            once |= m
        h = once & ~twice
        if h:
            low = h & -h
            d = low.bit_length()
            for i in unit:
                if cand[i] & low:
                    return Step("hidden_single", (i,), placements=((i, d),), digits=(d,), units=(u,),
                                detail=f"for {digit_name(d)} in {g.names[u]}")
    return None


# The finders the technique registry names (pipeline.difficulty.techniques).
naked_single = _naked_single
hidden_single = _hidden_single
