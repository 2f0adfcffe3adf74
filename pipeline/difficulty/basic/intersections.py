"""The intersections (HoDoKu's locked candidates): pointing and claiming.

Finders (see :data:`~pipeline.difficulty.candidates.Finder`) for ``pointing`` (a digit's candidates in a
box confined to one line) and ``claiming`` (a line's candidates confined to one box); on a variant board
any unit takes the box's place (a jigsaw region, a diagonal, a window). Compiled twins:
:mod:`.intersections_jit`.
"""

from __future__ import annotations

from pipeline.difficulty.candidates import Candidates, Step, _bits, _Ctx, digit_name


def _pointing(st: Candidates, ctx: _Ctx) -> Step | None:
    """A digit's candidates in a box (or a jigsaw region, diagonal or window) all lie in one other
    unit: that unit's other cells lose the digit. Classic: the box's candidates in one row/column."""
    g, n, w = st.geo, st.n, ctx.where
    um, names = g.unit_mask, g.names
    for bu in range(2 * n, len(um)):
        bm = um[bu]
        for k in range(n):
            x = w[k] & bm
            if not x:
                continue
            for line in g.containing[(x & -x).bit_length() - 1]:
                if line == bu:
                    continue
                lm = um[line]
                if x & ~lm == 0:
                    el = w[k] & lm & ~bm
                    if el:
                        d = k + 1
                        where = f"on {digit_name(d)} in {names[bu]}, confined to {names[line]}"
                        return Step("pointing", tuple(_bits(x)), eliminations=tuple((i, d) for i in _bits(el)),
                                    digits=(d,), units=(bu, line), detail=where)
    return None


# _pointing's other direction (a line confined to a box): HoDoKu's two locked-candidates techniques
def _claiming(st: Candidates, ctx: _Ctx) -> Step | None:
    """A digit's candidates in a row or column all lie in one box (or jigsaw region, diagonal or
    window): that unit's other cells lose the digit."""
    g, n, w = st.geo, st.n, ctx.where
    um, names = g.unit_mask, g.names
    for line in range(2 * n):
        lm = um[line]
        for k in range(n):
            x = w[k] & lm
            if not x:
                continue
            for bu in g.containing[(x & -x).bit_length() - 1]:
                if bu < 2 * n:
                    continue
                bm = um[bu]
                if x & ~bm == 0:
                    el = w[k] & bm & ~lm
                    if el:
                        d = k + 1
                        return Step("claiming", tuple(_bits(x)), eliminations=tuple((i, d) for i in _bits(el)),
                                    digits=(d,), units=(line, bu),
                                    detail=f"on {digit_name(d)} in {names[line]}, confined to {names[bu]}")
    return None


# The finders the technique registry names (pipeline.difficulty.techniques).
pointing = _pointing
claiming = _claiming
