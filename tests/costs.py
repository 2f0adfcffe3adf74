"""The deep tier's list, ``tests/deep.txt``: the tests whose measured cost keeps them out of ``make test``.

``make test`` must stay quick on the 2-core machine, so a test that was measured to cost at least
:data:`DEEP_SECONDS` (call, setup and teardown together, in pytest's ``--durations=0`` report) is marked
``deep`` when it is collected (``tests/conftest.py``), and runs in CI's second step, ``make
test-deep``, over both cores, instead of in ``make test``. The list is data, not a marker in the test's
source, because it is a measurement: a test whose cost changes moves when the list is refreshed.

Each line of ``tests/deep.txt`` is ``seconds<TAB>test id``; ``#`` starts a comment. Refresh it from the
logs of a ``make test`` and a ``make test-deep`` run on the same machine (both print every duration
with ``--durations=0``)::

    python -m tests.costs make-test.log make-test-deep.log

A test in the logs at :data:`DEEP_SECONDS` or more is added (with its new cost), one below it is
removed, and one in neither log keeps its line (a deleted test's line is harmless: it names nothing).
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

DEEP = Path(__file__).resolve().parent / "deep.txt"

#: The cost, in the list's own seconds, from which a test is deep: the one place this cost is stated (the
#: README, the Makefile, pyproject.toml and docs/testing.md name it). The list was measured on 2026-11-28
#: on the 2-core machine beside two other jobs, where tests took about four times an idle machine's
#: times, so 10 s of the list is about 2.5 s of an idle machine.
DEEP_SECONDS = 10.0

_DURATION = re.compile(r"^\s*([\d.]+)s (?:call|setup|teardown)\s+(\S.*?)\s*$")


def read(path: Path = DEEP) -> dict[str, float]:
    """The list: each deep test id and its measured seconds (empty when the file is absent)."""
    out: dict[str, float] = {}
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            seconds, test = line.split("\t", 1)
            out[test] = float(seconds)
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


def refresh(logs: list[Path], header: str = "", path: Path = DEEP) -> tuple[int, int]:
    """Rewrite the list at ``path`` from ``logs``; return how many tests were added and removed."""
    old = read(path)
    new = dict(old)
    for test, seconds in measured(logs).items():
        if seconds >= DEEP_SECONDS:
            new[test] = round(seconds, 1)
        else:
            new.pop(test, None)
    lines = [f"# {ln}" for ln in header.splitlines()]
    lines += [f"{s:.1f}\t{t}" for t, s in sorted(new.items())]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(new.keys() - old.keys()), len(old.keys() - new.keys())


HEADER = """The deep tier: tests measured at DEEP_SECONDS or more (tests/costs.py); make test-deep runs them.
seconds<TAB>test id; written by `python -m tests.costs LOG...` from pytest --durations=0 reports."""


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: python -m tests.costs DURATIONS_LOG...")
    added, removed = refresh([Path(a) for a in sys.argv[1:]], HEADER)
    print(f"tests/deep.txt: {added} added, {removed} removed, {len(read())} in all")
