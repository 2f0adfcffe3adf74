"""Compiled kernels or pure Python: the one place that decides which code answers.

Every computation with a compiled twin (the grader's singles and probes, the removal check's counter,
the guided grid search of ``weighted-lp``, canonical forms, grid numbers, the independent count) has a
pure-Python twin that gives the very same answer; the twins are the tests' oracles. Which of the two
runs is decided here alone, by :func:`use_compiled`, and never by how many calls a process has made:

* ``NUMPLACE_KERNELS=python`` -> pure Python everywhere; ``NUMPLACE_KERNELS=compiled`` -> the kernels
  everywhere (a one-shot command included); unset (or ``auto``) -> the rule below.
* The kernels, except in a process that declared itself *one-shot* (:func:`one_shot`: ``numplace
  generate`` of at most :data:`ONE_SHOT_PUZZLES` puzzles in one process without a technique target,
  ``rate`` and ``solve`` of one puzzle): loading numba and the kernels' cache costs about 0.35 s of
  CPU, more than such a command's whole work in Python. Boards of side :data:`KERNEL_SIDE` or more
  take the kernels even then (one pure-Python solve of a hard 16x16 puzzle costs more than loading them).

The kernels are compiled once per machine and version: ``make`` (the install target) runs
``python -m pipeline.run.kernels``, and a run with worker processes builds them first under a file lock
if they are missing (:mod:`pipeline.run.kernels`), so workers load them from numba's cache instead of
compiling the same kernels at the same moment. The variables: docs/operations.md "Environment variables".
"""

from __future__ import annotations

import os

#: The environment variable that forces one side (module docstring).
ENV = "NUMPLACE_KERNELS"
#: ``generate`` counts up to this many puzzles (in one process) as one-shot.
ONE_SHOT_PUZZLES = 2
#: Boards of this side and larger take the kernels even in a one-shot process.
KERNEL_SIDE = 16

_one_shot = False


def one_shot(light: bool = True) -> None:
    """Declare this process a one-shot command (the CLI's ``generate --count 1``, ``rate P``): pure
    Python answers, numba is never loaded (boards of :data:`KERNEL_SIDE` and more excepted).
    ``one_shot(False)`` takes the declaration back."""
    global _one_shot
    _one_shot = light


def use_compiled(n: int = 9) -> bool:
    """True when the compiled kernels answer on a board of side ``n`` (module docstring); a value of
    :data:`ENV` other than python or compiled counts as auto."""
    mode = os.environ.get(ENV, "").strip().lower()
    if mode == "python":
        return False
    if mode == "compiled":
        return True
    return not _one_shot or n >= KERNEL_SIDE
