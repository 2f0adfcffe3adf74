"""The signals that end a command, caught from the moment the command line's package is imported.

Contracts
---------
* SIGINT (Ctrl-C), SIGTERM, SIGHUP and SIGQUIT end a command the same way: a ``KeyboardInterrupt``
  in the main thread, which the command turns into one line and an exit code (``run`` marks its run
  ``interrupted`` and names the resume command): :func:`exit_code` is 130 after SIGINT, 143 after the
  others. SIGQUIT does not dump core and SIGHUP (a closed terminal or ssh session) does not end the
  process silently: each leaves a resumable run, like SIGTERM.
* :func:`install` runs when :mod:`pipeline.cli` is imported by the ``numplace`` script or by
  ``python -m pipeline`` (:func:`launched`), before typer and the commands are imported (about
  0.3 s). Until :func:`arm` (the first thing ``main`` does) a signal is only recorded, because an
  exception raised inside an import would print a traceback; :func:`arm` then ends the command at
  once for a signal recorded before. Importing :mod:`pipeline.cli` elsewhere (tests, a notebook)
  installs nothing until ``main`` runs.
* Before Python runs any code of ours (the interpreter's own start-up, tens of milliseconds) the
  system's defaults apply; nothing can be said then.
* A ``KeyboardInterrupt`` raised while the main thread is inside a callback from C (numba loading a
  kernel from its cache calls back into Python through ctypes) cannot leave the callback: ctypes
  prints "Exception ignored" and carries on, and the command would not end. Once armed, such a
  swallowed interrupt prints nothing and the signal is sent again :data:`REDELIVER_S` later, when
  the callback has returned; so every signal ends the command that is still running. :func:`disarm`
  (``main``'s last step) cancels a delivery not yet made: a command that ended meanwhile did its work.
* Imports nothing of the package, and only the standard library.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from types import FrameType
from typing import Any

#: The signals that end a command, by name (those this platform has).
ENDING = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT") if hasattr(signal, name))

#: Seconds after which a signal whose interrupt a callback from C swallowed is sent again.
REDELIVER_S = 0.05

_received: list[int] = []
_early = False  # a signal came while not armed: arm() raises for it once
_armed = False
_reported = False


def _on_signal(signum: int, _frame: FrameType | None) -> None:
    global _early
    _received.append(signum)
    if _armed:
        raise KeyboardInterrupt
    _early = True


def launched() -> bool:
    """True when this process is the ``numplace`` script or ``python -m pipeline``."""
    argv0 = sys.argv[0] if sys.argv else ""
    return os.path.basename(argv0) == "numplace" or argv0.endswith(os.path.join("pipeline", "__main__.py"))


def _unraisable(args: Any) -> None:
    """``sys.unraisablehook``: an interrupt of ours that a callback from C swallowed is delivered
    again (module docstring); everything else goes to the hook that was there before."""
    if isinstance(args.exc_value, KeyboardInterrupt) and _armed and _received:
        again = threading.Timer(REDELIVER_S, os.kill, (os.getpid(), _received[-1]))
        again.daemon = True
        _again.append(again)
        again.start()
        return
    _previous_hook(args)


_again: list[threading.Timer] = []


def disarm() -> None:
    """The command has ended: from now on a signal is only recorded (no interrupt cuts the exit
    handlers of the process short), and a delivery again that has not happened yet is cancelled."""
    global _armed
    _armed = False
    for again in _again:
        again.cancel()
    _again.clear()


_previous_hook = sys.unraisablehook


def install() -> None:
    """Catch :data:`ENDING` (recorded only, until :func:`arm`), and deliver again an interrupt a callback
    from C swallowed; a no-op outside the main thread."""
    for sig in ENDING:
        try:
            signal.signal(sig, _on_signal)
        except ValueError:  # not the main thread
            return
    if sys.unraisablehook is not _unraisable:
        global _previous_hook
        _previous_hook = sys.unraisablehook
        sys.unraisablehook = _unraisable


def arm() -> None:
    """From now on a signal of :data:`ENDING` raises ``KeyboardInterrupt``; one received before, while
    not armed, raises now (once). A command is not yet :func:`reported` after this."""
    global _armed, _early, _reported
    install()
    _armed, _reported = True, False
    if _early:
        _early = False
        raise KeyboardInterrupt


def received() -> int | None:
    """The last signal of :data:`ENDING` received, or None (a ``KeyboardInterrupt`` of its own)."""
    return _received[-1] if _received else None


def terminated() -> bool:
    """True when the last signal received was one of the terminating ones (not SIGINT)."""
    sig = received()
    return sig is not None and sig != signal.SIGINT


def why() -> str:
    """``interrupted`` (Ctrl-C) or ``terminated (SIGTERM)`` (or SIGHUP, SIGQUIT): how the command ended."""
    sig = received()
    return f"terminated ({signal.Signals(sig).name})" if terminated() and sig is not None else "interrupted"


def report() -> None:
    """Note that the command has said how it ended (``run`` names the resume command), so that
    ``main`` adds no line of its own."""
    global _reported
    _reported = True


def reported() -> bool:
    """True once a command has said how it ended (:func:`report`)."""
    return _reported


def exit_code() -> int:
    """130 after Ctrl-C (or no signal), 143 after SIGTERM, SIGHUP or SIGQUIT."""
    return 143 if terminated() else 130
