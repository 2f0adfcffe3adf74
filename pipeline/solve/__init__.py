"""Puzzles from elsewhere: solve, count and repair one puzzle (:mod:`.solver`: an exact search in
:mod:`.search` decides, the ILP engine where its budgets run out and for repairs), and the one reader
of a command's input plus parallel batches (:mod:`.batch`), and why a puzzle has no solution
(:mod:`.why`).

``pipeline.solver`` (documented in docs/solving.md) re-exports :mod:`.solver`.
"""
