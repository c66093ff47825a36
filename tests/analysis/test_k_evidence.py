"""k_evidence: pass@K at K > 1 counts as measured only when enough tasks have K attempts (the aggregate's decision)."""

from __future__ import annotations

from agentic_core.analysis.aggregate import aggregate
from agentic_core.analysis.k_evidence import MIN_TASK_SHARE
from agentic_core.evaluate import evaluate
from agentic_core.io.samples import load_sample
from agentic_core.settings import make_settings
from tests.datasets import conv, convs


def test_one_attempt_per_task_is_not_measured_whatever_auto_pools() -> None:
    # Three distinct tasks, one attempt each: 'auto' pools them as attempts at one task and K > 1.
    result = evaluate(convs([conv(f"s{i}", [0.9], task=f"T{i}") for i in range(3)]), "dataset")
    agg = aggregate(result, make_settings(k=3))
    assert agg.unit == "conversation"
    ev = agg.k_evidence
    assert not ev.measured
    assert (ev.tasks, ev.tasks_with_k, ev.max_attempts) == (3, 0, 1)
    assert "every task has one attempt" in ev.sentence and "task_id" in ev.sentence and "pass@3" in ev.sentence


def test_k_one_is_always_measured() -> None:
    result = evaluate(convs([conv(f"s{i}", [0.9], task=f"T{i}") for i in range(3)]), "dataset")
    ev = aggregate(result, make_settings(k=1)).k_evidence
    assert ev.measured and ev.sentence == ""


def test_repeated_attempts_measure_k_and_too_few_tasks_do_not() -> None:
    # Task A has 3 attempts, tasks B and C one each: K = 2 is supported by 1 of 3 tasks (< half).
    records = [conv(f"a{i}", [0.9], task="A") for i in range(3)]
    records += [conv("b", [0.9], task="B"), conv("c", [0.1], task="C")]
    result = evaluate(convs(records), "dataset")
    agg = aggregate(result, make_settings(k=2, unit="task"))
    ev = agg.k_evidence
    assert (ev.tasks, ev.tasks_with_k, ev.max_attempts) == (3, 1, 3)
    assert MIN_TASK_SHARE * 3 > 1 and not ev.measured
    assert "only 1 of the 3 tasks have 2 or more attempts (the most is 3)" in ev.sentence
    # Two of three tasks with two attempts: measured.
    records.append(conv("b2", [0.9], task="B"))
    result = evaluate(convs(records), "dataset")
    ev = aggregate(result, make_settings(k=2, unit="task")).k_evidence
    assert ev.measured and (ev.tasks_with_k, ev.tasks) == (2, 3)


def test_conversation_unit_chosen_by_hand_is_one_task_of_many_attempts() -> None:
    # The user says every conversation is an attempt at one task: K up to their number is measured.
    result = evaluate(convs([conv(f"s{i}", [0.9], task=f"T{i}") for i in range(4)]), "dataset")
    ev = aggregate(result, make_settings(k=4, unit="conversation")).k_evidence
    assert ev.measured and (ev.tasks, ev.max_attempts) == (1, 4)


def test_built_in_samples() -> None:
    travel = evaluate(load_sample("travel"), "dataset", cache_mode="off")
    agg = aggregate(travel, make_settings())
    assert agg.k > 1, "the public 'auto' K is unchanged; the pages say it is not measured"
    assert not agg.k_evidence.measured
    support = evaluate(load_sample("support"), "dataset", cache_mode="off")
    agg = aggregate(support, make_settings())
    assert agg.k > 1 and agg.k_evidence.measured
