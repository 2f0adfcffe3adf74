"""Commands that publish a set for people and tools that do not read Parquet: ``export`` (CSV,
JSON lines, one-line text, SVG, PNG), ``book`` (a print-ready PDF) and ``report`` (an HTML page or
PNG for an editor). Each calls one function of :mod:`pipeline.publish` and says what it wrote.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.base import user_errors

#: The sets a publishing command reads (each command's first argument).
Paths = Annotated[list[Path], typer.Argument(metavar="SET_OR_RUN...", help="Set folders, run folders or part files.")]
#: ``--exclude``: used.json files whose ids a command leaves out.
Exclude = Annotated[list[Path] | None, typer.Option(metavar="USED_JSON",
                                                    help="Leave out the ids in this used.json (repeatable).")]
#: ``--allow-incomplete``: publish a set whose runs are not all complete.
AllowIncomplete = Annotated[bool, typer.Option("--allow-incomplete", help="Publish a set whose runs are not all "
                                               "complete (refused otherwise, naming what is missing).")]
#: ``--allow-fewer``: a count that finds fewer puzzles takes those (refused otherwise, with both numbers).
AllowFewer = Annotated[bool, typer.Option("--allow-fewer", help="Take fewer puzzles than --count (or a section's "
                                          "count, or a workbook chapter) asks for when fewer match (refused "
                                          "otherwise, with the count).")]


@user_errors
def export(
    paths: Paths,
    out: Annotated[Path, typer.Option(help="A file (csv, jsonl, sdk) or a folder (one file per puzzle; pdf adds "
                                           "merge.csv).")],
    fmt: Annotated[str, typer.Option("--format", metavar="FORMAT", help="csv | jsonl | sdk | svg | png | pdf.")
                   ] = "csv",
    solutions: Annotated[bool, typer.Option("--solutions", help="Also write each solution (sdk, svg, png).")] = False,
    level: Annotated[list[str] | None, typer.Option(metavar="LEVEL", help="Only these levels (repeat, or "
                                                                          "comma-separated).")] = None,
    score: Annotated[str | None, typer.Option(metavar="A-B", help="Only scores in A-B (A-, -B, N).")] = None,
    hints: Annotated[str | None, typer.Option(metavar="A-B", help="Only puzzles with A-B givens.")] = None,
    count: Annotated[int | None, typer.Option(help="At most this many puzzles (the first, in index order).")] = None,
    exclude: Exclude = None,
    size: Annotated[str | None, typer.Option(metavar="LENGTH", help="Printed side of each image, frame included: "
                                                                    "60mm, 6cm, 2.5in or 170pt (png, svg).")] = None,
    dpi: Annotated[int | None, typer.Option(help="PNG pixels an inch (default 300 with --size, else 96).")] = None,
    with_path: Annotated[bool, typer.Option("--with-path", help="Add each puzzle's solving path, as rate --explain "
                                                                "gives it (csv, jsonl).")] = False,
    with_link: Annotated[bool, typer.Option("--with-link", help="Add each puzzle's f-puzzles link (csv, jsonl).")
                         ] = False,
    allow_incomplete: AllowIncomplete = False,
    logic_only: Annotated[bool, typer.Option("--logic-only", help="Only puzzles whose grade needs no trial and "
                                                                  "error (needs_guessing false).")] = False,
    allow_fewer: AllowFewer = False,
    colour: Annotated[str, typer.Option(metavar="gray|rgb", help="PNG colour: gray (one channel, K only in a "
                                                                 "layout) or rgb.")] = "gray",
) -> None:
    """Export puzzles for tools that do not read Parquet: CSV, JSON lines, one-line text, SVG, PNG, or one
    vector PDF per puzzle and solution with a data-merge CSV for layout programs."""
    from pipeline.publish import export as exportmod
    from pipeline.publish import select

    grid_size = exportmod.parse_size(size, dpi)
    flt = select.filter_from_flags(level, score, hints, count, logic_only)
    frame = select.select(paths, flt, select.read_used(exclude or []), allow_incomplete=allow_incomplete,
                          allow_fewer=allow_fewer)
    written = exportmod.export(frame, fmt, out, solutions=solutions, size=grid_size, with_path=with_path,
                               with_link=with_link, colour=colour)
    typer.echo(f"wrote {written.puzzles} puzzles as {fmt} to {written.target} ({written.files} file(s))")


@user_errors
def book(
    paths: Paths,
    out: Annotated[Path, typer.Option(help="The PDF to write; <stem>.used.json goes beside it.")],
    config: Annotated[Path | None, typer.Option(help="Book config (YAML); defaults: A4, 4 a page, answers.")
                      ] = None,
    title: Annotated[str | None, typer.Option(help="Title (overrides the config's).")] = None,
    per_page: Annotated[int | None, typer.Option(help="Puzzles a page: 1, 2, 4 or 6 (overrides the config's).")
                        ] = None,
    lang: Annotated[str | None, typer.Option(help="Language of every printed word: en or ja (overrides the "
                                                  "config's).")] = None,
    level: Annotated[list[str] | None, typer.Option(help="Only these levels (repeat, or comma-separated); a "
                                                         "book without sections.")] = None,
    count: Annotated[int | None, typer.Option(help="This many puzzles (the first that match, in the sets' "
                                                   "order); a book without sections.")] = None,
    exclude: Exclude = None,
    allow_incomplete: AllowIncomplete = False,
    allow_fewer: AllowFewer = False,
    workbook: Annotated[bool, typer.Option("--workbook", help="A technique workbook: a chapter per technique the "
                                                              "puzzles were made for (the config's workbook "
                                                              "section, or its defaults).")] = False,
) -> None:
    """Make a print-ready puzzle book (PDF): title, contents, sections easy -> extreme, answers."""
    from pipeline.publish import book as bookmod
    from pipeline.publish import select

    levels = list(select.check_levels([v.strip() for lv in level for v in lv.split(",") if v.strip()], "--level")
                  ) if level else None
    cfg = bookmod.load_config(config, {"title": title, "per_page": per_page, "lang": lang, "levels": levels,
                                       "count": count})
    if workbook or cfg.workbook is not None:
        from pipeline.publish import workbook as wbmod

        if cfg.workbook is None:
            cfg = bookmod.validate_config({**cfg.model_dump(exclude_defaults=True), "workbook": {}})
        pages, chapters = wbmod.make_workbook(paths, out, cfg, select.read_used(exclude or []),
                                              allow_incomplete=allow_incomplete, allow_fewer=allow_fewer)
        typer.echo(f"wrote {out}: {pages} pages, {wbmod.summary(chapters, cfg)}; ids in {bookmod.used_path(out)}")
        return
    for made in bookmod.make_books(paths, out, cfg, select.read_used(exclude or []), exclude or [],
                                   allow_incomplete=allow_incomplete, allow_fewer=allow_fewer):
        n = sum(len(p.items) for p in made.pages if p.kind == "puzzles")
        typer.echo(f"wrote {made.path}: {len(made.pages)} pages, {n} puzzles; ids in {bookmod.used_path(made.path)}")


@user_errors
def report(
    paths: Paths,
    out: Annotated[Path, typer.Option(help="The file to write: report.html (a page) or report.png (one image).")],
    fmt: Annotated[str | None, typer.Option("--format", help="html or png; the suffix of --out decides, and this "
                                                             "must agree with it.")] = None,
    exclude: Exclude = None,
) -> None:
    """Report a set or run for an editor: counts, hints, difficulty, techniques, time, failures, the
    stock left per level."""
    from pipeline.publish import report as reportmod
    from pipeline.publish import select

    reportmod.make_report(paths, out, fmt, select.read_used(exclude or []))
    typer.echo(f"wrote {out}")
