"""The base of every error whose message is for the person at the keyboard.

:class:`UserError` marks a mistake the user can fix (a bad config, puzzle, path or request) or a
condition they must act on. Contract: its message is one line that names the field, position or path
at fault; the CLI prints it as ``numplace: <message>`` and exits non-zero without a traceback. Every
other exception is a fault of numplace itself and keeps its traceback. This module imports nothing,
so any room may derive from it.
"""

from __future__ import annotations


class UserError(Exception):
    """A user-facing error: ``str(exc)`` is the one line to print (see the module docstring)."""


class PublishError(UserError, ValueError):
    """A user mistake in a publishing command; ``str(err)`` is one line naming the flag, field or path.
    (Here rather than in :mod:`pipeline.publish.select`, which re-exports it, so that drawing a grid
    does not import polars.)"""
