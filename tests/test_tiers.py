"""Every test runs in exactly one tier, and docs/testing.md names the system tier's files.

The tiers are marker expressions: ``make test`` takes pyproject's default selection, ``make
test-deep`` and ``make test-system`` (run by ``.ci/run`` after ``make test``) their own, and ``-m
slow`` the rest. The test evaluates the four expressions, read from pyproject.toml and the Makefile, on
every combination of the registered markers, and reads every test file's markers (module
``pytestmark``, class and function decorators, ``pytest.param`` marks) from its source, without
importing it. All five markers are written on the tests; ``deep`` is given to a test that costs
``tests.costs.DEEP_SECONDS`` or more (the one statement of that cost).
"""

from __future__ import annotations

import ast
import itertools
import re
import shlex
import tomllib
from pathlib import Path

import pytest

from tests.conftest import DEEP_PAIRS, ROOT
from tests.costs import DEEP_SECONDS, crossings, deep_cases, measured

COST = ("slow", "heavy", "deep", "system", "browser")  # the markers that choose a tier (parametrize & co. do not)


def _selection(option: str) -> str:
    """The ``-m`` expression of a pytest command line."""
    args = shlex.split(option)
    return args[args.index("-m") + 1]


class _Marks(dict[str, bool]):
    """A test's markers as the names of a selection expression: a marker it lacks is False."""

    def __missing__(self, name: str) -> bool:
        return False


def _matches(expression: str, marks: tuple[str, ...]) -> bool:
    """Whether ``-m expression`` selects a test marked ``marks`` (the expressions here are plain
    ``and``/``or``/``not`` of marker names: Python's own boolean syntax)."""
    assert re.fullmatch(r"[\w\s()]+", expression), expression
    return bool(eval(expression, {"__builtins__": {}}, _Marks.fromkeys(marks, True)))


def _tiers() -> dict[str, str]:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    tiers = {"make test": _selection(pyproject["tool"]["pytest"]["ini_options"]["addopts"]), "slow": "slow"}
    for target in ("deep", "system"):
        run = re.search(rf"^test-{target}:.*\n(?:\t.*\n)*?\t\$\(BIN\)/python -m pytest (.*?);", makefile, re.M)
        assert run, f"Makefile: test-{target} runs no pytest"
        tiers[target] = _selection(run.group(1))
    return tiers


def test_every_combination_of_markers_is_in_exactly_one_tier() -> None:
    tiers = _tiers()
    for k in range(len(COST) + 1):
        for marks in itertools.combinations(COST, k):
            where = [name for name, expr in tiers.items() if _matches(expr, marks)]
            assert len(where) == 1, f"a test marked {marks or 'nothing'} runs in {where or 'no tier'}"


def test_ci_runs_make_test_then_the_deep_and_system_tiers() -> None:
    steps = [ln.strip() for ln in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
             if ln.strip().startswith("make ")]
    assert steps == ["make test", "make test-deep", "make test-system"]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^test: \$\(STAMP\)\s", makefile, re.M), "make test must not need Chromium (make browser)"
    assert re.search(r"^test-system: .*\bbrowser\b", makefile, re.M), "make test-system installs Chromium"


def _mark_names(nodes: list[ast.expr]) -> set[str]:
    """``X`` of each ``pytest.mark.X`` or ``pytest.mark.X(...)`` among ``nodes``."""
    out = set()
    for node in nodes:
        target = node.func if isinstance(node, ast.Call) else node
        owner = getattr(target, "value", None)
        if isinstance(target, ast.Attribute) and isinstance(owner, ast.Attribute) and owner.attr == "mark":
            out.add(target.attr)
    return out


#: Helpers that mark some of the cases they return, and the marker they give: tests/golden.py's, and
#: tests/costs.py's for a generated parameter list.
PARAM_HELPERS = {"dear_to_the_oracles": "system", "deep_cases": "deep"}


def _param_marks(decorators: list[ast.expr]) -> set[str]:
    """The markers some parameters of a test carry: ``pytest.param(..., marks=...)`` written in its
    decorators, and the cases of a :data:`PARAM_HELPERS` helper."""
    out = set()
    for node in (n for d in decorators for n in ast.walk(d) if isinstance(n, ast.Call)):
        if isinstance(node.func, ast.Name) and node.func.id in PARAM_HELPERS:
            out.add(PARAM_HELPERS[node.func.id])
        for kw in node.keywords:
            if kw.arg == "marks":
                out |= _mark_names(kw.value.elts if isinstance(kw.value, ast.List | ast.Tuple) else [kw.value])
    return out


def markers_of(path: Path) -> dict[str, set[str]]:
    """Each test function of a file (``name`` or ``Class::name``) and its tier markers: the module's
    ``pytestmark``, its class's and its own decorators, and the markers some of its parameters carry
    (the file then holds a test of that tier), including the cases tests/conftest.py's ``DEEP_PAIRS``
    marks. A parameter list built elsewhere and passed by name (the fuzz tests' ``TIERS``, whose
    ``slow`` case is in neither tier) is not read."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
            module |= _mark_names(node.value.elts if isinstance(node.value, ast.List | ast.Tuple) else [node.value])

    where = path.relative_to(ROOT).as_posix()
    paired = {t.split("::", 1)[1].split("[", 1)[0] for t in DEEP_PAIRS if t.split("::", 1)[0] == where}

    def marks(decorators: list[ast.expr], outer: set[str], name: str) -> set[str]:
        return (outer | _mark_names(decorators) | _param_marks(decorators)
                | ({"deep"} if name in paired else set())) & set(COST)

    tests: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
            tests[node.name] = marks(node.decorator_list, module, node.name)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            cls = module | _mark_names(node.decorator_list)
            for sub in node.body:
                if isinstance(sub, ast.FunctionDef) and sub.name.startswith("test"):
                    tests[f"{node.name}::{sub.name}"] = marks(sub.decorator_list, cls, f"{node.name}::{sub.name}")
    return tests


def test_the_param_helpers_mark_what_the_reader_says() -> None:
    from tests import golden

    cases = golden.dear_to_the_oracles(golden.TDOKU + golden.SMALL)
    system = [c for c in cases if isinstance(c, type(pytest.param()))]
    assert system and all([m.name for m in c.marks] == [PARAM_HELPERS["dear_to_the_oracles"]] for c in system)
    deep = deep_cases(cases, golden.case_name, ".5...9.2B.1C-1", ".5...9.2B.1C-799")
    marked = {golden.case_name(*c.values): [m.name for m in c.marks] for c in deep
              if isinstance(c, type(pytest.param()))}
    assert marked == {".5...9.2B.1C-1": [PARAM_HELPERS["deep_cases"]], ".5...9.2B.1C-799": ["system", "deep"]}
    assert [c for c in deep if not isinstance(c, type(pytest.param()))] == \
        [c for c in cases if not isinstance(c, type(pytest.param())) and golden.case_name(*c) != ".5...9.2B.1C-1"]
    with pytest.raises(ValueError, match="names no case"):  # a renamed case fails the collection
        deep_cases(cases, golden.case_name, ".5...9.2B.1C-2")


TEST_FILES = sorted((ROOT / "tests").rglob("test_*.py"))


def test_the_marker_reader_sees_module_and_function_markers() -> None:
    crash = markers_of(ROOT / "tests" / "run" / "test_crash.py")
    assert crash["test_two_trials_exercise_the_script"] == {"heavy", "system"}
    assert crash["test_24_kills_at_random_moments_lose_nothing"] == {"heavy", "system", "slow"}
    search = markers_of(ROOT / "tests" / "solve" / "test_search.py")
    assert search["test_golden_cases_match_the_ilp"] == {"heavy", "system", "deep"}  # 799 solutions; DEEP_PAIRS
    assert markers_of(ROOT / "tests" / "ilp" / "test_engine.py")["test_ilp_counts"] == {"heavy", "system", "deep"}
    logic = markers_of(ROOT / "tests" / "difficulty" / "test_logic.py")
    assert logic["test_tdoku_multi_solution_puzzles"] == {"heavy", "deep"}  # some cases, pytest.param
    assert logic["test_tdoku_unique_puzzles_are_solved_soundly"] == {"deep"}  # a decorator
    board = markers_of(ROOT / "tests" / "test_board.py")
    assert board and not any(board.values())


def test_a_browser_test_is_in_the_system_tier() -> None:
    """make test does not install Chromium: a browser test runs in the system tier (or is slow)."""
    wrong = [f"{p.relative_to(ROOT)}::{name}" for p in TEST_FILES for name, marks in markers_of(p).items()
             if "browser" in marks and "system" not in marks]
    assert wrong == []


def test_docs_name_the_system_tiers_files() -> None:
    """docs/testing.md's system tier table lists exactly the files holding a system test (not slow),
    whole or some of its parameters."""
    text = (ROOT / "docs" / "testing.md").read_text(encoding="utf-8")
    section = text.split("## The system tier", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| `(tests/[\w/]+\.py)", section, re.M))
    marked = {str(p.relative_to(ROOT)) for p in TEST_FILES
              if any("system" in m and "slow" not in m for m in markers_of(p).values())}
    assert documented == marked


def test_deep_is_written_on_the_tests() -> None:
    """The ``deep`` marker is in the tests' source: the collection hook of tests/conftest.py gives it only
    to the cases of :data:`tests.conftest.DEEP_PAIRS` (two stacked parameter lists, where a case cannot
    be marked), each naming a parametrized test that exists, and no other file reads a list of tests."""
    assert 0 < len(DEEP_PAIRS) <= 2
    for test in DEEP_PAIRS:
        path, name = test.split("::", 1)
        assert name.split("[", 1)[0] in markers_of(ROOT / path) and "[" in name, test
    conftest = (ROOT / "tests" / "conftest.py").read_text(encoding="utf-8")
    assert conftest.count("add_marker(") == 1 and "DEEP_PAIRS" in conftest
    assert not (ROOT / "tests" / "deep.txt").exists()
    deep_files = {p.relative_to(ROOT) for p in TEST_FILES if any("deep" in m for m in markers_of(p).values())}
    assert len(deep_files) >= 20, deep_files


def test_the_deep_tests_are_not_selected_by_make_tests_expression(request: pytest.FixtureRequest) -> None:
    """Under a selection that leaves ``deep`` out (make test's), none of the tests this session runs is
    marked ``deep``: the marker is given before ``-m`` selects."""
    expression = request.config.getoption("markexpr")
    if not expression or _matches(expression, ("deep",)):
        pytest.skip(f"this session's selection ({expression or 'none'}) keeps deep tests")
    chosen = request.session.items
    assert chosen and not [item.nodeid for item in chosen if item.get_closest_marker("deep")]
    assert any(item.nodeid.split("::", 1)[0] == "tests/test_tiers.py" for item in chosen)


def test_the_costs_report_names_the_tests_that_cross_deep_seconds(tmp_path: Path) -> None:
    log = tmp_path / "durations.log"
    log.write_text(f"""============ slowest durations ============
{DEEP_SECONDS + 1:.2f}s call     tests/b.py::test_new[with a space]
0.50s setup    tests/b.py::test_new[with a space]
{DEEP_SECONDS / 2:.2f}s call     tests/a.py::test_now_quick
{DEEP_SECONDS * 3:.2f}s call     tests/a.py::test_kept
1.00s call     tests/b.py::test_quick
""", encoding="utf-8")
    costs = measured([log])
    assert costs["tests/b.py::test_new[with a space]"] == DEEP_SECONDS + 1.5
    deep = {"tests/a.py::test_kept", "tests/a.py::test_now_quick", "tests/c.py::test_in_no_log"}
    assert crossings(costs, deep) == ([f"{DEEP_SECONDS + 1.5:.1f}\ttests/b.py::test_new[with a space]"],
                                      [f"{DEEP_SECONDS / 2:.1f}\ttests/a.py::test_now_quick"])
