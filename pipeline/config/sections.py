"""The sections of a run config, one pydantic model each: ``board`` (:class:`BoardCfg`, with
``board.cages``), ``grid`` (:class:`GridCfg`: ``solution_symmetry``, ``areas``), ``removal``
(:class:`RemovalCfg`, with ``removal.hints``), ``difficulty`` (:class:`DifficultyCfg`, with
``difficulty.score``), ``output``, ``dedup`` and ``executor`` (with :func:`address_problem`, the form
of a scheduler address). :class:`MinMaxCfg`, a ``min``/``max`` range, is shared with the book config.

Contracts: every model is strict (``extra="forbid"``: an unknown key is an error) and frozen; each
checks what it can see alone and raises ValueError with the sentence the user reads. Checks that need
another section (the board side, the variant) are :class:`pipeline.config.model.Config`'s. The keys
and their meaning: ``docs/config.md``.
"""

from __future__ import annotations

import re
from typing import Annotated, ClassVar, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from pipeline import symmetry
from pipeline.board import Variant, make_variant
from pipeline.config import technique
from pipeline.config.messages import echo
from pipeline.difficulty.techniques import LEVELS
from pipeline.symmetry import TAGS


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CagesCfg(_Strict):
    """``board.cages`` (killer): cage sizes ``min_size``-``max_size`` (connected cells, distinct digits);
    ``singles: true`` allows one-cell cages; ``givens: false`` (the default) makes the cages alone
    decide the puzzle (no givens at all), ``givens: true`` removes givens on symmetry orbits after the
    cages are drawn, keeping those the cages need."""

    min_size: int = Field(default=2, ge=1, le=9, strict=True)
    max_size: int = Field(default=5, ge=1, le=16, strict=True)
    singles: bool = False
    givens: bool = False

    @model_validator(mode="after")
    def _sizes(self) -> CagesCfg:
        if self.min_size > self.max_size:
            raise ValueError(f"min_size ({self.min_size}) is greater than max_size ({self.max_size})")
        if self.min_size == 1 and not self.singles:
            raise ValueError("min_size 1 makes one-cell cages; say singles: true to allow them")
        return self


class BoardCfg(_Strict):
    """``board``: the side, the ``variant`` (``classic``, ``x``, ``hyper``, ``jigsaw``, ``killer`` or a
    combination such as ``x+hyper``, also as a list), the jigsaw ``regions`` (n*n labels, drawn as n
    lines) and the killer ``cages`` policy."""

    size: Literal[4, 6, 9, 16, 25] = 9
    variant: str | list[str] = "classic"
    regions: str | None = None
    cages: CagesCfg | None = None

    @property
    def rules(self) -> Variant:
        """The variant's rules (kinds and regions; a killer set's cages are drawn per puzzle)."""
        return make_variant(self.variant, self.regions)


#: The position maps a solution grid may be symmetric under (every map of :data:`pipeline.symmetry.MAPS`
#: but the identity).
IMAGE_MAPS = tuple(m for m in symmetry.MAPS if m != "identity")


class SolutionSymmetryCfg(_Strict):
    """``grid.solution_symmetry``: the solution grid maps onto itself by the position map ``map`` with
    its digits relabelled by ``digits``: ``grid[map(r, c)] = p(grid[r, c])``. ``digits`` is ``reverse``
    (``d -> n + 1 - d``), ``identity``, or ``p(1) p(2) ... p(n)`` written as symbols (``987654321``)."""

    map: Literal[IMAGE_MAPS]  # type: ignore[valid-type]
    digits: str = "reverse"

    @field_validator("digits", mode="before")
    @classmethod
    def _digits_as_text(cls, v: object) -> object:
        """``digits: 987654321`` (unquoted, so YAML reads a number) is the permutation it spells."""
        return str(v) if isinstance(v, int) and not isinstance(v, bool) else v


class AreaCfg(_Strict):
    """One of ``grid.areas``: ``only`` (the digits appear in these cells and nowhere else), ``never``
    (nowhere in these cells) or ``somewhere`` (each of the digits at least once in these cells).
    ``cells``: ``r1c1-r3c3`` rectangles and ``r5c5`` cells joined by commas, or a drawn mask (``#``,
    ``X`` or ``1`` in, ``.`` or ``0`` out)."""

    cells: str
    digits: list[Annotated[int, Field(ge=1, strict=True)]] = Field(min_length=1)
    rule: Literal["only", "somewhere", "never"]


class GridCfg(_Strict):
    # None: the set's method (its first run's generator record; weighted-lp for a new set), resolved
    # by the run's plan before the config is hashed or saved (pipeline.generate.version)
    method: Literal["weighted-ilp", "weighted-lp", "uniform"] | None = None
    fixed: str | None = None
    keep_fixed: bool = False
    solution_symmetry: SolutionSymmetryCfg | None = None
    areas: tuple[AreaCfg, ...] = ()


class DedupCfg(_Strict):
    catalog: bool = True  # also reject puzzles already in the output root's catalog
    max_redraws: int = Field(default=50, ge=1, le=10_000, strict=True)


class HintsCfg(_Strict):
    target: int | None = Field(default=None, ge=1, strict=True)
    min: int | None = Field(default=None, ge=1, strict=True)
    max: int | None = Field(default=None, ge=1, strict=True)

    @model_validator(mode="after")
    def _one_form(self) -> HintsCfg:
        if self.target is not None and (self.min is not None or self.max is not None):
            raise ValueError("give either target or min/max, not both")
        if self.target is None and (self.min is None or self.max is None):
            raise ValueError("give target, or both min and max")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min ({self.min}) is greater than max ({self.max})")
        return self

    @property
    def bounds(self) -> tuple[int, int]:
        if self.target is not None:
            return self.target, self.target
        assert self.min is not None and self.max is not None
        return self.min, self.max


class RemovalCfg(_Strict):
    symmetry: Literal[(*TAGS, "random")] = "rot180"  # type: ignore[valid-type]
    minimal: bool | None = None
    hints: HintsCfg | None = None
    max_attempts: int = Field(default=20, ge=1, le=10_000, strict=True)
    time_limit: float = Field(default=60.0, gt=0)
    pattern: str | None = None

    @model_validator(mode="after")
    def _one_rule(self) -> RemovalCfg:
        if self.pattern is not None:
            if self.minimal:
                raise ValueError("removal.minimal: a pattern fixes the givens and nothing is removed; leave minimal "
                                 "out")
            if self.symmetry == "random":
                raise ValueError("removal.symmetry: a pattern has its own layout, it cannot be drawn at random; "
                                 "leave symmetry out")
            return self
        if self.minimal and self.hints is not None:
            raise ValueError("choose one stop rule: minimal: true or hints")
        if self.minimal is False and self.hints is None:
            raise ValueError("minimal: false needs a hints rule")
        return self

    @property
    def is_minimal(self) -> bool:
        return self.hints is None


class MinMaxCfg(_Strict):
    """A range of numbers, ``min`` and/or ``max`` (at least one; ``min`` not above ``max``): the base
    of ``difficulty.score`` and of the book config's ranges. ``number_format`` writes the ends in the
    refusal (``""``: ``min (3.0) ...``; ``"g"``: ``min (3) ...``)."""

    number_format: ClassVar[str] = ""
    min: float | None = None
    max: float | None = None

    @model_validator(mode="after")
    def _order(self) -> Self:
        if self.min is None and self.max is None:
            raise ValueError("give min, max or both")
        if self.min is not None and self.max is not None and self.min > self.max:
            f = self.number_format
            raise ValueError(f"min ({self.min:{f}}) is greater than max ({self.max:{f}})")
        return self


class ScoreCfg(MinMaxCfg):
    min: float | None = Field(default=None, ge=0)
    max: float | None = Field(default=None, ge=0)


class DifficultyCfg(_Strict):
    levels: list[Literal[LEVELS]] | None = None  # type: ignore[valid-type]
    score: ScoreCfg | None = None
    quota: dict[Literal[LEVELS], Annotated[int, Field(ge=1, strict=True)]] | None = None  # type: ignore[valid-type]
    max_attempts: int = Field(default=200, ge=1, le=100_000, strict=True)
    steer: bool = Field(default=False, strict=True)
    logic_only: bool = Field(default=False, strict=True)  # keep only puzzles solved without trial and error
    # a technique target (pipeline.config.technique): puzzles made for this technique, or for one of a list
    technique: str | list[str] | None = None

    @field_validator("technique")
    @classmethod
    def _technique(cls, v: str | list[str] | None) -> str | list[str] | None:
        names = technique.names_of(v)
        if v is not None and not names:
            raise ValueError("name at least one technique, e.g. x_wing")
        for name in names:
            why = technique.unknown(name)
            if why:
                raise ValueError(why)
        if len(set(names)) != len(names):
            raise ValueError("a technique is named twice")
        return v

    @property
    def techniques(self) -> tuple[str, ...]:
        """The names of ``technique`` as a tuple (empty without a technique target)."""
        return technique.names_of(self.technique)

    @model_validator(mode="after")
    def _some_target(self) -> DifficultyCfg:
        if self.technique is not None:
            other = ("quota" if self.quota is not None else "levels" if self.levels else "score"
                     if self.score is not None else None)
            if other:
                raise ValueError(f"technique fixes the level (the technique's own): give technique or {other}, "
                                 "not both")
            return self
        if self.quota is not None:
            if self.levels or self.score is not None:
                raise ValueError("quota makes a mix of levels: give quota, or levels/score, not both")
            return self
        if not self.levels and self.score is None and not self.logic_only:
            raise ValueError("give levels, score, quota, logic_only, or levels and score")
        return self


class OutputCfg(_Strict):
    dir: str = "outputs"
    shard_size: int = Field(default=500, ge=1, le=1_000_000, strict=True)

    @field_validator("dir")
    @classmethod
    def _dir(cls, v: str) -> str:
        """An empty (or blank) ``dir`` is refused: it would silently mean the working folder."""
        if not v.strip():
            raise ValueError("empty; name the output root folder (e.g. outputs, or . for the working folder)")
        return v


_ADDRESS = re.compile(r"^tcp://(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?):(?P<port>[0-9]{1,5})$")


def address_problem(text: str) -> str | None:
    """Why ``text`` is not a dask scheduler address ``tcp://HOST:PORT`` (a host name, an IPv4
    address or a bracketed IPv6 address, and a port 1-65535), or None if it is one. The form only:
    whether a scheduler listens there is found out when the run connects."""
    m = _ADDRESS.match(text)
    if m is None or not 1 <= int(m["port"]) <= 65535:
        return f"{echo(text)} is not a scheduler address like tcp://host:8786"
    return None


class ExecutorCfg(_Strict):
    """Where the workers run (``executor``). ``local``: worker processes of this machine (joblib /
    loky; ``workers`` of them). ``dask``: a dask.distributed cluster, either the one whose scheduler
    listens at ``scheduler`` (``tcp://host:8786``), or, without ``scheduler``, a LocalCluster of
    ``local_workers`` processes (default: ``workers``) started for the run. Never part of the config
    hash: a set may be continued on another executor and its puzzles are the same."""

    kind: Literal["local", "dask"] = "local"
    scheduler: str | None = None
    local_workers: int | None = Field(default=None, ge=1, le=4096, strict=True)

    @field_validator("scheduler")
    @classmethod
    def _address(cls, v: str | None) -> str | None:
        why = address_problem(v) if v is not None else None
        if why:
            raise ValueError(f"executor.scheduler: {why}")  # named here: the message starts with the value
        return v

    @model_validator(mode="after")
    def _fits_kind(self) -> ExecutorCfg:
        if self.kind == "local" and self.scheduler is not None:
            raise ValueError("executor.scheduler: only with kind: dask (the local executor has no scheduler)")
        if self.kind == "local" and self.local_workers is not None:
            raise ValueError("executor.local_workers: only with kind: dask (the local executor uses workers)")
        if self.scheduler is not None and self.local_workers is not None:
            raise ValueError("executor.local_workers: give scheduler (a running cluster) or local_workers "
                             "(a LocalCluster started for the run), not both")
        return self
