"""Memos of a load are keyed by ``ui.state.load_token``: a later load never reads an earlier one's entry.

``id(report)`` was the key before; CPython gives a freed object's id to the next object of its size, so a new
load could get the previous load's judge items, preview or issues. These tests make that reuse happen and check
that the token, and so the memo entry, differs anyway.
"""

from __future__ import annotations

from typing import Any

import pytest
import streamlit as st

from agentic_core.io import LoadReport
from ui.memo import TOKENS_KEY, load_token, session_memo


@pytest.fixture
def state(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """A plain dict as the session state (no Streamlit script is running here)."""
    fake: dict[str, Any] = {}
    monkeypatch.setattr(st, "session_state", fake)
    return fake


def _reused_id_pair() -> tuple[int, list[str]]:
    """A report's id and token, the report freed, then a new report given the same id: (that id, both tokens)."""
    for _ in range(100):
        first = LoadReport(files=["a.jsonl"])
        first_id, first_token = id(first), load_token(first)
        del first  # freed at once (reference counting): its id is free for the next report
        second = LoadReport(files=["b.jsonl"])
        if id(second) == first_id:
            return first_id, [first_token, load_token(second)]
        del second
    pytest.fail("the interpreter never gave a freed report's id to a new one; this test needs that to happen")


def test_a_report_keeps_its_token_and_another_live_report_gets_another(state: dict[str, Any]) -> None:
    one, two = LoadReport(files=["a.jsonl"]), LoadReport(files=["a.jsonl"])  # equal, but two loads
    assert load_token(one) == load_token(one)
    assert load_token(one) != load_token(two)


def test_a_new_load_with_a_freed_loads_id_gets_a_new_token(state: dict[str, Any]) -> None:
    _, (first, second) = _reused_id_pair()
    assert first != second


def test_two_loads_never_share_a_memo_entry_even_at_the_same_id(state: dict[str, Any]) -> None:
    # What pages/data.py and pages/run.py do: memoise a table of the report under its token.
    built: list[str] = []

    def preview(report: LoadReport) -> str:
        def build() -> str:
            built.append(report.files[0])
            return report.files[0]

        return session_memo("_preview", load_token(report), build)

    for _ in range(100):
        first = LoadReport(files=["first.jsonl"])
        assert preview(first) == "first.jsonl" and preview(first) == "first.jsonl"  # memoised: built once
        first_id = id(first)
        del first  # freed at once (reference counting): its id is free for the next report
        second = LoadReport(files=["second.jsonl"])
        if id(second) == first_id:
            assert preview(second) == "second.jsonl"  # id(report) as the key returned "first.jsonl" here
            assert built[-2:] == ["first.jsonl", "second.jsonl"]
            return
        built.clear()
    pytest.fail("the interpreter never gave a freed report's id to a new one; this test needs that to happen")


def test_the_token_table_holds_only_live_reports_and_pins_none(state: dict[str, Any]) -> None:
    kept = [LoadReport(files=[f"{i}.jsonl"]) for i in range(3)]
    for report in kept:
        load_token(report)
    for i in range(50):
        load_token(LoadReport(files=[f"gone{i}.jsonl"]))  # freed straight after
    load_token(LoadReport(files=["last.jsonl"]))
    live = {id(report) for report in kept}
    assert live <= set(state[TOKENS_KEY]) and len(state[TOKENS_KEY]) <= len(kept) + 1
