"""docs/difficulty.md's "Adding a technique" walk, kept true: a toy technique registered as one registry row
(and a rulebook of its own version, as a new row's ``since`` asks) is solved by the grading driver, weighed
and levelled by its row, and named by its row in ``rate --explain``, the studio's path text (English and
Japanese), a workbook chapter and the report, with nothing else written anywhere."""

from __future__ import annotations

import dataclasses
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from pipeline.board import parse
from pipeline.difficulty import grade as grade_module
from pipeline.difficulty import logic, techniques
from pipeline.difficulty.basic import intersections
from pipeline.difficulty.grade import explain_step, grade
from pipeline.difficulty.techniques import GRADER_VERSION, RULEBOOKS, TECHNIQUES, Technique
from pipeline.publish import report, workbook_text
from pipeline.studio import steps

#: A hard puzzle whose path takes the pointing step (``numplace generate --count 12 --seed 3``'s fifth).
PUZZLE = ".5614...2..9......7...863...7..9..4.83.....95.9..1..2...365...4......2..9...2351."
TOY = Technique("toy_pointing", "Toy Pointing", "おもちゃのポインティング", "medium", 33, "", None,
                "toy_family:toy_pointing", since=GRADER_VERSION + 1)


def toy_pointing(st, ctx):  # type: ignore[no-untyped-def]
    """The toy's finder, in its own module of a family (here made in memory): pointing, renamed."""
    step = intersections.pointing(st, ctx)
    return None if step is None else dataclasses.replace(step, technique=TOY.name)


@contextmanager
def registered(row: Technique, before: str) -> Iterator[int]:
    """``row`` in the registry (just before ``before``) and the rulebook of its version, as if written in
    techniques.py; every table the registry derives from its rows follows. Undone on exit."""
    module = types.ModuleType("pipeline.difficulty.toy_family")
    module.toy_pointing = toy_pointing  # type: ignore[attr-defined]
    sys.modules[module.__name__] = module
    saved = dict(TECHNIQUES)
    saved_order = (techniques.TECHNIQUE_ORDER, grade_module.TECHNIQUE_ORDER)
    try:
        TECHNIQUES.clear()
        for name, t in saved.items():
            if name == before:
                TECHNIQUES[row.name] = row
            TECHNIQUES[name] = t
        techniques.TITLES[row.name], techniques.JA_TITLES[row.name] = row.title, row.ja
        RULEBOOKS[row.since] = techniques._book(row.since, techniques._order(row.since), "the toy row")
        techniques.ORDERS[row.since] = RULEBOOKS[row.since].order
        techniques.TECHNIQUE_ORDER = grade_module.TECHNIQUE_ORDER = tuple(TECHNIQUES)
        logic.finders_of.cache_clear()
        yield row.since
    finally:
        TECHNIQUES.clear()
        TECHNIQUES.update(saved)
        for table in (techniques.TITLES, techniques.JA_TITLES):
            table.pop(row.name, None)
        RULEBOOKS.pop(row.since, None)
        techniques.ORDERS.pop(row.since, None)
        techniques.TECHNIQUE_ORDER, grade_module.TECHNIQUE_ORDER = saved_order
        logic.finders_of.cache_clear()
        del sys.modules[module.__name__]


def test_a_new_row_is_graded_explained_and_titled_from_the_row_alone() -> None:
    puzzle = parse(PUZZLE)
    before = grade(puzzle, compiled=False)
    assert "pointing" in before.techniques
    with registered(TOY, before="pointing") as version:
        assert RULEBOOKS[GRADER_VERSION].order == techniques._order(GRADER_VERSION)  # the held rules stay
        assert TOY.name not in RULEBOOKS[GRADER_VERSION].order
        g = grade(puzzle, compiled=False, grader=version)
        assert TOY.name in g.techniques and "pointing" not in g.techniques
        toy_steps = [s for s in g.steps if s.technique == TOY.name]
        assert g.score == sum(TECHNIQUES[s.technique].weight for s in g.steps)
        assert g.score == before.score - len(toy_steps) * (50 - 33)  # the row's weight, instead of pointing's
        k = g.steps.index(toy_steps[0])
        assert "Toy Pointing" in explain_step(toy_steps[0], 9, k + 1)  # rate --explain
        assert "Toy Pointing" in steps.step_line(toy_steps[0], 9, k + 1, "en")
        assert "おもちゃのポインティング" in steps.step_line(toy_steps[0], 9, k + 1, "ja")  # the studio's path
        assert workbook_text.lesson(TOY.name, "ja")[0] == "おもちゃのポインティング"  # a workbook chapter
        assert workbook_text.lesson(TOY.name, "en")[0] == "Toy Pointing"
        assert report.technique_title(TOY.name) == "Toy Pointing"
        assert grade(puzzle, compiled=False).techniques == before.techniques  # grader 6 is unchanged
    assert TOY.name not in TECHNIQUES and max(RULEBOOKS) == GRADER_VERSION


def test_the_toy_leaves_no_trace() -> None:
    with pytest.raises(KeyError):
        TECHNIQUES[TOY.name]
    assert "pipeline.difficulty.toy_family" not in sys.modules
