"""Compiled twin (numba) of :func:`.cages._options_py`: the options of a sum constraint.

:func:`options` walks the same search as the pure-Python reference (cells in the caller's ``order``,
digits lowest first, the same pruning by the smallest and largest sums still reachable, one node per
call of the reference's recursion), so it finds the same assignments and gives up at the same node
count. Results go into caller-owned arrays: ``unions[mask, j]`` is the digits cell ``j`` takes in the
assignments whose digit set is ``mask``, ``seen[mask]`` whether there is one. Returns False when the
search passes ``budget`` nodes. No state between calls; the GIL is released; numba caches the compiled
code on disk. The tests compare it with the reference on random constraints.
"""

from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(cache=True, nogil=True)
def options(cands: np.ndarray, total: int, adj: np.ndarray, order: np.ndarray, min_rest: np.ndarray,
            max_rest: np.ndarray, budget: int, unions: np.ndarray, seen: np.ndarray) -> bool:  # pragma: no cover
    k = cands.shape[0]
    digit = np.zeros(k, dtype=np.int64)
    todo = np.zeros(k + 1, dtype=np.int64)  # candidate bits still to try at each depth
    left = np.zeros(k + 1, dtype=np.int64)
    nodes = 0
    p = 0
    left[0] = total
    entering = True
    while True:
        if entering:
            nodes += 1
            if nodes > budget:
                return False
            entering = False
            if p == k:
                if left[p] == 0:
                    used = 0
                    for j in range(k):
                        used |= 1 << (digit[j] - 1)
                    seen[used] = True
                    for j in range(k):
                        unions[used, j] |= 1 << (digit[j] - 1)
                todo[p] = 0
            elif not (min_rest[p] <= left[p] <= max_rest[p]):
                todo[p] = 0
            else:
                j = order[p]
                banned = 0
                a = adj[j]
                while a:
                    low = a & -a
                    q = 0
                    while (low >> q) != 1:
                        q += 1
                    if digit[q]:
                        banned |= 1 << (digit[q] - 1)
                    a ^= low
                todo[p] = cands[j] & ~banned
        # try the next digit at depth p, or go back up
        if p < k and todo[p]:
            low = todo[p] & -todo[p]
            d = 1
            while (low >> (d - 1)) != 1:
                d += 1
            if d <= left[p]:
                digit[order[p]] = d
                todo[p] ^= low
                left[p + 1] = left[p] - d
                p += 1
                entering = True
                continue
            todo[p] = 0
        # depth p is done: back to p - 1
        if p == 0:
            return True
        p -= 1
        digit[order[p]] = 0
