"""The agentic metrics computed offline: topics, goals, tool calls, stored on the result, unscored reasons."""

from __future__ import annotations

import pytest

from agentic_core.agentic_metrics.compute import (
    NO_REFERENCE_OFFLINE,
    NO_TOPICS,
    compute_agentic_metrics,
    parse_metrics,
)
from agentic_core.agentic_metrics.results import METRIC_NAMES
from agentic_core.agentic_metrics.topic_adherence import TopicCounts
from agentic_core.agentic_metrics.topic_offline import classify_queries, refusal_of
from agentic_core.errors import SettingsError
from agentic_core.evaluate import evaluate
from tests.agentic_metrics.helpers import BOOKING, OFF_TOPIC, conv
from tests.fakes import FakeJudge


def test_metric_names_parse_from_text_and_lists() -> None:
    assert parse_metrics("goal_accuracy, tool_call_accuracy") == ("tool_call_accuracy", "goal_accuracy")
    assert parse_metrics(["all"]) == METRIC_NAMES
    assert parse_metrics(None) == ()
    with pytest.raises(SettingsError, match="must name some of"):
        parse_metrics("tool_accuracy")


def test_refusals_and_blank_replies_are_not_answers() -> None:
    assert refusal_of("I'm sorry, I can only help with science questions.")
    assert refusal_of("   ") == "no reply"
    assert refusal_of("France won the 2018 world cup.") is None


@pytest.mark.parametrize("backend", ["minilm", "lexical"])
def test_offline_topics_count_the_right_refusal_as_a_true_negative(backend: str) -> None:
    if backend == "minilm":
        pytest.importorskip("onnxruntime")
    metrics = compute_agentic_metrics([OFF_TOPIC], metrics="topic_adherence", cache_mode="off",
                                      prefer_embeddings=backend == "minilm")
    topic = metrics.conversations[0].topic
    assert topic is not None and topic.approximate and backend in topic.source
    if backend == "minilm":
        # relativity answered on topic; the cake rightly refused; the world cup answered off topic
        assert topic.counts == TopicCounts(tp=1, tn=1, fp=1)
    assert [q.answered for q in topic.queries] == [True, False, True]
    assert any("approximate" in w for w in metrics.warnings)


def test_lexical_similarity_needs_a_shared_stem() -> None:
    [on, off] = classify_queries(
        [("What is the weather in Paris?", "Sunny.", ("weather",)), ("Tell me a joke", "Ha.", ("weather",))]
    )
    assert on.on_topic and not off.on_topic and on.topic == "weather"


def test_without_topics_topic_adherence_is_unscored_not_zero() -> None:
    plain = conv("plain", [("Hi", "Hello")])
    topic = compute_agentic_metrics([plain], metrics="topic_adherence", cache_mode="off").conversations[0].topic
    assert topic is not None and topic.counts is None and topic.unscored_reason == NO_TOPICS


def test_offline_goal_with_reference_uses_the_judge_and_its_threshold() -> None:
    judge = FakeJudge(lambda item: 0.9 if "Golden Dragon" in item.answer else 0.2, recommended_threshold=0.5)
    missed = conv("missed", [("Book Golden Dragon", "Sorry, it is full.")], reference="Table booked at Golden Dragon")
    got = compute_agentic_metrics([BOOKING, missed], judge, metrics="goal_accuracy", cache_mode="off")
    ok, bad = (c.goal for c in got.conversations)
    assert ok is not None and ok.achieved is True and ok.score == 0.9 and ok.with_reference
    assert bad is not None and bad.achieved is False and bad.score == 0.2


@pytest.mark.parametrize("run_kind", ["hybrid", "embedding", "dataset", "llm"])
def test_offline_goal_accuracy_uses_the_lexical_judge_by_default(run_kind: str) -> None:
    run_judge = FakeJudge(0.0, kind=run_kind)  # stands for the run's judge: never asked about goals
    got = compute_agentic_metrics([BOOKING], run_judge, metrics="goal_accuracy", cache_mode="off")
    goal = got.conversations[0].goal
    assert goal is not None and goal.achieved is True and goal.source.startswith("offline (lexical")
    assert got.goal_judge.startswith("lexical") and not run_judge.judged


def test_an_explicit_goal_judge_is_used_and_reported() -> None:
    run_judge = FakeJudge(0.9, kind="hybrid", recommended_threshold=0.7)
    got = compute_agentic_metrics([BOOKING], run_judge, metrics="goal_accuracy", cache_mode="off",
                                  goal_judge="hybrid")
    goal = got.conversations[0].goal
    assert goal is not None and goal.score == 0.9 and len(run_judge.judged) == 1  # the run's own hybrid judge
    assert got.goal_judge.startswith("hybrid")
    for choice in ("lexical", None):  # a lexical run's own judge (its options kept)
        lexical_run = FakeJudge(0.0, kind="lexical")
        got = compute_agentic_metrics([BOOKING], lexical_run, metrics="goal_accuracy", cache_mode="off",
                                      goal_judge=choice)
        assert len(lexical_run.judged) == 1 and got.goal_judge.startswith("lexical")
    with pytest.raises(SettingsError, match="goal_judge"):
        compute_agentic_metrics([BOOKING], run_judge, metrics="goal_accuracy", cache_mode="off", goal_judge="bert")


def test_without_goal_accuracy_no_goal_judge_is_reported() -> None:
    got = compute_agentic_metrics([BOOKING], metrics="tool_call_accuracy", cache_mode="off")
    assert got.goal_judge == ""


def test_offline_goal_without_reference_is_unscored_with_the_reason() -> None:
    goal = compute_agentic_metrics([OFF_TOPIC], FakeJudge(1.0), metrics="goal_accuracy",
                                   cache_mode="off").conversations[0].goal
    assert goal is not None and goal.achieved is None and goal.score is None
    assert goal.unscored_reason == NO_REFERENCE_OFFLINE


def test_a_judge_failure_leaves_the_goal_unscored() -> None:
    goal = compute_agentic_metrics([BOOKING], FakeJudge(None), metrics="goal_accuracy",
                                   cache_mode="off").conversations[0].goal
    assert goal is not None and goal.achieved is None and "the judge failed" in (goal.unscored_reason or "")


def test_the_goal_item_reads_the_last_answer_against_the_reference() -> None:
    seen = []
    judge = FakeJudge(lambda item: seen.append(item) or 1.0)
    compute_agentic_metrics([BOOKING], judge, metrics="goal_accuracy", cache_mode="off")
    [item] = seen
    assert item.answer == "Your table at Golden Dragon is booked for 8:00pm."
    assert item.ground_truth == "Table booked at Golden Dragon for 8pm."
    assert item.query.startswith("USER 1: Book a table")


def test_evaluate_stores_the_metrics_when_asked() -> None:
    result = evaluate([BOOKING, OFF_TOPIC], FakeJudge(1.0), metrics="tool_call_accuracy", cache_mode="off")
    assert result.agentic is not None and result.agentic.metrics == ("tool_call_accuracy",)
    first, second = result.agentic.conversations
    assert first.tool_call_strict is not None and first.tool_call_strict.value == 1.0
    assert second.tool_call_strict is None and first.topic is None
    assert evaluate([BOOKING], FakeJudge(1.0), cache_mode="off").agentic is None


def test_stored_runs_keep_the_metrics() -> None:
    from agentic_core.runs.payload import RunPayload, from_payload, to_payload

    result = evaluate([BOOKING, OFF_TOPIC], FakeJudge(1.0), metrics="all", cache_mode="off")
    payload = to_payload(result, "r1", "run", "data")
    reopened = from_payload(RunPayload.model_validate_json(payload.model_dump_json()))
    assert reopened.agentic == result.agentic
    plain = to_payload(evaluate([BOOKING], FakeJudge(1.0), cache_mode="off"), "r2", "run", "data")
    assert plain.agentic is None and from_payload(plain).agentic is None


@pytest.mark.parametrize("reply", [
    "I'm sorry, I can only help with science questions.", "As an AI, I cannot do that.",
    "Unfortunately, I am unable to book it.", "France won.", "I don't know.", "",
])
def test_the_fast_refusal_check_agrees_with_the_full_analysis(reply: str) -> None:
    from agentic_core.judges.offline.findings.text_analysis import analyze_text, find_refusal

    assert find_refusal(reply) == analyze_text(reply).refusal


def test_conversations_below_leave_unscored_ones_out() -> None:
    import numpy as np

    from agentic_core.analysis.agentic_summary import agentic_table, conversations_below

    metrics = compute_agentic_metrics([BOOKING, OFF_TOPIC], metrics="tool_call_accuracy", cache_mode="off")
    table = agentic_table(metrics, ["b", "s"])
    assert conversations_below(table, "tool_call_accuracy", 1.01).tolist() == [True, False]
    assert not np.any(conversations_below(table, "tool_call_accuracy", 0.5))


def test_the_ragas_importer_fills_reference_and_topics() -> None:
    from agentic_core.io.loader import load_paths

    report = load_paths(["sample_data/ragas_multiturn.jsonl"])
    first = report.conversations[0]
    assert first.reference == "75°F is approximately 23.9°C." and first.reference_topics == ["weather"]
    assert not [w for w in report.warnings if "reference" in w.path]


def test_a_cancelled_run_stops_before_the_metrics() -> None:
    from agentic_core.evaluate import add_agentic_metrics
    from agentic_core.judges.monitor import RunCancelled, RunMonitor

    result = evaluate([conv("c1", [("Book a table", "Booked.")])], FakeJudge(0.9), cache_mode="off")
    monitor = RunMonitor(result.n_interactions)
    monitor.cancel()
    with pytest.raises(RunCancelled, match="before the agentic metrics"):
        add_agentic_metrics(result, FakeJudge(0.9), metrics="tool_call_accuracy", cache_mode="off", monitor=monitor)
    assert result.agentic is None
    assert add_agentic_metrics(result, FakeJudge(0.9), metrics="tool_call_accuracy", cache_mode="off").metrics


def test_only_tool_metrics_computed_need_no_answer_judge() -> None:
    from agentic_core.agentic_metrics.results import TOOL_METRICS, AgenticMetrics, ConversationMetrics
    from agentic_core.agentic_metrics.tool_call_accuracy import ToolCallAccuracy

    assert set(TOOL_METRICS) < set(METRIC_NAMES)
    one = ToolCallAccuracy(value=1.0, aligned=True, made=1, referenced=1, compared=1)
    scored = [ConversationMetrics(tool_call_strict=one, tool_call_flexible=one), ConversationMetrics()]
    assert AgenticMetrics(metrics=("tool_call_accuracy",), conversations=scored).tool_metrics_only()
    # Topic adherence or goal accuracy asked for too: not tool metrics only.
    both = ("tool_call_accuracy", "topic_adherence")
    assert not AgenticMetrics(metrics=both, conversations=scored).tool_metrics_only()
    # Asked for, but no conversation has one (no reference calls anywhere): nothing was computed.
    empty = [ConversationMetrics(), ConversationMetrics()]
    assert not AgenticMetrics(metrics=("tool_call_accuracy",), conversations=empty).tool_metrics_only()
