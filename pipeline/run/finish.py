"""The finish step of a run: parts in index order, duplicates resolved, the catalog, the totals.

Items come back from the workers in any order. A shard is finished once all its chunks are back
*and* every earlier shard is finished, so duplicates resolve the same way for any number of
workers. Finishing a shard: resolve duplicates (:class:`Dedup`), write its part file under a
temporary name, record its stats (with the part's row count and sha256) in the manifest, then
rename the part into place. Failed items are logged and recorded, never written.

Concurrent runs: with ``dedup.catalog`` the shard is finished under the output root's dedup lock
(:func:`~pipeline.run.lock.dedup_lock`), after taking the keys of every part file of other runs that
its keys do not hold yet: written since this run gathered them, or written by a session killed
after its run's catalog entry was written (the entry does not hold them). So two runs of different
sets started at the same moment never make the same puzzle. Runs one after the other find no such
parts and make exactly what they made before.

A full device while finishing (:class:`~pipeline.atomic.DiskFull`) stops the run resumably: the
parts written so far stay, the manifest is marked ``interrupted`` if it can still be saved (else it
stays ``running``; both resume), and the error propagates with ``run_dir`` set.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline import verify
from pipeline.atomic import DiskFull
from pipeline.run import rows, stock, store
from pipeline.run.keyindex import SeenKeys
from pipeline.run.layout import catalog_name, parts_in
from pipeline.run.lock import dedup_lock
from pipeline.run.manifest import sum_counts
from pipeline.run.plan import Log, Plan
from pipeline.run.work import Failed, Item, Made

#: Makes replacements: (indices, redraw number) -> items of those indices.
Redraw = Callable[[list[int], int], Iterable[list[Item]]]


@dataclass
class RunSummary:
    run_dir: Path
    count: int
    written: int
    failures: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    resumed_shards: int = 0
    status: str = "complete"
    start: int = 0  # the run's first index in its set
    #: unfinished runs of the set that this call finished before making this run (oldest first)
    finished_first: tuple[RunSummary, ...] = ()

    @property
    def ok(self) -> bool:
        return self.status == "complete"


class Dedup:
    """Replaces puzzles whose dedup key is already taken (catalog snapshot or an earlier index) and,
    for a run with a ``difficulty.quota``, puzzles of a level whose quota is already full.

    Per part, in rounds: items are accepted in index order; every index still clashing gets its
    next redraw (seed from index and redraw number), made by ``redraw``; repeat up to
    ``max_redraws``. A verified puzzle of a full level is not thrown away: it goes to the set's stock
    (``surplus``) for later runs. ``need`` (level -> puzzles still wanted, None without a quota) is
    shared by all parts of the run. The outcome depends only on the data, never on the worker count.
    """

    def __init__(self, seen: set[str] | SeenKeys, redraw: Redraw, max_redraws: int,
                 need: dict[str, int] | None = None) -> None:
        self.seen, self.redraw, self.max_redraws, self.need = seen, redraw, max_redraws, need
        self._why: dict[int, str] = {}  # index -> why its last item was refused: duplicate or quota

    def resolve(self, items: list[Item]) -> tuple[list[Item], int, list[rows.Row]]:
        """The shard's items with duplicates (and surplus levels) replaced or failed, in index order;
        how many were replaced; and the surplus rows for the stock."""
        by_index = {it.index: it for it in items}
        surplus: list[rows.Row] = []
        self._prefetch(by_index.values())
        clashing = [i for i in sorted(by_index) if not self._accept(by_index[i], surplus)]
        replaced = len(clashing)
        for redraw in range(1, self.max_redraws + 1):
            if not clashing:
                break
            for chunk in self.redraw(clashing, redraw):
                for new in chunk:
                    old = by_index[new.index]
                    by_index[new.index] = _add_attempts(new, old.attempts)
            self._prefetch(by_index[i] for i in clashing)
            clashing = [i for i in clashing if not self._accept(by_index[i], surplus)]
        for i in clashing:
            it = by_index[i]
            if self._why.get(i) == "quota":
                wanted = ", ".join(k for k, v in (self.need or {}).items() if v > 0)
                why = f"no puzzle of a level still wanted by the quota ({wanted}) after {self.max_redraws} redraws"
            else:
                why = (f"still a duplicate after {self.max_redraws} redraws: the set has run out of distinct puzzles "
                       "(see numplace catalog)")
            by_index[i] = Failed(i, "duplicate", why, it.attempts, it.timeouts)
        return [by_index[i] for i in sorted(by_index)], replaced - len(clashing), surplus

    def _prefetch(self, items: Iterable[Item]) -> None:
        """Ask the catalog's key index about the keys of ``items`` at once (the answers of ``in``
        are the same without it, one key at a time)."""
        if isinstance(self.seen, SeenKeys):
            self.seen.prefetch(k for it in items if isinstance(it, Made) for k in rows.dedup_keys(it.row))

    def _accept(self, item: Item, surplus: list[rows.Row]) -> bool:
        """True (and the key taken) unless the item is a row whose key is already taken or whose
        level the quota no longer wants (then the row goes to ``surplus``, its key taken)."""
        if not isinstance(item, Made):
            return True
        keys = rows.dedup_keys(item.row)
        if any(key in self.seen for key in keys):
            self._why[item.index] = "duplicate"
            return False
        self.seen.update(keys)
        if self.need is not None:
            level = item.row["difficulty"]
            if self.need.get(level, 0) <= 0:
                surplus.append(item.row)
                self._why[item.index] = "quota"
                return False
            self.need[level] -= 1
        return True


def _add_attempts(item: Item, attempts: int) -> Item:
    """``item`` with ``attempts`` more attempts counted (those spent on the duplicates it replaces)."""
    if isinstance(item, Made):
        return Made(item.index, item.row, item.attempts + attempts, item.timeouts, item.rejected, item.rss_mb)
    return Failed(item.index, item.kind, item.failure, item.attempts + attempts, item.timeouts, item.rejected,
                  item.puzzle, item.rss_mb)


class Finisher:
    """Takes the items of a plan's chunks as they come back and finishes its shards in order."""

    def __init__(self, plan: Plan, redraw: Redraw, say: Log) -> None:
        self.plan, self.say = plan, say
        self.t0 = time.perf_counter()
        stats = plan.manifest.shard_stats(plan.done)
        self.failures: list[dict[str, Any]] = [f for s in stats.values() for f in s.get("failures", [])]
        self.written = sum(s.get("rows", 0) for s in stats.values())
        self.done_before = sum(plan.shard_len(k) for k in plan.done)
        self.received = 0
        self.parts_written = 0  # parts finished in this session
        self.peak_mb = 0.0
        self._chunks_left = {k: 0 for k in plan.pending}
        for c in plan.chunks:
            self._chunks_left[plan.shard_of(c[0])] += 1
        self._items: dict[int, list[Item]] = {k: [] for k in plan.pending}
        self._order: Iterator[int] = iter(plan.pending)
        self._next = next(self._order, None)
        self._ready: dict[int, list[Item]] = {}
        self._watch = store.PartsWatch(plan.root)  # every run's part files, listed again where they changed
        self._read_parts = _parts_in_seen(plan, self._watch)  # other runs' part files whose keys ``seen`` holds
        seen = _seen_keys(plan)  # read after: an entry rewritten meanwhile only holds more
        quota = plan.cfg.difficulty.quota if plan.cfg.difficulty is not None else None
        need = None
        if quota:  # what the finished parts already hold counts against the quota
            made = sum_counts(st.get("levels", {}) for st in stats.values())
            need = {level: n - made.get(level, 0) for level, n in quota.items()}
        rounds = plan.cfg.difficulty.max_attempts if quota and plan.cfg.difficulty else plan.cfg.dedup.max_redraws
        self.dedup = Dedup(seen, redraw, rounds, need)
        for item in _stock_items(plan):
            k = plan.shard_of(item.index)
            if k in self._items:
                self._items[k].append(item)
                self.received += 1
        for k in plan.pending:
            if self._chunks_left[k] == 0:  # a part made of stock puzzles only
                self._ready[k] = self._items.pop(k)
        self._finish_ready()

    @property
    def done(self) -> int:
        """Indices accounted for so far (finished before this session, or back from a worker)."""
        return self.done_before + self.received

    def add(self, items: list[Item]) -> None:
        """One chunk's items; finishes every shard that is now complete and next in order."""
        self.received += len(items)
        self.peak_mb = max([self.peak_mb, *(it.rss_mb for it in items)])
        k = self.plan.shard_of(items[0].index)
        self._items[k].extend(items)
        self._chunks_left[k] -= 1
        if self._chunks_left[k] == 0:
            self._ready[k] = self._items.pop(k)
        try:
            self._finish_ready()
        except DiskFull as exc:
            self._disk_full(exc)
            raise

    def _finish_ready(self) -> None:
        while self._next is not None and self._next in self._ready:
            self._finish_shard(self._next, self._ready.pop(self._next))
            self._next = next(self._order, None)

    def close(self, stopped: str | None = None) -> RunSummary:
        """Record the run's keys in the catalog (finished parts count as published), close the
        manifest (``stopped``: ``partial`` or ``interrupted`` when the run was cut short; shards not
        finished are simply absent and ``--resume`` makes them), and summarize."""
        plan = self.plan
        try:
            _write_catalog(plan)
        except DiskFull as exc:
            self._disk_full(exc)
            raise
        seconds = time.perf_counter() - self.t0
        status = plan.manifest.finish(plan.cfg.count, self._session(seconds), stopped)
        return RunSummary(plan.run_dir, plan.cfg.count, self.written, self.failures, seconds, len(plan.done), status,
                          plan.start)

    def _session(self, seconds: float) -> dict[str, Any]:
        return {"seconds": round(seconds, 3), "worker_peak_rss_mb": round(self.peak_mb, 1), "made": self.received}

    def _disk_full(self, exc: DiskFull) -> None:
        """``exc`` with ``run_dir`` set, after marking the manifest ``interrupted`` if it can still be
        saved (a full device may refuse that too: the manifest then stays ``running``). Nothing is
        logged here: the exception carries the run folder, and the command's one last line
        (``disk_full``, with ``exit_code`` and the ``--resume`` command) says it once."""
        exc.run_dir = self.plan.run_dir
        with contextlib.suppress(OSError):
            self.plan.manifest.finish(self.plan.cfg.count, self._session(time.perf_counter() - self.t0),
                                      "interrupted")

    def _finish_shard(self, k: int, items: list[Item]) -> None:
        """Shard ``k``: duplicates resolved, then the part file written under a temporary name, its stats
        (with the part's row count and the sha256 of its bytes) saved in the manifest, and only then
        the part renamed into place."""
        if not self.plan.cfg.dedup.catalog:
            self._write_shard(k, items)
            return
        with dedup_lock(self.plan.root):  # decide and write while no other run of the root does
            self._catch_up()
            self._write_shard(k, items)

    def _catch_up(self) -> None:
        """Take the keys of the part files of other runs under the root that this run's keys do not
        hold (written since it gathered them, by runs started meanwhile or resumed; or before, by a
        session killed after its catalog entry was written): concurrent runs never make the same puzzle."""
        new = [p for p in self._watch.parts() if p.parent != self.plan.run_dir and p not in self._read_parts]
        if new:
            self.dedup.seen.update(store.part_keys(new))
            self._read_parts.update(new)
            self.say(f"{len(new)} part file(s) of other runs under {self.plan.root} that this run's keys did not hold "
                     "(written since it started, or after their run's catalog entry) count as published too",
                     event="published_meanwhile", count=len(new))

    def _write_shard(self, k: int, items: list[Item]) -> None:
        items, replaced, surplus = self.dedup.resolve(items)
        stock.write(self.plan.run_dir.parent, self.plan.run_dir.name, k, surplus)  # kept before the part appears
        made = [it for it in items if isinstance(it, Made)]
        bad = [it.record() for it in items if isinstance(it, Failed)]
        for f in bad:
            self.say(f"puzzle {f['index']}: {f['kind']} failed: {f['failure']}")
        self.failures.extend(bad)
        stats = {
            "rows": len(made),
            "attempts": sum(it.attempts for it in items),
            "timeouts": sum(it.timeouts for it in items),
            "ilp_solves": sum(it.row["ilp_solves"] for it in made),
            "gen_ms": round(sum(it.row["gen_ms"] for it in made), 3),
            "failures": bad,
            "rejected": sum_counts(it.rejected for it in items),
            "levels": sum_counts({it.row["difficulty"]: 1} for it in made),
            "dedup_replaced": replaced,
            "stocked": len(surplus),
        }

        def record(part: store.PartStats) -> None:  # the part is complete under its temp name: stats first
            self.plan.manifest.record_shard(k, {**stats, "rows": part["rows"], "sha256": part["sha256"]})

        store.write_part(self.plan.run_dir, k, [it.row for it in made], self.plan.cfg.name, before_rename=record)
        self.written += len(made)
        self.parts_written += 1


def _stock_items(plan: Plan) -> list[Item]:
    """The run's stock puzzles as items of the indices they fill, verified again."""
    picks = plan.manifest.from_stock
    if not picks:
        return []
    found = stock.rows_for(plan.run_dir.parent, picks, plan.cfg.name, plan.job.config_hash)
    out: list[Item] = []
    for index, row in sorted(found.items()):
        problems = verify.verify_row(row)
        if problems:
            out.append(Failed(index, "verification", "; ".join(problems), 0, 0, puzzle=row["puzzle"]))
        else:
            out.append(Made(index, row, 0, 0))
    return out


def _seen_keys(plan: Plan) -> SeenKeys:
    """Dedup keys already taken: the catalog snapshot of the run's start (through the catalog's key
    index: :func:`~pipeline.run.store.snapshot_keys`) and the parts of runs that had no catalog entry
    then (:attr:`~pipeline.run.manifest.Manifest.published_parts`), plus the run's own parts written
    so far."""
    own = catalog_name(plan.cfg.name, plan.run_dir.name)
    names = [n for n in plan.manifest.catalog_snapshot if n.rpartition("/")[2] != own]
    seen = store.snapshot_keys(plan.root, names)
    mine = plan.run_dir.resolve()
    seen.update(store.part_keys(plan.root / p for p in plan.manifest.published_parts
                                if (plan.root / p).parent.resolve() != mine))
    parts = parts_in(plan.run_dir)
    if parts:
        seen.update(rows.dedup_key(r) for r in store.read_parts(parts).iter_rows(named=True))
    return seen


def _parts_in_seen(plan: Plan, watch: store.PartsWatch) -> set[Path]:
    """The part files of other runs whose keys :func:`_seen_keys` (called after this) takes: the
    published parts, and the parts of the snapshot's runs that their catalog entry holds
    (:func:`~pipeline.run.store.parts_in_entries`: not those a session killed after its entry was
    written added). Every other part file :meth:`~pipeline.run.store.PartsWatch.parts` lists is read
    by :meth:`Finisher._catch_up` before the first part is written."""
    root = plan.root
    out = {root / p for p in plan.manifest.published_parts}
    out |= store.parts_in_entries(root, plan.manifest.catalog_snapshot, watch.parts())
    return out


def _write_catalog(plan: Plan) -> None:
    """Record this run's keys in the catalog of the output root (one file per run, by rename); not
    when the run folder has gone from under the run (moved by hand): an entry of no parts would hide
    the parts the folder holds once it is back, so the entry there stays as it was."""
    if not plan.run_dir.is_dir():
        return
    parts = parts_in(plan.run_dir)
    found = store.read_parts(parts).iter_rows(named=True) if parts else iter(())
    store.write_catalog(plan.root, plan.cfg.name, plan.run_dir.name, [
        {"key": rows.dedup_key(r), "size": r["size"], "set_name": r["set_name"], "run_id": plan.run_dir.name,
         "puzzle_id": r["puzzle_id"]} for r in found])
