"""Each row of a sound part: the independent checker, agreements between columns, and recomputation.

:func:`row_problems` gathers a row's findings: :func:`pipeline.verify.verify_row` (the independent
checker: a valid solution, givens that agree with it, ``hints``, the layout's symmetry, exactly one
solution); the identity columns (:func:`.ids.identity`); cheap agreements between columns
(:func:`consistency`: box shape, ``difficulty_rank``, which identity columns a board has); the run's
design (:mod:`.design`); and, unless ``fast``, the derived columns recomputed (:func:`recompute`):
``minimal`` and ``orbit_minimal`` (removing any single given, or any whole orbit of
``symmetry_requested``, breaks uniqueness), the grade (``difficulty``, ``difficulty_score``,
``techniques``, ``logic_steps``, by :mod:`pipeline.difficulty.grade`; a ``technique`` the row was made
for re-proved by :func:`pipeline.generate.technique.made_for`), ``canonical_puzzle``
(:func:`pipeline.identity.canon.canonical_key`, null for 16x16; variants:
:func:`pipeline.identity.variant_canon.canonical_variant_key`, null accepted from older rows) and ``grid_number``
(:func:`pipeline.identity.numbering.grid_number`, 9x9 only). The row's dedup key comes from the
recomputed canonical form when there is one.

Roads not taken: uniqueness for the minimality flags is decided by the compiled counter of
:mod:`pipeline.generate.count_jit` (much faster than the pure-Python counter of :mod:`pipeline.verify`,
which stays the independent judge of the row itself and is the fallback when the counter's node
budget runs out); the recomputation is not the generator's code path (which reuses proofs from its
removal pass), only the same definition.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from pipeline import verify
from pipeline.board import Grid, Variant, board, make_variant, parse
from pipeline.config.technique import OFFERED
from pipeline.difficulty.techniques import GRADER_VERSION, LEVELS, ORDERS, TECHNIQUES, UNRATED
from pipeline.generate import technique
from pipeline.run import rows
from pipeline.run.audit.ids import Expect, identity


def row_problems(row: dict[str, Any], expect: Expect | None, fast: bool) -> tuple[list[str], str]:
    """Findings of one row of a sound part and its dedup key: from the recomputed canonical form
    unless ``fast`` (or the row failed verification), else from its ``canonical_puzzle``."""
    found = verify.verify_row(row)
    sound = not found
    found += identity(row, expect)
    found += consistency(row)
    if expect is not None and expect.design is not None and row["index"] not in expect.stock:
        found += expect.design.problems(row)
    key = rows.dedup_key(row)
    if sound and not fast:
        # grades are recomputed by the rules the run recorded, when this code holds them (ORDERS): a run
        # graded by version 1 has its own grader's grades, which this code no longer holds
        version = GRADER_VERSION if expect is None else expect.grader_version
        more, recomputed = recompute(row, grader=version if version in ORDERS else None)
        found += more
        key = rows.dedup_key({**row, "canonical_puzzle": recomputed})
    return found, key


def consistency(row: Mapping[str, Any]) -> list[str]:
    """Cheap agreements between columns: box shape and size, ``difficulty_rank`` and ``difficulty``,
    and which identity columns a board of this size has (``grid_number``: 9x9 only;
    ``canonical_puzzle``: 4x4, 6x6, 9x9)."""
    out = []
    n = int(row["size"])
    try:
        b = board(n)
    except ValueError:
        return []  # verify_row names the size
    if (row["box_rows"], row["box_cols"]) != (b.box_rows, b.box_cols):
        out.append(f"box_rows x box_cols is {row['box_rows']}x{row['box_cols']}, a {n}x{n} board has "
                   f"{b.box_rows}x{b.box_cols} boxes")
    made = row.get("technique")
    if made is not None and made not in OFFERED:
        out.append(f"technique {made!r} is not a technique a puzzle can be made for")
    elif made is not None and made not in row["techniques"]:
        out.append(f"technique is {made}, which its techniques do not use")
    level, rank = row["difficulty"], row.get("difficulty_rank")
    if level not in LEVELS and not (level == UNRATED and row.get("variant")):
        out.append(f"difficulty {level!r} is not a level ({', '.join(LEVELS)}; {UNRATED} for variant puzzles)")
    elif rank is not None and rank != rows.rank_of(level):
        out.append(f"difficulty_rank is {rank}, difficulty {level} has rank {rows.rank_of(level)}")
    jigsaw, classic = bool(row.get("regions")), not row.get("variant")
    if (row["grid_number"] is None) != (n != 9 or jigsaw):
        out.append("grid_number is null for a 9x9 grid" if n == 9 and not jigsaw
                   else f"grid_number is set for a {'jigsaw' if jigsaw else f'{n}x{n}'} grid")
    if classic and (row["canonical_puzzle"] is None) != (n not in (4, 6, 9)):
        out.append(f"canonical_puzzle is null for a {n}x{n} puzzle" if n in (4, 6, 9)
                   else f"canonical_puzzle is set for a {n}x{n} puzzle (none is defined)")
    elif not classic and row["canonical_puzzle"] is not None and not (jigsaw or n in (4, 6, 9)):
        # null is accepted for variant rows: rows written before variant forms existed have none
        out.append(f"canonical_puzzle is set for a {n}x{n} variant puzzle (none is defined)")
    return out


def _grade_findings(row: Mapping[str, Any], puzzle: Grid, solution: Grid, variant: Variant,
                    grader: int) -> list[str]:
    """The grade columns against the grade of the row's puzzle by grader version ``grader``."""
    from pipeline.difficulty import grade

    try:
        g = (grade.grade(puzzle, solution, grader=grader) if variant.classic
             else grade.grade(puzzle, solution, variant=variant, grader=grader))
    except ValueError as exc:
        return [f"the grader cannot grade it: {exc}"]
    out = []
    if row["difficulty"] != g.level:
        out.append(f"difficulty is {row['difficulty']}, the grader says {g.level}")
    if not math.isclose(row["difficulty_score"], g.score, abs_tol=1e-6):
        out.append(f"difficulty_score is {row['difficulty_score']:g}, the grader says {g.score:g}")
    if list(row["techniques"]) != list(g.techniques):
        out.append(f"techniques are {list(row['techniques'])}, the grader says {list(g.techniques)}")
    if row["logic_steps"] != g.logic_steps:
        out.append(f"logic_steps is {row['logic_steps']}, the grader says {g.logic_steps}")
    guessing = rows.needs_guessing(g.level, g.techniques)
    if row.get("needs_guessing") is not None and row["needs_guessing"] != guessing:
        out.append(f"needs_guessing is {_b(row['needs_guessing'])}, the grader says {_b(guessing)}")
    made = row.get("technique")  # null: not made for a technique (or a row older than the column)
    if made is not None and made in TECHNIQUES and technique.made_for(g.steps, g.level, g.guesses, (made,),
                                                                      grader) != made:
        top = technique.hardest(g.steps, grader)
        out.append(f"technique is {made}, but the grader's path is not made for it (hardest step {top}, "
                   f"level {g.level}; docs/workbook.md)")
    return out


def recompute(row: Mapping[str, Any], grader: int | None = GRADER_VERSION) -> tuple[list[str], str | None]:
    """Findings from recomputing the derived columns of a sound row (verify_row found nothing), and
    the recomputed ``canonical_puzzle``; the grade columns by grader version ``grader`` (one of
    :data:`~pipeline.difficulty.techniques.ORDERS`; None: not recomputed)."""
    from pipeline.identity import canon, numbering, variant_canon

    n = int(row["size"])
    puzzle, solution = parse(row["puzzle"], n), parse(row["solution"], n)
    variant = make_variant(row.get("variant"), row.get("regions"), row.get("cages"))
    out = []
    minimal, orbit_minimal, loose = _minimality(puzzle, row["symmetry_requested"], n, variant)
    why = f" (the given at row {loose // n + 1}, column {loose % n + 1} can go)" if loose is not None else ""
    if row["minimal"] != minimal:
        out.append(f"minimal is {_b(row['minimal'])}, recomputed {_b(minimal)}{why}")
    if row["orbit_minimal"] != orbit_minimal:
        out.append(f"orbit_minimal is {_b(row['orbit_minimal'])}, recomputed {_b(orbit_minimal)} (orbits of "
                   f"{row['symmetry_requested']})")
    if grader is not None:
        out += _grade_findings(row, puzzle, solution, variant, grader)
    if n == 9 and variant.regions is None:
        number = str(numbering.grid_number(solution))
        if row["grid_number"] != number:
            out.append(f"grid_number is {row['grid_number']}, the solution's number is {number}")
    try:
        key = canon.canonical_key(puzzle) if variant.classic else variant_canon.canonical_variant_key(puzzle, variant)
    except ValueError as exc:
        return [*out, f"no canonical form: {exc}"], None
    if row["canonical_puzzle"] != key and (variant.classic or row["canonical_puzzle"] is not None):
        out.append(f"canonical_puzzle is not the puzzle's canonical form ({key})")
    return out, key


def _b(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else repr(value)


def _unique(puzzle: Grid, n: int, variant: Variant | None = None) -> bool:
    """Whether ``puzzle`` has exactly one solution under ``variant``'s rules: the compiled counter, or
    (classic) the verifier's counter where the compiled one's node budget runs out (a variant gets
    the compiled counter without a budget)."""
    from pipeline.generate import count_jit

    if variant is not None and not variant.classic:
        return count_jit.count(puzzle, 2, node_limit=2**62, variant=variant) == 1
    found = count_jit.count(puzzle, 2)
    if found < 0:
        found = verify.independent_count(puzzle, board(n), 2)
    return found == 1


def _minimality(puzzle: Grid, requested: str, n: int, variant: Variant | None = None) -> tuple[bool, bool, int | None]:
    """(minimal, orbit_minimal, a given whose removal keeps the puzzle unique or None) of a unique
    ``puzzle``, from the definitions: minimal = no single given can go; orbit_minimal = no whole orbit
    of the group ``requested`` whose cells are all givens can go.

    An orbit can go only if each of its cells can go alone (removing fewer givens cannot add
    solutions), so orbits are tried only where every cell is such a loose given."""
    from pipeline import symmetry

    loose = [i for i, d in enumerate(puzzle) if d and _unique(_blank(puzzle, (i,)), n, variant)]
    free = set(loose)
    orbit_minimal = True
    for orb in symmetry.orbits(requested, n):
        if free.issuperset(orb) and (len(orb) == 1 or _unique(_blank(puzzle, orb), n, variant)):
            orbit_minimal = False
            break
    return not loose, orbit_minimal, loose[0] if loose else None


def _blank(puzzle: Grid, cells: Iterable[int]) -> Grid:
    out = list(puzzle)
    for i in cells:
        out[i] = 0
    return tuple(out)
