"""aggregate() decides once whether pass@K is measured: on one-attempt data every face gets None and the reason.

Issue 36: thirty different questions with one attempt each are not thirty attempts at one task. The
'auto' unit still pools them (the success rate is unchanged), but pass@k / pass^k at k > 1, the
interpretation and the unscored bounds' pass@K are withheld, with the sentence saying why.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentic_core import stats
from agentic_core.analysis.aggregate import aggregate
from agentic_core.analysis.assistant_breakdown import by_assistant
from agentic_core.analysis.k_evidence import MIN_TASK_SHARE, k_evidence, measured_up_to
from agentic_core.analysis.statistics_words import curve_options
from agentic_core.analysis.uncertainty import posterior_view
from agentic_core.common.frame_columns import AT_K, GroupCols
from agentic_core.evaluate import evaluate
from agentic_core.result import EvaluationResult
from agentic_core.settings import make_settings
from tests.datasets import conv, convs


def one_attempt_each(
    correct: int, wrong: int, unscored: int = 0, assistant: str = "agent", tasks: str = "T"
) -> EvaluationResult:
    """Distinct tasks (``T0``, ``T1``, ...), one conversation (one interaction) each; ``unscored`` without a score."""
    records = [conv(f"{assistant}-c{i}", [0.9], task=f"{tasks}{i}") for i in range(correct)]
    records += [conv(f"{assistant}-w{i}", [0.1], task=f"{tasks}{correct + i}") for i in range(wrong)]
    for i in range(unscored):
        record = conv(f"{assistant}-u{i}", [0.5], task=f"{tasks}{correct + wrong + i}")
        del record["conversation"][0]["score"]  # the dataset judge leaves it unscored
        records.append(record)
    for record in records:
        record["assistant_id"] = assistant
    return evaluate(convs(records), "dataset", cache_mode="off")


def test_one_attempt_data_gives_no_pass_at_k_and_says_why() -> None:
    result = one_attempt_each(correct=4, wrong=2, unscored=2)
    agg = aggregate(result, make_settings(k=3))
    assert agg.unit == "conversation" and agg.k == 3  # 'auto' still pools them: the public unit and K
    ev = agg.k_evidence
    assert not ev.measured and ev.measured_up_to == 1 and "every task has one attempt" in ev.sentence
    head = agg.headline
    assert (head.pass_at_k, head.pass_pow_k, head.pass_at_k_ci, head.pass_pow_k_ci) == (None, None, None, None)
    assert head.notes[-1] == ev.sentence
    assert agg.interpretation is None
    # The success rate is the pooled group's, unchanged: 4 of 6 scored conversations (unbiased pass@1 = c/n).
    assert agg.success_rate.value == pytest.approx(4 / 6) and head.success_rate == pytest.approx(4 / 6)
    assert agg.curve[0].pass_at_k == pytest.approx(4 / 6) and agg.curve[0].notes == agg.curve[1].notes[:-1]
    for point in agg.curve[1:]:
        assert point.pass_at_k is None and point.pass_pow_k is None and point.pass_at_k_ci is None
        assert point.notes[-1].startswith(f"pass@{point.k} and pass^{point.k} are not measured")
    # The unscored bounds: success rates (2 unscored counted wrong: 4/8; right: 6/8), no pass@K.
    assert agg.unscored is not None
    assert agg.unscored.as_incorrect.success_rate == pytest.approx(4 / 8)
    assert agg.unscored.as_correct.success_rate == pytest.approx(6 / 8)
    for bound in (agg.unscored.as_incorrect, agg.unscored.as_correct):
        assert bound.pass_at_k is None and bound.pass_pow_k is None
    # The one pooled group's pass@K is the headline's: withheld alike; its success rate kept.
    assert agg.groups[list(AT_K)].isna().all().all()
    assert agg.groups[GroupCols.SUCCESS_RATE].iloc[0] == pytest.approx(4 / 6)


def test_k_one_on_one_attempt_data_is_measured() -> None:
    agg = aggregate(one_attempt_each(correct=4, wrong=2), make_settings(k=1))
    assert agg.k_evidence.measured and agg.headline.pass_at_k == pytest.approx(4 / 6)


def test_seed_001_example_with_the_conversation_unit_chosen_by_hand_keeps_its_numbers() -> None:
    # Seed 001: 2 of 3 conversations correct, k = 3, plug-in over conversations: pass@3 = 1 - (1/3)^3 = 0.963,
    # pass^3 = (2/3)^3 = 0.296. The unit chosen by hand pools them as attempts at one task: measured.
    result = one_attempt_each(correct=2, wrong=1)
    agg = aggregate(result, make_settings(k=3, unit="conversation", estimator="plug-in"))
    assert agg.k_evidence.measured
    assert agg.headline.pass_at_k == pytest.approx(1 - (1 / 3) ** 3)
    assert agg.headline.pass_pow_k == pytest.approx((2 / 3) ** 3)
    assert agg.interpretation is not None


def test_repeated_attempts_are_unchanged() -> None:
    # Three tasks with 3 attempts each: the curve is dataset_curve over the tasks' counts, as before.
    counts = (("A", 3), ("B", 1), ("C", 2))
    records = [conv(f"{t}{i}", [0.9 if i < c else 0.1], task=t) for t, c in counts for i in range(3)]
    result = evaluate(convs(records), "dataset", cache_mode="off")
    settings = make_settings(k=3, mode="bayesian")
    agg = aggregate(result, settings)
    assert agg.unit == "task" and agg.k_evidence.measured and agg.k_evidence.measured_up_to == 3
    expected = stats.dataset_curve([3, 3, 3], [3, 1, 2], [1, 2, 3], **curve_options(settings))
    assert agg.curve == expected
    assert agg.interpretation == stats.interpret(expected[-1].pass_at_k, expected[-1].pass_pow_k)


def test_curve_is_kept_up_to_the_k_the_tasks_measure() -> None:
    # Task A has 5 attempts, B and C 3: under the unbiased estimator (k attempts per task) k <= 3 is measured
    # by 3 of 3 tasks, k = 4 and 5 by 1 of 3 (< half).
    records = [conv(f"{t}{i}", [0.9], task=t) for t, n in (("A", 5), ("B", 3), ("C", 3)) for i in range(n)]
    result = evaluate(convs(records), "dataset", cache_mode="off")
    agg = aggregate(result, make_settings(k=5, unit="task"))
    assert agg.k_evidence.measured_up_to == 3 and not agg.k_evidence.measured
    assert [p.pass_at_k is not None for p in agg.curve] == [True, True, True, False, False]
    assert "measured up to k = 3" in agg.k_evidence.sentence
    assert "plug-in estimator and Bayesian mode need 2 attempts" in agg.k_evidence.sentence
    # The plug-in estimator and Bayesian mode take any k from a task's repeated attempts: measured.
    for options in ({"estimator": "plug-in"}, {"mode": "bayesian"}):
        again = aggregate(result, make_settings(k=5, unit="task", **options))
        assert again.k_evidence.measured and all(p.pass_at_k is not None for p in again.curve)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 12), max_size=30), st.integers(1, 14), st.booleans())
def test_evidence_follows_its_definition(sizes: list[int], k: int, unbiased: bool) -> None:
    # The definition, counted directly: k = 1 always; else at least MIN_TASK_SHARE of the tasks with an
    # attempt (and at least one) support k: k attempts (unbiased estimator) or 2 (plug-in: any k).
    attempts = np.asarray(sizes, dtype=np.int64)
    estimator = "unbiased" if unbiased else "plug-in"
    tasks = [s for s in sizes if s > 0]
    supporting = sum(s >= (k if unbiased else 2) for s in tasks)
    expected = k == 1 or (supporting > 0 and supporting >= MIN_TASK_SHARE * len(tasks))
    ev = k_evidence(attempts, k, estimator=estimator)
    assert ev.measured == expected and (ev.tasks, ev.tasks_with_k) == (len(tasks), sum(s >= k for s in tasks))
    assert (ev.sentence == "") == expected
    up_to = measured_up_to(attempts, k, estimator=estimator)
    assert up_to == max(j for j in range(1, k + 1) if k_evidence(attempts, j, estimator=estimator).measured)


def test_per_assistant_rows_and_posterior_withhold_pass_at_k() -> None:
    a = one_attempt_each(correct=3, wrong=1, assistant="a")
    b = one_attempt_each(correct=1, wrong=3, assistant="b", tasks="U")
    both = evaluate([*a.conversations, *b.conversations], "dataset", cache_mode="off")
    agg = aggregate(both, make_settings(k=2))
    assert agg.unit == "conversation" and not agg.k_evidence.measured
    rows = by_assistant(agg)
    assert [r.assistant for r in rows] == ["a", "b"]
    for row in rows:
        assert row.pass_at_k is None and row.pass_pow_k_ci is None and row.not_measured
        assert "every task has one attempt" in row.not_measured
    assert [r.success_rate for r in rows] == pytest.approx([3 / 4, 1 / 4])
    post = posterior_view(agg)
    assert post.point.pass_at_k is None and post.point.pass_pow_k is None and post.point.success_rate is not None


def test_each_assistant_is_judged_on_its_own_attempts() -> None:
    # Both assistants attempt the same four tasks once: the run has two attempts per task (measured at
    # K = 2), each assistant one (not measured for either).
    a = one_attempt_each(correct=3, wrong=1, assistant="a")
    b = one_attempt_each(correct=1, wrong=3, assistant="b")
    agg = aggregate(evaluate([*a.conversations, *b.conversations], "dataset", cache_mode="off"), make_settings(k=2))
    assert agg.unit == "task" and agg.k_evidence.measured and agg.headline.pass_at_k is not None
    assert [(r.pass_at_k, r.not_measured is not None) for r in by_assistant(agg)] == [(None, True)] * 2


def test_the_unmeasured_sentence_names_the_fix() -> None:
    ev = k_evidence(np.ones(30, dtype=np.int64), 18)
    assert not ev.measured and ev.sentence == f"pass@18 and pass^18 are not measured: {ev.reason}"
    assert "task_id" in ev.reason and "18 attempts per task" in ev.reason and math.isclose(MIN_TASK_SHARE, 0.5)
