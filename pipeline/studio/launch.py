"""Start the studio: ``numplace studio [ROOT] --port P --host H --lang L``.

:func:`launch` checks what it can before the server starts (the optional extra is installed, the
root is a folder or does not exist yet, the port is free) and raises :class:`StudioError` with one
line otherwise; then it starts the warm-up (:mod:`pipeline.studio.warm`) and runs Streamlit's server
in this process on ``host:port`` until Ctrl-C. It binds 127.0.0.1 unless another host is asked for.
Streamlit is imported only here and in the pages.
"""

from __future__ import annotations

import importlib.util
import os
import socket
from pathlib import Path

from pipeline.errors import UserError
from pipeline.studio.words import LANGS

APP = Path(__file__).with_name("app.py")
INSTALL = "pip install 'numplace[studio]'"


class StudioError(UserError):
    """The studio cannot start (the message says why and what to do)."""


def check(root: Path, port: int, host: str, lang: str) -> None:
    """Raise :class:`StudioError` if the studio cannot start with these settings."""
    if importlib.util.find_spec("streamlit") is None:
        raise StudioError(f"numplace studio needs the studio extra: {INSTALL} (the README's set-up installs it)")
    if lang not in LANGS:
        raise StudioError(f"--lang: {lang!r} is not one of {', '.join(LANGS)}")
    if root.exists() and not root.is_dir():
        raise StudioError(f"{root}: not a folder (the output root of numplace run)")
    if not 0 < port < 65536:
        raise StudioError(f"--port: {port} is not a port number (1-65535)")
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does: TIME_WAIT is no clash
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise StudioError(f"--port {port} on {host}: {exc.strerror or exc}") from None


def argv(port: int, host: str) -> list[str]:
    """The ``streamlit run`` arguments (no telemetry, no browser opened, no file watcher)."""
    return ["streamlit", "run", str(APP), "--server.port", str(port), "--server.address", host,
            "--server.headless", "true", "--browser.gatherUsageStats", "false",
            "--server.fileWatcherType", "none", "--server.runOnSave", "false",
            "--client.toolbarMode", "minimal", "--theme.base", "light"]


def launch(root: Path, port: int = 8501, host: str = "127.0.0.1", lang: str = "en") -> None:
    """Serve the studio over ``root`` until interrupted (see the module contract)."""
    check(root, port, host, lang)
    os.environ["NUMPLACE_STUDIO_ROOT"] = str(root.resolve())
    os.environ["NUMPLACE_STUDIO_LANG"] = lang
    import sys

    from streamlit.web import cli as stcli

    from pipeline.studio import warm

    warm.start()  # the pages' imports get under way while the server starts and the browser loads
    sys.argv = argv(port, host)
    stcli.main(prog_name="streamlit")
