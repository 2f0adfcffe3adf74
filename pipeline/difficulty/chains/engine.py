"""The chain engine of graders 4-6: HoDoKu's choice among every discontinuous nice loop and AIC.

Public API (the rows' finders and what :mod:`.grouped` builds on; everything else here is private):
:func:`nice_loop` and :func:`aic` (the ``discontinuous_nice_loop``, ``continuous_nice_loop`` and
``aic`` rows since grader 5), :func:`nice_loop_until_4` and :func:`aic_until_4` (grader 4's rows),
:class:`Links` (the links of HoDoKu's tables, by node), :func:`choose_tables` (HoDoKu's choice over a
:class:`Links`), :func:`tables_path`, :func:`tables_step` and :func:`loop_step` (a chosen chain's path and step),
:data:`Chain` and :data:`MAX_N`.

HoDoKu does not take the shortest chain (:mod:`.loops`' search, grader 3): its tables follow every
premise to its end and its comparator picks one step among all the chains found. From grader
version 4 on boards up to 9x9 (variants included), both rows (``discontinuous_nice_loop``, ``aic``)
make that choice here (:func:`_hodoku_loop`; grader 5's rows :func:`nice_loop`, :func:`aic`).

Contracts
---------
* **Chains.** The links are :class:`.graph.Graph`'s. Every premise (a node on, or off) is followed
  layer by layer to its closure (:func:`_layers`; one layer per link, a node counted at the first
  distance it is reached in each state). Grader 4 keeps the first link out of the premise's cell;
  grader 5 follows HoDoKu's tables, where it may stay in (the other digit of a bivalue cell), and
  drops a nice loop whose chain does so (:func:`choose_tables`). A premise reaching its own cell
  after more than two links is a discontinuous nice loop, HoDoKu's four cases: "on ... off" or
  "on ... another digit on" remove the start, "off ... on" removes the cell's other candidates,
  "off ... another digit off" removes that digit. An "off" premise reaching a node on in another cell
  is an AIC: one digit, its candidates seeing both ends (when there are at least two); two digits in
  peer cells, each end's candidate of the other's digit.
* **Choice.** Of all of them the one HoDoKu's comparator (``SolutionStep.compareTo``) puts first: the
  most candidates removed, then the lowest HoDoKu index sum
  (:func:`~pipeline.difficulty.hodoku.index_sum`), then the fewest links, then the first found (nice
  loops before AICs; premises "on" before "off", by cell then digit; ends by node). A chain (the
  breadth-first one, first parent kept, links by node) that comes back to a cell it has left (a
  *lasso*, :func:`_lasso`) is dropped, as HoDoKu drops it. The step only removes candidates, as
  HoDoKu's.
* **Cost.** The search runs only where grader 3's search sees a chain (every elimination found here
  follows from one); in the compiled solver (the context's ``cache["jit"]``) it runs in
  :mod:`.engine_jit`, its compiled twin, which picks the same chain and, for grader 5's tables, gives its
  path too, so no :class:`.graph.Graph` is built (``tests/difficulty/test_chain_engine.py`` compares the
  two along solve paths, chains and paths).

* **Grader 5** (:func:`choose_tables`): HoDoKu's tables. A premise's first link may stay in its cell
  (an AIC may begin with the other digit of a bivalue cell); a node's chain runs through the lowest
  node of the layer before (:func:`_layer_path`); a nice loop whose first or last link stays in its
  cell is dropped; continuous nice loops are one step (:func:`_loop_elims`, HoDoKu's
  ``checkNiceLoop``), in the same comparison.

Group nodes join these tables in grader 6's grouped rows (:mod:`.grouped`, through :class:`Links`).
Roads not taken: ALS nodes are not in the graph (off in HoDoKu's default solver too); grader 4 finds
continuous nice loops as the loops and AICs their eliminations follow from (same weight), not as one
step; a node's parent is the lowest node of the layer before, where HoDoKu's is the first one its
table expansion met (the same on every HoDoKu state pinned, a lasso where HoDoKu's is not on one
development state: exact order needs a breadth-first search per premise, too slow in Python).
"""

from __future__ import annotations

from pipeline.difficulty.candidates import Candidates, Step, _bits, _Ctx, _elims_of
from pipeline.difficulty.chains.graph import Graph, chain_text, graph_of, node_name
from pipeline.difficulty.chains.loops import any_chain, shortest_aic, shortest_nice_loop
from pipeline.difficulty.hodoku import index_sum

__all__ = ["MAX_N", "Chain", "Links", "aic", "aic_until_4", "choose_tables", "loop_step", "nice_loop",
           "nice_loop_until_4", "tables_path", "tables_step"]

#: The largest board side grader 4's choice covers (HoDoKu's index sum is defined for 9x9 boards);
#: larger boards keep grader 3's finders.
MAX_N = 9

#: One chain found: ``(kind, premise node, premise on, end node, links)``.
Chain = tuple[str, int, bool, int, int]


class Links:
    """The links grader 5's tables follow, as lists by node (``weak[x]``: the nodes "``x`` on" turns off;
    ``strong[x]``: the nodes "``x`` off" turns on), with what the loop code reads of a node: its cell (a
    group node's first cell), digit index, cells and the cells seeing all of them. Here the nodes are
    :class:`.graph.Graph`'s (``k * N + c``) and every link is symmetric, so ``weak_in``/``strong_in`` (the
    nodes linking *to* a node) are the same lists; :class:`.grouped.GroupLinks` adds group nodes."""

    def __init__(self, st: Candidates, gr: Graph | None = None) -> None:
        """The links of ``gr`` (none without it: node facts only)."""
        self.n, self.big = st.n, st.n * st.n
        self.peer_bits = st.geo.peer_bits
        size = st.n * self.big if gr is not None else 0
        self.weak, self.strong = [0] * size, [0] * size
        if gr is not None:
            for x in gr.nodes:
                self.weak[x], self.strong[x] = gr.weak[x], gr.strong[x]
        self.weak_in, self.strong_in = self.weak, self.strong

    def cell(self, x: int) -> int:
        return x % self.big

    def digit(self, x: int) -> int:
        return x // self.big

    def cells(self, x: int) -> int:
        return 1 << (x % self.big)

    def buddies(self, x: int) -> int:
        return self.peer_bits[x % self.big]

    def grouped(self, x: int) -> bool:
        return False

    def name(self, x: int) -> str:
        return node_name(x, self.n)


def _layers(weak: list[int], strong: list[int], a: int, on: bool, own: int) -> list[tuple[int, bool]]:
    """The states first reached from premise "``a`` is ``on``", one layer per link: ``(nodes, on)``
    for distances 1, 2, ...; the first link leaves ``a``'s cell (``own``: that cell's nodes).
    ``weak`` and ``strong`` are :class:`.graph.Graph`'s links as lists by node."""
    seen_on, seen_off = (1 << a, 0) if on else (0, 1 << a)
    front, out = 1 << a, list[tuple[int, bool]]()
    while front:
        links = weak if on else strong
        nxt, m = 0, front
        while m:  # inlined _bits: this loop is the Python search's hot spot
            low = m & -m
            nxt |= links[low.bit_length() - 1]
            m ^= low
        on = not on
        nxt &= ~(seen_on if on else seen_off)
        if not out:
            nxt &= ~own
        if on:
            seen_on |= nxt
        else:
            seen_off |= nxt
        if nxt:
            out.append((nxt, on))
        front = nxt
    return out


def _elims(st: Candidates, ctx: _Ctx, chain: Chain) -> tuple[tuple[int, int], ...]:
    """What ``chain`` removes, as ``(cell, digit)`` pairs (see the contracts); empty if nothing."""
    kind, a, on, b, dist = chain
    big = st.n * st.n
    (ka, ca), (kb, cb) = divmod(a, big), divmod(b, big)
    if kind == "aic":
        if kb == ka:
            common = st.geo.peer_bits[ca] & st.geo.peer_bits[cb] & ctx.where[ka]
            return _elims_of((c, ka + 1) for c in _bits(common)) if common.bit_count() >= 2 else ()
        return _elims_of(((ca, kb + 1), (cb, ka + 1)))
    end_on = on != (dist % 2 == 1)
    if on and end_on != (b == a):  # a on ... a off, or a on ... another digit of its cell on
        return ((ca, ka + 1),)
    if not on and end_on and b == a:  # a off ... a on: a is true
        return _elims_of((ca, k + 1) for k in _bits(st.cand[ca] & ~(1 << ka)))
    if not on and not end_on and b != a:  # a off ... b off: b is false
        return ((ca, kb + 1),)
    return ()


def _aic_ends(st: Candidates, ctx: _Ctx, a: int) -> int:
    """The nodes an AIC from node ``a`` may end on: ``a``'s digit outside its cell, or another digit of
    ``a``'s cell in a peer cell that still has ``a``'s digit."""
    big = st.n * st.n
    ca, ka, where = a % big, a // big, ctx.where
    ends = (where[ka] & ~(1 << ca)) << (ka * big)
    for kb in _bits(st.cand[ca] & ~(1 << ka)):
        ends |= (st.geo.peer_bits[ca] & where[ka] & where[kb]) << (kb * big)
    return ends


def _choose_py(st: Candidates, ctx: _Ctx, gr: Graph) -> Chain | None:
    """Grader 4's chain: the one HoDoKu's comparator puts first (see the contracts), searched in Python."""
    big, cand = gr.big, st.cand
    found: list[tuple[tuple[int, int, int, int], Chain]] = []

    def offer(chain: Chain) -> None:
        elims = _elims(st, ctx, chain)
        if elims:
            found.append(((-len(elims), index_sum(elims), chain[4], len(found)), chain))

    cell_nodes = {c: sum(1 << (k * big + c) for k in _bits(cand[c])) for c in {gr.cell(x) for x in gr.nodes}}
    weak, strong = [0] * (gr.n * big), [0] * (gr.n * big)
    for x in gr.nodes:
        weak[x], strong[x] = gr.weak[x], gr.strong[x]
    layers = {(a, on): _layers(weak, strong, a, on, cell_nodes[gr.cell(a)]) for on in (True, False) for a in gr.nodes}
    for on in (True, False):
        for a in gr.nodes:
            own = cell_nodes[gr.cell(a)]
            for dist, (nodes, _is_on) in enumerate(layers[(a, on)], start=1):
                if dist > 2:
                    for e in _bits(nodes & own):
                        offer(("discontinuous_nice_loop", a, on, e, dist))
    for a in gr.nodes:
        ends = _aic_ends(st, ctx, a)
        for dist, (nodes, is_on) in enumerate(layers[(a, False)], start=1):
            if dist > 2 and is_on:
                for b in _bits(nodes & ends):
                    offer(("aic", a, False, b, dist))
    plain = Links(st)
    for _key, chain in sorted(found):
        kind, a, on, b, dist = chain
        if not _lasso(plain, _premise_path(gr, a, on, b, dist, cell_nodes[gr.cell(a)]), kind == "aic"):
            return chain
    return None


def _layer_path(weak: list[int], strong: list[int], a: int, on: bool, layers: list[tuple[int, bool]], b: int,
                dist: int) -> list[tuple[int, bool]]:
    """Grader 5's chain from premise ``(a, on)`` to node ``b`` first reached at ``dist`` links: each node's
    parent is the lowest node of the layer before that links to it. ``weak`` and ``strong`` are the links
    *into* each node (:attr:`Links.weak_in`; the same as the links out where they are symmetric)."""
    path = [(b, layers[dist - 1][1])]
    y = b
    for d in range(dist - 1, 0, -1):
        nodes, s = layers[d - 1]
        m = nodes & (weak if s else strong)[y]
        y = (m & -m).bit_length() - 1
        path.append((y, s))
    path.append((a, on))
    return path[::-1]


def _loop_elims(st: Candidates, ctx: _Ctx, path: list[tuple[int, bool]],
                links: Links | None = None) -> tuple[str, tuple[tuple[int, int], ...]]:
    """Grader 5's nice loop along ``path`` (premise first, an end in the premise's cell): its kind and
    what it removes, by HoDoKu's cases (``TablingSolver.checkNiceLoop``): the three discontinuous ones
    of the contracts, or a continuous loop (an "on" premise ending off on the other digit of a bivalue
    cell, or an "off" premise ending on another digit of its cell), which removes the digit of every
    weak link between two cells from the cells seeing both of its ends (off the chain), and from each
    cell entered and left by strong links (the premise's cell included) its other digits. ``links``
    (default: plain nodes) says what a node is: a group node's cells are all on the chain, and the
    cells seeing it are those seeing all of its cells (HoDoKu's ``getSNodeBuddies``)."""
    nd = links if links is not None else Links(st)
    cand = st.cand
    (a, on), (e, end_on) = path[0], path[-1]
    ca, ka, ke = nd.cell(a), nd.digit(a), nd.digit(e)
    first_on, m = path[1][1], len(path) - 1
    if on and not end_on and e == a:
        return "discontinuous_nice_loop", ((ca, ka + 1),)
    if not on and end_on and e == a:
        return "discontinuous_nice_loop", _elims_of((ca, k + 1) for k in _bits(cand[ca] & ~(1 << ka)))
    if on and end_on and e != a:
        return "discontinuous_nice_loop", ((ca, ka + 1),)
    if not on and not end_on and e != a:
        return "discontinuous_nice_loop", ((ca, ke + 1),)
    if not ((on and not end_on and e != a and cand[ca].bit_count() == 2) or (not on and end_on and e != a)):
        return "", ()
    cells = [nd.cell(x) for x, _ in path]
    on_chain = 0  # a cell appears twice in the chain (entered and left)
    for x, _ in path:
        on_chain |= nd.cells(x)
    out: set[tuple[int, int]] = set()
    for i, (x, x_on) in enumerate(path):
        c, k = cells[i], nd.digit(x)
        two_strong = i == 0 and first_on and end_on
        if not two_strong and i > 0 and x_on and i <= m - 2 and cells[i - 1] != c:  # entered by a strong link
            two_strong = cells[i + 1] == c and cells[i + 2] != c  # and left by one (states alternate)
        if two_strong:
            keep = (1 << ka | 1 << ke) if i == 0 else (1 << k | 1 << nd.digit(path[i + 2][0]))
            out.update((c, k2 + 1) for k2 in _bits(cand[c] & ~keep))
        if i > 0 and not x_on and cells[i - 1] != c:
            common = nd.buddies(path[i - 1][0]) & nd.buddies(x) & ctx.where[k] & ~on_chain & ~(1 << ca)
            out.update((c2, k + 1) for c2 in _bits(common))
    return "continuous_nice_loop", _elims_of(out)


def choose_tables(st: Candidates, ctx: _Ctx, gr: Graph,
                   links: Links | None = None) -> tuple[Chain, tuple[tuple[int, int], ...]] | None:
    """Grader 5's chain (see the contracts) and what it removes, searched in Python: HoDoKu's tables
    (the first link may stay in the premise's cell), nice loops whose first and last links leave the
    cell (continuous ones included, :func:`_loop_elims`), paths by :func:`_layer_path`. ``links``
    (default: ``gr``'s, :class:`Links`) may add group nodes; premises and ends are ``gr``'s nodes."""
    lk = links if links is not None else Links(st, gr)
    big, cand, weak, strong = gr.big, st.cand, lk.weak, lk.strong
    found: list[tuple[tuple[int, int, int, int], Chain, tuple[tuple[int, int], ...]]] = []
    layers = {(a, on): _layers(weak, strong, a, on, 0) for on in (True, False) for a in gr.nodes}
    for on in (True, False):
        for a in gr.nodes:
            ca = gr.cell(a)
            own = sum(1 << (k * big + ca) for k in _bits(cand[ca]))
            lay = layers[(a, on)]
            for dist, (nodes, _is_on) in enumerate(lay, start=1):
                for e in _bits(nodes & own) if dist > 2 else ():
                    path = _layer_path(lk.weak_in, lk.strong_in, a, on, lay, e, dist)
                    if lk.cell(path[1][0]) == ca or lk.cell(path[-2][0]) == ca:
                        continue  # HoDoKu: a nice loop's first and last links leave its cell
                    kind, elims = _loop_elims(st, ctx, path, lk)
                    if elims:
                        key = (-len(elims), index_sum(elims), dist, len(found))
                        found.append((key, (kind, a, on, e, dist), elims))
    for a in gr.nodes:
        ends = _aic_ends(st, ctx, a)
        for dist, (nodes, is_on) in enumerate(layers[(a, False)], start=1):
            for b in _bits(nodes & ends) if dist > 2 and is_on else ():
                elims = _elims(st, ctx, ("aic", a, False, b, dist))
                if elims:
                    key = (-len(elims), index_sum(elims), dist, len(found))
                    found.append((key, ("aic", a, False, b, dist), elims))
    for _key, chain, elims in sorted(found):
        kind, a, on, b, dist = chain
        if not _lasso(lk, _layer_path(lk.weak_in, lk.strong_in, a, on, layers[(a, on)], b, dist), kind == "aic"):
            return chain, elims
    return None


def tables_path(lk: Links, chain: Chain) -> list[tuple[int, bool]]:
    """The path grader 5 gives ``chain`` (:func:`_layer_path` on the links ``lk``)."""
    _kind, a, on, b, dist = chain
    return _layer_path(lk.weak_in, lk.strong_in, a, on, _layers(lk.weak, lk.strong, a, on, 0), b, dist)


def tables_step(st: Candidates, ctx: _Ctx, lk: Links, chain: Chain,
                path: list[tuple[int, bool]] | None = None) -> Step:
    """The step of ``chain`` as :func:`choose_tables` over the links ``lk`` chose it (a compiled twin's
    answer): its path (:func:`tables_path`, unless the twin gave it: ``path``), what it removes
    (:func:`_elims` for an AIC, else :func:`_loop_elims`, as the choice computed them) and :func:`loop_step`."""
    path = tables_path(lk, chain) if path is None else path
    elims = _elims(st, ctx, chain) if chain[0] == "aic" else _loop_elims(st, ctx, path, lk)[1]
    return loop_step(lk, chain[0], path, elims)


def loop_step(lk: Links, kind: str, path: list[tuple[int, bool]], elims: tuple[tuple[int, int], ...]) -> Step:
    """The step of a nice loop or AIC along ``path``: its cells in chain order (a group node's all), its
    digits and the chain in words; ``grouped_`` before the kind when a group node is on the chain."""
    if any(lk.grouped(x) for x, _ in path):
        kind = "grouped_" + kind
    cells = tuple(dict.fromkeys(c for x, _ in path for c in _bits(lk.cells(x))))
    return Step(kind, cells, eliminations=elims, digits=tuple(sorted({lk.digit(x) + 1 for x, _ in path})),
                detail=f"{chain_text(lk, path)}: "
                + ", ".join(node_name((d - 1) * lk.big + c, lk.n) for c, d in elims) + " false")


def _hodoku_loop(st: Candidates, ctx: _Ctx, tables: bool = False) -> Step | None:
    """Grader 4's nice-loop / AIC step (both rows; see the contracts), or None; with ``tables``, grader
    5's (:func:`choose_tables`). Cached in the context."""
    key = "loops5" if tables else "loops4"
    if key in ctx.cache:
        return ctx.cache[key]  # type: ignore[return-value]
    if not any_chain(st, ctx):
        ctx.cache[key] = None
        return None
    if ctx.cache.get("jit") and tables:  # the compiled twin gives the path too: no graph is built
        from pipeline.difficulty.chains import engine_jit  # lazy: numba loads only with the compiled solver

        got_path = engine_jit.choose_path(st.cand, st.n, st.geo.peers, st.geo.units, True)
        step = None
        if got_path is not None:
            found, found_path = got_path
            kind, elims = (("aic", _elims(st, ctx, found)) if found[0] == "aic"
                           else _loop_elims(st, ctx, found_path))
            step = loop_step(Links(st), kind, found_path, elims)
        ctx.cache[key] = step
        return step
    if ctx.cache.get("jit"):
        from pipeline.difficulty.chains import engine_jit  # lazy, as above

        chain = engine_jit.choose(st.cand, st.n, st.geo.peers, st.geo.units, tables)
    elif tables:
        got = choose_tables(st, ctx, graph_of(st, ctx))
        chain = got[0] if got is not None else None
    else:
        chain = _choose_py(st, ctx, graph_of(st, ctx))
    step = None
    if chain is not None:
        gr = graph_of(st, ctx)
        kind, a, on, b, dist = chain
        lk = Links(st, gr)
        if tables:
            path = tables_path(lk, chain)
            kind, elims = ("aic", _elims(st, ctx, chain)) if kind == "aic" else _loop_elims(st, ctx, path)
        else:
            own = sum(1 << (k * gr.big + gr.cell(a)) for k in _bits(st.cand[gr.cell(a)]))
            path = _premise_path(gr, a, on, b, dist, own)
            elims = _elims(st, ctx, chain)
        step = loop_step(lk, kind, path, elims)
    ctx.cache[key] = step
    return step


def nice_loop_until_4(st: Candidates, ctx: _Ctx) -> Step | None:
    """Grader 4's ``discontinuous_nice_loop`` row: :func:`_hodoku_loop` up to :data:`MAX_N`, grader 3's beyond."""
    return _hodoku_loop(st, ctx) if st.n <= MAX_N else shortest_nice_loop(st, ctx)


def aic_until_4(st: Candidates, ctx: _Ctx) -> Step | None:
    """Grader 4's ``aic`` row: :func:`_hodoku_loop` up to :data:`MAX_N`, grader 3's beyond."""
    return _hodoku_loop(st, ctx) if st.n <= MAX_N else shortest_aic(st, ctx)


def nice_loop(st: Candidates, ctx: _Ctx) -> Step | None:
    """Grader 5's ``discontinuous_nice_loop`` row: HoDoKu's tables (:func:`choose_tables`) up to :data:`MAX_N`."""
    return _hodoku_loop(st, ctx, tables=True) if st.n <= MAX_N else shortest_nice_loop(st, ctx)


def aic(st: Candidates, ctx: _Ctx) -> Step | None:
    """Grader 5's ``aic`` row: HoDoKu's tables (:func:`choose_tables`) up to :data:`MAX_N`."""
    return _hodoku_loop(st, ctx, tables=True) if st.n <= MAX_N else shortest_aic(st, ctx)


def _lasso(lk: Links, path: list[tuple[int, bool]], aic: bool) -> bool:
    """Whether the chain comes back to a cell it has left (HoDoKu drops such chains); a nice loop may
    end in its start cell. A node is seen by its (first) cell; a group node left marks all its cells
    (HoDoKu's ``addChain``)."""
    left, last, last_x = 0, -1, -1
    start = lk.cell(path[0][0])
    for x, _on in path:
        c = lk.cell(x)
        if left >> c & 1:
            return True
        if last not in (-1, c) and (aic or last != start):
            left |= lk.cells(last_x)
        last, last_x = c, x
    return False


def _premise_path(gr: Graph, a: int, on: bool, b: int, dist: int, own: int) -> list[tuple[int, bool]]:
    """A chain of ``dist`` links from premise ``(a, on)`` to node ``b`` (the state :func:`_layers` reached it
    in): breadth first, links by node, the first parent kept."""
    parent: dict[tuple[int, bool], tuple[int, bool] | None] = {(a, on): None}
    front = [(a, on)]
    for depth in range(dist):
        nxt = []
        for x, s in front:
            for y in _bits((gr.weak if s else gr.strong)[x] & (~own if depth == 0 else -1)):
                t = (y, not s)
                if t not in parent:
                    parent[t] = (x, s)
                    nxt.append(t)
        front = nxt
    goal: tuple[int, bool] | None = next(t for t in front if t[0] == b)
    out: list[tuple[int, bool]] = []
    while goal is not None:
        out.append(goal)
        goal = parent[goal]
    return out[::-1]
