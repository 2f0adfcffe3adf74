"""The solving path of a published puzzle, as ``numplace rate --explain`` gives it, as data.

Contract: :func:`solving_path` grades the row's puzzle with :func:`pipeline.difficulty.grade.grade`
(its variant's rules, its solution to spare the search), the same call ``rate`` makes, and returns
one object a step, in order: ``technique`` (the technique table's name), ``cells`` (the pattern's
cells, 1-based ``r5c3`` names), ``digits`` (the digits it is about), ``placements`` and
``eliminations`` (``[cell, digit]`` pairs) and ``text``, the step's line of ``rate --explain``
(``Step 12: X-Wing on 7 ... — removes 7 from r5c3``). Digits are symbols (``1``-``9``, ``A``-``G``).
"""

from __future__ import annotations

from typing import Any

from pipeline.board import make_variant, parse


def solving_path(row: dict[str, Any]) -> list[dict[str, Any]]:
    """The steps of the row's solving path (see the module docstring)."""
    from pipeline.difficulty.grade import cell_name, digit_name, explain_step, grade

    n = int(row["size"])
    variant = make_variant(row.get("variant"), row.get("regions"), row.get("cages"))
    g = grade(parse(str(row["puzzle"]), n), parse(str(row["solution"]), n), variant=variant)
    out = []
    for k, s in enumerate(g.steps, 1):
        out.append({"technique": s.technique, "cells": [cell_name(i, n) for i in s.cells],
                    "digits": [digit_name(d) for d in s.digits],
                    "placements": [[cell_name(i, n), digit_name(d)] for i, d in s.placements],
                    "eliminations": [[cell_name(i, n), digit_name(d)] for i, d in s.eliminations],
                    "text": explain_step(s, n, k)})
    return out
