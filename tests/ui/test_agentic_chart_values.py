"""The Agentic metrics chart is drawn only when some metric has a value above 0 (issue 25)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from ui.agentic_charts import agentic_figure, chart_values


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


def test_an_na_metric_is_no_bar_at_0_but_the_words_n_a() -> None:
    # Issue 36: topic adherence without a conversation with reference topics was drawn as an empty bar at 0.
    fig = agentic_figure(
        summary(
            tool_call_accuracy=SimpleNamespace(mean=0.75, ci=(0.5, 0.9), n=4),
            topic_adherence=SimpleNamespace(mean=None, ci=None, n=0),
        )
    )
    bar = fig.data[0]
    assert list(bar.x) == ["tool call accuracy", "topic adherence"]
    assert list(bar.y) == [0.75, None]
    assert [(a.x, a.text) for a in fig.layout.annotations] == [("topic adherence", "n/a")]
