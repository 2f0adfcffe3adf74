"""Which generator a set uses: the generator version and the grid method its first run recorded.

A set keeps the generator it started with. The first run of a set records, in its manifest,
``generator: {"version": V, "grid_method": M}``; every later run of the set copies that record, and
when the config leaves ``grid.method`` unset the run uses ``M``. A set whose first run has no record
was begun before records existed (version 1, whose default was ``weighted-ilp``). A new set gets
:data:`NEW_SET_METHOD` and :data:`GENERATOR_VERSION`.

Versions, and what each promises:

* 1: numplace up to the generator record: ``grid.method`` ``weighted-ilp`` (the default) or ``uniform``.
* 2: adds ``weighted-lp`` (:mod:`pipeline.generate.lpgrid`) and the record itself. ``weighted-ilp``
  and ``uniform`` make the very puzzles of version 1 from the same config and seed.
* 3: a killer puzzle's ILP certificate is HiGHS's presolve alone
  (:meth:`pipeline.ilp.engine.Engine.unique_by_presolve`): a layout whose uniqueness presolve does not
  prove is dropped and the attempt moves on, where versions 1 and 2 give HiGHS up to
  :data:`pipeline.generate.puzzle.KILLER_CERTIFY_NODES` branch-and-bound nodes (a root node can take
  seconds). Classic and the other variants make the very puzzles of version 2; a killer set the
  same puzzles except where a certificate needed more than presolve (``docs/variants.md`` "Killer").
* 4: a technique target's climb (``difficulty.technique``) grades each candidate only up to the target
  and ranks a path that needs more by how far its easy part goes
  (:func:`pipeline.generate.technique.rater`, :func:`pipeline.generate.technique.miss` with
  ``capped``); every puzzle is still made for the target, graded in full, checked and certified, but
  a set with a technique target makes other puzzles than under version 3. Everything else (plain
  generation, levels, steering toward a level, quotas) makes the very puzzles of version 3.
* 5: a Simple Colors target's climb also ranks a path on the target's level that does not use it by
  whether it passed a state where Simple Colors had a step (:data:`pipeline.generate.technique.PASSED`,
  :func:`pipeline.generate.technique.passed_by`): a set with that target makes other puzzles than under
  version 4. Every other target, and everything else, makes the very puzzles of version 4.

New sets default to ``weighted-lp`` (:data:`NEW_SET_METHOD`, since 2026-11-28): its grids come from the
same random-weight objective, about four times as fast as ``weighted-ilp``'s, as many distinct grids, and
within 0.03 of ``weighted-ilp``'s distance from uniform grids in the statistics of
``bench/bench_grids.py`` (``docs/benchmarks.md`` "Grid methods"). The switch needs no new version: it
changes only sets begun afterwards, since every set's record keeps its own method (a set recorded with
``weighted-ilp``, and every set begun before records, goes on with ``weighted-ilp`` and the very puzzles
it made before: ``tests/run/test_generator.py``).

A set recorded with a version newer than this code's is refused: older code cannot promise its puzzles.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: The generator version of this code (the module docstring says what each promises).
GENERATOR_VERSION = 5
#: The first version whose killer certificates are HiGHS's presolve alone.
PRESOLVE_KILLER_CERTIFICATES = 3
#: The first version whose technique climb grades candidates only up to the target.
CAPPED_TECHNIQUE_CLIMB = 4
#: The first version whose Simple Colors climb ranks how near a path came to the target.
PASSED_TARGET_CLIMB = 5
#: ``grid.method`` of a new set whose config leaves it unset.
NEW_SET_METHOD = "weighted-lp"
#: The record of a set begun before generator records existed.
BEFORE_RECORDS: dict[str, Any] = {"version": 1, "grid_method": "weighted-ilp"}
#: The grid methods each version knows.
METHODS: dict[int, tuple[str, ...]] = {1: ("weighted-ilp", "uniform"), 2: ("weighted-ilp", "weighted-lp", "uniform"),
                                       3: ("weighted-ilp", "weighted-lp", "uniform"),
                                       4: ("weighted-ilp", "weighted-lp", "uniform"),
                                       5: ("weighted-ilp", "weighted-lp", "uniform")}


class NewerGenerator(ValueError):
    """A set recorded by a generator newer than this code (the message names both versions)."""


def new_record() -> dict[str, Any]:
    """The generator record of a new set."""
    return {"version": GENERATOR_VERSION, "grid_method": NEW_SET_METHOD}


def record_of(first: Mapping[str, Any] | None) -> dict[str, Any]:
    """The set's generator record from its first run's ``generator`` entry (None: begun before
    records); raises :class:`NewerGenerator` for a version this code does not know, ValueError for a
    malformed record."""
    if first is None:
        return dict(BEFORE_RECORDS)
    version, method = first.get("version"), first.get("grid_method")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1 or not isinstance(method, str):
        raise ValueError(f"malformed generator record {dict(first)!r} (want an int version >= 1 and a grid_method)")
    if version > GENERATOR_VERSION:
        raise NewerGenerator(f"generator version {version}, newer than this numplace's {GENERATOR_VERSION}: "
                             "upgrade numplace to continue the set")
    if method not in METHODS[version]:
        raise ValueError(f"malformed generator record: version {version} has no grid method {method!r}")
    return {"version": version, "grid_method": method}
