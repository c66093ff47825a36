"""Aggregating the agentic metrics: selectors re-aggregate without a judge; intervals; unscored left out."""

from __future__ import annotations

import math

import pytest

from agentic_core.agentic_metrics.compute import compute_agentic_metrics
from agentic_core.agentic_metrics.results import AgenticView
from agentic_core.agentic_metrics.topic_adherence import TopicCounts
from agentic_core.analysis.agentic_summary import agentic_table, summarise_agentic
from agentic_core.errors import SettingsError
from tests.agentic_metrics.helpers import BOOKING, OFF_TOPIC, conv
from tests.fakes import FakeJudge

SWAPPED = conv(
    "swapped", [("Find it", "ok"), ("Book it", "done")], reference="Booked", topics=["restaurant booking"],
    used=[[("restaurant_book", {"name": "A"})], [("restaurant_search", {"q": "x"})]],
    expected=[[("restaurant_search", {"q": "x"})], [("restaurant_book", {"name": "A"})]],
)


def _metrics():  # type: ignore[no-untyped-def]
    judge = FakeJudge(lambda item: 1.0 if "Golden" in item.answer else 0.0)
    return compute_agentic_metrics([BOOKING, OFF_TOPIC, SWAPPED], judge, cache_mode="off", prefer_embeddings=False)


def test_order_changes_tool_call_accuracy_without_judging_again() -> None:
    metrics = _metrics()
    ids = ["booking", "science", "swapped"]
    strict = summarise_agentic(metrics, ids, AgenticView(order="strict"))
    flexible = summarise_agentic(metrics, ids, AgenticView(order="flexible"))
    assert strict.tool_call_accuracy is not None and flexible.tool_call_accuracy is not None
    assert strict.tool_call_accuracy.mean == 0.5 and flexible.tool_call_accuracy.mean == 1.0
    assert strict.tool_call_accuracy.n == 2 and strict.unscored["tool_call_accuracy"][0] == 1


def test_topic_mode_and_variant_apply_to_the_stored_counts() -> None:
    metrics = _metrics()
    topic = metrics.conversations[1].topic
    assert topic is not None
    refused_all = topic.model_copy(update={"counts": TopicCounts(tp=0, fp=0, fn=0, tn=2)})
    metrics.conversations[1] = metrics.conversations[1].model_copy(update={"topic": refused_all})
    ids = ["booking", "science", "swapped"]
    table = agentic_table(metrics, ids, AgenticView(mode="precision", variant="ragas"))
    assert table.loc[1, "topic_adherence"] == 0.0  # Ragas: no TP, 0
    table = agentic_table(metrics, ids, AgenticView(mode="precision", variant="workbench"))
    assert table.loc[1, "topic_adherence"] == 1.0  # rightly refused everything
    assert table.loc[1, "topic_tn"] == 2


def test_goal_accuracy_is_a_proportion_with_a_wilson_interval() -> None:
    summary = summarise_agentic(_metrics(), ["booking", "science", "swapped"])
    goal = summary.goal_accuracy
    assert goal is not None and goal.n == 2 and goal.successes == 1 and goal.rate == 0.5
    assert goal.interval_method == "wilson" and goal.ci is not None and goal.ci[0] < 0.5 < goal.ci[1]
    assert summary.unscored["goal_accuracy"][0] == 1 and "no reference" in summary.unscored["goal_accuracy"][1]
    assert summary.goal_graded is not None and summary.goal_graded.mean == 0.5
    table = agentic_table(_metrics(), ["booking", "science", "swapped"])
    assert math.isnan(table.loc[1, "goal_accuracy"]) and "no reference" in table.loc[1, "unscored_reason"]


def test_the_selectors_one_by_one_read_as_a_view() -> None:
    metrics = _metrics()
    ids = ["booking", "science", "swapped"]
    chosen = AgenticView(order="flexible", mode="recall", variant="ragas")
    by_keywords = summarise_agentic(metrics, ids, order="flexible", mode="recall", variant="ragas")
    assert by_keywords == summarise_agentic(metrics, ids, chosen)
    assert by_keywords.order == "flexible" and by_keywords.variant == "ragas"
    # A keyword replaces that selector of the view and keeps the others.
    assert agentic_table(metrics, ids, chosen, order="strict").equals(
        agentic_table(metrics, ids, AgenticView(order="strict", mode="recall", variant="ragas"))
    )


def test_an_unknown_selector_is_named_not_dropped() -> None:
    with pytest.raises(SettingsError, match="topic_mode: is not a selector"):
        agentic_table(_metrics(), ["booking", "science", "swapped"], topic_mode="recall")  # type: ignore[call-arg]


@pytest.mark.parametrize(("selector", "value"), [("order", "bogus"), ("mode", "f2"), ("variant", 3)])
def test_a_selector_out_of_its_choices_is_a_settings_error_naming_them(selector: str, value: object) -> None:
    with pytest.raises(SettingsError, match=f"{selector}: must be one of") as caught:
        summarise_agentic(_metrics(), ["booking", "science", "swapped"], **{selector: value})  # type: ignore[arg-type]
    assert caught.value.value == value or str(value) in str(caught.value)
