"""The independent checker that guards everything written (after Norvig's ``is_solution``).

It knows nothing of the integer program, HiGHS or :mod:`pipeline.symmetry`, nor of the removal loop's
compiled counter: the symmetry tag is recomputed from the eight maps' definitions, the units of every
variant are built from first principles, and the uniqueness count comes from a compiled dancing-links
(exact-cover) search written apart from every counter it checks. If the ILP engine, the removal loop
or board.py's variant units have a bug, this package is meant to disagree with them; where it repeats
code of what it checks, it does so on purpose, and says so at the copy. It may import
:mod:`pipeline.board` (the classic geometry, ``parse``, ``Grid``) and nothing else of ours
(``tests/test_architecture.py``).

Modules:

* :mod:`.rules`: :class:`Rules` (units and cages) from the Parquet columns ``variant``, ``regions``,
  ``cages`` (:func:`rules_for`), and a complete grid against them (:func:`grid_problems`,
  :func:`is_valid_solution`);
* :mod:`.puzzle`: one written puzzle (:func:`verify_puzzle`) or row (:func:`verify_row`) checked:
  solution, givens, hints, symmetry (:func:`layout_tag`), exactly one solution;
* :mod:`.count`: the pure-Python counter :func:`independent_count`, the oracle of the compiled one;
* :mod:`.count_jit`: the compiled counter (numba), which :func:`verify_puzzle` asks.

``from pipeline import verify`` gives the names below; ``verify.verify_row(row)`` is what the run and
``numplace check`` call for every row.
"""

from __future__ import annotations

from pipeline.verify.count import independent_count
from pipeline.verify.puzzle import OPTIONAL_COLUMNS, layout_tag, verify_puzzle, verify_row
from pipeline.verify.rules import KINDS, Rules, classic_rules, grid_problems, is_valid_solution, rules_for

__all__ = ["KINDS", "OPTIONAL_COLUMNS", "Rules", "classic_rules", "grid_problems", "independent_count",
           "is_valid_solution", "layout_tag", "rules_for", "verify_puzzle", "verify_row"]
