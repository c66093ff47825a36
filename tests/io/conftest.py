"""Shared helpers of the agentic_core.io tests: record builders, encoders and error assertions.

Imported by the test modules as ``from tests.io.conftest import ...`` (as in ``tests/pages``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agentic_core.io.load_report import Issue
from agentic_core.io.loader import LoadReport, load_bytes

# The shared data files are in tests/data (this package is tests/io).
DATA = Path(__file__).parent.parent / "data"
SECRET = "gsk_live_DO_NOT_LEAK_0123456789"


def interaction(qa_id: str = "q1", **extra: Any) -> dict[str, Any]:
    return {
        "qa_id": qa_id,
        "query": "What is 5 + 3?",
        "assistant": "The result is 8.",
        "ground_truth_assistant": "8",
        **extra,
    }


def conversation(session_id: str = "s1", *turns: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "session_id": session_id,
        "assistant_id": "agent_v1",
        "conversation": list(turns) or [interaction()],
        **extra,
    }


def with_tools(**agentic_extra: Any) -> dict[str, Any]:
    return interaction(
        agentic={
            "tools_used": [
                {"tool_name": "calculator", "parameters": {"a": 5, "b": 3}, "result": 8, "step": 1}
            ],
            "final_answer_uses_tools": True,
            **agentic_extra,
        },
        ground_truth_agentic={
            "expected_tools": [{"tool_name": "calculator", "parameters": {"a": 5, "b": 3}, "step": 1}],
            "tool_sequence_matters": False,
        },
    )


def as_json(records: Any, indent: int | None = None) -> bytes:
    return json.dumps(records, indent=indent).encode()


def as_jsonl(records: list[Any]) -> bytes:
    return b"\n".join(json.dumps(r).encode() for r in records) + b"\n"


def only_error(report: LoadReport) -> Issue:
    assert len(report.errors) == 1, [i.message() for i in report.errors]
    return report.errors[0]


def load_one_bad(record: dict[str, Any]) -> Issue:
    """Load [good, bad]: the good record must survive; return the bad record's single error."""
    report = load_bytes("data.json", as_json([conversation("good"), record]))
    assert [c.session_id for c in report.conversations] == ["good"]
    assert [s.record for s in report.skipped] == [1]
    issue = only_error(report)
    assert issue.file == "data.json"
    assert issue.record == 1
    return issue
