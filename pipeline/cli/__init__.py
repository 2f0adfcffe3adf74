"""The ``numplace`` command line: parse flags, load the config, call one function, map known errors
to exit codes. No algorithm lives here, and nothing below the CLI imports typer.

The commands, by group: :mod:`.sets` (run, runs, check, show, catalog), :mod:`.puzzles` (solve,
generate, rate), :mod:`.identity` (grid-number, grid-from-number, count-grids, canon),
:mod:`.publishing` (export, book, report), :mod:`.studio` (studio); :mod:`.base` holds the app, the exit codes
(:class:`ExitCode`, listed in ``numplace --help``) and the error handling. ``main`` is the console
script and ``python -m pipeline``; :mod:`.signals` catches the signals that end a command from the
moment this package is imported by either.
"""

from __future__ import annotations

from pipeline.cli import signals

if signals.launched():  # first, before typer and the commands load: a signal from now on is answered
    signals.install()

from pipeline.cli import identity, publishing, puzzles, sets, studio
from pipeline.cli.base import ExitCode, PlainCommand, app, main

__all__ = ["ExitCode", "app", "main"]

# Registered here, in the order ``numplace --help`` lists them.
# grid-from-number reads an unknown option as its value, so that ``-1`` is named as a number out of range.
for _command in (sets.run, sets.check, sets.show, puzzles.generate, puzzles.solve, puzzles.rate,
                 identity.grid_number, identity.grid_from_number, identity.count_grids, identity.canon,
                 sets.runs, sets.catalog, sets.accept_gap, publishing.export, publishing.book, publishing.report,
                 studio.studio):
    numbers = _command is identity.grid_from_number  # its value may look like an option: -1
    app.command(cls=PlainCommand, context_settings={"ignore_unknown_options": True} if numbers else None)(_command)
