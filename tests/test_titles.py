"""A technique is described once, in its registry row (:data:`pipeline.difficulty.techniques.TECHNIQUES`):
every title a reader sees comes from the row, in English and in Japanese, and no module keeps a table of
its own (docs/difficulty.md, "Adding a technique")."""

from __future__ import annotations

import ast
from pathlib import Path

import polars as pl
import pytest

from pipeline.config.technique import OFFERED
from pipeline.difficulty.grade import explain_step, grade
from pipeline.difficulty.techniques import TECHNIQUES
from pipeline.publish import report, workbook_text
from pipeline.studio import steps
from tests.conftest import ROOT

REGISTRY = ROOT / "pipeline" / "difficulty" / "techniques.py"


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name


def _string_tables(path: Path) -> list[str]:
    """The dict literals of ``path`` that map three or more technique names to strings (a title table),
    and the string constants that are a technique's title (a title written again)."""
    titles = {t.title for t in TECHNIQUES.values() if t.title != t.name} | {t.ja for t in TECHNIQUES.values()}
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Dict):
            keyed = [k.value for k, v in zip(node.keys, node.values, strict=True)
                     if isinstance(k, ast.Constant) and k.value in TECHNIQUES
                     and isinstance(v, ast.Constant) and isinstance(v.value, str)]
            if len(keyed) >= 3:
                found.append(f"{_rel(path)}:{node.lineno}: a table of {len(keyed)} technique strings")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in titles:
            found.append(f"{_rel(path)}:{node.lineno}: {node.value!r}")
    return found


def test_no_module_but_the_registry_writes_a_technique_title() -> None:
    found = [f for p in sorted((ROOT / "pipeline").rglob("*.py")) if p != REGISTRY for f in _string_tables(p)]
    assert found == []


def test_the_title_check_sees_a_table_and_a_title(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text('JA = {"naked_single": "a", "hidden_single": "b", "x_wing": "c"}\n'
                                   'T = "ヒドゥンシングル"\nU = ("hidden_single", "naked_single", "x_wing")\n',
                                   encoding="utf-8")
    found = _string_tables(tmp_path / "m.py")
    assert len(found) == 2 and "3 technique strings" in found[0] and "ヒドゥンシングル" in found[1]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_reader_facing_title_is_the_rows(lang: str) -> None:
    """The studio, the workbook's chapters and the report name every technique by its row."""
    row = {n: (t.ja if lang == "ja" else t.title) for n, t in TECHNIQUES.items()}
    assert {n: steps.title(n, lang) for n in TECHNIQUES} == row  # type: ignore[arg-type]
    assert {n: workbook_text.lesson(n, lang)[0] for n in OFFERED} == {n: row[n] for n in OFFERED}
    assert {n: report.technique_title(n) for n in TECHNIQUES} == {n: t.title for n, t in TECHNIQUES.items()}


def test_japanese_titles_are_japanese() -> None:
    """Every row has a Japanese title that is not its English one (but for the names Japanese solvers
    write in Latin letters: BUG+1, ALS-XZ) and holds no English word."""
    latin = {n for n, t in TECHNIQUES.items() if t.ja == t.title}
    assert latin <= {"bug_plus_1", "als_xz"}
    assert all(not any("a" <= ch <= "z" for ch in t.ja) for t in TECHNIQUES.values())


def test_rate_explain_and_the_report_chart_say_the_rows_title() -> None:
    g = grade(__import__("pipeline.board", fromlist=["parse"]).parse(
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"))
    for k, s in enumerate(g.steps[:40]):
        assert TECHNIQUES[s.technique].title in explain_step(s, 9, k + 1)
    frame = pl.DataFrame({"techniques": [["naked_single", "x_wing"], ["hidden_single"]]})
    from matplotlib.figure import Figure

    ax = Figure().subplots()
    report.plot_techniques(ax, frame)
    assert {t.get_text() for t in ax.get_yticklabels()} == {"Naked Single", "X-Wing", "Hidden Single"}


def _literals(path: Path) -> list[str]:
    """Tuples, lists and sets of ``path`` that spell the five level names (a list of the levels written
    again; a table *keyed* by level, of words or colours per level, is another fact), and tuples, lists,
    sets and dicts holding HoDoKu's four score limits."""
    from pipeline.difficulty.techniques import LEVELS, MAX_SCORE

    limits = {v for v in MAX_SCORE.values() if v != float("inf")}
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        seq = node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else None
        items = seq if seq is not None else [*node.values] if isinstance(node, ast.Dict) else None
        if items is None:
            continue
        consts = {e.value for e in items if isinstance(e, ast.Constant) and not isinstance(e.value, bool)}
        if (seq is not None and set(LEVELS) <= consts) or limits <= consts:
            found.append(f"{_rel(path)}:{node.lineno}")
    return found


def test_level_names_and_score_limits_are_written_once() -> None:
    """``LEVELS`` and ``MAX_SCORE`` are written in the registry only: the publisher, the book config and
    the benches import them."""
    files = [*sorted((ROOT / "pipeline").rglob("*.py")), *sorted((ROOT / "bench").glob("*.py"))]
    assert [f for p in files if p != REGISTRY for f in _literals(p)] == []
    assert len(_literals(REGISTRY)) == 2  # the check reads what it should
