"""``numplace run --dry-run``: what a config will make and roughly how long it will take, from a
short sample, without writing anything.

Contract: :func:`preview` validates nothing beyond what the config already checked, reads the set's
runs (never writes, never takes the set's lock), and makes a few puzzles of the config in this
process (:func:`pipeline.run.runner.stream`, the engine and verification of a real run, nothing
saved), timed from before the engine is loaded: at most :data:`SAMPLE` puzzles, stopping once
:data:`MIN_PUZZLES` are made and :data:`MIN_S` seconds have gone by, or after :data:`BUDGET_S`
seconds once one is made. The estimate is
``start-up + count x median worker time a puzzle / parallel workers``, where start-up is what the
sample took until its first puzzle came back (loading the engine and the compiled kernels, as
each worker does) and the median leaves that first puzzle's loading out; a puzzle's worker time
includes the grids a difficulty target threw away. It is a rough figure: the sample is small, it
assumes each worker gets a core, and a first run after an install also compiles kernels.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from pathlib import Path

from pipeline.config import Config, validate
from pipeline.difficulty.techniques import GRADER_VERSION
from pipeline.generate import version as generator
from pipeline.run.manifest import runs_of
from pipeline.run.plan import RunError, set_generator, set_grader
from pipeline.run.workers import worker_count

#: The sample: at most SAMPLE puzzles; it stops once MIN_PUZZLES are made and MIN_S seconds have
#: gone by, or after BUDGET_S seconds once one puzzle is made.
SAMPLE = 40
MIN_PUZZLES = 4
MIN_S = 3.0
BUDGET_S = 20.0


@dataclass(frozen=True)
class Preview:
    """What a run of a config would make (``start`` .. ``start + count - 1`` of set ``set_dir``, in
    ``parts`` part files, on ``workers`` processes) and the sample behind the estimate."""

    set_dir: Path
    start: int
    count: int
    parts: int
    workers: int
    board: str
    target: str
    sampled: int
    failed: int
    sample_s: float
    median_ms: float | None
    startup_s: float = 0.0

    @property
    def estimate_s(self) -> float | None:
        """Rough seconds for the whole run (None when the sample made no puzzle)."""
        if self.median_ms is None:
            return None
        return self.startup_s + self.count * self.median_ms / 1000 / max(1, min(self.workers, self.count))

    def lines(self) -> list[str]:
        """The preview in words, one fact a line."""
        end = self.start + self.count - 1
        out = [f"dry run of set {self.set_dir.name}: nothing is written",
               f"makes {self.count} puzzle(s), {self.board}, {self.target}",
               f"into {self.set_dir}/<new run>, indices {self.start}-{end}, {self.parts} part file(s), "
               f"{self.workers} worker(s)"]
        if self.median_ms is None:
            out.append(f"sample: {self.failed} puzzle(s) failed and none was made in {self.sample_s:.1f} s; "
                       "the run would likely fail too")
            return out
        out.append(f"sample: {self.sampled} puzzle(s) made in {self.sample_s:.1f} s"
                   f"{f', {self.failed} failed' if self.failed else ''}; median {self.median_ms / 1000:.2g} s a "
                   "puzzle in a worker")
        out.append(f"estimate: about {_duration(self.estimate_s or 0.0)} on {min(self.workers, self.count)} "
                   f"worker(s), {self.startup_s:.0f} s of it start-up (rough: from the sample, each worker on a "
                   "free core)")
        return out


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{max(1, round(seconds))} s"
    if seconds < 5400:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h"


def _board(cfg: Config) -> str:
    n = cfg.board.size
    kinds = cfg.board.rules.kinds
    return f"{n}x{n} {'+'.join(kinds) if kinds else 'classic'}"


def _target(cfg: Config) -> str:
    d = cfg.difficulty
    if d is None:
        return "any level"
    if d.quota is not None:
        return "quota " + ", ".join(f"{k} {v}" for k, v in d.quota.items())
    parts = []
    if d.levels:
        parts.append("levels " + ", ".join(d.levels))
    if d.score is not None:
        parts.append(f"score {d.score.min if d.score.min is not None else ''}-"
                     f"{d.score.max if d.score.max is not None else ''}")
    return "; ".join(parts)


def preview(cfg: Config, sample: int = SAMPLE, budget_s: float = BUDGET_S, min_s: float = MIN_S) -> Preview:
    """What a run of ``cfg`` would make, with a sample of at most ``sample`` puzzles made in this
    process (see the module docstring for when it stops); writes nothing."""
    set_dir = Path(cfg.output.dir) / cfg.name
    earlier = runs_of(set_dir)
    start = max((m.start + m.count for m in earlier), default=0)
    try:  # the set's grading rules and generator, as the run takes them (a newer or malformed record is
        grader = set_grader(set_dir, None)  # refused by the run itself)
    except RunError:
        grader = GRADER_VERSION
    try:
        cfg, record = set_generator(cfg, set_dir, None)
        made_by = record["version"]
    except RunError:
        made_by = generator.GENERATOR_VERSION
    data = cfg.model_dump(mode="json")
    data.update(count=min(sample, cfg.count), workers=1)
    if cfg.difficulty is not None and cfg.difficulty.quota is not None:
        # a quota keeps every level (the surplus goes to the stock): the sample keeps every level too
        data["difficulty"] = None
    small = validate(data)
    ms: list[float] = []
    failed = 0
    t0 = time.perf_counter()
    from pipeline.run.runner import stream  # timed: loading the engine is part of the start-up
    from pipeline.run.work import Made

    first: float | None = None
    items = iter(stream(small, chunk=1, grader=grader, made_by=made_by))
    try:
        for item in items:
            first = time.perf_counter() - t0 if first is None else first
            if isinstance(item, Made):
                ms.append(float(item.row["gen_ms"]))
            else:
                failed += 1
            spent = time.perf_counter() - t0
            if (len(ms) >= MIN_PUZZLES and spent > min_s) or (ms and spent > budget_s):
                break
    finally:
        close = getattr(items, "close", None)  # a generator: ends the sample's executor now
        if close is not None:
            close()
    spent = time.perf_counter() - t0
    parts = -(-cfg.count // cfg.output.shard_size)  # parts count from the run's own first index
    return Preview(set_dir=set_dir, start=start, count=cfg.count, parts=parts, workers=worker_count(cfg.workers),
                   board=_board(cfg), target=_target(cfg), sampled=len(ms), failed=failed, sample_s=spent,
                   median_ms=statistics.median(ms[1:] or ms) if ms else None, startup_s=first or 0.0)
