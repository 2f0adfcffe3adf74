#!/usr/bin/env python3
"""The studio's two costs, measured side by side in one run (never asserted by a test):

1. start-up to a usable page: ``numplace studio`` launched -> its server answers -> the Solve page of
   a linked puzzle shows its status in headless Chromium;
2. generating 10 9x9 puzzles in the page (``/generate?count=10&seed=S`` opened until the results are
   drawn) against ``numplace generate --count 10 --seed S`` as a whole command.

Each is repeated ``--repeat`` times after one warm-up run (the numba cache and the OS file cache warm).
Needs Debian's chromium and the dev extra (playwright). Usage: python bench/bench_studio.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


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


def startup(browser: object, seed: int) -> tuple[float, float]:
    """Seconds from launch to the server answering, and to the Solve page showing its status."""
    port = _port()
    url = f"http://127.0.0.1:{port}"
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "pipeline", "studio", "--port", str(port)], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _up(url, proc)
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
    t0 = time.perf_counter()
    page.goto(f"{url}/generate?count=10&seed={seed}")
    page.get_by_text("The same as a config for numplace run").wait_for(timeout=600_000)
    took = time.perf_counter() - t0
    page.close()
    return took


def generate_cli(seed: int) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pipeline", "generate", "--count", "10", "--seed", str(seed)], cwd=ROOT,
                   check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def _line(name: str, xs: list[float]) -> str:
    return f"{name:<44} min {min(xs):6.2f} s  median {statistics.median(xs):6.2f} s  max {max(xs):6.2f} s"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    chromium = "/usr/bin/chromium"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        startup(browser, 0)  # warm-up
        runs = [startup(browser, k) for k in range(args.repeat)]
        print(_line("studio start-up: server answers", [r[0] for r in runs]))
        print(_line("studio start-up: Solve page usable", [r[1] for r in runs]))
        port = _port()
        url = f"http://127.0.0.1:{port}"
        proc = subprocess.Popen([sys.executable, "-m", "pipeline", "studio", "--port", str(port)], cwd=ROOT,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ))
        try:
            _up(url, proc)
            generate_in_page(browser, url, 999)  # warm-up
            generate_cli(999)
            page_s, cli_s = [], []
            for k in range(args.repeat):  # interleaved, so machine load falls on both alike
                page_s.append(generate_in_page(browser, url, 100 + k))
                cli_s.append(generate_cli(100 + k))
        finally:
            proc.terminate()
            proc.wait()
        browser.close()
    print(_line("10 puzzles in the page (open to drawn)", page_s))
    print(_line("numplace generate --count 10 (whole command)", cli_s))
    diffs = [a - b for a, b in zip(page_s, cli_s, strict=True)]
    print(f"page minus command, same seeds: median {statistics.median(diffs):+.2f} s")


if __name__ == "__main__":
    main()
