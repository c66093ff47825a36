"""The Agentic metrics chart is drawn only when some metric has a value above 0 (issue 25)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from ui.agentic_charts import chart_values


def summary(**metrics: Any) -> Any:
    base = {"tool_call_accuracy": None, "topic_adherence": None, "goal_graded": None, "goal_accuracy": None}
    return SimpleNamespace(**{**base, **metrics})


def test_all_zero_or_na_has_nothing_to_draw() -> None:
    zero = SimpleNamespace(mean=0.0, ci=None, n=3)
    na = SimpleNamespace(mean=None, ci=None, n=0)
    assert not any(chart_values(summary(tool_call_accuracy=zero, topic_adherence=na)))
    assert chart_values(summary()) == []


def test_a_value_above_zero_is_drawn() -> None:
    values = chart_values(
        summary(
            tool_call_accuracy=SimpleNamespace(mean=0.0, ci=None, n=3),
            goal_accuracy=SimpleNamespace(rate=0.4, ci=(0.2, 0.6), n=5),
        )
    )
    assert values == [0.0, 0.4] and any(values)
