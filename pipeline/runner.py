"""A run: plan shards, fan chunks of puzzle indices out with joblib (loky), verify, hand rows to store.

Determinism: puzzle ``i`` depends only on ``(config, i)`` through :func:`generate.puzzle_seed`, so
any number of workers, any chunking and any resume give the same set. Workers receive plain data
(a :class:`generate.Spec`, ints, strings) and return plain dicts; each builds its own engine.

Units of work: a *shard* is what one part file holds (``output.shard_size`` indices); a *chunk* is
what one joblib task makes (a few indices of one shard, small enough to keep every worker busy and
the progress bar moving). A shard's part is written, atomically, once all its chunks are back.
Puzzles that fail independent verification are never written; they are logged, counted in the
manifest, and make :attr:`RunSummary.ok` false.
"""

from __future__ import annotations

import datetime as dt
import math
import os
import platform
import resource
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from joblib import Parallel, delayed

from pipeline import __version__, canon, generate, numbering, store, verify
from pipeline.board import board, format_line
from pipeline.config import Config, ConfigError, config_hash

Progress = Callable[[int, int], None]
Log = Callable[[str], None]


class RunError(RuntimeError):
    """A run that cannot start or continue, for a reason the user can fix (message names it)."""


@dataclass
class RunSummary:
    run_dir: Path
    count: int
    written: int
    failures: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    resumed_shards: int = 0

    @property
    def ok(self) -> bool:
        return not self.failures and self.written == self.count


def worker_count(workers: int | str) -> int:
    if workers == "auto":
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except AttributeError:  # not on Linux
            return max(1, os.cpu_count() or 1)
    return int(workers)


def spec_of(cfg: Config) -> generate.Spec:
    lo, hi = cfg.removal.hints.bounds if cfg.removal.hints is not None else (None, None)
    return generate.Spec(
        size=cfg.board.size,
        symmetry=cfg.removal.symmetry,
        minimal=cfg.removal.is_minimal,
        hints_min=lo,
        hints_max=hi,
        fixed=cfg.fixed_grid,
        keep_fixed=cfg.grid.keep_fixed,
        max_attempts=cfg.difficulty.max_attempts if cfg.difficulty else cfg.removal.max_attempts,
        time_limit=cfg.removal.time_limit,
        engine=cfg.engine,
        grid_method=cfg.grid.method,
        levels=tuple(d.levels) if (d := cfg.difficulty) and d.levels else None,
        score_min=d.score.min if d and d.score else None,
        score_max=d.score.max if d and d.score else None,
    )


def make_rows(
    spec: generate.Spec, set_name: str, chash: str, config_seed: int, indices: list[int], redraw: int = 0
) -> list[dict[str, Any]]:
    """Worker task: generate and independently verify puzzles ``indices``.

    Returns one dict per index: ``{"index", "row"}`` for a verified puzzle, or
    ``{"index", "failure", "kind"}`` (kind ``generation`` or ``verification``); both carry
    ``attempts`` and ``timeouts``.
    """
    b = board(spec.size)
    out: list[dict[str, Any]] = []
    for i in indices:
        seed = generate.puzzle_seed(config_seed, i, redraw)
        try:
            made = generate.make_puzzle(spec, seed)
        except generate.GenerationFailed as exc:
            out.append({"index": i, "failure": str(exc), "kind": "generation",
                        "attempts": exc.attempts, "timeouts": exc.timeouts, "rejected": exc.rejected})
            continue
        row: dict[str, Any] = {
            "puzzle_id": f"{set_name}-{i:07d}",
            "set_name": set_name,
            "config_hash": chash,
            "seed": seed,
            "index": i,
            "size": b.n,
            "box_rows": b.box_rows,
            "box_cols": b.box_cols,
            "puzzle": format_line(made["puzzle"]),  # type: ignore[arg-type]
            "solution": format_line(made["solution"]),  # type: ignore[arg-type]
            "hints": made["hints"],
            "symmetry": made["symmetry"],
            "symmetry_requested": made["symmetry_requested"],
            "minimal": made["minimal"],
            "orbit_minimal": made["orbit_minimal"],
            "ilp_solves": made["ilp_solves"],
            "gen_ms": made["gen_ms"],
            "created_at": dt.datetime.now(dt.UTC),
            "numplace_version": __version__,
            "attempts": made["attempts"],
            "difficulty": made["difficulty"],
            "difficulty_score": made["difficulty_score"],
            "techniques": made["techniques"],
            "logic_steps": made["logic_steps"],
            "grid_number": str(numbering.grid_number(made["solution"])) if b.n == 9 else None,  # type: ignore[arg-type]
            "canonical_puzzle": canon.canonical_key(made["puzzle"]) if b.n != 16 else None,  # type: ignore[arg-type]
        }
        problems = verify.verify_row(row)
        if not made["certified"]:
            problems.append("ILP certification failed: the no-good solve found a second solution")
        if spec.fixed is not None and any(d and format_line((d,)) != row["solution"][k]
                                          for k, d in enumerate(spec.fixed)):
            problems.append("solution does not contain the fixed cells")
        base = {"index": i, "attempts": made["attempts"], "timeouts": made["timeouts"], "rss_mb": _rss_mb(),
                "rejected": made["rejected"]}
        if problems:
            out.append({**base, "failure": "; ".join(problems), "kind": "verification",
                        "puzzle": row["puzzle"]})
        else:
            out.append({**base, "row": row})
    return out


def stream(cfg: Config, chunk: int = 8) -> Iterator[dict[str, Any]]:
    """Make ``cfg``'s puzzles without writing anything: the items of :func:`make_rows`, in index
    order (``numplace generate``). Same seeds, engine and verification as :func:`run`."""
    preflight(cfg)
    chash = config_hash(cfg)
    spec = spec_of(cfg)
    workers = worker_count(cfg.workers)
    chunks = [list(range(j, min(j + chunk, cfg.count))) for j in range(0, cfg.count, chunk)]
    par = Parallel(n_jobs=max(1, min(workers, len(chunks))), backend="loky", return_as="generator", batch_size=1)
    for items in par(delayed(make_rows)(spec, cfg.name, chash, cfg.seed, idx) for idx in chunks):
        yield from items


def _rss_mb() -> float:
    """Peak resident memory of this process so far, MB (Linux reports ru_maxrss in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _versions() -> dict[str, str]:
    out = {"numplace": __version__, "python": platform.python_version()}
    for dist in ("pyomo", "highspy", "polars", "joblib", "typer", "pydantic", "numpy", "pyyaml"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = "absent"
    return out


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


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


def preflight(cfg: Config) -> None:
    """Checks that need the engine, done before any output exists (raises ConfigError)."""
    if cfg.board.size == 9:  # build or load the numbering and canon tables once, before the workers
        numbering.tables()
        canon.tables()
    fixed = cfg.fixed_grid
    if fixed is not None:
        why = generate.fixed_cells_problem(cfg.board.size, fixed)
        if why:
            raise ConfigError(f"grid.fixed: {why}")


def run(cfg: Config, resume: Path | None = None, progress: Progress | None = None,
        log: Log | None = None) -> RunSummary:
    """Make the set ``cfg`` describes (or finish the run in ``resume``); return a summary.

    Raises :class:`ConfigError` or :class:`RunError` before writing anything for user mistakes.
    """
    say = log or (lambda _msg: None)
    chash = config_hash(cfg)
    if resume is not None:
        manifest = store.read_manifest(resume)
        if manifest.get("config_hash") != chash:
            raise RunError(
                f"{resume}: this run was made from another config (hash {manifest.get('config_hash')}, "
                f"yours is {chash}); pass the same config and --count/--seed flags as the first time"
            )
        run_dir = resume
        removed = store.clean_temp(run_dir)
        if removed:
            say(f"removed {removed} unfinished temp file(s) left by the interrupted run")
    else:
        preflight(cfg)
        run_dir = _new_run_dir(cfg, chash)
        manifest = {
            "numplace_version": __version__,
            "run_id": run_dir.name,
            "set_name": cfg.name,
            "config_hash": chash,
            "config": cfg.model_dump(mode="json"),
            "status": "running",
            "count": cfg.count,
            "shard_size": cfg.output.shard_size,
            "created_at": _now(),
            "versions": _versions(),
            "shards": {},
            "catalog_snapshot": store.catalog_files(Path(cfg.output.dir)) if cfg.dedup.catalog else [],
        }
        store.write_manifest(run_dir, manifest)

    size = cfg.output.shard_size
    nshards = math.ceil(cfg.count / size)
    done = store.done_shards(run_dir) & set(range(nshards))
    pending = [k for k in range(nshards) if k not in done]
    shard_stats: dict[str, Any] = {k: v for k, v in manifest.get("shards", {}).items() if int(k) in done}
    written_before = sum(v.get("rows", 0) for v in shard_stats.values())
    if resume is not None:
        say(f"resuming {run_dir}: {len(done)} of {nshards} part(s) already written")

    workers = worker_count(cfg.workers)
    todo = sum(min(size, cfg.count - k * size) for k in pending)
    chunk = max(1, min(25, math.ceil(todo / (workers * 4)))) if todo else 1
    tasks: list[tuple[int, list[int]]] = []
    for k in pending:
        idx = list(range(k * size, min((k + 1) * size, cfg.count)))
        tasks += [(k, idx[j:j + chunk]) for j in range(0, len(idx), chunk)]
    spec = spec_of(cfg)

    t0 = time.perf_counter()
    manifest["status"] = "running"
    manifest.setdefault("sessions", []).append({"started": _now(), "workers": workers, "resumed": resume is not None})
    store.write_manifest(run_dir, manifest)
    results: dict[int, list[dict[str, Any]]] = {k: [] for k in pending}
    outstanding = {k: sum(1 for s, _ in tasks if s == k) for k in pending}
    done_count = sum(min(size, cfg.count - k * size) for k in done)
    if progress:
        progress(done_count, cfg.count)
    failures: list[dict[str, Any]] = [f for v in shard_stats.values() for f in v.get("failures", [])]
    written = written_before

    jobs = (delayed(make_rows)(spec, cfg.name, chash, cfg.seed, idx) for _, idx in tasks)
    n_jobs = max(1, min(workers, len(tasks)))
    par = Parallel(n_jobs=n_jobs, backend="loky", return_as="generator_unordered", batch_size=1)
    shard_of = {idx[0]: k for k, idx in tasks}
    peak = 0.0
    dedup = Dedup(cfg, chash, spec, _seen_keys(cfg, run_dir, manifest), workers)
    ready: dict[int, list[dict[str, Any]]] = {}
    order = iter(pending)
    next_k = next(order, None)
    for chunk_out in par(jobs) if tasks else ():
        peak = max([peak, *(it.get("rss_mb", 0.0) for it in chunk_out)])
        k = shard_of[chunk_out[0]["index"]]
        results[k].extend(chunk_out)
        outstanding[k] -= 1
        done_count += len(chunk_out)
        if outstanding[k] == 0:
            ready[k] = results.pop(k)
        # parts are finished in index order, so duplicates resolve the same way for any worker count
        while next_k is not None and next_k in ready:
            items = dedup.resolve(ready.pop(next_k), say)
            written += _finish_shard(run_dir, manifest, next_k, items, failures, say)
            manifest["shards"][str(next_k)]["dedup_replaced"] = dedup.replaced_in_last
            store.write_manifest(run_dir, manifest)
            next_k = next(order, None)
        if progress:
            progress(done_count, cfg.count)
    _write_catalog(cfg, run_dir)

    seconds = time.perf_counter() - t0
    manifest["status"] = "complete" if not failures and written == cfg.count else "incomplete"
    manifest["finished_at"] = _now()
    manifest["sessions"][-1].update(finished=_now(), seconds=round(seconds, 3), worker_peak_rss_mb=round(peak, 1),
                                    made=done_count - sum(min(size, cfg.count - k * size) for k in done))
    manifest["totals"] = _totals(manifest, cfg.count)
    store.write_manifest(run_dir, manifest)
    return RunSummary(run_dir, cfg.count, written, failures, seconds, len(done))


def _seen_keys(cfg: Config, run_dir: Path, manifest: dict[str, Any]) -> set[str]:
    """Dedup keys already taken: the catalog snapshot of the run's start, plus the parts written."""
    own = store.catalog_name(cfg.name, run_dir.name)
    names = [n for n in manifest.get("catalog_snapshot", []) if n != own]
    seen = store.catalog_keys(Path(cfg.output.dir), names)
    parts = sorted(run_dir.glob("part-*.parquet"))
    if parts:
        frame = store.read_parts(parts)
        seen.update(_keys_of(frame.to_dicts()))
    return seen


def _key(row: dict[str, Any]) -> str:
    return str(row["canonical_puzzle"] or row["puzzle"])


def _keys_of(rows: list[dict[str, Any]]) -> list[str]:
    return [_key(r) for r in rows]


class Dedup:
    """Replaces puzzles whose dedup key is already taken (catalog snapshot or an earlier index).

    Per part, in rounds: keys are accepted in index order; every index still clashing gets its
    next redraw (seed from index and redraw number), made in parallel; repeat up to
    ``dedup.max_redraws``. The outcome depends only on the data, never on the worker count.
    """

    def __init__(self, cfg: Config, chash: str, spec: generate.Spec, seen: set[str], workers: int = 1) -> None:
        self.cfg, self.chash, self.spec, self.seen, self.workers = cfg, chash, spec, seen, workers
        self.replaced_in_last = 0

    def resolve(self, items: list[dict[str, Any]], say: Log) -> list[dict[str, Any]]:
        by_index = {it["index"]: it for it in items}
        clashing = [i for i in sorted(by_index) if not self._accept(by_index[i])]
        replaced = set(clashing)
        for redraw in range(1, self.cfg.dedup.max_redraws + 1):
            if not clashing:
                break
            jobs = (delayed(make_rows)(self.spec, self.cfg.name, self.chash, self.cfg.seed, [i], redraw)
                    for i in clashing)
            fresh = Parallel(n_jobs=max(1, min(self.workers, len(clashing))), backend="loky")(jobs)
            for i, (new,) in zip(clashing, fresh, strict=True):
                new["attempts"] += by_index[i]["attempts"]
                by_index[i] = new
            clashing = [i for i in clashing if not self._accept(by_index[i])]
        for i in clashing:
            it = by_index[i]
            by_index[i] = {"index": i, "kind": "duplicate", "attempts": it["attempts"], "timeouts": it["timeouts"],
                           "rejected": {}, "failure": f"still a duplicate after {self.cfg.dedup.max_redraws} redraws: "
                           "the set has run out of distinct puzzles (see numplace catalog)"}
        self.replaced_in_last = len(replaced) - len(clashing)
        return [by_index[i] for i in sorted(by_index)]

    def _accept(self, item: dict[str, Any]) -> bool:
        """True (and the key taken) unless the item is a row whose key is already taken."""
        if "row" not in item:
            return True
        key = _key(item["row"])
        if key in self.seen:
            return False
        self.seen.add(key)
        return True


def _write_catalog(cfg: Config, run_dir: Path) -> None:
    """Record this run's keys in the catalog of the output root (one file per run, by rename)."""
    parts = sorted(run_dir.glob("part-*.parquet"))
    rows = store.read_parts(parts).to_dicts() if parts else []
    store.write_catalog(Path(cfg.output.dir), cfg.name, run_dir.name, [
        {"key": _key(r), "size": r["size"], "set_name": r["set_name"], "run_id": run_dir.name,
         "puzzle_id": r["puzzle_id"]} for r in rows])


def _finish_shard(run_dir: Path, manifest: dict[str, Any], k: int, items: list[dict[str, Any]],
                  failures: list[dict[str, Any]], say: Log) -> int:
    """Write shard ``k``: stats into the manifest first, then the part file (by rename)."""
    items.sort(key=lambda it: it["index"])
    rows = [it["row"] for it in items if "row" in it]
    bad: list[dict[str, Any]] = [{key: it[key] for key in ("index", "kind", "failure", "puzzle") if key in it}
           for it in items if "failure" in it]
    for f in bad:
        say(f"puzzle {f['index']}: {f['kind']} failed: {f['failure']}")
    failures.extend(bad)
    manifest["shards"][str(k)] = {
        "rows": len(rows),
        "attempts": sum(it["attempts"] for it in items),
        "timeouts": sum(it["timeouts"] for it in items),
        "ilp_solves": sum(r["ilp_solves"] for r in rows),
        "gen_ms": round(sum(r["gen_ms"] for r in rows), 3),
        "failures": bad,
        "rejected": _sum_counts(it.get("rejected", {}) for it in items),
        "levels": _sum_counts({r["difficulty"]: 1} for r in rows),
    }
    store.write_manifest(run_dir, manifest)
    store.write_part(run_dir, k, rows)
    return len(rows)


def _totals(manifest: dict[str, Any], count: int) -> dict[str, Any]:
    shards = manifest["shards"].values()
    fails = [f for s in shards for f in s["failures"]]
    puzzles = sum(s["rows"] for s in shards)
    attempts = sum(s["attempts"] for s in shards)
    return {
        "requested": count,
        "puzzles": puzzles,
        "attempts": attempts,
        "extra_grids": attempts - puzzles - len(fails),
        "timeouts": sum(s["timeouts"] for s in shards),
        "ilp_solves": sum(s["ilp_solves"] for s in shards),
        "generation_failures": sum(1 for f in fails if f["kind"] == "generation"),
        "duplicate_failures": sum(1 for f in fails if f["kind"] == "duplicate"),
        "duplicates_replaced": sum(s.get("dedup_replaced", 0) for s in shards),
        "verification_failures": sum(1 for f in fails if f["kind"] == "verification"),
        "gen_seconds": round(sum(s["gen_ms"] for s in shards) / 1000.0, 3),
        "difficulty_rejections": _sum_counts(s.get("rejected", {}) for s in shards),
        "levels": _sum_counts(s.get("levels", {}) for s in shards),
    }


def _sum_counts(counts: Iterable[dict[str, int]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in counts:
        for k, v in c.items():
            out[k] = out.get(k, 0) + v
    return out


def default_log(msg: str) -> None:
    print(f"numplace: {msg}", file=sys.stderr)
