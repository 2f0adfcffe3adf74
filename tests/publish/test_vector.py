"""Vector PDFs for layout programs: one page the grid's size, K only (DeviceGray operators, read
from the page's content), fonts embedded, every given drawn; the data-merge CSV beside them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from pypdf import PdfReader

from pipeline.publish import select
from pipeline.publish.export import export, parse_size
from pipeline.publish.select import PublishError
from pipeline.publish.vector import GrayCanvas
from pipeline.run.rows import SCHEMA
from tests.conftest import numplace
from tests.publish.test_select import MIX, fake_row, write_set

#: PDF colour operators: DeviceGray (g, G) is K only; anything else (RGB, CMYK, colour spaces) is not.
COLOUR_OPS = re.compile(r"(?<![\w/.])(g|G|rg|RG|k|K|cs|CS|sc|SC|scn|SCN)(?=\s)")


@pytest.fixture
def rows(tmp_path: Path) -> pl.DataFrame:
    a = write_set(tmp_path / "out", "classic", MIX[:3])
    b = write_set(tmp_path / "out", "giant", ["hard"], size=16)
    cages = [{"cells": [0, 1], "sum": 9}, {"cells": [40, 41, 49], "sum": 12}]
    killer = fake_row("killer", 0, "hard") | {"variant": ["killer", "x"], "difficulty_rank": 3, "cages": cages}
    frame = pl.concat([select.read_sets([a, b]).frame, pl.DataFrame([killer], schema=SCHEMA)], how="vertical_relaxed")
    assert frame.height == 5
    return frame


def _ops(path: Path) -> tuple[Any, str]:
    page = PdfReader(str(path)).pages[0]
    return page, page.get_contents().get_data().decode("latin-1")


def test_one_k_only_vector_pdf_per_puzzle_and_solution(tmp_path: Path, rows: pl.DataFrame) -> None:
    written = export(rows, "pdf", tmp_path / "pdf", size=parse_size("50mm"))
    assert (written.files, written.puzzles) == (11, 5)
    side = 50 * 72 / 25.4
    for r in rows.iter_rows(named=True):
        for answer in (False, True):
            path = tmp_path / "pdf" / f"{r['puzzle_id']}{'-solution' if answer else ''}.pdf"
            page, ops = _ops(path)
            assert [round(float(v), 2) for v in page.mediabox] == [0, 0, round(side, 2), round(side, 2)]
            colours = {m.group(1) for m in COLOUR_OPS.finditer(ops)}
            assert colours and colours <= {"g", "G"}, (path.name, colours)  # K only
            assert " re" in ops or " l S" in ops  # vectors: rules are paths, no image
            assert "Do" not in ops.split()  # no placed image
            fonts = page["/Resources"]["/Font"]
            for font in fonts.values():
                font = font.get_object()
                assert font["/Subtype"] == "/TrueType" and "/FontFile2" in font["/FontDescriptor"].get_object()
            text = "".join(page.extract_text().split())
            want = r["solution"] if answer else r["puzzle"].replace(".", "")
            killer_sums = "".join(str(c["sum"]) for c in r["cages"] or [])
            assert sorted(text) == sorted(want + killer_sums), path.name  # every symbol drawn, as text


def test_the_data_merge_csv(tmp_path: Path, rows: pl.DataFrame) -> None:
    export(rows, "pdf", tmp_path / "pdf")
    merge = pl.read_csv(tmp_path / "pdf" / "merge.csv", infer_schema=False)
    assert merge.columns == ["puzzle_id", "set_name", "index", "level", "score", "hints", "size", "@puzzle_image",
                             "@solution_image"]
    assert merge["puzzle_id"].to_list() == rows["puzzle_id"].to_list()
    assert merge["level"].to_list() == rows["difficulty"].to_list()
    assert [int(h) for h in merge["hints"]] == rows["hints"].to_list()
    for r in merge.iter_rows(named=True):
        for key, suffix in (("@puzzle_image", ".pdf"), ("@solution_image", "-solution.pdf")):
            path = Path(r[key])
            assert path.is_absolute() and path.is_file() and path.name == f"{r['puzzle_id']}{suffix}"
    page = PdfReader(str(tmp_path / "pdf" / f"{rows['puzzle_id'][0]}.pdf")).pages[0]
    assert round(float(page.mediabox[2]), 1) == round(60 * 72 / 25.4, 1)  # 60 mm by default


def test_a_colour_cannot_reach_the_page() -> None:
    class Recorder:
        def __init__(self) -> None:
            self.calls: list[tuple[str, float]] = []

        def setFillGray(self, v: float) -> None:
            self.calls.append(("g", v))

        def setStrokeGray(self, v: float) -> None:
            self.calls.append(("G", v))

    rec = Recorder()
    gray = GrayCanvas(rec)
    gray.setFillColorRGB(0.5, 0.5, 0.5)
    gray.setStrokeColorRGB(0, 0, 0)
    assert rec.calls == [("g", 0.5), ("G", 0.0)]
    with pytest.raises(ValueError, match="K only"):
        gray.setFillColorRGB(1, 0, 0)


def test_pdf_flags_are_refused_where_they_mean_nothing(tmp_path: Path, rows: pl.DataFrame) -> None:
    with pytest.raises(PublishError, match="--dpi: a vector PDF has no pixels"):
        export(rows, "pdf", tmp_path / "p", size=parse_size(None, 300))
    with pytest.raises(PublishError, match="pdf export writes one file per puzzle; give a folder"):
        export(rows, "pdf", tmp_path / "x.pdf")
    assert not (tmp_path / "p").exists()


@pytest.mark.heavy
def test_cli_pdf_export(tmp_path: Path) -> None:
    a = write_set(tmp_path / "out", "classic", MIX[:2])
    res = numplace("export", str(a), "--format", "pdf", "--out", str(tmp_path / "pdf"), "--size", "2in")
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == f"wrote 2 puzzles as pdf to {tmp_path / 'pdf'} (5 file(s))"
