"""The CLI progress bar: "0%" drawn once, no items-per-second figure (cached runs showed absurd rates)."""

from __future__ import annotations

import io

from agentic_core.cli.evaluate_command import _progress


def test_progress_bar_draws_zero_once_and_no_rate() -> None:
    stream = io.StringIO()
    update, close = _progress(True, stream)
    update(0, 200)
    update(0, 200)
    update(200, 200)  # every answer from the cache at once
    close()
    text = stream.getvalue()
    assert text.count("  0%") == 1, text
    assert "item/s" not in text and "it/s" not in text
    assert "200/200" in text


def test_no_bar_when_disabled() -> None:
    assert _progress(False, io.StringIO()) == (None, None)
