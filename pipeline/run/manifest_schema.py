"""The one schema of ``_manifest.json``: every reader that acts on a manifest reads it through here.

:func:`manifest_problem` validates a manifest (already parsed JSON) against :class:`ManifestModel`,
a strict pydantic model (no coercion: ``"3"`` is not a row count), and returns one line naming the
first field that is wrong, or None. Beyond types it checks what a run relies on: ``start`` >= 0,
``count`` >= 1, ``shard_size`` >= 1 (from the config for older manifests); every shard record is
keyed by a part of the run's range, with ``rows`` and ``failures`` fitting its indices and each
failure's ``index`` inside them; every ``from_stock`` index inside the run's range.

Unknown keys are kept and not judged (newer versions add fields, older runs lack some: ``start`` is
0 and ``shard_size`` the config's when absent), so the schema refuses only what would make a run
write indices outside its range, crash, or count wrongly. ``--resume``, a new run (the earlier runs
of the set), ``runs`` and the next run's finishing of an unfinished run refuse a damaged manifest in
one line; ``check`` reports it as a finding and checks the rest.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from pipeline.config import error_line

Count = Annotated[int, Field(ge=0, strict=True)]
Number = Annotated[float, Field(ge=0, allow_inf_nan=False)]


class FailureRecord(BaseModel):
    """One failed index of a shard record."""

    model_config = ConfigDict(extra="allow", strict=True)
    index: Count
    kind: Literal["generation", "verification", "duplicate"]
    failure: str


class ShardRecord(BaseModel):
    """What the run recorded about one part (before the part appeared)."""

    model_config = ConfigDict(extra="allow", strict=True)
    rows: Count
    attempts: Count
    timeouts: Count
    ilp_solves: Count
    gen_ms: Number
    failures: list[FailureRecord]
    sha256: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] | None = None
    rejected: dict[str, Count] = {}
    levels: dict[str, Count] = {}
    dedup_replaced: Count = 0
    stocked: Count = 0


class StockPick(BaseModel):
    """A stock puzzle the run places at one of its indices."""

    model_config = ConfigDict(extra="allow", strict=True)
    index: Count
    seed: int


class GeneratorRecord(BaseModel):
    """Which generator the set began with (:mod:`pipeline.generate.version`); later runs keep it."""

    model_config = ConfigDict(extra="allow", strict=True)
    version: Annotated[int, Field(ge=1, strict=True)]
    grid_method: str


class ManifestModel(BaseModel):
    """A run's manifest, as far as any reader acts on it."""

    model_config = ConfigDict(extra="allow", strict=True)
    config: dict[str, Any]
    config_hash: str | None = None
    run_id: str | None = None
    set_name: str | None = None
    status: Literal["running", "complete", "incomplete", "partial", "interrupted"]
    start: Count = 0
    count: Annotated[int, Field(ge=1, strict=True)]
    shard_size: Annotated[int, Field(ge=1, strict=True)] | None = None
    shards: dict[str, ShardRecord]
    catalog_snapshot: list[str] = []
    published_parts: list[str] = []
    from_stock: list[StockPick] = []
    sessions: list[dict[str, Any]] = []
    generator: GeneratorRecord | None = None
    grader_version: Annotated[int, Field(ge=1, strict=True)] | None = None
    totals: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _inside_the_run(self) -> ManifestModel:
        size = self.shard_size
        if size is None:
            out = self.config.get("output")
            size = out.get("shard_size") if isinstance(out, dict) else None
            if not isinstance(size, int) or isinstance(size, bool) or size < 1:
                raise ValueError("shard_size: missing, and the config's output.shard_size is no number >= 1")
        nshards = math.ceil(self.count / size)
        end = self.start + self.count
        for key, rec in self.shards.items():
            if not key.isdigit() or int(key) >= nshards:
                raise ValueError(f"shards.{key}: not a part of the run ({self.count} puzzles in parts 0-{nshards - 1})")
            k = int(key)
            lo = self.start + k * size
            hi = min(lo + size, end)
            if rec.rows + len(rec.failures) > hi - lo:
                raise ValueError(f"shards.{key}: {rec.rows} rows and {len(rec.failures)} failures for "
                                 f"{hi - lo} indices")
            stray = [f.index for f in rec.failures if not lo <= f.index < hi]
            if stray:
                raise ValueError(f"shards.{key}.failures: index {stray[0]} is outside the part's range {lo}-{hi - 1}")
        stray = [p.index for p in self.from_stock if not self.start <= p.index < end]
        if stray:
            raise ValueError(f"from_stock: index {stray[0]} is outside the run's range {self.start}-{end - 1}")
        return self


def manifest_problem(data: dict[str, Any]) -> str | None:
    """The first thing wrong with the parsed manifest ``data`` (``field: what``), or None."""
    try:
        ManifestModel.model_validate(data)
    except ValidationError as err:
        return error_line(err, ManifestModel).removeprefix("Value error, ")
    return None
