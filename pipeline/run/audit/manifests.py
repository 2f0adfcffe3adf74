"""The runs a path stands for, and each run's manifest against itself and against its part files.

:func:`runs_at` turns a set folder, a run folder or one part file into the :class:`Run` records the
audit walks (a missing path, or one that is none of these, raises
:class:`~pipeline.run.store.StoreError`). :func:`run_problems` then checks a whole run folder: it must
have a manifest; the manifest agrees with itself (``count`` equals its config's count;
``config_hash`` is the hash of its config; the totals add up the shard records and the count) and
with the parts (status ``complete``, with ``_SUCCESS`` exactly then, which a legacy run may lack;
every part of the run's range recorded and present; the parts hold ``count`` puzzles; what else
lies beside the parts is :mod:`.strays`' finding). :func:`overlaps` finds two runs of a set sharing
an index. Every problem is a finding line naming the run.
"""

from __future__ import annotations

import contextlib
import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.config import hash_of
from pipeline.run import store
from pipeline.run.audit.design import RunDesign
from pipeline.run.layout import MANIFEST, PART_GLOB, SUCCESS, manifest_path, part_name, parts_in, reserved
from pipeline.run.manifest import Manifest
from pipeline.run.manifest_schema import manifest_problem

#: Statuses after which a run changes no more (every shard of its range is recorded and written).
_FINAL = ("complete", "incomplete")


@dataclass
class Run:
    """One run folder as audited: its manifest (None if it has none) and the part files looked at;
    ``whole`` is False when only one part file of it was given."""

    run_dir: Path
    manifest: Manifest | None
    parts: list[Path]
    whole: bool = True

    @property
    def label(self) -> str:
        return f"run {self.run_dir.name}"


def runs_at(path: Path) -> list[Run]:
    """The runs ``path`` stands for: one part file (with its folder's manifest, if any), one run
    folder (a folder with a manifest or part files), or the run folders of a set folder."""
    if not path.exists():
        raise store.StoreError(f"{path}: no such file or folder")
    if path.is_file():
        if path.suffix != ".parquet":
            raise store.StoreError(f"{path}: not a Parquet file")
        folder = path.parent
        return [Run(folder, Manifest.read(folder, strict=False) if manifest_path(folder) is not None else None, [path],
                    False)]
    runs = [_run_of(d) for d in sorted(path.iterdir())
            if d.is_dir() and not reserved(d.name) and (manifest_path(d) is not None or parts_in(d))]
    runs += _hidden_runs(path, runs)
    if manifest_path(path) is not None or (parts_in(path) and not runs):
        return [_run_of(path)]  # a run folder (a set folder with a stray part file is still a set folder)
    if not runs:
        raise store.StoreError(f"{path}: not a set, run folder or part file (no {PART_GLOB} files or "
                               f"{MANIFEST} here or in its run folders)")
    return sorted(runs, key=lambda r: (r.manifest is None, r.manifest.start if r.manifest else 0, r.run_dir.name))


def _hidden_runs(set_dir: Path, visible: list[Run]) -> list[Run]:
    """Run folders of ``set_dir`` under a reserved name (``_hidden``, ``.old``) that are no copy of a
    visible run: pandas and pyarrow skip them, but the polars and duckdb globs
    (``<set>/*/part-*.parquet``) read their parts, so the audit checks them as what those readers see
    (and :mod:`.strays` names the folder)."""
    known = {r.run_dir.name for r in visible} | {str(r.manifest.data.get("run_id")) for r in visible
                                                 if r.manifest is not None}
    out = []
    for d in sorted(set_dir.iterdir()):
        if not (d.is_dir() and reserved(d.name) and manifest_path(d) is not None and parts_in(d)):
            continue
        run = _run_of(d)
        if run.manifest is not None and str(run.manifest.data.get("run_id", d.name)) not in known:
            out.append(run)
    return out


def _run_of(run_dir: Path) -> Run:
    m = Manifest.read(run_dir, strict=False) if manifest_path(run_dir) is not None else None
    return Run(run_dir, m, parts_in(run_dir))


def part_label(run: Run, part: Path) -> str:
    """How findings name a part file: ``<run_id>/part-00000.parquet``."""
    return f"{run.run_dir.name}/{part.name}"


def config_digest(config: Mapping[str, Any]) -> str | None:
    """:func:`pipeline.config.hash_of` (the one recipe) of the config a manifest saved; None if the
    saved config is not a mapping that recipe can read (then nothing can be compared). The saved dict
    is hashed as it is: validating it again would add the defaults of newer keys."""
    try:
        return hash_of(config)
    except (AttributeError, KeyError, TypeError, ValueError):
        return None


def redraw_rounds(config: Mapping[str, Any]) -> int:
    """The most redraws any index of a run of ``config`` may have had: ``dedup.max_redraws``, or
    ``difficulty.max_attempts`` for a quota run (the larger, so no legitimate seed is refused)."""
    out = 50
    dedup = config.get("dedup")
    if isinstance(dedup, dict) and isinstance(dedup.get("max_redraws"), int):
        out = dedup["max_redraws"]
    diff = config.get("difficulty")
    if isinstance(diff, dict) and diff.get("quota") and isinstance(diff.get("max_attempts"), int):
        out = max(out, diff["max_attempts"])
    return out


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def run_problems(run: Run, held: dict[int, int]) -> list[str]:
    """What a whole run folder's manifest says against itself and against the part files present
    (``held``: shard -> rows, -1 for an unreadable part)."""
    m = run.manifest
    if m is None:
        return [f"{run.run_dir}: {len(run.parts)} part file(s) but no manifest ({MANIFEST}): not a whole numplace "
                "run (its count, config and part checksums cannot be checked)"]
    success = (run.run_dir / SUCCESS).exists()
    if m.status != "complete" and success:  # read before the run finished, _SUCCESS after: read it again
        with contextlib.suppress(store.StoreError, OSError, ValueError):
            m = Manifest.read(run.run_dir, strict=False)
    out = _manifest_problems(m, run.label)
    out += _coverage(m, run.label, held)
    name, count = run.label, m.count
    if m.status == "complete" and not success and not m.legacy:
        out.append(f"{name} is complete but has no {SUCCESS} file, which readers of finished runs look for "
                   f"(restore it: touch {run.run_dir / SUCCESS})")
    elif m.status != "complete" and success:
        out.append(f"{name} is {m.status} but has a {SUCCESS} file: readers would take it for complete")
    held_rows = sum(v for v in held.values() if v > 0)
    if m.status == "complete" and held_rows != count:
        which = "readable parts" if -1 in held.values() else "parts"
        out.append(f"{name}: manifest says {count} puzzles, the {which} hold {held_rows}")
    elif m.status == "incomplete":
        out.append(f"{name} finished with failures: {held_rows} of {count} puzzles written (failed puzzles "
                   f"are not retried by --resume; see its manifest)")
    elif m.status != "complete":
        out.append(f"{name} is {m.status}: {held_rows} of {count} puzzles written; finish it with "
                   f"numplace run CONFIG --resume {m.run_dir}")
    return out


def _records(m: Manifest) -> dict[int, dict[str, Any]]:
    """The manifest's shard records that are records of a part (a number, a mapping)."""
    return {int(k): v for k, v in m.shards.items() if k.isdigit() and isinstance(v, dict)}


def _manifest_problems(m: Manifest, name: str) -> list[str]:
    """The manifest against itself: its count and its config's, its config_hash and its config, the
    totals and the shard records (once the run has stopped: a running run's totals are stale)."""
    out: list[str] = []
    problem = manifest_problem(m.data)
    if problem is not None:
        out.append(f"{name}: damaged manifest ({problem})")
    cfg, count = m.config, m.count
    if _int(cfg.get("count")) is not None and cfg["count"] != count:
        out.append(f"{name}: the manifest's count is {count}, its config's count is {cfg['count']}")
    try:
        RunDesign.of(cfg)
    except ValueError as exc:
        out.append(f"{name}: the manifest's config has {exc}; its designed grids and patterns are not checked")
    digest = config_digest(cfg)
    if digest is not None and m.config_hash != digest:
        out.append(f"{name}: the manifest's config_hash {m.config_hash} is not the hash of its config ({digest})")
    records = _records(m)
    for key in sorted(set(m.shards) - {str(k) for k in records}):
        out.append(f"{name}: the manifest has a shard record {key!r} that is not a part's")
    totals = m.totals
    if totals is not None and m.status != "running":
        rec_rows = sum(_int(v.get("rows")) or 0 for v in records.values())
        if "requested" in totals and totals["requested"] != count:
            out.append(f"{name}: the totals say {totals.get('requested')} puzzles requested, the manifest's count "
                       f"is {count}")
        if "puzzles" in totals and totals["puzzles"] != rec_rows:
            out.append(f"{name}: the totals say {totals.get('puzzles')} puzzles written, the shard records add "
                       f"up to {rec_rows}")
    return out


def _coverage(m: Manifest, name: str, held: dict[int, int]) -> list[str]:
    """The parts of the run's range against the records and the files: nothing beyond the range; and
    once the run is final, every part recorded, present, and accounting for each of its indices."""
    size, count = m.shard_size, m.count
    if not size:
        return []
    nshards = math.ceil(count / size)
    span = f"{count} puzzles in parts 0-{nshards - 1}" if nshards else "no puzzles"
    records = _records(m)
    out = [f"{name}: the manifest records part {k}, beyond the run's range ({span})" for k in sorted(records)
           if k >= nshards]
    out += [f"{name}: {part_name(k)} is beyond the run's range ({span})" for k in sorted(held) if k >= nshards]
    if m.status not in _FINAL:
        return out  # a run still to be resumed may lack parts and may hold records of parts not renamed yet
    for k in range(nshards):
        rec = records.get(k)
        if rec is None:
            where = "is" if k in held else "is missing and"
            out.append(f"{name}: {part_name(k)} {where} not recorded in the manifest (a {m.status} run records "
                       f"every part: {span})")
            continue
        made, failed = _int(rec.get("rows")), rec.get("failures")
        if k not in held:
            out.append(f"{name}: the manifest records {part_name(k)} ({made} puzzles) but the file is missing; "
                       f"numplace run CONFIG --resume {m.run_dir} makes it again exactly (from the same seeds)")
        want = min(size, count - k * size)
        if made is not None and isinstance(failed, list) and made + len(failed) != want:
            out.append(f"{name}: {part_name(k)} is recorded with {made} puzzles and {len(failed)} failures "
                       f"for its {want} indices")
    return out


def overlaps(found: Iterable[Run]) -> list[str]:
    """Runs of one set whose index ranges overlap (an index is issued once, ever)."""
    runs = [r for r in found if r.whole and r.manifest is not None]
    sets = Counter(r.manifest.set_name for r in runs if r.manifest is not None and r.manifest.set_name)
    home = sets.most_common(1)[0][0] if sets else None

    def called(r: Run) -> str:
        other = r.manifest.set_name if r.manifest is not None else None
        return f"{r.run_dir.name} (a run of set {other}, not of this set)" if other and other != home else \
            r.run_dir.name

    ranges = sorted((r.manifest.start, r.manifest.start + r.manifest.count, called(r))
                    for r in runs if r.manifest is not None)
    out = []
    end, last = 0, ""  # the furthest index range seen so far ends at ``end`` (run ``last``)
    for start, stop, name in ranges:
        if last and start < end:
            out.append(f"runs {last} and {name} overlap: both have indices from {start} to {min(end, stop) - 1}")
        if stop > end:
            end, last = stop, name
    return out
