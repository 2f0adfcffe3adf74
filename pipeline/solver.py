"""``pipeline.solver``, the import path the README documents: the public names of
:mod:`pipeline.solve.solver`, re-exported."""

from pipeline.solve.solver import (
    Change,
    Outcome,
    RepairResult,
    SolveResult,
    Status,
    as_json,
    count_solutions,
    outcome,
    repair,
    solve,
)

__all__ = ["Change", "Outcome", "RepairResult", "SolveResult", "Status", "as_json", "count_solutions", "outcome",
           "repair", "solve"]
