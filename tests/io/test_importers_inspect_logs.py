"""Inspect AI eval logs: one conversation per sample and epoch, scores read as numbers, located issues."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from agentic_core import aggregate, evaluate
from agentic_core.io.importers.inspect_logs import inspect_score_value, resolve_attachments
from agentic_core.io.load_report import LoadReport
from agentic_core.io.loader import load_bytes, load_paths

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "inspect_log.json"


@pytest.fixture
def log() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SAMPLE.read_text(encoding="utf-8"))
    return copy.deepcopy(data)


def load(document: Any, fmt: str = "auto") -> LoadReport:
    return load_bytes("log.json", json.dumps(document, indent=2).encode(), format=fmt)


def test_each_sample_and_epoch_is_one_conversation(log: dict[str, Any]) -> None:
    report = load(log)
    assert report.ok and not report.warnings, [i.message() for i in report.issues]
    samples = log["samples"]
    assert len(report.conversations) == len(samples)
    conv, raw = report.conversations[0], samples[0]
    assert (conv.session_id, conv.task_id, conv.assistant_id) == (
        f"{raw['id']}-epoch-{raw['epoch']}",
        raw["id"],
        log["eval"]["model"],
    )
    (turn,) = conv.conversation
    assert (turn.query, turn.assistant, turn.ground_truth_assistant) == (
        raw["input"],
        raw["output"]["completion"],
        raw["target"],
    )
    assert turn.score == inspect_score_value(raw["scores"]["match"]["value"])
    calls = [c["function"] for m in raw["messages"] if m["role"] == "assistant" for c in m.get("tool_calls") or []]
    assert turn.agentic is not None and [t.tool_name for t in turn.agentic.tools_used] == calls
    assert turn.agentic.tools_used[0].parameters == raw["messages"][2]["tool_calls"][0]["arguments"]
    assert isinstance(turn.agentic.tools_used[0].result, dict)


def test_the_sample_log_runs_with_the_dataset_judge() -> None:
    result = evaluate(load_paths([SAMPLE]), "dataset")
    agg = aggregate(result)
    assert agg.unit == "task" and agg.k == 2


def test_unused_keys_and_other_scorers_are_notes(log: dict[str, Any]) -> None:
    notes = " | ".join(n.message() for n in load(log).notes)
    assert "read as Inspect AI eval log (detected from the content)" in notes
    assert "keys of an Inspect AI sample not used: metadata" in notes and "model_usage" in notes
    assert "events (in" not in notes  # read since issue 39: the timed transcript is the sample's span tree
    assert "the score is read from the scorer 'match'" in notes and "'model_graded_qa'" in notes


@pytest.mark.parametrize(
    ("value", "number"),
    [
        ("C", 1.0),
        ("I", 0.0),
        ("P", 0.5),
        ("N", 0.0),
        ("yes", 1.0),
        (True, 1.0),
        (0.25, 0.25),
        ("0.5", 0.5),
        (7, None),
        ("maybe", None),
        ([1], None),
    ],
)
def test_score_values_read_as_inspect_reads_them(value: Any, number: float | None) -> None:
    assert inspect_score_value(value) == number


def test_attachments_are_resolved() -> None:
    found = resolve_attachments({"a": ["attachment://x", "attachment://missing"]}, {"x": "long text"})
    assert found == {"a": ["long text", "attachment://missing"]}


def test_malformed_samples_are_located_by_sample_and_line(log: dict[str, Any]) -> None:
    log["samples"][0]["scores"] = {"match": {"value": "maybe"}}
    log["samples"][1]["id"] = None
    log["samples"][2]["extra_key"] = 5
    log["samples"][3]["error"] = {"message": "sandbox crashed"}
    report = load(log)
    (error,) = report.errors
    assert (error.record, error.path) == (1, "samples[1].id") and error.line is not None and error.line > 1
    assert report.skipped[0].record == 1
    paths = {w.path: w for w in report.warnings}
    assert "left unscored" in paths["samples[0].scores.match.value"].rule
    assert paths["samples[0].scores.match.value"].value == "'maybe'"
    assert "is not a key of an Inspect AI sample" in paths["samples[2].extra_key"].rule
    assert "sandbox crashed" in (paths["samples[3].error"].value or "")
    unscored = report.conversations[0].conversation[0]
    assert unscored.score is None


def test_a_log_without_samples_is_a_file_error(log: dict[str, Any]) -> None:
    log["samples"] = []
    log["status"] = "error"
    report = load(log)
    (error,) = report.errors
    assert error.path == "samples" and "'error'" in error.rule and "--log-samples" in error.fix


def test_an_unfinished_log_is_warned_about(log: dict[str, Any]) -> None:
    log["status"] = "cancelled"
    (warning,) = load(log).warnings
    assert warning.path == "status" and "'cancelled'" in warning.rule


def test_a_forced_wrong_format_is_a_clear_file_error(log: dict[str, Any]) -> None:
    report = load(log, fmt="openai")
    (error,) = report.errors
    assert "set to 'openai'" in error.rule and "Inspect AI eval log" in error.rule and "'inspect'" in error.fix
