"""The plan step of a run: start a new run folder or take up an interrupted one, and cut the work.

A set is an append-only stream of puzzles: ``<output.dir>/<name>/`` holds its runs, and a new run
takes the next ``count`` indices, ``[start, start + count)``, where ``start`` is one past the highest
index any earlier run of the set has taken. Puzzle ``i`` comes from (set seed, ``i``) alone, so every
``puzzle_id`` is issued once, ever, and the same history of runs gives the same puzzles. The set's
seed cannot change between runs (a new seed is a new set: another name); other keys may change, and
the run logs that the config differs from the last run's. One process at a time makes a set: the
plan takes the set's lock (:mod:`pipeline.run.lock`) and the run holds it until it ends.

Units of work: a *shard* is what one part file holds (``output.shard_size`` consecutive indices); a
*chunk* is what one task makes (a few indices of one shard: small enough to keep every worker busy
and the progress moving, at most 25). Only shards without a part file are planned, so a resumed run
makes exactly what is missing. Every user mistake is raised here, before anything is written:
:class:`~pipeline.config.ConfigError`, :class:`RunError` or :class:`~pipeline.run.store.StoreError`
(a damaged catalog file, named with what to do); a full device is :class:`~pipeline.atomic.DiskFull`.

A new run folder appears whole: it is made as ``<set>/.<run_id>.tmp/<run_id>/``, its manifest is
written there, and only then is ``<run_id>`` renamed into the set folder, so a run folder without a
manifest never exists. A temp folder left by a process killed meanwhile is removed by the next run
of the set (under the set's lock); readers skip names that start with a dot.
"""

from __future__ import annotations

import bisect
import datetime as dt
import errno
import math
import shutil
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol, overload

from pipeline.atomic import DiskFull
from pipeline.config import CagesCfg, Config, ConfigError, config_hash
from pipeline.config.defining import DEFINING, defining_keys, differences, shown
from pipeline.difficulty.techniques import GRADER_VERSION, LEVELS, ORDERS, NewerGrader, held_version
from pipeline.errors import UserError
from pipeline.generate import version as generator
from pipeline.generate.grid import design_problem, fixed_cells_problem, variant_grid_problem
from pipeline.generate.spec import Spec, design_of
from pipeline.identity import canon, numbering
from pipeline.run import capacity, history, kernels, stock, store
from pipeline.run.layout import TEMP_GLOB, catalog_name, catalog_run, holder_dir
from pipeline.run.lock import SetLock
from pipeline.run.manifest import UNFINISHED, Manifest, restore_success, runs_of
from pipeline.run.work import Job
from pipeline.run.workers import MAX_PER_CPU, worker_count


class Log(Protocol):
    """Where a run tells what happens: a message in words, and for the JSON log an ``event`` name,
    a ``level`` (``info``, ``warning``, ``error``) and fields of data."""

    def __call__(self, message: str, /, **fields: Any) -> None: ...


class RunError(UserError, RuntimeError):
    """A run that cannot start or continue, for a reason the user can fix (message names it)."""


@dataclass(frozen=True)
class Plan:
    """A run ready to execute: where it writes, what is done, and the chunks still to make."""

    cfg: Config
    job: Job
    run_dir: Path
    manifest: Manifest
    lock: SetLock  # held until the run ends: release it
    workers: int
    resumed: bool
    done: frozenset[int]  # shards whose part file exists
    pending: tuple[int, ...]  # shards to make, in order
    chunks: Chunks  # indices per task, shard by shard (computed on demand: memory grows with parts, not count)

    @property
    def start(self) -> int:
        """The first index of this run's range of the set."""
        return self.manifest.start

    @property
    def root(self) -> Path:
        """The output root the run belongs to (its catalog lives there, whatever ``--out`` says)."""
        return self.run_dir.parent.parent

    def shard_of(self, index: int) -> int:
        return (index - self.start) // self.cfg.output.shard_size

    def shard_len(self, shard: int) -> int:
        size = self.cfg.output.shard_size
        return min(size, self.cfg.count - shard * size)

    def shard_range(self, shard: int) -> range:
        """The indices of part ``shard`` of this run."""
        first = self.start + shard * self.cfg.output.shard_size
        return range(first, first + self.shard_len(shard))


#: Parts one run may have: the manifest records every part and is saved whole after each, so a run of
#: very many tiny parts would spend its time rewriting the manifest (refused up front; parts of
#: hundreds of puzzles are what Parquet readers want anyway; ``docs/config.md``, ``output.shard_size``).
MAX_PARTS = 10_000


class Chunks(Sequence[list[int]]):
    """The tasks of a run, in order: for each pending shard, its indices (minus those the stock
    fills) cut into lists of at most ``size``. Computed on demand from a per-shard table, so a run
    of ten million puzzles plans in memory proportional to its number of parts."""

    def __init__(self, shards: Sequence[range], skip: frozenset[int], size: int) -> None:
        self._shards, self._skip, self._size = list(shards), skip, size
        self._sorted_skip = sorted(skip)
        self._first: list[int] = []  # number of chunks before each shard's first
        total = 0
        for r in self._shards:
            self._first.append(total)
            total += -(-self._left(r) // size)
        self._len = total

    def _left(self, r: range) -> int:
        return len(r) - (bisect.bisect_left(self._sorted_skip, r.stop) - bisect.bisect_left(self._sorted_skip, r.start))

    def _indices(self, r: range) -> list[int]:
        return [i for i in r if i not in self._skip] if self._skip else list(r)

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, k: int) -> list[int]: ...
    @overload
    def __getitem__(self, k: slice) -> list[list[int]]: ...
    def __getitem__(self, k: int | slice) -> list[int] | list[list[int]]:
        if isinstance(k, slice):
            return [self[j] for j in range(*k.indices(self._len))]
        if k < 0:
            k += self._len
        if not 0 <= k < self._len:
            raise IndexError(k)
        s = bisect.bisect_right(self._first, k) - 1  # the last shard starting at or before chunk k has it
        j = k - self._first[s]
        return self._indices(self._shards[s])[j * self._size:(j + 1) * self._size]

    def __iter__(self) -> Iterator[list[int]]:
        for r in self._shards:
            idx = self._indices(r)
            for j in range(0, len(idx), self._size):
                yield idx[j:j + self._size]


def spec_of(cfg: Config) -> Spec:
    """The generator's spec for ``cfg`` (plain data for the workers).

    With designed-grid rows (``grid.solution_symmetry``, ``grid.areas``) it first asks the integer
    program once whether any grid honours them (:func:`~pipeline.generate.grid.design_problem`) and
    raises :class:`~pipeline.config.ConfigError` naming the key when none does: the plan calls this
    before anything is written."""
    lo, hi = cfg.removal.hints.bounds if cfg.removal.hints is not None else (None, None)
    d = cfg.difficulty
    design = design_of(cfg.board.size, cfg.image, cfg.area_rules)
    rules = cfg.board.rules
    variant = None if rules.classic else rules
    if design is not None:
        why = design_problem(cfg.board.size, design, cfg.fixed_grid, cfg.removal.time_limit, variant)
        if why is not None:
            raise ConfigError(f"{'' if why[0].startswith('board.') else 'grid.'}{why[0]}: {why[1]}")
    elif variant is not None:
        why_not = variant_grid_problem(cfg.board.size, variant, cfg.fixed_grid, cfg.removal.time_limit)
        if why_not is not None:
            raise ConfigError(why_not)
    cages = cfg.board.cages if cfg.board.cages is not None else CagesCfg()
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
        # unset only outside a set (a run's plan settles it first): what a new set would get, as `generate`
        grid_method=cfg.grid.method or generator.NEW_SET_METHOD,
        levels=tuple(d.levels) if d and d.levels else None,
        score_min=d.score.min if d and d.score else None,
        score_max=d.score.max if d and d.score else None,
        design=design,
        pattern=cfg.pattern_cells,
        variant=variant,
        cage_sizes=(cages.min_size, cages.max_size),
        cage_singles=cages.singles,
        killer_givens=cages.givens,
        steer=bool(d and (d.steer or d.technique is not None)),  # a technique target is reached by steering
        steer_pool=_steer_pool(d.quota) if d and d.steer and d.quota else None,
        logic_only=bool(d and (d.logic_only or d.technique is not None)),  # a technique target implies it
        techniques=d.techniques if d and d.technique is not None else None,
    )


def _steer_pool(quota: Mapping[str, int]) -> tuple[str, ...]:
    """The levels of a quota, each as many times as its count over the counts' greatest common divisor
    (``{easy: 20, hard: 10}`` -> easy, easy, hard), in level order: :meth:`Spec.target`'s pool; scaled
    to about 1,000 entries (each level at least once) when larger."""
    step = math.gcd(*quota.values())
    shares = {level: n // step for level, n in quota.items()}
    total = sum(shares.values())
    if total > 1000:
        shares = {level: max(1, round(k * 1000 / total)) for level, k in shares.items()}
    return tuple(level for level in LEVELS if level in shares for _ in range(shares[level]))


def job_of(cfg: Config, grader: int = GRADER_VERSION, made_by: int = generator.GENERATOR_VERSION) -> Job:
    """The workers' job for ``cfg``, its puzzles graded by grader version ``grader`` (the set's:
    :func:`set_grader`) and made by generator version ``made_by`` (the set's record:
    :func:`set_generator`)."""
    spec = spec_of(cfg)
    missing = [t for t in spec.techniques or () if t not in ORDERS[grader]]
    if missing:
        raise ConfigError(f"difficulty.technique: {missing[0]} is not a step of grader version {grader}, which "
                          "grades this set (the set began under it; start a new set to use it)")
    return Job(replace(spec, grader=grader, generator=made_by), cfg.name, config_hash(cfg), cfg.seed)


_WARM_GRID = tuple(int(c) for c in
                   "534678912672195348198342567859761423426853791713924856961537284287419635345286179")


def preflight(cfg: Config) -> None:
    """Checks that need the engine, done before any output exists (raises ConfigError); builds or
    loads the 9x9 numbering tables once here, before the workers start, and, when the puzzles are made
    in other processes, the canonical-grid table and the identity kernels too, and every kernel once per
    machine and version (:func:`pipeline.run.kernels.ensure_built`: the workers then load them)."""
    if cfg.executor.kind != "local" or worker_count(cfg.workers) > 1:
        kernels.ensure_built()
    if cfg.board.size == 9:
        numbering.tables()
        if cfg.executor.kind != "local" or worker_count(cfg.workers) > 1:
            # build the canonical-grid table, and compile (or load) the identity kernels, here once, so
            # the workers load them from the caches instead of each building them on a fresh install; a
            # run in this process (one worker) pays for them only if and when it uses them
            canon.tables()
            from pipeline.identity import canon_jit, numbering_jit  # noqa: F401  numba loaded: the calls run kernels

            numbering.grid_number(_WARM_GRID)
            canon.canonical_key(_WARM_GRID[:40] + (0,) * 41)
    fixed = cfg.fixed_grid
    if fixed is not None:
        why = fixed_cells_problem(cfg.board.size, fixed, None if cfg.board.rules.classic else cfg.board.rules)
        if why:
            raise ConfigError(f"grid.fixed: {why}")


def plan(cfg: Config, resume: Path | None, say: Log, fill_gap: bool = False) -> Plan:
    """Open the run (new, or ``resume``'s), holding the set's lock, and plan the shards that have no
    part file yet. Raises :class:`~pipeline.config.ConfigError`, :class:`RunError` or
    :class:`~pipeline.run.lock.SetLocked` before anything is written (and
    :class:`~pipeline.run.store.StoreError` for a damaged catalog file: nothing is created then either).

    The set's generator (:mod:`pipeline.generate.version`) is settled first: an unset ``grid.method``
    becomes the set's, so the config is hashed and saved with the method the run uses.

    ``fill_gap``: the new run makes the set's first gap in its ids (:func:`pipeline.run.history.first_gap`:
    indices a deleted run folder held) instead of the next ``count`` indices; its count is the gap's."""
    set_dir = resume.parent if resume is not None else Path(cfg.output.dir) / cfg.name
    gap = None
    if fill_gap:
        gap = _gap_to_fill(cfg, set_dir)
        cfg = cfg.model_copy(update={"count": gap.stop - gap.start})
    runs = runs_of(set_dir) if resume is None else None  # read once for both (a set of years holds thousands)
    cfg, record = set_generator(cfg, set_dir, resume, runs)
    grader = set_grader(set_dir, resume, runs)
    job = job_of(cfg, grader, record["version"])
    parts = math.ceil(cfg.count / cfg.output.shard_size)
    if parts > MAX_PARTS:
        least = math.ceil(cfg.count / MAX_PARTS)
        raise ConfigError(f"output.shard_size: {cfg.output.shard_size} makes {parts:,} parts for {cfg.count:,} "
                          f"puzzles; one run may have at most {MAX_PARTS:,} parts (use shard_size {least} or more)")
    if resume is None:
        preflight(cfg)
    else:
        Manifest.read(resume)  # a folder that is not a run is refused before anything is touched
    lock = _lock(set_dir, say)
    try:
        manifest = (_resume(resume, job.config_hash, say) if resume is not None
                    else _start(cfg, job.config_hash, say, record, grader, gap))
    except BaseException:
        lock.release()
        raise
    run_dir = manifest.run_dir
    nshards = math.ceil(cfg.count / cfg.output.shard_size)
    done = store.done_shards(run_dir) & set(range(nshards))
    pending = tuple(k for k in range(nshards) if k not in done)
    if resume is not None:
        say(f"resuming {run_dir}: {len(done)} of {nshards} part(s) already written")
    workers = worker_count(cfg.workers)
    if isinstance(cfg.workers, int) and workers < cfg.workers:
        say(f"workers: {cfg.workers} is more than {MAX_PER_CPU} per CPU of this machine; using {workers}",
            event="workers_capped", level="warning", requested=cfg.workers, workers=workers)
    size = cfg.output.shard_size
    todo = sum(min(size, cfg.count - k * size) for k in pending) - len(manifest.from_stock)
    chunk = max(1, min(25, math.ceil(todo / (workers * 4)))) if todo else 1
    stocked = frozenset(p["index"] for p in manifest.from_stock)
    shards = [range(manifest.start + k * size, manifest.start + k * size + min(size, cfg.count - k * size))
              for k in pending]
    chunks = Chunks(shards, stocked, chunk)
    workers = max(1, min(workers, len(chunks)))  # never more processes than tasks
    return Plan(cfg, job, run_dir, manifest, lock, workers, resume is not None, frozenset(done), pending, chunks)


def _lock(set_dir: Path, say: Log) -> SetLock:
    try:
        return SetLock.acquire(set_dir, say)
    except OSError as exc:
        if exc.errno == errno.ENOSPC:
            raise DiskFull(set_dir) from exc
        raise RunError(f"{set_dir}: cannot create the set folder or its lock ({exc.strerror})") from None


def _gap_to_fill(cfg: Config, set_dir: Path) -> history.Gap:
    """The gap ``run --fill-gap`` makes, or :class:`RunError` when the set has none."""
    gap = history.first_gap(set_dir, runs_of(set_dir))
    if gap is None:
        raise RunError(f"--fill-gap: set {cfg.name} has no gap in its ids to fill (numplace check {set_dir} "
                       f"names any)")
    return gap


def _resume(run_dir: Path, chash: str, say: Log) -> Manifest:
    manifest = Manifest.read(run_dir)
    made_as = manifest.data.get("run_id")
    if made_as is not None and made_as != run_dir.name:
        if (run_dir.parent / made_as).is_dir():
            raise RunError(f"{run_dir}: a copy of run {made_as} (its manifest says so); resume the run folder it "
                           f"was made in, or its puzzles would be published twice")
        raise RunError(f"{run_dir}: the folder's name does not match its manifest, which says it is run {made_as} "
                       f"(renamed by hand); rename it back (mv {run_dir} {run_dir.parent / made_as}), then resume "
                       f"that")
    if manifest.config_hash != chash:
        raise RunError(
            f"{run_dir}: this run was made from another config (hash {manifest.config_hash}, "
            f"yours is {chash}); pass the same config and --count/--seed flags as the first time"
        )
    own = catalog_name(manifest.data.get("set_name", ""), run_dir.name)
    root = run_dir.parent.parent
    names = [n for n in manifest.catalog_snapshot if n.rpartition("/")[2] != own]
    store.check_catalog(root, names, say)
    for name in store.missing_entries(root, names):
        gone = store.entry_run(root, name)
        how = (f"its keys are read from {gone}'s parts instead" if gone.is_dir() else
               f"its run folder {gone} was deleted too, so its puzzles are no longer published")
        say(f"catalog entry {name} of this run's start has gone; {how}", event="catalog_entry_missing",
            level="warning", entry=name)
    removed = store.clean_temp(run_dir) + len(store.clean_catalog_temp(root, catalog_name(manifest.set_name or "",
                                                                                           run_dir.name)))
    if removed:
        say(f"removed {removed} unfinished temp file(s) left by the interrupted run")
    return manifest


def set_generator(cfg: Config, set_dir: Path, resume: Path | None,
                  runs: list[Manifest] | None = None) -> tuple[Config, dict[str, Any]]:
    """The set's generator record (``resume``'s run's, else the set's first run's, else a new set's) and
    ``cfg`` with an unset ``grid.method`` replaced by the record's; raises :class:`RunError` for a set
    recorded by a newer generator or with a malformed record. ``runs``: the set's runs when the
    caller has read them (:func:`~pipeline.run.manifest.runs_of`)."""
    first = _first(set_dir, resume, runs)
    try:
        record = generator.record_of(first.generator) if first is not None else generator.new_record()
    except ValueError as exc:
        assert first is not None
        raise RunError(f"{first.run_dir}: {exc}") from None
    if cfg.grid.method is None:
        cfg = cfg.model_copy(update={"grid": cfg.grid.model_copy(update={"method": record["grid_method"]})})
    return cfg, record


def _first(set_dir: Path, resume: Path | None, runs: list[Manifest] | None) -> Manifest | None:
    """``resume``'s manifest, else the set's first run's (of ``runs`` when given), else None."""
    if resume is not None:
        return Manifest.read(resume)
    return next(iter(runs if runs is not None else runs_of(set_dir)), None)


def set_grader(set_dir: Path, resume: Path | None, runs: list[Manifest] | None = None) -> int:
    """The grader version that grades the run's puzzles: the one ``resume``'s run recorded, else the
    one the set's first run recorded, else this code's for a new set, each as
    :func:`~pipeline.difficulty.techniques.held_version` maps it; raises :class:`RunError` for a set
    graded by rules newer than this code's. ``runs`` as for :func:`set_generator`."""
    first = _first(set_dir, resume, runs)
    try:
        return held_version(first.grader_version if first is not None else None)
    except NewerGrader as exc:
        assert first is not None
        raise RunError(f"{first.run_dir}: {exc}") from None


def check_defining(cfg: Config, earlier: Sequence[Manifest]) -> None:
    """Refuse ``cfg`` (:class:`RunError`, naming the key and how to start a new set) when it changes a
    key that defines the set (:data:`~pipeline.config.defining.DEFINING`) from the set's last run."""
    if not earlier:
        return
    last = earlier[-1]
    changed = differences(defining_keys(last.config), defining_keys(cfg))
    if changed:
        key, old, new = changed[0]
        raise RunError(f"{key}: set {cfg.name} holds puzzles with {key} {shown(key, old)} (run {last.run_dir.name}), "
                       f"and this config says {shown(key, new)}; the keys that define a set ({', '.join(DEFINING)}) "
                       f"cannot change between its runs: keep {key} as it was, or give the config another name "
                       f"to start a new set")


def _start(cfg: Config, chash: str, say: Log, record: dict[str, Any], grader: int,
           gap: history.Gap | None = None) -> Manifest:
    set_dir = Path(cfg.output.dir) / cfg.name
    _clean_temp_runs(set_dir, say)
    earlier = runs_of(set_dir)
    for m in earlier:  # under the set's lock: a run killed between its last two writes
        if restore_success(m):
            say(f"run {m.run_dir} is complete but lacked its _SUCCESS file (stopped just before writing it); "
                f"written now", event="success_restored", level="warning", run_dir=str(m.run_dir))
    _refuse_moved(cfg.name, set_dir, earlier)
    for m in earlier:  # under the set's lock: a run that is not complete here was stopped or killed
        if m.status in UNFINISHED:
            written = sum(r.get("rows", 0) for r in m.shards.values() if isinstance(r, dict))
            raise RunError(f"set {cfg.name}: run {m.run_dir} is {m.status} ({written} of {m.count} puzzles written); "
                           f"a new run would leave its missing ids as a gap: finish it first with "
                           f"numplace run CONFIG --resume {m.run_dir}")
    if earlier:
        last = earlier[-1]
        seed = last.data["config"].get("seed")
        if seed != cfg.seed:
            raise RunError(f"seed: set {cfg.name} was made with seed {seed}, and a set's seed cannot change "
                           f"(use seed {seed}, or another name for a new set)")
        check_defining(cfg, earlier)
        if last.config_hash != chash and gap is None:
            say(f"the config differs from the last run of set {cfg.name} ({last.run_dir.name}, "
                f"hash {last.config_hash}; now {chash}): new puzzles follow the new config")
    start = max((m.start + m.count for m in earlier), default=0)
    if gap is not None:
        now = history.first_gap(set_dir, earlier)
        if now is None or (now.start, now.stop) != (gap.start, gap.stop):
            raise RunError(f"--fill-gap: set {cfg.name} changed while this run started; run it again")
        start = gap.start
        say(f"filling the gap of set {cfg.name}: indices {gap.span}, made again from their seeds",
            event="gap_filling", start=gap.start, count=gap.stop - gap.start)
    else:
        for line in history.review(set_dir, earlier):
            say(line, event="set_history", level="warning")
    root = Path(cfg.output.dir)
    snapshot = store.catalog_files(root) if cfg.dedup.catalog else []
    store.check_catalog(root, snapshot, say)  # a damaged entry is named before anything exists
    published = store.uncataloged_parts(root, snapshot) if cfg.dedup.catalog else []
    if published:
        say(f"{len(published)} part file(s) of runs without a catalog entry (still running, or killed and never "
            f"resumed) count as published too", event="uncataloged_parts", count=len(published))
    _check_capacity(cfg, root, snapshot, published)
    quota = cfg.difficulty.quota if cfg.difficulty is not None else None
    picks = stock.take(set_dir, earlier, dict(quota), start) if quota else []
    tmp_dir, run_dir = _new_run_dir(cfg, chash)
    try:
        Manifest.create(tmp_dir, set_name=cfg.name, config_hash=chash, config=cfg.model_dump(mode="json"),
                        start=start, count=cfg.count, shard_size=cfg.output.shard_size, catalog_snapshot=snapshot,
                        from_stock=picks, published_parts=published, generator=record, grader_version=grader)
        tmp_dir.rename(run_dir)  # the run folder appears with its manifest, or not at all
    except BaseException:
        _remove_temp_run(tmp_dir.parent)
        raise
    _remove_temp_run(tmp_dir.parent)
    if picks:
        say(f"taking {len(picks)} puzzle(s) from the stock of set {cfg.name}", event="stock_taken", count=len(picks))
    return Manifest.read(run_dir)


def _refuse_moved(name: str, set_dir: Path, earlier: list[Manifest]) -> None:
    """Refuse (naming the run and the ``mv`` that puts it back) when a run folder of another set was
    moved into this one, or a run of this set into another folder: the ids and seeds of the set would
    no longer be its own."""
    foreign = history.foreign_runs(set_dir, earlier)
    if foreign:
        raise RunError(f"set {name}: {foreign[0]}")
    for run_id, where in history.moved_runs(set_dir, earlier).items():
        raise RunError(f"set {name}: its run {run_id} is in {where} (moved by hand), where readers of the output "
                       f"root still take its puzzles; a new run would issue its ids again: move it back: "
                       f"mv {where} {set_dir / run_id}")


def _check_capacity(cfg: Config, root: Path, snapshot: list[str], published: list[str]) -> None:
    """Refuse a 4x4 request for more distinct puzzles than exist (minus those this output root has
    already published), before the run starts rather than after it fails (see
    :mod:`pipeline.run.capacity`)."""
    if cfg.board.size != 4 or cfg.removal.symmetry == "random":
        return
    lo, hi = cfg.removal.hints.bounds if cfg.removal.hints is not None else (None, None)
    keys = capacity.distinct(cfg.removal.symmetry, cfg.removal.is_minimal, lo, hi)
    if keys is None:
        return
    seen = store.snapshot_keys(root, snapshot)
    seen.update(store.part_keys(root / p for p in published))
    seen.prefetch(keys)
    left = sum(1 for k in keys if k not in seen)
    if cfg.count > left:
        rule = "minimal" if cfg.removal.is_minimal else f"hints {lo}-{hi}"
        taken = f", {len(keys) - left} of them already in {root}" if left < len(keys) else ""
        raise ConfigError(f"count: only {len(keys)} distinct 4x4 puzzles exist with removal.symmetry "
                          f"{cfg.removal.symmetry} and {rule}{taken}; ask for at most {left}")


def _new_run_dir(cfg: Config, chash: str) -> tuple[Path, Path]:
    """A new, empty ``<set>/.<run_id>.tmp/<run_id>`` folder and the run folder ``<set>/<run_id>`` it
    becomes (which does not exist yet). Call under the set's lock."""
    root = Path(cfg.output.dir) / cfg.name
    # a run id another folder's manifest or a catalog entry holds (a run hidden or moved by hand) is taken too
    taken = {str(m.data.get("run_id")) for m in runs_of(root)} | {
        catalog_run(Path(e).name)[1] for e in store.set_entries(root.parent, cfg.name)}
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    base = f"{stamp}-{chash[:8]}"
    for k in range(1, 1000):
        run_id = base if k == 1 else f"{base}-{k}"
        run_dir, holder = root / run_id, holder_dir(root, run_id)
        if run_dir.exists() or run_id in taken:
            continue
        try:
            holder.mkdir(parents=True, exist_ok=False)
            (holder / run_id).mkdir()
            return holder / run_id, run_dir
        except FileExistsError:
            continue
        except OSError as exc:
            if exc.errno == errno.ENOSPC:
                raise DiskFull(root) from exc
            raise RunError(f"{root}: cannot create the output folder ({exc.strerror})") from None
    raise RunError(f"{root}: too many runs started in the same second")


def _remove_temp_run(holder: Path) -> None:
    """Remove a ``.<run_id>.tmp`` folder and what it holds (nothing of value: a run folder in the
    making whose manifest was never renamed into the set)."""
    shutil.rmtree(holder, ignore_errors=True)


def _clean_temp_runs(set_dir: Path, say: Log) -> None:
    """Remove the ``.<run_id>.tmp`` folders a process killed while creating its run folder left in
    ``set_dir`` (call under the set's lock: no other process is making one)."""
    if not set_dir.is_dir():
        return
    for holder in sorted(set_dir.glob(TEMP_GLOB)):
        if holder.is_dir():
            _remove_temp_run(holder)
            say(f"removed {holder}, a run folder left unfinished by a killed run", event="temp_run_removed",
                level="warning", path=str(holder))
