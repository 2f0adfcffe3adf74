"""A grade's techniques and solving steps in the studio's language (Japanese or English).

Contracts
---------
* :func:`title` names a technique of :data:`pipeline.difficulty.techniques.TECHNIQUES`: its table
  title in English (``X-Wing``), the name Japanese solvers use in Japanese (``Xウィング``;
  katakana for the names that came to Japan from English, as Japanese puzzle sites print them). Every
  technique has both (a test checks it); a name the table does not know is returned as it is.
* :func:`step_line` is one step of a path: in English exactly ``numplace rate --explain``'s line
  (:func:`pipeline.difficulty.grade.explain_step`); in Japanese the technique's Japanese name and
  what the step does (``ステップ 3: ネイキッドシングル — r1c1 に 5 を入れる``; ``候補 7 を r5c3, r9c6
  から消す``). The Japanese line leaves out the English words that describe the pattern: the page marks
  the pattern's cells on the grid. Cells keep the ``r5c3`` names of the English line.
"""

from __future__ import annotations

from pipeline.difficulty.candidates import Step
from pipeline.difficulty.grade import cell_name, digit_name, explain_step
from pipeline.difficulty.techniques import JA_TITLES, TITLES
from pipeline.studio.words import Lang

#: Japanese names of the techniques, by table name (the technique registry's ``ja``).
JA: dict[str, str] = JA_TITLES


def title(technique: str, lang: Lang = "en") -> str:
    """The name of ``technique`` in ``lang`` (see the module contract)."""
    table = JA if lang == "ja" else TITLES
    return table.get(technique, technique)


def step_line(step: Step, n: int, number: int, lang: Lang = "en") -> str:
    """Step ``number`` of a path in ``lang`` (see the module contract)."""
    if lang != "ja":
        return explain_step(step, n, number)
    parts = [f"{cell_name(i, n)} に {digit_name(d)} を入れる" for i, d in step.placements]
    by_digit: dict[int, list[int]] = {}
    for i, d in step.eliminations:
        by_digit.setdefault(d, []).append(i)
    parts += [f"候補 {digit_name(d)} を {', '.join(cell_name(i, n) for i in sorted(cells))} から消す"
              for d, cells in sorted(by_digit.items())]
    return f"ステップ {number}: {title(step.technique, 'ja')} — {'、'.join(parts)}"
