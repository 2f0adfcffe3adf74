"""What one-shot commands load, and that the pure-Python first answers change nothing.

``numplace generate --count 1`` makes, verifies, numbers and canonicalizes its puzzle without
numba (a one-shot command: the pure-Python twins answer, :mod:`pipeline.compiled`) and without polars
(nothing is written); a larger count runs the compiled kernels from its first call. Both sides must
print the very same rows. No test here times anything (docs/benchmarks.md has the figures).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from pipeline.compiled import ENV
from tests.conftest import ROOT

pytestmark = pytest.mark.heavy  # the CLI in subprocesses: seconds each

#: Libraries a one-puzzle ``generate`` has no use for (each costs 0.1-0.4 s of CPU to import). pyomo is
#: not among them: a cold table cache (the tests') builds the IP's matrix with it once.
UNUSED = ("numba", "polars", "joblib", "distributed")


def _python(probe: str, kernels: str = "") -> subprocess.CompletedProcess[str]:
    """Python code ``probe`` run in a fresh interpreter from the repository root, with
    ``NUMPLACE_KERNELS=kernels`` (unset when empty); it must exit 0."""
    env = {k: v for k, v in os.environ.items() if k != ENV} | ({ENV: kernels} if kernels else {})
    res = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=600,
                         env=env)
    assert res.returncode == 0, res.stderr
    return res


def _generate(args: list[str], kernels: str = "") -> tuple[list[str], list[str]]:
    """``numplace generate ARGS`` in a fresh interpreter (``NUMPLACE_KERNELS=kernels`` when given):
    its stdout lines and the modules of :data:`UNUSED` it had loaded when it exited."""
    probe = ("import atexit, sys\n"
             f"atexit.register(lambda: print('LOADED', *[m for m in {UNUSED!r} if m in sys.modules], "
             "file=sys.stderr))\n"
             "from pipeline.cli import main\n"
             f"sys.argv = ['numplace', 'generate', *{args!r}]\n"
             "main()\n")
    res = _python(probe, kernels)
    loaded = next(ln for ln in res.stderr.splitlines() if ln.startswith("LOADED"))
    return res.stdout.splitlines(), loaded.split()[1:]


def _comparable(line: str) -> dict[str, object]:
    row = json.loads(line)
    del row["gen_ms"], row["created_at"]  # the clock's, not the puzzle's
    return row


@pytest.mark.parametrize("grid", ["weighted-lp", "weighted-ilp", "uniform"])
def test_one_puzzle_loads_neither_numba_nor_polars(grid: str) -> None:
    lines, loaded = _generate(["--count", "1", "--seed", "1", "--grid", grid])
    assert loaded == []
    assert len(lines) == 1 and len(lines[0]) == 81


@pytest.mark.deep
def test_pure_python_and_the_kernels_make_the_same_rows() -> None:
    """Five puzzles by the kernels (past the one-shot count, NUMPLACE_KERNELS unset) and the same five
    with NUMPLACE_KERNELS=python (no numba at all): every column but the clock's is the same."""
    args = ["--count", "5", "--seed", "3", "--format", "json"]
    kernels, loaded = _generate(args)
    assert "numba" in loaded  # five puzzles are not a one-shot command
    pure, loaded = _generate(args, kernels="python")
    assert "numba" not in loaded
    assert len(kernels) == 5
    assert [_comparable(x) for x in kernels] == [_comparable(x) for x in pure]


def test_one_puzzle_for_a_technique_is_not_a_one_shot_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """A technique target's climb grades hundreds of candidates a grid: the kernels answer even for one
    puzzle (``generate --technique simple_colors --count 1 --seed 12``: 18.7 CPU-s in Python, 6.4 with
    them); one plain puzzle is still a one-shot command."""
    from pipeline import compiled
    from pipeline.cli import puzzles
    from pipeline.run import runner

    monkeypatch.delenv(ENV, raising=False)
    monkeypatch.setattr(compiled, "_one_shot", False)  # restored after the test
    seen: list[bool] = []

    def stream(cfg: object) -> list[object]:
        seen.append(compiled.use_compiled())
        return []

    monkeypatch.setattr(runner, "stream", stream)
    puzzles.generate(count=1, technique=["x_wing"], max_attempts=None)  # type: ignore[arg-type]
    puzzles.generate(count=1, technique=None, max_attempts=None)  # type: ignore[arg-type]
    assert seen == [True, False]


def test_compiled_forces_the_kernels_on_one_puzzle() -> None:
    """NUMPLACE_KERNELS=compiled: even a one-shot command runs the kernels, and prints the same row."""
    args = ["--count", "1", "--seed", "1", "--format", "json"]
    forced, loaded = _generate(args, kernels="compiled")
    assert "numba" in loaded
    plain, _ = _generate(args)
    assert [_comparable(x) for x in forced] == [_comparable(x) for x in plain]


@pytest.mark.deep
def test_a_one_puzzle_run_in_this_process_skips_the_kernel_warm_up() -> None:
    """``run`` with one worker makes its puzzles here: the identity kernels are not compiled ahead
    (they would load numba for nothing); with more workers they are, for the workers' sake."""
    probe = ("import sys\n"
             "from pipeline import config\n"
             "from pipeline.run.plan import preflight\n"
             "for workers in (1, 2):\n"
             "    preflight(config.validate({'name': 'w', 'seed': 1, 'count': 1, 'workers': workers}))\n"
             "    print(workers, 'numba' in sys.modules)\n")
    res = _python(probe)
    assert res.stdout.split() == ["1", "False", "2", "True"]


def test_the_console_entry_freezes_the_heap_on_its_way_out() -> None:
    """``main`` leaves the objects alive at the end out of the interpreter's last garbage collections
    (``gc.freeze``); the exit code and the output are untouched."""
    probe = ("import gc, sys\n"
             "from pipeline.cli import main\n"
             "sys.argv = ['numplace', '--version']\n"
             "try:\n"
             "    main()\n"
             "except SystemExit as exc:\n"
             "    print('exit', exc.code, 'frozen', gc.get_freeze_count() > 0)\n")
    res = _python(probe)
    assert res.stdout.splitlines()[-1] == "exit 0 frozen True"
    assert res.stdout.startswith("numplace ")
