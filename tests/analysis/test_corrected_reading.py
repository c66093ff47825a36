"""The corrected reading (agentic_core.analysis.corrected_reading): the judge's value per conversation, labels matched
to conversations, the design they say, merge precedence, equality with the statistics called directly, and that a
label re-aggregates without calling the judge (issue 37)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from agentic_core import stats
from agentic_core.analysis.aggregate import aggregate
from agentic_core.analysis.corrected_reading import (
    corrected_reading,
    data_labels,
    judge_values,
    merged_labels,
)
from agentic_core.data.labels import HumanLabel
from agentic_core.data.overrides import Override
from agentic_core.data.schemas import Conversation
from agentic_core.evaluate import evaluate
from agentic_core.judges.base import JudgeIdentity, JudgeItem, ProgressFn, Verdict, uncertain_verdict
from agentic_core.settings import make_settings
from tests.fakes import CountingJudge


class ScriptedJudge:
    """An offline judge whose verdict is written in the answer: ``right``, ``wrong``, ``unsure 0.4``, ``fail``."""

    cacheable = False
    recommended_threshold = 0.5

    def __init__(self) -> None:
        self.identity = JudgeIdentity(kind="scripted-test")

    @staticmethod
    def verdict(item: JudgeItem) -> Verdict:
        word = item.answer.split()[0]
        if word == "right":
            return Verdict(score=1.0, reasoning="right")
        if word == "wrong":
            return Verdict(score=0.0, reasoning="wrong")
        if word == "unsure":
            return uncertain_verdict(float(item.answer.split()[1]), "unsure", "test")
        return Verdict(score=None, status="failed", error="the test judge failed")

    async def ajudge(self, items: Sequence[JudgeItem], progress: ProgressFn | None = None) -> list[Verdict]:
        return [self.verdict(item) for item in items]


def record(session: str, answers: list[str], *, task: str | None = None, assistant: str = "agent",
           tools: list[bool] | None = None, human: list[int | None] | None = None) -> dict[str, Any]:  # fmt: skip
    """A conversation whose answers script the judge; ``tools``: per turn, whether the tool call is right."""
    turns = []
    for i, answer in enumerate(answers):
        turn: dict[str, Any] = {
            "qa_id": f"q{i}", "query": f"{session} question {i}", "assistant": f"{answer} ({session} {i})",
            "ground_truth_assistant": "the truth",
        }  # fmt: skip
        if tools is not None:
            b = 2 if tools[i] else 5
            turn["agentic"] = {"tools_used": [{"tool_name": "add", "parameters": {"a": 1, "b": b}, "step": 1}]}
            turn["ground_truth_agentic"] = {
                "expected_tools": [{"tool_name": "add", "parameters": {"a": 1, "b": 2}, "step": 1}],
            }
        if human is not None and human[i] is not None:
            turn["human_label"] = human[i]
        turns.append(turn)
    rec: dict[str, Any] = {"session_id": session, "assistant_id": assistant, "conversation": turns}
    if task is not None:
        rec["task_id"] = task
    return rec


def run(records: list[dict[str, Any]], judge: Any = None) -> Any:
    return evaluate([Conversation.model_validate(r) for r in records], judge or ScriptedJudge(), cache_mode="off")


def lab(session: str, label: int, qa: str | None = None, **fields: Any) -> HumanLabel:
    return HumanLabel(session_id=session, qa_id=qa, label=label, source=fields.pop("source", "file"), **fields)


# --- the judge's value of each conversation ------------------------------------------------------------------


def test_judge_value_is_the_product_of_interactions_any_zero_wins_and_failures_are_nan() -> None:
    result = run([
        record("both-right", ["right", "right"]),
        record("one-wrong", ["right", "wrong"]),
        record("two-unsure", ["right", "unsure 0.4", "unsure 0.5"]),
        record("unsure-and-wrong", ["unsure 0.3", "wrong"]),
        record("failed", ["fail", "right"]),
        record("failed-and-wrong", ["fail", "wrong"]),
    ])  # fmt: skip
    # A person's override replaces the judge in the headline, never in the judge's value the labels correct.
    result.overrides = {1: Override(row=1, correct=False), 3: Override(row=3, correct=True)}
    values = judge_values(result, aggregate(result, make_settings(threshold=0.5)))
    # By hand: 1*1; 1*0; 1*0.4*0.5; 0 whatever the probability; a failure is not a value; a 0 beats a failure.
    expected = [1.0, 0.0, 0.2, 0.0, math.nan, 0.0]
    np.testing.assert_allclose(values, expected, equal_nan=True)


def test_judge_value_fails_wrong_tool_use_only_when_the_settings_require_it() -> None:
    result = run([record("tool-wrong", ["right"], tools=[False]), record("tool-right", ["right"], tools=[True])])
    required = judge_values(result, aggregate(result, make_settings(threshold=0.5, require_tool_correctness=True)))
    ignored = judge_values(result, aggregate(result, make_settings(threshold=0.5, require_tool_correctness=False)))
    assert required.tolist() == [0.0, 1.0]
    assert ignored.tolist() == [1.0, 1.0]


# --- labels matched to conversations -------------------------------------------------------------------------


def _flat(n: int = 48) -> list[dict[str, Any]]:
    """``n`` one-attempt tasks of two turns, the judge right on most."""
    answers = [["right", "right"], ["right", "wrong"], ["unsure 0.6", "right"], ["wrong", "wrong"]]
    return [record(f"s{i}", answers[i % 4], task=f"t{i}") for i in range(n)]


def test_whole_conversation_and_per_interaction_labels_and_partial_and_unmatched() -> None:
    result = run(_flat())
    agg = aggregate(result, make_settings(threshold=0.5))
    labels = [
        lab("s0", 1),  # the whole conversation
        lab("s1", 1, "q0"), lab("s1", 1, "q1"),  # every interaction right: right
        lab("s2", 1, "q0"), lab("s2", 0, "q1"),  # one wrong: wrong
        lab("s3", 1, "q0"),  # only some labelled right: not labelled
        lab("nobody", 1),  # no such conversation
        lab("s4", 1, "q9"),  # no such interaction
    ]  # fmt: skip
    reading = corrected_reading(result, agg, labels)
    assert reading is not None
    assert reading.n_labels == 8
    assert reading.n_labelled == 3  # s0, s1, s2
    assert reading.n_conversations == 48
    assert reading.unmatched == 2
    assert any(x.startswith("nobody (no such conversation") for x in reading.unmatched_examples)
    assert any(x.startswith("s4#q9 (no interaction") for x in reading.unmatched_examples)
    assert any("only some interactions labelled right" in note for note in reading.notes)
    assert any("matched no conversation" in note for note in reading.notes)


def test_a_session_id_shared_by_several_conversations_needs_the_assistant_id() -> None:
    records = [record("shared", ["right"], assistant="a"), record("shared", ["wrong"], assistant="b")]
    records += [record(f"s{i}", ["right"]) for i in range(4)]
    result = run(records)
    agg = aggregate(result, make_settings(threshold=0.5))
    ambiguous = corrected_reading(result, agg, [lab("shared", 1)])
    assert ambiguous is not None and ambiguous.unmatched == 1 and ambiguous.n_labelled == 0
    assert "give assistant_id" in ambiguous.unmatched_examples[0]
    named = corrected_reading(result, agg, [lab("shared", 0, assistant_id="b")])
    assert named is not None and named.unmatched == 0 and named.n_labelled == 1
    # The data's own labels name the assistant exactly where the session id is ambiguous.
    records[0]["conversation"][0]["human_label"] = 1
    records[2]["conversation"][0]["human_label"] = 0
    own = data_labels(run(records))
    assert {(x.session_id, x.assistant_id, x.qa_id, x.label) for x in own} == {("shared", "a", "q0", 1),
                                                                               ("s0", None, "q0", 0)}  # fmt: skip


def test_no_label_no_reading() -> None:
    result = run(_flat(6))
    assert corrected_reading(result, aggregate(result, make_settings(threshold=0.5)), []) is None
    assert aggregate(result, make_settings(threshold=0.5)).corrected is None


# --- the design the labels say -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("designs", "design", "said", "note"),
    [
        (["random-tasks"], "tasks", True, None),
        (["random-attempts"], "attempts", True, None),
        (["unknown"], "tasks", False, "do not say how their items were chosen"),
        (["random-tasks", "uncertain-first"], "tasks", False, "different designs"),
    ],
)
def test_design_is_read_from_queue_labels_and_assumed_random_otherwise(
    designs: list[str], design: str, said: bool, note: str | None
) -> None:
    # 24 tasks of two attempts (an attempt design differs from a task design only with several attempts)
    result = run([record(f"s{i}", ["right" if i % 3 else "wrong"], task=f"t{i // 2}") for i in range(48)])
    agg = aggregate(result, make_settings(threshold=0.5))
    each = [designs[i % len(designs)] for i in range(12)]
    labels = [
        lab(f"s{i}", int(i % 4 == 0), design=d, source="queue", inclusion=None if d == "unknown" else 0.5)
        for i, d in enumerate(each)
    ]
    reading = corrected_reading(result, agg, labels)
    assert reading is not None
    assert (reading.design, reading.design_said) == (design, said)
    if note is None:
        assert not any("do not say" in n or "different designs" in n for n in reading.notes)
    else:
        assert any(note in n for n in reading.notes)


def test_uncertain_first_labels_weight_by_their_inclusion_probability() -> None:
    result = run(_flat())
    agg = aggregate(result, make_settings(threshold=0.5))
    truth = [1 if i % 4 in (0, 2) else 0 for i in range(48)]
    chosen = range(0, 48, 2)
    weighted = [lab(f"s{i}", truth[i], design="uncertain-first", source="queue", inclusion=0.25 if i % 4 else 0.75)
                for i in chosen]  # fmt: skip
    uniform = [lab(f"s{i}", truth[i], design="random-tasks", source="queue") for i in chosen]
    a = corrected_reading(result, agg, weighted)
    b = corrected_reading(result, agg, uniform)
    assert a is not None and b is not None and a.design_said and a.design == "tasks"
    assert a.success_rate.estimate is not None and b.success_rate.estimate is not None
    assert a.success_rate.estimate != pytest.approx(b.success_rate.estimate)  # the weights are used


# --- merge precedence -----------------------------------------------------------------------------------------


def test_a_later_label_replaces_an_earlier_one_on_the_same_item() -> None:
    old = lab("s1", 1, "q0", labelled_at=10.0)
    new = lab("s1", 0, "q0", labelled_at=20.0)
    other = lab("s1", 1, labelled_at=5.0)  # the whole conversation: another item
    assert merged_labels([new, old]) == [new]  # within a group, the later time wins whatever the order
    assert set(merged_labels([old, other], [new])) == {new, other}
    # A later group wins over an earlier one (the queue's label over the data's own), whatever the times.
    data = lab("s1", 1, "q0", source="data", labelled_at=99.0)
    assert merged_labels([data], [new]) == [new]


# --- the same numbers as the statistics called directly ------------------------------------------------------


def test_flat_data_gives_the_statistics_value_for_value() -> None:
    result = run(_flat())
    settings = make_settings(threshold=0.5, mode="frequentist", seed=7)
    agg = aggregate(result, settings)
    truth = [1 if i % 8 in (0, 2, 3) else 0 for i in range(48)]
    labels = [lab(f"s{i}", truth[i], design="random-tasks", source="queue") for i in range(0, 48, 2)]
    reading = corrected_reading(result, agg, labels)
    assert reading is not None and reading.success_rate.estimate is not None
    # The judge's values by hand from the scripted answers: 1*1, 1*0, 0.6*1, 0*0 per block of four.
    judge = np.tile([1.0, 0.0, 0.6, 0.0], 12)
    human = np.full(48, np.nan)
    human[::2] = [truth[i] for i in range(0, 48, 2)]
    curve = stats.corrected_curve(judge, human, np.arange(48), [1], design="tasks", mode="frequentist",
                                  target=settings.target, level=settings.ci_level, seed=7)  # fmt: skip
    assert reading.success_rate.estimate == pytest.approx(curve.points[0].success_rate)
    assert reading.success_rate.ci == pytest.approx(curve.points[0].success_rate_ci)
    assert reading.success_rate.labels_only == pytest.approx(curve.human_only[0].success_rate)
    assert reading.pass_at_k is None and reading.pass_pow_k is None  # one attempt per task: K not measured
    assert (reading.sensitivity, reading.specificity) == (curve.agreement.sensitivity, curve.agreement.specificity)
    assert reading.n_labelled == 24 and reading.n_labelled_tasks == 24


def test_tasks_with_attempts_give_pass_at_k_as_the_statistics_do() -> None:
    answers = [["right"], ["wrong"], ["unsure 0.7"]]
    records = [record(f"t{t}-{a}", answers[(t + a) % 3], task=f"t{t}") for t in range(48) for a in range(3)]
    result = run(records)
    settings = make_settings(threshold=0.5, k=2, mode="frequentist", seed=3)
    agg = aggregate(result, settings)
    truth = {f"t{t}-{a}": int((t + a) % 3 != 1 or t % 5 == 0) for t in range(48) for a in range(3)}
    first_half = {s: y for s, y in truth.items() if int(s[1:].split("-")[0]) < 24}
    labels = [lab(s, y, design="random-tasks", source="queue") for s, y in first_half.items()]
    reading = corrected_reading(result, agg, labels)
    assert reading is not None and reading.pass_at_k is not None and reading.k == 2
    assert reading.pass_at_k.estimate is not None
    judge = np.array([[1.0, 0.0, 0.7][(t + a) % 3] for t in range(48) for a in range(3)])
    human = np.array([truth[f"t{t}-{a}"] if t < 24 else np.nan for t in range(48) for a in range(3)])
    curve = stats.corrected_curve(
        judge, human, np.repeat(np.arange(48), 3), [1, 2], design="tasks", mode="frequentist",
        target=settings.target, level=settings.ci_level, seed=3,
    )  # fmt: skip
    assert reading.pass_at_k.estimate == pytest.approx(curve.points[-1].pass_at_k)
    assert reading.pass_pow_k is not None and reading.pass_pow_k.ci == pytest.approx(curve.points[-1].pass_pow_k_ci)
    assert reading.n_labelled_tasks == 24 and reading.n_tasks == 48


# --- judge once -------------------------------------------------------------------------------------------------


def test_adding_a_label_re_aggregates_without_calling_the_judge() -> None:
    judge = CountingJudge(ScriptedJudge())
    result = run(_flat(), judge)
    calls = judge.items_judged
    settings = make_settings(threshold=0.5)
    result.labels = [lab(f"s{i}", int(i % 4 == 0), design="random-tasks", source="queue") for i in range(0, 44, 2)]
    before = aggregate(result, settings).corrected
    result.labels.append(lab("s45", 1, design="random-tasks", source="queue"))
    after = aggregate(result, settings).corrected
    assert before is not None and after is not None and before.success_rate.estimate is not None
    assert (before.n_labelled, after.n_labelled) == (22, 23)
    assert after.success_rate.estimate != before.success_rate.estimate
    assert judge.items_judged == calls  # labels never re-judge


def test_the_abstention_band_moves_the_judge_values_the_labels_correct() -> None:
    # Issue 41: the band moves every number, the corrected estimate's inputs included. Under the judge's own
    # abstention the unsure turn counts by its probability; a band of width 0 decides it at the threshold.
    result = run([record("unsure-right", ["unsure 0.6", "right"]), record("unsure-low", ["unsure 0.3", "right"])])
    abstaining = judge_values(result, aggregate(result, make_settings(threshold=0.5)))
    deciding = judge_values(result, aggregate(result, make_settings(threshold=0.5, abstain_band=(0.5, 0.5))))
    np.testing.assert_allclose(abstaining, [0.6, 0.3])
    assert deciding.tolist() == [1.0, 0.0]
