"""A set's history against what its folder holds now: gaps in its ids, runs deleted by hand, runs
that disagree on the keys that define a set.

A set issues every index once, run after run, from 0 up (:mod:`pipeline.run.plan`), so the indices
its runs hold should be ``0 .. N-1`` with no hole. Two things still know a run folder that someone
deleted: the other runs' ranges (a range missing between them) and the run's catalog entry
(``_catalog/<set>--<run_id>.keys``, which stays: the catalog ignores an entry without a run folder).
:func:`review` turns both into findings, one line each, naming the missing indices and the runs
whose folders are gone, with the two ways out (``docs/operations.md``, "A gap in a set"):

* re-make the missing indices from their seeds: ``numplace run CONFIG --fill-gap`` (a run of its own
  over the first gap: :func:`first_gap`);
* or record the gap as meant: ``numplace accept-gap SET_DIR --reason TEXT`` (:func:`accept`) writes
  ``<set>/_gaps.json``; a recorded gap or deleted run is no finding any more.

It also names runs whose configs disagree on the keys that define a set
(:mod:`pipeline.config.defining`). ``numplace check`` reports :func:`review`'s findings as problems,
``numplace runs`` shows them, and a new run logs them as a warning (it does not refuse: a nightly job
has nobody to read a refusal).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.atomic import atomic_write
from pipeline.config.defining import defining_keys, differences, shown
from pipeline.errors import UserError
from pipeline.run import store
from pipeline.run.layout import CATALOG, GAPS, OLD_CATALOG, catalog_run, manifest_path
from pipeline.run.manifest import Manifest


class GapError(UserError, ValueError):
    """A gap that cannot be filled or recorded as asked (the message says why)."""


@dataclass
class Deleted:
    """A run of the set known by its catalog entry alone: ``run_id``, the entry's name, and the
    indices its puzzle ids name (None when the entry cannot be read)."""

    run_id: str
    entry: str
    indices: tuple[int, int] | None  # (first, last)


@dataclass
class Gap:
    """Indices ``[start, stop)`` below the set's next index that no run folder holds, and the deleted
    runs whose ids fall in it."""

    start: int
    stop: int
    deleted: list[str] = field(default_factory=list)

    @property
    def span(self) -> str:
        return f"{self.start}-{self.stop - 1}"


def _made_as(m: Manifest) -> str:
    """The run id a manifest was written under (its folder's name for older manifests)."""
    made = m.data.get("run_id")
    return made if isinstance(made, str) else m.run_dir.name


def moved_runs(set_dir: Path, runs: Iterable[Manifest]) -> dict[str, Path]:
    """The runs of the set (its catalog entries) that are in no folder of ``set_dir`` but in another
    folder of the output root under their own name, with a manifest of this set (moved by hand):
    run id -> the folder. Readers of the root still take their puzzles, so their ids are not a gap."""
    present = {m.run_dir.name for m in runs} | {_made_as(m) for m in runs}
    root, name = set_dir.parent, set_dir.name
    out: dict[str, Path] = {}
    wanted = [r for e in store.set_entries(root, name) if (r := catalog_run(Path(e).name)[1]) and r not in present]
    if not wanted:
        return out
    try:
        others = sorted(p for p in root.iterdir()
                        if p.is_dir() and p != set_dir and p.name not in (CATALOG, OLD_CATALOG))
    except OSError:
        return out
    for run_id in wanted:
        for other in others:
            m = _manifest_at(other / run_id)
            if m is not None and m.set_name == name:
                out[run_id] = other / run_id
                break
    return out


def _manifest_at(run_dir: Path) -> Manifest | None:
    if manifest_path(run_dir) is None:
        return None
    try:
        return Manifest.read(run_dir, strict=False)
    except (store.StoreError, OSError, ValueError):
        return None


def deleted_runs(set_dir: Path, runs: Iterable[Manifest]) -> list[Deleted]:
    """The catalog entries of the set whose run is in no folder of ``set_dir`` (not under its own
    name, and not renamed: no manifest says it was that run), nor moved to another folder of the
    output root (:func:`moved_runs`)."""
    runs = list(runs)
    root, name = set_dir.parent, set_dir.name
    present = {m.run_dir.name for m in runs} | {_made_as(m) for m in runs} | set(moved_runs(set_dir, runs))
    out = []
    for entry in store.set_entries(root, name):
        run_id = catalog_run(Path(entry).name)[1]
        if not run_id or run_id in present or (set_dir / run_id).is_dir():
            continue
        indices: tuple[int, int] | None = None
        try:
            found = [_index(pid, name) for pid in store.entry_ids(root, entry)]
            ids = [i for i in found if i is not None]
            indices = (min(ids), max(ids)) if ids else None
        except (store.StoreError, OSError):
            indices = None
        out.append(Deleted(run_id, entry, indices))
    return out


def _index(puzzle_id: str, set_name: str) -> int | None:
    head, _, digits = puzzle_id.rpartition("-")
    return int(digits) if head == set_name and digits.isdigit() else None


def gaps(runs: Iterable[Manifest], deleted: Iterable[Deleted] = ()) -> list[Gap]:
    """The ranges below the highest index any run holds that no run's range covers, each with the
    deleted runs whose ids fall in it."""
    ranges = sorted((m.start, m.start + m.count) for m in runs)
    out: list[Gap] = []
    end = 0
    for start, stop in ranges:
        if start > end:
            out.append(Gap(end, start))
        end = max(end, stop)
    for d in deleted:
        for g in out:
            if d.indices is not None and d.indices[0] < g.stop and d.indices[1] >= g.start:
                g.deleted.append(d.run_id)
    return out


def accepted(set_dir: Path) -> dict[str, Any]:
    """What ``<set>/_gaps.json`` records as meant: ``gaps`` (``start``, ``stop``) and ``runs`` (deleted
    run ids); empty when there is no record or it cannot be read (then every gap is a finding)."""
    try:
        data = json.loads((set_dir / GAPS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"gaps": [], "runs": []}
    if not isinstance(data, dict):
        return {"gaps": [], "runs": []}
    spans = [g for g in data.get("gaps", []) if isinstance(g, dict) and isinstance(g.get("start"), int)
             and isinstance(g.get("stop"), int)]
    runs = [r for r in data.get("runs", []) if isinstance(r, str)]
    return {"gaps": spans, "runs": runs, "notes": data.get("notes", [])}


def _covered(g: Gap, spans: list[dict[str, Any]]) -> bool:
    return any(s["start"] <= g.start and g.stop <= s["stop"] for s in spans)


_WAYS_OUT = ("re-make them from their seeds with numplace run CONFIG --fill-gap, or record the gap as meant "
             "with numplace accept-gap {set_dir} --reason TEXT")


def review(set_dir: Path, runs: list[Manifest]) -> list[str]:
    """One finding per gap in the set's ids, per run deleted by hand outside a gap (its ids issued
    again, or beyond every run), and per run whose defining keys differ from the set's first run;
    gaps and deleted runs recorded in ``_gaps.json`` excepted."""
    if not runs:
        return []
    ok = accepted(set_dir)
    deleted = deleted_runs(set_dir, runs)
    ways = _WAYS_OUT.format(set_dir=set_dir)
    out = [f"set {set_dir.name}: run {run_id} is in {where} (moved by hand): readers of the output root still "
           f"take its puzzles, and the set's ids are not made again; move it back: mv {where} {set_dir / run_id}"
           for run_id, where in moved_runs(set_dir, runs).items()]
    out += foreign_runs(set_dir, runs)
    found = gaps(runs, deleted)
    for g in found:
        if _covered(g, ok["gaps"]):
            continue
        who = (f"run(s) {', '.join(g.deleted)} held them (the catalog still lists them), and their folders are gone"
               if g.deleted else "no run folder holds them (a run folder was deleted or moved)")
        out.append(f"set {set_dir.name}: indices {g.span} are missing: {who}; {ways}")
    in_gap = {r for g in found for r in g.deleted}
    held: dict[str, str] | None = None
    for d in deleted:
        if d.run_id in in_gap or d.run_id in ok["runs"]:
            continue
        where = (f"indices {d.indices[0]}-{d.indices[1]}" if d.indices is not None else "its ids (unreadable entry)")
        end = max(m.start + m.count for m in runs)
        if d.indices is not None and d.indices[0] >= end:
            then = "the next run makes them again from their seeds"
        else:
            held = _held(set_dir, runs) if held is None else held
            if _remade(set_dir, d, held):
                continue  # re-made from the same seeds: every id holds the puzzle it held
            then = "other runs hold those ids now, not all with the puzzles it published"
        out.append(f"set {set_dir.name}: run {d.run_id} was deleted ({d.entry} still lists {where}); {then}; "
                   f"if it was meant, record it: numplace accept-gap {set_dir} --reason TEXT")
    first = runs[0]
    want = defining_keys(first.config)
    for m in runs[1:]:
        for key, old, new in differences(want, defining_keys(m.config)):
            out.append(f"set {set_dir.name}: runs {first.run_dir.name} and {m.run_dir.name} disagree on {key} "
                       f"({shown(key, old)} against {shown(key, new)}): a set holds one kind of puzzle; readers "
                       f"that expect one board get two (make such puzzles under another set name)")
    return out


def _held(set_dir: Path, runs: list[Manifest]) -> dict[str, str]:
    """``puzzle_id -> dedup key`` of what the set's present runs published (their catalog entries)."""
    root, out = set_dir.parent, {}
    by_run = {catalog_run(Path(e).name)[1]: e for e in store.set_entries(root, set_dir.name)}
    for m in runs:
        entry = by_run.get(_made_as(m), by_run.get(m.run_dir.name))
        if entry is None:
            continue
        try:
            out.update(store.entry_ids(root, entry))
        except (store.StoreError, OSError):
            continue
    return out


def _remade(set_dir: Path, d: Deleted, held: dict[str, str]) -> bool:
    """Whether every id of the deleted run ``d`` is held now with the very puzzle (dedup key) it had."""
    try:
        was = store.entry_ids(set_dir.parent, d.entry)
    except (store.StoreError, OSError):
        return False
    return bool(was) and all(held.get(pid) == key for pid, key in was.items())


def foreign_runs(set_dir: Path, runs: Iterable[Manifest]) -> list[str]:
    """One line per run folder of ``set_dir`` whose manifest is another set's (moved here by hand)."""
    return [f"{m.run_dir}: a run of set {m.set_name} (its manifest and its rows' set_name say so), not of set "
            f"{set_dir.name}: moved here by hand; move it back: mv {m.run_dir} "
            f"{set_dir.parent / m.set_name / m.run_dir.name}"
            for m in runs if m.set_name and m.set_name != set_dir.name]


def first_gap(set_dir: Path, runs: list[Manifest]) -> Gap | None:
    """The lowest gap in the set's ids that ``_gaps.json`` does not record as meant (what
    ``run --fill-gap`` makes), or None."""
    ok = accepted(set_dir)
    return next((g for g in gaps(runs) if not _covered(g, ok["gaps"])), None)


def accept(set_dir: Path, runs: list[Manifest], reason: str) -> list[str]:
    """Record every gap and deleted run the set has now as meant, with ``reason``, in
    ``<set>/_gaps.json`` (written whole, by rename); returns one line per thing recorded. Raises
    :class:`GapError` when there is nothing to record."""
    ok = accepted(set_dir)
    deleted = deleted_runs(set_dir, runs)
    new_gaps = [g for g in gaps(runs, deleted) if not _covered(g, ok["gaps"])]
    new_runs = [d.run_id for d in deleted if d.run_id not in ok["runs"]]
    if not new_gaps and not new_runs:
        raise GapError(f"{set_dir}: no gap in its ids and no deleted run to record")
    when = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    data = {"gaps": ok["gaps"] + [{"start": g.start, "stop": g.stop, "deleted": g.deleted, "reason": reason,
                                   "recorded_at": when} for g in new_gaps],
            "runs": ok["runs"] + new_runs,
            "notes": [*ok.get("notes", []), {"runs": new_runs, "reason": reason, "recorded_at": when}]}
    text = json.dumps(data, indent=2) + "\n"
    atomic_write(set_dir / GAPS, lambda tmp: tmp.write_text(text, encoding="utf-8"))
    return ([f"recorded indices {g.span} of set {set_dir.name} as a gap left on purpose" for g in new_gaps]
            + [f"recorded run {r} of set {set_dir.name} as deleted on purpose" for r in new_runs])
