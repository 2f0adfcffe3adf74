"""The studio's Sets page (``/sets``, ``/sets?set=NAME``) through Streamlit's headless ``AppTest``.

Two output roots, each made once per module: ``mix_root`` holds a synthetic set (rows written by the
publishing tests' :func:`~tests.publish.test_select.fake_row`, some of them X variants) for the
list, filters, paging and bad input; ``run_root`` holds a set made by ``numplace run`` (heavy) for
the check, the book and the proof that browsing writes nothing into the root.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import polars as pl
import pytest

pytest.importorskip("streamlit")

from streamlit.testing.v1 import AppTest

from pipeline.run.rows import SCHEMA
from pipeline.studio import background
from pipeline.studio.words import word
from tests.conftest import numplace, tiny
from tests.publish.test_select import MIX, fake_row

TIMEOUT = 300  # s per script run: a full check or a book on a machine shared with other jobs
X_ROWS = (1, 4, 7)  # rows of the mix set under the X variant (hard, extreme, hard)
MADE_FOR_X_WING = 1  # the mix set's row made for the technique target x_wing
HINTS = (24, 25, 26, 27, 28, 29, 30, 31, 32, 33)  # givens of the mix set's rows
CHECKING = {word("checking", "en"), word("checking", "ja")}  # the line while the quick check runs in the background


def _app() -> None:
    from pipeline.studio.views import sets

    sets.render()


def page(monkeypatch: pytest.MonkeyPatch, root: Path, **params: str) -> AppTest:
    """The Sets page over ``root`` with ``params`` in its URL, run once; viewed again (a new session)
    once the quick check it started in the background is done, as the page's own poll draws it again."""
    monkeypatch.setenv("NUMPLACE_STUDIO_ROOT", str(root))
    for _ in range(2):
        at = AppTest.from_function(_app, default_timeout=TIMEOUT)
        for k, v in params.items():
            at.query_params[k] = v
        at.run()
        if not CHECKING & set(texts(at, "info")):
            break
        assert background.wait(TIMEOUT)  # the second view (a new session) shows the check's lines at once
    return at


def texts(at: AppTest, kind: str) -> list[str]:
    return [str(e.value) for e in getattr(at, kind)]


def table_ids(at: AppTest) -> list[str]:
    """The puzzle ids of the page's pick table."""
    (table,) = [d for d in at.dataframe if d.key and d.key.startswith("sets.table.")]
    return list(table.value["puzzle_id"])


def drawn_ids(at: AppTest) -> list[str]:
    """The ids of the puzzles drawn (each drawn twice: puzzle and solution), sorted (two columns)."""
    found = [m.split("<title>")[1].split("</title>")[0] for m in texts(at, "markdown") if "<svg" in m]
    return sorted(set(found))


def snapshot(root: Path) -> dict[str, Any]:
    """Every folder and file under ``root`` (``root`` too): path -> (size, sha256, mtime) for files,
    the modification time for folders (it moves when an entry is made or removed there, so even a
    file made and deleted again shows)."""
    return {str(p.relative_to(root)): (p.stat().st_size, hashlib.sha256(p.read_bytes()).hexdigest(),
                                       p.stat().st_mtime_ns) if p.is_file() else p.stat().st_mtime_ns
            for p in sorted([root, *root.rglob("*")])}


@pytest.fixture(scope="module")
def mix_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A root with the set ``mix``: the levels of ``MIX``, hints ``HINTS``, X variants at ``X_ROWS``."""
    root = tmp_path_factory.mktemp("mix-root")
    run_dir = root / "mix" / "20261122T000000Z-01234567"
    run_dir.mkdir(parents=True)
    rng = random.Random(5)
    rows = [fake_row("mix", i, lv, 9, rng, hints=HINTS[i]) for i, lv in enumerate(MIX)]
    for i in X_ROWS:
        rows[i]["variant"] = ["x"]
    rows[MADE_FOR_X_WING]["technique"] = "x_wing"  # rows 1 and 7 (hard) use x_wing; row 1 was made for it
    pl.DataFrame(rows, schema=SCHEMA).write_parquet(run_dir / "part-00000.parquet")
    manifest = {"config": {"name": "mix", "output": {"shard_size": len(MIX)}}, "status": "complete",
                "count": len(MIX), "start": 0,
                "created_at": "2026-11-22T04:28:15+00:00",
                "shards": {"0": {"rows": len(MIX), "levels": dict(Counter(MIX)), "attempts": len(MIX), "timeouts": 0,
                                 "ilp_solves": len(MIX), "gen_ms": 1.0, "failures": []}},
                "totals": {"requested": len(MIX), "puzzles": len(MIX)}}
    (run_dir / "_manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def run_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A root with the set ``tiny`` made by ``numplace run`` (6 graded puzzles in two parts)."""
    import yaml

    root = tmp_path_factory.mktemp("run-root")
    cfg = tiny(root, count=6, removal={"symmetry": "rot180"})
    path = root.parent / f"{root.name}.yaml"
    path.write_text(yaml.safe_dump(cfg), encoding="utf-8")
    done = numplace("run", str(path))
    assert done.returncode == 0, done.stderr
    return root


# ---------------------------------------------------------------------------------------------
# The list, bad roots, bad names
# ---------------------------------------------------------------------------------------------


def test_the_list_shows_each_set_with_its_runs(monkeypatch: pytest.MonkeyPatch, mix_root: Path) -> None:
    at = page(monkeypatch, mix_root)
    assert not at.exception
    assert texts(at, "subheader") == ["mix"]
    (link,) = at.get("page_link")
    assert (link.proto.label, link.proto.page, link.proto.query_string) == ("mix →", "sets", "set=mix")
    assert f"{len(MIX)} puzzles · Runs 1 · next index {len(MIX)}" in texts(at, "caption")
    (runs,) = at.dataframe
    assert list(runs.value["Run"]) == ["20261122T000000Z-01234567"]
    assert list(runs.value["Indices"]) == [f"0-{len(MIX) - 1}"] and list(runs.value["Status"]) == ["complete"]


def test_a_root_that_is_missing_or_empty_is_a_message(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    at = page(monkeypatch, tmp_path / "nowhere")
    assert not at.exception and any(str(tmp_path / "nowhere") in m for m in texts(at, "info"))
    at = page(monkeypatch, tmp_path)
    assert not at.exception and texts(at, "info") == [f"No sets under this root yet: {tmp_path}"]
    at = page(monkeypatch, tmp_path / "nowhere", set="mix")
    assert not at.exception and any("No such output folder" in m for m in texts(at, "info"))


@pytest.mark.parametrize("name", ["../x", "mx", "mix/20261122T000000Z-01234567", "_catalog"])
def test_a_name_that_is_not_a_set_is_a_message_naming_it(monkeypatch: pytest.MonkeyPatch, mix_root: Path,
                                                         name: str) -> None:
    at = page(monkeypatch, mix_root, set=name)
    assert not at.exception
    (err,) = texts(at, "error")
    assert err.startswith(f"{name!r} is not a set under {mix_root}") and "mix" in err
    assert not [d for d in at.dataframe if d.key]  # no puzzles shown


@pytest.mark.deep
def test_japanese_labels(monkeypatch: pytest.MonkeyPatch, mix_root: Path) -> None:
    at = page(monkeypatch, mix_root, set="mix", lang="ja")
    assert not at.exception
    (back,) = at.get("page_link")
    assert back.proto.label == "← すべてのセット" and back.proto.query_string == "lang=ja"
    assert texts(at, "title") == ["セット: mix"] and "絞り込み" in texts(at, "subheader")


@pytest.mark.deep
def test_an_unreadable_part_is_a_message(monkeypatch: pytest.MonkeyPatch, mix_root: Path, tmp_path: Path) -> None:
    shutil.copytree(mix_root / "mix", tmp_path / "mix")
    (part,) = (tmp_path / "mix").rglob("part-*.parquet")
    part.write_bytes(part.read_bytes()[:100])
    at = page(monkeypatch, tmp_path, set="mix")
    assert not at.exception
    (code,) = [c for c in texts(at, "code") if "part file(s)" in c]
    assert "PROBLEM 20261122T000000Z-01234567/part-00000.parquet: not a readable Parquet file" in code
    assert any(str(part) in e for e in texts(at, "error"))  # the puzzles cannot be read: one line naming the part
    assert not [d for d in at.dataframe if d.key]


# ---------------------------------------------------------------------------------------------
# One set: filters from the URL, paging, drawing
# ---------------------------------------------------------------------------------------------


def test_a_set_shows_its_puzzles_a_page_at_a_time(monkeypatch: pytest.MonkeyPatch, mix_root: Path) -> None:
    at = page(monkeypatch, mix_root, set="mix")
    assert not at.exception
    ids = [f"mix-{i:07d}" for i in range(len(MIX))]
    assert table_ids(at) == ids
    assert drawn_ids(at) == ids[:6]
    svgs = [m for m in texts(at, "markdown") if "<svg" in m]
    assert len(svgs) == 12  # each puzzle and its solution
    assert any(f"**{len(MIX)}** puzzles match (any puzzle)" == m for m in texts(at, "markdown"))
    at.number_input[0].set_value(2).run()
    assert drawn_ids(at) == ids[6:] and at.query_params["page"] == "2"
    at = page(monkeypatch, mix_root, set="mix", page="2")  # the link reproduces the page
    assert drawn_ids(at) == ids[6:]


@pytest.mark.deep
def test_the_puzzles_do_not_wait_for_the_check(monkeypatch: pytest.MonkeyPatch, mix_root: Path,
                                                tmp_path: Path) -> None:
    """The quick check runs in the background: the first view shows the puzzles and a line saying the
    check runs; the next view, once it is done, shows its lines."""
    from pipeline.studio import checks
    from pipeline.studio.views import sets

    monkeypatch.setenv("NUMPLACE_CACHE_DIR", str(tmp_path))  # nothing kept from another test's view
    gate = threading.Event()
    real = checks.in_child

    def slow(path: str, fast: bool, sig: tuple[Any, ...]) -> dict[str, list[str]]:
        gate.wait(TIMEOUT)
        return real(path, fast, sig)

    monkeypatch.setattr(checks, "in_child", slow)
    background.forget(("check", str(mix_root / "mix"), hash(sets.signature(mix_root / "mix"))))
    monkeypatch.setenv("NUMPLACE_STUDIO_ROOT", str(mix_root))
    at = AppTest.from_function(_app, default_timeout=TIMEOUT)
    at.query_params["set"] = "mix"
    at.run()
    assert not at.exception and texts(at, "info") == [word("checking", "en")]
    assert table_ids(at) == [f"mix-{i:07d}" for i in range(len(MIX))]  # the puzzles are there already
    gate.set()
    at = page(monkeypatch, mix_root, set="mix")
    assert texts(at, "error") == ["Quick check (numplace check --fast): problems found"]


def test_the_filter_comes_from_the_url(monkeypatch: pytest.MonkeyPatch, mix_root: Path) -> None:
    at = page(monkeypatch, mix_root, set="mix", level="hard,extreme", variant="x")
    assert not at.exception and len(at.error) == 1  # the synthetic set's check, no line about the filter
    expected = [f"mix-{i:07d}" for i in X_ROWS]  # rows 1, 4, 7: hard, extreme, hard, all X
    assert table_ids(at) == expected and drawn_ids(at) == expected
    assert at.multiselect[0].value == ["hard", "extreme"] and at.selectbox[0].value == "x"
    at = page(monkeypatch, mix_root, set="mix", hints="26-29", score="-1000")
    want = [f"mix-{i:07d}" for i in range(len(MIX)) if 26 <= HINTS[i] <= 29 and MIX[i] in ("easy", "medium")]
    assert table_ids(at) == want and at.text_input[0].value == "-1000" and at.text_input[1].value == "26-29"
    at = page(monkeypatch, mix_root, set="mix", variant="classic")
    assert table_ids(at) == [f"mix-{i:07d}" for i in range(len(MIX)) if i not in X_ROWS]


def test_the_widgets_write_the_filter_to_the_url(monkeypatch: pytest.MonkeyPatch, mix_root: Path) -> None:
    at = page(monkeypatch, mix_root, set="mix", lang="en")
    at.multiselect[0].select("hard").run()
    at.text_input[1].input("25-").run()
    assert dict(at.query_params) == {"set": "mix", "lang": "en", "level": "hard", "hints": "25-"}
    assert table_ids(at) == ["mix-0000001", "mix-0000007"]


@pytest.mark.parametrize(("params", "message"), [
    ({"score": "abc"}, "score: 'abc' is not N, A-B, A- or -B"),
    ({"hints": "30-20"}, "hints: '30-20': the low end is greater than the high end"),
    ({"level": "hardd"}, "level: 'hardd' is not one of easy, medium, hard, expert, extreme"),
    ({"variant": "killer"}, "variant: 'killer' is not a variant of this set (classic, x)"),
])
def test_a_bad_filter_value_is_a_message_naming_the_field(monkeypatch: pytest.MonkeyPatch, mix_root: Path,
                                                          params: dict[str, str], message: str) -> None:
    at = page(monkeypatch, mix_root, set="mix", **params)
    assert not at.exception and texts(at, "error")[1:] == [message]  # [0]: the synthetic set fails its check
    _matches_nothing(at)


def _matches_nothing(at: AppTest) -> None:
    """A refused filter matches nothing: no table, no drawn puzzle, no book form (never the whole set)."""
    assert texts(at, "info")[-1] == word("refused_filter", "en")
    assert not [d for d in at.dataframe if d.key and d.key.startswith("sets.table.")] and not drawn_ids(at)
    assert not [b for b in at.button if b.label == "Make a book"]


@pytest.mark.parametrize("params", [{"technique": "swordfish"}, {"level": "hardest"}, {"variant": "killer"}])
def test_a_refused_link_stays_refused_until_the_filter_is_changed(monkeypatch: pytest.MonkeyPatch, mix_root: Path,
                                                                 params: dict[str, str]) -> None:
    """The issue's links: refused on the first view, on the next run (the report opened), and gone only
    when the editor changes the filter; the technique line names what the set has, never "(-)" (a set
    with no technique target: tests/studio/test_browser.py)."""
    at = page(monkeypatch, mix_root, set="mix", **params)
    _matches_nothing(at)
    assert not any(e.endswith("(-)") for e in texts(at, "error"))
    at.session_state["sets.plots"] = True
    at.run()
    _matches_nothing(at)
    assert dict(at.query_params)["set"] == "mix" and set(params) <= set(at.query_params)  # the link as it was
    at.text_input[0].input("0-").run()  # the editor changes the filter: the refused value is gone
    assert len(table_ids(at)) == len(MIX) and not texts(at, "error")[1:]


def test_the_technique_filters_come_from_the_url(monkeypatch: pytest.MonkeyPatch, mix_root: Path) -> None:
    """``technique``: the target a puzzle was made for; ``uses``: techniques its path uses (all of them)."""
    at = page(monkeypatch, mix_root, set="mix", technique="x_wing")
    assert not at.exception and table_ids(at) == [f"mix-{MADE_FOR_X_WING:07d}"]
    assert "**1** puzzles match (Made for X-Wing)" in texts(at, "markdown")
    (table,) = [d for d in at.dataframe if d.key and d.key.startswith("sets.table.")]
    assert list(table.value["technique"]) == ["X-Wing"]  # the made-for column
    at = page(monkeypatch, mix_root, set="mix", uses="x_wing")
    assert table_ids(at) == ["mix-0000001", "mix-0000007"]  # both hard rows' paths use x_wing
    at = page(monkeypatch, mix_root, set="mix", uses="naked_single,x_wing")
    assert table_ids(at) == ["mix-0000001", "mix-0000007"]
    at = page(monkeypatch, mix_root, set="mix", uses="x_wing,hidden_single")
    assert texts(at, "info")[-1].startswith("No puzzle matches")
    at = page(monkeypatch, mix_root, set="mix", uses="x_wing", lang="ja")
    assert "**2** 問が一致 (解き筋で使う手筋 Xウィング)" in texts(at, "markdown")


def test_the_technique_widgets_write_the_url(monkeypatch: pytest.MonkeyPatch, mix_root: Path) -> None:
    from pipeline.studio import steps

    at = page(monkeypatch, mix_root, set="mix")
    (made_for,) = [s for s in at.selectbox if s.key == "sets.technique"]
    assert made_for.options == ["any", "X-Wing"]  # only what this set's puzzles were made for
    made_for.set_value("x_wing").run()
    assert at.query_params["technique"] == "x_wing" and table_ids(at) == [f"mix-{MADE_FOR_X_WING:07d}"]
    (uses,) = [m for m in at.multiselect if m.key == "sets.uses"]
    used = {"naked_single", "hidden_single", "pointing", "x_wing", "x_chain", "trial_and_error"}  # the mix's paths
    assert set(uses.options) == {steps.title(n) for n in used}
    uses.set_value(["naked_single"]).run()
    assert at.query_params["uses"] == "naked_single" and table_ids(at) == [f"mix-{MADE_FOR_X_WING:07d}"]


@pytest.mark.parametrize(("params", "message"), [
    ({"technique": "swordfish"},
     "technique: 'swordfish' is not a technique a puzzle of this set was made for (x_wing)"),
    ({"uses": "jellyfish"}, "uses: 'jellyfish' is not a technique a path of this set uses"),
])
def test_a_technique_the_set_lacks_is_a_message(monkeypatch: pytest.MonkeyPatch, mix_root: Path,
                                                params: dict[str, str], message: str) -> None:
    at = page(monkeypatch, mix_root, set="mix", **params)
    assert not at.exception and texts(at, "error")[1:] == [message]  # [0]: the synthetic set fails its check
    _matches_nothing(at)


def test_a_filter_that_matches_nothing_says_so(monkeypatch: pytest.MonkeyPatch, mix_root: Path) -> None:
    at = page(monkeypatch, mix_root, set="mix", level="expert", variant="x")
    assert not at.exception and texts(at, "info") == ["No puzzle matches (Levels Expert; Variant x)"]


def test_a_damaged_set_fails_its_check_on_the_page(monkeypatch: pytest.MonkeyPatch, mix_root: Path) -> None:
    """The synthetic set's manifest records no parts: ``numplace check`` finds problems, the page shows them."""
    at = page(monkeypatch, mix_root, set="mix")
    assert not at.exception
    (code,) = [c for c in texts(at, "code") if "part file(s)" in c]
    assert code.splitlines()[0] == f"{mix_root / 'mix'}: {len(MIX)} puzzles in 1 part file(s)"
    assert "  PROBLEM " in code and code.splitlines()[-1].startswith("FAILED: ")
    assert texts(at, "error") == ["Quick check (numplace check --fast): problems found"]


# ---------------------------------------------------------------------------------------------
# A real set: the check, the report, a book, and nothing written into the root
# ---------------------------------------------------------------------------------------------


def _book(at: AppTest) -> tuple[bytes, dict[str, Any]]:
    (submit,) = [b for b in at.button if b.label == "Make a book"]
    submit.click().run()
    assert not at.exception and not at.error, texts(at, "error")
    _name, _stem, pdf, used, _pages = at.session_state["sets.book"]
    assert [b.label for b in at.get("download_button")] == ["Download PDF", "Download Used list"]
    return pdf, json.loads(used)


@pytest.mark.deep
@pytest.mark.heavy
def test_check_full_check_and_report(monkeypatch: pytest.MonkeyPatch, run_root: Path) -> None:
    at = page(monkeypatch, run_root, set="tiny")
    assert not at.exception and not at.error
    (code,) = [c for c in texts(at, "code") if "part file(s)" in c]
    assert code.splitlines()[0] == f"{run_root / 'tiny'}: 6 puzzles in 2 part file(s)" and code.endswith("\nOK")
    assert texts(at, "success") == ["Quick check (numplace check --fast): sound"]
    assert not at.get("vega_lite_chart")  # the report's fold is closed: nothing of it is computed
    at.session_state["sets.plots"] = True  # the fold opened
    at.run()
    if word("reporting", "en") in texts(at, "info"):  # computed in the background on a busy machine
        assert background.wait(TIMEOUT)
        at.run()  # what the line's own poll does
    charts = at.get("vega_lite_chart")
    assert len(charts) == 6  # the report drawn in the page: hints, levels, scores, symmetry, techniques, time
    assert [json.loads(c.proto.spec)["encoding"]["x"]["title"] for c in charts[:2]] == ["Hints", "Level"]
    assert all(c.proto.data.data for c in charts)  # each with its counts (Streamlit sends them as a table)
    (full,) = [b for b in at.button if b.label == "Full check"]
    full.click().run()
    assert not at.exception and word("checking_full", "en") in texts(at, "info")  # the click did not wait
    assert background.wait(TIMEOUT)
    at.run()  # what the line's own poll does when the check is done
    assert not at.exception and texts(at, "success") == ["Full check (numplace check): sound"]
    at.run()  # the next view keeps the full check (the set's files are unchanged) and offers it no more
    assert texts(at, "success") == ["Full check (numplace check): sound"]
    assert not [b for b in at.button if b.label == "Full check"]


@pytest.mark.heavy
def test_a_book_of_picked_puzzles(monkeypatch: pytest.MonkeyPatch, run_root: Path) -> None:
    at = page(monkeypatch, run_root, set="tiny")
    ids = table_ids(at)
    (table,) = [d for d in at.dataframe if d.key and d.key.startswith("sets.table.")]
    at.session_state[table.key] = {"selection": {"rows": [1, 4], "columns": [], "cells": []}}
    at.run()
    assert at.radio[0].value == "picked"
    pdf, used = _book(at)
    assert pdf.startswith(b"%PDF") and sorted(used["puzzle_ids"]) == sorted([ids[1], ids[4]])
    assert used["puzzles"] == 2 and used["pdf"] == "tiny.pdf"


@pytest.mark.heavy
def test_a_book_of_the_filters_first_n(monkeypatch: pytest.MonkeyPatch, run_root: Path) -> None:
    at = page(monkeypatch, run_root, set="tiny", level="easy")
    easy = table_ids(at)
    assert len(easy) >= 2
    assert at.radio[0].value == "first_n"  # nothing picked
    at.number_input(key="sets.book.n").set_value(2)
    at.text_input(key="sets.book.title").input("月刊ナンプレ")
    pdf, used = _book(at)
    assert pdf.startswith(b"%PDF") and sorted(used["puzzle_ids"]) == sorted(easy[:2])
    assert used["title"] == "月刊ナンプレ"


@pytest.mark.heavy
def test_browsing_never_writes_into_the_root(monkeypatch: pytest.MonkeyPatch, run_root: Path) -> None:
    before = snapshot(run_root)
    assert any(k.endswith(".parquet") for k in before)
    at = page(monkeypatch, run_root)  # the list
    assert not at.exception
    at = page(monkeypatch, run_root, set="tiny", level="easy,medium,hard", hints="20-")  # a set, filtered
    assert not at.exception and table_ids(at)
    (full,) = [b for b in at.button if b.label == "Full check"]
    full.click().run()  # a full check, on the background thread
    assert background.wait(TIMEOUT)
    at.run()  # what the running line's own poll does when the check is done
    assert "Full check (numplace check): sound" in texts(at, "success")
    pdf, _ = _book(at)  # a book
    assert pdf.startswith(b"%PDF")
    assert snapshot(run_root) == before


@pytest.fixture(scope="module")
def workbook_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A root with the set ``wb``: the real puzzles made for a technique of tests/data/workbook_rows.jsonl."""
    from tests.publish.test_workbook import _rows

    root = tmp_path_factory.mktemp("wb-root")
    run_dir = root / "wb" / "20261128T000000Z-00000000"
    run_dir.mkdir(parents=True)
    rows = _rows()
    pl.DataFrame(rows, schema=SCHEMA).write_parquet(run_dir / "part-00000.parquet")
    manifest = {"config": {"name": "wb", "output": {"shard_size": len(rows)}}, "status": "complete",
                "count": len(rows), "start": 0, "created_at": "2026-11-28T00:00:00+00:00",
                "shards": {"0": {"rows": len(rows), "levels": dict(Counter(r["difficulty"] for r in rows)),
                                 "attempts": len(rows), "timeouts": 0, "ilp_solves": len(rows), "gen_ms": 1.0,
                                 "failures": []}},
                "totals": {"requested": len(rows), "puzzles": len(rows)}}
    (run_dir / "_manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return root


def test_a_workbook_from_the_book_form(monkeypatch: pytest.MonkeyPatch, workbook_root: Path) -> None:
    """The form's workbook box makes ``numplace book --workbook``'s workbook of the chosen puzzles (a
    chapter per technique they were made for), in the page's language, named after its title."""
    import io

    from pypdf import PdfReader

    from pipeline.studio import steps

    monkeypatch.setenv("NUMPLACE_STUDIO_LANG", "ja")  # the server's language (the harness formats options by it)
    at = page(monkeypatch, workbook_root, set="wb")
    ids = table_ids(at)
    at.number_input(key="sets.book.n").set_value(len(ids))
    at.text_input(key="sets.book.title").input("手筋の練習帳")
    at.checkbox(key="sets.book.workbook").check()
    (submit,) = [b for b in at.button if b.label == "本を作る"]
    submit.click().run()
    assert not at.exception and texts(at, "error")[1:] == []
    _name, stem, pdf, used, pages = at.session_state["sets.book"]
    assert stem == "手筋の練習帳" and json.loads(used)["pdf"] == "手筋の練習帳.pdf"
    chapters = {r["technique"] for r in _rows_of(workbook_root)}
    reader = PdfReader(io.BytesIO(pdf))
    text = "\n".join(p.extract_text() for p in reader.pages)
    assert len(reader.pages) == pages
    for name in chapters:  # a chapter per technique, each under its Japanese name
        assert steps.title(name, "ja") in text, name


def _rows_of(root: Path) -> list[dict[str, Any]]:
    return pl.read_parquet(next(root.rglob("*.parquet"))).to_dicts()
