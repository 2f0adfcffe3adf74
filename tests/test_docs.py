"""The docs are a contract too: every link and anchor of README.md, CHANGELOG.md and docs/*.md
resolves, the README stays a front door (at most 300 lines, linking every docs page), every command
and flag of the CLI is documented, and every code block is run or checked by what its language says
(docs/testing.md, "The docs are tested"):

* ``python``: run in a fresh interpreter, in a folder holding a small set ``outputs/default-classic``;
* ``sh``, ``console``: each ``numplace ...`` command is parsed by the CLI with ``--help`` appended; in a
  ``console`` transcript the cheap commands are run and their output compared with the lines shown;
* ``yaml``: loaded by the project's config loader (run config, or book config);
* ``json``: parsed, one object per line;
* ``text``, ``ini``: shown, not run (output, log lines, crontab and systemd files).
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT
from tests.costs import deep_cases

README = ROOT / "README.md"
CHANGELOG = ROOT / "CHANGELOG.md"
DOCS = ROOT / "docs"
PAGES = [README, CHANGELOG, *sorted(DOCS.glob("*.md"))]
README_MAX_LINES = 300

RUN, SHELL, CONFIG, DATA, SHOWN = "run", "shell", "config", "data", "shown"
LANGS = {"python": RUN, "sh": SHELL, "console": SHELL, "yaml": CONFIG, "json": DATA, "text": SHOWN, "ini": SHOWN}

#: Commands cheap enough to run in a transcript (no set on disk needed, a second or less each).
CHEAP = {"solve", "rate", "show", "canon", "grid-number", "grid-from-number", "--version"}

BOOK_KEYS = {"title", "subtitle", "author", "page", "per_page", "sections", "numbering", "answers", "labels",
             "stars", "title_page", "contents"}


@dataclass(frozen=True)
class Block:
    path: Path
    line: int  # 1-based line of the opening fence
    lang: str
    text: str

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)")


def _split(path: Path) -> tuple[list[Block], str]:
    """The fenced code blocks of a page, and its prose (blocks blanked out, line count kept)."""
    blocks: list[Block] = []
    prose: list[str] = []
    fence: str | None = None
    start, lang, body = 0, "", []
    for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        m = FENCE.match(line)
        if fence is None and m:
            fence, start, lang, body = m.group(1), n, m.group(2), []
            prose.append("")
        elif fence is not None and line.strip().startswith(fence) and not line.strip().strip(fence[0]):
            blocks.append(Block(path, start, lang, "\n".join(body) + "\n"))
            fence = None
            prose.append("")
        elif fence is not None:
            body.append(line)
            prose.append("")
        else:
            prose.append(line)
    assert fence is None, f"{path.relative_to(ROOT)}:{start}: code block never closed"
    return blocks, "\n".join(prose)


def _no_code_spans(text: str) -> str:
    return re.sub(r"(`+).+?\1", "", text, flags=re.S)


def blocks_of(*langs: str) -> list[Block]:
    return [b for p in PAGES for b in _split(p)[0] if b.lang in langs]


# ---------------------------------------------------------------------------------------------
# Links and anchors
# ---------------------------------------------------------------------------------------------

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: the rendered text, lower-cased, with everything but letters,
    marks, digits, ``_``, ``-`` and spaces dropped, and spaces turned into ``-``."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links and images: their text
    text = re.sub(r"(`+)(.+?)\1", r"\2", text)  # code spans: their content
    text = re.sub(r"(\*\*|__|\*)(.+?)\1", r"\2", text)  # emphasis markers
    keep = [ch for ch in text.lower() if ch in "_- " or unicodedata.category(ch)[0] in "LMN"]
    return "".join(keep).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    out: set[str] = set()
    for line in _split(path)[1].split("\n"):
        m = HEADING.match(line)
        if not m:
            continue
        base = slug(m.group(2))
        k = seen.get(base, 0)
        seen[base] = k + 1
        out.add(base if k == 0 else f"{base}-{k}")
    return out


def links(path: Path) -> list[str]:
    return LINK.findall(_no_code_spans(_split(path)[1]))


def test_slug_follows_githubs_rules() -> None:
    assert slug("Variants: X, hyper, jigsaw, killer") == "variants-x-hyper-jigsaw-killer"
    assert slug("_manifest.json") == "_manifestjson"
    assert slug("Books (`numplace book`)") == "books-numplace-book"
    assert slug("2026-11-23 — speed (issue #15): grids") == "2026-11-23--speed-issue-15-grids"
    assert slug("Dependencies, and why each") == "dependencies-and-why-each"


def broken_links(page: Path, root: Path = ROOT) -> list[str]:
    """The relative links of ``page`` whose file (inside ``root``) or ``#anchor`` does not exist."""
    broken = []
    for target in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...
            continue
        where, _, anchor = target.partition("#")
        dest = (page.parent / where).resolve() if where else page
        if not dest.is_relative_to(root) or not dest.exists():
            broken.append(f"{target}: no such file in the repository")
        elif anchor and (dest.suffix != ".md" or anchor not in anchors(dest)):
            broken.append(f"{target}: no heading with anchor #{anchor} in {dest.name}")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_and_anchor_resolves(page: Path) -> None:
    assert broken_links(page) == [], page.relative_to(ROOT)


def test_the_link_check_sees_a_broken_link(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    (tmp_path / "other.md").write_text("# Other\n\n## Exit codes\n", encoding="utf-8")
    page.write_text("# Page\n\n[ok](other.md#exit-codes) [top](#page) `[code](nowhere.md)`\n"
                    "[gone](gone.md) [bad](other.md#exit-code) [up](../outside.md)\n\n```text\n[x](y.md)\n```\n",
                    encoding="utf-8")
    assert [b.split(":")[0] for b in broken_links(page, tmp_path)] == ["gone.md", "other.md#exit-code",
                                                                        "../outside.md"]


def test_the_readme_is_a_front_door_that_links_every_docs_page() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines; at most {README_MAX_LINES}"
    linked = {(README.parent / t.partition("#")[0]).resolve() for t in links(README) if t.partition("#")[0]}
    missing = [p.name for p in sorted(DOCS.glob("*.md")) if p.resolve() not in linked]
    assert missing == [], f"docs pages the README does not link: {missing}"
    assert (CHANGELOG.resolve() in linked) and len(list(DOCS.glob("*.md"))) >= 8


def test_only_the_changelog_cites_issue_numbers() -> None:
    cites = re.compile(r"\bissues?\s+#?\d+|(?<![\w&/#])#\d+\b", re.I)
    found = [f"{p.relative_to(ROOT)}: {m.group(0)!r}" for p in PAGES if p != CHANGELOG
             for m in cites.finditer(p.read_text(encoding="utf-8"))]
    assert found == []


#: Pages that keep dated runs: every other page describes what is (docs/testing.md, "Reference pages").
HISTORY = {CHANGELOG, DOCS / "benchmarks-history.md"}
#: Reference pages that grew into lab notebooks before: their most lines.
MAX_LINES = {"difficulty.md": 450, "studio.md": 300, "benchmarks.md": 450}
#: A commit hash as a page would cite one: 7 to 12 hex digits, or 40, with a digit and a letter, a word of
#: its own (not a run id's tail ``...Z-02df3648``, a path, an anchor or a longer digest).
COMMIT = re.compile(r"(?<![\w\-./#])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)([0-9a-f]{7,12}|[0-9a-f]{40})(?![\w\-])")
LOAD = re.compile(r"load average|\bat (a )?load (of )?\d|\bload \d+(\.\d+)?\s*(to|-|\u2013)\s*\d", re.I)


def lab_notes(text: str) -> list[str]:
    """What keeps a page from being a reference: a machine's load, a commit hash."""
    return [m.group(0) for m in LOAD.finditer(text)] + [m.group(0) for m in COMMIT.finditer(text)]


def test_reference_pages_hold_no_load_average_and_no_commit_hash() -> None:
    found = [f"{p.relative_to(ROOT)}: {n}" for p in PAGES if p not in HISTORY
             for n in lab_notes(p.read_text(encoding="utf-8"))]
    assert found == [], "dated runs go to docs/benchmarks-history.md or CHANGELOG.md"


def test_the_lab_notes_check_sees_a_load_and_a_hash() -> None:
    assert lab_notes("measured at load average 3 on e673991") == ["load average", "e673991"]
    assert lab_notes("at load 22-27, base `90f3ee5`") == ["at load 2", "90f3ee5"]
    assert lab_notes("run 20261123T025107Z-02df3648, config_hash 02df36480de8ef48, docs/x.md#a1b2c3d") == []


@pytest.mark.parametrize("name", sorted(MAX_LINES))
def test_reference_pages_stay_short(name: str) -> None:
    lines = (DOCS / name).read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES[name], f"docs/{name} has {lines} lines; move dated runs to benchmarks-history.md"


def mapped_modules(text: str) -> set[str]:
    """The modules the module map of architecture.md names, as paths below ``pipeline/``.

    A line ``  name/`` (two spaces) opens a package, ``    name/`` (four) a sub-package of it; a
    line ``  name.py`` (two spaces) is a top-level module; every other ``x.py`` on a line belongs to
    the package (or sub-package) open at that line."""
    block = text.split("## Module map", 1)[1].split("```text", 1)[1].split("```", 1)[0]
    found: set[str] = set()
    pkg = sub = ""
    for line in block.splitlines():
        if m := re.match(r"^  (\w+)/", line):
            pkg, sub = m.group(1) + "/", ""
        elif re.match(r"^  \w+\.py", line):
            pkg = sub = ""
        elif m := re.match(r"^    (\w+)/", line):
            sub = m.group(1) + "/"
        elif re.match(r"^    \w+\.py", line):
            sub = ""
        found |= {pkg + sub + name for name in re.findall(r"\b(\w+\.py)\b", line)}
    return found


def package_modules(package: Path) -> set[str]:
    """The modules of ``package`` (paths below it); a sub-package's ``__init__.py`` is its folder's."""
    return {p.relative_to(package).as_posix() for p in package.rglob("*.py")
            if p.name != "__init__.py" or p.parent == package}


def test_the_module_map_names_every_module() -> None:
    mapped = mapped_modules((DOCS / "architecture.md").read_text(encoding="utf-8"))
    actual = package_modules(ROOT / "pipeline")
    assert sorted(actual - mapped) == []  # a module the map does not name
    assert sorted(mapped - actual) == []  # a name in the map that is not a module


def _technique_rows(text: str) -> dict[str, tuple[str, str, float, str]]:
    """The technique tables' rows: ``name -> (title, level, weight, next column)``, from
    ``| Title (`name`...) | level | weight | ... |``."""
    rows = re.findall(r"^\| ([^|]*?) \(`(\w+)`[^|]*\| (\w+) \| (\d+) \| ([^|]*)\|", text, flags=re.MULTILINE)
    return {name: (title, level, float(weight), rest.strip()) for title, name, level, weight, rest in rows}


def test_the_difficulty_table_is_the_registry() -> None:
    """docs/difficulty.md's technique tables say each row's title, level and weight, and HoDoKu's step
    name, as the registry row does (the one place they are written; this test is the table's check)."""
    from pipeline.difficulty.techniques import TECHNIQUES

    rows = _technique_rows((DOCS / "difficulty.md").read_text(encoding="utf-8"))
    want = [f"| {x.title} (`{t}`) | {x.level} | {x.weight:g} | {x.hodoku or '(killer: what it does)'} |"
            for t, x in TECHNIQUES.items() if rows.get(t, ("",) * 3)[:3] != (x.title, x.level, x.weight)]
    assert want == [], "docs/difficulty.md's technique table, the rows as the registry has them:\n" + "\n".join(want)
    assert [t for t, x in TECHNIQUES.items() if x.hodoku and not rows[t][3].startswith(x.hodoku)] == []
    assert not _technique_rows("| Avoidable Rectangle Type 1 (`avoidable_rectangle_1`) | hard | x | y |\n")


def test_the_score_limits_the_pages_state_are_the_registrys() -> None:
    """The level limits difficulty.md states (the 9x9 sentence, the giant boards' table) are
    :data:`~pipeline.difficulty.techniques.MAX_SCORE` and :func:`~pipeline.difficulty.grade.max_score`."""
    from pipeline.difficulty.grade import max_score
    from pipeline.difficulty.techniques import LEVELS, MAX_SCORE

    text = (DOCS / "difficulty.md").read_text(encoding="utf-8")
    said = re.search(r"limits easy (\d+),\s+medium (\d+), hard (\d+), expert (\d+)\)", text)
    assert said and [float(v) for v in said.groups()] == [MAX_SCORE[lv] for lv in LEVELS[:4]]
    table = {m.group(1): [int(v.replace(",", "")) for v in m.groups()[1:]] for m in re.finditer(
        r"^\| (\w+)[^|]* \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \|$", text, flags=re.MULTILINE)}
    assert table == {lv: [round(max_score(lv, n)) for n in (9, 16, 25)] for lv in LEVELS[:4]}


def test_the_module_map_check_sees_a_missing_module() -> None:
    text = "## Module map\n\n```text\npipeline/\n  board.py  x\n  run/  y\n    plan.py  z;  lock.py  w\n" \
           "    audit/  parts.py\n                ids.py\n    rows.py\n```\n"
    assert mapped_modules(text) == {"board.py", "run/plan.py", "run/lock.py", "run/audit/parts.py",
                                    "run/audit/ids.py", "run/rows.py"}


# ---------------------------------------------------------------------------------------------
# The CLI: every command and flag documented, every documented command parsed
# ---------------------------------------------------------------------------------------------

def _entry_point() -> tuple[str, str]:
    """``(module, function)`` of the ``numplace`` console script, from pyproject.toml."""
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    module, _, func = scripts["numplace"].partition(":")
    return module, func


def test_every_command_and_flag_is_in_the_cli_page() -> None:
    import importlib

    import typer

    module, _ = _entry_point()
    group = typer.main.get_command(importlib.import_module(module).app)
    page = (DOCS / "cli.md").read_text(encoding="utf-8")
    rows = [line for line in page.split("\n") if line.startswith("| `numplace")]
    missing = []
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        row = next((r for r in rows if r.startswith(f"| `numplace {name} ") or r.startswith(f"| `numplace {name}`")),
                   None)
        if row is None:
            missing.append(f"numplace {name}: no row in docs/cli.md's command table")
            continue
        missing += [f"numplace {name} {opt}" for p in command.params for opt in p.opts
                    if opt.startswith("--") and opt != "--help" and not re.search(re.escape(opt) + r"\b", row)]
    assert missing == []


SHELL_OPS = set("();<>|&")


def numplace_args(line: str) -> list[str] | None:
    """The arguments of a ``numplace ...`` command line (prompt, comment and shell operators cut),
    or None when the line runs something else."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    tokens = []
    for tok in lexer:
        if set(tok) <= SHELL_OPS:
            break
        tokens.append(tok)
    if not tokens or not (tokens[0] == "numplace" or tokens[0].endswith("/numplace")):
        return None
    return tokens[1:]


def commands(block: Block) -> list[tuple[int, str]]:
    """``(line, command text)`` of each command of a shell block: every line of ``sh``, the ``$``
    lines of a ``console`` transcript."""
    out = []
    for k, line in enumerate(block.text.split("\n"), block.line + 1):
        if block.lang == "console":
            if line.startswith("$ "):
                out.append((k, line[2:]))
        elif line.strip() and not line.lstrip().startswith("#"):
            out.append((k, line))
    return out


SHELL_BLOCKS = blocks_of("sh", "console")
DOCUMENTED = [(f"{b.path.relative_to(ROOT)}:{k}", args) for b in SHELL_BLOCKS for k, text in commands(b)
              if (args := numplace_args(text)) is not None]


def parse_codes(arglists: list[list[str]]) -> list[tuple[int, str]]:
    """The exit code (and the end of the output) of ``numplace ARGS --help`` for each argument list,
    all in one interpreter through the console script's entry point."""
    module, func = _entry_point()
    driver = (
        "import contextlib, io, json, sys\n"
        f"from {module} import {func} as main\n"
        "codes = []\n"
        "for args in json.loads(sys.stdin.read()):\n"
        "    sys.argv = ['numplace', *args, '--help']\n"
        "    out = io.StringIO()\n"
        "    try:\n"
        "        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):\n"
        "            main()\n"
        "        code = 0\n"
        "    except SystemExit as exc:\n"
        "        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)\n"
        "    codes.append([int(code), out.getvalue()[-300:]])\n"
        "print(json.dumps(codes))\n"
    )
    res = subprocess.run([sys.executable, "-c", driver], input=json.dumps(arglists), cwd=ROOT,
                         capture_output=True, text=True, timeout=600, env=_env())
    assert res.returncode == 0, res.stderr
    return [(code, tail) for code, tail in json.loads(res.stdout)]


@pytest.mark.deep
def test_every_documented_command_parses() -> None:
    """Each ``numplace ...`` line of a sh/console block, with ``--help`` appended, is accepted by the
    CLI's parser (its command and options exist); the check itself refuses a made-up flag."""
    assert len(DOCUMENTED) >= 30
    probes = [["run", "x.yaml", "--no-such-flag"], ["no-such-command"]]
    codes = parse_codes([a for _, a in DOCUMENTED] + probes)
    assert [c for c, _ in codes[-2:]] == [2, 2]
    bad = [f"{where}: numplace {shlex.join(args)} --help -> exit {code}: {tail}"
           for (where, args), (code, tail) in zip(DOCUMENTED, codes, strict=False) if code != 0]
    assert bad == []


@dataclass(frozen=True)
class Transcript:
    where: str
    command: str
    expected: list[str]


def transcripts() -> list[Transcript]:
    """The cheap commands of the console blocks with the lines shown after them."""
    out = []
    for b in blocks_of("console"):
        lines = b.text.rstrip("\n").split("\n")
        for k, line in enumerate(lines):
            if not line.startswith("$ "):
                continue
            args = numplace_args(line[2:])
            if not args or (args[0] not in CHEAP and not (args[0] == "count-grids" and "--band" in args)):
                continue
            if any("outputs/" in a for a in args):
                continue
            shown = []
            for later in lines[k + 1:]:
                if later.startswith("$ "):
                    break
                shown.append(later)
            while shown and not shown[-1].strip():
                shown.pop()
            out.append(Transcript(f"{b.path.relative_to(ROOT)}:{b.line + 1 + k}", line[2:], shown))
    return out


def matches(expected: list[str], actual: list[str]) -> str | None:
    """None when ``actual`` is what ``expected`` shows: line for line, where a line ending in ``...``
    is a prefix and a line ``...`` skips any number of lines; else the first difference."""
    i, skip = 0, False
    for want in expected:
        if want.strip() in ("...", "…"):
            skip = True
            continue
        prefix = want.rstrip().endswith("...")
        stem = want.rstrip()[:-3].rstrip() if prefix else want.rstrip()
        inner = re.compile(".*".join(map(re.escape, stem.split("..."))) + (".*" if prefix else "")) \
            if "..." in stem else None

        def fits(got: str, stem: str = stem, prefix: bool = prefix, inner: re.Pattern[str] | None = inner) -> bool:
            if inner is not None:  # "..." inside a line: any text there
                return inner.fullmatch(got.rstrip()) is not None
            return got.rstrip().startswith(stem) if prefix else got.rstrip() == stem

        while i < len(actual) and skip and not fits(actual[i]):
            i += 1
        if i >= len(actual) or not fits(actual[i]):
            return f"expected {want!r}, got {actual[i] if i < len(actual) else 'the end'!r}"
        i, skip = i + 1, False
    if i < len(actual) and not skip:
        return f"unexpected extra output {actual[i]!r}"
    return None


def test_matches_reads_the_transcript_conventions() -> None:
    assert matches(["a", "b ..."], ["a", "b c"]) is None
    assert matches(["a", "...", "z"], ["a", "b", "c", "z"]) is None
    assert matches(["a", "..."], ["a", "b"]) is None
    assert matches(["a"], ["a", "b"]) is not None
    assert matches(["a", "z"], ["a", "b", "z"]) is not None
    assert matches(["b"], ["a"]) is not None
    assert matches(["wrote ... puzzles as png to png (..."], ["wrote 22 puzzles as png to png (22 file(s))"]) is None
    assert matches(["wrote ... puzzles as png"], ["wrote 22 puzzles as svg"]) is not None


def _env() -> dict[str, str]:
    path = os.environ.get("PYTHONPATH")
    return dict(os.environ, PYTHONUNBUFFERED="1", PYTHONPATH=f"{ROOT}{os.pathsep}{path}" if path else str(ROOT))


@pytest.fixture(scope="module")
def numplace_on_path(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """An environment whose ``numplace`` is this checkout's CLI in this interpreter."""
    bin_dir = tmp_path_factory.mktemp("bin")
    script = bin_dir / "numplace"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m pipeline "$@"\n', encoding="utf-8")
    script.chmod(0o755)
    env = _env()
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    return env


TRANSCRIPTS = transcripts()


def test_cheap_transcripts_are_found() -> None:
    assert len(TRANSCRIPTS) >= 10


@pytest.mark.parametrize("tr", deep_cases(TRANSCRIPTS, lambda t: t.where, "docs/variants.md:152"),
                         ids=lambda t: t.where)
def test_a_transcript_prints_what_it_shows(tr: Transcript, numplace_on_path: dict[str, str]) -> None:
    res = subprocess.run(["bash", "-c", tr.command], cwd=ROOT, env=numplace_on_path, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, timeout=300)
    diff = matches(tr.expected, res.stdout.rstrip("\n").split("\n"))
    assert diff is None, f"{tr.where}: $ {tr.command}\n{diff}\n--- got:\n{res.stdout}"
    fails = any(line.startswith("numplace: error:") for line in tr.expected)
    assert (res.returncode != 0) == fails, f"{tr.where}: exit {res.returncode}"


#: Commands whose transcripts on a set (``outputs/<set>``) state counts of pages and puzzles: run by
#: test_a_set_transcript_prints_what_it_shows on a 9x9 set of SET_COUNT puzzles of configs/default.yaml.
ON_A_SET = {"book", "export"}
SET_COUNT = 160
COUNT_WORDS = re.compile(r"\b\d[\d,]* (pages?|puzzles?)\b")


def set_transcripts() -> list[tuple[Block, list[Transcript]]]:
    """The console blocks holding a book or export of ``outputs/...``, each with its transcripts in
    order (a later command may read a file an earlier one wrote, as ``--exclude book.used.json``)."""
    out = []
    for b in blocks_of("console"):
        lines = b.text.rstrip("\n").split("\n")
        found = []
        for k, line in enumerate(lines):
            args = numplace_args(line[2:]) if line.startswith("$ ") else None
            if not args or args[0] not in ON_A_SET or not any(a.startswith("outputs/") for a in args):
                continue
            shown = []
            for later in lines[k + 1:]:
                if later.startswith("$ "):
                    break
                shown.append(later)
            found.append(Transcript(f"{b.path.relative_to(ROOT)}:{b.line + 1 + k}", line[2:], shown))
        if found:
            out.append((b, found))
    return out


SET_TRANSCRIPTS = set_transcripts()


def example_file(page: Path, name: str) -> str:
    """The YAML block of ``page`` that its prose introduces as ``--config NAME`` (within the three lines
    before the block's fence)."""
    text = page.read_text(encoding="utf-8").split("\n")
    for b in _split(page)[0]:
        if b.lang == "yaml" and any(f"--config {name}" in s for s in text[max(0, b.line - 4):b.line - 1]):
            return b.text
    raise AssertionError(f"{page.relative_to(ROOT)}: no yaml block introduced as --config {name}")


#: Stated counts run by another test, which compares the command's output with the page's line.
CHECKED_ELSEWHERE: dict[str, str] = {
    "wrote wb.pdf: 8 pages, 2 chapters, 8 practice puzzles and 2 worked examples (shorter than "
    "workbook.per_technique 6: x_wing 4, swordfish 4); ids in wb.used.json":
    "tests/publish/test_workbook_print.py::test_cli_workbook_with_the_default_needs_allow_fewer",
}


def test_every_stated_count_of_a_set_transcript_is_run() -> None:
    """Every console line that states a count of pages or puzzles of a book or export is checked here."""
    stated = [line for b in blocks_of("console") for line in b.text.split("\n")
              if COUNT_WORDS.search(line) and line.startswith("wrote ") and (" pages" in line or " as " in line)]
    checked = {line for _, trs in SET_TRANSCRIPTS for tr in trs for line in tr.expected} | set(CHECKED_ELSEWHERE)
    assert stated and [line for line in stated if line not in checked] == []


@pytest.fixture(scope="module")
def default_set(tmp_path_factory: pytest.TempPathFactory, numplace_on_path: dict[str, str]) -> Path:
    """A folder holding ``outputs/default-classic``: SET_COUNT puzzles of configs/default.yaml."""
    where = tmp_path_factory.mktemp("docs-set")
    cfg = yaml.safe_load((ROOT / "configs" / "default.yaml").read_text(encoding="utf-8"))
    cfg["output"] = {**cfg.get("output", {}), "dir": str(where / "outputs")}
    (where / "default.yaml").write_text(yaml.safe_dump(cfg), encoding="utf-8")
    res = subprocess.run([sys.executable, "-m", "pipeline", "run", "default.yaml", "--count", str(SET_COUNT)],
                         cwd=where, env=numplace_on_path, capture_output=True, text=True, timeout=900)
    assert res.returncode == 0, res.stderr[-2000:]
    return where


def _set_ids() -> list[str]:
    """Each set block's id: its page and its place among the page's set blocks (``publishing.md#2``), so
    that a test id naming it stays the same when lines are added above it."""
    seen: dict[str, int] = {}
    out = []
    for b, _ in SET_TRANSCRIPTS:
        seen[b.path.name] = seen.get(b.path.name, 0) + 1
        out.append(f"{b.path.name}#{seen[b.path.name]}")
    return out


@pytest.mark.deep
@pytest.mark.parametrize("block,trs", SET_TRANSCRIPTS, ids=_set_ids())
def test_a_set_transcript_prints_what_it_shows(block: Block, trs: list[Transcript], default_set: Path,
                                               numplace_on_path: dict[str, str], tmp_path: Path) -> None:
    (tmp_path / "outputs").symlink_to(default_set / "outputs")
    for tr in trs:
        args = numplace_args(tr.command) or []
        for flag, name in itertools.pairwise(args):
            if flag == "--config" and not (tmp_path / name).exists():
                (tmp_path / name).write_text(example_file(block.path, name), encoding="utf-8")
        res = subprocess.run(["bash", "-c", tr.command], cwd=tmp_path, env=numplace_on_path,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
        diff = matches(tr.expected, res.stdout.rstrip("\n").split("\n"))
        assert diff is None, f"{tr.where}: $ {tr.command}\n{diff}\n--- got:\n{res.stdout}"
        fails = any(line.startswith("numplace: error:") for line in tr.expected)
        assert (res.returncode != 0) == fails, f"{tr.where}: exit {res.returncode}"


# ---------------------------------------------------------------------------------------------
# Languages, Python, YAML, JSON
# ---------------------------------------------------------------------------------------------

def test_every_code_block_says_what_it_is() -> None:
    unknown = [f"{b.where}: ```{b.lang}" for p in PAGES for b in _split(p)[0] if b.lang not in LANGS]
    assert unknown == [], f"code blocks need one of {sorted(LANGS)}"


@pytest.fixture(scope="module")
def small_set(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding ``outputs/default-classic``: a small set (4x4, two runs) for the Python blocks."""
    from pipeline import config
    from pipeline.run import runner

    where = tmp_path_factory.mktemp("docs")
    data = {"name": "default-classic", "seed": 3, "count": 5, "board": {"size": 4},
            "removal": {"symmetry": "none", "minimal": True}, "workers": 1,
            "output": {"dir": str(where / "outputs"), "shard_size": 2}}
    runner.run(config.validate(data))
    runner.run(config.validate(dict(data, count=3)))
    return where


PYTHON = blocks_of("python")


@pytest.mark.parametrize("block", PYTHON, ids=lambda b: b.where)
def test_a_python_block_runs(block: Block, small_set: Path) -> None:
    res = subprocess.run([sys.executable, "-c", block.text], cwd=small_set, env=_env(), capture_output=True,
                         text=True, timeout=600)
    assert res.returncode == 0, f"{block.where}:\n{res.stderr}"


CONFIGS = blocks_of("yaml")


def load_block(text: str, tmp: Path) -> object:
    """Load a YAML block with numplace's own loader: a book config by the book loader, a run config
    (a fragment gets the required keys it lacks) by the run config loader."""
    from pipeline import config

    data = yaml.safe_load(text)
    assert isinstance(data, dict)
    path = tmp / "block.yaml"
    if set(data) & BOOK_KEYS and "name" not in data:
        from pipeline.publish import book

        path.write_text(text, encoding="utf-8")
        return book.load_config(path)
    quota = isinstance(data.get("difficulty"), dict) and "quota" in data["difficulty"]
    needed = {"name": "docs-fragment", "seed": 1, **({} if quota else {"count": 1})}
    head = "".join(f"{k}: {v}\n" for k, v in needed.items() if k not in data)
    path.write_text(head + text, encoding="utf-8")
    return config.load(path)


@pytest.mark.parametrize("block", CONFIGS, ids=lambda b: b.where)
def test_a_yaml_block_loads_as_a_config(block: Block, tmp_path: Path) -> None:
    load_block(block.text, tmp_path)


def test_a_bad_yaml_block_would_fail(tmp_path: Path) -> None:
    for bad in ("removel: {minimal: true}\n", "title: x\nsections: [{title: a, cout: 3}]\n"):
        with pytest.raises(Exception, match="unknown key"):
            load_block(bad, tmp_path)


@pytest.mark.parametrize("block", blocks_of("json"), ids=lambda b: b.where)
def test_a_json_block_parses(block: Block) -> None:
    from pipeline.run import rows

    for line in block.text.strip().split("\n"):
        obj = json.loads(line)
        assert isinstance(obj, dict)
        if "puzzle_id" in obj:  # a row: every key is a column of the schema
            assert set(obj) <= set(rows.SCHEMA), sorted(set(obj) - set(rows.SCHEMA))


def test_the_exit_code_table_is_the_enum() -> None:
    """docs/cli.md's exit-code table names every ``ExitCode`` member with its number, and no other."""
    from pipeline.cli import ExitCode

    text = (DOCS / "cli.md").read_text(encoding="utf-8").split("## Exit codes", 1)[1]
    rows = [line for line in text.splitlines() if re.match(r"^\| `\d", line)]
    documented: dict[str, int] = {}
    for row in rows:
        codes, names = row.split("|")[1:3]
        documented |= dict(zip(re.findall(r"`(\w+)`", names), map(int, re.findall(r"`(\d+)`", codes)), strict=True))
    assert documented == {member.name: member.value for member in ExitCode}


def test_the_schema_version_the_pages_name_is_the_rows() -> None:
    """Every ``urn:numplace:export:vN`` and ``numplace.schema_version`` (N today) of a page is the code's
    version, and so is the export schema's own ``$id``."""
    from pipeline.run.rows import SCHEMA_VERSION

    exported = json.loads((ROOT / "schema" / "numplace-export.schema.json").read_text(encoding="utf-8"))
    assert exported["$id"] == f"urn:numplace:export:v{SCHEMA_VERSION}"
    said = re.compile(r"urn:numplace:export:v(\d+)|schema_version` \((\d+) today\)")
    named = [(p.relative_to(ROOT), int(m.group(1) or m.group(2))) for p in PAGES if p not in HISTORY
             for m in said.finditer(p.read_text(encoding="utf-8"))]
    assert named and all(v == SCHEMA_VERSION for _, v in named), named


def test_the_deep_tiers_cost_is_stated_once() -> None:
    """The deep tier's threshold is stated in tests/costs.py (``DEEP_SECONDS``) alone: the pages, the
    Makefile and pyproject.toml name it instead of saying its seconds again."""
    texts = {p.relative_to(ROOT): p.read_text(encoding="utf-8") for p in [*PAGES, ROOT / "Makefile",
                                                                          ROOT / "pyproject.toml"]
             if p not in HISTORY}
    again = re.compile(r"(measured|cost)[^.\n]{0,30}\b\d+(\.\d+)? ?s(econds)? or more", re.I)
    assert [f"{p}: {m.group(0)}" for p, t in texts.items() for m in again.finditer(t)] == []
    assert "DEEP_SECONDS = " in (ROOT / "tests" / "costs.py").read_text(encoding="utf-8")
    assert again.search("The 137 tests measured at about 2.5 s or more")  # the check sees the old wording
