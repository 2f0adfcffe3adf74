"""The output row: the Parquet schema, defined once, and the one function that builds a row.

A row is a ``dict`` whose keys are exactly :data:`SCHEMA`'s columns, in its order, with values of
those types (``docs/output.md`` "Parquet columns"). :func:`build_row` makes it from a
:class:`~pipeline.generate.puzzle.MadePuzzle` inside the worker; :mod:`pipeline.run.store` writes rows
with :data:`SCHEMA`; ``numplace check`` compares a written file against it (:func:`schema_problems`).
Columns may be added, never renamed or re-typed. :data:`SCHEMA` and :data:`CAGE` (polars types) are
built, and polars imported, on first access: a worker that only builds rows (``numplace generate``)
never imports polars.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from pipeline import __version__
from pipeline.board import board, format_line, size_of_grid, variant_columns
from pipeline.difficulty.techniques import LEVELS

if TYPE_CHECKING:  # the generator (and its solver imports) stays out of readers of the schema
    import polars as pl

    from pipeline.generate.puzzle import MadePuzzle

Row = dict[str, Any]

#: Bumped when columns are added (see :data:`ADDED_IN` and the changelog in ``schema/README.md``);
#: every part carries it in its key-value metadata as ``numplace.schema_version``.
SCHEMA_VERSION = 5


@cache
def _cage() -> pl.Struct:
    """:data:`CAGE`: the killer cage struct of the ``cages`` column."""
    import polars as pl

    return pl.Struct({"cells": pl.List(pl.Int16()), "sum": pl.Int16()})


@cache
def _schema() -> dict[str, pl.DataType]:
    """:data:`SCHEMA`: the output contract (docs/output.md "Parquet columns"); columns may be added,
    never renamed or re-typed."""
    import polars as pl

    cage = _cage()
    return {
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
        "difficulty_rank": pl.Int32(),
        "variant": pl.List(pl.String()),
        "regions": pl.String(),
        "cages": pl.List(cage),
        "grid_source": pl.String(),
        "needs_guessing": pl.Boolean(),
        "technique": pl.String(),
    }


def __getattr__(name: str) -> Any:
    """``SCHEMA`` and ``CAGE``: built (and polars imported) on first access."""
    if name == "SCHEMA":
        return _schema()
    if name == "CAGE":
        return _cage()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: Columns added after version 1, with the schema version that added them.
ADDED_IN: dict[str, int] = {"difficulty_rank": 2, "variant": 3, "regions": 3, "cages": 3, "grid_source": 4,
                            "needs_guessing": 4, "technique": 5}
#: Columns that may hold null (everything else is always set).
NULLABLE = frozenset({"grid_number", "canonical_puzzle", "regions", "cages", "needs_guessing", "technique"})


def json_schema() -> dict[str, Any]:
    """The schema as JSON Schema (draft 2020-12) of one row: the published form of :data:`SCHEMA`
    (``schema/numplace-row.schema.json``; a test keeps the file equal to this)."""
    import polars as pl

    schema, cage = _schema(), _cage()
    kinds: dict[pl.DataType, dict[str, Any]] = {
             pl.String(): {"type": "string"}, pl.Int64(): {"type": "integer"}, pl.Int32(): {"type": "integer"},
             pl.Float64(): {"type": "number"}, pl.Boolean(): {"type": "boolean"},
             pl.Datetime("us", "UTC"): {"type": "string", "format": "date-time"},
             pl.List(pl.String()): {"type": "array", "items": {"type": "string"}},
             pl.List(cage): {"type": "array", "items": {
                 "type": "object", "required": ["cells", "sum"], "additionalProperties": False,
                 "properties": {"cells": {"type": "array", "items": {"type": "integer"}}, "sum": {"type": "integer"}}}}}
    nullable = NULLABLE
    props: dict[str, Any] = {}
    for name, dtype in schema.items():
        spec: dict[str, Any] = {**kinds[dtype], "x-parquet-type": str(dtype), "x-since-version": ADDED_IN.get(name, 1)}
        if name in nullable:
            spec["type"] = [spec["type"], "null"]
        props[name] = spec
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "numplace puzzle row",
            "description": f"One row of a numplace part file, schema version {SCHEMA_VERSION}.",
            "x-schema-version": SCHEMA_VERSION, "type": "object", "properties": props,
            "required": [n for n in schema if n not in nullable]}


def rank_of(level: str) -> int:
    """``difficulty_rank`` of a level: 1 (easy) .. 5 (extreme); 0 for ``unrated`` (no rank: a killer
    puzzle the grader cannot rate yet)."""
    return LEVELS.index(level) + 1 if level in LEVELS else 0


def puzzle_id(set_name: str, index: int) -> str:
    """The id of puzzle ``index`` of set ``set_name``: ``<set>-<index, 7 digits>``."""
    return f"{set_name}-{index:07d}"


def build_row(made: MadePuzzle, *, set_name: str, config_hash: str, index: int, seed: int) -> Row:
    """The row of puzzle ``index`` (made from ``seed``) of a set: :data:`SCHEMA`'s columns, in order.

    Identity columns come from :mod:`pipeline.identity.numbering` (``grid_number``, 9x9 grids that are
    classic grids: not jigsaw) and :mod:`pipeline.identity.canon` (``canonical_puzzle``; null where the
    board has no canonical form), for variants :mod:`pipeline.identity.variant_canon` (the form under
    the variant's own group; null where none is defined: see :func:`dedup_key`). ``variant``,
    ``regions``, ``cages``: :func:`pipeline.board.variant_columns`.
    """
    # here, not at the top: readers of SCHEMA start without the tables
    from pipeline.identity import canon, numbering, variant_canon

    b = board(size_of_grid(made.puzzle))
    v = made.variant
    numbered = b.n == 9 and v.regions is None
    row: Row = {
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
        "gen_ms": None,  # with_grade below sets it and the grade columns
        "created_at": dt.datetime.now(dt.UTC),
        "numplace_version": __version__,
        "attempts": made.attempts,
        "difficulty": None,
        "difficulty_score": None,
        "techniques": None,
        "logic_steps": None,
        "grid_number": str(numbering.grid_number(made.solution)) if numbered else None,
        "canonical_puzzle": (canon.canonical_key(made.puzzle) if v.classic
                             else variant_canon.canonical_variant_key(made.puzzle, v)),
        "difficulty_rank": None,
        **variant_columns(v),
        "grid_source": made.grid_source,
        "needs_guessing": None,
        "technique": made.technique,  # the technique target it was made for (difficulty.technique), else null
    }
    return with_grade(row, made)


#: The columns of a row that come from the puzzle's grade (step 6), and ``gen_ms``, which counts its time.
GRADE_COLUMNS = ("difficulty", "difficulty_score", "techniques", "logic_steps", "difficulty_rank", "needs_guessing")


def with_grade(row: Row, made: MadePuzzle | None) -> Row:
    """``row`` with its grade columns (:data:`GRADE_COLUMNS`) and ``gen_ms`` as :func:`build_row` sets them
    from ``made``; with ``made`` None, the grade columns None (a puzzle shown while it is graded: such a
    row is never written)."""
    if made is None:
        return {**row, **dict.fromkeys(GRADE_COLUMNS)}
    return {**row, "gen_ms": made.gen_ms, "difficulty": made.difficulty, "difficulty_score": made.difficulty_score,
            "techniques": list(made.techniques), "logic_steps": made.logic_steps,
            "difficulty_rank": rank_of(made.difficulty),
            "needs_guessing": needs_guessing(made.difficulty, made.techniques)}


def needs_guessing(level: str, techniques: Sequence[str]) -> bool | None:
    """``needs_guessing`` of a grade: whether its path made a trial-and-error step; None for an
    ``unrated`` grade (the grader did not finish the puzzle, so it cannot promise either way)."""
    return None if level not in LEVELS else "trial_and_error" in techniques


def variant_key(row: Mapping[str, Any]) -> str | None:
    """The rules of a row as one string (``x+hyper``, the regions, the cages), None for classic rows
    and rows written before the variant columns existed."""
    kinds = row.get("variant")
    if not kinds:
        return None
    cages = ";".join(f"{'.'.join(map(str, c['cells']))}={c['sum']}" for c in (row.get("cages") or ()))
    return f"{'+'.join(kinds)}|{row.get('regions') or ''}|{cages}"


def dedup_key(row: Mapping[str, Any]) -> str:
    """The key that keeps a row's puzzle out of a set twice (see :func:`pipeline.identity.canon.dedup_key`).
    A variant row's key is its kinds and its ``canonical_puzzle`` (the form under the variant's group,
    layout and cages included: :mod:`pipeline.identity.variant_canon`); where that is null (16x16
    variants other than jigsaw, rows written before variant forms existed) it is its rules and its
    puzzle line (exact copies only: two killer puzzles with no givens differ only in their cages)."""
    from pipeline.identity import canon

    rules = variant_key(row)
    if rules is not None:
        form = row.get("canonical_puzzle")
        if form is not None:
            return f"{'+'.join(row['variant'])}|{form}"
        return f"{rules}|{row['puzzle']}"
    return canon.dedup_key(str(row["puzzle"]), row["canonical_puzzle"])


def dedup_keys(row: Mapping[str, Any]) -> tuple[str, ...]:
    """:func:`dedup_key`, and for a variant row with a canonical form also its exact-copy key (its rules
    and puzzle line): catalogs and parts written before variant forms existed hold those, so an exact
    copy of one of their puzzles is still caught. A new row is a duplicate when any of its keys is taken."""
    key = dedup_key(row)
    rules = variant_key(row)
    if rules is None or row.get("canonical_puzzle") is None:
        return (key,)
    return key, f"{rules}|{row['puzzle']}"


def schema_problems(frame: pl.DataFrame, version: int = SCHEMA_VERSION) -> list[str]:
    """Columns of the contract (as of schema ``version``) that ``frame`` lacks or holds with another type."""
    out = []
    for name, dtype in _schema().items():
        if ADDED_IN.get(name, 1) > version:
            continue
        if name not in frame.columns:
            out.append(f"column {name} is missing")
        elif frame.schema[name] != dtype:
            out.append(f"column {name} is {frame.schema[name]}, expected {dtype}")
    return out
