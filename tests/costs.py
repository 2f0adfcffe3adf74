"""The deep tier's rule, :data:`DEEP_SECONDS`: a test that costs that much is marked ``deep`` in its source.

``make test`` must stay quick on the 2-core machine, so a test measured to cost at least
:data:`DEEP_SECONDS` (call, setup and teardown together, in pytest's ``--durations=0`` report) carries
``@pytest.mark.deep`` (or, for one case of a parametrized test, ``pytest.param(..., marks=pytest.mark.deep)``,
or :func:`deep_cases` for a generated parameter list), and runs in CI's second step, ``make test-deep``,
over both cores, instead of in ``make test``. The marker is written on the test, like ``heavy``, ``slow``,
``system`` and ``browser``: a reader sees a test's tier where the test is.

A cost changes with the code, so check the markers against the logs of a ``make test`` and a ``make
test-deep`` run on the same machine (both print every duration with ``--durations=0``)::

    python -m tests.costs make-test.log make-test-deep.log

It prints the tests measured at :data:`DEEP_SECONDS` or more that are not marked ``deep``, and the
``deep`` tests measured below it (it collects ``-m deep`` to know which tests are marked); moving a test
is an edit of its marker.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: The cost, in seconds of pytest's ``--durations=0`` report, from which a test is marked ``deep``: the
#: one place this cost is stated (the README, the Makefile, pyproject.toml and docs/testing.md name it).
#: The markers were set from logs measured on 2026-11-28 on the 2-core machine beside two other jobs,
#: where tests took about four times an idle machine's times, so 10 s there is about 2.5 s of an idle
#: machine.
DEEP_SECONDS = 10.0

_PARAM = type(pytest.param())
_DURATION = re.compile(r"^\s*([\d.]+)s (?:call|setup|teardown)\s+(\S.*?)\s*$")


def deep_cases(cases: Iterable[Any], key: Callable[[Any], str], *chosen: str) -> list[Any]:
    """``cases``, the parameters of a parametrized test built by code (golden puzzles, docs blocks), with
    those whose ``key(*values)`` is one of ``chosen`` marked ``deep``; a case that is already a
    ``pytest.param`` keeps its marks and id. Each of ``chosen`` must name exactly one case: a renamed or
    moved case fails the collection instead of falling back into ``make test`` unnoticed."""
    out: list[Any] = []
    found: Counter[str] = Counter()
    for case in cases:
        if isinstance(case, _PARAM):
            values, marks, ident = tuple(case.values), list(case.marks), case.id
        else:
            values, marks, ident = (case if isinstance(case, tuple) else (case,)), [], None
        k = key(*values)
        if k in chosen:
            found[k] += 1
            case = pytest.param(*values, marks=[*marks, pytest.mark.deep], id=ident)
        out.append(case)
    wrong = [c for c in chosen if found[c] != 1]
    if wrong:
        raise ValueError(f"deep_cases: {', '.join(wrong)} names no case or several")
    return out


def measured(logs: list[Path]) -> dict[str, float]:
    """Each test's seconds in pytest ``--durations=0`` reports, call + setup + teardown (a test in
    several logs: its last)."""
    out: dict[str, float] = {}
    for log in logs:
        one: Counter[str] = Counter()
        for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
            m = _DURATION.match(line)
            if m:
                one[m.group(2)] += float(m.group(1))
        out.update(one)
    return out


def crossings(costs: dict[str, float], deep: set[str]) -> tuple[list[str], list[str]]:
    """From measured ``costs`` and the ids of the tests marked ``deep``: the tests at
    :data:`DEEP_SECONDS` or more without the marker, and the marked ones measured below it (each
    ``seconds<TAB>test id``, the dearest first). A test in no log is in neither."""
    add = [t for t, s in costs.items() if s >= DEEP_SECONDS and t not in deep]
    drop = [t for t, s in costs.items() if s < DEEP_SECONDS and t in deep]

    def lines(tests: list[str]) -> list[str]:
        return [f"{costs[t]:.1f}\t{t}" for t in sorted(tests, key=lambda t: -costs[t])]

    return lines(add), lines(drop)


def marked_deep() -> set[str]:
    """The ids of the tests marked ``deep`` (whatever their other markers), from pytest's collection."""
    res = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                          "-m", "deep"], cwd=ROOT, capture_output=True, text=True, check=False)
    return {ln.strip() for ln in res.stdout.splitlines() if "::" in ln}


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: python -m tests.costs DURATIONS_LOG...")
    add, drop = crossings(measured([Path(a) for a in sys.argv[1:]]), marked_deep())
    print(f"measured at DEEP_SECONDS ({DEEP_SECONDS:g} s) or more, not marked deep: {len(add)}", *add, sep="\n")
    print(f"marked deep, measured below DEEP_SECONDS: {len(drop)}", *drop, sep="\n")
