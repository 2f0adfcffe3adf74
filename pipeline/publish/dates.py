"""The one creation-date rule of every file the publishing commands write (books, per-puzzle PDFs,
``used.json``): the time of writing, unless the environment variable ``SOURCE_DATE_EPOCH`` is set
(seconds since 1970, the reproducible-builds convention): then it is that time, and a PDF's document
id is fixed, so the same sets and options give the same bytes.
"""

from __future__ import annotations

import datetime as dt
import os

from pipeline.errors import PublishError


def source_date_epoch() -> int | None:
    """``SOURCE_DATE_EPOCH`` as an int when it is set (and not blank); a value that is not a whole
    number of seconds is a :class:`PublishError` naming it."""
    text = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise PublishError(f"SOURCE_DATE_EPOCH: {text!r} is not a whole number of seconds") from None


def creation_time() -> dt.datetime:
    """The creation time of a file written now (UTC): ``SOURCE_DATE_EPOCH`` when set, else the clock."""
    epoch = source_date_epoch()
    return dt.datetime.fromtimestamp(epoch, dt.UTC) if epoch is not None else dt.datetime.now(dt.UTC)
