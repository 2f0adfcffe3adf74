"""Where ``numplace solve`` gets its puzzles, and solving many of them in parallel.

:func:`load` reads the argument of ``numplace solve``: an inline puzzle, ``-`` (stdin), a text file,
or a Parquet/CSV file with a ``puzzle`` column. A text holds either *one* puzzle (one line, or a
drawn grid over several lines) or a *batch* (one puzzle per line; blank lines and ``#`` comments
are skipped but keep their line numbers). A batch is solved in parallel (joblib, loky); a line that
cannot be read gets status ``invalid`` and its message, and does not stop the others.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import polars as pl
from joblib import Parallel, delayed

from pipeline import solver, store
from pipeline.board import PuzzleFormatError, format_line, parse, size_of

Mode = Literal["solve", "count", "repair"]

_FILE_SUFFIX = re.compile(r"\.[a-z][a-z0-9]+$")  # .txt, .csv, .parquet: a path, not a puzzle

# Parquet columns of a batch result (line is 1-based: the line of a text file, the row of a table).
SCHEMA: dict[str, pl.DataType] = {
    "line": pl.Int64(),
    "puzzle": pl.String(),
    "status": pl.String(),  # unique, multiple, none, repaired, timeout, invalid
    "solutions_found": pl.Int32(),
    "solution": pl.String(),
    "changes": pl.List(pl.Struct({"row": pl.Int32(), "col": pl.Int32(), "from": pl.String(), "to": pl.String()})),
    "repaired_puzzle": pl.String(),
    "error": pl.String(),
}


class InputError(ValueError):
    """Input that cannot be used; the message names the file and line or position."""


@dataclass(frozen=True)
class Source:
    """What :func:`load` found: ``items`` are (line number, text); ``single`` for one puzzle."""

    name: str
    single: bool
    items: list[tuple[int, str]]


def _from_text(name: str, text: str) -> Source:
    lines = [(k + 1, ln.strip()) for k, ln in enumerate(text.splitlines())]
    lines = [(k, ln) for k, ln in lines if ln and not ln.startswith("#")]
    if not lines:
        raise InputError(f"{name}: empty, no puzzle in it")
    if len(lines) == 1:
        return Source(name, True, lines)
    try:
        size_of(lines[0][1])
    except PuzzleFormatError:
        # the first line is not a whole puzzle: the text is one drawn grid
        return Source(name, True, [(lines[0][0], "\n".join(ln for _, ln in lines))])
    return Source(name, False, lines)


def load(arg: str, stdin: Callable[[], str] = sys.stdin.read) -> Source:
    """Resolve ``numplace solve``'s argument; raises :class:`InputError` or ``StoreError``."""
    if arg == "-":
        return _from_text("stdin", stdin())
    path = Path(arg)
    if path.is_file():
        if path.suffix in (".parquet", ".csv"):
            values = store.read_puzzle_column(path)
            if not values:
                raise InputError(f"{path}: empty, no puzzle in it")
            return Source(str(path), False, [(k + 1, v) for k, v in enumerate(values)])
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise InputError(f"{path}: not a text file") from None
        return _from_text(str(path), text)
    if path.is_dir():
        raise InputError(f"{path}: is a folder, not a puzzle file")
    if "/" in arg or _FILE_SUFFIX.search(arg):
        raise InputError(f"{arg}: no such file (and not a puzzle either)")
    return Source("argument", True, [(1, arg)])


def solve_one(text: str, mode: Mode, limit: int) -> dict[str, Any]:
    """One batch row for ``text`` (never raises for bad puzzles: status ``invalid``)."""
    row: dict[str, Any] = {"puzzle": text, "status": "invalid", "solutions_found": 0, "solution": None,
                           "changes": [], "repaired_puzzle": None, "error": None}
    try:
        grid = parse(text)
    except PuzzleFormatError as exc:
        row["error"] = str(exc)
        return row
    if mode == "repair":
        rep = solver.repair(grid)
        sol = rep.solution
        row.update(status=rep.status, solutions_found=rep.solutions_found,
                   solution=format_line(sol) if sol else None, changes=[c.as_json() for c in rep.changes],
                   repaired_puzzle=format_line(rep.repaired) if rep.changes else None)
        return row
    res = solver.solve(grid, limit if mode == "count" else 2)
    row.update(status=res.status, solutions_found=len(res.solutions),
               solution=format_line(res.solution) if res.solution else None, error=res.reason)
    return row


def _chunk(items: list[tuple[int, str]], mode: Mode, limit: int) -> list[dict[str, Any]]:
    return [{"line": k, **solve_one(text, mode, limit)} for k, text in items]


def solve_batch(items: list[tuple[int, str]], mode: Mode, limit: int, workers: int,
                progress: Callable[[int, int], None] | None = None) -> list[dict[str, Any]]:
    """Solve every item in parallel; rows come back in input order."""
    size = max(1, min(200, math.ceil(len(items) / (workers * 8))))
    chunks = [items[j:j + size] for j in range(0, len(items), size)]
    par = Parallel(n_jobs=max(1, min(workers, len(chunks))), backend="loky", return_as="generator_unordered",
                   batch_size=1)
    rows: list[dict[str, Any]] = []
    if progress:
        progress(0, len(items))
    for out in par(delayed(_chunk)(c, mode, limit) for c in chunks):
        rows.extend(out)
        if progress:
            progress(len(rows), len(items))
    rows.sort(key=lambda r: r["line"])
    return rows


def write(path: Path, rows: list[dict[str, Any]]) -> None:
    """Write batch rows as Parquet (atomically)."""
    store.write_table(path, rows, SCHEMA)


def values(arg: str, stdin: Callable[[], str] = sys.stdin.read) -> list[tuple[int, str]]:
    """Non-blank lines of ``-`` (stdin) or of a file, or the argument itself: (line number, text)."""
    if arg == "-":
        text, name = stdin(), "stdin"
    elif Path(arg).is_file():
        text, name = Path(arg).read_text(encoding="utf-8"), arg
    elif "/" in arg or _FILE_SUFFIX.search(arg):
        raise InputError(f"{arg}: no such file")
    else:
        return [(1, arg.strip())]
    out = [(k + 1, ln.strip()) for k, ln in enumerate(text.splitlines()) if ln.strip() and not ln.startswith("#")]
    if not out:
        raise InputError(f"{name}: empty, nothing in it")
    return out
