"""A section of several variants is headed by the variants in it (issue 49 item 6): ``sections:
[{variant: [x, jigsaw]}]`` gives "Rules: X Sudoku and Jigsaw Sudoku" (対角線ナンプレとジグソーナンプレ) in the
contents and on the rules page, read back from the PDF; a puzzle that is both (jigsaw X) keeps its one
name."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from pipeline.publish import book
from pipeline.publish.labels import words
from tests.publish.test_render_variants import variant_row, write_variant_set


@pytest.fixture
def x_and_jigsaw(tmp_path: Path) -> Path:
    rows = [variant_row(k, i, hints=24) for i, k in enumerate(("x", "jigsaw", "x", "jigsaw"))]
    return write_variant_set(tmp_path / "out", "xj", rows)


@pytest.mark.parametrize(("lang", "heading"), [("en", "Rules: X Sudoku and Jigsaw Sudoku"),
                                                ("ja", "ルール\uff1a対角線ナンプレとジグソーナンプレ")])
def test_a_mixed_section_is_headed_by_its_variants(tmp_path: Path, x_and_jigsaw: Path, lang: str,
                                                   heading: str) -> None:
    cfg = book.validate_config({"sections": [{"variant": ["x", "jigsaw"]}], "lang": lang, "per_page": 2})
    out = tmp_path / f"{lang}.pdf"
    made = book.write_book(book.plan([x_and_jigsaw], cfg), cfg, out)
    rules = [p for p in made if p.kind == "rules"]
    assert [p.heading for p in rules] == [heading]
    reader = PdfReader(out)
    contents = "".join(reader.pages[1].extract_text().split())
    page = "".join(reader.pages[rules[0].number - 1].extract_text().split())
    for text in (contents, page):
        assert "".join(heading.split()) in text
        assert ("JigsawX" if lang == "en" else "ジグソー対角線") not in text


def test_variant_names_join_as_a_list() -> None:
    en, ja = words("en"), words("ja")
    assert en.variant_names([("x",), ("jigsaw",), ("killer",)]) == "X Sudoku, Jigsaw Sudoku and Killer Sudoku"
    assert en.variant_names([("jigsaw", "x")]) == "Jigsaw X Sudoku"  # one variant that is both
    assert ja.variant_names([("x",), ("hyper",), ("jigsaw",)]) == "対角線ナンプレ、ハイパーナンプレとジグソーナンプレ"
