"""Variant sets through run, check, show, solve and rate (issue 16): each variant makes a set that
passes check, carries its rules in the variant/regions/cages columns, and check catches a tampered
cage sum, region or diagonal."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest

from pipeline import config, verify
from pipeline.board import board, make_variant, normal_regions, parse
from pipeline.identity import variant_canon
from pipeline.run import rows, runner
from pipeline.run.audit import audit
from tests.conftest import numplace, tiny
from tests.run.test_audit import _edit, _one, _set

pytestmark = pytest.mark.heavy  # the tests here make sets or run the CLI: seconds each

JIGSAW = "112223333111222236141122336145555336444456666447559996477559996777888899777888889"
SETS = {
    "x": {"board": {"size": 9, "variant": "x"}, "count": 3},
    "hyper": {"board": {"size": 9, "variant": "hyper"}, "count": 3},
    "jigsaw": {"board": {"size": 9, "variant": "jigsaw", "regions": JIGSAW},
               "removal": {"symmetry": "none", "minimal": True}, "count": 3},
    "killer6": {"board": {"size": 6, "variant": "killer", "cages": {"min_size": 2, "max_size": 4}}, "count": 3},
    "killer-givens": {"board": {"size": 9, "variant": "killer", "cages": {"givens": True, "max_size": 3}},
                      "count": 2},
}


@pytest.fixture(scope="module")
def sets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One clean output root per variant (copy before tampering)."""
    out = {}
    for name, over in SETS.items():
        root = tmp_path_factory.mktemp(name) / "out"
        summary = runner.run(config.validate(tiny(root, **{**over, "seed": 16})))
        assert summary.ok, name
        out[name] = summary.run_dir
    return out


def _frame(run_dir: Path) -> pl.DataFrame:
    return pl.read_parquet(sorted(run_dir.glob("part-*.parquet")))


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.deep) if n in ("jigsaw", "x") else n for n in SETS])
def test_variant_sets_pass_check_and_carry_their_rules(sets: dict[str, Path], name: str) -> None:
    run_dir = sets[name]
    result = audit(run_dir.parent)
    assert result.ok, result.problems
    frame = _frame(run_dir)
    assert frame.height == SETS[name]["count"]
    for row in frame.iter_rows(named=True):
        v = make_variant(row["variant"], row["regions"], row["cages"])
        assert not v.classic and verify.verify_row(row) == []
        b = board(row["size"], v)
        sol = parse(row["solution"], row["size"])
        assert all(sorted(sol[i] for i in u) == list(range(1, b.n + 1)) for u in b.units)
        # the form under the variant's own group, layout and cages included; the dedup key joins the kinds
        assert row["canonical_puzzle"] == variant_canon.canonical_variant_key(parse(row["puzzle"]), v) is not None
        assert rows.dedup_key(row) == f"{'+'.join(v.kinds)}|{row['canonical_puzzle']}"
        if "killer" in v.kinds:
            assert v.cages and sorted(i for c in v.cages for i in c.cells) == list(range(b.n * b.n))
            assert all(sum(sol[i] for i in c.cells) == c.total for c in v.cages)
            assert row["hints"] == 0 or name == "killer-givens"
        if name == "jigsaw":
            assert row["regions"] == normal_regions(JIGSAW) and row["grid_number"] is None


def _tampered(sets: dict[str, Path], name: str, tmp_path: Path) -> Path:
    shutil.copytree(sets[name].parent.parent, tmp_path / "out")
    return tmp_path / "out" / sets[name].parent.name / sets[name].name


def test_check_catches_a_tampered_cage_sum(sets: dict[str, Path], tmp_path: Path) -> None:
    run_dir = _tampered(sets, "killer6", tmp_path)
    part = sorted(run_dir.glob("part-*.parquet"))[0]
    row = pl.read_parquet(part).row(0, named=True)
    cages = row["cages"]
    cages[0] = {"cells": cages[0]["cells"], "sum": cages[0]["sum"] + 1}
    _edit(part, _set("cages", row["index"], cages))
    problems = audit(run_dir.parent).problems
    _one(problems, "cage")


@pytest.mark.deep
def test_check_catches_a_tampered_region(sets: dict[str, Path], tmp_path: Path) -> None:
    run_dir = _tampered(sets, "jigsaw", tmp_path)
    part = sorted(run_dir.glob("part-*.parquet"))[0]
    row = pl.read_parquet(part).row(0, named=True)
    moved = "2" + row["regions"][1:]  # r1c1 joins region 2: region 1 loses a cell
    _edit(part, _set("regions", row["index"], moved))
    _one(audit(run_dir.parent).problems, "region")


def test_check_catches_a_broken_diagonal(sets: dict[str, Path], tmp_path: Path) -> None:
    run_dir = _tampered(sets, "x", tmp_path)
    part = sorted(run_dir.glob("part-*.parquet"))[0]
    row = pl.read_parquet(part).row(0, named=True)
    _edit(part, _set("variant", row["index"], []))  # claim it is classic: it is not unique then
    problems = audit(run_dir.parent).problems
    _one(problems, "variant")
    sol = list(row["solution"])
    sol[0], sol[1] = sol[1], sol[0]  # swap two cells of row 1: rows hold, the diagonal and columns break
    problems = verify.verify_row({**row, "solution": "".join(sol)})
    assert problems


@pytest.mark.deep
def test_show_solve_and_rate_read_variant_rows(sets: dict[str, Path], tmp_path: Path) -> None:
    run_dir = sets["killer6"]
    shown = numplace("show", str(run_dir), "--limit", "1")
    assert shown.returncode == 0 and "variant killer" in shown.stdout and "cages (" in shown.stdout
    row = _frame(run_dir).row(0, named=True)
    line = json.dumps({"puzzle": row["puzzle"], "variant": row["variant"], "cages": row["cages"]})
    solved = numplace("solve", line, "--format", "json")
    assert solved.returncode == 0, solved.stderr
    out = json.loads(solved.stdout)
    assert out["status"] == "unique" and out["solution"] == row["solution"]
    # the same puzzle without its cages is not unique (it has no givens at all)
    plain = numplace("solve", row["puzzle"], "--count")
    assert plain.stdout.startswith("multiple")
    # a part file keeps every row's rules
    batch = numplace("solve", str(sorted(run_dir.glob("part-*.parquet"))[0]), "--format", "json")
    assert len(batch.stdout.splitlines()) == SETS["killer6"]["count"]  # all() below is over every row
    assert batch.returncode == 0 and all(json.loads(ln)["status"] == "unique" for ln in batch.stdout.splitlines())
    rated = numplace("rate", line)
    levels = ("unrated", "easy", "medium", "hard", "expert", "extreme")
    assert rated.returncode == 0 and rated.stdout.split()[0] in levels


@pytest.mark.deep
def test_solve_with_a_config_board_and_bad_variant_lines(tmp_path: Path, sets: dict[str, Path]) -> None:
    row = _frame(sets["x"]).row(0, named=True)
    cfg = tmp_path / "x.yaml"
    cfg.write_text("name: x\nseed: 1\ncount: 1\nboard: {size: 9, variant: x}\n")
    solved = numplace("solve", row["puzzle"], "--config", str(cfg), "--format", "line")
    assert solved.returncode == 0 and solved.stdout.strip() == row["solution"]
    bad = numplace("solve", json.dumps({"puzzle": row["puzzle"], "variant": "x", "cages": [{"cells": [0], "sum": 99}]}))
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    assert "cages are given but the variant is not killer" in bad.stderr
    bad = numplace("solve", json.dumps({"puzzle": row["puzzle"], "variant": "killer", "cages": [{"cells": [0, 1]}]}))
    assert bad.returncode == 2 and "cages[0]" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.deep
def test_repair_keeps_the_variant_rules(sets: dict[str, Path], tmp_path: Path) -> None:
    row = _frame(sets["x"]).row(0, named=True)
    cfg = tmp_path / "x.yaml"
    cfg.write_text("name: x\nseed: 1\ncount: 1\nboard: {size: 9, variant: x}\n")
    first = next(i for i, ch in enumerate(row["puzzle"]) if ch == ".")
    clash = next(ch for ch in row["puzzle"] if ch != ".")  # a given's digit, put again in its row
    spoilt = row["puzzle"][:first] + clash + row["puzzle"][first + 1:]
    fixed = numplace("solve", spoilt, "--config", str(cfg), "--repair", "--format", "json")
    out = json.loads(fixed.stdout)
    assert fixed.returncode == 0 and out["status"] in ("repaired", "unique", "multiple")
    v = make_variant("x")
    sol = parse(out["solution"], 9)
    assert all(sorted(sol[i] for i in u) == list(range(1, 10)) for u in board(9, v).units)


def test_books_keep_every_killer_puzzle(sets: dict[str, Path]) -> None:
    """Zero-given killer puzzles share one puzzle line; the cages make them different puzzles."""
    from pipeline.publish import select

    rows = select.read_sets([sets["killer6"]])
    assert rows.frame.height == SETS["killer6"]["count"] and len(set(rows.frame["puzzle"])) == 1


@pytest.mark.deep
def test_a_report_of_a_graded_killer_set(sets: dict[str, Path], tmp_path: Path) -> None:
    """Killer sets are graded by their cage sums: every row has a level, and the report shows them."""
    levels = _frame(sets["killer6"])["difficulty"].to_list()
    assert levels and all(lv in ("easy", "medium", "hard", "expert", "extreme") for lv in levels)
    made = numplace("report", str(sets["killer6"]), "--out", str(tmp_path / "r.png"), "--format", "png")
    assert made.returncode == 0 and (tmp_path / "r.png").stat().st_size > 10_000, made.stderr
    made = numplace("report", str(sets["killer6"]), "--out", str(tmp_path / "r.html"))
    html = (tmp_path / "r.html").read_text()
    assert made.returncode == 0 and "unrated" not in html and all(lv in html for lv in set(levels))


@pytest.mark.deep
def test_exports_keep_the_rules_or_refuse(sets: dict[str, Path], tmp_path: Path) -> None:
    run_dir = sets["killer6"]
    made = numplace("export", str(run_dir), "--format", "csv", "--out", str(tmp_path / "k.csv"))
    assert made.returncode == 0, made.stderr
    import csv

    rows = list(csv.DictReader((tmp_path / "k.csv").open()))
    want = _frame(run_dir).row(0, named=True)["cages"]
    assert rows[0]["variant"] == "killer" and json.loads(rows[0]["cages"]) == want
    refused = numplace("export", str(run_dir), "--format", "sdk", "--out", str(tmp_path / "k.sdk"))
    assert refused.returncode != 0 and "cages would be lost" in refused.stderr and not (tmp_path / "k.sdk").exists()


def test_killer_puzzles_do_not_depend_on_what_the_worker_made_before() -> None:
    """The same seed gives the same killer puzzle first or after others (the engine's cages, no-good
    row and solver state are reset; the certificate budget counts nodes, not seconds)."""
    from pipeline.generate.puzzle import make_puzzle
    from pipeline.generate.spec import puzzle_seed
    from pipeline.run.plan import spec_of

    spec = spec_of(config.validate({"name": "k", "seed": 5, "count": 1,
                                    "board": {"size": 6, "variant": "killer"}}))
    seeds = [puzzle_seed(5, i) for i in range(4)]
    forward = [make_puzzle(spec, s) for s in seeds]
    backward = [make_puzzle(spec, s) for s in reversed(seeds)][::-1]
    assert [(m.solution, m.variant) for m in forward] == [(m.solution, m.variant) for m in backward]
    assert all(m.certified for m in forward)


def _rot90(line: str, n: int) -> str:
    """The puzzle line turned a quarter (a symmetry of X, hyper and jigsaw boards, as a map)."""
    return "".join(line[(n - 1 - j) * n + i] for i in range(n) for j in range(n))


def test_check_catches_a_rotated_relabelled_copy_of_a_variant_puzzle(sets: dict[str, Path], tmp_path: Path) -> None:
    from pipeline.identity import numbering

    run_dir = _tampered(sets, "x", tmp_path)
    part = sorted(run_dir.glob("part-*.parquet"))[0]
    first, second = pl.read_parquet(part).rows(named=True)[:2]
    swap = str.maketrans("123456789", "912345678")
    puzzle, solution = _rot90(first["puzzle"], 9).translate(swap), _rot90(first["solution"], 9).translate(swap)
    assert puzzle != first["puzzle"]
    for column, value in (("puzzle", puzzle), ("solution", solution), ("canonical_puzzle", first["canonical_puzzle"]),
                          ("grid_number", str(numbering.grid_number(parse(solution))))):
        _edit(part, _set(column, second["index"], value))
    problems = audit(run_dir.parent, fast=True).problems
    _one(problems, second["puzzle_id"], "same canonical form", first["puzzle_id"])
    # recomputed, the form of the copy is the original's: the same finding
    _one(audit(run_dir.parent).problems, second["puzzle_id"], "same canonical form", first["puzzle_id"])


def test_check_catches_a_wrong_variant_canonical_puzzle(sets: dict[str, Path], tmp_path: Path) -> None:
    run_dir = _tampered(sets, "killer6", tmp_path)
    part = sorted(run_dir.glob("part-*.parquet"))[0]
    first, second = pl.read_parquet(part).rows(named=True)[:2]
    _edit(part, _set("canonical_puzzle", second["index"], first["canonical_puzzle"]))
    _one(audit(run_dir.parent).problems, second["puzzle_id"], "canonical_puzzle is not the puzzle's canonical form")


@pytest.mark.deep
def test_canon_reads_variant_puzzles_as_solve_does(sets: dict[str, Path], tmp_path: Path) -> None:
    row = _frame(sets["jigsaw"]).row(0, named=True)
    line = json.dumps({"puzzle": row["puzzle"], "variant": row["variant"], "regions": row["regions"]})
    turned = json.dumps({"puzzle": _rot90(row["puzzle"], 9), "variant": "jigsaw", "regions": _rot90(row["regions"], 9)})
    a, b = numplace("canon", line), numplace("canon", turned)
    assert a.returncode == b.returncode == 0, a.stderr + b.stderr
    assert a.stdout == b.stdout
    form = json.loads(a.stdout)
    assert f"{form['puzzle']}|{form['regions']}" == row["canonical_puzzle"]
    again = numplace("canon", a.stdout.strip())  # the form is its own form
    assert again.stdout == a.stdout
    # a part file: one line per row, each a JSON puzzle line with its rules
    killer = numplace("canon", str(sorted(sets["killer6"].glob("part-*.parquet"))[0]))
    kinds = [json.loads(ln)["variant"] for ln in killer.stdout.splitlines()]
    assert killer.returncode == 0 and kinds == [["killer"]] * 3
    # plain text played by --config's rules
    x = _frame(sets["x"]).row(0, named=True)
    cfg = tmp_path / "x.yaml"
    cfg.write_text("name: x\nseed: 1\ncount: 1\nboard: {size: 9, variant: x}\n")
    by_config = numplace("canon", x["puzzle"], "--config", str(cfg))
    assert json.loads(by_config.stdout)["puzzle"] == x["canonical_puzzle"]
    bad = numplace("canon", json.dumps({"puzzle": row["puzzle"], "variant": "jigsaw"}))
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "regions" in bad.stderr
