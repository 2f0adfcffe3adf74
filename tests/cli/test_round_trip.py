"""The command line reads what it writes (`show ... | rate -`), refuses what it cannot print, and
names its flags (issue 52)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import DATA, ROOT, numplace

pytestmark = pytest.mark.heavy  # the CLI in a subprocess: seconds each

SET = DATA / "legacy_set" / "outputs" / "legacy-classic"


def _pipe(first: list[str], second: list[str]) -> tuple[subprocess.CompletedProcess[str], str]:
    shown = numplace(*first)
    assert shown.returncode == 0, shown.stderr
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    res = subprocess.run([sys.executable, "-m", "pipeline", *second], input=shown.stdout, cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=600)
    return res, shown.stdout


def test_show_piped_to_rate_and_solve() -> None:
    one, _ = _pipe(["show", str(SET), "--limit", "1"], ["rate", "-"])
    assert one.returncode == 0, one.stderr
    assert one.stdout.startswith("medium 714 (")
    two, _ = _pipe(["show", str(SET), "--limit", "2"], ["rate", "-"])
    assert two.returncode == 0 and [ln.split(":")[0] for ln in two.stdout.splitlines()] == ["line 2", "line 15"]
    lines, shown = _pipe(["show", str(SET), "--limit", "2", "--format", "line"], ["solve", "-"])
    assert len(shown.splitlines()) == 2 and all(len(ln) == 81 for ln in shown.splitlines())
    assert lines.returncode == 0 and [ln.split("\t")[1] for ln in lines.stdout.splitlines()] == ["unique", "unique"]


def test_a_file_with_a_title_line(tmp_path) -> None:
    f = tmp_path / "p.txt"
    f.write_text("Puzzle 1 (easy)\n...31....82...79..9....2.4.13.....9.....3.....7.....51.1.5....9..61...37....24...\n")
    res = numplace("rate", str(f))
    assert res.returncode == 0 and res.stdout.startswith("medium 714"), res.stderr


def test_killer_in_the_line_format_is_refused_before_any_work() -> None:
    res = numplace("generate", "--variant", "killer", "--count", "1")
    assert res.returncode == 2 and res.stdout == ""
    assert "--variant killer" in res.stderr and "--format json" in res.stderr


@pytest.mark.parametrize("command", [["generate", "--count", "0"], ["run", "configs/default.yaml", "--count", "0"]])
def test_count_zero_names_the_flag(command: list[str]) -> None:
    res = numplace(*command)
    assert res.returncode == 2 and "--count" in res.stderr, res.stderr


def test_command_list_keeps_each_sentence_whole() -> None:
    env = dict(os.environ, COLUMNS="240")
    res = subprocess.run([sys.executable, "-m", "pipeline", "--help"], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=120)
    text = res.stdout
    for phrase in ("A damaged catalog file is named", "so that check and runs stop reporting",
                   "PNG, or one vector PDF per puzzle"):
        assert phrase in text, phrase


def test_repair_of_a_puzzle_with_two_solutions_names_the_givens_to_add() -> None:
    two = "...31....82...79..9....2.4.13.....9.....3.....7.....51.1.5....9..61...37....2...."
    res = numplace("solve", "--repair", two)
    assert res.returncode == 0
    assert res.stdout.splitlines()[0] == ("no given to change: the puzzle is multiple; add 1 given(s) for one "
                                          "solution: r9c6=4 (no fewer will do)")
    data = json.loads(numplace("solve", "--repair", two, "--format", "json").stdout)
    assert data["givens_to_add"] == [{"row": 8, "col": 5, "digit": "4"}] and data["givens_to_add_fewest"]


def test_repair_lists_every_equally_good_repair() -> None:
    res = numplace("solve", "--repair", ".6.4.1.32..........7.32...8..19.....25.....49.....41..1...82.7.........."
                                        "94.1.7.2.")
    lines = res.stdout.splitlines()
    assert res.returncode == 0 and lines[1] == "  r9c2: 4 -> 3"
    assert lines[2] == ("equally good: 5 other repair(s) with as few changes that give a unique puzzle; which given "
                        "is wrong is the editor's choice:")
    assert sorted(lines[3:8]) == ["  r1c4: 4 -> 5", "  r1c9: 2 -> 7", "  r3c5: 2 -> 9", "  r6c6: 4 -> 3",
                                  "  r6c6: 4 -> 8"]
