"""Sue de Coq (HoDoKu's SUE_DE_COQ, Unfair, 250): two sets locked across a line-box intersection.

Take two or three unsolved cells ``C`` of the intersection of a line (row or column) ``L`` and a box
``B``, holding the digits ``V`` with ``|V| >= |C| + 2``. Add cells ``D`` of ``L`` outside ``C`` and
cells ``E`` of ``B`` outside ``C`` and ``D`` such that ``E`` holds none of the ``V``-digits ``D``
holds, and the cells are as many as the digits can fill: ``(|D| - xD) + (|E| - xE) = |V| - |C|``,
where ``xD``, ``xE`` count the digits of ``D`` and ``E`` outside ``V`` ("extra" digits). Then every
digit of those cells is placed in them as often as it can be (each ``V``-digit once, each extra
digit once per set it lies in), so the digits of ``C`` and ``D`` that ``E`` lacks leave the rest of
``L``, those of ``C`` and ``E`` that ``D`` lacks leave the rest of ``B``, and an extra digit of both
``D`` and ``E`` leaves the rest of both.

Contracts
---------
* **HoDoKu's first instance** (hodoku-py's ``MiscSolver``, a port of HoDoKu's
  ``MiscellaneousSolver``): rows before columns, each line with boxes 1..n; intersection cells as
  subsets of two, then three cells in cell order; ``D`` and ``E`` enumerated as subsets in cell
  order, depth first (``D`` must hold a ``V``-digit, have more cells than extra digits, and leave
  ``V``-digits for ``E``). The first pattern that eliminates something is the step.
* Lines are rows and columns, boxes the boxes; the search runs on classic boards up to 9x9, as
  HoDoKu's (the pattern holds on variant boards too, but variants skip it: the pure-Python search
  would cost their grading for next to no change of grade).
* The compiled solver (``ctx.cache["jit"]``) first asks :mod:`.sue_de_coq_jit`, the same search
  compiled, whether a pattern exists; the step is always built here.
"""

from __future__ import annotations

from pipeline.difficulty.candidates import Candidates, Step, _bits, _cand, _cells, _Ctx, _elims_of, unit_name

#: The largest board side the search runs on.
MAX_SIDE = 9


def _sue_de_coq(st: Candidates, ctx: _Ctx) -> Step | None:
    n = st.n
    if n > MAX_SIDE or not st.geo.classic:
        return None
    if ctx.cache.get("jit"):
        from pipeline.difficulty.als import sue_de_coq_jit  # lazy: numba loads only with the compiled solver

        if not sue_de_coq_jit.exists(st.cand, n):
            return None
    g, cand = st.geo, st.cand
    empty = sum(1 << i for i in range(n * n) if not st.values[i])
    for line in range(2 * n):
        line_all = g.unit_mask[line] & empty
        for b in range(2 * n, 3 * n):
            box_all = g.unit_mask[b] & empty
            inter = line_all & box_all
            if inter.bit_count() < 2:
                continue
            cells = list(_bits(inter))
            for i1 in range(len(cells) - 1):
                for i2 in range(i1 + 1, len(cells)):
                    pair = (cells[i1], cells[i2])
                    for c_cells in (pair, *((*pair, c3) for c3 in cells[i2 + 1:])):
                        v = 0
                        for c in c_cells:
                            v |= cand[c]
                        if v.bit_count() - len(c_cells) < 2:
                            continue
                        step = _with_line(st, line, b, c_cells, v, line_all, box_all)
                        if step is not None:
                            return step
    return None


def _subsets(cand: list[int], source: list[int], allowed: int) -> list[tuple[int, int, int]]:
    """Every non-empty subset of ``source`` whose cells hold only ``allowed`` digits, depth first in
    cell order, as ``(cell bits, digits, size)``."""
    out: list[tuple[int, int, int]] = []

    def walk(pos: int, cells: int, digits: int, size: int) -> None:
        for i in range(pos, len(source)):
            c = source[i]
            if cand[c] & ~allowed:
                continue
            cc, dd = cells | 1 << c, digits | cand[c]
            out.append((cc, dd, size + 1))
            walk(i + 1, cc, dd, size + 1)

    walk(0, 0, 0, 0)
    return out


def _with_line(st: Candidates, line: int, box: int, c_cells: tuple[int, ...], v: int, line_all: int,
               box_all: int) -> Step | None:
    """The first Sue de Coq on intersection cells ``c_cells`` (digits ``v``) of ``line`` and ``box``."""
    cand, full = st.cand, (1 << st.n) - 1
    n_plus = v.bit_count() - len(c_cells)
    inter = sum(1 << c for c in c_cells)
    for d_cells, d_dig, d_size in _subsets(cand, list(_bits(line_all & ~inter)), full):
        d_extra = (d_dig & ~v).bit_count()
        if not (d_dig & v and d_size > d_extra and d_size - d_extra < n_plus):
            continue
        need = n_plus - (d_size - d_extra)
        allowed = full & ~(d_dig & v)
        step = _in_box(st, line, box, c_cells, v, d_cells, d_dig, need, allowed, line_all, box_all)
        if step is not None:
            return step
    return None


def _in_box(st: Candidates, line: int, box: int, c_cells: tuple[int, ...], v: int, d_cells: int, d_dig: int,
            need: int, allowed: int, line_all: int, box_all: int) -> Step | None:
    """The first set ``E`` of ``box`` completing the pattern with an elimination (hodoku-py's block
    pass: cells holding a disallowed digit are skipped, a branch stops once it covers too much)."""
    cand = st.cand
    inter = sum(1 << c for c in c_cells)
    source = list(_bits(box_all & ~inter & ~d_cells))

    def walk(pos: int, cells: int, digits: int, size: int) -> Step | None:
        for i in range(pos, len(source)):
            c = source[i]
            if cand[c] & ~allowed:
                continue
            e_cells, e_dig, e_size = cells | 1 << c, digits | cand[c], size + 1
            cover = e_size - (e_dig & ~v).bit_count()
            if e_dig & v and cover == need:
                step = _step(st, line, box, c_cells, v, d_cells, d_dig, e_cells, e_dig, line_all, box_all)
                if step is not None:
                    return step
            if cover <= need:
                step = walk(i + 1, e_cells, e_dig, e_size)
                if step is not None:
                    return step
        return None

    return walk(0, 0, 0, 0)


def _step(st: Candidates, line: int, box: int, c_cells: tuple[int, ...], v: int, d_cells: int, d_dig: int,
          e_cells: int, e_dig: int, line_all: int, box_all: int) -> Step | None:
    cand, n = st.cand, st.n
    inter = sum(1 << c for c in c_cells)
    both = d_dig & e_dig & ~v
    box_gone = ((v | e_dig) & ~d_dig) | both
    line_gone = ((v | d_dig) & ~e_dig) | both
    elims = [(c, k + 1) for c in _bits(box_all & ~e_cells & ~inter) for k in _bits(cand[c] & box_gone)]
    elims += [(c, k + 1) for c in _bits(line_all & ~d_cells & ~inter) for k in _bits(cand[c] & line_gone)]
    if not elims:
        return None
    d_list, e_list = list(_bits(d_cells)), list(_bits(e_cells))
    return Step("sue_de_coq", (*c_cells, *d_list, *e_list), eliminations=_elims_of(elims),
                digits=tuple(k + 1 for k in _bits(v | d_dig | e_dig)), units=(line, box),
                detail=(f"{_cells(c_cells, n)} {_cand(v)} in {unit_name(line, n)} and {unit_name(box, n)}, with "
                        f"{_cells(d_list, n)} {_cand(d_dig)} in the {unit_name(line, n).split()[0]} and "
                        f"{_cells(e_list, n)} {_cand(e_dig)} in the {unit_name(box, n).split()[0]}"))


# The finder the technique registry names (pipeline.difficulty.techniques).
sue_de_coq = _sue_de_coq
