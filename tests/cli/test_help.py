"""Every ``--help`` speaks plain words: no Python type (``<bool>``, ``<list[Path]>``), no
``{placeholder}``, no RST markup, no ``x>=1`` ranges; arguments by their names in capitals."""

from __future__ import annotations

import re

import pytest
import typer
from typer.testing import CliRunner

from pipeline.cli import app
from tests.conftest import numplace

#: What a help text must not show, each with why.
INTERNALS = {
    r"<(bool|int|str|float|path|Path|file|dir)>": "a Python type in angle brackets",
    r"<[a-z]+ range>": "a Python type in angle brackets",
    r"list\[": "a Python list type",
    r"\{[A-Za-z_]+\}": "a {placeholder}",
    r"``|`": "RST backticks",
    r":(class|func|mod|attr|data):": "an RST role",
    r"\bx\s*[<>]=": "a range in Python's words",
    r"python -m pipeline": "the module, not the command",
}
COMMANDS = sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]


def internals(text: str) -> list[str]:
    """Each leak of Python internals in ``text``, with the line it is on."""
    flat = " ".join(text.split())  # a long line wraps in a help box
    return [f"{why}: {m.group(0)!r}" for pattern, why in INTERNALS.items() for m in re.finditer(pattern, flat)]


def test_the_check_can_fail() -> None:
    assert internals("--count <int> x, --help <bool>, {config} and ``--repair``, [x>=1], <list[Path]>") == [
        "a Python type in angle brackets: '<int>'", "a Python type in angle brackets: '<bool>'",
        "a Python list type: 'list['", "a {placeholder}: '{config}'", "RST backticks: '``'",
        "RST backticks: '``'", "a range in Python's words: 'x>='"]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_commands_help_is_plain(command: str) -> None:
    res = CliRunner().invoke(app, [command, "--help"], prog_name="numplace", env={"COLUMNS": "100"})
    assert res.exit_code == 0, res.output
    assert internals(res.output) == []
    assert f"Usage: numplace {command} [OPTIONS]" in res.output


def test_the_apps_help_and_the_words_shown() -> None:
    res = numplace("--help")
    assert res.returncode == 0 and internals(res.stdout) == []
    assert "Usage: numplace [OPTIONS] COMMAND" in res.stdout
    run = CliRunner().invoke(app, ["run", "--help"], prog_name="numplace", env={"COLUMNS": "120"}).output
    assert "Usage: numplace run [OPTIONS] CONFIG" in run
    assert re.search(r"--count\s+INTEGER", run) and re.search(r"--max-minutes\s+NUMBER \[at least 0.01\]", run)
    export = CliRunner().invoke(app, ["export", "--help"], prog_name="numplace", env={"COLUMNS": "120"}).output
    assert "Usage: numplace export [OPTIONS] SET_OR_RUN..." in export
    assert re.search(r"--solutions\s+Also write", export)  # a flag shows no value word
