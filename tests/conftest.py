"""Shared helpers: paths, a CLI runner in a subprocess, tiny configs."""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
# A compiled probe that disagrees with its Python finder fails the test (pipeline.difficulty.logic.TwinDrift)
# instead of falling back on the Python search; inherited by the CLI subprocesses.
os.environ.setdefault("NUMPLACE_STRICT_TWINS", "1")
# The studio's background set check runs at the server's priority under tests (it runs niced 15 for an
# editor): with the other xdist worker busy, a niced check would leave a test waiting for CPU.
os.environ.setdefault("NUMPLACE_STUDIO_CHECK_NICE", "0")

# Under pytest-xdist (make test), each worker, and every process it starts (the CLI, its loky workers),
# compiles numba kernels into a cache folder of its own, kept between sessions: numba's on-disk cache
# is not safe when two processes compile different signatures of one function at the same moment (each
# may take the same data file name for its own signature). Set here, before anything imports numba.
if os.environ.get("PYTEST_XDIST_WORKER") and "NUMBA_CACHE_DIR" not in os.environ:
    os.environ["NUMBA_CACHE_DIR"] = str(ROOT / ".cache" / "numba" / os.environ["PYTEST_XDIST_WORKER"])

from pipeline.board import Grid  # noqa: E402  (after the numba cache folder is chosen)
from pipeline.identity import canon, numbering  # noqa: E402

NUMBA_CACHE = ROOT / ".cache" / "numba"


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist, on the controller before the workers start: compile the kernels once
    (tests/numba_warm.py, its two parts at once) and copy them into every worker's numba cache folder,
    and build the table caches there too. Skipped when the workers' folders already hold this code's
    kernels (a stamp of every ``pipeline/**/*.py`` and the numba version); a part that fails only
    leaves its kernels to the workers, with a warning."""
    workers = getattr(config.option, "numprocesses", None)
    if os.environ.get("PYTEST_XDIST_WORKER") or not isinstance(workers, int) or workers < 1:
        return
    import numba

    h = hashlib.sha256(numba.__version__.encode())
    for path in sorted((ROOT / "pipeline").rglob("*.py")):
        h.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    stamp = f".warm-{h.hexdigest()[:16]}"
    targets = [NUMBA_CACHE / f"gw{i}" for i in range(workers)]
    _kernels_built(targets)
    if all((t / stamp).exists() for t in targets):
        return
    from tests.numba_warm import PARTS

    staging = NUMBA_CACHE / "warm-staging"
    shutil.rmtree(staging, ignore_errors=True)
    tables = TABLE_CACHE / table_cache_key()
    tables.mkdir(parents=True, exist_ok=True)
    procs = {part: subprocess.Popen([sys.executable, "-m", "tests.numba_warm", part], cwd=ROOT,
                                    env=dict(os.environ, NUMBA_CACHE_DIR=str(staging / part),
                                             NUMPLACE_CACHE_DIR=str(tables)),
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
             for part in PARTS}
    for part, proc in procs.items():
        _, err = proc.communicate()
        if proc.returncode:
            last = err.strip().splitlines()[-1] if err.strip() else f"exit {proc.returncode}"
            print(f"conftest: warming the numba kernels ({part}) failed, the workers compile them: {last}",
                  file=sys.stderr)
            continue
        for t in targets:
            shutil.copytree(staging / part, t, dirs_exist_ok=True)
    for t in targets:
        t.mkdir(parents=True, exist_ok=True)
        for old in t.glob(".warm-*"):
            old.unlink()
        (t / stamp).touch()
    shutil.rmtree(staging, ignore_errors=True)


def _kernels_built(targets: list[Path]) -> None:
    """Stamp the workers' numba folders as built (pipeline.run.kernels) in the test table cache, so that a
    run with worker processes in a test does not build every kernel first: the warm-up above compiles
    what the tests use, and the rest compiles on first use, as it always did in tests."""
    from pipeline.run import kernels

    mp = pytest.MonkeyPatch()
    mp.setenv("NUMPLACE_CACHE_DIR", str(TABLE_CACHE / table_cache_key()))
    for t in targets:
        done = kernels.stamp(str(t))
        done.parent.mkdir(parents=True, exist_ok=True)
        done.touch()
    mp.undo()


#: The one pair of cases marked ``deep`` here rather than in its test: two parameter lists stacked on
#: ``tests/solve/test_search.py::test_golden_cases_match_the_ilp`` (the path and the golden puzzle),
#: where only these two puzzles on the ``python`` path cost ``tests.costs.DEEP_SECONDS`` or more, and a
#: ``pytest.param`` mark on either list would take their other paths or puzzles along. Every other
#: ``deep`` test carries its marker in its source.
DEEP_PAIRS = ("tests/solve/test_search.py::test_golden_cases_match_the_ilp[........2..8-1-639847512478-python]",
              "tests/solve/test_search.py::test_golden_cases_match_the_ilp[........7..4-1-963814527154-python]")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark ``deep`` the cases :data:`DEEP_PAIRS` names, first among the hooks, so that ``-m`` selects
    by it."""
    for item in items:
        if item.nodeid in DEEP_PAIRS:
            item.add_marker(pytest.mark.deep)


def error_line(stderr: str) -> str:
    """The one error line of a refusal as a person reads it, ``numplace: error: <message>``: the plain
    line, or, for a command whose stderr is a log (``run``, stderr not a terminal), its JSON log line."""
    text = stderr.strip()
    if text.startswith("{") and "\n" not in text:
        record = json.loads(text)
        assert record["level"] == "error" and record["event"] == "refused" and record["exit_code"] == 2, text
        return f"numplace: error: {record['message']}"
    return text
#: The events of ``run``'s last line in a JSON-lines log (``pipeline.cli.base.END_EVENTS``, ``say_end``).
END_EVENTS = ("refused", "disk_full", "busy", "stopped", "interrupted", "failed")


def said(stderr: str) -> list[str]:
    """What a person reads in stderr: its plain lines, and a JSON log's last line of ``run`` (an
    :data:`END_EVENTS` line with an ``exit_code``) as a terminal shows it (``numplace: error: <message>`` for an error,
    ``numplace: <message>`` otherwise); the other JSON log lines are left out."""
    out = []
    for ln in stderr.splitlines():
        if not ln.strip():
            continue
        if not ln.startswith("{"):
            out.append(ln)
            continue
        record = json.loads(ln)
        if record.get("event") in END_EVENTS and "exit_code" in record:  # the last line says how it ended
            out.append(f"numplace: {'error: ' if record['level'] == 'error' else ''}{record['message']}")
    return out


DATA = ROOT / "tests" / "data"  # golden files, each with its provenance in tests/data/README.md


def numplace(*args: str, cwd: Path | None = None, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run the CLI as a user would (a fresh interpreter), capturing output."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=cwd or ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def write_config(tmp_path: Path):
    """Write a config dict (or raw text) to tmp_path/name.yaml and return its path."""

    def _write(data: dict | str, name: str = "cfg") -> Path:
        path = tmp_path / f"{name}.yaml"
        path.write_text(data if isinstance(data, str) else yaml.safe_dump(data), encoding="utf-8")
        return path

    return _write


def tiny(out: Path, **over: object) -> dict:
    """A small, fast 9x9 config writing under ``out``."""
    cfg: dict = {
        "name": "tiny",
        "seed": 11,
        "count": 8,
        "board": {"size": 9},
        "removal": {"symmetry": "rot180", "minimal": True},
        "workers": 1,
        "output": {"dir": str(out), "shard_size": 3},
    }
    cfg.update(over)
    return cfg


#: The folder that keeps the table caches (numbering, canon, the ILP's matrices) between test sessions,
#: one sub-folder per :func:`table_cache_key`; not in git.
TABLE_CACHE = ROOT / ".cache" / "test-tables"


def table_cache_key() -> str:
    """The test table cache's key: the table versions (the file names the user cache keys by), plus a
    digest of the sources the tables are built from (``pipeline/tablecache.py`` and
    ``pipeline/identity/*.py``), so that a test session never reads a table made by other code than
    the code under test. (The ILP's matrix files key themselves by their module's source.)"""
    from pipeline.identity import canon_tables, numbering_tables

    h = hashlib.sha256()
    for path in [ROOT / "pipeline" / "tablecache.py", *sorted((ROOT / "pipeline" / "identity").glob("*.py"))]:
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return f"numbering-v{numbering_tables.TABLE_VERSION}-canon-v{canon_tables.VERSION}-{h.hexdigest()[:16]}"


@pytest.fixture(scope="session", autouse=True)
def numplace_cache() -> Iterator[Path]:
    """All table caches of the session (numbering, canon, matrices) live in ``TABLE_CACHE/<key>``,
    kept between sessions (a fresh clone builds them once, about half a minute), so the tests never
    touch the user's cache; CLI subprocesses inherit the variable. Folders of other keys are removed.

    Safe under pytest-xdist: every worker uses the same folder, and :mod:`pipeline.tablecache` writes
    atomically and rebuilds any file that fails its checksum. A test that damages a table works on
    its own copy in ``tmp_path``, never on this folder."""
    key = table_cache_key()
    d = TABLE_CACHE / key
    d.mkdir(parents=True, exist_ok=True)
    for old in TABLE_CACHE.iterdir():
        if old.name != key:
            shutil.rmtree(old, ignore_errors=True)
    mp = pytest.MonkeyPatch()
    mp.setenv("NUMPLACE_CACHE_DIR", str(d))
    numbering.reset_tables()
    canon.reset_tables()
    yield d
    mp.undo()
    numbering.reset_tables()
    canon.reset_tables()


def transform(g: Grid, rng: random.Random, transpose: bool | None = None) -> Grid:
    """A random element of the 9x9 validity-preserving group applied to a grid or puzzle."""
    a = [list(g[9 * r : 9 * r + 9]) for r in range(9)]
    if rng.random() < 0.5 if transpose is None else transpose:
        a = [list(x) for x in zip(*a, strict=True)]
    rows = [3 * b + x for b in rng.sample(range(3), 3) for x in rng.sample(range(3), 3)]
    cols = [3 * s + x for s in rng.sample(range(3), 3) for x in rng.sample(range(3), 3)]
    perm = [0, *rng.sample(range(1, 10), 9)]
    return tuple(perm[a[r][c]] for r in rows for c in cols)
