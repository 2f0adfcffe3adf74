"""Commands on puzzle sets: ``run`` makes the next puzzles of a set, ``runs`` lists the sets and
their runs, ``check`` re-verifies a set, ``show`` draws its puzzles, ``catalog`` shows (or repairs)
the dedup catalog. Each parses its flags, calls one function of :mod:`pipeline.run` and prints
the result; exit codes as :class:`~pipeline.cli.base.ExitCode`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pipeline.cli import signals
from pipeline.cli.base import ExitCode, fail, say_end, user_errors

if TYPE_CHECKING:
    from pipeline.run.runner import RunSummary


@user_errors
def run(
    config: Annotated[Path, typer.Argument(help="YAML config file (see configs/default.yaml).")],
    count: Annotated[int | None, typer.Option(min=1, help="Number of puzzles (overrides count).")] = None,
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
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Say what the config will make and roughly how long it "
                                                            "will take, from a short sample; write nothing.")] = False,
    fill_gap: Annotated[bool, typer.Option("--fill-gap", help="Make the set's first gap in its ids (indices of a "
                                                              "deleted run folder) again from their seeds, as a run "
                                                              "of its own.")] = False,
) -> None:
    """Make the next puzzles of a set: outputs/<name>/<run_id>/part-*.parquet and _manifest.json."""
    from pipeline import config as cfgmod
    from pipeline import progress
    from pipeline.atomic import DiskFull
    from pipeline.run import runner
    from pipeline.run.lock import SetLocked
    from pipeline.run.manifest import manifest_path
    from pipeline.run.workers import parse_workers

    if fill_gap and (resume is not None or count is not None or dry_run):
        raise fail("--fill-gap: makes as many puzzles as the gap holds, as a new run; not with --resume, --count or "
                   "--dry-run")
    w = parse_workers(workers) if workers is not None else None
    overrides = {"count": count, "seed": seed, "workers": w, "output.dir": str(out) if out else None,
                 **cfgmod.executor_overrides(executor, scheduler)}
    cfg = cfgmod.load(config, overrides)
    if dry_run:
        if resume is not None:
            raise fail("--dry-run: previews a new run, not --resume (numplace runs shows how far a run got)")
        from pipeline.run.preview import preview

        for line in preview(cfg).lines():
            typer.echo(line)
        return
    signals.arm()  # SIGTERM, SIGHUP, SIGQUIT end the run like Ctrl-C (also when called without main)
    try:
        with progress.reporter(cfg.name) as tick:
            summary = runner.run(cfg, resume=resume, progress=tick, log=progress.logger(), max_minutes=max_minutes,
                                 fill_gap=fill_gap)
    except SetLocked as exc:  # a UserError with its own code: wait, then run again
        raise fail(str(exc), ExitCode.LOCKED) from None
    except DiskFull as exc:
        run_dir = exc.run_dir or (exc.path.parent if manifest_path(exc.path.parent) is not None else None)
        then = f"free space, then continue with: numplace run {config} --resume {run_dir}" if run_dir else \
            "free space, then run again"
        raise fail(f"{exc}; finished parts are kept; {then}", ExitCode.DISK_FULL) from None
    except runner.RunInterrupted as exc:
        signals.report()
        say_end(f"{signals.why()}; finished parts are kept. Continue with: numplace run {config} --resume "
                f"{exc.run_dir}", ExitCode(signals.exit_code()), "run", "interrupted", run_dir=str(exc.run_dir))
        raise typer.Exit(ExitCode(signals.exit_code())) from None
    except KeyboardInterrupt:  # before the run had a folder to resume (while planning or connecting)
        signals.report()
        say_end(f"{signals.why()} before the run started making puzzles; nothing to resume, run it again",
                ExitCode(signals.exit_code()), "run", "interrupted")
        raise typer.Exit(ExitCode(signals.exit_code())) from None
    except runner.ExecutorLost as exc:  # the run is closed as partial, like --max-minutes: exit 3
        then = f"continue with: numplace run {config} --resume {exc.run_dir}" if exc.run_dir else "run again"
        raise fail(f"{exc}; finished parts are kept; {then}", ExitCode.PARTIAL) from None
    _report(config, summary)


def _report(config: Path, summary: RunSummary) -> None:
    """Print what ``run`` wrote (a line per run it made, an unfinished one finished first too) and
    end with the exit code its status calls for."""
    from pipeline.run.layout import MANIFEST

    for done in (*summary.finished_first, summary):  # an unfinished run finished first has its line too
        rate = done.written / done.seconds if done.seconds > 0 else 0.0
        first = " (an unfinished run, finished first)" if done is not summary else ""
        typer.echo(f"wrote {done.written} of {done.count} puzzles (indices {done.start}-"
                   f"{done.start + done.count - 1}) to {done.run_dir}{first} in {done.seconds:.1f} s "
                   f"({rate:.1f} puzzles/s)")
    if summary.status == "partial":
        say_end(f"stopped after --max-minutes; continue with: numplace run {config} --resume {summary.run_dir}",
                ExitCode.PARTIAL, "run", "stopped", run_dir=str(summary.run_dir))
        raise typer.Exit(ExitCode.PARTIAL)
    if not summary.ok:
        say_end(f"{len(summary.failures)} puzzle(s) failed and were not written (--resume does not retry them); see "
                f"{summary.run_dir / MANIFEST}", ExitCode.PROBLEMS, "run", "failed", run_dir=str(summary.run_dir))
        raise typer.Exit(ExitCode.PROBLEMS)


@user_errors
def check(
    path: Annotated[Path, typer.Argument(help="A set folder, run folder or part file.")],
    fast: Annotated[bool, typer.Option("--fast", help="Skip recomputing minimality, grades, canonical forms and "
                                                      "grid numbers; everything else is still checked.")] = False,
    replay: Annotated[str | None, typer.Option(metavar="K|all", help="Also make K sampled rows (or all) again "
                                                                     "from their seeds and compare.")] = None,
) -> None:
    """Re-verify every puzzle of a set independently, recompute what can be derived, compare every
    part with its manifest; print a summary (exit 1 on any problem)."""
    from pipeline.run.audit import audit, summary_lines

    if replay is not None and replay != "all" and not (replay.isdigit() and int(replay) >= 1):
        raise fail(f"--replay: {replay!r} is not a number of rows >= 1 or 'all'")
    result = audit(path, fast=fast, replay="all" if replay == "all" else int(replay or 0))
    for line in summary_lines(result):
        typer.echo(line)
    if not result.ok:
        raise typer.Exit(ExitCode.PROBLEMS)


@user_errors
def show(
    path: Annotated[Path, typer.Argument(help="A set folder, run folder or part file.")],
    limit: Annotated[int, typer.Option(min=1, help="How many puzzles to print.")] = 5,
    fmt: Annotated[str, typer.Option("--format", help="grid (drawn, with a header line) or line (one puzzle a "
                                                      "line; a variant as a JSON puzzle line).")] = "grid",
) -> None:
    """Print puzzles of a set as drawn grids, or one a line; solve and rate read both back."""
    from pipeline.run import store
    from pipeline.solve.blocks import show_lines

    if fmt not in ("grid", "line"):
        raise fail(f"--format: {fmt!r} is not one of grid, line")
    frame = store.read_parts(store.part_files(path)).head(limit)
    for line in show_lines(frame.iter_rows(named=True), fmt):
        typer.echo(line)


@user_errors
def runs(
    root: Annotated[Path, typer.Argument(help="Output root (default: outputs).")] = Path("outputs"),
    as_json: Annotated[bool, typer.Option("--json", help="One JSON document instead of the table.")] = False,
) -> None:
    """The sets under an output root and their runs: status, puzzles, levels, the next index."""
    import json

    from pipeline.run.sets import overview

    if not root.is_dir():
        raise fail(f"{root}: no such output folder")
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
        for run_dir in s["unfinished"]:
            typer.echo(f"  UNFINISHED {run_dir}: the next run of {s['set']} finishes it first "
                       f"(or now: numplace run CONFIG --resume {run_dir})")
        for line in s["problems"]:
            typer.echo(f"  PROBLEM {line}")


@user_errors
def accept_gap(
    set_dir: Annotated[Path, typer.Argument(help="The set folder (outputs/<set>).")],
    reason: Annotated[str, typer.Option(help="Why the ids are missing (kept in <set>/_gaps.json).")],
) -> None:
    """Record the set's gaps in its ids and its runs deleted by hand as left on purpose, so that
    check and runs stop reporting them (the other way out: numplace run CONFIG --fill-gap)."""
    from pipeline.run.history import accept
    from pipeline.run.manifest import runs_of

    if not set_dir.is_dir():
        raise fail(f"{set_dir}: no such set folder")
    if not reason.strip():
        raise fail("--reason: say why the ids are missing")
    runs = runs_of(set_dir)
    if not runs:
        raise fail(f"{set_dir}: not a set folder (no run folders with a manifest)")
    for line in accept(set_dir, runs, reason.strip()):
        typer.echo(line)


@user_errors
def catalog(
    out: Annotated[Path, typer.Option(help="Output root whose catalog to show.")] = Path("outputs"),
    repair: Annotated[bool, typer.Option("--repair", help="Move damaged catalog files to _catalog/damaged/ (kept) "
                                                          "and rebuild their entries from the runs' parts.")] = False,
) -> None:
    """What the dedup catalog under an output root holds: puzzles per set and run. A damaged catalog
    file is named in one line (exit 2); --repair moves damaged files aside and says what it did."""
    import polars as pl

    from pipeline.run import store

    if repair:
        if not out.is_dir():
            raise fail(f"{out}: no such folder")
        moved = store.repair_catalog(out)
        for line in moved:
            typer.echo(line)
        typer.echo(f"{out}/{store.CATALOG}: {len(moved)} damaged or half-written catalog file(s) or index "
                   f"segment(s) moved or removed" if moved else
                   f"{out}/{store.CATALOG}: no damaged catalog files or index segments")
        return
    frame = store.read_catalog(out)
    typer.echo(f"{out}/{store.CATALOG}: {frame.height} puzzles, {frame['key'].n_unique()} distinct keys, "
               f"{frame['run_id'].n_unique()} run(s)")
    for line in store.unused_catalog_files(out):
        typer.echo(f"  UNUSED {line}")
    for line in store.bad_segments(out):
        typer.echo(f"  BAD {line}")
    if frame.height:
        summary = frame.group_by("set_name", "run_id", "size").agg(pl.len().alias("puzzles")).sort("set_name", "run_id")
        for row in summary.iter_rows(named=True):
            typer.echo(f"  {row['set_name']:<24} {row['run_id']:<28} {row['size']}x{row['size']}  {row['puzzles']}")
