"""The compiled kernels built once per machine and version, before any worker needs them.

numba compiles a kernel on its first call and keeps it in its on-disk cache (``cache=True``; beside the
sources in ``__pycache__`` when that folder is writable, else numba's user-wide cache, or
``$NUMBA_CACHE_DIR``). Left alone, every worker of a fresh install compiles the same kernels at the
same moment (a minute and a half of a first 1,000-puzzle run). Instead:

* ``python -m pipeline.run.kernels`` (run by ``make``'s install target) calls every kernel the
  generator, the grader, the checker and the identity functions use, on every kind of signature
  they are called with (:func:`warm`), and compiles the bytecode of every module that imported
  (so a start under ``PYTHONDONTWRITEBYTECODE=1`` compiles nothing);
* :func:`ensure_built`, called before a run starts worker processes, does the same in a child
  process when this version's stamp is missing, under a file lock: a second run started meanwhile
  waits for the first's build instead of compiling alongside it.

The stamp is ``tablecache.cache_dir()/kernels/<key>.built``; the key (:func:`key`) hashes numba's
and Python's versions, ``$NUMBA_CACHE_DIR`` and the source of every ``pipeline`` module, so an
upgrade or an edit builds again. numba's own cache check looks only at a kernel's own file, while a
kernel compiles the kernels it calls from other files into itself (the grader's walk holds the fish
probe of ``fish/search_jit.py``): a build for a new key therefore first removes every cached kernel
of the package (:func:`clear_numba_cache`), so no kernel keeps a callee older than its source. A
cache folder that cannot be written only means the workers compile as they would have.
Which code answers, compiled or Python, is :mod:`pipeline.compiled`'s decision, not this module's.
"""

from __future__ import annotations

import compileall
import fcntl
import hashlib
import os
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path

from pipeline.tablecache import cache_dir

PACKAGE = Path(__file__).resolve().parents[1]

#: Hard 9x9 puzzles (the first four of Norvig's top95, public) that reach the grader's deep probes.
HARD = (
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
    "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....",
    "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5....",
)

#: Twelve puzzles of a default 2,000-puzzle set (rot180, orbit-minimal) whose solving paths together
#: use every technique the set's paths use (47): grading them calls the finders' compiled twins
#: (chains, loops, ALS, Sue de Coq), which no puzzle of :data:`HARD` reaches.
COVER = (
    "79.........3..4....5.9..16.8..5.3.2.....1.....7.2.8..3.12..6.9....4..6.........51",
    ".7.12.5.......4..9.1.9...2.5.6.9...3.3.....9.4...3.6.2.4...9.5.7..6.......8.73.6.",
    ".2....9...59..723.8...4..7..1.8...5...8...3...3...1.9..7..6...9.815..42...5....8.",
    "..51....3.6..3284..9.........28...36.586.342.63...75.........5..2354..8.5....83..",
    "2..5...4...5...7.64...83..582.3...7.3.......4.5...4.385..21...77.2...3...6...5..2",
    "..6....3..4..7....13...47.2....1...357..9..418...6....4.27...68....8..1..8....2..",
    ".....3..79.4.8...1...14.2...5..2...6.4.8.1.5.1...7..2...1.62...6...1.4.24..3.....",
    "....7..1581...97..53...6..........93.61...85.39..........4...31..32...4915..9....",
    "76.2.3.4.1..4.......5..6....2.731.68.........81.625.3....5..6.......2..7.7.8.4.13",
    "..4.....931..942.....3...6...34...82.........87...65...2...9.....123..545.....9..",
    "........47....3.6..1.9..732.8.7.1..6....4....9..8.5.2.397..2.5..4.3....11........",
    ".69.7.3..7..3...4..1..2.7.......5....78...61....4.......3.9..2..9...3..6..1.8.49.",
)


def key(numba_dir: str | None = None) -> str:
    """This version's key: numba's and Python's versions, ``numba_dir`` (default ``$NUMBA_CACHE_DIR``),
    every module's source."""
    where = os.environ.get("NUMBA_CACHE_DIR", "") if numba_dir is None else numba_dir
    h = hashlib.sha256(f"{metadata.version('numba')}|{sys.version}|{where}".encode())
    for path in sorted(PACKAGE.rglob("*.py")):
        h.update(str(path.relative_to(PACKAGE)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


def stamp(numba_dir: str | None = None) -> Path:
    """The file that says this version's kernels are built on this machine (for ``numba_dir``, :func:`key`)."""
    return cache_dir() / "kernels" / f"{key(numba_dir)}.built"


def warm() -> None:
    """Call every kernel on every kind of signature the pipeline uses: grids (``weighted-lp``,
    ``weighted-ilp``, uniform) and removal on 4x4 to 16x16, the grader's singles and probes under every
    grader version on hard puzzles and on :data:`COVER` (every technique), canonical forms, grid
    numbers, the independent counts."""
    from pipeline.board import board, parse
    from pipeline.difficulty.grade import grade
    from pipeline.difficulty.logic import solve_logically
    from pipeline.difficulty.techniques import ORDERS
    from pipeline.generate.puzzle import make_puzzle
    from pipeline.generate.spec import Spec
    from pipeline.identity import canon, numbering
    from pipeline.verify import count_jit

    for size in (4, 6, 9):
        for method in ("weighted-lp", "weighted-ilp", "uniform") if size == 9 else ("weighted-ilp",):
            made = make_puzzle(Spec(size=size, symmetry="rot180", minimal=True, grid_method=method), 1)
            assert made.puzzle is not None and made.solution is not None
            canon.canonical_key(made.puzzle)
            count_jit.independent_count(made.puzzle, board(size), 2)
            if size == 9:
                numbering.grid_number(made.solution)
                canon.canonical_grid(made.solution)
    make_puzzle(Spec(size=16, symmetry="rot180", minimal=False, hints_min=140, hints_max=160), 1)
    hard = [parse(p) for p in HARD]
    for puzzle in hard:
        grade(puzzle, compiled=True)
    for puzzle in (parse(p) for p in COVER):
        solution = solve_logically(puzzle, compiled=True).grid
        grade(puzzle, solution, compiled=True, unique=True)  # as the generator calls it
        for version in sorted(ORDERS):
            solve_logically(puzzle, compiled=True, grader=version)
    for version in sorted(ORDERS):
        solve_logically(hard[0], compiled=True, grader=version)


#: The one-shot commands whose imports :func:`compile_bytecode` compiles (besides this process's).
COMMANDS = (("generate", "--count", "1"), ("rate", HARD[0]), ("solve", HARD[0]), ("--help",))

_PROBE = """import atexit, sys
OUT = sys.argv[1]
def _dump():
    with open(OUT, "w") as f:
        f.write("\\n".join(m.__file__ for m in list(sys.modules.values()) if getattr(m, "__file__", None)))
atexit.register(_dump)
sys.argv = ["numplace", *sys.argv[2:]]
from pipeline.cli import main
main()
"""


def _command_files(args: tuple[str, ...], out: Path) -> set[Path]:
    """The module files a ``numplace ARGS`` process had loaded when it exited (its output discarded)."""
    subprocess.run([sys.executable, "-c", _PROBE, str(out), *args], stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    try:
        return {Path(f) for f in out.read_text(encoding="utf-8").splitlines() if f}
    except OSError:
        return set()


def compile_bytecode(scratch: Path) -> int:
    """Write the ``.pyc`` of every module loaded in this process, of every module the one-shot
    :data:`COMMANDS` load (numplace's and its libraries'), and of the whole ``pipeline`` package, so
    that a start under ``PYTHONDONTWRITEBYTECODE=1`` compiles nothing; the number of files that
    failed (0 normally). ``scratch``: a folder for the commands' module lists."""
    files = {Path(f) for m in list(sys.modules.values()) if (f := getattr(m, "__file__", None))}
    for k, args in enumerate(COMMANDS):
        files |= _command_files(args, scratch / f"modules-{k}.txt")
    failed = 0
    for path in sorted(f for f in files | set(PACKAGE.rglob("*.py")) if f.suffix == ".py"):
        try:
            ok = compileall.compile_file(str(path), quiet=2)
        except OSError:
            ok = False
        failed += not ok
    return failed


def ensure_built() -> None:
    """Build this version's kernels (``python -m pipeline.run.kernels`` in a child) unless its stamp
    exists; one build at a time per machine (a file lock), the others wait for it. Silent, and a
    no-op when the cache folder cannot be written or the build fails (the workers then compile)."""
    done = stamp()
    if done.exists():
        return
    try:
        done.parent.mkdir(parents=True, exist_ok=True)
        lock = open(done.parent / ".lock", "w")  # noqa: SIM115  (held for the with block below)
    except OSError:
        return
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            subprocess.run([sys.executable, "-m", "pipeline.run.kernels"], stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


def clear_numba_cache() -> int:
    """Remove numba's cache files (index ``.nbi``, data ``.nbc``) of the package's kernels, in the
    ``__pycache__`` folders beside the sources and, when ``$NUMBA_CACHE_DIR`` is set, in its copy of
    the package's folders; returns how many were removed. Call before warming for a new key."""
    folders = [PACKAGE]
    where = os.environ.get("NUMBA_CACHE_DIR")
    if where:  # numba mirrors the source folder's absolute path under it
        folders.append(Path(where) / str(PACKAGE.resolve()).lstrip(os.sep))
    removed = 0
    for folder in folders:
        for path in [*folder.rglob("*.nbi"), *folder.rglob("*.nbc")]:
            try:
                path.unlink()
                removed += 1
            except OSError:
                continue
    return removed


def main() -> int:
    """Warm the kernels, compile the bytecode, write the stamp; exit status 1 when the warm-up failed.
    A build for a key with no stamp yet starts from no cached kernel (:func:`clear_numba_cache`)."""
    os.environ.setdefault("NUMPLACE_KERNELS", "compiled")
    if not stamp().exists():
        clear_numba_cache()
    warm()
    with tempfile.TemporaryDirectory() as scratch:
        compile_bytecode(Path(scratch))
    done = stamp()
    try:
        done.parent.mkdir(parents=True, exist_ok=True)
        for old in done.parent.glob("*.built"):
            old.unlink()
        done.touch()
    except OSError:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
