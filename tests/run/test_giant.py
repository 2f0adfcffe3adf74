"""25x25 boards (5x5 boxes): a config is accepted only as classic with a hints rule, and a 25x25 puzzle
goes through every check a written puzzle goes through (certificate, verification, grade); the shipped
``configs/giant-25x25.yaml`` makes a set end to end."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
import yaml

from pipeline import config, verify
from pipeline.board import SYMBOLS, parse
from pipeline.difficulty.grade import LEVELS, grade, max_score
from pipeline.ilp.engine import engine_for
from pipeline.run import runner
from pipeline.run.audit import audit
from tests.conftest import ROOT, tiny

#: A 25x25 puzzle of configs/giant-25x25.yaml (index 1; 320 givens; by grader 3 expert 5670, by grader 2
#: expert 5800) and its solution.
PUZZLE25 = (
    "6.LN.A.9CHD....I.O..P......8...4.I.5...K..GNH..BO.DH4.5..EBK.I9G..J1....LC..PK1MN3..O...H........85D9O"
    "JGCDM8....F.AL62.E...I....6D.1A.P8B4CI..HM..GO.N1..HGBD.E.P.N.JKL......62E..J...N.4ODG.71..9C..5..M..PK.L"
    ".6.935.E....G.D14C.9AC...O5F.MK.H...6N.P.EI..6..L..N.ECI52.MFJ91O.G.45...O....B....HK7D.I..F.....O3..2EKL"
    ".7DG8..4A.....J..N.C587....M....1...3B.7.D3FBM4.A1698.O..I..2..AB.7.45...I.DM.91C...KPL.G1I5.E....4.3PL.H"
    ".7.C2..9..D..KG..CH.1A54.I...E..OH8......9LN.B.C.G.2674..5O.C4..I2..6K789P.E5.GB....E...8.GHJL.A....M32OC"
    "KBFBDM........6...N..HAE1GJ..G2....4P..9EK.5FB..L.D7H.6P..9EF..7...1.D.G...M......H..1.2....BC7L.P.IA.8")
SOLUTION25 = (
    "62LNBAF9CHD78J4I5OKMP3E1G738FEJ4LI65P21KDCGNHM9BOADH4A5P2EBKMI9GO7J183NFLC6IPK1MN37GOCELH6AB94F2J85D9OJG"
    "CDM8153NFBAL62PEK7HI43L56D21AJP8B4CIFEHM79GOKN14OHGBDCE9PANFJKL3I58M762EIBJ8MKN34ODG6712P9CFA5HLMFNPK7LH6"
    "I9352E8AJOGBD14C29AC7G8O5F1MKLHB4D6N3PJEI8A6BPLHKNDECI523MFJ91O4G7459M2OJ6A1BGP3NHK7DLI8CFEFC1IO39P2EKLJ7"
    "DG85B4AH6NMKJGENIC587FHO4M2P6A1DL93BL7HD3FBM4GA1698EONCIJ52PKABE76453ONI2DMG91CF8HKPLJG1I5JE6BF84O3PLMHK7"
    "DC2NA9PMD29KGJ7CHF1A54NILB6E38OH83KF1PD9LNJBECOGA2674IM5ONC4LHI2MA6K789P3E5JGBFD15E7918NGHJL4ADP6IM32OCKB"
    "FBDML457IK326COFN98HAE1GJPNG28ICA4PMJ9EK35FB1OL6D7HC6POA9EFLB78HI1JD4GK5NM23JKF3H6O1D2G5MNBC7LEP4IA98")


def giant(out: Path, **over: object) -> dict:
    return tiny(out, board={"size": 25}, removal={"symmetry": "rot180", "hints": {"min": 310, "max": 330}}) | over


def test_25x25_with_a_hints_rule_is_accepted(tmp_path: Path) -> None:
    cfg = config.validate(giant(tmp_path / "out"))
    assert cfg.board.size == 25 and cfg.removal.hints is not None


@pytest.mark.parametrize("change,message", [
    ({"removal": {"symmetry": "rot180", "minimal": True}}, "removal.hints: a 25x25 board needs a hints rule"),
    ({"removal": {"symmetry": "rot180"}}, "removal.hints: a 25x25 board needs a hints rule"),
    ({"board": {"size": 25, "variant": "x"}}, "board.variant: 25x25 boards are classic only"),
    ({"grid": {"solution_symmetry": {"map": "rot180"}}}, "grid.solution_symmetry: not on 25x25 boards"),
    ({"board": {"size": 24}}, "board.size: 24 is not allowed; input should be 4, 6, 9, 16 or 25"),
])
def test_25x25_refusals_name_the_key(tmp_path: Path, change: dict, message: str) -> None:
    with pytest.raises(config.ConfigError) as err:
        config.validate(giant(tmp_path / "out") | change)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_shipped_giant_config_is_valid() -> None:
    data = yaml.safe_load((ROOT / "configs" / "giant-25x25.yaml").read_text())
    cfg = config.validate(data)
    assert cfg.board.size == 25 and cfg.removal.hints is not None


@pytest.mark.deep
@pytest.mark.heavy
def test_a_25x25_puzzle_is_certified_verified_and_graded() -> None:
    puzzle, solution = parse(PUZZLE25, 25), parse(SOLUTION25, 25)
    eng = engine_for(25)
    eng.set_nogood(solution)
    try:
        assert eng.unique_without(puzzle)  # HiGHS finds no second solution: certified
    finally:
        eng.set_nogood(None)
    row = {"size": 25, "puzzle": PUZZLE25, "solution": SOLUTION25, "hints": 320, "symmetry": "rot180",
           "symmetry_requested": "rot180"}
    assert verify.verify_row(row) == []
    assert verify.verify_row(row | {"solution": SOLUTION25[:-2] + SOLUTION25[-1] + SOLUTION25[-2]})
    g = grade(puzzle, solution, unique=True)
    assert (g.level, g.score) == ("expert", 5730.0)  # grader 5: one pair less is locked, two pointings more
    g4 = grade(puzzle, solution, unique=True, grader=4)
    assert (g4.level, g4.score) == ("expert", 5670.0)  # a set begun under grader 4 keeps its grade
    assert max_score("hard", 25) == pytest.approx(1600 * 625 / 81)  # limits scale with the cells


@pytest.mark.slow
def test_shipped_giant_config_makes_a_set_end_to_end(tmp_path: Path) -> None:
    """configs/giant-25x25.yaml through the runner (about 10-20 s of CPU a puzzle, most of it the grid)."""
    data = yaml.safe_load((ROOT / "configs" / "giant-25x25.yaml").read_text())
    data |= {"count": 1, "workers": 1, "output": {"dir": str(tmp_path / "out"), "shard_size": 500}}
    summary = runner.run(config.validate(data))
    assert summary.ok and summary.written == 1
    row = pl.read_parquet(summary.run_dir / "part-*.parquet").row(0, named=True)
    assert (row["size"], row["box_rows"], row["box_cols"]) == (25, 5, 5)
    assert len(row["puzzle"]) == 625 and set(row["puzzle"]) <= set(SYMBOLS[:25] + ".")
    assert 310 <= row["hints"] <= 330 and row["difficulty"] in LEVELS
    assert row["canonical_puzzle"] is None and row["orbit_minimal"] is False
    assert verify.verify_row(row) == []
    assert audit(summary.run_dir).ok
