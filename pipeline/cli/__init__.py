"""The ``numplace`` command line: parse flags, load the config, call one function, map known errors
to exit codes. No algorithm lives here, and nothing below the CLI imports typer.

The commands, by group: :mod:`.sets` (run, runs, check, show, catalog), :mod:`.puzzles` (solve,
generate, rate), :mod:`.identity` (grid-number, grid-from-number, count-grids, canon),
:mod:`.publishing` (export, book, report), :mod:`.studio` (studio); :mod:`.base` holds the app, the exit codes
(:class:`ExitCode`, listed in ``numplace --help``) and the error handling. ``main`` is the console
script and ``python -m pipeline``.
"""

from __future__ import annotations

from pipeline.cli import identity, publishing, puzzles, sets, studio
from pipeline.cli.base import ExitCode, PlainCommand, app, main

__all__ = ["ExitCode", "app", "main"]

# Registered here, in the order ``numplace --help`` lists them.
for _command in (sets.run, sets.check, sets.show, puzzles.generate, puzzles.solve, puzzles.rate,
                 identity.grid_number, identity.grid_from_number, identity.count_grids, identity.canon,
                 sets.runs, sets.catalog, publishing.export, publishing.book, publishing.report, studio.studio):
    app.command(cls=PlainCommand)(_command)
