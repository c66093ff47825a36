"""agentic_core.common.time_limit: a limit set around some work stops it at its next checkpoint (issue 36)."""

from __future__ import annotations

import threading
import time

import pytest

from agentic_core.columnar.columns import ColumnBuilder
from agentic_core.common.time_limit import TimeLimitPassed, checkpoint, time_limited
from tests.datasets import conv, convs


def test_a_checkpoint_raises_only_inside_a_limit_that_has_passed() -> None:
    checkpoint()  # no limit: nothing happens
    with time_limited(time.monotonic() + 60):
        checkpoint()
    with time_limited(time.monotonic() - 1), pytest.raises(TimeLimitPassed):
        checkpoint()
    with time_limited(None):
        checkpoint()
    checkpoint()  # the limit ended with its block


def test_the_stop_is_no_exception_a_broad_handler_would_swallow() -> None:
    # Loading reports bad records from `except Exception` handlers; the stop must pass through them.
    assert not issubclass(TimeLimitPassed, Exception)


def test_a_limit_holds_for_its_own_thread_only() -> None:
    seen: list[str] = []

    def other() -> None:
        checkpoint()
        seen.append("not stopped")

    with time_limited(time.monotonic() - 1):
        thread = threading.Thread(target=other)
        thread.start()
        thread.join()
    assert seen == ["not stopped"]


def test_building_columns_stops_between_conversations() -> None:
    # Tool use is scored while the columns are built: the long part of loading a request.
    builder = ColumnBuilder()
    first, second = convs([conv("a", [1.0], tools=True), conv("b", [1.0], tools=True)])
    builder.add(first)
    with time_limited(time.monotonic() - 1), pytest.raises(TimeLimitPassed):
        builder.add(second)
    assert builder.build().n_interactions == 1
