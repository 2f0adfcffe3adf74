"""How many worker processes a run (or a batch solve) uses: the ``workers`` key and ``--workers``.

Contract: a worker count is ``auto`` or a whole number >= 1 (the rule the config's ``workers`` key
checks too); ``auto`` stands for the CPUs this process may run on, and a number is capped at
:data:`MAX_PER_CPU` processes per such CPU (the work is CPU-bound: more processes than that only
add the memory of each worker's engine and tables, and ``workers: 100000`` would start one process
per task). Both the run (plan and executor) and the CLI read it from here; the run never starts more
processes than it has tasks (the plan and the local executor take the smaller number).
"""

from __future__ import annotations

import os

from pipeline.config import ConfigError, echo


def parse_workers(text: str, flag: str = "--workers") -> int | str:
    """A worker count as typed on the command line: ``auto`` or a whole number >= 1 (the same rule
    as the ``workers`` key); raises :class:`ConfigError` naming ``flag``."""
    if text == "auto":
        return text
    if text.isdigit() and int(text) >= 1:
        return int(text)
    raise ConfigError(f"{flag}: {echo(text)} is not 'auto' or a number of workers >= 1")


#: The most worker processes a number of ``workers`` stands for, per CPU this process may run on.
MAX_PER_CPU = 4


def cpus() -> int:
    """The CPUs this process may run on (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def worker_count(workers: int | str) -> int:
    """The number of worker processes ``workers`` (``auto`` or a number) stands for on this machine:
    ``auto`` is the CPUs this process may run on; a number is capped at :data:`MAX_PER_CPU` times
    that."""
    if workers == "auto":
        return cpus()
    return min(int(workers), MAX_PER_CPU * cpus())
