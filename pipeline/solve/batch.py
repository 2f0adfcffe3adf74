"""Where ``numplace solve`` and friends get their input, and solving many puzzles in parallel.

:func:`read_lines` is the one reader of a command's input argument: ``-`` (stdin), a text file, or
the argument itself (inline). Text is UTF-8; blank lines and ``#`` comment lines (after stripping,
so an indented ``# note`` is a comment too) are skipped but keep their 1-based line numbers.
Two views build on it:

* :func:`load` (``numplace solve``, ``numplace rate``): also a Parquet/CSV file with a ``puzzle``
  column; a text holds either *one* puzzle (one line, or a drawn grid over several lines) or a
  *batch* (one puzzle per line).
* :func:`values` (``grid-number``, ``grid-from-number``, ``canon``): one value per line, never a
  drawn grid.

A batch is solved in parallel (joblib, loky; in this process for one worker or one chunk), on the
compiled counter first (its numba load is paid once per worker); a line that cannot be read gets
status ``invalid`` and its message, and does not stop the others. A batch row (:data:`SCHEMA`)
takes its result fields from :func:`pipeline.solve.solver.outcome`, the same record
``numplace solve --format json`` uses.

Start-up: polars and joblib are imported inside the functions that need them (a table to read or
write, more than one worker), so reading one puzzle or a text batch for stdout loads neither;
:data:`SCHEMA` (polars types) is built on first access.

Output files (``--out``) are written in the format their suffix names (:data:`BATCH_SUFFIXES` for a
batch, :data:`SINGLE_SUFFIXES` for one puzzle); :func:`check_out` refuses any other suffix, a folder
or a missing folder before any work is done.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pipeline.atomic import atomic_write
from pipeline.board import PuzzleFormatError, Variant, parse_with_rules
from pipeline.errors import UserError
from pipeline.solve import blocks, solver

if TYPE_CHECKING:
    import polars as pl

Mode = Literal["solve", "count", "repair"]

_FILE_SUFFIX = re.compile(r"\.[a-z][a-z0-9]+$")  # .txt, .csv, .parquet: a path, not a puzzle

#: The columns of a batch result, in order (the keys of :data:`SCHEMA`).
COLUMNS = ("line", "puzzle", "status", "solutions_found", "solution", "changes", "repaired_puzzle", "error",
           "repaired_status", "repair_note")


@cache
def _schema() -> dict[str, pl.DataType]:
    """Parquet columns of a batch result (line is 1-based: the line of a text file, the row of a table)."""
    import polars as pl

    return {
        "line": pl.Int64(),
        "puzzle": pl.String(),
        "status": pl.String(),  # unique, multiple, none, repaired, timeout, invalid
        "solutions_found": pl.Int32(),
        "solution": pl.String(),
        "changes": pl.List(pl.Struct({"row": pl.Int32(), "col": pl.Int32(), "from": pl.String(),
                                      "to": pl.String()})),
        "repaired_puzzle": pl.String(),
        "error": pl.String(),
        "repaired_status": pl.String(),  # --repair: the repaired puzzle's status (as solve --format json); else null
        "repair_note": pl.String(),  # --repair: why the repaired puzzle is not unique, when it is not; else null
    }


def __getattr__(name: str) -> Any:
    """``SCHEMA``: the :func:`_schema` dict, built (and polars imported) on first access."""
    if name == "SCHEMA":
        return _schema()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# What --out may name: a batch's result table, or one puzzle's rendered result.
BATCH_SUFFIXES = (".parquet", ".csv", ".jsonl")
SINGLE_SUFFIXES = (".txt", ".json")


class InputError(UserError, ValueError):
    """Input that cannot be used; the message names the file and line or position."""


@dataclass(frozen=True)
class Source:
    """What :func:`load` found: ``items`` are (line number, text); ``single`` for one puzzle."""

    name: str
    single: bool
    items: list[tuple[int, str]]


@dataclass(frozen=True)
class Lines:
    """What :func:`read_lines` found.

    ``name`` is ``stdin``, the file's path, or ``argument``. For stdin or a file (``inline`` false)
    ``items`` are (1-based line number, stripped text) of the non-blank, non-comment lines in order,
    never empty. For an inline argument (``inline`` true) ``items`` is ``[(1, arg)]``, unchanged.
    """

    name: str
    items: list[tuple[int, str]]
    inline: bool


def _text_lines(name: str, text: str, nothing: str) -> Lines:
    """The non-blank, non-comment lines of ``text`` (a ``#`` comment is tested after stripping)."""
    items = [(k + 1, s) for k, ln in enumerate(text.splitlines()) if (s := ln.strip()) and not s.startswith("#")]
    if not items:
        raise InputError(f"{name}: empty, {nothing} in it")
    return Lines(name, items, inline=False)


def read_lines(arg: str, stdin: Callable[[], str] = sys.stdin.read, *, nothing: str = "nothing") -> Lines:
    """Resolve an input argument and read its lines (see :class:`Lines`).

    ``-`` reads ``stdin()``; an existing file is read as UTF-8 text; a folder, or a missing path
    (the argument has a ``/`` or a file suffix such as ``.txt``), is an error; anything else is the
    inline value itself (always for a JSON line or a text of several lines). Raises
    :class:`InputError` (one line naming the input) for an empty or blank argument, a folder, a
    missing file, text that is not UTF-8, or text with no line left (``"<name>: empty, <nothing> in
    it"``). Knows nothing of tables or drawn grids; :func:`load` and :func:`values` add those rules.
    """
    if arg == "-":
        try:
            text = stdin()
        except UnicodeDecodeError:
            raise InputError("stdin: not UTF-8 text") from None
        return _text_lines("stdin", text, nothing)
    if not arg.strip():  # Path("") is the current folder: never read it as one
        raise InputError("empty argument: give a puzzle, a file of them, or - for stdin")
    path = Path(arg)
    kind = _kind(path)
    if kind == "file":
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise InputError(f"{path}: not a text file") from None
        except OSError as exc:
            raise InputError(f"{path}: cannot read it ({exc.strerror})") from None
        return _text_lines(str(path), text, nothing)
    if kind == "folder":
        raise InputError(f"{path}: is a folder, not a puzzle file")
    looks_like_path = ("/" in arg or _FILE_SUFFIX.search(arg)) and "\n" not in arg and not arg.lstrip().startswith("{")
    if looks_like_path:  # a JSON puzzle line or a drawn grid may hold a "/" and still be a puzzle
        shown = arg if arg.isprintable() and len(arg) <= 200 else repr(arg[:200])
        raise InputError(f"{shown}: no such file (and not a puzzle either)")
    return Lines("argument", [(1, arg)], inline=True)


def _kind(path: Path) -> Literal["file", "folder", "none"]:
    """What ``path`` names on disk; ``none`` also for text that cannot be a path at all (a 16x16
    puzzle of 256 characters is longer than a file name may be)."""
    try:
        return "file" if path.is_file() else "folder" if path.is_dir() else "none"
    except OSError:  # e.g. ENAMETOOLONG
        return "none"


def load(arg: str, stdin: Callable[[], str] = sys.stdin.read) -> Source:
    """Resolve ``numplace solve``'s argument; raises :class:`InputError`.

    On top of :func:`read_lines`: a ``.parquet``/``.csv`` file is a batch of its ``puzzle`` column
    (line = 1-based row); a text with one line left is one puzzle; JSON puzzle lines are a batch;
    otherwise the text is read by :func:`pipeline.solve.blocks.puzzles` (what ``numplace show``
    prints, titles and drawn grids included; one puzzle per line): one puzzle found is one puzzle
    (numbered by its first grid line), more are a batch.
    """
    path = Path(arg)
    if path.suffix in (".parquet", ".csv") and _kind(path) == "file":
        column = _puzzle_column(path)
        if not column:
            raise InputError(f"{path}: empty, no puzzle in it")
        return Source(str(path), False, [(k + 1, v) for k, v in enumerate(column)])
    lines = read_lines(arg, stdin, nothing="no puzzle")
    items = lines.items
    if lines.inline:
        text = items[0][1]
        if "\n" not in text.strip() or text.lstrip().startswith("{"):
            return Source(lines.name, True, items)
        items = _text_lines(lines.name, text, "no puzzle").items
    if len(items) == 1:
        return Source(lines.name, True, items)
    if items[0][1].lstrip().startswith("{"):  # JSON puzzle lines (pipeline.board.parse_with_rules)
        return Source(lines.name, False, items)
    found = blocks.puzzles(items)
    if not found:  # no grid line at all: the parser names what is wrong with the text
        return Source(lines.name, True, [(items[0][0], "\n".join(ln for _, ln in items))])
    return Source(lines.name, len(found) == 1, found)


def solve_one(text: str, mode: Mode, limit: int, *, compiled_first: bool = False,
              rules: Variant | None = None) -> dict[str, Any]:
    """One batch row for ``text`` without its ``line`` (the other :data:`SCHEMA` columns, in order).

    Never raises for a bad puzzle: it gets status ``invalid`` and the parse message in ``error``.
    ``puzzle`` is ``text`` as given; the result columns come from :func:`pipeline.solve.solver.outcome`,
    with ``error`` holding its ``reason`` (why there is no solution; ``None`` otherwise). ``count``
    searches up to ``limit`` solutions, ``solve`` up to 2. ``compiled_first``: as for
    :func:`pipeline.solve.solver.count_solutions` (a batch worker sets it). ``text`` may be a JSON
    puzzle line with its own variant; plain text is played by ``rules`` (None: classic).
    ``repaired_status`` and ``repair_note`` are set by ``repair`` only (as in ``solve --repair --format
    json`` of one puzzle), null otherwise.
    """
    row: dict[str, Any] = {"puzzle": text, "status": "invalid", "solutions_found": 0, "solution": None,
                           "changes": [], "repaired_puzzle": None, "error": None, "repaired_status": None,
                           "repair_note": None}
    try:
        grid, variant = parse_with_rules(text, rules)
    except PuzzleFormatError as exc:
        row["error"] = str(exc)
        return row
    result = (solver.repair(grid, compiled_first=compiled_first, variant=variant) if mode == "repair"
              else solver.solve(grid, limit if mode == "count" else 2, compiled_first=compiled_first, variant=variant))
    out = solver.outcome(result)
    row.update(status=out.status, solutions_found=out.solutions_found, solution=out.solution,
               changes=out.changes_json(), repaired_puzzle=out.repaired_puzzle, error=out.reason)
    if mode == "repair":  # the fields of a single puzzle's repair (solve --repair --format json)
        row.update(repaired_status=out.repaired_status, repair_note=out.note)
    return row


def _chunk(items: list[tuple[int, str]], mode: Mode, limit: int, rules: Variant | None = None) -> list[dict[str, Any]]:
    return [{"line": k, **solve_one(text, mode, limit, compiled_first=True, rules=rules)} for k, text in items]


def solve_batch(items: list[tuple[int, str]], mode: Mode, limit: int, workers: int,
                progress: Callable[[int, int], None] | None = None,
                rules: Variant | None = None) -> list[dict[str, Any]]:
    """Solve every item, in parallel for ``workers > 1``; rows come back in input order.

    One worker, or one chunk, runs in this process without joblib (what joblib does for
    ``n_jobs=1`` too, minus its import); the rows are the same either way.
    """
    size = max(1, min(200, math.ceil(len(items) / (workers * 8))))
    chunks = [items[j:j + size] for j in range(0, len(items), size)]
    rows: list[dict[str, Any]] = []
    if progress:
        progress(0, len(items))
    outs: Iterable[list[dict[str, Any]]]
    if workers <= 1 or len(chunks) == 1:
        outs = (_chunk(c, mode, limit, rules) for c in chunks)
    else:
        from joblib import Parallel, delayed

        par = Parallel(n_jobs=min(workers, len(chunks)), backend="loky", return_as="generator_unordered",
                       batch_size=1)
        outs = par(delayed(_chunk)(c, mode, limit, rules) for c in chunks)
    for out in outs:
        rows.extend(out)
        if progress:
            progress(len(rows), len(items))
    rows.sort(key=lambda r: r["line"])
    return rows


def _puzzle_column(path: Path) -> list[str]:
    """The ``puzzle`` column of a Parquet or CSV file, as strings (null -> empty string)."""
    import polars as pl

    try:
        if path.suffix == ".parquet":
            frame = pl.read_parquet(path, columns=None)
        else:
            frame = pl.read_csv(path, infer_schema_length=0)
    except Exception as exc:  # polars raises several types for damaged files
        raise InputError(f"{path}: cannot read it as {path.suffix[1:].upper()} ({exc.__class__.__name__})") from None
    if "puzzle" not in frame.columns:
        shown = [c if c and c.isprintable() and c == c.strip() else repr(c) for c in frame.columns[:12]]
        more = ", ..." if len(frame.columns) > 12 else ""  # a header of any bytes: still one short line
        raise InputError(f"{path}: no 'puzzle' column (columns: {', '.join(shown) or 'none'}{more})")
    if path.suffix == ".parquet" and "variant" in frame.columns:
        # a numplace part file: a variant row becomes its JSON puzzle line, so its rules go with it
        keep = [c for c in ("puzzle", "variant", "regions", "cages") if c in frame.columns]
        return [json.dumps({k: r[k] for k in keep if r[k] is not None}) if r["variant"] else
                ("" if r["puzzle"] is None else str(r["puzzle"])) for r in frame.select(keep).iter_rows(named=True)]
    return ["" if v is None else str(v) for v in frame["puzzle"].to_list()]


def check_out(path: Path, single: bool) -> str:
    """Check an output file name before any work; returns its suffix (lower case).

    ``single``: one puzzle's result (:data:`SINGLE_SUFFIXES`), else a batch's (:data:`BATCH_SUFFIXES`).
    Raises :class:`InputError` (one line) when ``path`` is an existing folder, its suffix names no
    allowed format, or its folder is missing or not a folder.
    """
    allowed = SINGLE_SUFFIXES if single else BATCH_SUFFIXES
    names = ", ".join(allowed[:-1]) + " or " + allowed[-1]
    if _kind(path) == "folder":
        raise InputError(f"--out {path}: is a folder; name a file ending in {names}")
    suffix = path.suffix.lower()
    if suffix not in allowed:
        what = "one puzzle's result" if single else "batch results"
        got = f"{path.suffix!r} is not a format for {what}" if path.suffix else f"no suffix to name a format for {what}"
        raise InputError(f"--out {path}: {got}; use {names}")
    _check_folder(path)
    return suffix


def write(path: Path, rows: list[dict[str, Any]]) -> None:
    """Write batch rows to ``path`` in the format its suffix names (:func:`check_out`), whole or not
    at all: ``.parquet`` with :data:`SCHEMA`; ``.csv`` with the same columns, ``changes`` as JSON
    text; ``.jsonl`` one JSON object per row (the :data:`SCHEMA` keys, in order)."""
    suffix = check_out(path, single=False)
    if suffix == ".jsonl":
        text = "".join(json.dumps({k: r[k] for k in COLUMNS}) + "\n" for r in rows)
        atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))
        return
    import polars as pl

    if suffix == ".csv":
        flat = [{**r, "changes": json.dumps(r["changes"])} for r in rows]
        frame = pl.DataFrame(flat, schema={**_schema(), "changes": pl.String()})
        atomic_write(path, lambda tmp: frame.write_csv(tmp))
    else:
        frame = pl.DataFrame(rows, schema=_schema())
        atomic_write(path, lambda tmp: frame.write_parquet(tmp, compression="zstd"))


def write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path``, whole or not at all (its folder must exist: :class:`InputError`)."""
    _check_folder(path)
    atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def _check_folder(path: Path) -> None:
    kind = _kind(path.parent)
    if kind != "folder":
        why = "not a folder" if kind == "file" else "no such folder"
        raise InputError(f"{path.parent}: {why} for the output file")


def values(arg: str, stdin: Callable[[], str] = sys.stdin.read) -> list[tuple[int, str]]:
    """One value per line of ``-`` (stdin) or of a file, or the argument itself: (line number, text).

    The lines are :func:`read_lines`'s (same skipping, numbering and errors; an empty input is
    ``"<name>: empty, nothing in it"``); an inline argument is stripped. Unlike :func:`load` there
    is no drawn-grid or table reading: every line is a value of its own.
    """
    lines = read_lines(arg, stdin)
    return [(1, arg.strip())] if lines.inline else lines.items
