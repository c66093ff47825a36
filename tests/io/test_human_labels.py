"""``human_label`` / ``human_score`` on interactions: strict, with located messages and fixes."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from agentic_core.analysis.calibration import has_human_verdicts, run_verdicts
from agentic_core.evaluate import evaluate
from agentic_core.io.loader import load_records
from agentic_core.io.samples import load_sample

RECORD: dict[str, Any] = {
    "session_id": "s1",
    "assistant_id": "a",
    "conversation": [{"qa_id": "q", "query": "Q?", "assistant": "A.", "ground_truth_assistant": "A."}],
}


def with_turn(**fields: Any) -> dict[str, Any]:
    record = copy.deepcopy(RECORD)
    record["conversation"][0].update(fields)
    return record


@pytest.mark.parametrize(
    ("fields", "fix"),
    [
        ({"human_label": 2}, "write 1 (the answer is correct) or 0"),
        ({"human_label": True}, "write 1 instead of true"),
        ({"human_label": "0"}, "write 0 without quotes"),
        ({"human_label": 1.0}, "write 1 instead of 1.0"),
        ({"human_score": 1.5}, "rescale"),
        ({"human_score": -0.1}, "rescale"),
        ({"human_score": "0.4"}, "write 0.4 without quotes"),
    ],
)
def test_bad_verdicts_are_refused_where_they_are(fields: dict[str, Any], fix: str) -> None:
    report = load_records([with_turn(**fields)], "labels.jsonl")
    assert report.skipped and not report.conversations
    (message,) = [e.message() for e in report.errors]
    name = next(iter(fields))
    assert f"labels.jsonl record 0, conversation[0].{name}" in message
    assert fix in message


def test_good_verdicts_load_without_warnings() -> None:
    second = {**with_turn(human_score=0.75), "session_id": "s2"}
    report = load_records([with_turn(human_label=0), second], "labels.jsonl")
    assert len(report.conversations) == 2 and not report.issues
    assert report.conversations[0].conversation[0].human_label == 0
    assert report.conversations[1].conversation[0].human_score == 0.75


def test_the_labelled_sample_carries_a_verdict_on_every_interaction() -> None:
    result = evaluate(load_sample("labelled"), "dataset", cache_mode="off")
    verdicts, sources = run_verdicts(result)
    assert has_human_verdicts(result) and len(verdicts) == 56
    assert set(sources) == {"human_label", "human_score"}
    assert not has_human_verdicts(evaluate(load_sample("seeds"), "dataset", cache_mode="off"))
