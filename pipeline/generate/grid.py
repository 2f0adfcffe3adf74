"""Step 1's raw material: the prefill of the diagonal boxes, the random element of the
validity-preserving group applied to an ILP grid, and whether fixed cells (:func:`fixed_cells_problem`)
or a designed grid's rows (:func:`design_problem`) admit any grid at all."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from pipeline.board import Grid, Variant, board, conflict
from pipeline.ilp.engine import engine_for
from pipeline.ilp.model import Design


def prefill(n: int, rng: np.random.Generator) -> Grid:
    """Random digits in the boxes on the diagonal of box rows/columns (no two share a row or a
    column, so they are independent); the ILP completes the grid from there much faster.

    On 4x4 two such boxes leave about half the starts without a completion, so only the first box
    is filled there; for 6, 9 and 16 every diagonal start completes (9x9 is the classic fact;
    6 and 16 checked on samples), and :func:`make_puzzle` falls back to no prefill regardless.
    """
    b = board(n)
    out = [0] * (n * n)
    nbands, nstacks = n // b.box_rows, n // b.box_cols
    for k in range(1 if n == 4 else min(nbands, nstacks)):
        box = b.boxes[k * nstacks + k]
        for i, d in zip(box, rng.permutation(n), strict=True):
            out[i] = int(d) + 1
    return tuple(out)



def random_transform(grid: Grid, n: int, rng: np.random.Generator) -> Grid:
    """Apply a random element of the validity-preserving group of the board to ``grid``."""
    b = board(n)
    br, bc = b.box_rows, b.box_cols
    bands = rng.permutation(n // br)
    rows = [int(band * br + r) for band in bands for r in rng.permutation(br)]
    stacks = rng.permutation(n // bc)
    cols = [int(stack * bc + c) for stack in stacks for c in rng.permutation(bc)]
    relabel = [0, *(int(d) + 1 for d in rng.permutation(n))]
    out = [relabel[grid[rows[r] * n + cols[c]]] for r in range(n) for c in range(n)]
    if br == bc and rng.random() < 0.5:
        out = [out[c * n + r] for r in range(n) for c in range(n)]
    return tuple(out)



def fixed_cells_problem(n: int, fixed: Grid, variant: Variant | None = None) -> str | None:
    """Why no grid (of ``variant``'s rules) can contain ``fixed`` (None when some grid does). Checks
    units, then the IP."""
    clash = conflict(fixed, variant)
    if clash:
        return clash
    if engine_for(n, variant=variant).certified_count(fixed, limit=1).count == 0:
        return "no complete grid contains these fixed cells"
    return None


def variant_grid_problem(n: int, variant: Variant, fixed: Grid | None = None,
                         time_limit: float | None = None) -> str | None:
    """Why no complete grid of side ``n`` obeys ``variant``'s units (and holds ``fixed``), as one line
    naming the config key; None when a grid is found (or the integer program cannot decide in time).
    A valid jigsaw layout (n connected regions of n cells) may still admit no grid at all.

    The compiled search (:func:`pipeline.generate.count_jit.count`, at most :data:`BOARD_NODES` nodes)
    looks for a grid first: it finds one of an X+hyper 9x9 board in milliseconds where the integer
    program takes seconds. Only when it finds none within its budget does the integer program decide
    (and name the key), so a board without grids is told as before."""
    if fixed is not None and any(fixed):
        why = fixed_cells_problem(n, fixed, variant)
        if why is not None:
            return f"grid.fixed: {why}"
    board = (n, variant)
    if board in _BOARD_ANSWERS:
        return _BOARD_ANSWERS[board]
    from pipeline.generate import count_jit  # numba: loaded here, as the removal loop loads it

    if count_jit.count((0,) * (n * n), 1, BOARD_NODES, variant) == 1:  # a grid exists: decided
        _BOARD_ANSWERS[board] = None
        return None
    out = engine_for(n, time_limit, None, variant).certified_count((0,) * (n * n), limit=1)
    answer = None
    if out.count == 0 and out.complete:
        key = "board.regions" if variant.regions is not None else "board.variant"
        answer = f"{key}: no complete {n}x{n} grid obeys these rules (the integer program finds none)"
    if out.count > 0 or out.complete:  # decided: the same for every later request in this process
        _BOARD_ANSWERS[board] = answer
    return answer


#: Search nodes the compiled search may spend looking for one grid of a variant board before the
#: integer program is asked (a grid is usually found in well under a thousand).
BOARD_NODES = 20_000

#: :func:`variant_grid_problem`'s decided answers for the units alone, per board (side, rules), kept for
#: the process: a long-lived one (the studio) asks once per board, not once per request (an X+hyper
#: board's solve takes seconds).
_BOARD_ANSWERS: dict[tuple[int, Variant], str | None] = {}



def design_problem(n: int, design: Design, fixed: Grid | None = None,
                   time_limit: float | None = None, variant: Variant | None = None) -> tuple[str, str] | None:
    """Why no complete grid of side ``n`` honours ``design`` (and contains ``fixed``): ``(key, why)``
    with ``key`` the ``grid`` key to blame (``solution_symmetry``, ``areas.K``, ``fixed``); None when
    the integer program finds a grid, or cannot decide within ``time_limit`` (then the run's attempts
    will say so).

    One solve when the design holds (its engine is the one the generator then uses). When it does not,
    the rows are tried apart to name a culprit: the symmetry alone (and then every cycle type of digit
    map the same position map allows, for the message: a relabelling of the digits turns a digit map
    into any other of its cycle type, so the type decides), each area alone, then the areas added one
    by one to the symmetry, and last the fixed cells. With ``variant``, every solve obeys its units too
    (a variant board with no grid at all is blamed on ``board.variant``/``board.regions`` first)."""
    blank: Grid = (0,) * (n * n)
    if variant is not None:
        why_not = variant_grid_problem(n, variant, None, time_limit)
        if why_not is not None:
            key, _, why = why_not.partition(": ")
            return key.removeprefix("grid."), why

    def holds(d: Design, start: Grid | None = None) -> bool:
        out = engine_for(n, time_limit, d, variant).certified_count(start or blank, limit=1)
        return out.count > 0 or not out.complete

    if holds(design, fixed):
        return None
    image = Design(design.cell_map, design.digit_map) if design.cell_map is not None else None
    if image is not None and not holds(image):
        assert image.cell_map is not None and image.digit_map is not None
        order = 4 if any(image.cell_map[image.cell_map[i]] != i for i in range(n * n)) else 2
        fine = [t for t in _cycle_types(n, order) if holds(Design(image.cell_map, _with_cycles(t)))]
        have = "+".join(map(str, _cycle_type(image.digit_map)))
        works = ("; with this position map no digit map works" if not fine else
                 f"; digit maps that work have cycle lengths {', '.join('+'.join(map(str, t)) for t in fine)}")
        return "solution_symmetry", (f"no {n}x{n} grid is its own image this way (the integer program finds none "
                                     f"for a digit map of cycle lengths {have}){works}")
    for k, area in enumerate(design.areas):
        if not holds(Design(areas=(area,))):
            return f"areas.{k}", "no complete grid satisfies this rule (the integer program finds none)"
    for k in range(len(design.areas)):
        if not holds(Design(design.cell_map, design.digit_map, design.areas[: k + 1])):
            others = (["solution_symmetry"] if image is not None else []) + [f"areas.{j}" for j in range(k)]
            return f"areas.{k}", (f"no complete grid satisfies this rule together with grid.{', grid.'.join(others)} "
                                  "(the integer program finds none)")
    assert fixed is not None  # the design holds alone, so the fixed cells break it
    fixed_why = fixed_cells_problem(n, fixed, variant)
    return "fixed", fixed_why or "no complete grid contains these fixed cells and honours the designed-grid rules"


def _cycle_type(p: tuple[int, ...]) -> tuple[int, ...]:
    """Cycle lengths, longest first, of the digit map ``p`` (``p[d - 1] = p(d)``)."""
    seen: set[int] = set()
    out = []
    for start in range(1, len(p) + 1):
        k, d = 0, start
        while d not in seen:
            seen.add(d)
            d = p[d - 1]
            k += 1
        if k:
            out.append(k)
    return tuple(sorted(out, reverse=True))


def _cycle_types(n: int, order: int) -> Iterator[tuple[int, ...]]:
    """Every cycle type (longest first) of a permutation of ``n`` digits whose ``order``-th power is the identity."""
    def parts(left: int, top: int) -> Iterator[tuple[int, ...]]:
        if left == 0:
            yield ()
        for k in (4, 2, 1):
            if k <= min(left, top) and order % k == 0:
                for rest in parts(left - k, k):
                    yield (k, *rest)
    return parts(n, n)


def _with_cycles(lengths: tuple[int, ...]) -> tuple[int, ...]:
    """A digit map with these cycle lengths: cycles of consecutive digits."""
    out, d = [], 1
    for k in lengths:
        out += [d + (j + 1) % k for j in range(k)]
        d += k
    return tuple(out)
