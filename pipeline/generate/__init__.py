"""One puzzle from one seed: the spec, a random complete grid, removal of givens on symmetry orbits,
the honest minimality flags, the grade and the ILP certificate (:mod:`.puzzle`, whose docstring
narrates the steps and fixes the order of random draws), with the compiled exact counter that
decides removals (:mod:`.fastcount`, numba).

Runs inside workers. Touches no disk. Pure: the result depends only on (spec, seed).
"""
