"""Colouring and chains: remote pairs, simple colours, multi-colours, X-chains and XY-chains.

Each follows links between candidates -- strong links (conjugate pairs of a digit in a unit:
:meth:`~pipeline.difficulty.candidates._Ctx.strong`) and weak links (peers) -- until both ends of a
chain force a digit, so the cells seeing both ends lose it.

Contracts
---------
* Chains (:func:`_x_chain`, :func:`_xy_chain`) are searched breadth first from each start, keeping
  the first parent of each state and dropping chains that repeat a cell; the shortest chain wins,
  then the one with most eliminations. Grader 5's rows (:func:`x_chain`, :func:`xy_chain`) make
  HoDoKu's choice among the chains to every end instead (its ``ChainSolver``: the most eliminations,
  then the lowest index sum, then the shortest); a chain exists for one exactly when it does for the
  other, so the compiled probes serve both. :mod:`pipeline.difficulty.logic_jit` probes them with the
  same search, so this order is part of the compiled kernels' contract.
* Remote pairs, simple colours and multi-colours work on 2-coloured components (:func:`_components`).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from pipeline.difficulty import hodoku as hodoku_step
from pipeline.difficulty.candidates import (
    Candidates,
    Step,
    _bits,
    _cand,
    _cells,
    _Ctx,
    _digits,
    _elims_of,
    _slash,
    _x_chain_text,
    cell_name,
    digit_name,
)

# ---------------------------------------------------------------------------------------------
# Remote pairs
# ---------------------------------------------------------------------------------------------


def _bfs_path(start: int, goal: int, adj: dict[int, list[int]]) -> list[int]:
    parent = {start: start}
    frontier = [start]
    while frontier and goal not in parent:
        nxt = []
        for c in frontier:
            for e in adj[c]:
                if e not in parent:
                    parent[e] = c
                    nxt.append(e)
        frontier = nxt
    path = [goal]
    while path[-1] != start:
        path.append(parent[path[-1]])
    return path[::-1]


def _components(nodes: Sequence[int], adj: dict[int, list[int]]) -> list[dict[int, int]]:
    """Connected components with a 2-colouring (``cell -> 0/1``); non-bipartite ones dropped."""
    seen: set[int] = set()
    out = []
    for s in nodes:
        if s in seen:
            continue
        color = {s: 0}
        seen.add(s)
        stack = [s]
        ok = True
        while stack:
            c = stack.pop()
            for e in adj[c]:
                if e not in color:
                    color[e] = 1 - color[c]
                    seen.add(e)
                    stack.append(e)
                elif color[e] == color[c]:
                    ok = False
        if ok:
            out.append(color)
    return out


def _remote_pair(st: Candidates, ctx: _Ctx) -> Step | None:
    g, n, cand = st.geo, st.n, st.cand
    groups: dict[int, list[int]] = {}
    for i in ctx.bivalue:
        groups.setdefault(cand[i], []).append(i)
    if all(len(cells) < 4 for cells in groups.values()):
        return None  # no chain of four (the common case: spares the per-digit table)
    w = ctx.where
    for m, cells in sorted(groups.items(), key=lambda kv: kv[1][0]):
        if len(cells) < 4:
            continue
        cellset = set(cells)
        adj = {c: [e for e in g.peers[c] if e in cellset] for c in cells}
        ka, kb = _bits(m)
        has_pair = w[ka] | w[kb]
        for color in _components(cells, adj):
            if len(color) < 4:
                continue
            comp = sorted(color)
            comp_bits = sum(1 << c for c in comp)
            for p, q in combinations(comp, 2):
                if color[p] == color[q]:
                    continue
                if not g.peer_bits[p] & g.peer_bits[q] & has_pair & ~comp_bits:
                    continue
                path = _bfs_path(p, q, adj)
                if len(path) < 4:
                    continue
                # every pair of path cells an odd distance >= 3 apart has opposite digits
                els: set[tuple[int, int]] = set()
                path_bits = sum(1 << c for c in path)
                for a in range(len(path)):
                    for b2 in range(a + 3, len(path), 2):
                        for x in _bits(g.peer_bits[path[a]] & g.peer_bits[path[b2]] & has_pair & ~path_bits):
                            els.update((x, d) for d in _digits(cand[x] & m))
                if els:
                    return Step("remote_pair", tuple(path), eliminations=_elims_of(els), digits=tuple(_digits(m)),
                                detail=f"{_slash(m)}: " + " - ".join(cell_name(c, n) for c in path))
    return None

# ---------------------------------------------------------------------------------------------
# Colouring and chains
# ---------------------------------------------------------------------------------------------


def _simple_colors(st: Candidates, ctx: _Ctx) -> Step | None:
    g, n = st.geo, st.n
    pb = g.peer_bits
    for k in range(n):
        links = ctx.strong(k)
        if len(links) < 2:
            continue
        adj: dict[int, list[int]] = {}
        for a, b, _ in links:
            adj.setdefault(a, []).append(b)
            adj.setdefault(b, []).append(a)
        wd = ctx.where[k]
        d = k + 1
        for color in _components(sorted(adj), adj):
            if len(color) < 3:
                continue
            sides = [sorted(c for c, v in color.items() if v == s) for s in (0, 1)]
            side_bits = [sum(1 << c for c in side) for side in sides]
            desc = f"{_cells(sides[0], n)} / {_cells(sides[1], n)}"
            # colour wrap: two cells of one colour see each other -> that colour is false
            for s in (0, 1):
                if any(pb[c] & side_bits[s] for c in sides[s]):
                    return Step("simple_colors", tuple(sides[0] + sides[1]),
                                eliminations=tuple((c, d) for c in sides[s]), digits=(d,),
                                detail=f"on {digit_name(d)} (color wrap): {desc}")
            # colour trap: an uncoloured candidate sees both colours
            see0 = see1 = 0
            for c in sides[0]:
                see0 |= pb[c]
            for c in sides[1]:
                see1 |= pb[c]
            el = see0 & see1 & wd & ~(side_bits[0] | side_bits[1])
            if el:
                return Step("simple_colors", tuple(sides[0] + sides[1]), eliminations=tuple((i, d) for i in _bits(el)),
                            digits=(d,), detail=f"on {digit_name(d)} (color trap): {desc}")
    return None


def _colorings(ctx: _Ctx, k: int) -> list[tuple[list[int], list[int]]]:
    """The 2-coloured components of digit ``k+1``'s conjugate pairs, each as its two colours (sorted
    cells), components by their lowest cell, the lowest cell's colour first (HoDoKu's order)."""
    links = ctx.strong(k)
    adj: dict[int, list[int]] = {}
    for a, b, _ in links:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    return [tuple(sorted(c for c, v in color.items() if v == s) for s in (0, 1))  # type: ignore[misc]
            for color in _components(sorted(adj), adj)]


def _multi_colors(st: Candidates, ctx: _Ctx) -> Step | None:
    """HoDoKu's Multi-Colors, both types, in its search order: for each digit and each ordered pair of
    colourings A, B, type 2 first (a colour of A that sees both colours of B is false), then type 1
    (when a colour of A sees a colour of B, one of the two others is true: a candidate seeing both goes)."""
    g, n = st.geo, st.n
    pb = g.peer_bits
    for k in range(n):
        pairs = _colorings(ctx, k)
        if len(pairs) < 2:
            continue
        wd, d = ctx.where[k], k + 1
        bits = [(sum(1 << c for c in a), sum(1 << c for c in b)) for a, b in pairs]
        sees = []  # the cells each colour sees
        for a, b in pairs:
            sa = sb = 0
            for c in a:
                sa |= pb[c]
            for c in b:
                sb |= pb[c]
            sees.append((sa, sb))
        for i, j in ((i, j) for i in range(len(pairs)) for j in range(len(pairs)) if i != j):
            (a1, a2), (b1, b2) = bits[i], bits[j]
            (s1, s2) = sees[i]
            el = (a1 if s1 & b1 and s1 & b2 else 0) | (a2 if s2 & b1 and s2 & b2 else 0)
            if el & wd:
                return _multi_step(pairs[i], pairs[j], d, el & wd, n, "(type 2): a colour seeing both colours of "
                                   "the other is false")
            t1, t2 = sees[j]
            el = 0
            for sa, sb, oa, ob in ((s1, b1, s2, t2), (s1, b2, s2, t1), (s2, b1, s1, t2), (s2, b2, s1, t1)):
                if sa & sb:
                    el |= oa & ob
            el &= wd & ~(a1 | a2 | b1 | b2)
            if el:
                return _multi_step(pairs[i], pairs[j], d, el, n, "(type 1): two colours see each other, so one of "
                                   "the others is true")
    return None


def _multi_step(pa: tuple[list[int], list[int]], pb: tuple[list[int], list[int]], d: int, el: int, n: int,
                why: str) -> Step:
    """The Multi-Colors step of colourings ``pa`` and ``pb`` on digit ``d`` removing it from the cells ``el``
    (worded only once found: the search tries many pairs)."""
    desc = f"on {digit_name(d)}: {_cells(pa[0], n)} / {_cells(pa[1], n)} and {_cells(pb[0], n)} / {_cells(pb[1], n)}"
    return Step("multi_colors", tuple(pa[0] + pa[1] + pb[0] + pb[1]), eliminations=tuple((c, d) for c in _bits(el)),
                digits=(d,), detail=f"{desc} {why}")


def _unwind(parent: dict[tuple[int, int], tuple[int, int] | None], s: tuple[int, int]) -> tuple[int, ...]:
    out = []
    cur: tuple[int, int] | None = s
    while cur is not None:
        out.append(cur[0])
        cur = parent[cur]
    return tuple(reversed(out))


#: A chain found: (its sort key, its cells, the digit, the eliminated cells as bits).
_Chain = tuple[tuple[int, ...], tuple[int, ...], int, int]


def _better(best: _Chain | None, parent: dict[tuple[int, int], tuple[int, int] | None], s: tuple[int, int],
            d: int, el: int, least: int, hodoku: bool) -> _Chain | None:
    """``best``, or the chain unwound from state ``s`` (eliminating ``d`` from the cells ``el``) if it
    comes first: the shorter, then the one with more eliminations; or with ``hodoku`` (grader 5),
    HoDoKu's comparator: the most eliminations, then the lowest index sum, then the shorter. A chain
    that repeats a cell or has fewer than ``least`` cells never does."""
    chain = _unwind(parent, s)
    if len(set(chain)) != len(chain) or len(chain) < least:
        return best
    key = (hodoku_step.key(el.bit_count(), hodoku_step.index_sum_of_digit(_bits(el), d), len(chain)) if hodoku
           else (len(chain), -el.bit_count()))
    return (key, chain, d, el) if best is None or key < best[0] else best


def _x_chain(st: Candidates, ctx: _Ctx, hodoku: bool = False) -> Step | None:
    """Alternating single-digit chain ``A = . - . = ... = E`` (starting and ending with a strong link):
    ``A`` or ``E`` holds the digit. Shortest chain wins, then most eliminations; with ``hodoku``,
    HoDoKu's choice (:func:`_better`) among the breadth-first chains to every end."""
    g, n = st.geo, st.n
    pb = g.peer_bits
    best: _Chain | None = None
    for k in range(n):
        links = ctx.strong(k)
        if len(links) < 2:
            continue
        wd = ctx.where[k]
        sadj: dict[int, list[int]] = {}
        for a, b, _ in links:
            sadj.setdefault(a, []).append(b)
            sadj.setdefault(b, []).append(a)
        for start in sorted(sadj):
            parent: dict[tuple[int, int], tuple[int, int] | None] = {(start, 0): None}
            frontier = [(start, 0)]
            length = 1
            while frontier:
                length += 1
                if best is not None and not hodoku and length > best[0][0]:
                    break
                nxt = []
                for c, p in frontier:
                    neigh = sadj.get(c, []) if p == 0 else list(_bits(pb[c] & wd))
                    for e in neigh:
                        s = (e, 1 - p)
                        if s in parent:
                            continue
                        parent[s] = (c, p)
                        nxt.append(s)
                        if p == 0 and e != start:
                            el = pb[start] & pb[e] & wd
                            if el:
                                best = _better(best, parent, s, k + 1, el, 1, hodoku)
                frontier = nxt
    if best is None:
        return None
    _, chain, d, el = best
    return Step("x_chain", chain, eliminations=tuple((i, d) for i in _bits(el)), digits=(d,),
                detail=f"on {digit_name(d)}: {_x_chain_text(chain, n)}")


# _x_chain's breadth-first walk over bivalue cells, kept inline: the chains are the hottest Python finders
def _xy_chain(st: Candidates, ctx: _Ctx, hodoku: bool = False) -> Step | None:
    """Chain of bivalue cells, each linked to the next by a shared digit: if the first cell is not
    ``x`` the last one is, so cells seeing both ends lose ``x``. Shortest first, then most eliminations;
    with ``hodoku``, HoDoKu's choice (:func:`_better`) among the breadth-first chains to every end."""
    g, n, cand, w = st.geo, st.n, st.cand, ctx.where
    pb = g.peer_bits
    bb = ctx.bivalue_bits
    best: _Chain | None = None
    for start in ctx.bivalue:
        for kx in _bits(cand[start]):
            xbit = 1 << kx
            ky = (cand[start] & ~xbit).bit_length() - 1
            s0 = (start, ky)  # (cell, index of the digit it must hold if start is not x)
            parent: dict[tuple[int, int], tuple[int, int] | None] = {s0: None}
            frontier = [s0]
            length = 1
            while frontier:
                length += 1
                if best is not None and not hodoku and length > best[0][0]:
                    break
                nxt = []
                for c, kv in frontier:
                    for e in _bits(pb[c] & bb & w[kv]):
                        ko = (cand[e] & ~(1 << kv)).bit_length() - 1
                        s = (e, ko)
                        if s in parent:
                            continue
                        parent[s] = (c, kv)
                        nxt.append(s)
                        if ko == kx and e != start:
                            el = pb[start] & pb[e] & w[kx]
                            if el:
                                best = _better(best, parent, s, kx + 1, el, 3, hodoku)
                frontier = nxt
    if best is None:
        return None
    _, chain, d, el = best
    text = " - ".join(f"{cell_name(c, n)} {_cand(cand[c])}" for c in chain)
    return Step("xy_chain", chain, eliminations=tuple((i, d) for i in _bits(el)), digits=(d,),
                detail=f"on {digit_name(d)}: {text}")



def x_chain(st: Candidates, ctx: _Ctx) -> Step | None:
    """Grader 5's ``x_chain`` row: HoDoKu's choice among the X-chains (:func:`_x_chain`)."""
    return _x_chain(st, ctx, hodoku=True)


def xy_chain(st: Candidates, ctx: _Ctx) -> Step | None:
    """Grader 5's ``xy_chain`` row: HoDoKu's choice among the XY-chains (:func:`_xy_chain`); in the compiled
    solver (the context's ``cache["jit"]``, classic boards) chosen by its compiled twin
    (:func:`.simple_jit.xy_chain_choice`), the step built as here."""
    if not (ctx.cache.get("jit") and st.geo.classic):
        return _xy_chain(st, ctx, hodoku=True)
    from pipeline.difficulty.chains import simple_jit  # lazy: numba loads only with the compiled solver

    got = simple_jit.xy_chain_choice(st.cand, st.n)
    if got is None:
        return None
    chain, d, el = got
    n, cand = st.n, st.cand
    text = " - ".join(f"{cell_name(c, n)} {_cand(cand[c])}" for c in chain)
    return Step("xy_chain", chain, eliminations=tuple((i, d) for i in el), digits=(d,),
                detail=f"on {digit_name(d)}: {text}")


# The finders the technique registry names (pipeline.difficulty.techniques); ``_until_4``: graders 2-4's
# rule (the shortest chain), kept for their rulebooks.
remote_pair = _remote_pair
simple_colors = _simple_colors
multi_colors = _multi_colors
x_chain_until_4 = _x_chain
xy_chain_until_4 = _xy_chain
