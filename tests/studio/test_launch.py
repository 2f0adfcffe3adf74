"""``numplace studio``: checks before the server, one line each; the labels in both languages."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from pipeline.studio import launch, words
from tests.conftest import numplace


def test_every_label_has_both_languages() -> None:
    assert all(set(v) == set(words.LANGS) and all(v.values()) for v in words.WORDS.values())
    assert words.word("easy", "ja") == "初級" and words.word("extreme", "ja") == "最難関"  # as the books print them
    assert words.word("unrated", "en") == "Unrated" and words.word("no-such-key") == "no-such-key"
    assert words.lang_of("JA") == "ja" and words.lang_of("fr") == "en"


def test_a_missing_extra_is_one_line_saying_how_to_install_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    real = launch.importlib.util.find_spec
    monkeypatch.setattr(launch.importlib.util, "find_spec", lambda name: None if name == "streamlit" else real(name))
    with pytest.raises(launch.StudioError, match=r"needs the studio extra: pip install 'numplace\[studio\]'"):
        launch.check(tmp_path, 8501, "127.0.0.1", "en")


def test_a_port_in_use_is_refused() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(launch.StudioError, match=f"--port {port} on 127.0.0.1: "):
            launch.check(Path("outputs"), port, "127.0.0.1", "en")


@pytest.mark.heavy
@pytest.mark.parametrize(("args", "message"), [
    (["--lang", "fr"], "numplace: error: --lang: 'fr' is not one of en, ja\n"),
    (["--port", "0"], "numplace: error: --port: 0 is not a port number (1-65535)\n"),
    (["README.md"], "numplace: error: README.md: not a folder (the output root of numplace run)\n"),
])
def test_the_cli_refuses_in_one_line(args: list[str], message: str) -> None:
    res = numplace("studio", *args)
    assert (res.returncode, res.stderr, res.stdout) == (2, message, "")
