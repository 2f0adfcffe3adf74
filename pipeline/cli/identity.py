"""Commands on the identity of a 9x9 grid: ``grid-number`` and ``grid-from-number`` (the numbering
of all grids and its inverse), ``count-grids`` (N2, N0, or one band's completions) and ``canon``
(the canonical form). One value per input line, one answer per output line; a bad line is named
(exit 2 for a single value, 1 for a batch, whose other lines still run).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

import typer

from pipeline.cli.base import ExitCode, fail, user_errors
from pipeline.cli.puzzles import RulesConfig, _rules


def _each(arg: str, fn: Callable[[str], str], puzzles: bool = True) -> None:
    """Apply ``fn`` to each input value; a bad value is one line naming it, exit 2 for a single
    value, and for a batch the others still run and the exit code is 1. ``puzzles``: the input is
    read as ``solve`` and ``rate`` read it (:func:`pipeline.solve.batch.load`: a ``.csv``/``.parquet``
    puzzle column, a drawn grid, one per line); else one value per line (:func:`~pipeline.solve.batch.values`)."""
    from pipeline import board
    from pipeline.solve import batch

    if puzzles:
        source = batch.load(arg)
        items, single = source.items, source.single
    else:
        items = batch.values(arg)
        single = len(items) == 1
    bad = 0
    for lineno, text in items:
        try:
            typer.echo(fn(text))
        except (ValueError, board.PuzzleFormatError) as exc:
            where = "" if single else f"line {lineno}: "
            if single:
                raise fail(f"{where}{exc}") from None
            typer.echo(f"numplace: error: {where}{exc}", err=True)
            bad += 1
    if bad:
        raise typer.Exit(ExitCode.PROBLEMS)


@user_errors
def grid_number(grid: Annotated[str, typer.Argument(
        help="A 9x9 grid (81 digits, or drawn), a file of them (one per line; .csv/.parquet: puzzle column), or -.")]
) -> None:
    """The number of each complete 9x9 grid, in 0 .. N0-1 (one per line in, one per line out)."""
    from pipeline import board
    from pipeline.identity import numbering

    _each(grid, lambda text: str(numbering.grid_number(board.parse(text, 9))))


@user_errors
def grid_from_number(number: Annotated[str, typer.Argument(help="A number in 0 .. N0-1, a file of them, or -.")]
                     ) -> None:
    """The 9x9 grid with each number (the inverse of grid-number)."""
    from pipeline import board
    from pipeline.identity import numbering

    def one(text: str) -> str:
        shown = repr(text) if len(text) <= 40 else f"{text[:20]!r}... ({len(text)} characters)"
        if not (text.isascii() and text.isdigit()):
            raise ValueError(f"{shown} is not a whole number in 0 .. {numbering.N0 - 1}")
        if len(text.lstrip("0")) > len(str(numbering.N0)):  # before int(): no int-string limit text
            raise ValueError(f"{shown} is out of range 0 .. {numbering.N0 - 1}")
        return board.format_line(numbering.grid_from_number(int(text)))

    _each(number, one, puzzles=False)


@user_errors
def count_grids(band: Annotated[str | None, typer.Option(help="A top band (27 digits, rows 1-3): count its "
                                                               "standardized completions only.")] = None) -> None:
    """Count all 9x9 grids from the project's own band counts (N2, N0), or one band's completions."""
    from pipeline.identity import numbering

    if band is not None:
        try:
            typer.echo(numbering.band_count([int(c) for c in band if c.isdigit()]))
        except ValueError as exc:
            raise fail(f"--band: {exc}") from None
        return
    result = numbering.count_grids()
    typer.echo(f"36,288 standard top bands in {result.classes} classes; {result.distinct_counts} distinct band counts")
    typer.echo(f"N2 = {result.n2:,} standardized grids")
    typer.echo(f"N0 = 9! * 72^2 * N2 = {result.n0:,} grids")
    typer.echo(f"counted in {result.seconds:.1f} s")


@user_errors
def canon(puzzle: Annotated[str, typer.Argument(
        help="A puzzle or grid (4x4, 6x6, 9x9), a file of them (one per line; .csv/.parquet: puzzle column), or -.")],
          config: RulesConfig = None) -> None:
    """The canonical form (minimal under relabelling, row/column/band/stack moves, transpose).

    Variant puzzles are read as solve reads them (a JSON puzzle line with its variant, a numplace part
    file, or plain text with --config naming the board's variant); their form is under the variant's
    own group and is printed as a JSON puzzle line."""
    import json

    from pipeline import board
    from pipeline.identity import canon as canonmod
    from pipeline.identity import variant_canon

    rules = _rules(config)

    def one(text: str) -> str:
        grid, variant = board.parse_with_rules(text, rules)
        n = board.size_of_grid(grid)
        if not variant.classic:
            form = variant_canon.canonical_variant(grid, variant)
            if form is None:
                raise ValueError(f"no canonical form for {n}x{n} {'+'.join(variant.kinds)} boards")
            cols = board.variant_columns(form[1])
            return json.dumps({"puzzle": board.format_line(form[0]),
                               **{k: v for k, v in cols.items() if v is not None}})
        key = canonmod.canonical_key(grid)
        if key is None:
            raise ValueError(f"no canonical form for {n}x{n} boards")
        return key

    _each(puzzle, one)
