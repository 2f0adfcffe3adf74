"""The config hash: 16 hex digits that identify the puzzle set a config describes.

Contracts: keys that cannot change the puzzles (``workers``, ``executor``, ``output.dir``) are left
out, so a set continued on another machine or executor keeps its hash; a key added after runs
already existed is left out at its "as before" value (:data:`ADDED_KEYS`), so older runs keep theirs.
:func:`hash_of` is the one recipe, for a live config and for one a manifest saved.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from pipeline.config.model import Config

#: Keys added to the config after runs already existed, with the value that means "as before": at
#: that value a key is left out of the hash, so a config that does not use it hashes as it did before
#: the key existed (a run made then still resumes, and the set's next run is not "another config").
#: A key that is added must be listed here with its default.
ADDED_KEYS: dict[tuple[str, ...], Any] = {
    # variants (board.variant, board.regions, board.cages)
    ("board", "variant"): "classic",
    ("board", "regions"): None,
    ("board", "cages"): None,
    # designed grids and clue patterns (the JSON form of each default: areas dump as a list)
    ("grid", "solution_symmetry"): None,
    ("grid", "areas"): [],
    ("removal", "pattern"): None,
    # steering toward the requested difficulty
    ("difficulty", "steer"): False,
    # the logic-only promise (no trial and error)
    ("difficulty", "logic_only"): False,
    # the technique target (docs/workbook.md)
    ("difficulty", "technique"): None,
}


#: How an unset ``grid.method`` hashes: as ``weighted-ilp``, what it meant before sets recorded their
#: generator. A run hashes its config after the plan has put the set's method there
#: (:func:`pipeline.run.plan.set_generator`), so this is only for a config no set has settled.
UNSET_GRID_METHOD = "weighted-ilp"


def hash_of(data: Mapping[str, Any]) -> str:
    """:func:`config_hash` of a config as ``Config.model_dump(mode="json")`` gave it (also one a
    manifest saved): excludes ``workers``, ``executor`` and ``output.dir`` (where and on how many
    processes puzzles are made never changes them) and :data:`ADDED_KEYS` at their old meaning; an
    unset ``grid.method`` counts as :data:`UNSET_GRID_METHOD`."""
    data = dict(json.loads(json.dumps(data)))
    data.pop("workers", None)
    data.pop("executor", None)
    data["output"].pop("dir", None)
    grid = data.get("grid")
    if isinstance(grid, dict) and grid.get("method", "") is None:
        grid["method"] = UNSET_GRID_METHOD
    for path, default in ADDED_KEYS.items():
        *parents, last = path
        holder: Any = data
        for key in parents:
            holder = holder.get(key) if isinstance(holder, dict) else None
        if isinstance(holder, dict) and last in holder and holder[last] == default:
            del holder[last]
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def config_hash(cfg: Config) -> str:
    """16 hex digits identifying the puzzle set (see :func:`hash_of`)."""
    return hash_of(cfg.model_dump(mode="json"))
