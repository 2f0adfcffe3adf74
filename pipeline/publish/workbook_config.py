"""The ``workbook`` section of a book config (``numplace book --workbook`` gives it its defaults).

Contract: strict like the rest of the book config; ``techniques`` names techniques a puzzle can be
made for (:data:`pipeline.config.technique.OFFERED`), each once, in chapter order.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from pipeline.config import technique


class WorkbookCfg(BaseModel):
    """``workbook``: a chapter per technique (``techniques``, default every technique the sets' puzzles
    were made for, in the technique table's order), each with a worked example and ``per_technique``
    practice puzzles, easiest first; the answers at the back with each puzzle's key step."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    techniques: list[str] | None = Field(default=None, min_length=1)
    per_technique: int = Field(default=6, ge=1, le=1000, strict=True)

    @field_validator("techniques")
    @classmethod
    def _names(cls, v: list[str] | None) -> list[str] | None:
        for name in v or ():
            why = technique.unknown(name)
            if why:
                raise ValueError(why)
        if v is not None and len(set(v)) != len(v):
            raise ValueError("a technique is named twice")
        return v
