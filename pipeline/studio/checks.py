"""A set's ``numplace check`` as the Sets page shows it: its lines in English and Japanese, kept on
disk for the set's files, and run in a process of its own so that the studio's server stays quick
while it runs. Pure: no web framework.

Contracts:

* :func:`signature` is every file under a set folder with its size and modification time: the key of
  every cache of a set (a new run or a changed part is a new key).
* :func:`check_lines` is ``{"en": numplace check's summary lines, "ja": the same in Japanese}``, kept
  (:mod:`pipeline.studio.keep`) for the set's signature: a set checked once is not checked again,
  after a restart too, until a file of it changes. Raises :class:`~pipeline.errors.UserError` as the
  check does (a damaged manifest).
* :func:`in_child` is :func:`check_lines` run by ``python -m pipeline.studio.checks SET [--fast]``
  (a kept answer is read here without starting it), at a lower priority (:data:`NICE`): the check's
  Python work does not hold the server's interpreter lock, and the clicks that follow (making puzzles,
  grading) come first on a busy machine. A child that fails raises :class:`~pipeline.errors.UserError`
  with its last line.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from pipeline.errors import UserError
from pipeline.studio import keep
from pipeline.studio.words import word

Lines = dict[str, list[str]]
#: How much lower the check process's priority is than the server's (``nice``), unless the environment's
#: ``NUMPLACE_STUDIO_CHECK_NICE`` (an integer, 0 = the server's own priority) says otherwise.
NICE = 15


def niceness() -> int:
    """The check process's ``nice`` increment: ``NUMPLACE_STUDIO_CHECK_NICE`` when it is an integer from 0
    to 19, else :data:`NICE` (the tests set 0: on a busy machine a niced check would wait for their CPU)."""
    raw = os.environ.get("NUMPLACE_STUDIO_CHECK_NICE", "")
    return int(raw) if raw.strip().isdigit() and int(raw) <= 19 else NICE


def signature(set_dir: Path) -> tuple[tuple[str, int, int], ...]:
    """Every file under ``set_dir`` with its size and modification time (a file that a running
    ``numplace run`` renames away while this looks is left out)."""
    out = []
    for p in set_dir.rglob("*"):
        try:
            st_ = p.stat()
        except OSError:
            continue
        if p.is_file():
            out.append((str(p.relative_to(set_dir)), st_.st_size, st_.st_mtime_ns))
    return tuple(sorted(out))


def _key(path: str, fast: bool, sig: tuple[Any, ...]) -> list[Any]:
    return [path, fast, [list(f) for f in sig]]


def kept(path: str, fast: bool, sig: tuple[Any, ...]) -> Lines | None:
    """The lines kept for this set's files, or None."""
    found = keep.load("check", _key(path, fast, sig))
    return found if isinstance(found, dict) and set(found) == {"en", "ja"} else None


def check_lines(path: str, fast: bool, sig: tuple[Any, ...]) -> Lines:
    """The check's lines (see the contract), in this process."""
    from pipeline.run.audit import audit, summary_lines

    found = kept(path, fast, sig)
    if found is not None:
        return found
    result = audit(Path(path), fast=fast)
    lines = {"en": summary_lines(result), "ja": check_ja(result)}
    keep.save("check", _key(path, fast, sig), lines)
    return lines


def in_child(path: str, fast: bool, sig: tuple[Any, ...]) -> Lines:
    """The check's lines, by a child process when they are not kept (see the contract)."""
    found = kept(path, fast, sig)
    if found is not None:
        return found
    package_root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (package_root, os.environ.get("PYTHONPATH")) if p)}
    done = subprocess.run([sys.executable, "-m", "pipeline.studio.checks", path, *(["--fast"] if fast else [])],
                          capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        lines = (done.stderr or "").strip().splitlines()
        raise UserError(lines[-1] if lines else f"the check of {path} ended with status {done.returncode}")
    out: Lines = json.loads(done.stdout)
    return out


def _counts_ja(value: Any, sym: bool = False) -> str:
    if isinstance(value, dict):
        return "、".join(f"{word(f'sym.{k}', 'ja') if sym else k} {v}" for k, v in value.items())
    return str(value)


def check_ja(result: Any) -> list[str]:
    """:func:`pipeline.run.audit.summary_lines` in Japanese (a problem line keeps the checker's text)."""
    s = result.stats
    lines = [f"{result.path}: {result.rows} 問、パーツファイル {result.files} 個"]
    if s:
        lines += [f"  ヒント数 平均 {s['hints_mean']}(最小 {s['hints_min']}、最大 {s['hints_max']})、"
                  f"サイズ {_counts_ja(s['sizes'])}",
                  f"  対称性 {_counts_ja(s['symmetry'], sym=True)}",
                  f"  極小 {s['minimal']}、軌道極小 {s['orbit_minimal']}、不正な行 {s['bad_rows']}"]
    lines += [f"  問題点 {p}" for p in result.problems]
    lines.append("OK" if result.ok else f"失敗: 問題点 {len(result.problems)} 件")
    return lines


def main(argv: list[str]) -> int:
    """``python -m pipeline.studio.checks SET [--fast]``: the lines as JSON on stdout; a user error as
    one line on stderr and status 2."""
    path = argv[0]
    with contextlib.suppress(OSError):
        os.nice(niceness())  # the pages' clicks come first: this check takes what the server leaves
    try:
        lines = check_lines(path, "--fast" in argv[1:], signature(Path(path)))
    except UserError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    print(json.dumps(lines, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
