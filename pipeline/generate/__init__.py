"""One puzzle from one seed. :mod:`.puzzle` makes it and narrates the steps (and fixes the order of
random draws); :mod:`.spec` says what to make and which seed a puzzle has; :mod:`.grid` holds the
prefill, the group transform and the fixed-cells check; :mod:`.removal` the uniqueness check, the
removal pass on symmetry orbits and the minimality flags; :mod:`.count_jit` the compiled exact
counter (numba) that decides removals.

Runs inside workers. Touches no disk. Pure: the result depends only on (spec, seed).
"""
