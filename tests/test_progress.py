"""Progress: no ETA until the rate is measured on finished work (the start-up before the first
puzzles come back is not the pace of the run), on the JSON log lines and on the terminal bar."""

from __future__ import annotations

import json

import pytest

from pipeline import progress


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _lines(err: str) -> list[dict[str, object]]:
    return [json.loads(x) for x in err.splitlines() if x.strip()]


def test_no_eta_on_the_log_until_the_rate_is_measured(capsys: pytest.CaptureFixture[str]) -> None:
    clock = Clock()
    with progress.reporter("set", tty=False, every=0.0, clock=clock) as tick:
        tick(0, 400)  # the run starts
        clock.now += 30.0  # workers start, compile, build their models: the first chunk comes back late
        tick(10, 400)
        clock.now += 1.0
        tick(20, 400)  # 10 puzzles in 1 s of finished work: 10/s
        clock.now += 2.0
        tick(40, 400)
    first, second, third = _lines(capsys.readouterr().err)
    assert first["event"] == "progress" and first["done"] == 10
    assert first["eta_s"] is None and "ETA once the rate is measured" in str(first["message"])
    assert "ETA 1170" not in str(first["message"])  # what the start-up-included rate (10 in 30 s) would say
    assert second["rate"] == 10.0 and second["eta_s"] == 38  # 380 left at 10/s
    assert third["rate"] == 10.0 and third["eta_s"] == 36 and third["message"] == "40 of 400 (10/s, ETA 36 s)"


def test_a_resumed_run_measures_from_its_own_first_finished_work() -> None:
    rate = progress.Rate()
    rate.update(300, 0.0)  # resumed with 300 done
    rate.update(300, 5.0)  # nothing new yet
    assert rate.rate is None and rate.eta(300, 400) is None
    rate.update(310, 20.0)
    assert rate.rate is None  # the first finished work starts the clock
    rate.update(330, 24.0)
    assert rate.rate == 5.0 and rate.eta(330, 400) == 14
    assert rate.eta(400, 400) == 0  # done: nothing left, whatever was measured


def test_the_bar_says_no_eta_before_the_rate(capsys: pytest.CaptureFixture[str]) -> None:
    clock = Clock()
    with progress.reporter("set", tty=True, clock=clock) as tick:
        tick(0, 400)
        clock.now += 30.0
        tick(10, 400)
    assert "ETA once the rate is measured" in capsys.readouterr().err
    with progress.reporter("set", tty=True, clock=clock) as tick:
        tick(0, 400)
        clock.now += 30.0
        tick(10, 400)
        clock.now += 1.0
        tick(20, 400)
    err = capsys.readouterr().err
    assert "ETA 38 s" in err and "once the rate" not in err
