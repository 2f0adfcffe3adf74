"""The verifier's compiled counter (dancing links) against its oracle, the pure-Python counter.

Both count the golden files (tdoku's 9x9 file and our 4/6/16 file) and seeded random puzzles of every
size, at ``limit`` 2 (the verifier's question) and larger limits; the compiled one must also give
each golden file's exact count. The random puzzles are blanked from transformed golden solutions,
plus random scatters of digits (mostly contradictory), so that 0, 1 and many solutions all occur.
"""

from __future__ import annotations

import ast
import random
from typing import Any

import pytest

from pipeline import verify
from pipeline.board import Grid, board, parse, size_of
from pipeline.verify import count_jit
from tests.conftest import ROOT
from tests.costs import deep_cases
from tests.golden import SMALL, TDOKU, case_name, dear_to_the_oracles

GOLDEN = TDOKU + SMALL


@pytest.mark.parametrize(("puzzle", "count", "solution"), GOLDEN, ids=lambda v: str(v)[:12])
def test_golden_counts(puzzle: str, count: int, solution: str | None) -> None:
    """The file's count at every limit, and the exact count (every solution enumerated)."""
    grid, b = parse(puzzle), board(size_of(puzzle))
    for limit in (1, 2, 3, 40):
        assert count_jit.independent_count(grid, b, limit) == min(count, limit), limit
    assert count_jit.independent_count(grid, b, count + 1) == count


def _oracle_limits(count: int, n: int) -> list[int]:
    """Limits at which to run the oracle on a golden case: 2 (the verifier's question) always; a
    larger one where it changes the answer (more than 2 solutions), 16x16 only under ``-m slow``
    (the pure-Python counter takes seconds there)."""
    return [2, 10] if count > 2 and n < 16 else [2]


@pytest.mark.heavy
@pytest.mark.parametrize(("puzzle", "count", "solution"),
                         deep_cases(dear_to_the_oracles(GOLDEN), case_name, ".5...9.2B.1C-1"),
                         ids=lambda v: str(v)[:12])
def test_golden_counts_agree_with_the_oracle(puzzle: str, count: int, solution: str | None) -> None:
    n = size_of(puzzle)
    grid, b = parse(puzzle), board(n)
    for limit in _oracle_limits(count, n):
        assert count_jit.independent_count(grid, b, limit) == verify.independent_count(grid, b, limit), limit


@pytest.mark.slow
@pytest.mark.parametrize(("puzzle", "count", "solution"), [c for c in GOLDEN if size_of(c[0]) == 16],
                         ids=lambda v: str(v)[:12])
def test_golden_16x16_agree_with_the_oracle_at_larger_limits(puzzle: str, count: int, solution: str | None) -> None:
    grid, b = parse(puzzle), board(16)
    for limit in (3, 40):
        assert count_jit.independent_count(grid, b, limit) == verify.independent_count(grid, b, limit), limit


def _shuffled(solution: Grid, n: int, rng: random.Random) -> Grid:
    """A random image of a solution grid under the validity-preserving group: relabel the digits,
    permute bands and the rows within each band, stacks and the columns within each stack, and
    transpose (square boxes only)."""
    b = board(n)
    br, bc = b.box_rows, b.box_cols

    def order(blocks: int, width: int) -> list[int]:
        out = []
        for blk in rng.sample(range(blocks), blocks):
            out += [blk * width + k for k in rng.sample(range(width), width)]
        return out

    rows, cols = order(n // br, br), order(n // bc, bc)
    relabel = [0, *rng.sample(range(1, n + 1), n)]
    grid = [relabel[solution[rows[r] * n + cols[c]]] for r in range(n) for c in range(n)]
    if br == bc and rng.random() < 0.5:
        grid = [grid[c * n + r] for r in range(n) for c in range(n)]
    return tuple(grid)


# one unique golden solution per size; (size, number of random puzzles, most blanks to draw)
SOLUTIONS = {size_of(s): parse(s) for _, count, s in GOLDEN if s is not None}
RANDOM = [(4, 40, 14), (6, 40, 30), (9, 60, 64), (16, 12, 140)]


def _random_puzzles(n: int, k: int, most: int, seed: int) -> list[Grid]:
    """``k`` puzzles of side ``n``: blanked random images of a golden solution (3 in 4), else a
    scatter of random digits on random cells (usually contradictory)."""
    rng = random.Random(seed)
    out = []
    for _ in range(k):
        if rng.random() < 0.75:
            grid = list(_shuffled(SOLUTIONS[n], n, rng))
            for i in rng.sample(range(n * n), rng.randint(1, most)):
                grid[i] = 0
        else:
            grid = [0] * (n * n)
            for i in rng.sample(range(n * n), rng.randint(1, n * n // 2)):
                grid[i] = rng.randint(1, n)
        out.append(tuple(grid))
    return out


@pytest.mark.heavy
@pytest.mark.parametrize(("n", "k", "most"), RANDOM)
def test_random_puzzles_agree_with_the_oracle(n: int, k: int, most: int) -> None:
    b = board(n)
    seen = set()
    for puzzle in _random_puzzles(n, k, most, seed=15 * n):
        for limit in (1, 2, 7):
            fast = count_jit.independent_count(puzzle, b, limit)
            assert fast == verify.independent_count(puzzle, b, limit), (limit, puzzle)
            seen.add(min(fast, 2))
    assert seen == {0, 1, 2}  # the sample has none, unique and many


def test_shuffled_solutions_are_grids() -> None:
    rng = random.Random(1)
    for n, sol in SOLUTIONS.items():
        assert verify.is_valid_solution(_shuffled(sol, n, rng), board(n))


def test_counts_whole_boards() -> None:
    assert count_jit.independent_count((0,) * 16, board(4), limit=300) == 288
    solved = SOLUTIONS[16]
    assert count_jit.independent_count(solved, board(16), limit=2) == 1
    wrong = (solved[1], solved[0], *solved[2:])  # two digits swapped: rows still fine, columns not
    assert count_jit.independent_count(wrong, board(16), limit=2) == 0


def test_contract_edges() -> None:
    b = board(9)
    assert count_jit.independent_count((0,) * 81, b, limit=0) == 0
    assert count_jit.independent_count((0,) * 81, b, limit=5) == 5
    assert count_jit.independent_count((1, 1, *(0,) * 79), b) == 0  # two 1s in row 1
    with pytest.raises(ValueError, match="80 cells"):
        count_jit.independent_count((0,) * 80, b)
    with pytest.raises(ValueError, match=r"outside 0\.\.9"):
        count_jit.independent_count((10, *(0,) * 80), b)


def test_the_verifier_counts_with_the_compiled_counter(monkeypatch: pytest.MonkeyPatch) -> None:
    """verify_puzzle asks count_jit, so a wrong count there is reported (the guard can fail)."""
    sol = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
    puz = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    args: dict[str, Any] = {"size": 9, "puzzle": puz, "solution": sol, "hints": 30, "symmetry": "rot180",
            "symmetry_requested": "rot180"}
    assert verify.verify_puzzle(**args) == []
    monkeypatch.setattr(count_jit, "independent_count", lambda puzzle, b, limit=2: 2)
    assert verify.verify_puzzle(**args) == ["puzzle has more than one solution"]


def test_written_apart_from_the_counters_it_checks() -> None:
    """count_jit imports nothing of ours but the board vocabulary (no ilp, no generate.count_jit)."""
    tree = ast.parse((ROOT / "pipeline" / "verify" / "count_jit.py").read_text(encoding="utf-8"))
    ours = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
            and node.module and node.module.startswith("pipeline")}
    ours |= {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names
             if a.name.startswith("pipeline")}
    assert ours == {"pipeline.board"}


@pytest.mark.deep
def test_killer_counts_through_much_backtracking_agree_with_the_oracle() -> None:
    """Loose killer boards (two-cell cages over part of a 6x6 grid, few givens) have many solutions, so
    the search backs up often past sum groups it skipped as unchanged: the counts still match the
    pure-Python oracle's at every limit."""
    rng = random.Random(26)
    b = board(6)
    seen = set()
    for _ in range(12):
        sol = _shuffled(SOLUTIONS[6], 6, rng)
        pairs = [(r * 6 + c, r * 6 + c + 1) for r in range(6) for c in (0, 2, 4) if rng.random() < 0.4]
        cages = [(cells, sum(sol[i] for i in cells)) for cells in pairs]
        puzzle = tuple(d if rng.random() < 0.1 else 0 for d in sol)
        columns = [{"cells": list(c), "sum": s} for c, s in cages]
        rules, problems = verify.rules_for(6, variant=["killer"], cages=columns)
        assert rules is not None and not problems
        for limit in (1, 3, 40):
            fast = count_jit.independent_count(puzzle, b, limit, cages=cages)
            assert fast == verify.independent_count(puzzle, b, limit, rules), (limit, puzzle, cages)
            seen.add(fast)
    assert max(seen) == 40 and min(seen) == 1  # many solutions and a single one both met
