"""The frame every command runs in: the typer app, the exit codes, and the mapping of errors to them.

Contracts: every command exits with an :class:`ExitCode` (the app's help lists them); a user-facing
error (:class:`pipeline.errors.UserError`) is one line, ``numplace: error: <message>``, exit 2; a
full disk is one line naming the path, exit 4; a usage mistake that typer/click finds is one line,
exit 2, never a usage box. Only typer is imported here at start-up: ``numplace --version`` and
``--help`` load no module of the run, the solver or the publisher.

**Refusals follow the log format**: a command whose stderr is a log (:data:`LOGGED`: ``run``, JSON
lines when stderr is not a terminal, see :mod:`pipeline.progress`) writes an exit-2 refusal as one
JSON line of that log, ``{"ts": ..., "level": "error", "event": "refused", "exit_code": 2,
"message": "<message>"}``, when stderr is not a terminal; on a terminal, and for every other
command, it is the plain line.

``--help`` speaks plain words (:class:`PlainCommand`, :class:`PlainGroup`): an argument is shown by
its name in capitals (``CONFIG``, ``SET_OR_RUN...``), an option's value by a word (``INTEGER``,
``NUMBER``, ``TEXT``, ``PATH``, or the metavar its declaration gives), a flag by nothing, a range
as ``at least 1``; never a Python type (``<bool>``, ``<list[Path]>``) or a ``{placeholder}``.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable
from enum import IntEnum
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from pipeline import __version__


class ExitCode(IntEnum):
    """The exit code of every command; :data:`MEANINGS` says what each means, and ``numplace --help``
    lists them."""

    OK = 0
    PROBLEMS = 1
    USAGE = 2
    PARTIAL = 3
    DISK_FULL = 4
    LOCKED = 75
    INTERRUPTED = 130
    TERMINATED = 143


#: What each exit code means; the app's help lists these lines.
MEANINGS: dict[ExitCode, str] = {
    ExitCode.OK: "success",
    ExitCode.PROBLEMS: "with failures: failed puzzles, check problems, no unique solution",
    ExitCode.USAGE: "a user mistake (config, path, puzzle, flag, unreachable scheduler)",
    ExitCode.PARTIAL: "stopped early, whole parts kept (--max-minutes, dask scheduler lost)",
    ExitCode.DISK_FULL: "the disk filled up (free space, then --resume)",
    ExitCode.LOCKED: "another process is making the set (try again later)",
    ExitCode.INTERRUPTED: "interrupted by Ctrl-C (--resume continues the run)",
    ExitCode.TERMINATED: "terminated by SIGTERM, SIGHUP or SIGQUIT (--resume continues the run)",
}

#: The word shown for an option's value, by the Python type of the value (a list: of its items).
WORDS: dict[type, str] = {int: "INTEGER", float: "NUMBER", str: "TEXT"}


def _range_words(lo: float | None, hi: float | None) -> str | None:
    if lo is None and hi is None:
        return None
    if hi is None:
        return f"at least {lo:g}"
    return f"at most {hi:g}" if lo is None else f"{lo:g} to {hi:g}"


class _PlainOption(TyperOption):
    """An option whose help shows its metavar word and its range in words."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return self.metavar or None

    def _get_number_range_help_str(self) -> str | None:
        return _range_words(getattr(self, "min", None), getattr(self, "max", None))


class _PlainArgument(TyperArgument):
    """An argument shown by its name in capitals, in the usage line and in the list of arguments."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None

    def _usage_display_name(self) -> str:
        name = self.display_name_raw
        return name if self.required else f"[{name}]"

    def get_error_hint(self, ctx: Any = None) -> str:  # messages name the argument as before: 'config'
        return f"'{self.name}'"

    def _get_number_range_help_str(self) -> str | None:
        return _range_words(getattr(self, "min", None), getattr(self, "max", None))


def _plain(param: Any) -> Any:
    """``param`` (a typer option or argument) made to show plain words in ``--help``."""
    desc = param.type_descriptor
    item = desc.annotation.__args__[0] if desc.is_list and getattr(desc.annotation, "__args__", None) else \
        desc.annotation
    if isinstance(param, TyperArgument):
        param.__class__ = _PlainArgument
        if param.metavar is None:
            param.metavar = param.name.upper() + ("..." if param.nargs != 1 else "")
    elif isinstance(param, TyperOption):
        param.__class__ = _PlainOption
        if param.is_flag:
            param.metavar = ""
        elif param.metavar is None:
            param.metavar = "PATH" if desc.is_path or item is Path else WORDS.get(item, "VALUE")
    return param


class PlainCommand(TyperCommand):
    """A command whose ``--help`` shows plain words (see the module docstring), and whose line in
    ``numplace --help`` is its docstring's first paragraph as one text, wrapped by the terminal
    (typer keeps the docstring's own line breaks there, which break sentences in the middle)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.params = [_plain(p) for p in self.params]
        if self.short_help is None and self.help:
            import inspect

            self.short_help = " ".join(inspect.cleandoc(self.help).split("\n\n")[0].split())

    def get_help_option(self, ctx: Any) -> Any:
        opt = super().get_help_option(ctx)
        return None if opt is None else _plain(opt)


class PlainGroup(TyperGroup):
    """The app's group, with plain words in its own ``--help`` like :class:`PlainCommand`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.params = [_plain(p) for p in self.params]

    def get_help_option(self, ctx: Any) -> Any:
        opt = super().get_help_option(ctx)
        return None if opt is None else _plain(opt)


app = typer.Typer(cls=PlainGroup, add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="numplace: verified Sudoku (Number Place) puzzle sets from a YAML config.",
                  epilog="Exit codes:\n" + "\n".join(f"{int(code):>3}  {text}" for code, text in MEANINGS.items()))

F = TypeVar("F", bound=Callable[..., Any])


#: Commands whose stderr is a log (JSON lines when it is not a terminal); their exit-2 refusals are log lines too.
LOGGED = frozenset({"run"})


def _command_name(ctx: Any = None) -> str | None:
    """The name of the command being run (from ``ctx`` or click's current context), if any."""
    from typer._click.globals import get_current_context

    ctx = ctx or get_current_context(silent=True)
    return getattr(ctx, "info_name", None) if ctx is not None else None


#: The event of a :data:`LOGGED` command's last line, by exit code (any other code: ``failed``).
END_EVENTS = {ExitCode.USAGE: "refused", ExitCode.DISK_FULL: "disk_full", ExitCode.LOCKED: "busy",
              ExitCode.PARTIAL: "stopped"}


def say_error(msg: str, code: ExitCode = ExitCode.USAGE, command: str | None = None) -> None:
    """Write the error line of ``msg`` on stderr: ``numplace: error: <msg>``, or, for a
    :data:`LOGGED` command while stderr is not a terminal, one JSON log line (event by exit code:
    :data:`END_EVENTS`), so that a JSON-lines log holds JSON lines only."""
    if command in LOGGED and not sys.stderr.isatty():
        from pipeline import progress

        progress.emit(END_EVENTS.get(code, "failed"), msg, "error", exit_code=int(code))
        return
    typer.echo(f"numplace: error: {msg}", err=True)


def say_end(msg: str, code: int, command: str, event: str, **fields: object) -> None:
    """How a :data:`LOGGED` command ended without an error of its own (a signal, a spent
    ``--max-minutes``): ``numplace: <msg>`` on a terminal, else one JSON log line with ``event``,
    level ``warning``, ``exit_code`` and ``fields``."""
    if command in LOGGED and not sys.stderr.isatty():
        from pipeline import progress

        progress.emit(event, msg, "warning", exit_code=int(code), **fields)
        return
    typer.echo(f"numplace: {msg}", err=True)


def fail(msg: str, code: ExitCode = ExitCode.USAGE) -> typer.Exit:
    """Print the error line of ``msg`` on stderr (:func:`say_error`); the exit to raise, with ``code``."""
    say_error(msg, code, _command_name())
    return typer.Exit(code)


def user_errors(fn: F) -> F:
    """Turn the package's user-facing errors (:class:`pipeline.errors.UserError`) into one line and
    :attr:`ExitCode.USAGE`, and a full disk (:class:`~pipeline.atomic.DiskFull`, or any OSError
    with errno ENOSPC) into one line ``no space left on <path>`` and :attr:`ExitCode.DISK_FULL`."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except Exception as exc:
            import errno

            from pipeline.errors import UserError  # here, so that start-up imports nothing more

            if isinstance(exc, UserError):
                raise fail(str(exc)) from None
            if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
                where = getattr(exc, "path", None) or exc.filename or "the output device"
                raise fail(f"no space left on {where}", ExitCode.DISK_FULL) from None
            raise

    return wrapper  # type: ignore[return-value]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"numplace {__version__}")
        raise typer.Exit(ExitCode.OK)


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """numplace: verified Sudoku (Number Place) puzzle sets from a YAML config."""


def _usage_line(exc: Exception) -> str:
    """One line for a usage mistake typer/click found (a bad option value, an unknown option, a
    missing argument), instead of its usage box: ``--count: 'abc' is not a valid integer``."""
    from typer._click.exceptions import BadParameter, MissingParameter

    from pipeline.config import echo

    if isinstance(exc, BadParameter) and not isinstance(exc, MissingParameter):
        param = exc.param
        opts = [o for o in getattr(param, "opts", []) if o.startswith("-")]
        name = getattr(param, "human_readable_name", None) or (param.name or "").upper() if param else ""
        hint = "/".join(opts) if opts else (name or "argument")  # an argument: its name, never "None"
        errors = getattr(exc.__cause__, "errors", None)  # typer converts values with pydantic
        if callable(errors) and errors():
            first = errors()[0]
            kind = {"int_parsing": "is not a valid integer", "int_from_float": "is not a valid integer",
                    "float_parsing": "is not a valid number", "bool_parsing": "is not true or false"
                    }.get(first.get("type", ""))
            if kind:
                return f"{hint}: {echo(first.get('input'))} {kind}"
            msg = str(first.get("msg", exc.message))
            return f"{hint}: {echo(first.get('input'))}: {msg[:1].lower()}{msg[1:]}"
        return f"{hint}: {exc.message}"
    text = exc.format_message() if hasattr(exc, "format_message") else str(exc)
    return " ".join(str(text).split())


def main() -> None:
    """Console-script entry point: runs the app and ends the process with its exit code.

    Usage mistakes that typer/click find (``--count abc``, an unknown option, a missing argument)
    are one line, ``numplace: error: ...``, exit 2 (never a usage box); ``--help``, ``--version``
    and the bare command (which prints the help, exit 2) behave as typer's. Ctrl-C is one line and
    exit 130; SIGTERM, SIGHUP and SIGQUIT one line and exit 143 (:mod:`pipeline.cli.signals`), also
    when the interrupt landed in native code that turned it into an error of its own (any exception
    after such a signal: a ``run`` left ``running`` is finished first by the next run, as after a kill).

    The objects alive at the end are frozen out of the garbage collector (``gc.freeze``) on the way
    out: the interpreter's last collections while it tears the modules down (about 0.1 s of CPU once
    numpy, pydantic and the solver are loaded) would only free what the end of the process frees
    anyway. Exit handlers run, files are flushed and reference counts still free objects as before."""
    try:
        _main()
    finally:
        from pipeline.cli import signals

        signals.disarm()
        gc.freeze()


def _main() -> None:
    from typer._click.exceptions import ClickException, NoArgsIsHelpError, UsageError

    from pipeline.cli import signals

    try:
        signals.arm()  # a signal received while the CLI was loading ends it here, with its line
        code = app(standalone_mode=False, prog_name="numplace")
    except KeyboardInterrupt:
        code = ExitCode.INTERRUPTED
    except NoArgsIsHelpError as exc:  # click's code for these is 2, ExitCode.USAGE
        exc.show()
        sys.exit(exc.exit_code)
    except UsageError as exc:
        say_error(_usage_line(exc), ExitCode.USAGE if exc.exit_code == ExitCode.USAGE else ExitCode.PROBLEMS,
                  _command_name(exc.ctx))
        sys.exit(exc.exit_code)
    except ClickException as exc:
        typer.echo(f"numplace: error: {' '.join(exc.format_message().split())}", err=True)
        sys.exit(exc.exit_code)
    except typer.Abort:
        typer.echo("Aborted!", err=True)
        sys.exit(ExitCode.PROBLEMS)
    except Exception:
        if signals.received() is None:
            raise
        # the interrupt came inside native code that turned it into an error of its own (polars reports
        # "'<unprintable str object>' is not a Polars data type"): the command ends as interrupted (130,
        # 143 after SIGTERM, SIGHUP or SIGQUIT), with its line unless the command said how it ended
        code = ExitCode(signals.exit_code()) if signals.reported() else ExitCode.INTERRUPTED
    if code == ExitCode.INTERRUPTED and not signals.reported():  # typer turns Ctrl-C into a silent 130
        code = ExitCode(signals.exit_code())
        # before the command ran (a signal while the CLI loaded) there is no context: the command line names it
        command = _command_name() or next((a for a in sys.argv[1:] if not a.startswith("-")), "")
        say_end(signals.why(), code, command, "interrupted")
    sys.exit(code if isinstance(code, int) else ExitCode.OK)
