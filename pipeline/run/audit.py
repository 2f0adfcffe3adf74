"""Re-verify a written set against its manifests: what ``numplace check`` guarantees.

:func:`audit` takes a set folder, a run folder or one part file and returns an :class:`Audit` whose
``problems`` are findings, one line each, naming the run, part or ``puzzle_id`` and what differs.
A path that does not exist or is neither a set, a run nor a part raises
:class:`~pipeline.run.store.StoreError` (a usage error); everything wrong *inside* a set is a
finding, never an exception (a damaged manifest, which cannot be read at all, stays a StoreError).

What is checked, layer by layer:

* **Runs** (every run folder of a set, or the run folder given): a folder with parts must have a
  manifest; the manifest agrees with itself (``count`` equals its config's count; ``config_hash``
  is the hash of its config; the totals add up the shard records and the count) and with the parts
  (status ``complete``; every part of the run's range recorded and present; the parts hold
  ``count`` puzzles). Two runs of a set never share an index.
* **Parts**: readable Parquet; each part's own schema (columns and types of its
  ``numplace.schema_version``, no nulls where the contract has none); its row count and the sha256 of
  its bytes equal what the manifest recorded when the part was written (manifests from before parts
  were hashed: row count only); its indices lie in the part's range of the run; the set name in its
  key-value metadata is the run's.
* **Rows**: :func:`pipeline.verify.verify_row` (the independent checker: a valid solution, givens that
  agree with it, ``hints``, the layout's symmetry, exactly one solution); identity (``puzzle_id`` is
  the id of ``index``; ``set_name`` and ``config_hash`` are the run's; ``seed`` is the seed of
  ``index`` from the set's seed, a redraw of it, or the seed the manifest's ``from_stock`` lists for a
  stock puzzle placed there); ``difficulty_rank`` matches ``difficulty``; no two rows share a
  ``puzzle_id`` or a puzzle up to the validity-preserving group (:func:`pipeline.run.rows.dedup_key`).
* **Designed grids and clue patterns** (runs whose manifest config has them; not for stock puzzles,
  which another run's config made): the solution is its own image under ``grid.solution_symmetry``
  (``solution[m(r, c)] = p(solution[r, c])``), honours every ``grid.areas`` rule, and the givens are
  exactly the cells of ``removal.pattern``. Read from the saved config by :class:`_Design`, plain code
  of its own: the maps, the digit map and the masks are parsed again here, not by the config or the
  generator, so a mistake there shows up as a finding. A saved config the audit cannot read is a
  finding of the run.
* **Recomputed** (skipped with ``fast=True``): ``minimal`` and ``orbit_minimal`` (removing any single
  given, or any whole orbit of ``symmetry_requested``, breaks uniqueness), the grade (``difficulty``,
  ``difficulty_score``, ``techniques``, ``logic_steps``, by :mod:`pipeline.difficulty.grade`),
  ``canonical_puzzle`` (:func:`pipeline.identity.canon.canonical_key`, null for 16x16) and
  ``grid_number`` (:func:`pipeline.identity.numbering.grid_number`, 9x9 only; null otherwise). The
  duplicate check then uses the recomputed canonical form.

Roads not taken: uniqueness for the minimality flags is decided by the compiled counter of
:mod:`pipeline.generate.fastcount` (about 40x faster than the pure-Python counter of
:mod:`pipeline.verify`, which stays the independent judge of the row itself and is the fallback when
the counter's node budget runs out); the recomputation is not the generator's code path (which
reuses proofs from its removal pass), only the same definition. Puzzles are not regenerated from
their seeds (seconds per puzzle); the part's sha256 is what ties the bytes to the run that wrote them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from pipeline import verify
from pipeline.board import Grid, Variant, board, make_variant, parse
from pipeline.config import hash_of
from pipeline.difficulty.techniques import LEVELS, UNRATED
from pipeline.generate.spec import puzzle_seed
from pipeline.run import rows, store
from pipeline.run.manifest import MANIFEST, Manifest, manifest_path

#: Statuses after which a run changes no more (every shard of its range is recorded and written).
_FINAL = ("complete", "incomplete")
#: Columns that may be null (DESIGN.md "Output"): the identity columns of boards without one.
_NULLABLE = rows.NULLABLE


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


@dataclass
class _Run:
    """One run folder as audited: its manifest (None if it has none) and the part files looked at;
    ``whole`` is False when only one part file of it was given."""

    run_dir: Path
    manifest: Manifest | None
    parts: list[Path]
    whole: bool = True

    @property
    def label(self) -> str:
        return f"run {self.run_dir.name}"


@dataclass(frozen=True)
class _Expect:
    """What a run's manifest says every row of the run must carry."""

    set_name: str | None
    config_hash: str | None
    config_seed: int | None
    board_size: int | None
    rounds: int  # redraws an index may have had (dedup or quota)
    stock: dict[int, int]  # index -> seed of the stock puzzle placed there
    design: _Design | None = None  # what the solution and the givens must honour (issue 16 keys), if any
    rules: Variant | None = None  # board.variant and board.regions of the config (killer: without cages)

    @classmethod
    def of(cls, m: Manifest) -> _Expect:
        cfg = m.config
        seed = cfg.get("seed")
        size = cfg.get("board", {}).get("size") if isinstance(cfg.get("board"), dict) else None
        stock: dict[int, int] = {}
        for pick in m.from_stock:
            if isinstance(pick.get("index"), int) and isinstance(pick.get("seed"), int):
                stock[pick["index"]] = pick["seed"]
        try:
            design = _Design.of(cfg)
        except ValueError:
            design = None  # a run finding (_manifest_problems); the rows are not judged by it
        board_cfg: dict[str, Any] = cfg["board"] if isinstance(cfg.get("board"), dict) else {}
        try:
            rules: Variant | None = make_variant(board_cfg.get("variant"), board_cfg.get("regions"))
        except (TypeError, AttributeError):
            rules = None
        return cls(m.set_name, m.config_hash, seed if isinstance(seed, int) else None,
                   size if isinstance(size, int) else None, _redraw_rounds(cfg), stock, design, rules)

    def seed_ok(self, index: int, seed: int) -> bool:
        """Whether ``seed`` is one a run could have given index ``index``: its own, a redraw's, or the
        listed stock puzzle's."""
        if self.config_seed is None:
            return True
        if seed == puzzle_seed(self.config_seed, index) or self.stock.get(index) == seed:
            return True
        return any(seed == puzzle_seed(self.config_seed, index, r) for r in range(1, self.rounds + 1))


class _Findings:
    """Row findings in order, at most ``cap`` lines (then one line saying how many more rows), and
    what duplicate detection needs: the ids and dedup keys seen so far."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.lines: list[str] = []
        self.rows = 0  # rows with at least one finding
        self.ids: dict[str, str] = {}  # puzzle_id -> label of its part
        self.keys: dict[str, tuple[str, str, str]] = {}  # dedup key -> (puzzle_id, label, puzzle)

    def duplicates(self, puzzle_id: str, key: str, puzzle: str, label: str) -> list[str]:
        """Findings for a row whose ``puzzle_id`` or dedup ``key`` an earlier row already holds."""
        out = []
        if puzzle_id in self.ids:
            out.append(f"puzzle_id also used in {self.ids[puzzle_id]}")
        else:
            self.ids[puzzle_id] = label
        if key in self.keys:
            other, where, first = self.keys[key]
            same = "the same puzzle as" if first == puzzle else \
                "the same puzzle up to relabelling and symmetry (same canonical form) as"
            out.append(f"{same} {other} (in {where})")
        else:
            self.keys[key] = (puzzle_id, label, puzzle)
        return out

    def row(self, puzzle_id: object, label: str, found: list[str]) -> None:
        if not found:
            return
        self.rows += 1
        if self.rows <= self.cap:
            self.lines.append(f"{puzzle_id}: {'; '.join(found)} (in {label})")

    def close(self) -> list[str]:
        more = self.rows - self.cap
        return self.lines + ([f"... and {more} more rows with problems"] if more > 0 else [])


@dataclass
class _Part:
    """One part file as read: its rows (None when unreadable), whether they are under the contract
    of its schema version (columns, types, no stray nulls), and its findings."""

    path: Path
    frame: pl.DataFrame | None
    sound: bool
    problems: list[str]


def audit(path: Path, max_reported: int = 20, *, fast: bool = False) -> Audit:
    """Check the set folder, run folder or part file at ``path`` (see the module docstring).

    ``max_reported`` caps the lines about single rows (run and part findings are all reported);
    ``fast`` skips the recomputations (grade, canonical form, grid number, minimality). Raises
    :class:`~pipeline.run.store.StoreError` for a path that does not exist or is not a set, run or
    part (and for a manifest too damaged to read); every other problem is a line in ``problems``."""
    found_runs = _runs_at(path)
    problems: list[str] = []
    findings = _Findings(max_reported)
    frames: list[pl.DataFrame] = []
    files = held_rows = 0
    all_read = True
    for run in found_runs:
        held: dict[int, int] = {}  # shard -> rows of the part files present (-1: unreadable)
        part_problems: list[str] = []
        expect = _Expect.of(run.manifest) if run.manifest is not None else None
        for path_ in run.parts:
            files += 1
            part = _read_part(run, path_)
            part_problems += part.problems
            k = store.part_shard(path_)
            if k is not None:
                held[k] = part.frame.height if part.frame is not None else -1
            if part.frame is None:
                all_read = False
                continue
            held_rows += part.frame.height
            if part.sound:
                _check_rows(part.frame, _part_label(run, path_), expect, fast, findings)
                frames.append(part.frame)
        if run.whole:
            problems += _run_problems(run, held)
        problems += part_problems
    problems += _overlaps(found_runs)
    problems += findings.close()
    if all_read and held_rows == 0:
        problems.append("the set holds no puzzles")
    result = Audit(path, files, held_rows, problems)
    if frames:
        result.stats = _stats(pl.concat(frames, how="diagonal_relaxed"), findings.rows)
    return result


def _check_rows(frame: pl.DataFrame, label: str, expect: _Expect | None, fast: bool, findings: _Findings) -> None:
    """Every row of a sound part: its own findings, then duplicates of earlier rows."""
    for row in frame.iter_rows(named=True):
        found, key = _row_problems(row, expect, fast)
        found += findings.duplicates(row["puzzle_id"], key, row["puzzle"], label)
        findings.row(row["puzzle_id"], label, found)


# ---------------------------------------------------------------------------------------------
# What the path stands for
# ---------------------------------------------------------------------------------------------


def _runs_at(path: Path) -> list[_Run]:
    """The runs ``path`` stands for: one part file (with its folder's manifest, if any), one run
    folder (a folder with a manifest or part files), or the run folders of a set folder."""
    if not path.exists():
        raise store.StoreError(f"{path}: no such file or folder")
    if path.is_file():
        if path.suffix != ".parquet":
            raise store.StoreError(f"{path}: not a Parquet file")
        folder = path.parent
        return [_Run(folder, Manifest.read(folder) if manifest_path(folder) is not None else None, [path], False)]
    if manifest_path(path) is not None or _part_files(path):
        return [_run_of(path)]
    runs = [_run_of(d) for d in sorted(path.iterdir())
            if d.is_dir() and d.name[:1] not in "._" and (manifest_path(d) is not None or _part_files(d))]
    if not runs:
        raise store.StoreError(f"{path}: not a set, run folder or part file (no part-*.parquet files or "
                               f"{MANIFEST} here or in its run folders)")
    return sorted(runs, key=lambda r: (r.manifest is None, r.manifest.start if r.manifest else 0, r.run_dir.name))


def _part_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("part-*.parquet"))


def _run_of(run_dir: Path) -> _Run:
    m = Manifest.read(run_dir) if manifest_path(run_dir) is not None else None
    return _Run(run_dir, m, _part_files(run_dir))


def _part_label(run: _Run, part: Path) -> str:
    return f"{run.run_dir.name}/{part.name}"


# ---------------------------------------------------------------------------------------------
# Runs and their manifests
# ---------------------------------------------------------------------------------------------


def config_digest(config: Mapping[str, Any]) -> str | None:
    """:func:`pipeline.config.hash_of` (the one recipe) of the config a manifest saved; None if the
    saved config is not a mapping that recipe can read (then nothing can be compared). The saved dict
    is hashed as it is: validating it again would add the defaults of newer keys."""
    try:
        return hash_of(config)
    except (AttributeError, KeyError, TypeError, ValueError):
        return None


def _redraw_rounds(config: Mapping[str, Any]) -> int:
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


def _run_problems(run: _Run, held: dict[int, int]) -> list[str]:
    """What a whole run folder's manifest says against itself and against the part files present
    (``held``: shard -> rows, -1 for an unreadable part)."""
    m = run.manifest
    if m is None:
        return [f"{run.run_dir}: {len(run.parts)} part file(s) but no manifest ({MANIFEST}): not a whole numplace "
                "run (its count, config and part checksums cannot be checked)"]
    out = _manifest_problems(m, run.label)
    out += [f"{run.run_dir / p.name}: a Parquet file beside the parts that is not one (readers of the run folder "
            "take its rows)" for p in sorted(run.run_dir.glob("*.parquet"))
            if p.name[:1] not in "._" and store.part_shard(p) is None]
    out += _coverage(m, run.label, held)
    name, count = run.label, m.count
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
    cfg, count = m.config, m.count
    if _int(cfg.get("count")) is not None and cfg["count"] != count:
        out.append(f"{name}: the manifest's count is {count}, its config's count is {cfg['count']}")
    try:
        _Design.of(cfg)
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
    out += [f"{name}: {store.part_name(k)} is beyond the run's range ({span})" for k in sorted(held) if k >= nshards]
    if m.status not in _FINAL:
        return out  # a run still to be resumed may lack parts and may hold records of parts not renamed yet
    for k in range(nshards):
        rec = records.get(k)
        if rec is None:
            where = "is" if k in held else "is missing and"
            out.append(f"{name}: {store.part_name(k)} {where} not recorded in the manifest (a {m.status} run records "
                       f"every part: {span})")
            continue
        made, failed = _int(rec.get("rows")), rec.get("failures")
        if k not in held:
            out.append(f"{name}: the manifest records {store.part_name(k)} ({made} puzzles) but the file is missing")
        want = min(size, count - k * size)
        if made is not None and isinstance(failed, list) and made + len(failed) != want:
            out.append(f"{name}: {store.part_name(k)} is recorded with {made} puzzles and {len(failed)} failures "
                       f"for its {want} indices")
    return out


def _overlaps(found: Iterable[_Run]) -> list[str]:
    """Runs of one set whose index ranges overlap (an index is issued once, ever)."""
    ranges = sorted((r.manifest.start, r.manifest.start + r.manifest.count, r.run_dir.name)
                    for r in found if r.whole and r.manifest is not None)
    out = []
    end, last = 0, ""  # the furthest index range seen so far ends at ``end`` (run ``last``)
    for start, stop, name in ranges:
        if last and start < end:
            out.append(f"runs {last} and {name} overlap: both have indices from {start} to {min(end, stop) - 1}")
        if stop > end:
            end, last = stop, name
    return out


# ---------------------------------------------------------------------------------------------
# Parts
# ---------------------------------------------------------------------------------------------


def _read_part(run: _Run, part: Path) -> _Part:
    """The part read, with its findings: not readable, its schema, its manifest record (rows,
    sha256), its index range, its set name."""
    label = _part_label(run, part)
    try:
        meta = pl.read_parquet_metadata(part)
        frame = pl.read_parquet(part)
    except BaseException as exc:  # polars raises many types (a Rust panic too) for a damaged file
        if isinstance(exc, KeyboardInterrupt | SystemExit | GeneratorExit | MemoryError):
            raise
        return _Part(part, None, False, [f"{label}: not a readable Parquet file ({exc.__class__.__name__})"])
    out: list[str] = []
    raw = meta.get("numplace.schema_version", "1")
    version = int(raw) if raw.isdigit() else rows.SCHEMA_VERSION
    if not raw.isdigit():
        out.append(f"{label}: numplace.schema_version {raw!r} in its key-value metadata is not a number")
    schema = rows.schema_problems(frame, version)
    nulls = [f"column {c} has {frame[c].null_count()} null value(s)" for c in rows.SCHEMA
             if c in frame.columns and c not in _NULLABLE and rows.ADDED_IN.get(c, 1) <= version
             and frame[c].null_count()]
    if schema or nulls:
        out.append(f"{label}: {'; '.join(schema + nulls)}")
    result = _Part(part, frame, not (schema or nulls), out)
    m = run.manifest
    if m is None:
        return result
    k = store.part_shard(part)
    if k is None:
        out.append(f"{label}: not a part name (part-NNNNN.parquet)")
        return result
    rec = m.shards.get(str(k))
    if not isinstance(rec, dict):
        out.append(f"{label}: the manifest of {run.label} has no record of this part")
    else:
        if rec.get("rows") != frame.height:
            out.append(f"{label}: holds {frame.height} puzzles, the manifest records {rec.get('rows')}")
        want = rec.get("sha256")
        if want is not None:
            have = store.file_sha256(part)
            if have != want:
                out.append(f"{label}: not the file the run wrote (sha256 {have[:16]}..., the manifest records "
                           f"{str(want)[:16]}...)")
    name = meta.get("numplace.set_name")
    if name is not None and m.set_name is not None and name != m.set_name:
        out.append(f"{label}: written for set {name!r} (its key-value metadata), the manifest says {m.set_name!r}")
    size = m.shard_size
    if size and "index" in frame.columns and frame.schema["index"] == pl.Int64():
        lo = m.start + k * size
        hi = min(lo + size, m.start + m.count)
        idx = frame["index"].drop_nulls()
        stray = idx.filter((idx < lo) | (idx >= hi)).to_list()
        if stray and hi > lo:
            more = f" (and {len(stray) - 1} more)" if len(stray) > 1 else ""
            out.append(f"{label}: index {stray[0]}{more} is outside the part's range {lo}-{hi - 1}")
    return result


# ---------------------------------------------------------------------------------------------
# Rows
# ---------------------------------------------------------------------------------------------


def _row_problems(row: dict[str, Any], expect: _Expect | None, fast: bool) -> tuple[list[str], str]:
    """Findings of one row of a sound part and its dedup key: from the recomputed canonical form
    unless ``fast`` (or the row failed verification), else from its ``canonical_puzzle``."""
    found = verify.verify_row(row)
    sound = not found
    found += _identity(row, expect)
    found += _consistency(row)
    if expect is not None and expect.design is not None and row["index"] not in expect.stock:
        found += expect.design.problems(row)
    key = rows.dedup_key(row)
    if sound and not fast:
        more, recomputed = _recompute(row)
        found += more
        key = rows.dedup_key({**row, "canonical_puzzle": recomputed})
    return found, key


def _identity(row: Mapping[str, Any], expect: _Expect | None) -> list[str]:
    """``puzzle_id`` against ``index``; with the run's manifest, ``set_name``, ``config_hash``,
    ``seed`` and the board size too."""
    out = []
    set_name = expect.set_name if expect is not None and expect.set_name is not None else row["set_name"]
    index = row["index"]
    want = rows.puzzle_id(set_name, index)
    if row["puzzle_id"] != want:
        out.append(f"puzzle_id is not {want}, the id of index {index} of set {set_name}")
    if expect is None:
        return out
    if expect.set_name is not None and row["set_name"] != expect.set_name:
        out.append(f"set_name is {row['set_name']!r}, the run's manifest says {expect.set_name!r}")
    if expect.config_hash is not None and row["config_hash"] != expect.config_hash:
        out.append(f"config_hash is {row['config_hash']}, the run's manifest says {expect.config_hash}")
    if not expect.seed_ok(index, row["seed"]):
        out.append(f"seed {row['seed']} is not a seed of index {index} (set seed {expect.config_seed}, nor a "
                   "redraw or a stock puzzle the manifest lists)")
    if expect.board_size is not None and index not in expect.stock and row["size"] != expect.board_size:
        out.append(f"size is {row['size']}, the run's config has board size {expect.board_size}")
    if expect.rules is not None and index not in expect.stock:
        have = make_variant(row.get("variant"), row.get("regions"))
        if have.kinds != expect.rules.kinds:
            out.append(f"variant is {list(have.kinds)}, the run's config has {list(expect.rules.kinds)}")
        elif have.regions != expect.rules.regions:
            out.append("regions are not the run's board.regions")
    return out


def _consistency(row: Mapping[str, Any]) -> list[str]:
    """Cheap agreements between columns: box shape and size, ``difficulty_rank`` and ``difficulty``,
    and which identity columns a board of this size has (``grid_number``: 9x9 only;
    ``canonical_puzzle``: 4x4, 6x6, 9x9)."""
    out = []
    n = int(row["size"])
    try:
        b = board(n)
    except ValueError:
        return []  # verify_row names the size
    if (row["box_rows"], row["box_cols"]) != (b.box_rows, b.box_cols):
        out.append(f"box_rows x box_cols is {row['box_rows']}x{row['box_cols']}, a {n}x{n} board has "
                   f"{b.box_rows}x{b.box_cols} boxes")
    level, rank = row["difficulty"], row.get("difficulty_rank")
    if level not in LEVELS and not (level == UNRATED and row.get("variant")):
        out.append(f"difficulty {level!r} is not a level ({', '.join(LEVELS)}; {UNRATED} for variant puzzles)")
    elif rank is not None and rank != rows.rank_of(level):
        out.append(f"difficulty_rank is {rank}, difficulty {level} has rank {rows.rank_of(level)}")
    jigsaw, classic = bool(row.get("regions")), not row.get("variant")
    if (row["grid_number"] is None) != (n != 9 or jigsaw):
        out.append("grid_number is null for a 9x9 grid" if n == 9 and not jigsaw
                   else f"grid_number is set for a {'jigsaw' if jigsaw else f'{n}x{n}'} grid")
    if (row["canonical_puzzle"] is None) != (n not in (4, 6, 9) or not classic):
        out.append(f"canonical_puzzle is null for a {n}x{n} puzzle" if n in (4, 6, 9) and classic
                   else f"canonical_puzzle is set for a {n}x{n} {'variant ' if not classic else ''}puzzle "
                        "(none is defined)")
    return out


def _recompute(row: Mapping[str, Any]) -> tuple[list[str], str | None]:
    """Findings from recomputing the derived columns of a sound row (verify_row found nothing), and
    the recomputed ``canonical_puzzle``."""
    from pipeline.difficulty import grade
    from pipeline.identity import canon, numbering

    n = int(row["size"])
    puzzle, solution = parse(row["puzzle"], n), parse(row["solution"], n)
    variant = make_variant(row.get("variant"), row.get("regions"), row.get("cages"))
    out = []
    minimal, orbit_minimal, loose = _minimality(puzzle, row["symmetry_requested"], n, variant)
    why = f" (the given at row {loose // n + 1}, column {loose % n + 1} can go)" if loose is not None else ""
    if row["minimal"] != minimal:
        out.append(f"minimal is {_b(row['minimal'])}, recomputed {_b(minimal)}{why}")
    if row["orbit_minimal"] != orbit_minimal:
        out.append(f"orbit_minimal is {_b(row['orbit_minimal'])}, recomputed {_b(orbit_minimal)} (orbits of "
                   f"{row['symmetry_requested']})")
    try:
        g = grade.grade(puzzle, solution) if variant.classic else grade.grade(puzzle, solution, variant=variant)
    except ValueError as exc:
        out.append(f"the grader cannot grade it: {exc}")
    else:
        if row["difficulty"] != g.level:
            out.append(f"difficulty is {row['difficulty']}, the grader says {g.level}")
        if not math.isclose(row["difficulty_score"], g.score, abs_tol=1e-6):
            out.append(f"difficulty_score is {row['difficulty_score']:g}, the grader says {g.score:g}")
        if list(row["techniques"]) != list(g.techniques):
            out.append(f"techniques are {list(row['techniques'])}, the grader says {list(g.techniques)}")
        if row["logic_steps"] != g.logic_steps:
            out.append(f"logic_steps is {row['logic_steps']}, the grader says {g.logic_steps}")
    if n == 9 and variant.regions is None:
        number = str(numbering.grid_number(solution))
        if row["grid_number"] != number:
            out.append(f"grid_number is {row['grid_number']}, the solution's number is {number}")
    if not variant.classic:
        return out, None  # variants dedup exact copies: no canonical form to recompute
    try:
        key = canon.canonical_key(puzzle)
    except ValueError as exc:
        return [*out, f"no canonical form: {exc}"], None
    if row["canonical_puzzle"] != key:
        out.append(f"canonical_puzzle is not the puzzle's canonical form ({key})")
    return out, key


def _b(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else repr(value)


def _unique(puzzle: Grid, n: int, variant: Variant | None = None) -> bool:
    """Whether ``puzzle`` has exactly one solution under ``variant``'s rules: the compiled counter, or
    (classic) the verifier's counter where the compiled one's node budget runs out (a variant gets
    the compiled counter without a budget)."""
    from pipeline.generate import fastcount

    if variant is not None and not variant.classic:
        return fastcount.count(puzzle, 2, node_limit=2**62, variant=variant) == 1
    found = fastcount.count(puzzle, 2)
    if found < 0:
        found = verify.count_solutions(puzzle, board(n), 2)
    return found == 1


def _minimality(puzzle: Grid, requested: str, n: int, variant: Variant | None = None) -> tuple[bool, bool, int | None]:
    """(minimal, orbit_minimal, a given whose removal keeps the puzzle unique or None) of a unique
    ``puzzle``, from the definitions: minimal = no single given can go; orbit_minimal = no whole orbit
    of the group ``requested`` whose cells are all givens can go.

    An orbit can go only if each of its cells can go alone (removing fewer givens cannot add
    solutions), so orbits are tried only where every cell is such a loose given."""
    from pipeline import symmetry

    loose = [i for i, d in enumerate(puzzle) if d and _unique(_blank(puzzle, (i,)), n, variant)]
    free = set(loose)
    orbit_minimal = True
    for orb in symmetry.orbits(requested, n):
        if free.issuperset(orb) and (len(orb) == 1 or _unique(_blank(puzzle, orb), n, variant)):
            orbit_minimal = False
            break
    return not loose, orbit_minimal, loose[0] if loose else None


def _blank(puzzle: Grid, cells: Iterable[int]) -> Grid:
    out = list(puzzle)
    for i in cells:
        out[i] = 0
    return tuple(out)


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



# ---------------------------------------------------------------------------------------------
# Designed grids and clue patterns (issue 16), read again from the saved config
# ---------------------------------------------------------------------------------------------

# The position maps on 0-based (r, c) of side n, written out again on purpose (as verify.py does):
# this check must not share code with the config or the generator it checks.
_IMAGE_MAPS = {
    "rot90": lambda r, c, n: (c, n - 1 - r),
    "rot180": lambda r, c, n: (n - 1 - r, n - 1 - c),
    "rot270": lambda r, c, n: (n - 1 - c, r),
    "mirror-h": lambda r, c, n: (n - 1 - r, c),
    "mirror-v": lambda r, c, n: (r, n - 1 - c),
    "mirror-d": lambda r, c, n: (c, r),
    "mirror-a": lambda r, c, n: (n - 1 - c, n - 1 - r),
}
_SYMBOLS = "123456789ABCDEFGHIJKLMNOP"


def _rc(i: int, n: int) -> str:
    return f"r{i // n + 1}c{i % n + 1}"


def _mask(text: str, n: int, what: str) -> frozenset[int]:
    """The marked cells of a drawn mask (``#``, ``X``, ``x`` or ``1`` marked; ``.`` or ``0`` not;
    whitespace ignored); raises ValueError naming ``what``."""
    chars = "".join(text.split())
    if len(chars) != n * n or any(ch not in "#Xx1.0" for ch in chars):
        raise ValueError(f"a {what} that is not a {n}x{n} mask")
    return frozenset(i for i, ch in enumerate(chars) if ch in "#Xx1")


def _cells(text: str, n: int, what: str) -> frozenset[int]:
    """An area's cells: ``rRcC`` cells and ``rRcC-rRcC`` rectangles joined by commas (1-based), or a mask."""
    if all(ch in "#Xx1.0" or ch.isspace() for ch in text):
        return _mask(text, n, what)
    out: set[int] = set()
    for part in text.split(","):
        corners = []
        for end in part.split("-"):
            word = end.strip().lower()
            r, sep, c = word[1:].partition("c")
            if not (word.startswith("r") and sep and r.isdigit() and c.isdigit()
                    and 1 <= int(r) <= n and 1 <= int(c) <= n):
                raise ValueError(f"a {what} {part.strip()!r} the audit cannot read")
            corners.append((int(r) - 1, int(c) - 1))
        (r0, c0), (r1, c1) = corners[0], corners[-1]
        out.update(r * n + c for r in range(min(r0, r1), max(r0, r1) + 1) for c in range(min(c0, c1), max(c0, c1) + 1))
    return frozenset(out)


@dataclass(frozen=True)
class _Design:
    """What a run's config asks of each solution and puzzle: ``image`` (the cell map as a list, the
    digit map as ``{d: p(d)}`` and words for the findings), ``areas`` (cells, digits, rule) and
    ``pattern`` (the given cells)."""

    n: int
    image: tuple[list[int], dict[int, int], str] | None
    areas: tuple[tuple[frozenset[int], tuple[int, ...], str], ...]
    pattern: frozenset[int] | None

    @classmethod
    def of(cls, config: Mapping[str, Any]) -> _Design | None:
        """The design of a saved config, or None when it has none; raises ValueError (what cannot be read)."""
        grid: Mapping[str, Any] = config["grid"] if isinstance(config.get("grid"), dict) else {}
        removal: Mapping[str, Any] = config["removal"] if isinstance(config.get("removal"), dict) else {}
        sym, areas, pattern = grid.get("solution_symmetry"), grid.get("areas") or [], removal.get("pattern")
        if sym is None and not areas and pattern is None:
            return None
        size = config.get("board", {}).get("size", 9) if isinstance(config.get("board"), dict) else 9
        if size not in (4, 6, 9, 16):
            raise ValueError(f"a board size {size!r} the audit cannot read")
        n = int(size)
        image = None
        if sym is not None:
            if not isinstance(sym, dict) or sym.get("map") not in _IMAGE_MAPS:
                raise ValueError("a grid.solution_symmetry the audit cannot read")
            name, word = sym["map"], str(sym.get("digits", "reverse"))
            alphabet = _SYMBOLS[:n]
            if word == "reverse":
                p = {d: n + 1 - d for d in range(1, n + 1)}
            elif word == "identity":
                p = {d: d for d in range(1, n + 1)}
            elif sorted(word.upper()) == sorted(alphabet):
                p = {d: alphabet.index(ch) + 1 for d, ch in enumerate(word.upper(), start=1)}
            else:
                raise ValueError(f"a grid.solution_symmetry.digits {word!r} the audit cannot read")
            f = _IMAGE_MAPS[name]
            cell_map = []
            for i in range(n * n):
                r, c = f(i // n, i % n, n)
                cell_map.append(r * n + c)
            image = (cell_map, p, f"{name} with digits {word}")
        rules = []
        for k, area in enumerate(areas if isinstance(areas, list) else [None]):
            if not (isinstance(area, dict) and isinstance(area.get("cells"), str)
                    and area.get("rule") in ("only", "somewhere", "never") and isinstance(area.get("digits"), list)):
                raise ValueError(f"a grid.areas.{k} the audit cannot read")
            rules.append((_cells(area["cells"], n, f"grid.areas.{k}.cells"), tuple(area["digits"]), area["rule"]))
        cells = _mask(pattern, n, "removal.pattern") if isinstance(pattern, str) else None
        if pattern is not None and cells is None:
            raise ValueError("a removal.pattern the audit cannot read")
        return cls(n, image, tuple(rules), cells)

    def problems(self, row: Mapping[str, Any]) -> list[str]:
        """Findings of one row against the design (none when its size is not the design's)."""
        n = self.n
        if row["size"] != n:
            return []  # _identity names the size
        try:
            solution, puzzle = parse(str(row["solution"]), n), parse(str(row["puzzle"]), n)
        except ValueError:
            return []  # verify_row names it
        out = []
        if self.image is not None:
            cell_map, p, words = self.image
            bad = next((i for i in range(n * n) if solution[cell_map[i]] != p.get(solution[i])), None)
            if bad is not None:
                j, d = cell_map[bad], solution[bad]
                out.append(f"solution is not its own image under grid.solution_symmetry ({words}): {_rc(bad, n)} holds "
                           f"{_SYMBOLS[d - 1]}, so {_rc(j, n)} should hold {_SYMBOLS[p[d] - 1]}, not "
                           f"{_SYMBOLS[solution[j] - 1]}")
        for k, (cells, digits, rule) in enumerate(self.areas):
            if rule == "somewhere":
                absent = [d for d in digits if not any(solution[i] == d for i in cells)]
                if absent:
                    out.append(f"solution breaks grid.areas.{k} (somewhere): digit {absent[0]} is not in the area")
                continue
            inside = rule == "never"
            stray = next((i for i in range(n * n) if (i in cells) == inside and solution[i] in digits), None)
            if stray is not None:
                where = "inside" if inside else "outside"
                out.append(f"solution breaks grid.areas.{k} ({rule}): digit {solution[stray]} at {_rc(stray, n)}, "
                           f"{where} the area")
        if self.pattern is not None:
            given = {i for i, d in enumerate(puzzle) if d}
            missing, extra = sorted(self.pattern - given), sorted(given - self.pattern)
            if missing or extra:
                what = (f"{_rc(missing[0], n)} is blank" if missing else f"{_rc(extra[0], n)} is a given")
                out.append(f"givens are not exactly removal.pattern ({len(missing)} of its cells blank, {len(extra)} "
                           f"givens outside it; e.g. {what})")
        return out
