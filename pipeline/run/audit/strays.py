"""Files and folders that a documented reader of a set or run folder takes, but that are not the set's.

The documented read forms (``docs/output.md``, "Reading a set") are the globs
``<set>/*/part-*.parquet`` of polars and duckdb, whose ``*`` matches every folder name (``_backup``
and ``.old`` too), and pyarrow's dataset discovery behind ``pd.read_parquet(<set or run folder>)``,
which takes every file below the folder unless a name on its way starts with ``_`` or ``.``.

What belongs to a set: the part files (``part-NNNNN.parquet``) of its run folders (folders with a
manifest, or with part files, whose names are not reserved) and the reserved names of
:mod:`pipeline.run.layout` (manifests, ``_SUCCESS``, ``_lock``, ``_stock/``, temp files); an old
run's ``manifest.json`` too. :func:`strays` returns one finding per other path a reader would take,
naming the reader and the fix (move it out of the output root). A run folder that is a copy of
another run (its manifest's ``run_id`` is another name) is named too: both would be read.
"""

from __future__ import annotations

from pathlib import Path

from pipeline.run.audit.manifests import Run
from pipeline.run.layout import OLD_MANIFEST, parts_in, reserved

_GLOB = "the polars and duckdb globs (<set>/*/part-*.parquet)"
_PANDAS = "pd.read_parquet of the {what} folder"


def strays(path: Path, runs: list[Run]) -> list[str]:
    """Findings for what a documented reader of ``path`` (a set or run folder) would read besides the
    set's own parts; a part file given alone has none."""
    if not path.is_dir():
        return []
    whole = {r.run_dir for r in runs if r.whole}
    if path in whole:
        return [x for x in (_renamed(r, runs) for r in runs if r.whole) if x] + _in_run(path, "run")
    out = [x for x in (_renamed(r, runs) for r in runs if r.whole and not reserved(r.run_dir.name)) if x]
    for entry in sorted(path.iterdir()):
        if entry in whole:
            if reserved(entry.name):
                out.append(_hidden(entry, runs))
            out += _in_run(entry, "set")
        elif entry.is_dir():
            out += _folder(entry)
        elif not reserved(entry.name):
            out.append(_finding(entry, _PANDAS.format(what="set"), "takes its rows (or fails on it)"))
    return out


def _made_as(run: Run) -> str | None:
    made_as = run.manifest.data.get("run_id") if run.manifest is not None else None
    return made_as if isinstance(made_as, str) else None


def _renamed(run: Run, runs: list[Run]) -> str:
    """A run folder whose name is not the run id its manifest gives: a copy of a run that is in the
    set too (every reader takes its puzzles twice), or a run folder renamed by hand."""
    made_as = _made_as(run)
    if made_as is None or made_as == run.run_dir.name:
        return ""
    twins = [r for r in runs if r is not run and (r.run_dir.name == made_as or _made_as(r) == made_as)]
    if twins:
        return (f"{run.run_dir}: a copy of run {made_as} (its manifest says so, and {twins[0].run_dir.name} is "
                f"that run too): every reader takes its puzzles twice; move it out of the output root")
    return (f"{run.run_dir}: the folder's name does not match its manifest, which says it is run {made_as}: "
            f"renamed by hand (its catalog entry and --resume go by the run's own name); rename it back: "
            f"mv {run.run_dir} {run.run_dir.parent / made_as}")


def _hidden(folder: Path, runs: list[Run]) -> str:
    """A run folder under a reserved name, that no visible run duplicates."""
    run = next(r for r in runs if r.run_dir == folder)
    made_as = _made_as(run) or folder.name
    back = folder.parent / made_as
    return (f"{folder}: a run folder (run {made_as}, its manifest says) under a name that pandas and pyarrow "
            f"skip, while {_GLOB} take its {len(run.parts)} part file(s): readers disagree on the set; rename "
            f"it back (mv {folder} {back}) or move it out of the output root")


def _folder(folder: Path) -> list[str]:
    """A folder of the set folder that is not a run folder."""
    if reserved(folder.name):
        parts = parts_in(folder)
        if not parts:
            return []  # _stock/, a .<run_id>.tmp folder in the making: no reader takes anything here
        return [_finding(folder, _GLOB, f"take its {len(parts)} part file(s)")]
    files = _visible_files(folder)
    if not files:
        return []
    return [_finding(folder, _PANDAS.format(what="set"), f"takes its {len(files)} file(s) (or fails on them)")]


def _in_run(run_dir: Path, what: str) -> list[str]:
    """What is in a run folder besides its parts and reserved names."""
    own = set(parts_in(run_dir))
    out = []
    for entry in sorted(run_dir.iterdir()):
        if reserved(entry.name) or entry in own or entry.name == OLD_MANIFEST:
            continue
        if entry.is_dir():
            files = _visible_files(entry)
            if files:
                out.append(_finding(entry, _PANDAS.format(what=what),
                                    f"takes its {len(files)} file(s) (or fails on them)"))
        else:
            why = "beside the parts but not one of them (not named part-NNNNN.parquet); "
            out.append(_finding(entry, _PANDAS.format(what=what), why + "takes its rows (or fails on it)"))
    return out


def _visible_files(folder: Path) -> list[Path]:
    """The files below ``folder`` that pyarrow's discovery takes: no name on the way starts with
    ``_`` or ``.``."""
    found = []
    for p in folder.rglob("*"):
        if p.is_file() and not any(reserved(part) for part in p.relative_to(folder).parts):
            found.append(p)
    return found


def _finding(where: Path, reader: str, does: str) -> str:
    return (f"{where}: not part of the set, but {reader} {does}; move it out of the output root "
            f"(e.g. mv {where} <somewhere outside>)")
