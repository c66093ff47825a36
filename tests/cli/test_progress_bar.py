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


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_off_a_terminal_the_last_state_ends_its_line_before_the_next_message() -> None:
    stream = io.StringIO()  # a pipe or a CI log: not a terminal
    update, close = _progress(True, stream)
    update(0, 10)
    update(10, 10)
    close()
    stream.write("next message\n")
    lines = stream.getvalue().split("\n")
    assert lines[-2] == "next message", lines  # on a line of its own
    assert "10/10" in lines[-3].split("\r")[-1], lines  # the bar's last state is kept just before it


def test_on_a_terminal_the_bar_is_cleared_in_place() -> None:
    stream = _Terminal()
    update, close = _progress(True, stream)
    update(10, 10)
    close()
    text = stream.getvalue()
    assert "\n" not in text and text.endswith("\r"), repr(text)  # the next message overwrites the cleared line
