"""`numplace solve`: every format, counting, repair, batch files, and every kind of bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from pipeline.board import format_grid, parse
from pipeline.solve import batch
from tests.conftest import ROOT, numplace
from tests.golden import TDOKU

pytestmark = pytest.mark.heavy  # the tests here make sets or run the CLI: seconds each

P = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
S = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
CLASH = "55" + P[2:]


def test_line_format_is_the_default_off_a_terminal() -> None:
    res = numplace("solve", P)
    assert res.returncode == 0 and res.stdout.strip() == S


def test_grid_and_json_formats() -> None:
    grid = numplace("solve", P, "--format", "grid")
    assert grid.stdout.strip() == format_grid(parse(S))
    js = json.loads(numplace("solve", P, "--format", "json").stdout)
    assert {"status", "solution", "solutions_found", "changes", "puzzle"} <= js.keys()
    assert js["status"] == "unique" and js["solution"] == S and js["solutions_found"] == 1
    assert js["changes"] == [] and js["puzzle"] == P


def test_drawn_grid_from_a_file_and_from_stdin(tmp_path: Path) -> None:
    f = tmp_path / "p.txt"
    f.write_text(format_grid(parse(P)) + "\n")
    assert numplace("solve", str(f)).stdout.strip() == S
    res = subprocess.run([sys.executable, "-m", "pipeline", "solve", "-"], input=P.replace(".", "0"),
                         cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0 and res.stdout.strip() == S


@pytest.mark.deep
def test_count_unique_multiple_none() -> None:
    assert numplace("solve", P, "--count").stdout.strip() == "unique"
    thirteen = next(p for p, c, _ in TDOKU if c == 13)
    res = numplace("solve", thirteen, "--count", "--limit", "50")
    assert res.stdout.strip() == "multiple: 13 solutions (limit 50)"
    res = numplace("solve", thirteen, "--count", "--format", "json")
    assert json.loads(res.stdout)["solutions_found"] == 2
    assert "at least 2" in numplace("solve", thirteen, "--count").stdout
    none = numplace("solve", CLASH, "--count", "--format", "json")
    assert none.returncode == 1 and json.loads(none.stdout)["status"] == "none"


def test_unsolvable_says_why_and_suggests_repair() -> None:
    res = numplace("solve", CLASH)
    assert res.returncode == 1
    assert res.stderr.strip() == "numplace: error: no solution: row 1 has two 5s (columns 1 and 2); try --repair"


def test_repair_text_and_json() -> None:
    res = numplace("solve", CLASH, "--repair")
    assert res.returncode == 0
    assert "r1c2: 5 -> 3" in res.stdout and res.stdout.strip().endswith(S)
    js = json.loads(numplace("solve", CLASH, "--repair", "--format", "json").stdout)
    assert js["status"] == "repaired" and js["changes"] == [{"row": 0, "col": 1, "from": "5", "to": "3"}]
    assert js["repaired_puzzle"] == P and js["solution"] == S
    same = json.loads(numplace("solve", P, "--repair", "--format", "json").stdout)
    assert same["status"] == "unique" and same["changes"] == []


def test_out_file(tmp_path: Path) -> None:
    out = tmp_path / "sol.txt"
    assert numplace("solve", P, "--out", str(out)).returncode == 0
    assert out.read_text().strip() == S


@pytest.mark.parametrize(
    ("arg", "message"),
    [
        (P[:80], "puzzle has 80 cells"),
        (P[:40] + "X" + P[41:], "unknown symbol 'X' at row 5, column 5"),
        ("1234.........", "puzzle has 13 cells; expected 16 for 4x4, 36 for 6x6, 81 for 9x9"),
        ("." * 25, "puzzle has 25 cells"),
        ("missing-file.txt", "missing-file.txt: no such file"),
        ("tests/data", "is a folder"),
    ],
)
def test_bad_input_is_one_line(arg: str, message: str) -> None:
    res = numplace("solve", arg)
    assert res.returncode == 2
    assert message in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1 and "Traceback" not in res.stderr


def test_empty_file(tmp_path: Path) -> None:
    f = tmp_path / "empty.txt"
    f.write_text("\n# only a comment\n")
    res = numplace("solve", str(f))
    assert res.returncode == 2 and "empty.txt: empty, no puzzle in it" in res.stderr


@pytest.mark.deep
def test_batch_with_a_bad_line_in_the_middle(tmp_path: Path) -> None:
    good = [p for p, c, _ in TDOKU]
    lines = [*good[:20], "12345", *good[20:]]
    f = tmp_path / "batch.txt"
    f.write_text("\n".join(lines) + "\n")
    out = tmp_path / "result.parquet"
    res = numplace("solve", str(f), "--count", "--out", str(out), "--workers", "2")
    assert res.returncode == 1  # one line was bad
    assert "batch.txt line 21: puzzle has 5 cells" in res.stderr
    frame = pl.read_parquet(out)
    assert frame["line"].to_list() == list(range(1, len(lines) + 1))
    assert frame.filter(pl.col("line") == 21)["status"].item() == "invalid"
    want = {0: "none", 1: "unique"}
    statuses = frame.filter(pl.col("line") != 21)["status"].to_list()
    assert statuses == [want.get(c, "multiple") for _, c, _ in TDOKU]


@pytest.mark.deep
def test_batch_from_csv_and_parquet_columns(tmp_path: Path) -> None:
    frame = pl.DataFrame({"id": [1, 2], "puzzle": [P, CLASH]})
    csv, pq = tmp_path / "in.csv", tmp_path / "in.parquet"
    frame.write_csv(csv)
    frame.write_parquet(pq)
    for src in (csv, pq):
        res = numplace("solve", str(src), "--repair")
        assert res.returncode == 0, res.stderr
        assert res.stdout.splitlines() == [f"1\tunique\t{S}", f"2\trepaired\t{S}"]
    nocol = tmp_path / "nocol.csv"
    pl.DataFrame({"grid": [P]}).write_csv(nocol)
    res = numplace("solve", str(nocol))
    assert res.returncode == 2 and "no 'puzzle' column" in res.stderr


@pytest.mark.deep
def test_indented_comment_is_skipped_by_solve_and_by_canon(tmp_path: Path) -> None:
    """One line reader: `solve` and `canon` (both batch.load) skip `  # ...` alike."""
    from pipeline.identity.canon import canonical_key
    def transposed(text: str) -> str:
        return "".join(text[c * 9 + r] for r in range(9) for c in range(9))

    f = tmp_path / "mixed.txt"
    f.write_text(f"# header\n{P}\n   # an indented comment\n\n{transposed(P)}\n")
    want = [(2, P), (5, transposed(P))]
    source = batch.load(str(f))
    assert not source.single and source.items == want
    assert batch.values(str(f)) == want
    res = numplace("solve", str(f))
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines() == [f"2\tunique\t{S}", f"5\tunique\t{transposed(S)}"]
    res = numplace("canon", str(f))
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines() == [canonical_key(parse(P))] * 2


def test_values_reads_like_load(tmp_path: Path) -> None:
    """`batch.values` shares `batch.load`'s rules: no drawn grid, but the same errors, one line each."""
    drawn = tmp_path / "drawn.txt"
    drawn.write_text(format_grid(parse(P)) + "\n")
    assert batch.load(str(drawn)).single
    assert len(batch.values(str(drawn))) > 1  # a value per line, never joined into one grid
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"\xff\xfe\x00\n")
    empty = tmp_path / "empty.txt"
    empty.write_text("\n  # nothing here\n")
    for arg, message in [(str(binary), "not a text file"), (str(empty), "empty, nothing in it"),
                         ("missing.txt", "missing.txt: no such file"), (str(tmp_path), "is a folder")]:
        with pytest.raises(batch.InputError, match=message):
            batch.values(arg)
    assert batch.values(" 42 ") == [(1, "42")]
    res = numplace("grid-number", str(binary))
    assert res.returncode == 2 and "bin.txt: not a text file" in res.stderr and "Traceback" not in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


@pytest.mark.deep
def test_canon_and_grid_number_read_input_as_solve_does(tmp_path: Path) -> None:
    """#12.13: one reader for all commands: ``canon`` and ``grid-number`` take a CSV (or Parquet)
    puzzle column and a drawn grid as ``solve`` and ``rate`` do, not line by line."""
    from pipeline.identity.canon import canonical_key
    from pipeline.identity.numbering import grid_number

    table = tmp_path / "p.csv"
    other = P[::-1]  # rotated by 180 degrees: the same canonical form
    table.write_text(f"puzzle,note\n{P},first\n{other},second\n")
    res = numplace("canon", str(table))
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines() == [canonical_key(parse(P))] * 2
    drawn = tmp_path / "drawn.txt"
    drawn.write_text(format_grid(parse(P)) + "\n")
    res = numplace("canon", str(drawn))
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines() == [canonical_key(parse(P))]
    grids = tmp_path / "g.parquet"
    pl.DataFrame({"puzzle": [S]}).write_parquet(grids)
    drawn_grid = tmp_path / "grid.txt"
    drawn_grid.write_text(format_grid(parse(S)) + "\n")
    for arg in (str(grids), str(drawn_grid)):
        res = numplace("grid-number", arg)
        assert res.returncode == 0, res.stderr
        assert res.stdout.splitlines() == [str(grid_number(parse(S, 9)))]


def test_a_16x16_puzzle_inline_is_read_as_a_puzzle_not_a_too_long_file_name() -> None:
    """256 characters are longer than a file name may be: the argument is the puzzle itself."""
    p16 = ("1" + "." * 255)
    assert batch.load(p16).items == [(1, p16)] and batch.load(p16).single
    assert batch.values(p16) == [(1, p16)]
    res = numplace("canon", p16)
    assert res.returncode == 2 and res.stderr.strip() == "numplace: error: no canonical form for 16x16 boards"


def _batch_file(tmp_path: Path) -> Path:
    f = tmp_path / "batch.txt"
    f.write_text(f"{P}\n{CLASH}\n12345\n")
    return f


@pytest.mark.deep
def test_batch_out_writes_the_format_its_suffix_names(tmp_path: Path) -> None:
    """Regression: `--out res.csv` wrote Parquet bytes."""
    f = _batch_file(tmp_path)
    want = [(1, "unique", S), (2, "none", None), (3, "invalid", None)]
    for suffix in (".parquet", ".csv", ".jsonl"):
        out = tmp_path / f"res{suffix}"
        res = numplace("solve", str(f), "--repair" if suffix == ".jsonl" else "--count", "--out", str(out),
                       "--workers", "1")
        assert res.returncode == 1, res.stderr  # line 3 is bad
        assert f"wrote 3 results to {out}" in res.stdout
        if suffix == ".parquet":
            frame = pl.read_parquet(out)
            assert frame.schema == pl.Schema(batch.SCHEMA)
            rows = frame.to_dicts()
        elif suffix == ".csv":
            assert out.read_text().splitlines()[0] == ",".join(batch.SCHEMA)
            rows = pl.read_csv(out, infer_schema_length=0).to_dicts()
            assert [json.loads(r["changes"]) for r in rows] == [[], [], []]
        else:
            rows = [json.loads(line) for line in out.read_text().splitlines()]
            assert all(list(r) == list(batch.SCHEMA) for r in rows)
            assert rows[1]["status"] == "repaired" and rows[1]["changes"] == [
                {"row": 0, "col": 1, "from": "5", "to": "3"}]
            want = [(1, "unique", S), (2, "repaired", S), (3, "invalid", None)]
        assert [(int(r["line"]), r["status"], r["solution"] or None) for r in rows] == want


@pytest.mark.deep
def test_single_out_writes_text_or_json(tmp_path: Path) -> None:
    """Regression: one puzzle sent to `--out x.parquet` was written as text."""
    txt, js = tmp_path / "s.txt", tmp_path / "s.json"
    assert numplace("solve", P, "--out", str(txt), "--format", "grid").returncode == 0
    assert txt.read_text().strip() == format_grid(parse(S))
    res = numplace("solve", P, "--out", str(js))
    assert res.returncode == 0 and res.stdout == ""
    assert json.loads(js.read_text()) == json.loads(numplace("solve", P, "--format", "json").stdout)
    clash = numplace("solve", CLASH, "--out", str(tmp_path / "none.json"))
    assert clash.returncode == 1 and json.loads((tmp_path / "none.json").read_text())["status"] == "none"
    res = numplace("solve", P, "--out", str(tmp_path / "x.json"), "--format", "line")
    assert res.returncode == 2 and "--format line does not fit" in res.stderr
    assert not (tmp_path / "x.json").exists()


@pytest.mark.parametrize(
    ("single", "name", "message"),
    [
        (True, "x.parquet", "--out x.parquet: '.parquet' is not a format for one puzzle's result; use .txt or .json"),
        (True, "x.csv", "--out x.csv: '.csv' is not a format for one puzzle's result; use .txt or .json"),
        (True, "x", "--out x: no suffix to name a format for one puzzle's result; use .txt or .json"),
        (False, "x.txt", "--out x.txt: '.txt' is not a format for batch results; use .parquet, .csv or .jsonl"),
        (False, "x.json", "--out x.json: '.json' is not a format for batch results; use .parquet, .csv or .jsonl"),
        (False, "results", "--out results: no suffix to name a format for batch results; use .parquet, .csv or .jsonl"),
        (False, "missing_folder/x.parquet", "missing_folder: no such folder for the output file"),
        (False, "batch.txt/x.parquet", "batch.txt: not a folder for the output file"),
        (True, "missing_folder/x.txt", "missing_folder: no such folder for the output file"),
        (False, "sub", "--out sub: is a folder; name a file ending in .parquet, .csv or .jsonl"),
        (True, "sub", "--out sub: is a folder; name a file ending in .txt or .json"),
    ],
)
def test_bad_out_is_refused_before_solving(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, single: bool,
                                           name: str, message: str) -> None:
    """Regression: a batch solved everything and only then failed on a missing folder; a folder or
    an unknown suffix is refused too, with one line, exit 2, nothing written and nothing solved."""
    from typer.testing import CliRunner

    from pipeline.cli import app
    from pipeline.solve import solver

    def no_solving(*args: object, **kwargs: object) -> None:
        raise AssertionError("solved before --out was checked")

    for fn in ("solve_batch", "solve_one"):
        monkeypatch.setattr(batch, fn, no_solving)
    for fn in ("solve", "repair"):
        monkeypatch.setattr(solver, fn, no_solving)
    (tmp_path / "sub").mkdir()
    f = _batch_file(tmp_path)
    monkeypatch.chdir(tmp_path)
    before = sorted(p.name for p in tmp_path.rglob("*"))
    res = CliRunner().invoke(app, ["solve", P if single else str(f), "--out", name, "--workers", "1"])
    assert res.exit_code == 2, res.output
    assert res.stderr == f"numplace: error: {message}\n"
    assert res.stdout == ""
    assert sorted(p.name for p in tmp_path.rglob("*")) == before


def test_bad_out_from_the_command_line_is_one_line(tmp_path: Path) -> None:
    f = _batch_file(tmp_path)
    out = tmp_path / "missing_folder" / "x.parquet"
    res = numplace("solve", str(f), "--out", str(out))
    assert res.returncode == 2
    assert res.stderr.strip() == f"numplace: error: {out.parent}: no such folder for the output file"
    res = numplace("solve", str(f), "--out", str(tmp_path / "res.txt"))
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1 and "Traceback" not in res.stderr
    assert not (tmp_path / "res.txt").exists()


def test_count_of_an_unsolvable_puzzle_prints_none_and_exits_1() -> None:
    """Regression (issue 12, item 12): ``--count`` printed an error instead of its answer ``none``."""
    for fmt in ("line", "grid"):
        res = numplace("solve", CLASH, "--count", "--format", fmt)
        assert res.returncode == 1 and res.stdout.strip() == "none" and res.stderr == ""


def test_25x25_is_refused_by_solve_rate_and_canon() -> None:
    """Regression (issue 12, item 12): 25x25 text was solved and rated (the README lists 4/6/9/16)
    and ``canon`` had no canonical form for it; all three refuse it in one line, exit 2."""
    for command in ("solve", "rate", "canon"):
        res = numplace(command, "." * 625)
        assert res.returncode == 2, (command, res.stdout[:200])
        assert res.stderr.strip() == ("numplace: error: 25x25 puzzles are made by run and generate but not read here "
                                      "(sizes read: 4x4, 6x6, 9x9, 16x16)")
        assert res.stdout == ""


@pytest.mark.deep
def test_no_solution_exits_1_in_solve_and_in_rate() -> None:
    """One meaning per exit code: no solution is 1 in both commands, a bad puzzle 2 in both."""
    assert numplace("solve", CLASH).returncode == 1
    assert numplace("rate", CLASH).returncode == 1
    assert numplace("solve", "12x" + P[3:]).returncode == 2
    assert numplace("rate", "12x" + P[3:]).returncode == 2
