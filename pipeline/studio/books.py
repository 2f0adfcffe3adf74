"""The PDFs the studio makes, as ``numplace book`` makes them, in the page's language.

* :func:`set_book`: a book (``numplace book --lang L``, :func:`pipeline.publish.book.make_book`) or a
  technique workbook (``numplace book --workbook``, :func:`pipeline.publish.workbook.make_workbook`)
  of the puzzles ``chosen`` of a set, every other puzzle of the set excluded;
* :func:`puzzles_pdf`: Generate's puzzles in the book's layout (:func:`pipeline.publish.book.write_book`).

Each is built in a :func:`tempfile.TemporaryDirectory` and returned as bytes: nothing is written into
a set. :func:`file_stem` names the download after the book's title. Errors are the publisher's
:class:`~pipeline.publish.select.PublishError` lines (a bad title, too few puzzles for a chapter).
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.studio.words import Lang

if TYPE_CHECKING:
    import polars as pl


def file_stem(title: str, fallback: str = "book") -> str:
    """The file name (no suffix) a book of ``title`` is offered under: the title with every character
    that is not a letter, a digit, ``-`` or ``_`` made ``-`` (Japanese letters stay), ``fallback`` when empty."""
    stem = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in title.strip()).strip("-")
    return stem or fallback


def _workbook_size(rows: pl.DataFrame, chosen: Sequence[str]) -> int:
    """``workbook.per_technique`` for the chosen puzzles: the fewest made for one technique, less the
    worked example (at least 1; the library's 6 at most), so every chosen technique gets a chapter."""
    import polars as pl

    if "technique" not in rows.columns:
        return 6
    counts = rows.filter(pl.col("puzzle_id").is_in(list(chosen)) & pl.col("technique").is_not_null()) \
        .group_by("technique").len()["len"].to_list()
    return max(1, min(6, min(counts) - 1)) if counts else 6


def set_book(set_dir: Path, rows: pl.DataFrame, chosen: Sequence[str], title: str, per_page: int, lang: Lang,
             workbook: bool = False) -> tuple[bytes, bytes, int]:
    """The book (or workbook) of the puzzles ``chosen`` (ids) of ``set_dir`` in ``lang``, every other id
    of ``rows`` excluded: ``(pdf bytes, used list bytes, pages)``. Raises the publisher's error line."""
    from pipeline.publish import book

    cfg = book.load_config(None, {"title": title.strip() or None, "per_page": per_page, "lang": lang})
    keep = set(chosen)
    exclude = {i for i in rows["puzzle_id"].to_list() if i not in keep}
    with tempfile.TemporaryDirectory(prefix="numplace-studio-") as tmp:
        out = Path(tmp) / f"{file_stem(title, set_dir.name)}.pdf"
        if workbook:
            from pipeline.publish import workbook as wbmod

            data: dict[str, Any] = {**cfg.model_dump(exclude_defaults=True),
                                    "workbook": {"per_technique": _workbook_size(rows, chosen)}}
            pages, _ = wbmod.make_workbook([set_dir], out, book.validate_config(data), exclude)
        else:
            pages = len(book.make_book([set_dir], out, cfg, exclude))
        return out.read_bytes(), book.used_path(out).read_bytes(), pages


def puzzles_pdf(made: Sequence[dict[str, Any]], title: str, section: str, lang: Lang) -> bytes:
    """Generate's puzzles ``made`` (rows) in the book's layout (title page, puzzle pages, answers), titled
    ``title``, in one section called ``section``, every printed word in ``lang``."""
    from pipeline.publish import book

    with tempfile.TemporaryDirectory(prefix="numplace-studio-") as tmp:
        out = Path(tmp) / "puzzles.pdf"
        cfg = book.load_config(None, {"title": title, "per_page": 4 if len(made) > 2 else 2, "lang": lang})
        book.write_book([book.Section(section, tuple(made), tuple(range(1, len(made) + 1)))], cfg, out)
        return out.read_bytes()
