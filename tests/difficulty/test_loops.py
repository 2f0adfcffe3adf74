"""The techniques after the X- and XY-chains: uniqueness tests (gated on a unique puzzle), nice loops
and AICs, forcing chains and nets; and the promise that a path that never needed trial and error
is exactly the path it was before they existed.

HoDoKu's published AIC and forcing-chain examples (hodoku.sourceforge.net, show_example.php; cited
in ``tests/data/README.md``) are checked against the implication graph the loops search: HoDoKu's
chain ends are linked and its eliminations follow. The step-for-step positions of every technique
are in ``tests/data/logic_positions.txt`` (``test_logic.py``).
"""

from __future__ import annotations

from functools import cache

import pytest

from pipeline.board import Grid, Variant, parse
from pipeline.difficulty.candidates import _Ctx
from pipeline.difficulty.chains.graph import graph_of
from pipeline.difficulty.chains.loops import _closure
from pipeline.difficulty.grade import grade
from pipeline.difficulty.logic import Candidates, find_step, solve_logically
from pipeline.difficulty.techniques import ORDERS, TECHNIQUES, UNIQUENESS
from pipeline.difficulty.trial import count_state_solutions
from tests.difficulty.test_logic import generated, tdoku_rows


def hodoku_state(line: str) -> Candidates:
    """The candidate state of a HoDoKu load line ``:type:digits:grid:deleted:...`` (``+d`` a placed
    digit, deleted candidates as ``drc``)."""
    fields = line.split(":")
    grid = parse(fields[3].replace("+", ""))
    deleted = [((int(t[1]) - 1) * 9 + int(t[2]) - 1, int(t[0])) for t in fields[4].split()]
    return Candidates.from_grid(grid, deleted)


def node(st: Candidates, cell: str, d: int) -> int:
    r, c = cell[1:].split("c")
    return (d - 1) * 81 + (int(r) - 1) * 9 + int(c) - 1


def rc(name: str) -> int:
    r, c = name[1:].split("c")
    return (int(r) - 1) * 9 + int(c) - 1


# HoDoKu example aic101: "AIC 5- r1c2 -3- r1c4 =3= r3c4 =9= r7c4 =2= r7c2 -2- r8c3 -5 => r123c3,r78c2<>5"
AIC101 = (":0708:5:+2......69+98..2.13+7+71.....+24..+9....+5..4...9.7.+5671+329+4+8+6.1....8+33......+9+6+4+9867+32+15"
          "::513 523 533 572 582:")
# HoDoKu example aic202 (AIC type 2): r1c8 and r4c8 see each other => r1c8<>2, r4c8<>8
AIC202 = (":0708:28:963.1....+27.3........+6.27+3.7.9.6.+3.......+35...3.....9.+6+8+7.3.+1+525..+286+9+73+3+9+2+571846"
          "::218 848:")
# HoDoKu example fcv03: "Forcing Chain Verity => r1c7=4" from the three places of 1 in row 4 (r4c4, r4c6, r4c7)
FCV03 = (":1202::+27+1+896...+9+4352+768+1+8+56+3+147+9248.....2.+6+3.......51.......+3+9+5....7.+7+2+4.3+85.9168..."
         "+2+43:::")


@pytest.mark.parametrize("line,start,end,elims", [
    (AIC101, ("r1c2", 5), ("r8c3", 5), {("r1c3", 5), ("r2c3", 5), ("r3c3", 5), ("r7c2", 5), ("r8c2", 5)}),
    (AIC202, ("r1c8", 8), ("r4c8", 2), {("r1c8", 2), ("r4c8", 8)}),
])
def test_hodoku_aic_examples_follow_from_the_links(line: str, start: tuple[str, int], end: tuple[str, int],
                                                   elims: set[tuple[str, int]]) -> None:
    st = hodoku_state(line)
    gr = graph_of(st, _Ctx(st))
    a, b = node(st, *start), node(st, *end)
    on_seen, _ = _closure(gr, a, False)
    assert on_seen >> b & 1, "HoDoKu's chain end must be forced on when its start is off"
    derived = {gr.pair(t) for t in range(81 * 9) if gr.weak[a] >> t & 1 and gr.weak[b] >> t & 1}
    assert {(rc(c), d) for c, d in elims} <= derived


def test_hodoku_aic_example_is_found_by_the_loop_rows() -> None:
    st = hodoku_state(AIC101)
    step = find_step(st, "discontinuous_nice_loop") or find_step(st, "aic")
    assert step is not None and step.eliminations
    assert " = " in step.detail and " - " in step.detail


def test_hodoku_forcing_chain_verity_example() -> None:
    st = hodoku_state(FCV03)
    gr = graph_of(st, _Ctx(st))
    target = node(st, "r1c7", 4)
    for cell in ("r4c4", "r4c6", "r4c7"):
        assert st.has(rc(cell), 1)
        on_seen, _ = _closure(gr, node(st, cell, 1), True)
        assert on_seen >> target & 1, f"{cell}=1 must force r1c7=4"
    assert {i for i in range(27, 36) if st.has(i, 1)} == {rc("r4c4"), rc("r4c6"), rc("r4c7")}
    step = find_step(st, "forcing_chain")
    assert step is not None and step.detail.startswith(("verity", "contradiction"))


def test_new_rows_follow_hodoku_levels_and_weights() -> None:
    expected = {"bug_plus_1": ("hard", 100), "uniqueness_1": ("hard", 100), "uniqueness_2": ("hard", 100),
                "uniqueness_3": ("hard", 100), "uniqueness_4": ("hard", 100), "uniqueness_6": ("hard", 100),
                "hidden_rectangle": ("hard", 100), "discontinuous_nice_loop": ("expert", 280),
                "aic": ("expert", 280), "forcing_chain": ("extreme", 500), "forcing_net": ("extreme", 700)}
    assert {k: (TECHNIQUES[k].level, TECHNIQUES[k].weight) for k in expected} == expected
    v2 = ORDERS[2]
    assert v2[v2.index("xy_chain") + 1:] == (*expected, "trial_and_error")  # version 2: after the chains


# ---------------------------------------------------------------------------------------------
# Uniqueness is assumed only for a puzzle known to be unique
# ---------------------------------------------------------------------------------------------

UR1 = (":0600:89:+5.+2..896+71..7..+4+5+2.675..3+8+121+3+6+578+4+9+6+5489+1+2+737....4+6+15+8219...+34+3.+6"
       "....+9+8..+5.+8+3.26::822 922:")


def test_uniqueness_needs_a_unique_state() -> None:
    st = hodoku_state(UR1)
    assert find_step(st, "uniqueness_1") is not None  # counted: one solution
    assert find_step(st, "uniqueness_1", unique=False) is None
    # the same rectangle in a state with more than one solution (rows 1 and 9 emptied)
    loose = Candidates.from_grid(tuple(0 if i < 9 or i >= 72 else v for i, v in enumerate(st.values)))
    assert count_state_solutions(loose, 2) == 2
    assert find_step(loose, "uniqueness_1", unique=True) is not None  # the pattern is there ...
    assert find_step(loose, "uniqueness_1") is None  # ... but the count says the puzzle is not unique


def test_multi_solution_puzzles_never_use_uniqueness() -> None:
    multi = [p for p, c, _ in tdoku_rows() if c > 1][:6]
    for p in multi:
        res = solve_logically(p)
        assert res.solved
        assert not {s.technique for s in res.steps} & UNIQUENESS


def test_variants_never_use_uniqueness() -> None:
    from pipeline.board import Variant

    st = hodoku_state(UR1)
    xst = Candidates(9, list(st.values), list(st.cand), Variant(kinds=("x",)))
    assert find_step(xst, "uniqueness_1", unique=True) is None


# ---------------------------------------------------------------------------------------------
# Unchanged paths; no trial and error where logic suffices
# ---------------------------------------------------------------------------------------------


def test_paths_without_trial_and_error_are_unchanged() -> None:
    """A puzzle that the techniques up to the XY-chain solve takes exactly that path, so its grade
    is the one it had before the later rows existed."""
    checked = 0
    for puzzle, _solution in generated(9, 20):
        before = solve_logically(puzzle, max_technique="xy_chain", compiled=False)
        if before.solved:
            checked += 1
            assert solve_logically(puzzle, compiled=False).steps == before.steps
    assert checked >= 10


@cache
def hard_rows() -> list[tuple[Grid, Grid]]:
    """tdoku's unique puzzles (with their solutions) that the techniques up to xy_chain do not solve."""
    rows = [(p, s) for p, c, s in tdoku_rows() if c == 1 and s is not None]
    return [(p, s) for p, s in rows if not solve_logically(p, max_technique="xy_chain").solved]


@pytest.mark.parametrize("k", [0, 1, 2])
def test_hard_puzzles_are_solved_soundly_with_the_new_rows(k: int) -> None:
    puzzle, solution = hard_rows()[k]
    res = solve_logically(puzzle, compiled=False)
    assert res.solved and res.grid == solution
    for step in res.steps:
        assert all(solution[i] != d for i, d in step.eliminations), step
        assert all(solution[i] == d for i, d in step.placements), step


def test_top95_needs_no_guessing() -> None:
    """Norvig's 95 hard puzzles: every one is finished by logic (the forcing nets at worst)."""
    from tests.golden import TOP95

    puzzles: list[Grid] = [parse(p) for p in TOP95[:30]]
    for p in puzzles:
        g = grade(p, compiled=True)
        assert g.guesses == 0 and "trial_and_error" not in g.techniques


# ---------------------------------------------------------------------------------------------
# The compiled twin of the loop search
# ---------------------------------------------------------------------------------------------


def _path_states(puzzle: Grid, variant: Variant | None = None) -> list[Candidates]:
    """The states of the pure-Python solve path at which a technique past the singles was taken."""
    res = solve_logically(puzzle, compiled=False, variant=variant)
    st = Candidates.from_grid(puzzle, variant=variant)
    out = []
    for step in res.steps:
        if step.technique not in ("naked_single", "hidden_single"):
            out.append(st.copy())
        st.apply(step)
    return out


@pytest.mark.deep
@pytest.mark.parametrize("share", [pytest.param(4, marks=pytest.mark.heavy), pytest.param(1, marks=pytest.mark.system)])
def test_compiled_loop_search_agrees_with_python(share: int) -> None:
    """Every ``share``-th state along the paths of the hard tdoku puzzles and top95's first six (a
    quarter in make test, all in the system tier), and HoDoKu's loop examples."""
    from pipeline.difficulty.chains.loops import _loops
    from tests.golden import TOP95

    puzzles = [p for p, _ in hard_rows()]
    puzzles += [parse(p) for p in TOP95[:6]]
    states = [st for p in puzzles for st in _path_states(p)][::share]
    states += [hodoku_state(x) for x in (AIC101, AIC202, FCV03, UR1)]
    found = 0
    for st in states:
        for want in ("discontinuous_nice_loop", "aic"):
            py, jit = _Ctx(st), _Ctx(st)
            jit.cache["jit"] = True
            assert _loops(st, py, want) == _loops(st, jit, want)
            assert py.cache["loops_done"] == jit.cache["loops_done"]
            found += any(v is not None for v in _loops(st, py, want).values())
    assert len(states) > 100 // share and found > 20 // share


# ---------------------------------------------------------------------------------------------
# The compiled twins of the forcing chains and nets, and the loop search on 16x16
# ---------------------------------------------------------------------------------------------

#: A rot180 orbit-minimal 16x16 puzzle (configs/giant-16x16.yaml, index 1): graded extreme, its path
#: full of nice loops, forcing chains and forcing nets.
GIANT16 = ("B.1..452E9.......6..D.EF...75..8.2..BG....D...6.5.....9.1.B.2E...3.6..A..G.1D2.4.48.G....F..A..B......"
           "79A.3....62.B.6D..C.....89AB.....6..CF.3.E6....3.EG7......E..3..C....9.BF.8.5F4.D..2..C.A...2G.8.4.B....."
           "3.5...F....9C..1.C..9E...71.G..4.......17462..F.A")


def _late_states(puzzle: Grid, every: int) -> list[Candidates]:
    """Every ``every``-th state of the compiled solve path at which the singles are stuck."""
    res = solve_logically(puzzle, compiled=True, unique=True)
    st = Candidates.from_grid(puzzle)
    out = []
    for step in res.steps:
        if step.technique not in ("naked_single", "hidden_single"):
            out.append(st.copy())
        st.apply(step)
    return out[::every]


def _counted(monkeypatch: pytest.MonkeyPatch, name: str) -> dict[str, int]:
    """Count the calls of ``loops_jit.<name>`` (so a test knows the compiled side really ran)."""
    from pipeline.difficulty.chains import loops_jit

    calls = {"n": 0}
    f = getattr(loops_jit, name)

    def counted(*args: object) -> object:
        calls["n"] += 1
        return f(*args)

    monkeypatch.setattr(loops_jit, name, counted)
    return calls


def test_compiled_forcing_chains_and_nets_agree_with_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled forcing chain and net give the very step the Python finders give (or both none),
    on 9x9 states and on 16x16 states, where the kernels serve from the first solve."""
    from pipeline.difficulty.chains.loops import _forcing_chain, _forcing_net
    from tests.golden import TOP95

    states = [st for p in TOP95[:4] for st in _path_states(parse(p))]
    states += [hodoku_state(x) for x in (AIC101, AIC202, FCV03, UR1)]
    states += _late_states(parse(GIANT16), 6)
    chain_calls, net_calls = _counted(monkeypatch, "forcing_chain"), _counted(monkeypatch, "forcing_net")
    found: dict[str, int] = {}
    for st in states:
        for finder in (_forcing_chain, _forcing_net):
            py, jit = _Ctx(st), _Ctx(st)
            jit.cache["jit"] = True
            step = finder(st, py)
            assert step == finder(st, jit), (finder.__name__, st.n)
            if step is not None:
                kind = step.detail.split(":")[0]
                found[f"{step.technique} {kind} {st.n}"] = found.get(f"{step.technique} {kind} {st.n}", 0) + 1
    assert any(st.n == 16 for st in states)
    assert (chain_calls["n"], net_calls["n"]) == (len(states), len(states))  # the compiled side answered each
    # both engines had something to find: contradictions and verities of both rows, on both sizes
    assert {"forcing_chain contradiction 9", "forcing_net contradiction 9", "forcing_chain contradiction 16",
            "forcing_net contradiction 16"} <= found.keys(), found
    assert any(k.startswith("forcing_chain verity") for k in found), found


def test_compiled_loop_search_agrees_with_python_on_16x16(monkeypatch: pytest.MonkeyPatch) -> None:
    from pipeline.difficulty.chains.loops import _loops

    states = _late_states(parse(GIANT16), 5)
    calls = _counted(monkeypatch, "search")
    found = 0
    for st in states:
        for want in ("discontinuous_nice_loop", "aic"):
            py, jit = _Ctx(st), _Ctx(st)
            jit.cache["jit"] = True
            assert _loops(st, py, want) == _loops(st, jit, want)
            assert py.cache["loops_done"] == jit.cache["loops_done"]
            found += any(v is not None for v in _loops(st, py, want).values())
    assert len(states) > 10 and found > 5
    assert calls["n"] >= len(states)  # the compiled search ran on 16x16


def test_16x16_grades_take_the_kernels_from_the_first_solve(monkeypatch: pytest.MonkeyPatch) -> None:
    """``compiled=None`` on a 16x16 board uses the kernels even in a one-shot process (a pure-Python solve
    of a hard 16x16 puzzle costs more than loading them); a 9x9 board there runs pure Python."""
    from pipeline import compiled
    from pipeline.difficulty import logic

    monkeypatch.delenv(compiled.ENV, raising=False)
    monkeypatch.setattr(compiled, "_one_shot", True)
    assert logic._use_kernels(None, 16) and not logic._use_kernels(None, 9)
    assert logic._use_kernels(True, 9) and not logic._use_kernels(False, 16)
