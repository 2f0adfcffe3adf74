"""How hard a puzzle is for a human.

The driver level sits here: the technique registry and one rulebook per grader version
(:mod:`.techniques`: names, titles, levels, weights, HoDoKu's steps, finders and probes by name), the
human-style logical solver that records every step (:mod:`.logic`, the solve loop, and
:mod:`.logic_jit`, its compiled singles and probe dispatch), the candidate state every finder reads
(:mod:`.candidates`, :mod:`.candidates_jit`), trial and error (:mod:`.trial`), HoDoKu's comparator of
two steps (:mod:`.hodoku`) and the HoDoKu-style level and score of a solve path (:mod:`.grade`).

The finders live in one sub-package per family, each compiled twin (``*_jit``) beside its finder:
:mod:`.basic` (singles, intersections, subsets), :mod:`.fish`, :mod:`.patterns` (single-digit patterns
and wings), :mod:`.chains` (colours, X-/XY-chains, nice loops, AICs, forcing chains, the chain engine,
grouped loops), :mod:`.als` (almost locked sets, Sue de Coq), :mod:`.uniqueness` and :mod:`.killer`.

Runs inside workers (every generated puzzle is graded) and in ``numplace rate``. Touches no disk.
"""
