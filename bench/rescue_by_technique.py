#!/usr/bin/env python3
"""Which of the rows after the XY-chain rescue the puzzles that needed trial and error: each family
alone (the rows up to the XY-chain, that family, then trial and error), and all of them.

Input: JSON lines from ``numplace generate --format json``; only the rows whose ``techniques`` hold
``trial_and_error`` (as graded when they were made) are solved again. Pure-Python solver, so the
counts do not depend on the compiled twins.

    python bench/rescue_by_technique.py /tmp/graded.jsonl
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from pipeline.board import parse
from pipeline.difficulty import logic
from pipeline.difficulty.techniques import TECHNIQUE_ORDER
from pipeline.difficulty.trial import _Guesser

FAMILIES: dict[str, tuple[str, ...]] = {
    "uniqueness (BUG+1, tests 1-4 and 6, hidden rectangle)": (
        "bug_plus_1", "uniqueness_1", "uniqueness_2", "uniqueness_3", "uniqueness_4", "uniqueness_6",
        "hidden_rectangle"),
    "nice loops and AICs": ("discontinuous_nice_loop", "aic"),
    "forcing chains": ("forcing_chain",),
    "forcing nets": ("forcing_net",),
}


def needs_guessing(puzzle: tuple[int, ...], solution: tuple[int, ...], extra: tuple[str, ...]) -> bool:
    """Solve with the rows up to the XY-chain, then ``extra``, then trial and error."""
    names = [*TECHNIQUE_ORDER[: TECHNIQUE_ORDER.index("xy_chain") + 1], *extra]
    st = logic.Candidates.from_grid(puzzle)
    finders = logic._finder_list(names, _Guesser(), logic._unique_for(st, None))
    guess = _Guesser(solution, st.n, st.geo)
    while not st.is_solved():
        step = logic._next(st, finders)
        if step is None:
            step = guess(st, logic._Ctx(st))
            assert step is not None
            return True
        st.apply(step)
    return False


def main() -> None:
    rows = [json.loads(x) for x in Path(sys.argv[1]).read_text(encoding="utf-8").splitlines() if x.strip()]
    hard = [(parse(r["puzzle"]), parse(r["solution"])) for r in rows if "trial_and_error" in r["techniques"]]
    print(f"# {len(hard)} of {len(rows)} puzzles of {sys.argv[1]} needed trial and error when made")
    print("| rows added after the XY-chain | still need trial and error | rescued | seconds |")
    print("|---|---|---|---|")
    every = tuple(t for fam in FAMILIES.values() for t in fam)
    for name, extra in [*FAMILIES.items(), ("all of them, in table order", every)]:
        t0 = time.perf_counter()
        left = sum(needs_guessing(p, s, extra) for p, s in hard)
        print(f"| {name} | {left} | {len(hard) - left} | {time.perf_counter() - t0:.1f} |")


if __name__ == "__main__":
    main()
