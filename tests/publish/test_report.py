"""Reports: one self-contained HTML page (parses, no script or external file, images are non-empty
inlined PNGs), runs side by side, failures from the manifests; and the one-image PNG summary.

A browser check is optional here: when Chromium is installed (Debian's ``chromium`` package, as
the README says), the page is also rendered headless to a screenshot."""

from __future__ import annotations

import base64
import io
import json
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from PIL import Image

from pipeline.publish import report, select
from pipeline.publish.select import PublishError
from tests.conftest import numplace
from tests.publish.test_select import MIX, write_set

FAILURES = {"shards": {"0": {"failures": [{"index": 7, "kind": "generation", "reason": "no grid <in> 20 attempts"}]}},
            "totals": {"requested": 4, "puzzles": 3, "attempts": 25, "generation_failures": 1,
                       "duplicates_replaced": 2}}


class _Page(HTMLParser):
    """Collects tags, image sources and links; fails on anything that would load from outside."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.images: list[str] = []
        self.external: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        a = dict(attrs)
        if tag == "img":
            self.images.append(a.get("src") or "")
        for key in ("href", "src"):
            value = a.get(key) or ""
            if value and not value.startswith("data:"):
                self.external.append(value)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


@pytest.fixture
def set_dir(tmp_path: Path) -> Path:
    write_set(tmp_path / "out", "nightly", MIX, run_id="20261122T010000Z-aaaaaaaa")
    write_set(tmp_path / "out", "nightly", ["easy", "hard", "expert"], start=len(MIX),
              run_id="20261123T010000Z-bbbbbbbb", manifest=FAILURES)
    return tmp_path / "out" / "nightly"


def _png_ok(data: bytes) -> tuple[int, int]:
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 2000
    with Image.open(io.BytesIO(data)) as img:
        img.load()
        assert img.width > 300 and img.height > 200
        assert len(set(img.convert("L").tobytes())) > 2  # not a blank image
        return img.size


@pytest.mark.deep
def test_html_is_self_contained(tmp_path: Path, set_dir: Path) -> None:
    out = report.make_report([set_dir], tmp_path / "r" / "report.html")
    page = _Page()
    page.feed(out.read_text(encoding="utf-8"))
    page.close()
    assert page.tags[:2] == ["html", "head"] and "script" not in page.tags
    assert page.external == []
    assert len(page.images) == 8  # hints, levels, scores, symmetry, techniques, 2 time plots, runs side by side
    for src in page.images:
        assert src.startswith("data:image/png;base64,")
        _png_ok(base64.b64decode(src.split(",", 1)[1], validate=True))
    text = " ".join(page.text)
    assert "nightly: 13 puzzles in 2 run(s)" in text
    assert "20261122T010000Z-aaaaaaaa" in text and "20261123T010000Z-bbbbbbbb" in text
    assert "no grid <in> 20 attempts" in text  # from the manifest, escaped in the page and read back
    assert "X-Chain" in text and "x chain" not in text  # the registry row's title, in the table


def test_counts_and_techniques(set_dir: Path) -> None:
    data = report.load([set_dir])
    assert data.frame.height == 13 and len(data.runs) == 2
    tech = report.technique_counts(data.frame)
    hardest = dict(zip(tech["technique"], tech["hardest"], strict=True))
    assert hardest["hidden_single"] == 5 and hardest["x_chain"] == 2 and hardest["trial_and_error"] == 1
    used = dict(zip(tech["technique"], tech["used"], strict=True))
    assert used["naked_single"] == 13 - 2  # the expert rows use hidden_single and x_chain


def test_png_summary(tmp_path: Path, set_dir: Path) -> None:
    out = report.make_report([set_dir], tmp_path / "summary.png", "png")
    w, h = _png_ok(out.read_bytes())
    assert w > h
    with pytest.raises(PublishError, match=r"--format: 'pdf' is not one of html, png"):
        report.make_report([set_dir], tmp_path / "x.pdf", "pdf")


@pytest.mark.deep
def test_the_format_is_the_suffixs(tmp_path: Path, set_dir: Path) -> None:
    out = report.make_report([set_dir], tmp_path / "summary.png")  # no --format: a PNG, by its suffix
    _png_ok(out.read_bytes())
    assert report.make_report([set_dir], tmp_path / "r.HTM").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    for name, fmt, says in (("x.pdf", None, "a report is an .html page or a .png image"),
                            ("x", None, "a report is an .html page or a .png image"),
                            ("x.png", "html", "the suffix says png, but --format says html"),
                            ("x.html", "png", "the suffix says html, but --format says png")):
        with pytest.raises(PublishError, match=says):
            report.make_report([set_dir], tmp_path / name, fmt)
        assert not (tmp_path / name).exists()


def _two_sets(tmp_path: Path) -> list[Path]:
    write_set(tmp_path / "two", "daily", ["easy", "easy", "hard"], run_id="20261122T010000Z-aaaaaaaa")
    write_set(tmp_path / "two", "weekly", ["expert", "hard"], run_id="20261122T010000Z-aaaaaaaa")
    return [tmp_path / "two" / "daily", tmp_path / "two" / "weekly"]


def test_several_sets_are_shown_apart(tmp_path: Path) -> None:
    out = report.make_report(_two_sets(tmp_path), tmp_path / "two.html")
    page = _Page()
    page.feed(out.read_text(encoding="utf-8"))
    text = " ".join(page.text)
    assert "2 sets, daily (3), weekly (2): 5 puzzles in 2 run(s)" in text
    # the same run id in both sets is two runs, each named with its set
    assert "daily/20261122T010000Z-aaaaaaaa" in text and "weekly/20261122T010000Z-aaaaaaaa" in text
    assert "Sets" in page.text and "sets side by side" in out.read_text(encoding="utf-8")
    one = report.make_report(_two_sets(tmp_path / "b")[:1], tmp_path / "one.html").read_text(encoding="utf-8")
    assert "sets side by side" not in one and "<h2>Sets</h2>" not in one


@pytest.mark.deep
def test_stock_left_per_level_after_the_books(tmp_path: Path) -> None:
    daily, weekly = _two_sets(tmp_path)
    used = tmp_path / "book1.used.json"
    used.write_text(json.dumps({"puzzle_ids": ["daily-0000000", "daily-0000002", "weekly-0000000", "nope-1"]}))
    data = report.load([daily, weekly, daily], select.read_used([used]))  # the set twice: each puzzle once
    assert report.stock_left(data).rows() == [("daily", "easy", 2, 1, 1), ("daily", "hard", 1, 1, 0),
                                              ("weekly", "hard", 1, 0, 1), ("weekly", "expert", 1, 1, 0)]
    res = numplace("report", str(daily), "--out", str(tmp_path / "s.html"), "--exclude", str(used))
    assert res.returncode == 0, res.stderr
    page = _Page()
    page.feed((tmp_path / "s.html").read_text(encoding="utf-8"))
    assert "Stock left per level" in page.text
    assert "less the 4 ids of the books given by --exclude" in " ".join(page.text)


@pytest.mark.deep
@pytest.mark.heavy
def test_cli_report(tmp_path: Path, set_dir: Path) -> None:
    res = numplace("report", str(set_dir / "20261122T010000Z-aaaaaaaa"), "--out", str(tmp_path / "one.html"))
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == f"wrote {tmp_path / 'one.html'}"
    assert "runs side by side" not in (tmp_path / "one.html").read_text()  # one run: no comparison
    bad = numplace("report", str(tmp_path / "nowhere"), "--out", str(tmp_path / "x.html"))
    assert bad.returncode == 2 and bad.stderr.startswith("numplace: error: ") and bad.stderr.count("\n") == 1
    assert not (tmp_path / "x.html").exists()
    pdf = numplace("report", str(set_dir), "--out", str(tmp_path / "report.pdf"))
    assert pdf.returncode == 2 and "a report is an .html page or a .png image" in pdf.stderr
    assert not (tmp_path / "report.pdf").exists()
    png = numplace("report", str(set_dir), "--out", str(tmp_path / "report.png"))
    assert png.returncode == 0, png.stderr
    _png_ok((tmp_path / "report.png").read_bytes())


@pytest.mark.browser
@pytest.mark.system
def test_in_a_headless_browser(tmp_path: Path, set_dir: Path) -> None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if browser is None:
        pytest.skip("no Chromium installed (apt-get install chromium)")
    out = report.make_report([set_dir], tmp_path / "report.html")
    shot = tmp_path / "shot.png"
    res = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", f"--screenshot={shot}",
                          "--window-size=1200,2400", out.as_uri()], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    _png_ok(shot.read_bytes())
