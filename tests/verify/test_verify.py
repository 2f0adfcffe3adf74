"""The independent checker catches each kind of bad row (so the guard can fail)."""

from __future__ import annotations

import pytest

from pipeline.verify import verify_row

SOL = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
PUZ = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def good() -> dict:
    return {"size": 9, "puzzle": PUZ, "solution": SOL, "hints": 30, "symmetry": "rot180",
            "symmetry_requested": "rot180"}


def test_a_sound_row_passes() -> None:
    assert verify_row(good()) == []


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"hints": 29}, "hints says 29"),
        ({"symmetry": "none"}, "symmetry says none but the layout is rot180"),
        ({"symmetry_requested": "full"}, "lacks the requested symmetry"),
        ({"solution": "43" + SOL[2:]}, "not a valid grid"),
        ({"puzzle": "6" + PUZ[1:]}, "row 1, column 1 disagrees"),
        ({"puzzle": "." * 81, "hints": 0, "symmetry": "full"}, "more than one solution"),
        ({"puzzle": PUZ[:80]}, "80 cells"),
        ({"solution": None}, "missing column"),
    ],
)
def test_each_defect_is_reported(change: dict, problem: str) -> None:
    row = good() | change
    found = verify_row(row)
    assert any(problem in p for p in found), found


def _golden_16x16() -> tuple[str, str]:
    """The unique 16x16 case of tests/data/golden_small.txt: (puzzle, solution)."""
    from tests.conftest import ROOT

    for line in (ROOT / "tests" / "data" / "golden_small.txt").read_text().splitlines():
        puzzle, count, *sol = line.split(":")
        if not line.startswith("#") and len(puzzle) == 256 and count == "1":
            return puzzle, sol[0]
    raise AssertionError("no unique 16x16 case in golden_small.txt")


def test_16x16_rows_are_counted() -> None:
    """A sound 16x16 row passes and an empty one has many solutions (the compiled count; the
    pure-Python one takes seconds on this puzzle)."""
    puzzle, solution = _golden_16x16()
    row = {"size": 16, "puzzle": puzzle, "solution": solution, "hints": 98, "symmetry": "rot180",
           "symmetry_requested": "rot180"}
    assert verify_row(row) == []
    empty = row | {"puzzle": "." * 256, "hints": 0, "symmetry": "full"}
    assert verify_row(empty) == ["puzzle has more than one solution"]
