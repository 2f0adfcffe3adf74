"""Warm the studio's server once, in the background, so that the first click on each page does not
pay for the imports and compiled kernels a command pays for at its start. Pure: no web framework.

:func:`start` (called by the entry script on every view; it acts once per process) runs
:func:`warm_up` on a thread of its own (a set's check does not wait behind it): it imports what the
pages import (polars, the solver, the integer program's HiGHS, the grader, the publisher, the run's
check) and makes each compiled kernel load from numba's cache by one small call (a solve, a grade, a
repair, a 4x4 and a 9x9 puzzle made as the Generate page makes them, and one count of the compiled
search a variant board's first request asks whether the board has a grid: loading it took 1.5-2 s
of that request), and builds the 9x9 X, hyper and X+hyper symmetry groups a variant puzzle's dedup key
needs (:data:`VARIANT_GROUPS`). Nothing is written but numba's and the tables' own caches; a failure here is
swallowed (the page then pays the cost itself).

:func:`start` is also called by :func:`pipeline.studio.launch.launch` before the server starts, so the
imports a page's first view needs are under way while the browser loads the page. The warm-up gives
way to the pages: while a page's script runs (:func:`page_running`, around every run of the entry
script) it waits before its next step (at most :data:`GIVE_WAY` seconds a step), so a first click does
not share the interpreter with it.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import threading
from collections.abc import Callable, Iterator
from typing import Any

#: Modules the pages import (each costs a fraction of a second to seconds on a first import).
MODULES = ("polars", "pandas", "pyarrow", "pipeline.solve.solver", "pipeline.solve.why",
           "pipeline.solve.rate", "pipeline.solve.pin", "pipeline.ilp.engine", "pipeline.publish.select",
           "pipeline.publish.render", "pipeline.run.runner", "pipeline.run.audit", "pipeline.run.sets")
#: The 9x9 variant groups built once for the dedup key of the first X, hyper or X+hyper puzzle made:
#: 0.5 s of a server's first X+hyper Generate click (the puzzle itself 0.2 s) before they were warmed.
VARIANT_GROUPS = (("hyper", "x"), ("hyper",), ("x",))
EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"

#: Seconds the warm-up waits at most, before one of its steps, for the pages' scripts to finish.
GIVE_WAY = 5.0

_started = False
_lock = threading.Lock()
_pages = threading.Condition()
_running = 0


@contextlib.contextmanager
def page_running() -> Iterator[None]:
    """Around a run of a page's script: the warm-up waits before its next step until it is done."""
    global _running
    with _pages:
        _running += 1
    try:
        yield
    finally:
        with _pages:
            _running -= 1
            _pages.notify_all()


def _give_way(limit: float = GIVE_WAY) -> None:
    """Wait (at most ``limit`` seconds) until no page's script runs."""
    with _pages:
        _pages.wait_for(lambda: _running == 0, timeout=limit)


def steps() -> Iterator[Callable[[], object]]:
    """The warm-up's steps, in order, each made when the one before is done: the imports of
    :data:`MODULES` first, then one small call of each kind."""
    for name in MODULES:
        yield functools.partial(importlib.import_module, name)
    from pipeline import config as cfgmod
    from pipeline.board import parse
    from pipeline.run import runner
    from pipeline.solve import rate, solver, why

    grid = parse(EASY)
    yield lambda: solver.solve(grid, 3)
    yield lambda: rate.rate(grid, None)
    broken = parse("55" + EASY[2:])
    yield lambda: solver.repair(broken, core=why.clashes(broken).cells())
    for size in (4, 9):
        cfg = cfgmod.validate({"name": "warm", "seed": 0, "count": 1, "board": {"size": size}, "workers": 1})
        yield functools.partial(_drain, runner.stream, cfg)
    from pipeline.generate import count_jit  # the variant board check's search (and removal's, for variants)

    yield lambda: count_jit.count((0,) * 81, 1, 1000)
    from pipeline.identity.variant_canon import group_maps

    for extra in VARIANT_GROUPS:  # the symmetries a variant puzzle's dedup key is taken under (kept)
        yield functools.partial(group_maps, 9, extra, False)


def _drain(stream: Callable[[Any], Iterator[Any]], cfg: Any) -> None:
    for _ in stream(cfg):
        pass


def warm_up(give_way: bool = False) -> None:
    """Run :func:`steps` (see the module docstring); with ``give_way``, each after the pages' scripts."""
    for step in steps():
        if give_way:
            _give_way()
        step()


def _quietly() -> None:
    try:
        warm_up(give_way=True)
    except Exception:  # a warm-up that fails leaves the cost to the first click, nothing else
        return


def start() -> None:
    """Start :func:`warm_up` on a daemon thread, once per process."""
    global _started
    with _lock:
        if _started:
            return
        _started = True
    threading.Thread(target=_quietly, name="numplace-studio-warm-up", daemon=True).start()
