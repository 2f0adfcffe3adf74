"""Compiled probes of the wings (:mod:`.wings`): W-wing, XY-wing and XYZ-wing. Each answers whether
the Python finder would return a step.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.difficulty.candidates_jit import _bitlen, _popcount, _sees_both, _strong


@nb.njit(cache=True, nogil=True)
def _w_wing(cand: np.ndarray, units: np.ndarray, is_peer: np.ndarray, n: int) -> bool:  # pragma: no cover
    """``wings._w_wing(st, ctx) is not None``."""
    ncells = n * n
    la = np.empty((n, 3 * n), dtype=np.int64)
    lb = np.empty((n, 3 * n), dtype=np.int64)
    lk = np.empty(3 * n, dtype=np.int64)
    nl = np.full(n, -1, dtype=np.int64)  # links of each digit, computed when first needed
    for a in range(ncells):
        m = cand[a]
        if _popcount(m) != 2:
            continue
        for b in range(a + 1, ncells):
            if cand[b] != m or is_peer[a, b]:
                continue
            for kx in range(n):
                if not m >> kx & 1:
                    continue
                ky = _bitlen(m & ~(1 << kx)) - 1
                if not _sees_both(cand, is_peer, ky, a, b, -1, -1):
                    continue
                if nl[kx] < 0:
                    nl[kx] = _strong(cand, units, n, kx, la[kx], lb[kx], lk)
                for q in range(nl[kx]):
                    p, r = la[kx, q], lb[kx, q]
                    if p == a or p == b or r == a or r == b:  # noqa: SIM109 (plain compares: compiled code)
                        continue
                    if (is_peer[p, a] and is_peer[r, b]) or (is_peer[p, b] and is_peer[r, a]):
                        return True
    return False


# mirrors wings._xy_wing on purpose: the compiled probe of the Python reference (tests compare them)
@nb.njit(cache=True, nogil=True)
def _xy_wing(cand: np.ndarray, peers: np.ndarray, is_peer: np.ndarray, n: int) -> bool:  # pragma: no cover
    """``wings._xy_wing(st, ctx) is not None``."""
    wings = np.empty(peers.shape[1], dtype=np.int64)
    for pivot in range(n * n):
        pm = cand[pivot]
        if _popcount(pm) != 2:
            continue
        nw = 0
        for q in range(peers.shape[1]):
            c = peers[pivot, q]
            if _popcount(cand[c]) == 2 and _popcount(cand[c] & pm) == 1:
                wings[nw] = c
                nw += 1
        for x in range(nw):
            for y in range(x + 1, nw):
                a, b = wings[x], wings[y]
                ma, mb = cand[a], cand[b]
                if ma & pm == mb & pm:
                    continue
                z = ma & ~pm
                if z != mb & ~pm:
                    continue
                if _sees_both(cand, is_peer, _bitlen(z) - 1, a, b, -1, -1):
                    return True
    return False


# _xy_wing's shape with a trivalue pivot, as wings._xyz_wing mirrors wings._xy_wing
@nb.njit(cache=True, nogil=True)
def _xyz_wing(cand: np.ndarray, peers: np.ndarray, is_peer: np.ndarray, n: int) -> bool:  # pragma: no cover
    """``wings._xyz_wing(st, ctx) is not None``."""
    wings = np.empty(peers.shape[1], dtype=np.int64)
    for pivot in range(n * n):
        pm = cand[pivot]
        if _popcount(pm) != 3:
            continue
        nw = 0
        for q in range(peers.shape[1]):
            c = peers[pivot, q]
            if _popcount(cand[c]) == 2 and not cand[c] & ~pm:
                wings[nw] = c
                nw += 1
        for x in range(nw):
            for y in range(x + 1, nw):
                a, b = wings[x], wings[y]
                if cand[a] == cand[b]:
                    continue
                kz = _bitlen(cand[a] & cand[b]) - 1
                for i in range(n * n):
                    if cand[i] >> kz & 1 and is_peer[pivot, i] and is_peer[a, i] and is_peer[b, i]:
                        return True
    return False
