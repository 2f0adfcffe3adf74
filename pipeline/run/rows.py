"""The output row: the Parquet schema, defined once, and the one function that builds a row.

A row is a ``dict`` whose keys are exactly :data:`SCHEMA`'s columns, in its order, with values of
those types (DESIGN.md "Output"). :func:`build_row` makes it from a :class:`~pipeline.generate.puzzle.MadePuzzle`
inside the worker; :mod:`pipeline.run.store` writes rows with :data:`SCHEMA`; ``numplace check`` compares
a written file against it (:func:`schema_problems`). Columns may be added, never renamed or re-typed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import polars as pl

from pipeline import __version__
from pipeline.board import board, format_line, size_of_grid

if TYPE_CHECKING:  # the generator (and its solver imports) stays out of readers of the schema
    from pipeline.generate.puzzle import MadePuzzle

Row = dict[str, Any]

# The output contract (DESIGN.md "Output"); columns may be added, never renamed or re-typed.
SCHEMA: dict[str, pl.DataType] = {
    "puzzle_id": pl.String(),
    "set_name": pl.String(),
    "config_hash": pl.String(),
    "seed": pl.Int64(),
    "index": pl.Int64(),
    "size": pl.Int32(),
    "box_rows": pl.Int32(),
    "box_cols": pl.Int32(),
    "puzzle": pl.String(),
    "solution": pl.String(),
    "hints": pl.Int32(),
    "symmetry": pl.String(),
    "symmetry_requested": pl.String(),
    "minimal": pl.Boolean(),
    "orbit_minimal": pl.Boolean(),
    "ilp_solves": pl.Int32(),
    "gen_ms": pl.Float64(),
    "created_at": pl.Datetime("us", "UTC"),
    "numplace_version": pl.String(),
    "attempts": pl.Int32(),
    "difficulty": pl.String(),
    "difficulty_score": pl.Float64(),
    "techniques": pl.List(pl.String()),
    "logic_steps": pl.Int32(),
    "grid_number": pl.String(),
    "canonical_puzzle": pl.String(),
}


def puzzle_id(set_name: str, index: int) -> str:
    """The id of puzzle ``index`` of set ``set_name``: ``<set>-<index, 7 digits>``."""
    return f"{set_name}-{index:07d}"


def build_row(made: MadePuzzle, *, set_name: str, config_hash: str, index: int, seed: int) -> Row:
    """The row of puzzle ``index`` (made from ``seed``) of a set: :data:`SCHEMA`'s columns, in order.

    Identity columns come from :mod:`pipeline.identity.numbering` (``grid_number``, 9x9 only) and
    :mod:`pipeline.identity.canon` (``canonical_puzzle``; null where the board has no canonical form).
    """
    from pipeline.identity import canon, numbering  # here, not at the top: readers of SCHEMA start without the tables

    b = board(size_of_grid(made.puzzle))
    return {
        "puzzle_id": puzzle_id(set_name, index),
        "set_name": set_name,
        "config_hash": config_hash,
        "seed": seed,
        "index": index,
        "size": b.n,
        "box_rows": b.box_rows,
        "box_cols": b.box_cols,
        "puzzle": format_line(made.puzzle),
        "solution": format_line(made.solution),
        "hints": made.hints,
        "symmetry": made.symmetry,
        "symmetry_requested": made.symmetry_requested,
        "minimal": made.minimal,
        "orbit_minimal": made.orbit_minimal,
        "ilp_solves": made.ilp_solves,
        "gen_ms": made.gen_ms,
        "created_at": dt.datetime.now(dt.UTC),
        "numplace_version": __version__,
        "attempts": made.attempts,
        "difficulty": made.difficulty,
        "difficulty_score": made.difficulty_score,
        "techniques": list(made.techniques),
        "logic_steps": made.logic_steps,
        "grid_number": str(numbering.grid_number(made.solution)) if b.n == 9 else None,
        "canonical_puzzle": canon.canonical_key(made.puzzle),
    }


def dedup_key(row: Mapping[str, Any]) -> str:
    """The key that keeps a row's puzzle out of a set twice (see :func:`pipeline.identity.canon.dedup_key`)."""
    from pipeline.identity import canon

    return canon.dedup_key(str(row["puzzle"]), row["canonical_puzzle"])


def schema_problems(frame: pl.DataFrame) -> list[str]:
    """Columns of the contract that ``frame`` lacks or holds with another type."""
    out = []
    for name, dtype in SCHEMA.items():
        if name not in frame.columns:
            out.append(f"column {name} is missing")
        elif frame.schema[name] != dtype:
            out.append(f"column {name} is {frame.schema[name]}, expected {dtype}")
    return out
