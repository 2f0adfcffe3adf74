"""The Generate page: a deep link makes the very puzzles ``numplace generate`` makes for the same
config; the form writes the URL; the YAML it shows is a config ``numplace run`` takes as it is; bad
input is one inline line naming the field; ``count`` is capped."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from pipeline import config as cfgmod
from pipeline.config.technique import OFFERED
from pipeline.run import runner
from pipeline.run.work import Made
from pipeline.studio import forms
from tests.conftest import numplace
from tests.studio.apptest import page


def _puzzles(params: dict[str, str]) -> list[str]:
    """What ``numplace generate`` makes for the page's config (one worker, as the page)."""
    cfg = cfgmod.validate({**forms.config_from_params(params), "workers": 1})
    return [item.row["puzzle"] for item in runner.stream(cfg) if isinstance(item, Made)]


def test_a_deep_link_makes_the_puzzles_generate_makes() -> None:
    params = {"count": "2", "seed": "11", "symmetry": "rot180", "fixed": "1" + "." * 80}
    at = page("generate", params)
    assert not at.exception and not at.error
    lines = [c.value for c in at.code if len(c.value) == 81]
    assert lines == _puzzles(params)
    captions = [c.value for c in at.caption]
    assert len(captions) == 2 and all(" · Hints " in c and " · Seed " in c for c in captions)
    # shown while graded, each caption ends with its grade (the row numplace generate makes)
    assert all(" · Score " in c and "Being graded" not in c for c in captions), captions
    grids = [m.value for m in at.markdown if "<svg" in m.value]
    assert len(grids) == 2


def test_the_page_shows_a_config_that_numplace_run_takes(tmp_path: Path) -> None:
    at = page("generate", {"count": "1", "seed": "5", "hints": "30-34", "levels": "easy,medium"})
    (text,) = [c.value for c in at.code if c.language == "yaml"]
    path = tmp_path / "studio.yaml"
    path.write_text(text, encoding="utf-8")
    cfg = cfgmod.load(path)
    assert (cfg.seed, cfg.count, cfg.removal.hints.min, cfg.removal.hints.max) == (5, 1, 30, 34)
    assert cfg.difficulty is not None and cfg.difficulty.levels == ["easy", "medium"]


@pytest.mark.heavy
def test_numplace_run_takes_the_yaml_as_it_is(tmp_path: Path) -> None:
    at = page("generate", {"count": "2", "seed": "3"})
    (text,) = [c.value for c in at.code if c.language == "yaml"]
    path = tmp_path / "studio.yaml"
    path.write_text(text, encoding="utf-8")
    res = numplace("run", str(path), "--out", str(tmp_path / "out"), "--workers", "1")
    assert res.returncode == 0, res.stderr
    import polars as pl

    made = pl.read_parquet(tmp_path / "out" / "studio" / "*" / "part-*.parquet")["puzzle"].to_list()
    shown = [c.value for c in at.code if len(c.value) == 81]
    assert sorted(made) == sorted(shown)  # the set run makes the puzzles the page showed


def test_the_form_writes_the_url_and_makes_the_puzzles() -> None:
    at = page("generate")
    assert not [c for c in at.code if len(c.value) == 81]  # nothing asked for yet: only the form
    at.text_input[0].set_value("7")  # the seed
    at.number_input[0].set_value(1)  # the count
    at.button[0].click().run()
    assert at.query_params["seed"] == "7" and at.query_params["count"] == "1"
    assert [c.value for c in at.code if len(c.value) == 81] == _puzzles({"seed": "7", "count": "1"})


@pytest.mark.parametrize(("params", "message"), [
    ({"count": "500"}, "count: 500 is over the page's cap of 50 a request (numplace run makes sets)"),
    ({"hints": "many"}, "hints: 'many' is not N or A-B"),
    ({"colour": "red"}, "colour: not a key of the generate page"),
    ({"size": "7", "count": "1"}, "board.size"),
    ({"variant": "jigsaw", "regions": "1" * 9 + "2" * 9 + "3" * 9 + "4" * 9 + "5" * 9 + "6" * 9 + "7" * 9 + "8" * 9
      + "9" * 8 + "1", "count": "1"}, "region"),
    ({"fixed": "11" + "." * 79, "count": "1"}, "grid.fixed"),
])
def test_bad_input_is_one_inline_line(params: dict[str, str], message: str) -> None:
    at = page("generate", params)
    assert not at.exception
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and message in errors[0], errors
    assert "\n" not in errors[0]


def test_the_files_are_made_when_asked_and_are_what_the_commands_write() -> None:
    import io

    from pipeline.studio.views import generate

    cfg = cfgmod.validate({**forms.config_from_params({"count": "2", "seed": "4"}), "workers": 1})
    made = [dict(item.row) for item in runner.stream(cfg) if isinstance(item, Made)]
    assert generate._pdf(made, "numplace studio", "Puzzles", "en").startswith(b"%PDF")
    from pypdf import PdfReader

    ja = generate._pdf(made, "ナンプレ スタジオ", "問題", "ja")  # the page's language: a Japanese book
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(ja)).pages)
    assert "ナンプレ スタジオ" in text and "解答" in text and "Answers" not in text and "Contents" not in text
    csv = generate._csv(made).splitlines()
    assert len(csv) == 3 and "puzzle" in csv[0].split(",") and made[1]["puzzle"] in csv[2]

    from PIL import Image

    with Image.open(io.BytesIO(generate._png(made[0]))) as im:
        assert im.format == "PNG" and im.width == im.height > 300


def test_a_technique_target_is_a_control_its_url_and_its_yaml(tmp_path: Path) -> None:
    """The form offers the technique target; picking one writes ``technique`` to the URL and
    ``difficulty.technique`` to the YAML, which ``numplace run`` reads as the same target."""
    at = page("generate")
    (select,) = [m for m in at.multiselect if m.label == "Made for a technique"]
    assert "X-Wing (Hard)" in select.options  # offered, by name and level
    assert len(select.options) == len(OFFERED)
    forms_params = forms.config_from_params({"technique": "x_wing", "count": "1"})
    assert forms_params["difficulty"] == {"technique": "x_wing"}
    assert forms.params_from_config(forms_params)["technique"] == "x_wing"
    both = forms.config_from_params({"technique": "x_wing,swordfish"})
    assert both["difficulty"] == {"technique": ["x_wing", "swordfish"]}
    assert forms.params_from_config(both)["technique"] == "x_wing,swordfish"
    text = forms.yaml_text(both)
    path = tmp_path / "studio.yaml"
    path.write_text(text, encoding="utf-8")
    cfg = cfgmod.load(path)
    assert cfg.difficulty is not None and cfg.difficulty.techniques == ("x_wing", "swordfish")


def test_the_technique_select_is_in_japanese_under_lang_ja() -> None:
    at = page("generate", {"lang": "ja"})
    (select,) = [m for m in at.multiselect if m.label == "テクニックを狙う"]
    assert "Xウィング (上級)" in select.options


def test_a_technique_with_levels_is_one_line() -> None:
    at = page("generate", {"technique": "x_wing", "levels": "easy", "count": "1"})
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and "technique" in errors[0] and "\n" not in errors[0], errors
    assert not [c for c in at.code if len(c.value) == 81]  # nothing made


@pytest.mark.heavy
def test_picking_a_technique_makes_puzzles_made_for_it() -> None:
    """The form's select, submitted: the URL carries the technique, the puzzle is the one ``numplace
    generate --technique`` makes, its caption says what it was made for, and its graded path uses it
    with nothing harder."""
    from pipeline.difficulty import grade as grading
    from pipeline.generate.technique import hardest

    at = page("generate")
    at.text_input[0].set_value("3")  # the seed
    at.number_input[0].set_value(1)  # the count
    (select,) = [m for m in at.multiselect if m.label == "Made for a technique"]
    select.select("x_wing")
    at.button[0].click().run()
    assert not at.exception and not at.error
    assert at.query_params["technique"] == "x_wing"
    (line,) = [c.value for c in at.code if len(c.value) == 81]
    assert [line] == _puzzles({"seed": "3", "count": "1", "technique": "x_wing"})
    (caption,) = [c.value for c in at.caption if "Seed 3" in c.value]
    assert caption.endswith("Made for X-Wing (Hard)")
    from pipeline.board import parse

    g = grading.grade(parse(line))
    assert "x_wing" in g.techniques and hardest(g.steps, grading.GRADER_VERSION) == "x_wing"
    (text,) = [c.value for c in at.code if c.language == "yaml"]
    assert "technique: x_wing" in text


def _stopped(monkeypatch: pytest.MonkeyPatch, at: int | None) -> list[Any]:
    """The items of the page's job (count 5, 4x4, seed 3) made to stop while it makes puzzle ``at``
    (None: before it begins the first), as when the view goes away. No sleeps: the job's thread
    waits, inside the making of that puzzle (or before the first), for the test to have called
    :meth:`_Job.stop`, so the stop is seen there and nowhere else."""
    from pipeline.run import work
    from pipeline.studio.views import generate

    there, stopped = threading.Event(), threading.Event()
    real_make, real_preflight = work.make_graded_later, runner.preflight

    def making(job: Any, index: int) -> Any:
        if index == at:
            there.set()
            assert stopped.wait(120)
        return real_make(job, index)

    def preflight(cfg: Any) -> None:
        if at is None:
            there.set()
            assert stopped.wait(120)
        real_preflight(cfg)

    monkeypatch.setattr(work, "make_graded_later", making)
    monkeypatch.setattr(runner, "preflight", preflight)
    job = generate._Job({"name": "studio", "seed": 3, "count": 5, "board": {"size": 4}})
    assert there.wait(120)  # the thread is making puzzle `at` (or about to begin), and waits
    job.stop()
    stopped.set()
    items = []
    while (item := job.items.get(timeout=120)) is not generate._Job.END:
        items.append(item)
    return items


@pytest.mark.parametrize("at", [0, 2])
def test_a_stopped_job_ends_after_the_puzzle_it_was_making(monkeypatch: pytest.MonkeyPatch, at: int) -> None:
    """The stop contract: the puzzle being made when the stop comes is finished and handed over, with
    every puzzle made before it, the same ones the command makes first, and nothing after it (not
    even the grade of the last one)."""
    items = _stopped(monkeypatch, at)
    assert all(isinstance(it, Made) for it in items)
    made = dict((it.index, it.row["puzzle"]) for it in items)  # a puzzle, then (but the last) its grade
    assert list(made.values()) == _puzzles({"count": str(at + 1), "seed": "3", "size": "4"})
    assert list(made) == list(range(at + 1)) and items[-1].index == at


def test_a_job_stopped_before_it_began_hands_over_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _stopped(monkeypatch, None) == []
