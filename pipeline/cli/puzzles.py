"""Commands on single puzzles, without a set on disk: ``solve`` (solve, count or repair),
``generate`` (print verified puzzles) and ``rate`` (grade by the hardest technique needed). Input
is read as :func:`pipeline.solve.batch.load` reads it; exit codes as
:class:`~pipeline.cli.base.ExitCode`.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from pipeline.cli.base import ExitCode, fail, user_errors
from pipeline.compiled import ONE_SHOT_PUZZLES, one_shot
from pipeline.generate.version import NEW_SET_METHOD

#: ``generate --technique``'s attempt limit when ``--max-attempts`` is not given (a config's
#: ``difficulty.max_attempts`` keeps its default of 200). A one-off request for a rare technique should not
#: come back short: Simple Colors takes about 175 grids a puzzle on average (seeds 11 and 12, 8 puzzles), so
#: 200 ran out about one time in three, and 2,000 about once in 90,000.
TECHNIQUE_ATTEMPTS = 2000


@user_errors
def generate(
    count: Annotated[int, typer.Option(min=1, help="Number of puzzles.")] = 10,
    seed: Annotated[int, typer.Option(help="Set seed: puzzle i uses a seed derived from (seed, i).")] = 0,
    size: Annotated[int, typer.Option(help="Board side: 4, 6, 9, 16 or 25 (25 needs --hints).")] = 9,
    symmetry: Annotated[str, typer.Option(help="Symmetry tag, or random.")] = "rot180",
    variant: Annotated[str | None, typer.Option(help="Board rules beyond rows, columns and boxes (board.variant): "
                                                     "x, hyper, or both joined with +, e.g. x+hyper.")] = None,
    minimal: Annotated[bool, typer.Option("--minimal", help="Orbit-minimal puzzles (the default without "
                                                           "--hints).")] = False,
    hints: Annotated[str | None, typer.Option(help="Givens: N, or A-B for a range.")] = None,
    engine: Annotated[str, typer.Option(help="hybrid (compiled checks, ILP certifies) or ilp.")] = "hybrid",
    grid: Annotated[str, typer.Option(help="How grids are made (grid.method): weighted-lp (a new set's default), "
                                           "weighted-ilp or uniform.")] = NEW_SET_METHOD,
    level: Annotated[list[str] | None, typer.Option(help="Only puzzles of these levels (difficulty.levels; "
                                                         "repeat or comma-separate), e.g. expert.")] = None,
    steer: Annotated[bool, typer.Option("--steer", help="With --level: when a puzzle misses the level, search "
                                                        "nearby minimal puzzles of its grid (difficulty.steer).")
                     ] = False,
    workers: Annotated[str, typer.Option(help="Worker processes or 'auto'.")] = "1",
    fmt: Annotated[str, typer.Option("--format", help="line (the puzzle) or json (the whole row).")] = "line",
    logic_only: Annotated[bool, typer.Option("--logic-only", help="Only puzzles solved without trial and error "
                                                                  "(difficulty.logic_only).")] = False,
    technique: Annotated[list[str] | None, typer.Option(help="Only puzzles made for this technique, reached by "
                                                             "steering (difficulty.technique; repeat or "
                                                             "comma-separate for one of several), e.g. x_wing.")
                         ] = None,
    max_attempts: Annotated[int | None, typer.Option(
        "--max-attempts", min=1, help="Grids tried per puzzle before it counts as failed (difficulty.max_attempts "
                                      f"with --level, default 200, or --technique, default {TECHNIQUE_ATTEMPTS}; "
                                      "else removal.max_attempts, default 20).")] = None,
) -> None:
    """Print verified puzzles, one per line, without a config or output files (same engine as run)."""
    import json

    from pipeline import config as cfgmod
    from pipeline.run import runner
    from pipeline.run.work import Made
    from pipeline.run.workers import parse_workers, worker_count

    if minimal and hints:
        raise fail("choose --minimal or --hints, not both")
    if fmt not in ("line", "json"):
        raise fail(f"--format: {fmt!r} is not one of line, json")
    if fmt == "line" and variant and "killer" in variant.lower().replace(" ", "").split("+"):
        raise fail("--variant killer: a killer puzzle is its cages, which a line of cells cannot hold; "
                   "use --format json (one JSON row a puzzle, cages included; solve and rate read it)")
    removal: dict[str, Any] = {"symmetry": symmetry}
    if hints:
        lo, _, hi = hints.partition("-")
        if not (lo.isdigit() and (hi.isdigit() or not hi)):
            raise fail(f"--hints: {hints!r} is not N or A-B")
        removal["hints"] = {"min": int(lo), "max": int(hi or lo)}
    data: dict[str, Any] = {"name": "generate", "seed": seed, "count": count,
                            "board": {"size": size, **({"variant": variant} if variant else {})},
                            "removal": removal, "workers": parse_workers(workers), "engine": engine,
                            "grid": {"method": grid}}
    difficulty = _difficulty(level, steer, technique, logic_only)
    if difficulty:
        data["difficulty"] = difficulty
    if max_attempts is None and "technique" in difficulty:
        max_attempts = TECHNIQUE_ATTEMPTS
    if max_attempts is not None:
        data.setdefault("difficulty" if "difficulty" in data else "removal", {})["max_attempts"] = max_attempts
    cfg = cfgmod.validate(data)
    if count <= ONE_SHOT_PUZZLES and worker_count(cfg.workers) == 1 and not (cfg.difficulty and
                                                                            cfg.difficulty.techniques):
        # pure Python: loading numba would cost more than the puzzles (pipeline.compiled); a technique
        # target climbs through hundreds of grades a grid, 1-3x faster with the kernels even for one puzzle
        one_shot()
    failed: list[tuple[int, str]] = []
    for item in runner.stream(cfg):
        if isinstance(item, Made):
            typer.echo(json.dumps(item.row, default=str) if fmt == "json" else item.row["puzzle"])
        else:
            failed.append((item.index, item.kind))
            typer.echo(f"numplace: puzzle {item.index}: {item.kind} failed: {item.failure}", err=True)
    if failed:
        typer.echo(_shortfall(count, failed, cfg.difficulty.max_attempts if cfg.difficulty
                              else cfg.removal.max_attempts), err=True)
        raise typer.Exit(ExitCode.PROBLEMS)


def _difficulty(level: list[str] | None, steer: bool, technique: list[str] | None,
                logic_only: bool) -> dict[str, Any]:
    """``generate``'s difficulty section from ``--level``, ``--steer``, ``--technique`` and ``--logic-only``
    (empty when none is given); a flag that needs or excludes another is refused in one line."""
    out: dict[str, Any] = {}
    levels = [x.strip() for v in level or () for x in v.split(",") if x.strip()]
    if levels:
        out = {"levels": levels, **({"steer": True} if steer else {})}
    elif steer:
        raise fail("--steer: needs --level (the difficulty to steer toward)")
    names = [x.strip() for v in technique or () for x in v.split(",") if x.strip()]
    if names:
        if levels or steer:
            other = "--level" if levels else "--steer"
            raise fail(f"--technique: fixes the level and steers by itself; leave out {other}")
        out = {"technique": names[0] if len(names) == 1 else names}
    if logic_only:
        out["logic_only"] = True
    return out


def _shortfall(count: int, failed: list[tuple[int, str]], attempts: int) -> str:
    """The closing line of a ``generate`` that made fewer puzzles than asked: how many were printed,
    which indices failed, and (when a puzzle ran out of grids) how to try harder."""
    which = ", ".join(str(i) for i, _ in failed)
    made = count - len(failed)
    line = (f"numplace: made {made} of {count} puzzles{' (printed above)' if made else ''}; no puzzle for "
            f"index {which}")
    if any(kind == "generation" for _, kind in failed):
        line += f" within {attempts} grids each: raise --max-attempts to try more"
    return line


#: ``--config`` of solve and rate: the config whose board rules plain puzzle text is played by.
RulesConfig = Annotated[Path | None, typer.Option(help="Play plain puzzles by this config's board.variant and "
                                                       "board.regions (a JSON puzzle line brings its own).")]


def _rules(config: Path | None) -> Any:
    """The variant rules of ``--config``'s board section (None without ``--config``)."""
    if config is None:
        return None
    from pipeline import config as cfgmod

    return cfgmod.load(config).board.rules


def _render_single(text: str, mode: str, fmt: str, limit: int, rules: Any = None) -> tuple[str, ExitCode]:
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
    adds = _additions(grid, variant) if mode == "repair" and result.status == "multiple" else None
    if fmt == "json":
        failed = result.status in ("none", "timeout")
        data = solver.as_json(result)
        if adds is not None:
            data["givens_to_add"] = [{"row": i // adds.n, "col": i % adds.n, "digit": board.SYMBOLS[d - 1]}
                                     for i, d in adds.cells]
            data["givens_to_add_fewest"] = adds.fewest
        return json.dumps(data), ExitCode.PROBLEMS if failed else ExitCode.OK
    lines: list[str] = []
    if isinstance(result, solver.RepairResult):
        if result.changes:
            lines += _repair_lines(result)
        elif adds is not None:
            lines.append(f"no given to change: the puzzle is multiple; {adds.line}")
        else:
            lines.append(f"nothing to repair: the puzzle is {result.status}")
        sol = result.solution
    else:
        if result.status == "none":
            if mode == "count":  # counting is an answer: zero solutions is "none" (still exit 1)
                return "none", ExitCode.PROBLEMS
            raise fail(f"no solution: {result.reason}; try --repair", ExitCode.PROBLEMS)
        if mode == "count" or result.status != "unique":
            lines.append(solver.count_line(result))
        sol = result.solution
    if result.status == "timeout" or sol is None:
        raise fail("the solver hit its time limit; no answer", ExitCode.PROBLEMS)
    if mode != "count" or fmt == "grid":
        lines.append(board.format_grid(sol) if fmt == "grid" else board.format_line(sol))
    return "\n".join(lines), ExitCode.OK


def _repair_lines(result: Any) -> list[str]:
    """The text of a repair that changed givens: the changes, then every repair as good, if any, and
    that the choice among them is the editor's."""
    note = f"; {result.note}" if result.note else ""
    status = result.repaired_status
    lines = [f"repaired: {len(result.changes)} given(s) changed (the repaired puzzle is {status}{note})"]
    lines += [f"  {c}" for c in result.changes]
    if result.alternatives:
        k = len(result.alternatives)
        unique = " that give a unique puzzle" if result.repaired_status == "unique" else ""
        more = f" (the first {k}; there are more)" if result.capped else ""
        lines.append(f"equally good: {k} other repair(s) with as few changes{unique}{more}; "
                     "which given is wrong is the editor's choice:")
        lines += ["  " + ", ".join(str(c) for c in other) for other in result.alternatives]
    return lines


@dataclass(frozen=True)
class _Adds:
    """Givens to add to a puzzle with several solutions (:func:`pipeline.solve.pin.givens_to_add`)."""

    n: int
    cells: tuple[tuple[int, int], ...]
    fewest: bool
    line: str


def _additions(grid: Any, variant: Any) -> _Adds | None:
    """The fewest givens to add (as the studio shows them), for ``solve --repair`` of a puzzle with
    several solutions: nothing is wrong with its givens, it lacks some."""
    from pipeline.board import size_of_grid
    from pipeline.solve import pin

    found = pin.givens_to_add(grid, variant=variant)
    if found is None:
        return None
    n = size_of_grid(grid)
    if not found.unique:
        line = f"adding {found} still leaves several solutions (the search stopped); add more"
    else:
        line = (f"add {len(found.cells)} given(s) for one solution: {found} "
                f"({'no fewer will do' if found.fewest else 'fewer may do: not proved fewest'})")
    return _Adds(n, found.cells, found.fewest and found.unique, line)


def _render_why(text: str, fmt: str, rules: Any = None) -> tuple[str, ExitCode]:
    """Text for ``solve --why`` and the exit code: 1 and a core of givens that cannot stand together
    when the puzzle has no solution; 0 and its status when it has one (nothing to explain)."""
    import json

    from pipeline import board
    from pipeline.solve import why

    grid, variant = board.parse_with_rules(text, rules)
    try:
        status, core = why.diagnose(grid, variant=variant)
    except why.Undecided as exc:
        raise fail(str(exc), ExitCode.PROBLEMS) from None
    if core is None:
        if fmt == "json":
            return json.dumps({"status": status, "why": None}), ExitCode.OK
        return f"{status}: the puzzle has a solution; nothing to explain", ExitCode.OK
    if fmt == "json":
        givens = [{"row": r, "col": c, "digit": s} for r, c, s in core.givens()]
        return json.dumps({"status": "none", "why": givens, "smallest": core.smallest}), ExitCode.PROBLEMS
    if not core.cells:
        return "none: the rules alone (the cages) admit no grid; no given is to blame", ExitCode.PROBLEMS
    size = "smallest" if core.smallest else "minimal: drop any one and the rest has a solution"
    head = f"none: these {len(core.cells)} givens cannot stand together ({size}): {core}"
    return (head + "\n" + board.format_grid(core.grid()) if fmt == "grid" else head), ExitCode.PROBLEMS


@user_errors
def solve(
    puzzle: Annotated[str, typer.Argument(help="A puzzle (81 chars, . or 0 blank), a file (text, .csv, .parquet), "
                                                "or - for stdin.")],
    count: Annotated[bool, typer.Option("--count", help="Report unique / multiple / none.")] = False,
    limit: Annotated[int, typer.Option(min=1, help="With --count: stop after this many solutions.")] = 2,
    repair: Annotated[bool, typer.Option("--repair", help="Change the fewest givens so the puzzle solves.")] = False,
    why: Annotated[bool, typer.Option("--why", help="One puzzle without a solution: a smallest (else minimal) set of "
                                                    "its givens that cannot stand together.")] = False,
    fmt: Annotated[str | None, typer.Option("--format", help="grid | line | json (default: grid on a terminal, "
                                                             "else line).")] = None,
    out: Annotated[Path | None, typer.Option(help="Write here instead of stdout: one puzzle .txt or .json; a batch "
                                                  ".parquet, .csv or .jsonl.")] = None,
    workers: Annotated[str, typer.Option(help="Batch worker processes or 'auto'.")] = "auto",
    config: RulesConfig = None,
) -> None:
    """Solve, count or repair one puzzle, or a batch file of them (one per line, or a puzzle column).

    Variant puzzles come as JSON lines named as the Parquet columns, e.g.
    {"puzzle": "...", "variant": ["killer"], "cages": [{"cells": [0, 1], "sum": 3}, ...]}, in a numplace
    part file, or as plain text with --config naming the board's variant."""
    import json

    from pipeline.solve import batch

    if count and repair:
        raise fail("choose --count or --repair, not both")
    if why and (count or repair):
        raise fail("choose --why alone, not with --count or --repair")
    if fmt not in (None, "grid", "line", "json"):
        raise fail(f"--format: {fmt!r} is not one of grid, line, json")
    mode: batch.Mode = "repair" if repair else "count" if count else "solve"
    rules = _rules(config)
    source = batch.load(puzzle)
    # the output file's format, folder and name are checked before any solving
    suffix = batch.check_out(out, source.single) if out is not None else None
    if source.single:
        one_shot()  # one puzzle: pure Python (pipeline.compiled)
        ((_, text),) = source.items
        if suffix == ".json":
            if fmt not in (None, "json"):
                raise fail(f"--format {fmt} does not fit --out {out}: a .json file holds --format json")
            fmt = "json"
        fmt = fmt or ("grid" if sys.stdout.isatty() and out is None else "line")
        rendered, code = _render_why(text, fmt, rules) if why else _render_single(text, mode, fmt, limit, rules)
        if out is not None:
            batch.write_text(out, rendered + "\n")
        else:
            typer.echo(rendered)
        raise typer.Exit(code)
    if why:
        raise fail("--why takes one puzzle, not a batch")
    from pipeline import progress
    from pipeline.run.workers import parse_workers, worker_count

    n = worker_count(parse_workers(workers))
    with progress.reporter("solve") as tick:
        rows = batch.solve_batch(source.items, mode, limit, n, tick, rules)
    bad = [r for r in rows if r["status"] == "invalid"]
    for r in bad:
        typer.echo(f"numplace: error: {source.name} line {r['line']}: {r['error']}", err=True)
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
    raise typer.Exit(ExitCode.PROBLEMS if bad else ExitCode.OK)


@user_errors
def rate(
    puzzle: Annotated[str, typer.Argument(help="A puzzle, a file (one puzzle, or one per line; .csv/.parquet "
                                                "with a puzzle column), or - for stdin.")],
    explain: Annotated[bool, typer.Option("--explain", help="Print the solving path step by step.")] = False,
    config: RulesConfig = None,
) -> None:
    """Grade puzzles by the hardest human technique they need: level and score (HoDoKu-style).
    Variant puzzles: as for solve (JSON lines, part files, --config)."""
    from pipeline import board
    from pipeline.difficulty import grade
    from pipeline.solve import batch
    from pipeline.solve import rate as rating

    rules = _rules(config)
    source = batch.load(puzzle)
    one_shot(source.single)  # one puzzle: pure Python (pipeline.compiled)
    bad = 0
    for lineno, text in source.items:
        where = "" if source.single else f"line {lineno}: "
        code = ExitCode.USAGE  # a puzzle that cannot be read is a user mistake; one without a unique solution is 1
        try:
            grid, variant = board.parse_with_rules(text, rules)
            code = ExitCode.PROBLEMS
            g = rating.rate(grid, variant)
        except (board.PuzzleFormatError, ValueError) as exc:
            if source.single:
                raise fail(str(exc), code) from None
            typer.echo(f"numplace: error: {source.name} line {lineno}: {exc}", err=True)
            bad += 1
            continue
        hardest = f"hardest: {g.techniques[-1]}" if g.techniques else "the grid is already complete"
        typer.echo(f"{where}{g.level} {g.score:g} ({g.logic_steps} logic steps"
                   f"{f', {g.guesses} guesses' if g.guesses else ''}; {hardest})")
        if explain:
            key = rating.key_step(g)
            for k, line in enumerate(grade.explain(g)):
                typer.echo(f"  {line}")
                if k == key:
                    typer.echo(f"  ^ key step: the first {grade.TITLES[g.steps[k].technique]}, the hardest "
                               "technique, once nothing easier applies")
    raise typer.Exit(ExitCode.PROBLEMS if bad else ExitCode.OK)
