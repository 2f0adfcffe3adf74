"""Which puzzle is which: the 9x9 grid numbers of the 2007 thesis (:mod:`.numbering`, built on the
standard form of :mod:`.standard`, the standard bands of :mod:`.bands`, the band counts of
:mod:`.bandcount` and the tables of :mod:`.numbering_tables`), canonical forms under the
validity-preserving group and the dedup key (:mod:`.canon`, with the band table of
:mod:`.canon_tables`), their tables kept in the checksummed on-disk cache of :mod:`pipeline.tablecache`.
The per-puzzle work is compiled (numba): :mod:`.canon_jit` and :mod:`.numbering_jit`, with the
pure-Python code kept beside them as the tests' oracle (identical results, checked on thousands of
random puzzles and grids).

Runs inside workers (every row gets its grid number and canonical form) and in the run's main
process (dedup). Touches disk only through the table cache in the user's cache directory.
"""
