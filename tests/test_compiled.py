"""The one decision compiled-or-Python (:mod:`pipeline.compiled`): the variable, the one-shot
declaration, the board side; no call count anywhere."""

from __future__ import annotations

import pytest

from pipeline import compiled


@pytest.fixture
def auto(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(compiled.ENV, raising=False)
    monkeypatch.setattr(compiled, "_one_shot", False)


@pytest.mark.usefixtures("auto")
def test_the_kernels_by_default_on_every_call() -> None:
    assert all(compiled.use_compiled(n) for n in (4, 6, 9, 16) for _ in range(300))


@pytest.mark.usefixtures("auto")
def test_a_one_shot_process_runs_python_below_16x16() -> None:
    compiled.one_shot()
    assert [compiled.use_compiled(n) for n in (4, 6, 9, 16, 25)] == [False, False, False, True, True]
    assert not any(compiled.use_compiled(9) for _ in range(300))  # no allowance runs out
    compiled.one_shot(False)
    assert compiled.use_compiled(9)


@pytest.mark.usefixtures("auto")
@pytest.mark.parametrize(("value", "one_shot", "want"), [
    ("python", False, False), ("Python", False, False), ("compiled", True, True), ("auto", True, False),
    ("auto", False, True), ("something", False, True), ("", True, False),
])
def test_the_variable_forces_one_side(monkeypatch: pytest.MonkeyPatch, value: str, one_shot: bool,
                                      want: bool) -> None:
    monkeypatch.setenv(compiled.ENV, value)
    compiled.one_shot(one_shot)
    assert compiled.use_compiled(9) is want
    assert compiled.use_compiled(16) is (value.lower() != "python")
