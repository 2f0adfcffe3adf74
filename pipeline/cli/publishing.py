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
Paths = Annotated[list[Path], typer.Argument(help="Set folders, run folders or part files.")]
#: ``--exclude``: used.json files whose ids a command leaves out.
Exclude = Annotated[list[Path] | None, typer.Option(help="Leave out the ids in this used.json (repeatable).")]


@user_errors
def export(
    paths: Paths,
    out: Annotated[Path, typer.Option(help="A file (csv, jsonl, sdk) or a folder (one file per puzzle).")],
    fmt: Annotated[str, typer.Option("--format", help="csv | jsonl | sdk | svg | png.")] = "csv",
    solutions: Annotated[bool, typer.Option("--solutions", help="Also write each solution (sdk, svg, png).")] = False,
    level: Annotated[list[str] | None, typer.Option(help="Only these levels (repeat, or comma-separated).")] = None,
    score: Annotated[str | None, typer.Option(help="Only scores in A-B (A-, -B, N).")] = None,
    hints: Annotated[str | None, typer.Option(help="Only puzzles with A-B givens.")] = None,
    count: Annotated[int | None, typer.Option(help="At most this many puzzles (the first, in index order).")] = None,
    exclude: Exclude = None,
    logic_only: Annotated[bool, typer.Option("--logic-only", help="Only puzzles whose grade needs no trial and "
                                                                  "error (needs_guessing false).")] = False,
) -> None:
    """Export puzzles for tools that do not read Parquet: CSV, JSON lines, one-line text, SVG or PNG."""
    from pipeline.publish import export as exportmod
    from pipeline.publish import select

    flt = select.filter_from_flags(level, score, hints, count, logic_only)
    frame = select.select(paths, flt, select.read_used(exclude or []))
    written = exportmod.export(frame, fmt, out, solutions=solutions)
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
    exclude: Exclude = None,
) -> None:
    """Make a print-ready puzzle book (PDF): title, contents, sections easy -> extreme, answers."""
    from pipeline.publish import book as bookmod
    from pipeline.publish import select

    cfg = bookmod.load_config(config, {"title": title, "per_page": per_page})
    pages = bookmod.make_book(paths, out, cfg, select.read_used(exclude or []))
    n = sum(len(p.items) for p in pages if p.kind == "puzzles")
    typer.echo(f"wrote {out}: {len(pages)} pages, {n} puzzles; ids in {bookmod.used_path(out)}")


@user_errors
def report(
    paths: Paths,
    out: Annotated[Path, typer.Option(help="The file to write (report.html, or a .png with --format png).")],
    fmt: Annotated[str, typer.Option("--format", help="html (one self-contained page) or png (one image).")
                   ] = "html",
) -> None:
    """Report a set or run for an editor: counts, hints, difficulty, techniques, time, failures."""
    from pipeline.publish import report as reportmod

    reportmod.make_report(paths, out, fmt)
    typer.echo(f"wrote {out}")
