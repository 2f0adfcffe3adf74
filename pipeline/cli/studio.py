"""``numplace studio``: the editor's workbench in the browser, over an output root (:mod:`pipeline.studio`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.base import user_errors

#: Hosts that only this machine can reach; any other gets a warning line.
LOCAL = ("127.0.0.1", "localhost", "::1")


@user_errors
def studio(
    root: Annotated[Path, typer.Argument(help="The output root to browse (where numplace run writes).")
                    ] = Path("outputs"),
    port: Annotated[int, typer.Option(help="The port to serve on.")] = 8501,
    host: Annotated[str, typer.Option(help="The address to bind; 127.0.0.1 (this machine only) unless asked.")
                    ] = "127.0.0.1",
    lang: Annotated[str, typer.Option(help="Labels in ja (Japanese) or en (English).")] = "en",
) -> None:
    """Open the studio, a local web app: solve, repair, generate, and browse the sets (needs the studio extra)."""
    from pipeline.studio import launch

    launch.check(root, port, host, lang)
    if host not in LOCAL:
        typer.echo(f"numplace: warning: serving on {host}: anyone who can reach this machine on port {port} can "
                   "use the studio (it reads the sets and makes puzzles; it never writes into a set)", err=True)
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"numplace studio on http://{shown}:{port}/ over {root} (Ctrl-C stops it)", err=True)
    launch.launch(root, port, host, lang)
