"""Re-verify a written set against its manifests: what ``numplace check`` guarantees.

:func:`audit` takes a set folder, a run folder or one part file and returns an :class:`Audit` whose
``problems`` are findings, one line each, naming the run, part or ``puzzle_id`` and what differs.
A path that does not exist or is neither a set, a run nor a part raises
:class:`~pipeline.run.store.StoreError` (a usage error); everything wrong *inside* a set is a
finding, never an exception (a damaged manifest, which cannot be read at all, stays a StoreError).

The checks are split by what they check, one module each, so that each can be read (and trusted) on
its own; this module only walks the set and gathers their findings:

* :mod:`.manifests`: the runs a path stands for; each run's manifest against itself and against its
  part files (count, config hash, totals, every part of the range recorded and present); two runs of
  a set never share an index.
* :mod:`.parts`: each part file: readable Parquet, its own schema, its row count and sha256 as the
  manifest recorded them, its index range, its set name.
* :mod:`.ids`: each row's identity (``puzzle_id``, ``set_name``, ``config_hash``, ``seed``) and no
  two rows sharing a ``puzzle_id`` or a dedup key (what the catalog holds).
* :mod:`.puzzles`: each row of a sound part: :func:`pipeline.verify.verify_row` (the independent
  checker), agreements between columns, and (unless ``fast``) the derived columns recomputed.
* :mod:`.design`: designed grids and clue patterns of a run's saved config (``docs/config.md``),
  read again by the audit itself.
* :mod:`.strays`: files and folders that a documented reader of the set or run folder would take
  besides the set's parts (a backup copy of a run, a stray part file).

* :mod:`.replay`: with ``replay``, sampled rows (or all) made again from their seeds and compared.
* :mod:`pipeline.run.history` (a set folder): gaps in the set's ids, runs deleted by hand (their
  catalog entries remain), runs that disagree on the keys that define a set.
* The catalog: each row's dedup key against the one its run's catalog entry recorded when the run
  wrote it (:func:`catalog_problems`), so a puzzle swapped in after the run, with the manifest's part
  hash written again, is caught without a replay (unless the catalog entry was rewritten too).

The part's sha256 is what ties the bytes to the run that wrote them; a replay ties the puzzles to
their seeds (tens of ms per 9x9 puzzle, so only on request).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import polars as pl

from pipeline.run import history, rows, store
from pipeline.run.audit.ids import Expect, Findings
from pipeline.run.audit.manifests import Run, config_digest, overlaps, part_label, run_problems, runs_at
from pipeline.run.audit.parts import read_part
from pipeline.run.audit.puzzles import row_problems
from pipeline.run.audit.replay import Sample
from pipeline.run.audit.replay import replay as replay_rows
from pipeline.run.audit.strays import strays
from pipeline.run.layout import CATALOG, catalog_name, part_shard
from pipeline.run.manifest_schema import manifest_problem

__all__ = ["Audit", "audit", "config_digest", "summary_lines"]


@dataclass
class Audit:
    """What :func:`audit` found: ``files`` part files holding ``rows`` readable rows; ``problems``
    (one line each; empty = sound) and ``stats`` (hints, sizes, symmetry, minimality counts, and
    ``bad_rows``: rows with at least one finding; empty when no part could be read)."""

    path: Path
    files: int
    rows: int
    problems: list[str] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems


def summary_lines(result: Audit) -> list[str]:
    """What ``numplace check`` prints for ``result``, one string a line: the path with its puzzles and
    part files, the stats (when any row was read), one ``PROBLEM`` line each, then ``OK`` or
    ``FAILED: N problem(s)``."""
    s = result.stats
    lines = [f"{result.path}: {result.rows} puzzles in {result.files} part file(s)"]
    if s:
        lines += [f"  hints mean {s['hints_mean']} (min {s['hints_min']}, max {s['hints_max']}); sizes {s['sizes']}",
                  f"  symmetry {s['symmetry']}",
                  f"  minimal {s['minimal']}, orbit_minimal {s['orbit_minimal']}, bad rows {s['bad_rows']}"]
    lines += [f"  PROBLEM {p}" for p in result.problems]
    lines.append("OK" if result.ok else f"FAILED: {len(result.problems)} problem(s)")
    return lines


def audit(path: Path, max_reported: int = 20, *, fast: bool = False, replay: int | Literal["all"] = 0) -> Audit:
    """Check the set folder, run folder or part file at ``path`` (see the module docstring).

    ``max_reported`` caps the lines about single rows (run and part findings are all reported);
    ``fast`` skips the recomputations (grade, canonical form, grid number, minimality); ``replay``
    rows (``"all"``: every row) of sound parts are made again from their seeds and compared
    (:mod:`.replay`). Raises
    :class:`~pipeline.run.store.StoreError` for a path that does not exist or is not a set, run or
    part (and for a manifest too damaged to read); every other problem is a line in ``problems``."""
    found_runs = runs_at(path)
    problems: list[str] = []
    findings = Findings(max_reported)
    frames: list[pl.DataFrame] = []
    files = held_rows = 0
    all_read = True
    samples: list[Sample] = []
    for run in found_runs:
        held: dict[int, int] = {}  # shard -> rows of the part files present (-1: unreadable)
        part_problems: list[str] = []
        published: dict[str, str] | None = None  # puzzle_id -> dedup key, from the run's catalog entry
        expect = Expect.of(run.manifest) if run.manifest is not None else None
        for path_ in run.parts:
            files += 1
            part = read_part(run, path_)
            part_problems += part.problems
            k = part_shard(path_)
            if k is not None:
                held[k] = part.frame.height if part.frame is not None else -1
            if part.frame is None:
                all_read = False
                continue
            held_rows += part.frame.height
            if part.sound:
                _check_rows(part.frame, part_label(run, path_), expect, fast, findings)
                if published is None:
                    published = _published(run)
                if published:
                    part_problems += catalog_problems(part.frame, published, run.label)
                frames.append(part.frame)
                if replay:
                    samples += [(run, row) for row in part.frame.iter_rows(named=True)]
        if run.whole:
            problems += run_problems(run, held)
        problems += part_problems
    problems += overlaps(found_runs)
    if path.is_dir() and all(r.run_dir != path for r in found_runs):  # a set folder: its history too
        problems += history.review(path, [r.manifest for r in found_runs if r.whole and r.manifest is not None
                                          and manifest_problem(r.manifest.data) is None])
    problems += strays(path, found_runs)
    problems += findings.close()
    if replay:
        problems += replay_rows(samples, None if replay == "all" else replay)
    if all_read and held_rows == 0:
        problems.append("the set holds no puzzles")
    result = Audit(path, files, held_rows, problems)
    if frames:
        result.stats = _stats(pl.concat(frames, how="diagonal_relaxed"), findings.rows)
    return result


def _published(run: Run) -> dict[str, str]:
    """What the run's catalog entry says it published (``puzzle_id -> dedup key``); empty when the run
    has no entry (still running, killed, legacy, or not under an output root) or it cannot be read
    (``numplace catalog`` names a damaged entry)."""
    m = run.manifest
    if m is None or not m.set_name or m.legacy:
        return {}
    made_as = m.data.get("run_id")
    name = f"{CATALOG}/{catalog_name(m.set_name, made_as if isinstance(made_as, str) else run.run_dir.name)}"
    root = run.run_dir.parent.parent
    if not (root / name).is_file():
        return {}
    try:
        return store.entry_ids(root, name)
    except (store.StoreError, OSError):
        return {}


def catalog_problems(frame: pl.DataFrame, published: dict[str, str], label: str) -> list[str]:
    """Rows whose puzzle is not the one their run's catalog entry recorded for their ``puzzle_id``
    (swapped in after the run wrote the part), at most three named, then a count."""
    bad = []
    for row in frame.iter_rows(named=True):
        want = published.get(row["puzzle_id"])
        if want is not None and want not in rows.dedup_keys(row):
            bad.append(row["puzzle_id"])
    if not bad:
        return []
    more = f" (and {len(bad) - 3} more)" if len(bad) > 3 else ""
    return [f"{label}: {', '.join(bad[:3])}{more}: not the puzzle the run published (its catalog entry "
            f"recorded another dedup key for this puzzle_id): swapped after the run wrote it"]


def _check_rows(frame: pl.DataFrame, label: str, expect: Expect | None, fast: bool, findings: Findings) -> None:
    """Every row of a sound part: its own findings, then duplicates of earlier rows."""
    for row in frame.iter_rows(named=True):
        found, key = row_problems(row, expect, fast)
        found += findings.duplicates(row["puzzle_id"], key, row["puzzle"], label)
        findings.row(row["puzzle_id"], label, found)


def _stats(frame: pl.DataFrame, bad: int) -> dict[str, Any]:
    """The summary ``numplace check`` prints, over the rows read under the contract."""
    h = pl.col("hints")
    mean, lo, hi = frame.select(h.mean().alias("mean"), h.min().alias("lo"), h.max().alias("hi")).row(0)
    return {
        "bad_rows": bad,
        "sizes": dict(Counter(frame["size"].to_list())),
        "hints_mean": round(mean or 0.0, 2),
        "hints_min": lo,
        "hints_max": hi,
        "symmetry": dict(Counter(frame["symmetry"].to_list()).most_common()),
        "minimal": int(frame["minimal"].sum()),
        "orbit_minimal": int(frame["orbit_minimal"].sum()),
    }
