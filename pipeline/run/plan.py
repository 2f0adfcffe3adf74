"""The plan step of a run: start a new run folder or take up an interrupted one, and cut the work.

Units of work: a *shard* is what one part file holds (``output.shard_size`` consecutive indices); a
*chunk* is what one task makes (a few indices of one shard: small enough to keep every worker busy
and the progress moving, at most 25). Only shards without a part file are planned, so a resumed run
makes exactly what is missing. Every user mistake is raised here, before anything is written:
:class:`~pipeline.config.ConfigError` or :class:`RunError`.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pipeline.config import Config, ConfigError, config_hash, worker_count
from pipeline.generate.grid import fixed_cells_problem
from pipeline.generate.spec import Spec
from pipeline.identity import canon, numbering
from pipeline.run import store
from pipeline.run.manifest import Manifest
from pipeline.run.work import Job

Log = Callable[[str], None]


class RunError(RuntimeError):
    """A run that cannot start or continue, for a reason the user can fix (message names it)."""


@dataclass(frozen=True)
class Plan:
    """A run ready to execute: where it writes, what is done, and the chunks still to make."""

    cfg: Config
    job: Job
    run_dir: Path
    manifest: Manifest
    workers: int
    resumed: bool
    done: frozenset[int]  # shards whose part file exists
    pending: tuple[int, ...]  # shards to make, in order
    chunks: tuple[list[int], ...]  # indices per task, shard by shard

    def shard_of(self, index: int) -> int:
        return index // self.cfg.output.shard_size

    def shard_len(self, shard: int) -> int:
        size = self.cfg.output.shard_size
        return min(size, self.cfg.count - shard * size)


def spec_of(cfg: Config) -> Spec:
    """The generator's spec for ``cfg`` (plain data for the workers)."""
    lo, hi = cfg.removal.hints.bounds if cfg.removal.hints is not None else (None, None)
    d = cfg.difficulty
    return Spec(
        size=cfg.board.size,
        symmetry=cfg.removal.symmetry,
        minimal=cfg.removal.is_minimal,
        hints_min=lo,
        hints_max=hi,
        fixed=cfg.fixed_grid,
        keep_fixed=cfg.grid.keep_fixed,
        max_attempts=d.max_attempts if d else cfg.removal.max_attempts,
        time_limit=cfg.removal.time_limit,
        engine=cfg.engine,
        grid_method=cfg.grid.method,
        levels=tuple(d.levels) if d and d.levels else None,
        score_min=d.score.min if d and d.score else None,
        score_max=d.score.max if d and d.score else None,
    )


def job_of(cfg: Config) -> Job:
    return Job(spec_of(cfg), cfg.name, config_hash(cfg), cfg.seed)


def preflight(cfg: Config) -> None:
    """Checks that need the engine, done before any output exists (raises ConfigError); builds or
    loads the 9x9 identity tables once here, before the workers start."""
    if cfg.board.size == 9:
        numbering.tables()
        canon.tables()
    fixed = cfg.fixed_grid
    if fixed is not None:
        why = fixed_cells_problem(cfg.board.size, fixed)
        if why:
            raise ConfigError(f"grid.fixed: {why}")


def plan(cfg: Config, resume: Path | None, say: Log) -> Plan:
    """Open the run (new, or ``resume``'s) and plan the shards that have no part file yet."""
    job = job_of(cfg)
    manifest = _resume(resume, job.config_hash, say) if resume is not None else _start(cfg, job.config_hash)
    run_dir = manifest.run_dir
    nshards = math.ceil(cfg.count / cfg.output.shard_size)
    done = store.done_shards(run_dir) & set(range(nshards))
    pending = tuple(k for k in range(nshards) if k not in done)
    if resume is not None:
        say(f"resuming {run_dir}: {len(done)} of {nshards} part(s) already written")
    workers = worker_count(cfg.workers)
    size = cfg.output.shard_size
    todo = sum(min(size, cfg.count - k * size) for k in pending)
    chunk = max(1, min(25, math.ceil(todo / (workers * 4)))) if todo else 1
    chunks: list[list[int]] = []
    for k in pending:
        idx = list(range(k * size, min((k + 1) * size, cfg.count)))
        chunks += [idx[j:j + chunk] for j in range(0, len(idx), chunk)]
    return Plan(cfg, job, run_dir, manifest, workers, resume is not None, frozenset(done), pending, tuple(chunks))


def _resume(run_dir: Path, chash: str, say: Log) -> Manifest:
    manifest = Manifest.read(run_dir)
    if manifest.config_hash != chash:
        raise RunError(
            f"{run_dir}: this run was made from another config (hash {manifest.config_hash}, "
            f"yours is {chash}); pass the same config and --count/--seed flags as the first time"
        )
    removed = store.clean_temp(run_dir)
    if removed:
        say(f"removed {removed} unfinished temp file(s) left by the interrupted run")
    return manifest


def _start(cfg: Config, chash: str) -> Manifest:
    preflight(cfg)
    run_dir = _new_run_dir(cfg, chash)
    snapshot = store.catalog_files(Path(cfg.output.dir)) if cfg.dedup.catalog else []
    return Manifest.create(run_dir, set_name=cfg.name, config_hash=chash, config=cfg.model_dump(mode="json"),
                           count=cfg.count, shard_size=cfg.output.shard_size, catalog_snapshot=snapshot)


def _new_run_dir(cfg: Config, chash: str) -> Path:
    root = Path(cfg.output.dir) / cfg.name
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    base = f"{stamp}-{chash[:8]}"
    for k in range(1, 1000):
        run_dir = root / (base if k == 1 else f"{base}-{k}")
        try:
            run_dir.mkdir(parents=True, exist_ok=False)
            return run_dir
        except FileExistsError:
            continue
        except OSError as exc:
            raise RunError(f"{root}: cannot create the output folder ({exc.strerror})") from None
    raise RunError(f"{root}: too many runs started in the same second")
