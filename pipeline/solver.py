"""``pipeline.solver``, the library's documented import path (docs/solving.md, "From Python"): the
public names of :mod:`pipeline.solve.solver`, re-exported, so that scripts written against it keep
working wherever the solver's modules live."""

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
