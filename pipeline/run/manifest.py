"""A run's ``_manifest.json`` and its only writer, :class:`Manifest`.

The manifest says what the run is (config and its hash, versions, shard size, the first index
``start`` of its range of the set, the catalog snapshot it dedups against), how far it got
(``status``, see :data:`STATUSES`; one entry per finished shard under ``shards``) and what it cost
(``sessions``, ``totals``). Each change is saved at once, whole, by rename; the stats of a shard are
saved *before* its part file appears, so a part on disk always has its stats in the manifest (resume
relies on it). A complete run also gets an empty ``_SUCCESS`` file (the Hive/Spark convention).

Runs written before the underscore names have ``manifest.json``: it is still read, and a resumed old
run keeps writing it there.

Every reader that acts on a manifest (resume, a new run, ``runs``) reads it through the one schema of
:mod:`pipeline.run.manifest_schema` and refuses a damaged one in one line; ``check`` reads it leniently
and reports what the schema finds.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import stat
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path
from typing import Any

from pipeline import __version__
from pipeline.atomic import atomic_write
from pipeline.difficulty.techniques import GRADER_VERSION
from pipeline.run.layout import MANIFEST, OLD_MANIFEST, SUCCESS, manifest_path
from pipeline.run.store import StoreError

#: ``running``: being made (or killed: resume it); ``complete``: every index has a verified puzzle;
#: ``incomplete``: finished with failures (``--resume`` does not retry them); ``partial``: stopped
#: by ``--max-minutes`` with whole parts, resumable; ``interrupted``: Ctrl-C or SIGTERM, resumable.
STATUSES = ("running", "complete", "incomplete", "partial", "interrupted")
#: Statuses of a run that stopped before its range was made (``running`` once no process holds the
#: set's lock: killed): ``--resume`` finishes it, and the next plain run of the set does so first.
UNFINISHED = ("running", "partial", "interrupted")


def now() -> str:
    """The current UTC time as the manifest writes it (ISO 8601, seconds)."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def read_manifest(run_dir: Path, strict: bool = False) -> dict[str, Any]:
    """The manifest of ``run_dir`` as a mapping; raises :class:`StoreError` naming the file. With
    ``strict`` it must follow :mod:`pipeline.run.manifest_schema` too (one line naming the field)."""
    path = manifest_path(run_dir)
    if path is None:
        raise StoreError(f"{run_dir}: not a numplace run folder (no {MANIFEST})")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise StoreError(f"{path}: unreadable manifest ({exc})") from None
    if not isinstance(data, dict) or "config" not in data:
        raise StoreError(f"{path}: not a numplace manifest (no config)")
    for key, kind in (("shards", dict), ("count", int), ("config", dict), ("from_stock", list),
                      ("catalog_snapshot", list), ("published_parts", list), ("generator", dict)):
        if key in data and not isinstance(data[key], kind):
            raise StoreError(f"{path}: damaged manifest ({key} is a {type(data[key]).__name__}, not a {kind.__name__})")
    from pipeline.run.manifest_schema import manifest_problem  # pydantic models: built when a manifest is read

    problem = manifest_problem(data) if strict else None
    if problem is not None:
        raise StoreError(f"{path}: damaged manifest ({problem}); restore it from a backup, or move the run folder "
                         f"out of the output root")
    return data


def _versions() -> dict[str, str]:
    out = {"numplace": __version__, "python": platform.python_version()}
    for dist in ("pyomo", "highspy", "polars", "joblib", "typer", "pydantic", "numpy", "pyyaml", "numba", "dask",
                 "distributed"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = "absent"
    return out


class Manifest:
    """The manifest of one run folder; every method that changes it saves it."""

    def __init__(self, run_dir: Path, data: dict[str, Any], name: str = MANIFEST) -> None:
        self.run_dir = run_dir
        self._data = data
        self._name = name

    @classmethod
    def create(cls, run_dir: Path, *, set_name: str, config_hash: str, config: dict[str, Any], start: int,
               count: int, shard_size: int, catalog_snapshot: list[str],
               from_stock: list[dict[str, Any]] | None = None,
               published_parts: list[str] | None = None, generator: dict[str, Any] | None = None,
               grader_version: int = GRADER_VERSION) -> Manifest:
        """The manifest of a new run in the (new, empty) folder ``run_dir``, saved; ``generator`` is the
        set's generator record (:mod:`pipeline.generate.version`), optional; ``grader_version`` the
        grading rules its puzzles are graded by (the set's, :func:`pipeline.run.plan.set_grader`)."""
        m = cls(run_dir, {
            "numplace_version": __version__,
            "run_id": run_dir.name,
            "set_name": set_name,
            "config_hash": config_hash,
            "config": config,
            "status": "running",
            "start": start,
            "count": count,
            "shard_size": shard_size,
            "created_at": now(),
            "versions": _versions(),
            "shards": {},
            "catalog_snapshot": catalog_snapshot,
            "published_parts": published_parts or [],
            "from_stock": from_stock or [],
            **({"generator": dict(generator)} if generator is not None else {}),
            "grader_version": grader_version,
        })
        m._save()
        return m

    @classmethod
    def read(cls, run_dir: Path, strict: bool = True) -> Manifest:
        """The manifest of an existing run (raises :class:`StoreError`), through the manifest's
        schema unless ``strict`` is False (``check``, which reports what the schema finds)."""
        data = read_manifest(run_dir, strict)
        path = manifest_path(run_dir)
        return cls(run_dir, data, path.name if path is not None else MANIFEST)

    @property
    def legacy(self) -> bool:
        """Whether this is the manifest of a run written before the underscore names (its file is
        ``manifest.json``): the one mark of a legacy run. Only such a run may have parts without a
        recorded ``sha256``, parts without ``numplace.*`` metadata, and no ``_SUCCESS``."""
        return self._name == OLD_MANIFEST

    @property
    def config_hash(self) -> str | None:
        return self._data.get("config_hash")

    @property
    def grader_version(self) -> int:
        """The grading rules the run's rows were graded by (:data:`~pipeline.difficulty.techniques.GRADER_VERSION`);
        1 for a run whose manifest predates the field."""
        v = self._data.get("grader_version")
        return v if isinstance(v, int) and not isinstance(v, bool) else 1

    @property
    def generator(self) -> dict[str, Any] | None:
        """The set's generator record (``version``, ``grid_method``) as the run saved it; None for runs
        made before records existed (:mod:`pipeline.generate.version`)."""
        rec = self._data.get("generator")
        return dict(rec) if isinstance(rec, dict) else None

    @property
    def start(self) -> int:
        """The first index of the run's range (0 for runs written before sets grew run by run)."""
        return int(self._data.get("start", 0))

    @property
    def count(self) -> int:
        return int(self._data["count"])

    @property
    def set_name(self) -> str | None:
        return self._data.get("set_name")

    @property
    def shard_size(self) -> int | None:
        """Indices per part (from the config for manifests without ``shard_size``; None if neither says)."""
        out = self._data["config"].get("output")
        size = self._data.get("shard_size", out.get("shard_size") if isinstance(out, dict) else None)
        return size if isinstance(size, int) and size > 0 else None

    @property
    def config(self) -> dict[str, Any]:
        """A copy of the config the run was made from, as saved (``Config.model_dump(mode="json")``)."""
        return json.loads(json.dumps(self._data["config"]))

    @property
    def totals(self) -> dict[str, Any] | None:
        """The totals saved when the run last stopped or finished (None before that)."""
        totals = self._data.get("totals")
        return dict(totals) if isinstance(totals, dict) else None

    @property
    def shards(self) -> dict[str, Any]:
        """The shard records as saved, keyed by shard number as a string (values not checked)."""
        return dict(self._data.get("shards", {}))

    @property
    def status(self) -> str:
        return str(self._data.get("status"))

    @property
    def data(self) -> dict[str, Any]:
        """A copy of the manifest as saved (for readers such as ``numplace runs``)."""
        return json.loads(json.dumps(self._data, default=str))

    @property
    def from_stock(self) -> list[dict[str, Any]]:
        """Stock puzzles this run places at its first indices (index, seed, file)."""
        return [dict(p) for p in self._data.get("from_stock", [])]

    @property
    def catalog_snapshot(self) -> list[str]:
        """Catalog files present when the run started: the run dedups against exactly these (and
        :attr:`published_parts`)."""
        return list(self._data.get("catalog_snapshot", []))

    @property
    def published_parts(self) -> list[str]:
        """Part files (relative to the output root) of runs that had no catalog entry when this run
        started (being made, or killed and never resumed): published too, so deduped against."""
        return list(self._data.get("published_parts", []))

    def shard_stats(self, shards: Iterable[int]) -> dict[int, dict[str, Any]]:
        """The recorded stats of ``shards`` (those without a record are left out)."""
        recorded = self._data.get("shards", {})
        return {k: recorded[str(k)] for k in shards if str(k) in recorded}

    def start_session(self, workers: int, resumed: bool) -> None:
        """Mark the run ``running`` and open a session entry (one per start or resume)."""
        self._data["status"] = "running"
        self._data.setdefault("sessions", []).append({"started": now(), "workers": workers, "resumed": resumed})
        self._save()

    def record_shard(self, shard: int, stats: dict[str, Any]) -> None:
        """Record a finished shard's stats and save the manifest; call before its part file appears
        (the run passes this as :func:`pipeline.run.store.write_part`'s ``before_rename``, so the stats
        hold the part's ``rows`` and the ``sha256`` of its bytes). Runs written before parts were
        hashed have records without ``sha256``."""
        self._data["shards"][str(shard)] = stats
        self._save()

    def finish(self, count: int, session: dict[str, Any], stopped: str | None = None) -> str:
        """Close the session (``session`` adds to its entry), set the totals and the status; returns
        the status: ``stopped`` (``partial`` or ``interrupted``) when the run was cut short, else
        ``complete`` when every index has a verified puzzle (and ``_SUCCESS`` is written), else
        ``incomplete``."""
        totals = _totals(self._data["shards"].values(), count)
        failed = sum(totals[k] for k in ("generation_failures", "duplicate_failures", "verification_failures"))
        status = stopped or ("complete" if not failed and totals["puzzles"] == count else "incomplete")
        self._data["status"] = status
        self._data["finished_at"] = now()
        self._data["sessions"][-1].update(finished=now(), **session)
        self._data["totals"] = totals
        self._save()
        if status == "complete":
            atomic_write(self.run_dir / SUCCESS, lambda tmp: None)
        return status

    def _save(self) -> None:
        text = json.dumps(self._data, indent=2, sort_keys=False, default=str) + "\n"
        atomic_write(self.run_dir / self._name, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def restore_success(m: Manifest) -> bool:
    """Write the ``_SUCCESS`` of a ``complete`` run that lacks it (a process stopped between saving the
    manifest as complete and writing the file); returns whether it did. Legacy runs may lack it."""
    if m.status != "complete" or m.legacy or (m.run_dir / SUCCESS).exists():
        return False
    atomic_write(m.run_dir / SUCCESS, lambda tmp: None)
    return True


#: The manifests :func:`runs_of` read in this process: file -> ((size, mtime_ns, inode), manifest). A
#: manifest file is replaced only by rename (a new inode), and a :class:`Manifest` changes only by
#: saving itself, so an equal stamp means the manifest read before is the file's: a run reads its
#: set's manifests (one per night: thousands after some years) from disk once, not once per step of
#: its start.
_READ: dict[Path, tuple[tuple[int, int, int], Manifest]] = {}


def _read_run(run_dir: Path) -> Manifest | None:
    """:meth:`Manifest.read` of ``run_dir`` (None: no manifest), from :data:`_READ` when the file is
    the one read before."""
    for path in (run_dir / MANIFEST, run_dir / OLD_MANIFEST):  # as manifest_path, with one stat
        try:
            st = path.stat()
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode):
            break
    else:
        return None
    stamp = (st.st_size, st.st_mtime_ns, st.st_ino)
    seen = _READ.get(path)
    if seen is not None and seen[0] == stamp:
        return seen[1]
    m = Manifest.read(run_dir)  # the stamp was taken first: a file replaced meanwhile is only read again
    _READ[path] = (stamp, m)
    return m


def runs_of(set_dir: Path) -> list[Manifest]:
    """The runs of the set folder ``set_dir`` (folders with a manifest), oldest first by start
    index, then run id. A folder hidden by hand (``_old``, ``.old``) is a run too when it holds a
    manifest: the globs of polars and duckdb read it (a ``.<run_id>.tmp`` folder in the making holds
    its run folder, not a manifest, and is never one). A damaged manifest raises :class:`StoreError`
    naming it."""
    try:
        with os.scandir(set_dir) as it:  # the type from the listing: no stat per folder
            dirs = sorted(e.name for e in it if not e.name.endswith(".tmp") and e.is_dir())
    except OSError:
        return []
    found = [m for d in dirs if (m := _read_run(set_dir / d)) is not None]
    return sorted(found, key=lambda m: (m.start, m.run_dir.name))


def unfinished_runs(set_dir: Path) -> list[Manifest]:
    """The runs of ``set_dir`` that stopped before their range was made (:data:`UNFINISHED`), oldest
    first. A ``running`` one may still be being made: only the holder of the set's lock knows."""
    return [m for m in runs_of(set_dir) if m.status in UNFINISHED]


def next_index(set_dir: Path) -> int:
    """The first index a new run of the set gets: one past the highest range any run has taken
    (finished or not: an interrupted run keeps its range for ``--resume``)."""
    return max((m.start + m.count for m in runs_of(set_dir)), default=0)


def _totals(shards: Iterable[dict[str, Any]], count: int) -> dict[str, Any]:
    shards = list(shards)
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
        "stocked": sum(s.get("stocked", 0) for s in shards),
        "verification_failures": sum(1 for f in fails if f["kind"] == "verification"),
        "gen_seconds": round(sum(s["gen_ms"] for s in shards) / 1000.0, 3),
        "difficulty_rejections": sum_counts(s.get("rejected", {}) for s in shards),
        "levels": sum_counts(s.get("levels", {}) for s in shards),
    }


def sum_counts(counts: Iterable[dict[str, int]]) -> dict[str, int]:
    """Add up mappings of counts key by key (keys in order of first appearance)."""
    out: dict[str, int] = {}
    for c in counts:
        for k, v in c.items():
            out[k] = out.get(k, 0) + v
    return out

