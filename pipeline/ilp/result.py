"""What the ILP answers, without the solver: one solve's :class:`Outcome`, a solution count's
:class:`CountResult`, and :class:`SolverTimeout`. :mod:`.engine` makes these, and ``pipeline.solve``
makes count results too when its exact search decides without the ILP (importing this module loads
neither pyomo nor highspy)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pipeline.board import Grid

Status = Literal["feasible", "infeasible", "timeout", "error"]


class SolverTimeout(RuntimeError):
    """A check hit the engine's time limit; its answer is unknown."""


@dataclass(frozen=True)
class Outcome:
    """Result of one solve: ``grid`` is set iff ``status == "feasible"``; ``proven`` is True only when
    the solver proved ``grid`` optimal for the objective it was given (HiGHS's status *optimal*, or an
    integral optimum of the LP relaxation); a first incumbent, or a solve without an objective, leaves
    it False. It takes no part in equality."""

    status: Status
    grid: Grid | None = None
    proven: bool = field(default=False, compare=False)


@dataclass(frozen=True)
class CountResult:
    """``count`` solutions found, capped at ``limit``; ``complete`` is False after a timeout."""

    count: int
    limit: int
    solutions: tuple[Grid, ...] = field(repr=False)
    complete: bool = True

    @property
    def status(self) -> str:
        if not self.complete:
            return "timeout"
        return {0: "none", 1: "unique"}.get(self.count, "multiple")
