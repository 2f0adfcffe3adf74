"""The keys that define a set: what every run of a set must agree on.

A set is one stream of puzzles that a reader takes as one kind: a book of 9x9 killer puzzles, an app
level pack of 6x6 classics. What makes two puzzles the same kind is the board they are played on:
``board.size``, ``board.variant`` (its kinds), ``board.regions`` (the jigsaw layout) and, for a killer
board, ``board.cages`` (cage sizes, one-cell cages, whether givens are kept). These are
:data:`DEFINING`; a run that changes one of them is refused (:mod:`pipeline.run.plan`) and ``numplace
check`` flags a set whose runs disagree on them (:mod:`pipeline.run.audit.history`).

Roads not taken (``docs/operations.md``, "Keys that define a set"):

* ``removal.symmetry`` and the hint rule (``removal.hints``, ``removal.minimal``) shape the givens of
  a puzzle of the same kind; every row records them (``symmetry``, ``hints``, ``minimal``), a book
  mixes them freely, and a nightly job may well want a change of style without starting over.
* ``grid.method`` is how a solution grid is drawn, not what the puzzle is (every row records it in
  ``grid_source``), and a set keeps its own through its generator record; a config that leaves it
  unset continues any set (a newer numplace may change the default for new sets).
* ``difficulty`` targets change what is kept, not what is made; a set holds several levels anyway.

:func:`defining_keys` reads them from a saved config (a manifest's, a mapping) or a
:class:`~pipeline.config.model.Config`, normalized (a variant as its sorted kinds, regions relabelled,
a killer board's missing ``cages`` as their defaults), so configs saved by older numplace versions
compare equal to what they meant.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: The keys that define a set, in the order they are reported.
DEFINING = ("board.size", "board.variant", "board.regions", "board.cages")

_CAGE_DEFAULTS = {"min_size": 2, "max_size": 5, "singles": False, "givens": False}


def defining_keys(config: Mapping[str, Any] | Any) -> dict[str, Any] | None:
    """The :data:`DEFINING` keys of ``config`` (a saved config mapping, or a ``Config``), normalized;
    None when the saved config is too damaged to say (``check`` reports that elsewhere)."""
    from pipeline.board import make_variant

    if hasattr(config, "model_dump"):
        config = config.model_dump(mode="json")
    board = config.get("board", {}) if isinstance(config, Mapping) else None
    if board is None:
        board = {}
    if not isinstance(board, Mapping):
        return None
    try:
        rules = make_variant(board.get("variant", "classic"), board.get("regions"))
    except (TypeError, ValueError, AttributeError, KeyError):
        return None
    kinds = sorted(rules.kinds)
    cages: dict[str, Any] | None = None
    if "killer" in kinds:
        raw = board.get("cages")
        cages = {**_CAGE_DEFAULTS, **(dict(raw) if isinstance(raw, Mapping) else {})}
    regions = rules.regions
    return {"board.size": board.get("size", 9), "board.variant": kinds or ["classic"],
            "board.regions": "".join(str(x) for x in regions) if regions is not None else None,
            "board.cages": cages}


def differences(before: Mapping[str, Any] | None, after: Mapping[str, Any] | None) -> list[tuple[str, Any, Any]]:
    """``(key, value before, value after)`` for each :data:`DEFINING` key on which the two
    :func:`defining_keys` results differ (nothing when either is None)."""
    if before is None or after is None:
        return []
    return [(k, before.get(k), after.get(k)) for k in DEFINING if before.get(k) != after.get(k)]


def shown(key: str, value: Any) -> str:
    """A defining key's value as a message shows it (regions are long: only said to differ)."""
    if value is None:
        return "none"
    if key == "board.regions":
        return f"a layout of {len(str(value))} cells"
    if key == "board.variant":
        return "+".join(value)
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    return str(value)
