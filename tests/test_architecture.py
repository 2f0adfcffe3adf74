"""The layout is a contract (docs/architecture.md), read from the source with ``ast`` so that a change
that breaks it fails here:

- the layers: each room of ``pipeline`` imports only the rooms below it (:data:`ALLOWED`);
- the executors: dask and joblib are imported only where :data:`EXECUTOR_LIBS` says;
- the CLI is thin: nothing below ``pipeline/cli/`` imports typer;
- compiled twins: a module compiled with numba is named ``<name>_jit.py``; only ``_jit`` modules
  import numba, and every one of them does.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "pipeline"

# room -> rooms it may import (besides itself). A room is a sub-package or a top-level module.
ALLOWED: dict[str, set[str]] = {
    "errors": set(),  # UserError, the base of every user-facing error
    "board": {"errors"},
    "symmetry": set(),
    "atomic": set(),
    "tablecache": {"atomic"},  # checksummed numpy tables in the user cache
    "progress": set(),
    "compiled": set(),  # compiled kernels or pure Python: the one decision
    # the independent checker and its compiled counter (count_jit); independent on purpose: no ilp, generate or symmetry
    "verify": {"board", "compiled"},
    "ilp": {"board", "tablecache"},  # tablecache: the IP's matrix, cached
    "difficulty": {"board", "compiled"},
    "identity": {"board", "tablecache", "compiled"},
    "generate": {"board", "symmetry", "ilp", "difficulty", "identity", "compiled"},
    # generate: the pure search tier (count) and, lazily, the compiled counter (count_jit); difficulty: trial.settle
    "solve": {"board", "errors", "ilp", "atomic", "generate", "difficulty"},
    "config": {"board", "errors", "symmetry", "difficulty"},
    "run": {"__init__", "board", "errors", "symmetry", "atomic", "verify", "config", "generate", "identity",
            "difficulty", "tablecache"},  # tablecache: the kernels' build stamp (run/kernels.py)
    "solver": {"solve"},  # the README's import path, re-exported
    # publish reads sets, writes via atomic, reads YAML via config
    "publish": {"__init__", "board", "errors", "atomic", "config", "run", "difficulty"},
    "cli": {"__init__", "errors", "board", "atomic", "config", "progress", "difficulty", "generate", "identity", "run",
            "solve", "publish", "studio", "compiled"},
    # the studio: a web face over the library (every room but the CLI); nothing imports it but the CLI
    # (tablecache: the user cache folder its kept values live in; __init__: the version in their keys)
    "studio": {"__init__", "errors", "board", "symmetry", "atomic", "tablecache", "progress", "verify", "config",
               "difficulty", "identity",
               "generate", "solve", "run", "publish"},
    "__main__": {"cli"},
    "__init__": set(),
}

# Third-party executors, and the only modules that may import them: the run's executor is known to
# pipeline/run/execute.py alone; the batch solver keeps its own joblib pool.
EXECUTOR_LIBS: dict[str, set[str]] = {
    "dask": {"run/execute.py"},
    "distributed": {"run/execute.py"},
    "joblib": {"run/execute.py", "solve/batch.py"},
}


def _room(module: str) -> str:
    """``pipeline.run.store`` -> ``run``; ``pipeline`` -> ``__init__`` (the version)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _imports(path: Path) -> set[str]:
    """Dotted names of the ``pipeline`` modules (or packages) that ``path`` imports."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] == "pipeline")
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "pipeline":
            if node.module == "pipeline":  # from pipeline import board, __version__
                out.update("pipeline" if a.name.startswith("__") else f"pipeline.{a.name}" for a in node.names)
            else:
                out.add(node.module)
    return out


def _rooms() -> dict[Path, str]:
    return {p: (p.relative_to(PACKAGE).parts[0].removesuffix(".py")) for p in PACKAGE.rglob("*.py")}


def test_every_room_is_known() -> None:
    assert set(_rooms().values()) == set(ALLOWED)


def test_each_room_imports_only_what_is_below_it() -> None:
    crossings = []
    for path, room in _rooms().items():
        for target in _imports(path):
            other = _room(target)
            if other != room and other not in ALLOWED[room]:
                crossings.append(f"{path.relative_to(PACKAGE.parent)} imports {target}")
    assert crossings == []


def _libraries(path: Path) -> set[str]:
    """Top-level names of the absolute imports in ``path``: ``from typer.testing import x`` -> ``typer``."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else []
        found |= {n.split(".")[0] for n in names}
    return found


def test_only_the_executor_imports_dask() -> None:
    found = {(lib, path.relative_to(PACKAGE).as_posix()) for path in PACKAGE.rglob("*.py") for lib in _libraries(path)}
    crossings = [f"{where} imports {lib}" for lib, where in found if lib in EXECUTOR_LIBS
                 and where not in EXECUTOR_LIBS[lib]]
    assert crossings == []
    assert ("distributed", "run/execute.py") in found  # the check reads what it should


def _typer_outside_cli(package: Path) -> list[str]:
    """The modules of ``package`` outside its ``cli/`` that import typer."""
    return sorted(p.relative_to(package).as_posix() for p in package.rglob("*.py")
                  if p.relative_to(package).parts[0] != "cli" and "typer" in _libraries(p))


def test_nothing_below_the_cli_imports_typer() -> None:
    assert _typer_outside_cli(PACKAGE) == []
    assert "typer" in _libraries(PACKAGE / "cli" / "base.py")  # the check reads what it should


def test_the_typer_check_sees_a_crossing(tmp_path: Path) -> None:
    """The guard can fail: typer imported in any form outside ``cli/`` is found; inside it is not."""
    for where, text in {"cli/app.py": "import typer\n", "run/x.py": "from typer.testing import CliRunner\n",
                        "board.py": "import typer.core as core\n"}.items():
        (tmp_path / where).parent.mkdir(exist_ok=True)
        (tmp_path / where).write_text(text, encoding="utf-8")
    assert _typer_outside_cli(tmp_path) == ["board.py", "run/x.py"]


def test_the_check_sees_a_crossing(tmp_path: Path) -> None:
    """The guard can fail: each form of import is read, and the rooms it reaches are walled off."""
    probe = tmp_path / "probe.py"
    probe.write_text("from pipeline import cli, __version__\nfrom pipeline.run.store import StoreError\n"
                     "import pipeline.ilp.engine\nimport polars\n", encoding="utf-8")
    found = _imports(probe)
    assert found == {"pipeline.cli", "pipeline", "pipeline.run.store", "pipeline.ilp.engine"}
    assert {_room(m) for m in found} == {"cli", "__init__", "run", "ilp"}
    assert "cli" not in ALLOWED["verify"] and "run" not in ALLOWED["solve"]


def _twin_misnamed(package: Path) -> list[str]:
    """The modules of ``package`` that break the twin rule: numba imported by a module whose name
    does not end in ``_jit``, or a ``_jit`` module that does not import numba."""
    return sorted(p.relative_to(package).as_posix() for p in package.rglob("*.py")
                  if ("numba" in _libraries(p)) != p.stem.endswith("_jit"))


def test_compiled_twins_are_named_jit() -> None:
    assert _twin_misnamed(PACKAGE) == []
    twins = {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*_jit.py")}
    assert {"generate/count_jit.py", "verify/count_jit.py", "identity/canon_jit.py",
            "identity/numbering_jit.py", "difficulty/logic_jit.py"} <= twins  # the check reads what it should


def test_the_twin_check_sees_a_misnamed_module(tmp_path: Path) -> None:
    """The guard can fail both ways: numba in a plain module, a ``_jit`` module without numba."""
    for where, text in {"fast.py": "from numba import njit\n", "count_jit.py": "import numpy\n",
                        "ok_jit.py": "import numba\n", "lazy.py": "def f():\n    import numba.core\n",
                        "plain.py": "import numpy\n"}.items():
        (tmp_path / where).write_text(text, encoding="utf-8")
    assert _twin_misnamed(tmp_path) == ["count_jit.py", "fast.py", "lazy.py"]


def test_only_the_studio_imports_streamlit() -> None:
    """The web framework is an optional extra: only ``pipeline/studio/`` imports it, and there only
    the page-side modules (the launcher finds it without importing it, so the CLI works without it)."""
    found = sorted(p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py") if "streamlit" in _libraries(p))
    assert found and all(f.startswith("studio/") for f in found), found
    top = ast.parse((PACKAGE / "studio" / "launch.py").read_text(encoding="utf-8")).body  # module level only
    assert not [n for n in top if isinstance(n, ast.Import | ast.ImportFrom) and "streamlit" in ast.dump(n)]
    assert not {"studio/words.py", "studio/puzzle_io.py", "studio/draw.py", "studio/forms.py"} & set(found)


def _private_crossings(package: Path, dotted: str, shared: str) -> list[str]:
    """The Python (not ``_jit``) modules of ``package``'s sub-packages that import a ``_private`` name
    of another module of ``package`` (``dotted``, its import name), but of ``shared`` (the state every
    module reads)."""
    found = []
    for path in sorted(package.glob("*/*.py")):
        if path.stem.endswith("_jit"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(dotted) \
                    and node.module != shared:
                found += [f"{path.relative_to(package).as_posix()} imports {node.module}.{a.name}"
                          for a in node.names if a.name.startswith("_")]
    return found


def test_the_technique_families_read_each_other_by_public_names() -> None:
    """The finder families of ``difficulty/`` (``chains/``' engine and graph above all) reach one another
    only through public names; the candidate state is the one shared private surface."""
    assert _private_crossings(PACKAGE / "difficulty", "pipeline.difficulty", "pipeline.difficulty.candidates") == []


def test_the_private_crossing_check_sees_one(tmp_path: Path) -> None:
    """The guard can fail: a family module importing a sibling's private name is found."""
    (tmp_path / "difficulty" / "chains").mkdir(parents=True)
    (tmp_path / "difficulty" / "chains" / "grouped.py").write_text(
        "from pipeline.difficulty.chains.loops import _graph, Graph\n"
        "from pipeline.difficulty.candidates import _Ctx\n", encoding="utf-8")
    (tmp_path / "difficulty" / "chains" / "engine_jit.py").write_text(
        "from pipeline.difficulty.chains.loops_jit import _links\n", encoding="utf-8")
    found = _private_crossings(tmp_path / "difficulty", "pipeline.difficulty", "pipeline.difficulty.candidates")
    assert found == ["chains/grouped.py imports pipeline.difficulty.chains.loops._graph"]


#: The house's size rules (docs/architecture.md): no Python function over MAX_FUNCTION_LINES outside the
#: ``*_jit.py`` modules (a compiled kernel is one loop numba must see whole), no module over MAX_MODULE_LINES.
MAX_FUNCTION_LINES = 80
MAX_MODULE_LINES = 600
#: Today's known offenders, each with who fixes it. The lead deletes an entry when its fix is merged; an
#: entry that no longer offends fails the test, so the list cannot outlive its fix.
SIZE_ALLOWED: dict[str, str] = {
}


def size_offenders(package: Path = PACKAGE) -> list[str]:
    """``path`` for each module over :data:`MAX_MODULE_LINES` lines, ``path:function`` (or
    ``path:Class.method``) for each function over :data:`MAX_FUNCTION_LINES` outside ``*_jit.py``."""
    out = []
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package).as_posix()
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > MAX_MODULE_LINES:
            out.append(rel)
        if path.stem.endswith("_jit"):
            continue
        tree = ast.parse(text)
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                if (isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) and child.end_lineno is not None
                        and child.end_lineno - child.lineno + 1 > MAX_FUNCTION_LINES):
                    owner = f"{node.name}." if isinstance(node, ast.ClassDef) else ""
                    out.append(f"{rel}:{owner}{child.name}")
    return out


def test_no_function_over_80_lines_and_no_module_over_600() -> None:
    found = size_offenders()
    assert [f for f in found if f not in SIZE_ALLOWED] == []
    assert [f for f in SIZE_ALLOWED if f not in found] == []  # fixed: delete its entry


def test_the_size_check_sees_a_long_function_and_a_long_module(tmp_path: Path) -> None:
    body = "\n".join(f"    x{k} = {k}" for k in range(MAX_FUNCTION_LINES))
    method = body.replace("    ", "        ")
    (tmp_path / "a.py").write_text(f"def long():\n{body}\n\n\nclass C:\n    def m(self):\n{method}\n", encoding="utf-8")
    (tmp_path / "b_jit.py").write_text(f"def kernel():\n{body}\n", encoding="utf-8")
    (tmp_path / "c.py").write_text("x = 1\n" * (MAX_MODULE_LINES + 1), encoding="utf-8")
    assert size_offenders(tmp_path) == ["a.py:long", "a.py:C.m", "c.py"]
