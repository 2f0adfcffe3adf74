"""Step 1's raw material: the prefill of the diagonal boxes, the random element of the
validity-preserving group applied to an ILP grid, and whether fixed cells admit any grid at all."""

from __future__ import annotations

import numpy as np

from pipeline.board import Grid, board, conflict
from pipeline.ilp.engine import engine_for


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



def fixed_cells_problem(n: int, fixed: Grid) -> str | None:
    """Why no grid can contain ``fixed`` (None when some grid does). Checks units, then the IP."""
    clash = conflict(fixed)
    if clash:
        return clash
    if engine_for(n).count_solutions(fixed, limit=1).count == 0:
        return "no complete grid contains these fixed cells"
    return None
