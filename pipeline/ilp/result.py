"""What a solution count returns, without the solver: :mod:`.engine` makes these, and
``pipeline.solve`` makes them too when its exact search decides without the ILP (importing this
module loads neither pyomo nor highspy)."""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.board import Grid


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
