"""How hard a puzzle is for a human: the one technique table (:mod:`.techniques`: names, titles,
levels, weights), the human-style logical solver that records every step (:mod:`.logic`), and the
HoDoKu-style level and score of a solve path (:mod:`.grade`).

Runs inside workers (every generated puzzle is graded) and in ``numplace rate``. Touches no disk.
"""
