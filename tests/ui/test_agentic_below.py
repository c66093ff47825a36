"""The agentic metrics' "below" filter shared by the Explorer and the Agentic metrics page (no Streamlit)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ui.agentic_filter import ALL_METRICS, below_any


def test_any_scored_metric_below_keeps_the_conversation() -> None:
    table = pd.DataFrame(
        {
            "tool_call_accuracy": [0.2, 0.9, np.nan, 0.9],
            "topic_adherence": [0.9, 0.9, 0.1, np.nan],
            "goal_accuracy": [1.0, 1.0, 1.0, np.nan],
            "goal_graded": [np.nan, 0.3, np.nan, np.nan],
        }
    )
    assert below_any(table, ALL_METRICS, 0.5).tolist() == [True, True, True, False]  # unscored is never "below"
    assert below_any(table, ["tool_call_accuracy"], 0.5).tolist() == [True, False, False, False]
    assert below_any(table, ["goal_accuracy"], 1.0).tolist() == [False, False, False, False]  # strictly below
    assert below_any(table, ALL_METRICS, 1.01) is None  # past 1: no filter
    assert below_any(table, ALL_METRICS, None) is None  # the sliders' "off" stop


def test_the_no_filter_stop_builds_no_table(monkeypatch: pytest.MonkeyPatch) -> None:
    # The Explorer calls the filter on every rerun: at the slider's default (1.01, keep all) the per-conversation
    # table must not be built (seconds at 100k conversations), nor can its errors reach the page.
    import types

    import ui.agentic_filter as module

    def refuse(*_args: object, **_kwargs: object) -> pd.DataFrame:
        raise AssertionError("the agentic table was built with no filter set")

    monkeypatch.setattr(module, "agentic_table", refuse)
    view = types.SimpleNamespace(order="strict", mode="precision", variant="f1")
    result = types.SimpleNamespace(agentic=types.SimpleNamespace(view=view), session_ids=["a"])
    assert module.agentic_filter(result) is None  # type: ignore[arg-type]
