"""Wings: the W-wing, XY-wing and XYZ-wing.

Two bivalue cells (pincers) tied to a pivot (a peer holding their other digits, XY / XYZ) or to a
strong link (W): one pincer holds digit ``z`` whatever the pivot or link holds, so a cell seeing both
pincers (and, for XYZ, the pivot) loses ``z``. Peers and strong links are the board's, so a wing
works on every variant board.
"""

from __future__ import annotations

from itertools import combinations

from pipeline.difficulty.candidates import Candidates, Step, _bits, _cand, _Ctx, _digits, _slash, cell_name, digit_name


def _w_wing(st: Candidates, ctx: _Ctx) -> Step | None:
    g, n, cand, w = st.geo, st.n, st.cand, ctx.where
    pb = g.peer_bits
    biv = ctx.bivalue
    for ia, a in enumerate(biv):
        for b in biv[ia + 1 :]:
            m = cand[a]
            if cand[b] != m or pb[a] >> b & 1:
                continue
            for kx in _bits(m):
                ky = (m & ~(1 << kx)).bit_length() - 1
                el = pb[a] & pb[b] & w[ky]
                if not el:
                    continue
                for p, q, _kinds in ctx.strong(kx):
                    if p in (a, b) or q in (a, b):
                        continue
                    if pb[p] >> a & 1 and pb[q] >> b & 1:
                        link = (p, q)
                    elif pb[p] >> b & 1 and pb[q] >> a & 1:
                        link = (q, p)
                    else:
                        continue
                    x, y = kx + 1, ky + 1
                    return Step("w_wing", (a, link[0], link[1], b), eliminations=tuple((i, y) for i in _bits(el)),
                                digits=(x, y),
                                detail=(f"{_slash(m)} in {cell_name(a, n)} and {cell_name(b, n)} connected by "
                                        f"{digit_name(x)} in {cell_name(link[0], n)} = {cell_name(link[1], n)}"))
    return None


def _xy_wing(st: Candidates, ctx: _Ctx) -> Step | None:
    g, n, cand, w = st.geo, st.n, st.cand, ctx.where
    pb = g.peer_bits
    bset = set(ctx.bivalue)
    for pivot in ctx.bivalue:
        pm = cand[pivot]
        wings = [c for c in g.peers[pivot] if c in bset and (cand[c] & pm).bit_count() == 1]
        for a, b in combinations(wings, 2):
            ma, mb = cand[a], cand[b]
            if ma & pm == mb & pm:
                continue
            z = ma & ~pm
            if z != mb & ~pm:
                continue
            kz = z.bit_length() - 1
            el = pb[a] & pb[b] & w[kz]
            if el:
                zd = kz + 1
                return Step("xy_wing", (pivot, a, b), eliminations=tuple((i, zd) for i in _bits(el)),
                            digits=(*_digits(pm), zd),
                            detail=(f"on {digit_name(zd)}: pivot {cell_name(pivot, n)} {_cand(pm)}, pincers "
                                    f"{cell_name(a, n)} {_cand(ma)} and {cell_name(b, n)} {_cand(mb)}"))
    return None


# _xy_wing's shape with a trivalue pivot: the pincers lie inside it and the targets see all three
def _xyz_wing(st: Candidates, ctx: _Ctx) -> Step | None:
    g, n, cand, w = st.geo, st.n, st.cand, ctx.where
    pb = g.peer_bits
    bset = set(ctx.bivalue)
    for pivot, pm in enumerate(cand):
        if pm.bit_count() != 3:
            continue
        wings = [c for c in g.peers[pivot] if c in bset and not cand[c] & ~pm]
        for a, b in combinations(wings, 2):
            if cand[a] == cand[b]:
                continue
            z = cand[a] & cand[b]
            kz = z.bit_length() - 1
            el = pb[pivot] & pb[a] & pb[b] & w[kz]
            if el:
                zd = kz + 1
                return Step("xyz_wing", (pivot, a, b), eliminations=tuple((i, zd) for i in _bits(el)),
                            digits=(*_digits(pm),),
                            detail=(f"on {digit_name(zd)}: pivot {cell_name(pivot, n)} {_cand(pm)}, pincers "
                                    f"{cell_name(a, n)} {_cand(cand[a])} and {cell_name(b, n)} {_cand(cand[b])}"))
    return None



# The finders the technique registry names (pipeline.difficulty.techniques).
w_wing = _w_wing
xy_wing = _xy_wing
xyz_wing = _xyz_wing
