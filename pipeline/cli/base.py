"""The frame every command runs in: the typer app, the exit codes, and the mapping of errors to them.

Contracts: every command exits with an :class:`ExitCode` (the app's help lists them); a user-facing
error (:class:`pipeline.errors.UserError`) is one line, ``numplace: error: <message>``, exit 2; a
full disk is one line naming the path, exit 4; a usage mistake that typer/click finds is one line,
exit 2, never a usage box. Only typer is imported here at start-up: ``numplace --version`` and
``--help`` load no module of the run, the solver or the publisher.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from enum import IntEnum
from functools import wraps
from typing import Annotated, Any, TypeVar

import typer

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

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="numplace: verified Sudoku (Number Place) puzzle sets from a YAML config.",
                  epilog="Exit codes:\n" + "\n".join(f"{int(code):>3}  {text}" for code, text in MEANINGS.items()))

F = TypeVar("F", bound=Callable[..., Any])


def fail(msg: str, code: ExitCode = ExitCode.USAGE) -> typer.Exit:
    """Print ``numplace: error: <msg>`` on stderr; the exit to raise, with ``code``."""
    typer.echo(f"numplace: error: {msg}", err=True)
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
    exit 130; SIGTERM, SIGHUP and SIGQUIT one line and exit 143 (:mod:`pipeline.cli.signals`)."""
    from typer._click.exceptions import ClickException, NoArgsIsHelpError, UsageError

    from pipeline.cli import signals

    try:
        signals.arm()  # a signal received while the CLI was loading ends it here, with its line
        code = app(standalone_mode=False)
    except KeyboardInterrupt:
        code = ExitCode.INTERRUPTED
    except NoArgsIsHelpError as exc:  # click's code for these is 2, ExitCode.USAGE
        exc.show()
        sys.exit(exc.exit_code)
    except UsageError as exc:
        typer.echo(f"numplace: error: {_usage_line(exc)}", err=True)
        sys.exit(exc.exit_code)
    except ClickException as exc:
        typer.echo(f"numplace: error: {' '.join(exc.format_message().split())}", err=True)
        sys.exit(exc.exit_code)
    except typer.Abort:
        typer.echo("Aborted!", err=True)
        sys.exit(ExitCode.PROBLEMS)
    if code == ExitCode.INTERRUPTED and not signals.reported():  # typer turns Ctrl-C into a silent 130
        typer.echo(f"numplace: {signals.why()}", err=True)
        code = ExitCode(signals.exit_code())
    sys.exit(code if isinstance(code, int) else ExitCode.OK)
