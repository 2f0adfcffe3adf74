"""The two tiers of the fuzz tests (hypothesis) and the one property they all check.

Every fuzz test takes ``tier`` from :data:`TIERS`: ``fast`` runs in ``make test`` (a few dozen
examples, derandomized: the same inputs on every run, no example database), ``slow`` is marked
``slow`` (``pytest -m slow``) and tries many more, still derandomized so a failure reproduces. The
property is :func:`one_of_two`: a call returns a valid object or raises a
:class:`~pipeline.errors.UserError` whose message is one non-empty line; any other exception fails
the test. Tiers and how to run them: ``docs/testing.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, settings

from pipeline.errors import UserError

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
          HealthCheck.function_scoped_fixture]

#: ``make test``: few examples, the same ones every run.
FAST = settings(max_examples=100, derandomize=True, database=None, deadline=None, suppress_health_check=_QUIET)
#: ``pytest -m slow``: many more examples, still reproducible.
SLOW = settings(max_examples=2000, derandomize=True, database=None, deadline=None, suppress_health_check=_QUIET)

TIERS = [pytest.param(FAST, id="fast"), pytest.param(SLOW, id="slow", marks=pytest.mark.slow)]

T = TypeVar("T")


def one_of_two(call: Callable[[], T]) -> T | UserError:
    """``call()``'s value, or the :class:`UserError` it raised after checking its message is one
    non-empty line; any other exception propagates (the fuzz test fails with it)."""
    try:
        return call()
    except UserError as exc:
        msg = str(exc)
        assert msg.strip() and "\n" not in msg and "\r" not in msg, repr(msg)
        return exc
