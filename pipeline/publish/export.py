"""Exports for tools that do not read Parquet: CSV, JSON lines, one-line text (``.sdk``), SVG, PNG,
and vector PDFs for layout programs.

Contracts
---------
* **CSV** has a header row with every column of the selection, schema columns first in schema
  order. List columns (``techniques``, ``variant``) are joined with ``;`` (their names never contain
  one); ``cages`` (killer) is one JSON array of ``{"cells": [...], "sum": s}`` objects;
  ``created_at`` is ISO 8601 UTC (``2026-11-22T04:28:16.635752Z``); text fields, ``seed`` included,
  are quoted, and ``seed`` is written as text: read it as a string (a spreadsheet or a float parser
  loses digits above 2^53). Nulls are empty fields.
* **JSON lines**: one object per puzzle with the same keys; ``seed`` is a *string* (JavaScript's
  numbers lose precision above 2^53), lists stay lists, nulls are ``null``. Its JSON Schema is
  :func:`jsonl_schema` (published as ``schema/numplace-export.schema.json``; a test keeps the file
  equal to it and checks exported lines against it).
* **sdk** holds the givens only, so a variant selection is refused (its diagonals, regions or cages
  would be lost without a trace; use JSON lines, SVG or PNG).
* **sdk** (one-line text): into a file, one puzzle per line, row-major, ``.`` for a blank (81
  characters for 9x9; 16x16 uses ``1-9A-G``), the form HoDoKu's "paste"/"load", Sudoku Explainer and
  most apps read; with ``--solutions`` the solutions go line for line into ``<stem>-solutions<suffix>``
  beside it. Into a folder, one ``<puzzle_id>.sdk`` per puzzle in the SadMan/Simple Sudoku layout
  (one text line per grid row) and ``<puzzle_id>-solution.sdk`` with ``--solutions``.
* **svg** / **png**: into a folder, one ``<puzzle_id>.svg`` (``.png``) per puzzle, drawn by
  :mod:`pipeline.publish.render` (an SVG has one ``<text>`` per given, and one per cage sum of a
  killer puzzle; variant rows are drawn with their regions, cages and shading), and with
  ``--solutions`` ``<puzzle_id>-solution.svg`` (``.png``).
* **Sizes**: by default a PNG has 48 px cells (9x9 and smaller; 36 px for 16x16 and 25x25) plus the frame:
  440 px square for 9x9, 584 px for 16x16, 908 px for 25x25 (:func:`png_side`), at 96 dpi, and an SVG is 40 px a
  cell plus the frame. ``--size`` (``60mm``, ``6cm``, ``2.5in``, ``170pt``) sets the printed side
  of the whole image, frame included; ``--dpi`` the pixels a printed inch (default 300 with
  ``--size``, else 96, so ``--dpi`` alone keeps the printed size and adds pixels). A PNG is then
  exactly ``round(side in inches * dpi)`` pixels square, carries its dpi (so a layout program
  places it at that size), and the grid is drawn as large as fits and centred; an SVG gets the
  size as its ``width`` and ``height`` in mm. Sizes apply to png and svg (and pdf) only.
* **pdf**: into a folder, one vector PDF per puzzle, ``<puzzle_id>.pdf``, and one per solution,
  ``<puzzle_id>-solution.pdf`` (always: layout programs place both), each a page the grid's size
  (``--size``, 60 mm by default), K only, fonts embedded (:mod:`pipeline.publish.vector`); beside
  them ``merge.csv``, the data-merge source of layout programs: ``puzzle_id``, ``set_name``,
  ``index``, ``level``, ``score``, ``hints``, ``size``, and ``@puzzle_image`` / ``@solution_image``
  (absolute paths of the two PDFs, as data merge wants them; a header starting with ``@`` marks an
  image field).
* **Extra columns** (csv and jsonl only): ``--with-path`` adds ``path``, the solving path of
  ``rate --explain`` (:func:`pipeline.publish.path.solving_path`: a list of steps in JSON lines, the
  same list as one JSON array in CSV); ``--with-link`` adds ``fpuzzles``, the puzzle's f-puzzles
  link (:func:`pipeline.publish.fpuzzles.link`).
* ``--out`` names a folder when it is an existing folder or has no suffix (a missing folder is
  created); a file otherwise. CSV and JSON lines into a folder are written as ``<set name>.csv``
  (``puzzles.csv`` when several sets are mixed).
* Every file is written whole or not at all (:func:`pipeline.atomic.atomic_write`; the files of a
  folder export are staged on the folder's own file system, :func:`staged`, so a mounted volume or a
  symlink to another disk works like any folder); a target that cannot be written raises
  :class:`~pipeline.publish.select.PublishError` naming it, a read-only one saying it is read-only.
"""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from pipeline.atomic import DiskFull, atomic_write, current_umask, is_disk_full
from pipeline.publish import render
from pipeline.publish.select import PublishError
from pipeline.run import rows

FORMATS: tuple[str, ...] = ("csv", "jsonl", "sdk", "svg", "png", "pdf")
LIST_SEPARATOR = ";"
_FOLDER_ONLY = ("svg", "png", "pdf")
#: The ``path`` column of a JSON lines export (``--with-path``): one struct a step.
PATH_DTYPE = pl.List(pl.Struct({"technique": pl.String, "cells": pl.List(pl.String), "digits": pl.List(pl.String),
                                "placements": pl.List(pl.List(pl.String)), "eliminations": pl.List(pl.List(pl.String)),
                                "text": pl.String}))
#: The data-merge source written beside a pdf export.
MERGE_CSV = "merge.csv"
#: Points in one unit of ``--size``.
UNITS: dict[str, float] = {"mm": 72 / 25.4, "cm": 72 / 2.54, "in": 72.0, "pt": 1.0}
#: The printed sides ``--size`` accepts, in points (about 1 cm to 50 cm), and the ``--dpi`` range.
SIZE_RANGE = (28.0, 1440.0)
DPI_RANGE = (36, 2400)
SCREEN_DPI = 96
PRINT_DPI = 300
#: PNG colours: ``gray`` (the default: one grey channel, so a K-only layout keeps it on black ink) or ``rgb``.
COLOURS = ("gray", "rgb")


@dataclass(frozen=True)
class Size:
    """The size of one grid image: ``side_pt`` its printed side in points (None: the format's
    default), ``dpi`` the PNG's pixels an inch (None: 96 without ``side_pt``, 300 with it)."""

    side_pt: float | None = None
    dpi: int | None = None

    @property
    def asked(self) -> bool:
        return self.side_pt is not None or self.dpi is not None

    @property
    def png_dpi(self) -> int:
        """The PNG's pixels an inch: ``dpi``, else 300 with a printed side, else 96."""
        return self.dpi or (PRINT_DPI if self.side_pt is not None else SCREEN_DPI)

    def pixels(self, n: int) -> int:
        """The side in pixels of the PNG of an n x n grid."""
        inches = self.side_pt / 72 if self.side_pt is not None else png_side(n) / SCREEN_DPI
        return max(1, round(inches * self.png_dpi))


def parse_size(text: str | None, dpi: int | None = None) -> Size:
    """``--size`` (a number and a unit of :data:`UNITS`: ``60mm``, ``2.5in``) and ``--dpi`` as a
    :class:`Size`; a bad value is a :class:`PublishError` naming the flag."""
    side = None
    if text is not None:
        t = text.strip().lower().replace(" ", "")
        unit = next((u for u in UNITS if t.endswith(u)), None)
        try:
            value = float(t[: -len(unit)]) if unit else None
        except ValueError:
            value = None
        if unit is None or value is None:
            raise PublishError(f"--size: {text!r} is not a length such as 60mm, 6cm, 2.5in or 170pt")
        side = value * UNITS[unit]
        if not SIZE_RANGE[0] <= side <= SIZE_RANGE[1]:
            raise PublishError(f"--size: {text!r} is not between 1 cm and 50 cm")
    if dpi is not None and not DPI_RANGE[0] <= dpi <= DPI_RANGE[1]:
        raise PublishError(f"--dpi: {dpi} is not between {DPI_RANGE[0]} and {DPI_RANGE[1]}")
    return Size(side, dpi)


def png_side(n: int) -> int:
    """Pixels of the side of a default PNG of an n x n grid (48 px cells, 36 px for 16x16, and the frame)."""
    return _default_image(n).size[0]


def _default_image(n: int) -> Any:
    br, bc = {4: (2, 2), 6: (2, 3), 9: (3, 3), 16: (4, 4)}.get(n, (1, n))
    return render.to_image(render.grid_art("." * n * n, br, bc))


@dataclass(frozen=True)
class Written:
    """What an export wrote: ``files`` files for ``puzzles`` puzzles under ``target``."""

    target: Path
    files: int
    puzzles: int


def text_frame(frame: pl.DataFrame, *, lists: bool) -> pl.DataFrame:
    """``frame`` with text-safe values: ``seed`` as a string, datetimes as ISO 8601 UTC strings, and
    (unless ``lists``) list columns joined with :data:`LIST_SEPARATOR`."""
    exprs: list[pl.Expr | pl.Series] = []
    for name, dtype in frame.schema.items():
        col = pl.col(name)
        if name == "seed":
            exprs.append(col.cast(pl.String))
        elif isinstance(dtype, pl.Datetime):
            exprs.append(col.dt.convert_time_zone("UTC").dt.strftime("%Y-%m-%dT%H:%M:%S%.6fZ")
                         if dtype.time_zone else col.dt.strftime("%Y-%m-%dT%H:%M:%S%.6f"))
        elif isinstance(dtype, pl.List) and isinstance(dtype.inner, pl.Struct) and not lists:
            # killer cages: one JSON array per row (a join would lose the structure)
            exprs.append(pl.Series(name, [None if v is None else json.dumps(v) for v in frame[name].to_list()],
                                   dtype=pl.String))
        elif isinstance(dtype, pl.List) and not lists:
            exprs.append(col.cast(pl.List(pl.String)).list.join(LIST_SEPARATOR))
        else:
            exprs.append(col)
    return frame.select(exprs)


def jsonl_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of one line of a JSON lines export: the row's schema
    (:func:`pipeline.run.rows.json_schema`) with ``seed`` a string of digits, the columns added
    after schema version 1 nullable too (an export of an older set has them null), and ``path`` and
    ``fpuzzles`` (``--with-path``, ``--with-link``). Closed (``additionalProperties: false``) and
    versioned: ``x-schema-version`` is the row schema's version and ``$id`` is
    ``urn:numplace:export:v<version>``, so a reader can tell which keys to expect."""
    base = rows.json_schema()
    props: dict[str, Any] = {}
    for name, spec in base["properties"].items():
        spec = dict(spec)
        if name == "seed":
            spec.update(type="string", pattern="^-?[0-9]+$")
        if name in rows.ADDED_IN and "null" not in spec["type"]:
            spec["type"] = [spec["type"], "null"]
        props[name] = spec
    pair = {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2}
    props["path"] = {"type": "array", "x-export-flag": "--with-path", "items": {
        "type": "object", "required": ["technique", "cells", "digits", "placements", "eliminations", "text"],
        "properties": {"technique": {"type": "string"}, "cells": {"type": "array", "items": {"type": "string"}},
                       "digits": {"type": "array", "items": {"type": "string"}},
                       "placements": {"type": "array", "items": pair},
                       "eliminations": {"type": "array", "items": pair}, "text": {"type": "string"}}}}
    props["fpuzzles"] = {"type": "string", "x-export-flag": "--with-link", "pattern": "^https://f-puzzles\\.com/\\?load="}
    version = base["x-schema-version"]
    return {"$schema": base["$schema"], "$id": f"urn:numplace:export:v{version}", "title": "numplace JSON lines export",
            "description": f"One line of `numplace export --format jsonl`, schema version {version}: one puzzle, "
                           "the Parquet row's keys, seed as a string. Closed: a key not listed here is an error; "
                           "a new column comes with a new schema version (and $id).",
            "x-schema-version": version, "type": "object", "properties": props,
            "required": [n for n in base["required"] if n not in rows.ADDED_IN], "additionalProperties": False}


def _is_folder(out: Path) -> bool:
    return out.is_dir() or out.suffix == ""


def cannot_write(target: Path, exc: OSError) -> PublishError:
    """The one line for an OS error writing ``target``: a read-only file system is named as such."""
    if exc.errno == errno.EROFS:
        return PublishError(f"--out {target}: is on a read-only file system")
    return PublishError(f"--out {target}: cannot write ({exc.strerror or exc.__class__.__name__})")


def _ensure_folder(folder: Path) -> None:
    if folder.exists() and not folder.is_dir():
        raise PublishError(f"--out {folder}: is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        if exc.errno == errno.EROFS:
            raise cannot_write(folder, exc) from None
        raise PublishError(f"--out {folder}: cannot create the folder ({exc.strerror or exc.__class__.__name__})"
                           ) from None


def write_file(path: Path, write: Callable[[Path], object]) -> None:
    """Write ``path`` atomically (its folder is created); an OS error becomes a one-line :class:`PublishError`."""
    _ensure_folder(path.parent)
    if path.is_dir():
        raise PublishError(f"--out {path}: is a folder")
    try:
        atomic_write(path, write)
    except DiskFull:
        raise  # exit 4, as a run's full disk
    except OSError as exc:
        raise cannot_write(path, exc) from None


@contextmanager
def staged(folder: Path, target: Path | None = None) -> Iterator[Path]:
    """An empty hidden folder (``.<name>.XXXX.tmp``) on the file system ``folder`` is on, for an export
    to write its files into; when the block ends without an error they land in ``folder`` together,
    by renames (no new space is needed, and a rename never crosses file systems): an existing
    ``folder`` (a mount point, or a symlink to another disk, included) is staged *inside* itself and
    gets each file moved in; a new ``folder`` is staged beside it, in its parent, and is the staging
    folder renamed. On any error the staging folder is removed, so nothing of the export appears; a
    full disk raises :class:`~pipeline.atomic.DiskFull` naming ``target`` (default ``folder``), a
    read-only file system a :class:`PublishError` saying so, another OS error a :class:`PublishError`.
    ``folder``'s parent is created if missing."""
    target = target or folder
    if folder.exists() and not folder.is_dir():
        raise PublishError(f"--out {folder}: is a file, not a folder")
    if folder.parent.exists() and not folder.parent.is_dir():
        raise PublishError(f"--out {folder}: cannot create the folder (Not a directory)")
    existing = folder.is_dir()
    if not existing:
        _ensure_folder(folder.parent)
    home = folder if existing else folder.parent
    try:
        tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", suffix=".tmp", dir=home))
    except OSError as exc:
        if is_disk_full(exc, home):
            raise DiskFull(target) from None
        raise cannot_write(target, exc) from None
    try:
        yield tmp
        for f in tmp.iterdir():
            with open(f, "rb") as fh:
                os.fsync(fh.fileno())
        if existing:
            for f in sorted(tmp.iterdir()):
                if (folder / f.name).is_dir():
                    raise PublishError(f"--out {folder / f.name}: is a folder")
            for f in sorted(tmp.iterdir()):
                os.replace(f, folder / f.name)
            tmp.rmdir()
        else:
            os.chmod(tmp, 0o777 & ~current_umask())  # mkdtemp made it 0700
            os.rename(tmp, folder)
    except BaseException as exc:
        full = is_disk_full(exc, home)
        shutil.rmtree(tmp, ignore_errors=True)
        if full and not isinstance(exc, DiskFull):
            raise DiskFull(target) from None
        if isinstance(exc, OSError) and not isinstance(exc, DiskFull):
            raise cannot_write(target, exc) from None
        raise


def _num(value: Any) -> float:
    return float(value) if isinstance(value, int | float) else 0.0


def _set_stem(frame: pl.DataFrame) -> str:
    names = frame["set_name"].drop_nulls().unique().to_list()
    return str(names[0]) if len(names) == 1 else "puzzles"


def extra_columns(frame: pl.DataFrame, *, with_path: bool = False, with_link: bool = False) -> pl.DataFrame:
    """``frame`` with the columns ``--with-path`` (``path``) and ``--with-link`` (``fpuzzles``) add."""
    from pipeline.publish import fpuzzles, path

    records = frame.to_dicts()
    extra = []
    if with_path:
        steps = [path.solving_path(r) for r in records]
        extra.append(pl.Series("path", [json.dumps(s) for s in steps], dtype=pl.String))
    if with_link:
        extra.append(pl.Series("fpuzzles", [fpuzzles.link(r) for r in records], dtype=pl.String))
    return frame.with_columns(extra) if extra else frame


def export(frame: pl.DataFrame, fmt: str, out: Path, *, solutions: bool = False, size: Size | None = None,
           with_path: bool = False, with_link: bool = False, colour: str = "gray") -> Written:
    """Write the rows of ``frame`` (a selection, in its order) as ``fmt`` to ``out``; see the module
    docstring for each format. ``colour`` is a PNG's (``gray``: one channel; ``rgb``). Raises
    :class:`PublishError` for an unknown format or colour, an empty frame, a size or an extra column
    for a format without one, or a target that cannot be written; :class:`~pipeline.atomic.DiskFull`
    when the disk fills up. The files of one export land together or not at all (:func:`staged`)."""
    if fmt not in FORMATS:
        raise PublishError(f"--format: {fmt!r} is not one of {', '.join(FORMATS)}")
    if (with_path or with_link) and fmt not in ("csv", "jsonl"):
        flag = "--with-path" if with_path else "--with-link"
        raise PublishError(f"{flag}: adds a column to csv and jsonl exports, not to {fmt}")
    size = size or Size()
    if size.asked and fmt not in _FOLDER_ONLY:
        raise PublishError(f"--size and --dpi: {fmt} has no image size (they apply to {', '.join(_FOLDER_ONLY)})")
    if size.dpi is not None and fmt in ("svg", "pdf"):
        raise PublishError(f"--dpi: {'an SVG' if fmt == 'svg' else 'a vector PDF'} has no pixels (use --size for its "
                           "printed size)")
    if fmt == "png" and size.asked:
        n = int(_num(frame["size"].max()))
        if size.pixels(n) < (MIN_CELL + 1) * n:
            raise PublishError(f"--size and --dpi: {size.pixels(n)} px is too small for a {n}x{n} grid "
                               f"(at least {(MIN_CELL + 1) * n} px)")
    if frame.is_empty():
        raise PublishError("nothing to export: the selection is empty")
    folder = _is_folder(out)
    if fmt in _FOLDER_ONLY and not folder:
        raise PublishError(f"--out {out}: {fmt} export writes one file per puzzle; give a folder")
    if fmt in ("csv", "jsonl"):
        path = out / f"{_set_stem(frame)}.{fmt}" if folder else out
        full = extra_columns(frame, with_path=with_path, with_link=with_link)
        if fmt == "csv":
            text = text_frame(full, lists=False)
            write_file(path, lambda tmp: text.write_csv(tmp, quote_style="non_numeric"))
        else:
            known = jsonl_schema()["properties"]  # the schema is closed: only its keys are written
            text = text_frame(full.select([c for c in full.columns if c in known]), lists=True)
            if with_path:  # a list of steps, not a JSON string, in a JSON line
                text = text.with_columns(pl.Series("path", [json.loads(x) for x in text["path"]], dtype=PATH_DTYPE))
            write_file(path, lambda tmp: text.write_ndjson(tmp))
        return Written(path, 1, frame.height)
    if colour not in COLOURS:
        raise PublishError(f"--colour: {colour!r} is not one of {', '.join(COLOURS)}")
    if fmt == "pdf":
        return _pdf_export(frame, out, size)
    variant = [c for c in render.VARIANT_COLUMNS if c in frame.columns]  # old sets lack them: classic
    if fmt == "sdk" and "variant" in frame.columns and frame["variant"].list.len().fill_null(0).max():
        raise PublishError("--format sdk holds the givens only: the selection has variant puzzles, whose "
                           "diagonals, regions or cages would be lost (use jsonl, svg or png)")
    rows = frame.select("puzzle_id", "puzzle", "solution", "box_rows", "box_cols", *variant).to_dicts()
    if fmt == "sdk" and not folder:
        if out.is_dir():
            raise PublishError(f"--out {out}: is a folder")
        files = [(out, "puzzle")]
        if solutions:
            files.append((out.with_name(f"{out.stem}-solutions{out.suffix}"), "solution"))
        with staged(out.parent, out) as tmp:  # both files, or neither
            for path, key in files:
                (tmp / path.name).write_text("".join(f"{r[key]}\n" for r in rows), encoding="utf-8")
        return Written(out, len(files), len(rows))
    count = 0
    with staged(out) as tmp:
        for r in rows:
            for answer in (False, True) if solutions else (False,):
                name = f"{r['puzzle_id']}{'-solution' if answer else ''}.{fmt}"
                _one_file(fmt, r, answer, size, colour)(tmp / name)
                count += 1
    return Written(out, count, len(rows))


def _pdf_export(frame: pl.DataFrame, out: Path, size: Size) -> Written:
    """One vector PDF per puzzle and per solution, and ``merge.csv`` beside them (module docstring)."""
    from pipeline.publish import vector

    side = size.side_pt or vector.DEFAULT_SIDE_PT
    variant = [c for c in render.VARIANT_COLUMNS if c in frame.columns]
    merge = []
    final = out.resolve()  # merge.csv names the files where they land, not where they are staged
    with staged(out) as tmp:
        for r in frame.select("puzzle_id", "set_name", "index", "difficulty", "difficulty_score", "hints", "size",
                              "puzzle", "solution", "box_rows", "box_cols", *variant).to_dicts():
            names = []
            for answer in (False, True):
                name = f"{r['puzzle_id']}{'-solution' if answer else ''}.pdf"
                title = f"{r['puzzle_id']}{' solution' if answer else ''}"
                _pdf_writer(render.art_of(r, answer), side, title)(tmp / name)
                names.append(str(final / name))
            merge.append({"puzzle_id": r["puzzle_id"], "set_name": r["set_name"], "index": r["index"],
                          "level": r["difficulty"], "score": r["difficulty_score"], "hints": r["hints"],
                          "size": r["size"], "@puzzle_image": names[0], "@solution_image": names[1]})
        table = pl.DataFrame(merge, schema={"puzzle_id": pl.String, "set_name": pl.String, "index": pl.Int64,
                                            "level": pl.String, "score": pl.Float64, "hints": pl.Int32,
                                            "size": pl.Int32, "@puzzle_image": pl.String, "@solution_image": pl.String})
        table.write_csv(tmp / MERGE_CSV)
    return Written(out, 2 * len(merge) + 1, len(merge))


def _pdf_writer(art: render.GridArt, side: float, title: str) -> Callable[[Path], object]:
    from pipeline.publish import vector

    return lambda tmp: vector.write_pdf(art, tmp, side, title)


def _text_writer(body: str) -> Callable[[Path], object]:
    return lambda tmp: tmp.write_text(body, encoding="utf-8")


def _one_file(fmt: str, row: dict[str, object], answer: bool, size: Size, colour: str = "gray"
              ) -> Callable[[Path], object]:
    """The writer of one per-puzzle file (sdk grid text, SVG or PNG)."""
    if fmt == "sdk":
        grid = str(row["solution" if answer else "puzzle"])
        n = int(str(row["box_rows"])) * int(str(row["box_cols"]))
        body = "".join(grid[k : k + n] + "\n" for k in range(0, n * n, n))
        return lambda tmp: tmp.write_text(body, encoding="utf-8")
    art = render.art_of(row, answer)
    if fmt == "svg":
        svg = render.to_svg(art, str(row["puzzle_id"]) + (" solution" if answer else ""))
        # the printed size: --size in mm, else the default PNG's pixels (CSS px, 96 an inch): one default
        side = f"{size.side_pt * 25.4 / 72:.2f}mm" if size.side_pt is not None else f"{png_side(art.n)}"
        svg = re.sub(r'^(<svg [^>]*?)width="[^"]*" height="[^"]*"', rf'\1width="{side}" height="{side}"', svg, count=1)
        return lambda tmp: tmp.write_text(svg, encoding="utf-8")
    mode = "L" if colour == "gray" else "RGB"
    if not size.asked:
        return lambda tmp: render.to_image(art).convert(mode).save(tmp, format="PNG", optimize=True,
                                                                   dpi=(SCREEN_DPI,) * 2)
    return lambda tmp: sized_png(art, size).convert(mode).save(tmp, format="PNG", optimize=True,
                                                               dpi=(size.png_dpi,) * 2)


#: The smallest cell, in pixels, of a sized PNG.
MIN_CELL = 8


def sized_png(art: render.GridArt, size: Size) -> Any:
    """``art`` as a Pillow image of exactly :meth:`Size.pixels` pixels square: the grid drawn with the
    largest whole-pixel cells that fit, centred on white."""
    from PIL import Image

    side = size.pixels(art.n)
    cell = max(MIN_CELL, side // art.n)
    grid = render.to_image(art, cell)
    while grid.size[0] > side and cell > MIN_CELL:  # the frame takes a few pixels: one cell size less
        cell -= 1
        grid = render.to_image(art, cell)
    canvas = Image.new("RGB", (side, side), "white")
    canvas.paste(grid, ((side - grid.size[0]) // 2, (side - grid.size[1]) // 2))
    return canvas
