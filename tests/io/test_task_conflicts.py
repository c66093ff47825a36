"""Issue 23: the same qa_id with different ground truths is not silently one task with many attempts."""

from __future__ import annotations

from agentic_core.io.loader import load_bytes
from tests.io.conftest import as_jsonl, conversation, interaction


def _attempt(session: str, truth: str, **extra: object) -> dict[str, object]:
    return conversation(session, interaction("q1", ground_truth_assistant=truth), **extra)


def test_same_qa_id_with_three_ground_truths_is_a_warning_naming_it() -> None:
    report = load_bytes("d.jsonl", as_jsonl([_attempt("a", "8"), _attempt("b", "9"), _attempt("c", "10")]))
    assert report.ok
    warnings = [w for w in report.warnings if "different ground truths" in w.rule]
    assert len(warnings) == 1, report.issues
    assert "'q1' (3 different ground truths)" in warnings[0].rule
    assert "task_id" in warnings[0].fix


def test_repeated_attempts_with_the_same_ground_truth_are_not_warned() -> None:
    report = load_bytes("d.jsonl", as_jsonl([_attempt("a", "8"), _attempt("b", "8"), _attempt("c", "8")]))
    assert not [w for w in report.warnings if "different ground truths" in w.rule]


def test_task_ids_that_tell_the_tasks_apart_silence_the_warning() -> None:
    records = [_attempt("a", "8", task_id="t1"), _attempt("b", "9", task_id="t2")]
    report = load_bytes("d.jsonl", as_jsonl(records))
    assert not [w for w in report.warnings if "different ground truths" in w.rule]


def test_order_of_the_ground_truths_counts() -> None:
    two = [interaction("q1", ground_truth_assistant="x"), interaction("q2", ground_truth_assistant="y")]
    swapped = [interaction("q1", ground_truth_assistant="y"), interaction("q2", ground_truth_assistant="x")]
    report = load_bytes("d.jsonl", as_jsonl([conversation("a", *two), conversation("b", *swapped)]))
    warnings = [w for w in report.warnings if "different ground truths" in w.rule]
    assert len(warnings) == 1 and "'q1|q2'" in warnings[0].rule


def test_a_shared_task_id_says_the_attempts_are_one_task_on_purpose() -> None:
    # Multi-turn attempts at one task drift apart in later turns: the data's task_id groups them on purpose.
    records = [_attempt("a", "8", task_id="t1"), _attempt("b", "9", task_id="t1")]
    report = load_bytes("d.jsonl", as_jsonl(records))
    assert not [w for w in report.warnings if "different ground truths" in w.rule]


def test_only_the_tasks_grouped_by_their_qa_ids_are_named() -> None:
    records = [
        _attempt("a", "8", task_id="t1"),
        _attempt("b", "9", task_id="t1"),
        _attempt("c", "8"),
        _attempt("d", "9"),
    ]
    warnings = [w for w in load_bytes("d.jsonl", as_jsonl(records)).warnings if "different ground truths" in w.rule]
    assert len(warnings) == 1 and "'q1' (2 different" in warnings[0].rule and "t1" not in warnings[0].rule
