# ruff: noqa: RUF001, RUF002  (Japanese text: full-width punctuation)
"""A workbook puzzle's key step: finding it on the grade's path, the state just before it, drawing
it, and saying it in words (English or Japanese).

Contracts
---------
* :func:`key_step` is the first step of the chapter's technique on the path
  (:func:`pipeline.generate.technique.key_step`'s rule); the grid and candidates are the state just
  before it, replayed from the givens along the path (placements remove their digit from the peers),
  and checked against the step (what it removes is still a candidate then).
* :func:`draw_step` draws that state: pattern cells shaded, the candidates the pattern uses bold,
  the candidates it removes struck through with one thin diagonal line (the digit stays readable),
  grey levels only. Candidates are :data:`CAND_RATIO` of a cell, so a grid of side
  :data:`MIN_KEY_SIDE` or more prints no candidate under :data:`MIN_TEXT` (5 pt); the layouts that
  call it never draw a smaller one.
* Words: cells are named ``rNcM`` (row N, column M, both from 1) in both languages; the step's number
  is its place on the solving path (``step 36`` / ``36手目``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pipeline.board import parse
from pipeline.difficulty.candidates import Step
from pipeline.difficulty.grade import cell_name, explain_step, grade
from pipeline.publish import workbook_text as text
from pipeline.publish.book_config import BookConfig
from pipeline.publish.pages import SYMBOL, SYMBOL_BOLD, fill, stroke
from pipeline.publish.select import PublishError

N = 9
SHADE_PATTERN = 0.82  # grey of a pattern cell (0 black .. 1 white)
SHADE_TARGET = 0.93  # grey of a cell that loses a candidate
GREY_PLACED = 0.36  # digits placed on the way (not given)
GREY_OTHER = 0.55  # candidates the step does not use
GREY_GONE = 0.3  # a candidate the step removes (struck through)
#: The least size of any text a workbook prints, in points (the docs' promise).
MIN_TEXT = 5.0
#: A candidate's size as a fraction of the cell (they sit on a 3 x 3 grid of 0.3 cells).
CAND_RATIO = 0.3
#: The least side of a key-step grid: its candidates are then MIN_TEXT or more.
MIN_KEY_SIDE = N * MIN_TEXT / CAND_RATIO
#: Fish, whose pattern is named by its rows and columns in Japanese.
_FISH = ("x_wing", "swordfish", "jellyfish")


@dataclass(frozen=True)
class KeyStep:
    """A puzzle's key step: its index on the path, the step, and the state before it (``values``:
    givens and digits placed, 0 for open; ``cands``: each open cell's candidates)."""

    index: int
    step: Step
    values: tuple[int, ...]
    cands: tuple[frozenset[int], ...]
    given: tuple[bool, ...]

    @property
    def number(self) -> int:
        """The step's place on the solving path, from 1."""
        return self.index + 1


def _peers() -> list[frozenset[int]]:
    out = []
    for i in range(N * N):
        r, c = divmod(i, N)
        br, bc = r - r % 3, c - c % 3
        ps = {r * N + k for k in range(N)} | {k * N + c for k in range(N)}
        ps |= {(br + a) * N + bc + b for a in range(3) for b in range(3)}
        ps.discard(i)
        out.append(frozenset(ps))
    return out


_PEERS = _peers()


def key_step(row: dict[str, Any], name: str) -> KeyStep:
    """The key step of technique ``name`` in the row's path and the state before it; raises
    :class:`PublishError` when the path has no such step (the row was not made for ``name``)."""
    puzzle, solution = parse(row["puzzle"], N), parse(row["solution"], N)
    g = grade(puzzle, solution, unique=True)
    k = next((j for j, s in enumerate(g.steps) if s.technique == name), None)
    if k is None:
        raise PublishError(f"{row['puzzle_id']}: its path has no {name} step (numplace check re-proves the "
                           "technique column)")
    values = list(puzzle)
    cands = [set() if v else set(range(1, N + 1)) for v in values]
    for i, v in enumerate(values):
        if v:
            for p in _PEERS[i]:
                cands[p].discard(v)
    for s in g.steps[:k]:
        for i, d in s.placements:
            values[i] = d
            cands[i] = set()
            for p in _PEERS[i]:
                cands[p].discard(d)
        for i, d in s.eliminations:
            cands[i].discard(d)
    step = g.steps[k]
    if any(d not in cands[i] for i, d in step.eliminations):  # the replay must be the solver's state
        raise PublishError(f"{row['puzzle_id']}: the replayed candidates disagree with the path's key step")
    return KeyStep(k, step, tuple(values), tuple(frozenset(c) for c in cands), tuple(bool(v) for v in puzzle))


def _cells_and_rules(canv: Any, cfg: BookConfig, ks: KeyStep, x: float, y_top: float, side: float) -> None:
    """The shaded pattern and target cells, then the grid's rules."""
    cell = side / N
    targets = {i for i, _ in ks.step.eliminations}
    for i in range(N * N):
        shade = SHADE_PATTERN if i in ks.step.cells else SHADE_TARGET if i in targets else None
        if shade is not None:
            r, c = divmod(i, N)
            fill(canv, cfg, shade)
            canv.rect(x + c * cell, y_top - (r + 1) * cell, cell, cell, stroke=0, fill=1)
    stroke(canv, cfg, 0.0)
    thin, thick = max(0.3, side / 600), max(0.9, side / 200)
    for k in range(N + 1):
        canv.setLineWidth(thick if k % 3 == 0 else thin)
        canv.line(x + k * cell, y_top, x + k * cell, y_top - side)
        canv.line(x, y_top - k * cell, x + side, y_top - k * cell)


def draw_step(canv: Any, cfg: BookConfig, ks: KeyStep, x: float, y_top: float, side: float, cap: float,
              small: bool = False) -> None:
    """The grid of ``ks`` (the state before the key step) with its pattern: shaded pattern cells, bold
    candidates of the pattern, eliminations struck through; ``small`` leaves out the candidates the
    step does not use. Candidates are ``CAND_RATIO`` of a cell (module contracts)."""
    cell = side / N
    pattern, gone, digits = set(ks.step.cells), set(ks.step.eliminations), set(ks.step.digits)
    canv.saveState()
    _cells_and_rules(canv, cfg, ks, x, y_top, side)
    big = cell * 0.62
    for i, v in enumerate(ks.values):
        if v:
            r, c = divmod(i, N)
            canv.setFont(SYMBOL_BOLD if ks.given[i] else SYMBOL, big)
            fill(canv, cfg, 0.0 if ks.given[i] else GREY_PLACED)
            canv.drawCentredString(x + (c + 0.5) * cell, y_top - (r + 0.5) * cell - cap * big / 2, str(v))
    tiny = cell * CAND_RATIO
    for i, cs in enumerate(ks.cands):
        r, c = divmod(i, N)
        for d in sorted(cs):
            used = i in pattern and (d in digits or not digits)
            struck = (i, d) in gone
            if small and not (used or struck):
                continue
            cx = x + (c + 0.2 + 0.3 * ((d - 1) % 3)) * cell
            cy = y_top - (r + 0.2 + 0.3 * ((d - 1) // 3)) * cell
            canv.setFont(SYMBOL_BOLD if used or struck else SYMBOL, tiny)
            fill(canv, cfg, 0.0 if used or struck else GREY_OTHER)
            canv.drawCentredString(cx, cy - cap * tiny / 2, str(d))
            if struck:  # one thin stroke through the digit, lower left to upper right
                stroke(canv, cfg, GREY_GONE)
                canv.setLineWidth(max(0.3, cell / 70))
                h = tiny * 0.5
                canv.line(cx - h, cy - h, cx + h, cy + h)
    canv.restoreState()


def _ja_where(step: Step) -> str:
    """Where the pattern is, in Japanese: a fish by its rows and columns, anything else by its cells."""
    ds = "・".join(str(d) for d in step.digits)
    half = len(step.units) // 2
    if step.technique in _FISH and half and all(u < 2 * N for u in step.units):  # base lines, then cover lines
        where = "と".join(_ja_lines(step.units[:half] if k == 0 else step.units[half:]) for k in (0, 1))
        return f"{ds}の候補、{where}" if ds else where
    cells = "・".join(cell_name(i, N) for i in sorted(step.cells))
    return f"{ds}の候補、{cells}" if ds else cells


def _ja_lines(units: tuple[int, ...]) -> str:
    """Rows or columns (unit indices: rows 0..8, columns 9..17) in Japanese: ``3・9行目``, ``1・5列目``."""
    word = "行目" if units[0] < N else "列目"
    return "・".join(str(u % N + 1) for u in sorted(units)) + word


def step_words(ks: KeyStep, lang: str) -> str:
    """The key step in words: English, the grader's own line (``Step 36: X-Wing on 4 in rows 3 and 9,
    columns 3 and 8 — removes 4 from r5c1``); Japanese, its number, title, where the pattern is and
    what it does."""
    if lang == "en":
        return explain_step(ks.step, N, ks.number)
    title, _ = text.lesson(ks.step.technique, "ja")
    return f"{ks.number}手目：{title}（{_ja_where(ks.step)}）　{effect_words(ks, 'ja')}"


def effect_words(ks: KeyStep, lang: str) -> str:
    """What the key step removes or places, as a sentence in ``lang``."""
    return text.removes(lang, [(cell_name(i, N), d) for i, d in ks.step.eliminations],
                        [(cell_name(i, N), d) for i, d in ks.step.placements])


def key_line(ks: KeyStep, lang: str, title: str) -> str:
    """An answer's key-step line: ``Key step: X-Wing (step 33 of the path)`` / ``鍵の一手：Xウィング（33手目）``."""
    key = text.PHRASES[lang]["key"]
    if lang == "ja":
        return f"{key}：{title}（{ks.number}手目）"
    return f"{key}: {title} (step {ks.number} of the path)"
