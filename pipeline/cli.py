"""The typer CLI: parse options, load the config, call one function, map known errors to exit codes.

Exit codes: 0 success; 1 the work finished with failures (a puzzle failed verification or could not
be made, a check found problems); 2 a user mistake (config, path, puzzle), reported in one line;
130 interrupted (a run can be continued with ``--resume``). No algorithm lives here.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from pipeline import __version__

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="numplace: verified Sudoku (Number Place) puzzle sets from a YAML config.")

F = TypeVar("F", bound=Callable[..., Any])


def _fail(msg: str, code: int = 2) -> typer.Exit:
    typer.echo(f"numplace: error: {msg}", err=True)
    return typer.Exit(code)


def _user_errors(fn: F) -> F:
    """Turn the package's user-facing errors into one line and exit code 2."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from pipeline.board import PuzzleFormatError
        from pipeline.config import ConfigError
        from pipeline.runner import RunError
        from pipeline.store import StoreError

        try:
            return fn(*args, **kwargs)
        except (ConfigError, RunError, StoreError, PuzzleFormatError) as exc:
            raise _fail(str(exc)) from None

    return wrapper  # type: ignore[return-value]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"numplace {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """numplace: verified Sudoku (Number Place) puzzle sets from a YAML config."""


@app.command()
@_user_errors
def run(
    config: Annotated[Path, typer.Argument(help="YAML config file (see configs/default.yaml).")],
    count: Annotated[int | None, typer.Option(help="Number of puzzles (overrides count).")] = None,
    seed: Annotated[int | None, typer.Option(help="Set seed (overrides seed).")] = None,
    workers: Annotated[str | None, typer.Option(help="Worker processes or 'auto' (overrides workers).")] = None,
    out: Annotated[Path | None, typer.Option(help="Output root folder (overrides output.dir).")] = None,
    resume: Annotated[Path | None, typer.Option(help="Continue the interrupted run in this folder.")] = None,
) -> None:
    """Make a puzzle set: outputs/<name>/<run_id>/part-*.parquet and manifest.json."""
    from pipeline import config as cfgmod
    from pipeline import progress, runner

    w: Any = workers
    if workers is not None and workers != "auto":
        w = int(workers) if workers.isdigit() else workers
    overrides = {"count": count, "seed": seed, "workers": w, "output.dir": str(out) if out else None}
    cfg = cfgmod.load(config, overrides)
    try:
        with progress.reporter(cfg.name) as tick:
            summary = runner.run(cfg, resume=resume, progress=tick, log=runner.default_log)
    except KeyboardInterrupt:
        typer.echo("numplace: interrupted; finished parts are kept. Continue with: "
                   f"numplace run {config} --resume <run folder>", err=True)
        raise typer.Exit(130) from None
    rate = summary.written / summary.seconds if summary.seconds > 0 else 0.0
    typer.echo(f"wrote {summary.written} of {summary.count} puzzles to {summary.run_dir} "
               f"in {summary.seconds:.1f} s ({rate:.1f} puzzles/s)")
    if not summary.ok:
        typer.echo(f"numplace: {len(summary.failures)} puzzle(s) failed; see {summary.run_dir}/manifest.json",
                   err=True)
        raise typer.Exit(1)


@app.command()
@_user_errors
def check(path: Annotated[Path, typer.Argument(help="A set folder, run folder or part file.")]) -> None:
    """Re-verify every puzzle of a set independently and print a summary."""
    from pipeline.audit import audit

    result = audit(path)
    s = result.stats
    typer.echo(f"{path}: {result.rows} puzzles in {result.files} part file(s)")
    if s:
        typer.echo(f"  hints mean {s['hints_mean']} (min {s['hints_min']}, max {s['hints_max']}); "
                   f"sizes {s['sizes']}")
        typer.echo(f"  symmetry {s['symmetry']}")
        typer.echo(f"  minimal {s['minimal']}, orbit_minimal {s['orbit_minimal']}, bad rows {s['bad_rows']}")
    for p in result.problems:
        typer.echo(f"  PROBLEM {p}")
    typer.echo("OK" if result.ok else f"FAILED: {len(result.problems)} problem(s)")
    if not result.ok:
        raise typer.Exit(1)


@app.command()
@_user_errors
def show(
    path: Annotated[Path, typer.Argument(help="A set folder, run folder or part file.")],
    limit: Annotated[int, typer.Option(min=1, help="How many puzzles to print.")] = 5,
) -> None:
    """Print puzzles of a set as drawn grids."""
    from pipeline import board, store

    frame = store.read_parts(store.part_files(path)).head(limit)
    for row in frame.iter_rows(named=True):
        grid = board.parse(row["puzzle"], row["size"])
        typer.echo(f"{row['puzzle_id']}  hints {row['hints']}  symmetry {row['symmetry']}  "
                   f"minimal {row['minimal']}  orbit_minimal {row['orbit_minimal']}")
        typer.echo(board.format_grid(grid))
        typer.echo("")


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)
