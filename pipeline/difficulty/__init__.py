"""How hard a puzzle is for a human: the one technique table (:mod:`.techniques`: names, titles,
levels, weights), the human-style logical solver that records every step (:mod:`.logic`, the solve
loop, over the candidate state of :mod:`.candidates` and the finders of :mod:`.basic`, :mod:`.fish`,
:mod:`.single_digit`, :mod:`.wings`, :mod:`.chains` and :mod:`.trial`; their compiled probes are the
``*_jit`` modules beside them), and the HoDoKu-style level and score of a solve path (:mod:`.grade`).

Runs inside workers (every generated puzzle is graded) and in ``numplace rate``. Touches no disk.
"""
