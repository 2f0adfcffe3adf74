"""The typer CLI: parse options, load the config, call one function, map known errors to exit codes.

Exit codes (the README's table is the contract): 0 success; 1 the work finished with failures (a
puzzle failed verification or could not be made, a check found problems, a puzzle has no unique
solution); 2 a user mistake (config, path, puzzle, flag, an unreachable dask scheduler), reported in
one line; 3 a run stopped early with whole parts kept (``--max-minutes``, or its dask scheduler was
lost); 4 the disk filled up; 75 another process is making the set; 130 / 143 interrupted by Ctrl-C /
SIGTERM (a run can be continued with ``--resume``). No algorithm lives here.
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


#: Exit code of a command stopped by a full disk (a run stays resumable: free space, then --resume).
EXIT_DISK_FULL = 4


#: Where the user-facing error classes live (module, class). A module that was never imported
#: cannot have raised its error, so the check imports nothing: ``solve`` does not load the run's modules.
_USER_ERRORS = (("pipeline.board", "PuzzleFormatError"), ("pipeline.config", "ConfigError"),
                ("pipeline.publish.select", "PublishError"), ("pipeline.run.plan", "RunError"),
                ("pipeline.run.store", "StoreError"), ("pipeline.solve.batch", "InputError"))


def _is_user_error(exc: BaseException) -> bool:
    """True for the package's user-facing errors (their message is the one line to print)."""
    for module, name in _USER_ERRORS:
        loaded = sys.modules.get(module)
        if loaded is not None and isinstance(exc, getattr(loaded, name)):
            return True
    return False


def _user_errors(fn: F) -> F:
    """Turn the package's user-facing errors into one line and exit code 2, and a full disk
    (:class:`~pipeline.atomic.DiskFull`, or any OSError with errno ENOSPC) into one line
    ``no space left on <path>`` and exit code :data:`EXIT_DISK_FULL`."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        import errno

        try:
            return fn(*args, **kwargs)
        except Exception as exc:
            if _is_user_error(exc):
                raise _fail(str(exc)) from None
            if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
                where = getattr(exc, "path", None) or exc.filename or "the output device"
                raise _fail(f"no space left on {where}", EXIT_DISK_FULL) from None
            raise

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
    max_minutes: Annotated[float | None, typer.Option(min=0.01, help="Stop cleanly after this many minutes: whole "
                                                      "parts kept, status partial, exit 3; --resume finishes "
                                                      "it.")] = None,
    executor: Annotated[str | None, typer.Option(help="local (worker processes here) or dask (a dask cluster; "
                                                      "overrides executor.kind).")] = None,
    scheduler: Annotated[str | None, typer.Option(help="A dask scheduler, tcp://host:8786 (implies --executor "
                                                       "dask; without it dask starts a LocalCluster here).")] = None,
) -> None:
    """Make the next puzzles of a set: outputs/<name>/<run_id>/part-*.parquet and _manifest.json."""
    import signal

    from pipeline import config as cfgmod
    from pipeline import progress
    from pipeline.atomic import DiskFull
    from pipeline.run import runner
    from pipeline.run.lock import SetLocked
    from pipeline.run.manifest import manifest_path
    from pipeline.run.workers import parse_workers

    w = parse_workers(workers) if workers is not None else None
    overrides = {"count": count, "seed": seed, "workers": w, "output.dir": str(out) if out else None,
                 **cfgmod.executor_overrides(executor, scheduler)}
    cfg = cfgmod.load(config, overrides)
    terminated: list[int] = []

    def on_sigterm(signum: int, _frame: object) -> None:
        terminated.append(signum)
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_sigterm)
    try:
        with progress.reporter(cfg.name) as tick:
            summary = runner.run(cfg, resume=resume, progress=tick, log=progress.logger(), max_minutes=max_minutes)
    except SetLocked as exc:
        raise _fail(str(exc), 75) from None
    except DiskFull as exc:
        run_dir = exc.run_dir or (exc.path.parent if manifest_path(exc.path.parent) is not None else None)
        then = f"free space, then continue with: numplace run {config} --resume {run_dir}" if run_dir else \
            "free space, then run again"
        raise _fail(f"{exc}; finished parts are kept; {then}", EXIT_DISK_FULL) from None
    except runner.RunInterrupted as exc:
        why = "terminated (SIGTERM)" if terminated else "interrupted"
        typer.echo(f"numplace: {why}; finished parts are kept. Continue with: "
                   f"numplace run {config} --resume {exc.run_dir}", err=True)
        raise typer.Exit(143 if terminated else 130) from None
    except KeyboardInterrupt:  # before the run had a folder to resume (while planning or connecting)
        why = "terminated (SIGTERM)" if terminated else "interrupted"
        typer.echo(f"numplace: {why} before the run started making puzzles; nothing to resume, run it again",
                   err=True)
        raise typer.Exit(143 if terminated else 130) from None
    except runner.ExecutorLost as exc:  # the run is closed as partial, like --max-minutes: exit 3
        then = f"continue with: numplace run {config} --resume {exc.run_dir}" if exc.run_dir else "run again"
        raise _fail(f"{exc}; finished parts are kept; {then}", 3) from None
    rate = summary.written / summary.seconds if summary.seconds > 0 else 0.0
    typer.echo(f"wrote {summary.written} of {summary.count} puzzles (indices {summary.start}-"
               f"{summary.start + summary.count - 1}) to {summary.run_dir} in {summary.seconds:.1f} s "
               f"({rate:.1f} puzzles/s)")
    if summary.status == "partial":
        typer.echo(f"numplace: stopped after --max-minutes; continue with: numplace run {config} --resume "
                   f"{summary.run_dir}", err=True)
        raise typer.Exit(3)
    if not summary.ok:
        typer.echo(f"numplace: {len(summary.failures)} puzzle(s) failed and were not written (--resume does not "
                   f"retry them); see {summary.run_dir}/_manifest.json", err=True)
        raise typer.Exit(1)


@app.command()
@_user_errors
def check(
    path: Annotated[Path, typer.Argument(help="A set folder, run folder or part file.")],
    fast: Annotated[bool, typer.Option("--fast", help="Skip recomputing minimality, grades, canonical forms and "
                                                      "grid numbers; everything else is still checked.")] = False,
) -> None:
    """Re-verify every puzzle of a set independently, recompute what can be derived, compare every
    part with its manifest; print a summary (exit 1 on any problem)."""
    from pipeline.run.audit import audit

    result = audit(path, fast=fast)
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
    from pipeline import board
    from pipeline.run import store

    frame = store.read_parts(store.part_files(path)).head(limit)
    for row in frame.iter_rows(named=True):
        grid = board.parse(row["puzzle"], row["size"])
        typer.echo(f"{row['puzzle_id']}  hints {row['hints']}  symmetry {row['symmetry']}  "
                   f"minimal {row['minimal']}  orbit_minimal {row['orbit_minimal']}  "
                   f"difficulty {row.get('difficulty')} {row.get('difficulty_score', 0):g}")
        typer.echo(board.format_grid(grid))
        for line in board.describe_variant(board.make_variant(row.get("variant"), row.get("regions"), row.get("cages")),
                                           int(row["size"])):
            typer.echo(line)
        typer.echo("")


@app.command()
@_user_errors
def generate(
    count: Annotated[int, typer.Option(help="Number of puzzles.")] = 10,
    seed: Annotated[int, typer.Option(help="Set seed: puzzle i uses a seed derived from (seed, i).")] = 0,
    size: Annotated[int, typer.Option(help="Board side: 4, 6, 9 or 16.")] = 9,
    symmetry: Annotated[str, typer.Option(help="Symmetry tag, or random.")] = "rot180",
    minimal: Annotated[bool, typer.Option("--minimal", help="Orbit-minimal puzzles (the default without "
                                                           "--hints).")] = False,
    hints: Annotated[str | None, typer.Option(help="Givens: N, or A-B for a range.")] = None,
    engine: Annotated[str, typer.Option(help="hybrid (compiled checks, ILP certifies) or ilp.")] = "hybrid",
    grid: Annotated[str, typer.Option(help="How grids are made (grid.method): weighted-ilp or uniform.")
                    ] = "weighted-ilp",
    level: Annotated[list[str] | None, typer.Option(help="Only puzzles of these levels (difficulty.levels; "
                                                         "repeat or comma-separate), e.g. expert.")] = None,
    steer: Annotated[bool, typer.Option("--steer", help="With --level: when a puzzle misses the level, search "
                                                        "nearby minimal puzzles of its grid (difficulty.steer).")
                     ] = False,
    workers: Annotated[str, typer.Option(help="Worker processes or 'auto'.")] = "1",
    fmt: Annotated[str, typer.Option("--format", help="line (the puzzle) or json (the whole row).")] = "line",
) -> None:
    """Print verified puzzles, one per line, without a config or output files (same engine as run)."""
    import json

    from pipeline import config as cfgmod
    from pipeline.run import runner
    from pipeline.run.work import Made
    from pipeline.run.workers import parse_workers

    if minimal and hints:
        raise _fail("choose --minimal or --hints, not both")
    if fmt not in ("line", "json"):
        raise _fail(f"--format: {fmt!r} is not one of line, json")
    removal: dict[str, Any] = {"symmetry": symmetry}
    if hints:
        lo, _, hi = hints.partition("-")
        if not (lo.isdigit() and (hi.isdigit() or not hi)):
            raise _fail(f"--hints: {hints!r} is not N or A-B")
        removal["hints"] = {"min": int(lo), "max": int(hi or lo)}
    data: dict[str, Any] = {"name": "generate", "seed": seed, "count": count, "board": {"size": size},
                            "removal": removal, "workers": parse_workers(workers), "engine": engine,
                            "grid": {"method": grid}}
    levels = [x.strip() for v in level or () for x in v.split(",") if x.strip()]
    if levels:
        data["difficulty"] = {"levels": levels, **({"steer": True} if steer else {})}
    elif steer:
        raise _fail("--steer: needs --level (the difficulty to steer toward)")
    cfg = cfgmod.validate(data)
    failed = 0
    for item in runner.stream(cfg):
        if isinstance(item, Made):
            typer.echo(json.dumps(item.row, default=str) if fmt == "json" else item.row["puzzle"])
        else:
            failed += 1
            typer.echo(f"numplace: puzzle {item.index}: {item.kind} failed: {item.failure}", err=True)
    if failed:
        raise typer.Exit(1)


def _rules(config: Path | None) -> Any:
    """The variant rules of ``--config``'s board section (None without ``--config``)."""
    if config is None:
        return None
    from pipeline import config as cfgmod

    return cfgmod.load(config).board.rules


def _render_single(text: str, mode: str, fmt: str, limit: int, rules: Any = None) -> tuple[str, int]:
    """Text for one puzzle and the exit code: 0 solved, counted (unique or multiple) or repaired; 1 no
    solution (``--count`` prints ``none``, a solve says why on stderr) or a time-out. ``text`` may be
    a JSON puzzle line with its variant; plain text is played by ``rules`` (None: classic)."""
    import json

    from pipeline import board
    from pipeline.solve import solver

    grid, variant = board.parse_with_rules(text, rules)
    result: solver.SolveResult | solver.RepairResult
    result = (solver.repair(grid, variant=variant) if mode == "repair"
              else solver.solve(grid, limit if mode == "count" else 2, variant=variant))
    if fmt == "json":
        return json.dumps(solver.as_json(result)), 1 if result.status in ("none", "timeout") else 0
    lines: list[str] = []
    if isinstance(result, solver.RepairResult):
        if result.changes:
            lines.append(f"repaired: {len(result.changes)} given(s) changed "
                         f"(the repaired puzzle is {result.repaired_status})")
            lines += [f"  {c}" for c in result.changes]
        else:
            lines.append(f"nothing to repair: the puzzle is {result.status}")
        sol = result.solution
    else:
        if result.status == "none":
            if mode == "count":  # counting is an answer: zero solutions is "none" (still exit 1)
                return "none", 1
            raise _fail(f"no solution: {result.reason}; try --repair", 1)
        if mode == "count" or result.status != "unique":
            found = len(result.solutions)
            many = "at least " if found >= result.limit else ""
            lines.append(result.status if result.status != "multiple"
                         else f"multiple: {many}{found} solutions (limit {result.limit})")
        sol = result.solution
    if result.status == "timeout" or sol is None:
        raise _fail("the solver hit its time limit; no answer", 1)
    if mode != "count" or fmt == "grid":
        lines.append(board.format_grid(sol) if fmt == "grid" else board.format_line(sol))
    return "\n".join(lines), 0


@app.command()
@_user_errors
def solve(
    puzzle: Annotated[str, typer.Argument(help="A puzzle (81 chars, . or 0 blank), a file (text, .csv, .parquet), "
                                                "or - for stdin.")],
    count: Annotated[bool, typer.Option("--count", help="Report unique / multiple / none.")] = False,
    limit: Annotated[int, typer.Option(min=1, help="With --count: stop after this many solutions.")] = 2,
    repair: Annotated[bool, typer.Option("--repair", help="Change the fewest givens so the puzzle solves.")] = False,
    fmt: Annotated[str | None, typer.Option("--format", help="grid | line | json (default: grid on a terminal, "
                                                             "else line).")] = None,
    out: Annotated[Path | None, typer.Option(help="Write here instead of stdout: one puzzle .txt or .json; a batch "
                                                  ".parquet, .csv or .jsonl.")] = None,
    workers: Annotated[str, typer.Option(help="Batch worker processes or 'auto'.")] = "auto",
    config: Annotated[Path | None, typer.Option(help="Play plain puzzles by this config's board.variant and "
                                                     "board.regions (a JSON puzzle line brings its own).")] = None,
) -> None:
    """Solve, count or repair one puzzle, or a batch file of them (one per line, or a puzzle column).

    Variant puzzles come as JSON lines named as the Parquet columns, e.g.
    {"puzzle": "...", "variant": ["killer"], "cages": [{"cells": [0, 1], "sum": 3}, ...]}, in a numplace
    part file, or as plain text with --config naming the board's variant."""
    import json

    from pipeline.solve import batch

    if count and repair:
        raise _fail("choose --count or --repair, not both")
    if fmt not in (None, "grid", "line", "json"):
        raise _fail(f"--format: {fmt!r} is not one of grid, line, json")
    mode: batch.Mode = "repair" if repair else "count" if count else "solve"
    rules = _rules(config)
    source = batch.load(puzzle)
    # the output file's format, folder and name are checked before any solving
    suffix = batch.check_out(out, source.single) if out is not None else None
    if source.single:
        ((_, text),) = source.items
        if suffix == ".json":
            if fmt not in (None, "json"):
                raise _fail(f"--format {fmt} does not fit --out {out}: a .json file holds --format json")
            fmt = "json"
        fmt = fmt or ("grid" if sys.stdout.isatty() and out is None else "line")
        rendered, code = _render_single(text, mode, fmt, limit, rules)
        if out is not None:
            batch.write_text(out, rendered + "\n")
        else:
            typer.echo(rendered)
        raise typer.Exit(code)
    from pipeline import progress
    from pipeline.run.workers import parse_workers, worker_count

    n = worker_count(parse_workers(workers))
    with progress.reporter("solve") as tick:
        rows = batch.solve_batch(source.items, mode, limit, n, tick, rules)
    bad = [r for r in rows if r["status"] == "invalid"]
    for r in bad:
        typer.echo(f"numplace: {source.name} line {r['line']}: {r['error']}", err=True)
    if out is not None:
        batch.write(out, rows)
        tally = {s: sum(1 for r in rows if r["status"] == s) for s in dict.fromkeys(r["status"] for r in rows)}
        typer.echo(f"wrote {len(rows)} results to {out}: " + ", ".join(f"{k} {v}" for k, v in tally.items()))
    else:
        for r in rows:
            if fmt == "json":
                typer.echo(json.dumps(r))
            else:
                typer.echo(f"{r['line']}\t{r['status']}\t{r['solution'] or ''}")
    raise typer.Exit(1 if bad else 0)


@app.command()
@_user_errors
def rate(
    puzzle: Annotated[str, typer.Argument(help="A puzzle, a file (one puzzle, or one per line; .csv/.parquet "
                                                "with a puzzle column), or - for stdin.")],
    explain: Annotated[bool, typer.Option("--explain", help="Print the solving path step by step.")] = False,
    config: Annotated[Path | None, typer.Option(help="Play plain puzzles by this config's board.variant and "
                                                     "board.regions (a JSON puzzle line brings its own).")] = None,
) -> None:
    """Grade puzzles by the hardest human technique they need: level and score (HoDoKu-style).
    Variant puzzles: as for solve (JSON lines, part files, --config)."""
    from pipeline import board
    from pipeline.difficulty import grade
    from pipeline.solve import batch, solver

    rules = _rules(config)
    source = batch.load(puzzle)
    bad = 0
    for lineno, text in source.items:
        where = "" if source.single else f"line {lineno}: "
        code = 2  # a puzzle that cannot be read is a user mistake; one without a unique solution is 1
        try:
            grid, variant = board.parse_with_rules(text, rules)
            code = 1
            # Only a unique puzzle is graded (a grade along one of several solutions would mean nothing):
            # the solver decides (exact search; the ILP only where its budgets run out) and says why
            # there is no solution; its solution spares the grader's trial-and-error search.
            checked = solver.solve(grid, variant=variant)
            if checked.status == "multiple":
                raise ValueError("cannot grade: not unique: 2+ solutions")
            if checked.status == "none":
                reason = checked.reason
                raise ValueError(f"cannot grade: no solution{f': {reason}' if reason else ''}")
            if checked.status != "unique":
                raise ValueError("cannot grade: the solver hit its time limit; uniqueness not decided")
            g = (grade.grade(grid, checked.solution) if variant.classic
                 else grade.grade(grid, checked.solution, variant=variant))
        except (board.PuzzleFormatError, ValueError) as exc:
            if source.single:
                raise _fail(str(exc), code) from None
            typer.echo(f"numplace: {source.name} line {lineno}: {exc}", err=True)
            bad += 1
            continue
        hardest = f"hardest: {g.techniques[-1]}" if g.techniques else "the grid is already complete"
        typer.echo(f"{where}{g.level} {g.score:g} ({g.logic_steps} logic steps"
                   f"{f', {g.guesses} guesses' if g.guesses else ''}; {hardest})")
        if explain:
            for line in grade.explain(g):
                typer.echo(f"  {line}")
    raise typer.Exit(1 if bad else 0)


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
                raise _fail(f"{where}{exc}") from None
            typer.echo(f"numplace: error: {where}{exc}", err=True)
            bad += 1
    if bad:
        raise typer.Exit(1)


@app.command("grid-number")
@_user_errors
def grid_number(grid: Annotated[str, typer.Argument(
        help="A 9x9 grid (81 digits, or drawn), a file of them (one per line; .csv/.parquet: puzzle column), or -.")]
) -> None:
    """The number of each complete 9x9 grid, in 0 .. N0-1 (one per line in, one per line out)."""
    from pipeline import board
    from pipeline.identity import numbering

    _each(grid, lambda text: str(numbering.grid_number(board.parse(text, 9))))


@app.command("grid-from-number")
@_user_errors
def grid_from_number(number: Annotated[str, typer.Argument(help="A number in 0 .. N0-1, a file of them, or -.")]
                     ) -> None:
    """The 9x9 grid with each number (the inverse of grid-number)."""
    from pipeline import board
    from pipeline.identity import numbering

    def one(text: str) -> str:
        if not text.isdigit():
            raise ValueError(f"{text!r} is not a whole number in 0 .. {numbering.N0 - 1}")
        return board.format_line(numbering.grid_from_number(int(text)))

    _each(number, one, puzzles=False)


@app.command("count-grids")
@_user_errors
def count_grids(band: Annotated[str | None, typer.Option(help="A top band (27 digits, rows 1-3): count its "
                                                               "standardized completions only.")] = None) -> None:
    """Count all 9x9 grids from the project's own band counts (N2, N0), or one band's completions."""
    from pipeline.identity import numbering

    if band is not None:
        try:
            typer.echo(numbering.band_count([int(c) for c in band if c.isdigit()]))
        except ValueError as exc:
            raise _fail(f"--band: {exc}") from None
        return
    result = numbering.count_grids()
    typer.echo(f"36,288 standard top bands in {result.classes} classes; {result.distinct_counts} distinct band counts")
    typer.echo(f"N2 = {result.n2:,} standardized grids")
    typer.echo(f"N0 = 9! * 72^2 * N2 = {result.n0:,} grids")
    typer.echo(f"counted in {result.seconds:.1f} s")


@app.command()
@_user_errors
def canon(puzzle: Annotated[str, typer.Argument(
        help="A puzzle or grid (4x4, 6x6, 9x9), a file of them (one per line; .csv/.parquet: puzzle column), or -.")]
          ) -> None:
    """The canonical form (minimal under relabelling, row/column/band/stack moves, transpose)."""
    from pipeline import board
    from pipeline.identity import canon as canonmod

    def one(text: str) -> str:
        grid = board.parse(text)
        key = canonmod.canonical_key(grid)
        if key is None:
            raise ValueError(f"no canonical form for {board.size_of_grid(grid)}x{board.size_of_grid(grid)} boards")
        return key

    _each(puzzle, one)


@app.command()
@_user_errors
def runs(
    root: Annotated[Path, typer.Argument(help="Output root (default: outputs).")] = Path("outputs"),
    as_json: Annotated[bool, typer.Option("--json", help="One JSON document instead of the table.")] = False,
) -> None:
    """The sets under an output root and their runs: status, puzzles, levels, the next index."""
    import json

    from pipeline.run.sets import overview

    if not root.is_dir():
        raise _fail(f"{root}: no such output folder")
    sets = overview(root)
    if as_json:
        typer.echo(json.dumps(sets, indent=2))
        return
    for s in sets:
        held = ", ".join(f"{k} {v}" for k, v in s["stock"].items())
        typer.echo(f"{s['set']}: {s['puzzles']} puzzles in {len(s['runs'])} run(s); next index {s['next_index']}"
                   f"{f'; stock: {held}' if held else ''}")
        for r in s["runs"]:
            levels = ", ".join(f"{k} {v}" for k, v in r["levels"].items())
            typer.echo(f"  {r['run_id']:<28} {r['status']:<11} {r['start']:>8}-{r['start'] + r['count'] - 1:<8} "
                       f"{r['puzzles']:>6} puzzles  {levels}")


@app.command()
@_user_errors
def catalog(
    out: Annotated[Path, typer.Option(help="Output root whose catalog to show.")] = Path("outputs"),
    repair: Annotated[bool, typer.Option("--repair", help="Move damaged catalog files to _catalog/damaged/ (kept) "
                                                          "and rebuild their entries from the runs' parts.")] = False,
) -> None:
    """What the dedup catalog under an output root holds: puzzles per set and run. A damaged catalog
    file is named in one line (exit 2); ``--repair`` moves damaged files aside and says what it did."""
    import polars as pl

    from pipeline.run import store

    if repair:
        if not out.is_dir():
            raise _fail(f"{out}: no such folder")
        moved = store.repair_catalog(out)
        for line in moved:
            typer.echo(line)
        typer.echo(f"{out}/{store.CATALOG}: {len(moved)} damaged catalog file(s) moved" if moved else
                   f"{out}/{store.CATALOG}: no damaged catalog files")
        return
    frame = store.read_catalog(out)
    typer.echo(f"{out}/{store.CATALOG}: {frame.height} puzzles, {frame['key'].n_unique()} distinct keys, "
               f"{frame['run_id'].n_unique()} run(s)")
    if frame.height:
        summary = frame.group_by("set_name", "run_id", "size").agg(pl.len().alias("puzzles")).sort("set_name", "run_id")
        for row in summary.iter_rows(named=True):
            typer.echo(f"  {row['set_name']:<24} {row['run_id']:<28} {row['size']}x{row['size']}  {row['puzzles']}")


@app.command()
@_user_errors
def export(
    paths: Annotated[list[Path], typer.Argument(help="Set folders, run folders or part files.")],
    out: Annotated[Path, typer.Option(help="A file (csv, jsonl, sdk) or a folder (one file per puzzle).")],
    fmt: Annotated[str, typer.Option("--format", help="csv | jsonl | sdk | svg | png.")] = "csv",
    solutions: Annotated[bool, typer.Option("--solutions", help="Also write each solution (sdk, svg, png).")] = False,
    level: Annotated[list[str] | None, typer.Option(help="Only these levels (repeat, or comma-separated).")] = None,
    score: Annotated[str | None, typer.Option(help="Only scores in A-B (A-, -B, N).")] = None,
    hints: Annotated[str | None, typer.Option(help="Only puzzles with A-B givens.")] = None,
    count: Annotated[int | None, typer.Option(help="At most this many puzzles (the first, in index order).")] = None,
    exclude: Annotated[list[Path] | None, typer.Option(help="Leave out the ids in this used.json (repeatable).")
                       ] = None,
) -> None:
    """Export puzzles for tools that do not read Parquet: CSV, JSON lines, one-line text, SVG or PNG."""
    from pipeline.publish import export as exportmod
    from pipeline.publish import select

    flt = select.filter_from_flags(level, score, hints, count)
    frame = select.select(paths, flt, select.read_used(exclude or []))
    written = exportmod.export(frame, fmt, out, solutions=solutions)
    typer.echo(f"wrote {written.puzzles} puzzles as {fmt} to {written.target} ({written.files} file(s))")


@app.command()
@_user_errors
def book(
    paths: Annotated[list[Path], typer.Argument(help="Set folders, run folders or part files.")],
    out: Annotated[Path, typer.Option(help="The PDF to write; <stem>.used.json goes beside it.")],
    config: Annotated[Path | None, typer.Option(help="Book config (YAML); defaults: A4, 4 a page, answers.")
                      ] = None,
    title: Annotated[str | None, typer.Option(help="Title (overrides the config's).")] = None,
    per_page: Annotated[int | None, typer.Option(help="Puzzles a page: 1, 2, 4 or 6 (overrides the config's).")
                        ] = None,
    exclude: Annotated[list[Path] | None, typer.Option(help="Leave out the ids in this used.json (repeatable).")
                       ] = None,
) -> None:
    """Make a print-ready puzzle book (PDF): title, contents, sections easy -> extreme, answers."""
    from pipeline.publish import book as bookmod
    from pipeline.publish import select

    cfg = bookmod.load_config(config, {"title": title, "per_page": per_page})
    pages = bookmod.make_book(paths, out, cfg, select.read_used(exclude or []))
    n = sum(len(p.items) for p in pages if p.kind == "puzzles")
    typer.echo(f"wrote {out}: {len(pages)} pages, {n} puzzles; ids in {bookmod.used_path(out)}")


@app.command()
@_user_errors
def report(
    paths: Annotated[list[Path], typer.Argument(help="Set folders, run folders or part files.")],
    out: Annotated[Path, typer.Option(help="The file to write (report.html, or a .png with --format png).")],
    fmt: Annotated[str, typer.Option("--format", help="html (one self-contained page) or png (one image).")
                   ] = "html",
) -> None:
    """Report a set or run for an editor: counts, hints, difficulty, techniques, time, failures."""
    from pipeline.publish import report as reportmod

    reportmod.make_report(paths, out, fmt)
    typer.echo(f"wrote {out}")


def _usage_line(exc: Exception) -> str:
    """One line for a usage mistake typer/click found (a bad option value, an unknown option, a
    missing argument), instead of its usage box: ``--count: 'abc' is not a valid integer``."""
    from typer._click.exceptions import BadParameter, MissingParameter

    from pipeline.config import echo

    if isinstance(exc, BadParameter) and not isinstance(exc, MissingParameter):
        param = exc.param
        opts = [o for o in getattr(param, "opts", []) if o.startswith("-")]
        hint = "/".join(opts) if opts else (getattr(param, "human_readable_name", None) or str(exc.param_hint))
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
    and the bare command (which prints the help, exit 2) behave as typer's; Ctrl-C is exit 130."""
    from typer._click.exceptions import ClickException, NoArgsIsHelpError, UsageError

    try:
        code = app(standalone_mode=False)
    except KeyboardInterrupt:
        sys.exit(130)
    except NoArgsIsHelpError as exc:
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
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)
