"""``numplace check --replay K|all``: make sampled rows again from their seeds and compare.

The part hashes tie a part's bytes to the manifest, but a manifest can be hashed again by whoever
swapped the puzzles. Puzzle ``i`` is a function of the run's config and its seed alone
(:mod:`pipeline.generate.puzzle`), so a row made again from the config saved in its run's manifest
and its ``seed`` (the index's own seed or one of its redraws) must give the same puzzle. :func:`replay`
does that for ``k`` rows drawn at random (a fixed draw: the same rows each time) or for every row
(``k`` None), in this process, and returns one finding per row that differs, per row whose seed is
no seed of its index, and per run whose saved config cannot be made into a run again. Stock puzzles
(placed from an earlier run's surplus, ``from_stock``) are not replayed: their seed belongs to
another index. A replay costs what making the puzzle cost (tens of ms for a 9x9).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from pipeline.config import ConfigError, config_hash, validate
from pipeline.difficulty.techniques import NewerGrader, held_version
from pipeline.generate import version as generator
from pipeline.generate.spec import puzzle_seed
from pipeline.run.audit.ids import Expect
from pipeline.run.audit.manifests import Run
from pipeline.run.plan import job_of
from pipeline.run.work import Job, Made, make_items

#: The columns a replayed row must give again: the puzzle and everything derived from it alone.
COMPARED = ("puzzle", "solution", "hints", "symmetry", "symmetry_requested", "minimal", "orbit_minimal",
            "difficulty", "difficulty_score", "techniques", "logic_steps", "grid_number", "canonical_puzzle",
            "variant", "regions", "cages")

Sample = tuple[Run, Mapping[str, Any]]


def replay(rows: Sequence[Sample], k: int | None) -> list[str]:
    """Findings of replaying ``k`` of ``rows`` (each with its run), or all of them (``k`` None)."""
    picked = list(rows) if k is None or k >= len(rows) else random.Random(0).sample(list(rows), k)
    picked.sort(key=lambda s: (str(s[0].run_dir), s[1]["index"]))
    jobs: dict[str, Job | str] = {}
    out: list[str] = []
    for run, row in picked:
        if run.manifest is None:
            continue
        key = str(run.run_dir)
        if key not in jobs:
            jobs[key] = _job(run)
        job = jobs[key]
        if isinstance(job, str):
            if job:
                out.append(job)
                jobs[key] = ""  # said once per run
            continue
        out += _replay_row(job, Expect.of(run.manifest), row)
    return out


def _job(run: Run) -> Job | str:
    """The job that made the run (from its manifest's config), or a finding saying why there is none."""
    assert run.manifest is not None
    m = run.manifest
    try:
        cfg = validate(m.config)
    except ConfigError as exc:
        return f"{run.label}: cannot replay, the config saved in its manifest is not valid ({exc})"
    if config_hash(cfg) != m.config_hash:
        return (f"{run.label}: cannot replay, the config saved in its manifest has hash {config_hash(cfg)}, "
                f"the manifest says {m.config_hash}")
    try:
        return job_of(cfg, held_version(m.grader_version), generator.record_of(m.generator)["version"])
    except (NewerGrader, ValueError) as exc:  # ValueError: a newer or malformed generator record
        return f"{run.label}: cannot replay, {exc}"
    except ConfigError as exc:
        return f"{run.label}: cannot replay, its saved config makes no puzzles here ({exc})"


def _replay_row(job: Job, expect: Expect, row: Mapping[str, Any]) -> list[str]:
    index, seed, pid = row["index"], row["seed"], row["puzzle_id"]
    if expect.stock.get(index) == seed:
        return []  # a stock puzzle: made for another index of the set
    redraw = next((r for r in range(expect.rounds + 1) if puzzle_seed(job.config_seed, index, r) == seed), None)
    if redraw is None:
        return [f"{pid}: replay: seed {seed} is not a seed of index {index}, so it cannot be made again"]
    (item,) = make_items(job, [index], redraw)
    if not isinstance(item, Made):
        return [f"{pid}: replay: seed {seed} makes no puzzle now ({item.kind}: {item.failure})"]
    differ = [c for c in COMPARED if c in row and _norm(row[c]) != _norm(item.row.get(c))]
    if not differ:
        return []
    how = "the puzzle" if "puzzle" in differ else ", ".join(differ)
    return [f"{pid}: replay: seed {seed} makes another puzzle than the row holds ({how} differs: "
            f"{str(item.row.get(differ[0]))[:40]} made, {str(row[differ[0]])[:40]} held)"]


def _norm(value: object) -> object:
    """A value comparable whether it came from Parquet or from a freshly made row."""
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, list | tuple):
        return [_norm(v) for v in value]
    if isinstance(value, dict):
        return {k: _norm(v) for k, v in value.items()}
    return value
