"""How tests/data/golden_small.txt was made (kept for provenance; the tests do not run it).

Puzzles for 4x4, 6x6 and 16x16 come from numplace's generator and from cutting more givens out of
them; each expected count is the *independent* bitmask counter's (pipeline.verify), capped at 1000,
and was cross-checked against the ILP engine when the file was written. The empty 4x4 board has
288 grids, a published fact, not a computation of ours.
Run: python tests/data/make_golden.py > tests/data/golden_small.txt
"""

from __future__ import annotations

import numpy as np

from pipeline import verify
from pipeline.board import board, format_line
from pipeline.generate.puzzle import make_puzzle
from pipeline.generate.spec import Spec
from pipeline.ilp import engine


def main() -> None:
    lines = ["# puzzle:count[:solution]  (sizes 4, 6, 16; see make_golden.py)"]
    for n, per in ((4, 4), (6, 4), (16, 1)):
        b = board(n)
        spec = Spec(size=n, symmetry="none" if n < 16 else "rot180", minimal=True)
        for k in range(per):
            made = make_puzzle(spec, 1000 + k)
            p, s = made.puzzle, made.solution
            cases = [p]
            rng = np.random.default_rng(k)
            given = [i for i, d in enumerate(p) if d]  # type: ignore[arg-type]
            # cut givens until the count is "several" (2..999)
            for size in range(2, 12):
                order = rng.permutation(given)[: size if n == 16 else max(size, len(given) // 6)]
                cut = tuple(0 if i in set(order.tolist()) else d for i, d in enumerate(p))  # type: ignore[arg-type]
                if 1 < verify.independent_count(cut, b, limit=1000) < 1000:
                    cases.append(cut)
                    break
            # a blank cell given a digit that its row already holds: contradictory, 0 solutions
            bad = list(p)  # type: ignore[arg-type]
            j = next(i for i, d in enumerate(bad) if d == 0 and any(bad[k] for k in b.rows[i // n]))
            bad[j] = next(bad[k] for k in b.rows[j // n] if bad[k])
            cases.append(tuple(bad))
            for case in cases:
                c = verify.independent_count(case, b, limit=1000)
                if c >= 1000:
                    continue  # too many to state exactly
                cap = min(c + 1, 60)
                e = engine.engine_for(n).certified_count(case, limit=cap)
                assert e.count == min(c, cap), (format_line(case), c, e.count)
                sol = f":{format_line(s)}" if c == 1 and case == p else ""  # type: ignore[arg-type]
                lines.append(f"{format_line(case)}:{c}{sol}")
    lines.append(f"{'.' * 16}:288")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
