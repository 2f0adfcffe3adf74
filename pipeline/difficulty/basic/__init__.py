"""The basic techniques: the singles (:mod:`.singles`), the intersections (locked candidates:
pointing and claiming, :mod:`.intersections`) and the locked, naked and hidden subsets
(:mod:`.subsets`). Each ``_jit`` module beside a finder module is its compiled twin.
"""
