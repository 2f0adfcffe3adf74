#!/usr/bin/env python3
"""The studio's waits, measured in headless Chromium (never asserted by a test).

``start-up`` (default): ``numplace studio`` launched -> its server answers -> the Solve page of a
linked puzzle shows its status; and 10 9x9 puzzles made in the page (``/generate?count=10``)
against ``numplace generate --count 10`` as a whole command, interleaved, after one warm-up.

``generate``: Generate's requests of ``clicks`` (2 X+hyper, 2 hyper, 2 16x16, 2 4x4 puzzles) made in
the page of a warm server against ``numplace generate`` of the same request as a whole command,
interleaved, after one warm-up round.

``clicks``: click-to-answer times of issue 39 over a set of many puzzles (``--root``, e.g. a
4,000-puzzle ``numplace run configs/default.yaml``), for one or two studio source trees side by
side (``--tree before=/tmp/old --tree after=.``; each tree's studio runs with this interpreter and
its own ``pipeline`` package), interleaved tree by tree per repeat so machine load falls on both:

* the set's first open (``/sets?set=NAME`` until its match line shows; nothing kept in the user cache
  before), then the same view warm, and (after the other clicks) its first open by a new server;
* ``/repair`` of a puzzle with no solution until the reason is shown;
* ``/solve`` of a hard puzzle (AI Escargot) until its grade is shown;
* ``/generate`` of 2 X+hyper, 2 hyper, 2 16x16 and 2 4x4 puzzles until the first is drawn (its caption),
  and done (both drawn, the config shown);
* the clicks of issue 50 ("Waits", :data:`WAITS`): the set's report fold opened right after the set's
  first open, its quick check still running (from the click to its progress line or its first chart's
  title; done: its six charts drawn); a ``uses=`` link (``&uses=x_wing``, until its match line); the full check
  button once the quick check is done (from the click to its running line; done: its result line);
  and Repair of a puzzle whose clash is not known to be the smallest (to the repair drawn, to the
  proof's running line, done: the proof shown).

Two times each, from ``goto``: to the answer's text on screen, and to Streamlit's running-indicator
gone (the page's script done: a grade, the last drawing); for Generate also the time to its progress
line (what is being made, how many are done; an older tree's progress bar), or to the first puzzle
when that comes first. A fresh
server per tree per repeat, so "first open" is a first open. Usage::

    python bench/bench_studio.py clicks --root /tmp/root --set default-classic \\
        --tree before=/tmp/before --tree after=. --repeat 2
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from pipeline.tablecache import cache_dir

ROOT = Path(__file__).resolve().parents[1]
EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
BROKEN = "55" + EASY[2:]
ESCARGOT = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."
#: The first puzzle made on Generate (its caption: the page's seed and the puzzle's number); the last
#: puzzle and the YAML come with the page's script done.
FIRST = "Seed 5 · No. 0"
#: (name, path and query, text that marks the answer)
CLICKS = (
    ("set: first open", "/sets?set={set}", "puzzles match"),
    ("set: open again (warm)", "/sets?set={set}", "puzzles match"),
    ("repair: no solution", f"/repair?puzzle={BROKEN}", "These givens cannot stand together"),
    ("solve: AI Escargot", f"/solve?puzzle={ESCARGOT}", "Status: unique"),
    ("generate: 2 x+hyper", "/generate?count=2&seed=5&variant=x%2Bhyper", FIRST),
    ("generate: 2 hyper", "/generate?count=2&seed=5&variant=hyper", FIRST),
    ("generate: 2 16x16", "/generate?count=2&seed=5&size=16", FIRST),
    ("generate: 2 4x4", "/generate?count=2&seed=5&size=4", FIRST),
)

#: EASY with r1c2 = 1: its clash (12 givens) is not known to be the smallest, so Repair looks for the
#: smallest set on the background thread (``numplace solve --why``) after drawing the repair.
HIDDEN = "51" + EASY[2:]
#: The quick check's result line on a set's page (its running line has no colon after the command).
QUICK_DONE = re.compile(r"Quick check \(numplace check --fast\): ")
#: What the report fold shows first: its line saying the charts are being computed, or its first
#: chart's title (drawn with the chart in the same run; the chart itself comes once the browser has
#: loaded its charting library, the first time in a tab).
REPORTING = "The report's charts are being computed"
FIRST_CHART = "Hints (givens)"
CHART = '[data-testid="stVegaLiteChart"]'
#: A background job's line while it waits for the job before it.
QUEUED = "Waiting for the job before it to finish"


#: What a :class:`Click` waits for: a text (or pattern) on screen, ``css=SELECTOR`` (one element of
#: it), ``css=SELECTOR*N`` (N of them), or a tuple of these (whichever comes first).
Spec = str | re.Pattern[str] | tuple[str | re.Pattern[str], ...]


@dataclass(frozen=True)
class Click:
    """A click of issue 50's "Waits" on a set's page or Repair: ``path`` opened (and ``ready`` on
    screen when given), then ``act`` clicked (a button or a fold by its label; nothing for a link);
    timed from the click (from ``goto`` for a link) to ``answer`` on screen, to ``progress`` when
    given, and to ``done`` (None: Streamlit's running indicator gone)."""

    name: str
    path: str
    answer: Spec
    done: Spec | None = None
    ready: Spec | None = None
    act: tuple[str, str] | None = None  # ("button" or "text", its label)
    progress: Spec | None = None
    after: str | None = None  # the click of :data:`CLICKS` it follows (else: after all of them)


#: The clicks of issue 50 item 8 ("Waits"), after :data:`CLICKS`. The report fold is opened right
#: after the set's first open, as soon as its view is drawn (its quick check still running); the full
#: check is clicked once the quick check is done, so it times its own job.
WAITS = (
    Click("set: report fold", "/sets?set={set}", answer=(FIRST_CHART, REPORTING, QUEUED), done=f"css={CHART}*6",
          act=("text", "Report"), after="set: first open"),
    Click("set: uses= link", "/sets?set={set}&uses=x_wing", answer=re.compile(r"puzzles match \(Path uses X-Wing")),
    Click("set: full check", "/sets?set={set}", answer="Full check (numplace check) running",
          done=re.compile(r"Full check \(numplace check\): "), ready=QUICK_DONE, act=("button", "Full check")),
    Click("repair: proof of a hidden clash", f"/repair?puzzle={HIDDEN}", answer="Changed givens",
          progress="Looking for the smallest such set",
          done=re.compile(r"No smaller set was found within|\(\d+, smallest such set\): ")),
)


#: The set opened again by a new server (what a first open kept, read back after a restart).
RESTART = "set: first open, restarted"


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _up(url: str, proc: subprocess.Popen[bytes]) -> None:
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            if proc.poll() is not None:
                raise SystemExit("the studio did not start") from None
            time.sleep(0.05)


def _serve(tree: Path, root: Path | None = None) -> tuple[str, subprocess.Popen[bytes]]:
    port = _port()
    env = {**os.environ, "PYTHONPATH": str(tree)}
    args = [sys.executable, "-m", "pipeline", "studio", *([str(root)] if root else []), "--port", str(port)]
    proc = subprocess.Popen(args, cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    _up(url, proc)
    return url, proc


#: What Generate shows while it works (this tree's progress line, or an older tree's bar).
PROGRESS = re.compile(r"Making puzzle 1 of|Working 0 / ")


def _answer(page: object, url: str, text: str, seen: list[float] | None = None) -> tuple[float, float]:
    """Seconds from ``goto`` to ``text`` on screen (the answer), and to the page's script done. With
    ``seen``, the seconds to Generate's progress line (or the answer, if it comes first) go into it."""
    t0 = time.perf_counter()
    page.goto(url)  # type: ignore[attr-defined]
    if seen is not None:
        early = page.get_by_text(PROGRESS).or_(page.get_by_text(text))  # type: ignore[attr-defined]
        early.first.wait_for(timeout=600_000)
        seen.append(time.perf_counter() - t0)
    page.get_by_text(text).first.wait_for(timeout=600_000)  # type: ignore[attr-defined]
    t_answer = time.perf_counter() - t0
    page.wait_for_timeout(300)  # type: ignore[attr-defined]
    page.locator('[data-testid="stStatusWidget"]').wait_for(state="detached", timeout=600_000)  # type: ignore[attr-defined]
    return t_answer, time.perf_counter() - t0


def _locator(page: object, spec: Spec) -> object:
    """The first element on ``page`` that :data:`Spec` ``spec`` names (``css=S*N``: the Nth of S)."""
    if isinstance(spec, tuple):
        found = _locator(page, spec[0])
        for other in spec[1:]:
            found = found.or_(_locator(page, other))  # type: ignore[attr-defined]
        return found.first  # type: ignore[attr-defined]
    if isinstance(spec, str) and spec.startswith("css="):
        selector, _, n = spec[4:].partition("*")
        return page.locator(selector).nth(int(n or 1) - 1)  # type: ignore[attr-defined]
    return page.get_by_text(spec).first  # type: ignore[attr-defined]


def _click(page: object, url: str, click: Click) -> tuple[float, float, float | None]:
    """Seconds from the click (or ``goto``) to ``click.answer`` on screen, to its ``done`` and to its
    ``progress`` (None without one); see :class:`Click`."""
    t0 = time.perf_counter()
    page.goto(url)  # type: ignore[attr-defined]
    if click.act is not None:
        _locator(page, click.ready or "puzzles match").wait_for(timeout=600_000)  # type: ignore[attr-defined]
        page.wait_for_timeout(300)  # type: ignore[attr-defined]
        page.locator('[data-testid="stStatusWidget"]').wait_for(state="detached", timeout=600_000)  # type: ignore[attr-defined]
        role, label = click.act
        target = page.get_by_role("button", name=label) if role == "button" else \
            page.get_by_text(label, exact=True)  # type: ignore[attr-defined]
        t0 = time.perf_counter()
        target.first.click()
    _locator(page, click.answer).wait_for(timeout=600_000)  # type: ignore[attr-defined]
    t_answer = time.perf_counter() - t0
    t_progress = None
    if click.progress is not None:
        _locator(page, click.progress).or_(_locator(page, click.done or click.answer)).first.wait_for(  # type: ignore[attr-defined]
            timeout=600_000)
        t_progress = time.perf_counter() - t0
    if click.done is None:
        page.wait_for_timeout(300)  # type: ignore[attr-defined]
        page.locator('[data-testid="stStatusWidget"]').wait_for(state="detached", timeout=600_000)  # type: ignore[attr-defined]
    else:
        _locator(page, click.done).wait_for(timeout=1_200_000)  # type: ignore[attr-defined]
    return t_answer, time.perf_counter() - t0, t_progress


def startup(browser: object, seed: int) -> tuple[float, float]:
    """Seconds from launch to the server answering, and to the Solve page showing its status."""
    t0 = time.perf_counter()
    url, proc = _serve(ROOT)
    try:
        t_server = time.perf_counter() - t0
        page = browser.new_page()  # type: ignore[attr-defined]
        page.goto(f"{url}/solve?puzzle={EASY}")
        page.get_by_text("Status: unique").wait_for(timeout=120_000)
        t_page = time.perf_counter() - t0
        page.close()
        return t_server, t_page
    finally:
        proc.terminate()
        proc.wait()


def generate_in_page(browser: object, url: str, seed: int) -> float:
    page = browser.new_page()  # type: ignore[attr-defined]
    took = _answer(page, f"{url}/generate?count=10&seed={seed}", "The same as a config for numplace run")[1]
    page.close()
    return took


def generate_cli(seed: int) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pipeline", "generate", "--count", "10", "--seed", str(seed)], cwd=ROOT,
                   check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


#: Generate requests timed in the page and as ``numplace generate`` (``generate`` mode): name, the
#: page's query, the command's flags (the same request: size, variant, count and seed).
REQUESTS = (
    ("2 x+hyper", "count=2&seed=5&variant=x%2Bhyper", ("--count", "2", "--seed", "5", "--variant", "x+hyper")),
    ("2 hyper", "count=2&seed=5&variant=hyper", ("--count", "2", "--seed", "5", "--variant", "hyper")),
    ("2 16x16", "count=2&seed=5&size=16", ("--count", "2", "--seed", "5", "--size", "16")),
    ("2 4x4", "count=2&seed=5&size=4", ("--count", "2", "--seed", "5", "--size", "4")),
)


def _generate(browser: object, repeat: int) -> None:
    """Each of :data:`REQUESTS` made in the page of one warm server (open to the YAML under the last
    puzzle) and by ``numplace generate`` as a whole command, interleaved, after one warm-up round."""
    url, proc = _serve(ROOT)
    page_s: dict[str, list[float]] = {}
    cli_s: dict[str, list[float]] = {}
    try:
        for k in range(repeat + 1):
            for name, query, flags in REQUESTS:
                page = browser.new_page()  # type: ignore[attr-defined]
                took = _answer(page, f"{url}/generate?{query}", "The same as a config for numplace run")[1]
                page.close()
                t0 = time.perf_counter()
                subprocess.run([sys.executable, "-m", "pipeline", "generate", *flags], cwd=ROOT, check=True,
                               stdout=subprocess.DEVNULL)
                cli = time.perf_counter() - t0
                print(f"  {name:<12} page {took:6.2f} s  command {cli:6.2f} s{'  (warm-up)' if not k else ''}",
                      file=sys.stderr)
                if k:
                    page_s.setdefault(name, []).append(took)
                    cli_s.setdefault(name, []).append(cli)
    finally:
        proc.terminate()
        proc.wait()
    print(f"{'request (median of ' + str(repeat) + ')':<26}{'page':>10}{'command':>10}{'page - command':>16}")
    for name, _, _ in REQUESTS:
        a, b = statistics.median(page_s[name]), statistics.median(cli_s[name])
        print(f"{name:<26}{a:>8.2f} s{b:>8.2f} s{a - b:>+14.2f} s")
    print("page: open to the YAML under the last puzzle, on a warm server; command: numplace generate, whole")


def _line(name: str, xs: list[float]) -> str:
    return f"{name:<44} min {min(xs):6.2f} s  median {statistics.median(xs):6.2f} s  max {max(xs):6.2f} s"


def _startup(browser: object, repeat: int) -> None:
    startup(browser, 0)  # warm-up
    runs = [startup(browser, k) for k in range(repeat)]
    print(_line("studio start-up: server answers", [r[0] for r in runs]))
    print(_line("studio start-up: Solve page usable", [r[1] for r in runs]))
    url, proc = _serve(ROOT)
    try:
        generate_in_page(browser, url, 999)  # warm-up
        generate_cli(999)
        page_s, cli_s = [], []
        for k in range(repeat):  # interleaved, so machine load falls on both alike
            page_s.append(generate_in_page(browser, url, 100 + k))
            cli_s.append(generate_cli(100 + k))
    finally:
        proc.terminate()
        proc.wait()
    print(_line("10 puzzles in the page (open to drawn)", page_s))
    print(_line("numplace generate --count 10 (whole command)", cli_s))
    diffs = [a - b for a, b in zip(page_s, cli_s, strict=True)]
    print(f"page minus command, same seeds: median {statistics.median(diffs):+.2f} s")


def _note(times: dict[tuple[str, str], list[tuple[float, float]]], label: str, name: str,
          took: tuple[float, float], early: float | None) -> None:
    """Keep one click's times (and its progress line's, as a row of its own) and print them."""
    times.setdefault((name, label), []).append(took)
    if early is not None:
        times.setdefault((f"{name}: progress", label), []).append((early, early))
    print(f"  {label:<8} {name:<32} answer {took[0]:6.2f} s  done {took[1]:6.2f} s"
          + (f"  progress {early:6.2f} s" if early is not None else ""), file=sys.stderr)


def _clicks(browser: object, root: Path, set_name: str, trees: list[tuple[str, Path]], repeat: int,
            only: list[str]) -> None:
    clicks = [c for c in CLICKS if not only or any(o in c[0] for o in only)]
    waits = [c for c in WAITS if not only or any(o in c.name for o in only)]
    names_run = {c[0] for c in clicks}
    times: dict[tuple[str, str], list[tuple[float, float]]] = {}
    restart = any(c[0] == "set: first open" for c in clicks)
    for _ in range(repeat):
        for label, tree in trees:
            shutil.rmtree(cache_dir() / "studio", ignore_errors=True)  # nothing kept: a first open is a first open
            for fresh in ((False, True) if restart else (False,)):
                url, proc = _serve(tree, root)
                try:
                    page = browser.new_page(viewport={"width": 1400, "height": 1200})  # type: ignore[attr-defined]
                    page.goto(f"{url}/")  # the server's first page: the front end loaded, as an editor starts
                    page.get_by_text("Solve").first.wait_for(timeout=120_000)
                    for name, path, text in (clicks if not fresh else [(RESTART, *CLICKS[0][1:])]):
                        seen: list[float] | None = [] if name.startswith("generate") else None
                        took = _answer(page, url + path.format(set=set_name), text, seen)
                        _note(times, label, name, took, seen[0] if seen else None)
                        for click in (c for c in waits if c.after == name):
                            answer, done, early = _click(page, url + click.path.format(set=set_name), click)
                            _note(times, label, click.name, (answer, done), early)
                    for click in (c for c in waits if not fresh and (c.after is None or c.after not in names_run)):
                        answer, done, early = _click(page, url + click.path.format(set=set_name), click)
                        _note(times, label, click.name, (answer, done), early)
                    page.close()
                finally:
                    proc.terminate()
                    proc.wait()
    labels = [label for label, _ in trees]
    print(f"{'click (median of ' + str(repeat) + ')':<44}"
          + "".join(f"{label + ' answer':>15}{label + ' done':>13}" for label in labels))
    names = [n for c in clicks for n in ((c[0], f"{c[0]}: progress") if c[0].startswith("generate") else (c[0],))]
    names += [n for c in waits for n in ((c.name, f"{c.name}: progress") if c.progress else (c.name,))]
    for name in [*names, *([RESTART] if restart else [])]:
        cells = []
        for label in labels:
            got = times[(name, label)]
            answer, done = statistics.median(a for a, _ in got), statistics.median(d for _, d in got)
            cells.append(f"{answer:>13.2f} s{done:>11.2f} s")
        print(f"{name:<44}" + "".join(cells))
    print("answer: the answer's text on screen; done: the page's script finished (a grade, the last drawing);\n"
          "generate ...: progress: Generate's progress line on screen (or its first puzzle, if that comes first);\n"
          "set: report fold: from the click to its progress line or its first chart's title, done: its 6 charts;\n"
          "set: full check: from the click to its running line, done: its result line;\n"
          "repair: proof ...: answer: the repair drawn, progress: the proof's running line, done: the proof")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", nargs="?", choices=("start-up", "clicks", "generate"), default="start-up")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--root", type=Path, help="clicks: the output root holding the set")
    ap.add_argument("--set", default="default-classic", help="clicks: the set's name under the root")
    ap.add_argument("--tree", action="append", default=[], help="clicks: LABEL=PATH of a source tree (repeatable)")
    ap.add_argument("--only", action="append", default=[], help="clicks: only the clicks whose name holds this")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        try:
            if args.what == "start-up":
                _startup(browser, args.repeat)
            elif args.what == "generate":
                _generate(browser, args.repeat)
            else:
                if args.root is None:
                    raise SystemExit("clicks needs --root (an output root holding the set)")
                trees = [(t.split("=", 1)[0], Path(t.split("=", 1)[1]).resolve()) for t in args.tree] or \
                    [("now", ROOT)]
                _clicks(browser, args.root, args.set, trees, args.repeat, args.only)
        finally:
            browser.close()


if __name__ == "__main__":
    main()
