"""Reading sets for publishing: rows of one or more set folders, run folders or part files, filtered.

Contracts
---------
* **Read only.** Rows come from :func:`pipeline.run.store.part_files` and
  :func:`pipeline.run.store.read_parts`; nothing here writes.
* **Stable order.** :func:`read_sets` returns rows in the order of the paths given, and within one
  path by ``index`` (then run folder name), so the same folders always give the same sequence; every
  filter keeps that order.
* **Each puzzle once.** A row whose ``puzzle_id`` or ``puzzle`` repeats an earlier row's is dropped
  and counted (:attr:`Rows.repeated`): the same set passed twice, or two old runs of one set that
  both started at index 0.
* **One-line errors.** Every user mistake (a bad level or range, an empty selection, an unreadable
  list of used ids) raises :class:`PublishError` whose message names the flag, field or file.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from pipeline.difficulty.techniques import LEVELS, UNRATED
from pipeline.errors import PublishError
from pipeline.run import sets, store
from pipeline.run.rows import SCHEMA


@dataclass(frozen=True)
class Rows:
    """Rows read from sets: :attr:`frame` has every column of the Parquet schema (a column an old
    part lacks is null) in a stable order; :attr:`run_dirs` are the folders the parts came from, in
    order; :attr:`repeated` counts rows dropped because their id or puzzle came earlier."""

    frame: pl.DataFrame
    run_dirs: tuple[Path, ...]
    repeated: int


@dataclass(frozen=True)
class Filter:
    """A selection: every given condition must hold; ``count`` keeps the first ``count`` rows left.

    ``levels`` are names from :data:`LEVELS`; ranges are inclusive and either end may be None.
    A row with no grade (a null ``difficulty``) matches no ``levels`` and no ``score`` condition.
    """

    levels: tuple[str, ...] | None = None
    score_min: float | None = None
    score_max: float | None = None
    hints_min: float | None = None
    hints_max: float | None = None
    size: int | None = None
    count: int | None = None
    logic_only: bool = False  # only rows whose grade needs no trial and error (see :func:`apply`)
    variants: tuple[str, ...] | None = None  # only these variants: classic, killer, killer+x (kinds sorted, "+")

    def describe(self) -> str:
        """The conditions in words, e.g. ``levels hard, expert; score 900-1500`` (for messages)."""
        parts = []
        if self.levels:
            parts.append("levels " + ", ".join(self.levels))
        for name, lo, hi in (("score", self.score_min, self.score_max), ("hints", self.hints_min, self.hints_max)):
            if lo is not None or hi is not None:
                parts.append(f"{name} {'' if lo is None else f'{lo:g}'}-{'' if hi is None else f'{hi:g}'}")
        if self.size is not None:
            parts.append(f"size {self.size}")
        if self.logic_only:
            parts.append("logic only")
        if self.variants:
            parts.append("variant " + ", ".join(self.variants))
        return "; ".join(parts) or "any puzzle"


def read_sets(paths: Sequence[Path], *, unique: bool = True, with_run: bool = False) -> Rows:
    """The rows of every path (a set folder, a run folder or a part file), in a stable order.

    ``unique=False`` keeps rows whose id or puzzle repeats (a report counts every run's rows);
    ``with_run=True`` adds a ``run_dir`` column (the folder of each row's part file). Raises
    :class:`PublishError` for a path that holds no parts or an unreadable part (the store's message,
    which names the path).
    """
    if not paths:
        raise PublishError("give at least one set folder, run folder or part file")
    frames: list[pl.DataFrame] = []
    run_dirs: list[Path] = []
    for src, path in enumerate(paths):
        try:
            parts = store.part_files(Path(path))
            for part in parts:  # one at a time, to know each row's run folder
                frames.append(_complete(store.read_parts([part])).with_columns(
                    pl.lit(src, pl.Int64).alias("_src"), pl.lit(str(part.parent), pl.String).alias("_run")))
        except store.StoreError as exc:
            raise PublishError(str(exc)) from None
        run_dirs += [r for r in dict.fromkeys(p.parent for p in parts) if r not in run_dirs]
    frame = pl.concat(frames, how="diagonal_relaxed").sort("_src", "index", "_run", maintain_order=True)
    before = frame.height
    if unique:
        frame = frame.unique("puzzle_id", keep="first", maintain_order=True)
        # the same puzzle under other rules (another cage layout, other regions) is another puzzle
        frame = frame.unique(["puzzle", "variant", "regions", "cages"], keep="first", maintain_order=True)
    frame = frame.rename({"_run": "run_dir"}) if with_run else frame.drop("_run")
    return Rows(frame.drop("_src"), tuple(run_dirs), before - frame.height)


def _complete(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with every schema column (null where an older part lacks it), schema columns first."""
    missing = [pl.lit(None, dtype).alias(name) for name, dtype in SCHEMA.items() if name not in frame.columns]
    frame = frame.with_columns(missing) if missing else frame
    extra = [c for c in frame.columns if c not in SCHEMA]
    return frame.select(*SCHEMA, *extra)


def apply(frame: pl.DataFrame, flt: Filter, exclude: Iterable[str] = ()) -> pl.DataFrame:
    """The rows of ``frame`` that match ``flt`` and whose ``puzzle_id`` is not in ``exclude``, in order."""
    cond = pl.lit(True)
    if flt.levels:
        cond &= pl.col("difficulty").is_in(list(flt.levels)).fill_null(False)
    if flt.score_min is not None:
        cond &= (pl.col("difficulty_score") >= flt.score_min).fill_null(False)
    if flt.score_max is not None:
        cond &= (pl.col("difficulty_score") <= flt.score_max).fill_null(False)
    if flt.hints_min is not None:
        cond &= pl.col("hints") >= flt.hints_min
    if flt.hints_max is not None:
        cond &= pl.col("hints") <= flt.hints_max
    if flt.size is not None:
        cond &= pl.col("size") == flt.size
    if flt.logic_only:
        # needs_guessing; a row written before that column existed says it by its techniques
        guessed = pl.coalesce(pl.col("needs_guessing"), pl.col("techniques").list.contains("trial_and_error"))
        cond &= (~guessed).fill_null(False) & pl.col("difficulty").is_in(list(LEVELS)).fill_null(False)
    if flt.variants:
        cond &= variant_name().is_in(list(flt.variants))
    excluded = list(set(exclude))
    if excluded:
        cond &= ~pl.col("puzzle_id").is_in(excluded)
    out = frame.filter(cond)
    return out.head(flt.count) if flt.count is not None else out


def variant_name() -> pl.Expr:
    """A row's variant as one name: its kinds sorted and joined by ``+`` (``killer+x``), ``classic`` for
    none (an empty or null ``variant``)."""
    joined = pl.col("variant").list.sort().list.join("+").fill_null("")
    return pl.when(joined == "").then(pl.lit("classic")).otherwise(joined)


def level_rank(level: str | None) -> int:
    """Position of ``level`` in :data:`LEVELS` (an unknown or missing grade sorts last)."""
    return LEVELS.index(level) if level in LEVELS else len(LEVELS)


def by_level(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` ordered by level (easy -> extreme), then by ``difficulty_score`` (lowest first), so a
    book takes its puzzles easiest first; ties (and ungraded rows, last) keep the stable order."""
    rank = pl.col("difficulty").replace_strict(list(LEVELS), list(range(len(LEVELS))), default=len(LEVELS),
                                               return_dtype=pl.Int64)
    return (frame.with_columns(rank.alias("_rank"))
            .sort("_rank", "difficulty_score", maintain_order=True, nulls_last=True).drop("_rank"))


def check_levels(levels: Iterable[str], where: str, unrated: bool = False) -> tuple[str, ...]:
    """``levels`` validated against :data:`LEVELS` (and :data:`UNRATED` when ``unrated``: a selection of
    rows may ask for the value, a book's level order may not); ``where`` names the flag or field."""
    out = tuple(levels)
    known = (*LEVELS, UNRATED) if unrated else LEVELS
    for lv in out:
        if lv not in known:
            raise PublishError(f"{where}: {lv!r} is not one of {', '.join(known)}")
    return out


def parse_range(text: str, where: str) -> tuple[float | None, float | None]:
    """``N``, ``A-B``, ``A-`` or ``-B`` (inclusive; numbers >= 0) as ``(low, high)``."""
    lo_text, dash, hi_text = text.strip().partition("-")
    try:
        lo = float(lo_text) if lo_text.strip() else None
        hi = float(hi_text) if hi_text.strip() else (None if dash else lo)
    except ValueError:
        raise PublishError(f"{where}: {text!r} is not N, A-B, A- or -B") from None
    if lo is None and hi is None:
        raise PublishError(f"{where}: {text!r} is not N, A-B, A- or -B")
    if lo is not None and hi is not None and lo > hi:
        raise PublishError(f"{where}: {text!r}: the low end is greater than the high end")
    return lo, hi


def read_used(paths: Iterable[Path]) -> set[str]:
    """Puzzle ids recorded as used: each file is a book's ``*.used.json`` (an object with a
    ``puzzle_ids`` list) or a plain JSON list of ids."""
    used: set[str] = set()
    for path in paths:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise PublishError(f"--exclude {path}: no such file") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise PublishError(f"--exclude {path}: not a readable JSON file ({exc.__class__.__name__})") from None
        ids = data.get("puzzle_ids") if isinstance(data, dict) else data
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise PublishError(f"--exclude {path}: expected a list of puzzle ids, or an object with puzzle_ids")
        used.update(ids)
    return used


def filter_from_flags(levels: Sequence[str] | None = None, score: str | None = None, hints: str | None = None,
                      count: int | None = None, logic_only: bool = False) -> Filter:
    """A :class:`Filter` from command-line flags (``--level`` repeated or comma-separated, ``--score
    A-B``, ``--hints A-B``, ``--count K``, ``--logic-only``); errors name the flag."""
    lv = check_levels([x.strip() for v in levels or () for x in v.split(",") if x.strip()], "--level", True) or None
    s_lo, s_hi = parse_range(score, "--score") if score else (None, None)
    h_lo, h_hi = parse_range(hints, "--hints") if hints else (None, None)
    if count is not None and count < 1:
        raise PublishError(f"--count: {count} is not a number of puzzles >= 1")
    return Filter(levels=lv, score_min=s_lo, score_max=s_hi, hints_min=h_lo, hints_max=h_hi, count=count,
                  logic_only=logic_only)


def select(paths: Sequence[Path], flt: Filter, exclude: Iterable[str] = (), *,
           allow_incomplete: bool = False, allow_fewer: bool = False) -> pl.DataFrame:
    """Read ``paths`` and apply ``flt`` and ``exclude``; an empty result is a :class:`PublishError`,
    and so is a selection with fewer rows than ``flt.count`` asks for (:func:`check_count`) unless
    ``allow_fewer``. A set whose runs are not all complete is refused unless ``allow_incomplete``
    (:func:`pipeline.run.sets.require_complete`)."""
    sets.require_complete(tuple(paths), allow_incomplete)
    frame = apply(read_sets(paths).frame, flt, exclude)
    if frame.is_empty():
        where = ", ".join(str(p) for p in paths)
        raise PublishError(f"no puzzle in {where} matches the selection ({flt.describe()})")
    check_count(flt.count, frame.height, flt, "--count", allow_fewer)
    return frame


def check_count(asked: int | None, found: int, flt: Filter, where: str, allow_fewer: bool = False) -> None:
    """The one rule of ``export`` and ``book`` for a count: ``found`` rows where ``asked`` were asked
    for is a :class:`PublishError` naming both numbers (``where`` names the flag or field), unless
    ``allow_fewer`` (``--allow-fewer``: fewer is fine)."""
    if asked is not None and found < asked and not allow_fewer:
        raise PublishError(f"{where}: asks for {asked} puzzles, only {found} left that match ({flt.describe()}); "
                           "pass --allow-fewer to take those")
