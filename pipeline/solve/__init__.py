"""Puzzles from elsewhere: solve, count and repair one puzzle on the ILP engine (:mod:`.solver`),
and the one reader of a command's input plus parallel batches (:mod:`.batch`).

``pipeline.solver`` (documented in the README) re-exports :mod:`.solver`.
"""
