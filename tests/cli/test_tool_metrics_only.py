"""``evaluate --metrics tool_call_accuracy`` on samples without reference answers needs no answer judge: exit 0."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from agentic_core.agentic_metrics.tool_call_accuracy import ragas_tool_call_accuracy
from agentic_core.cli import EXIT_NOTHING_SCORED, EXIT_OK, main

RAGAS = Path(__file__).resolve().parents[2] / "sample_data" / "ragas_multiturn.jsonl"


@pytest.fixture
def without_references(tmp_path: Path) -> Path:
    """The Ragas sample with every reference answer removed (reference tool calls kept)."""
    records = [json.loads(line) for line in RAGAS.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert all("reference" in r for r in records)
    path = tmp_path / "samples.jsonl"
    path.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "reference"}) + "\n" for r in records))
    return path


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    # The default judge (learned) fails on an empty reference: "nothing could be scored" unless only tools are asked.
    code = main(["evaluate", *argv, "--no-progress", "--no-save", "--cache", "off"], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_tool_metrics_only_exit_zero_without_reference_answers(without_references: Path) -> None:
    code, out, err = _run(str(without_references), "--format", "ragas", "--metrics", "tool_call_accuracy", "--json")
    assert code == EXIT_OK, err
    assert "nothing could be scored" not in err
    assert "Only tool metrics were asked for (--metrics tool_call_accuracy), and they need no answer judge" in err
    doc = json.loads(out)
    assert doc["judge_counts"]["ok"] == 0  # no answer was judged ...
    block = doc["agentic_metrics"]
    # ... and tool call accuracy is the mean of the per-sample values computed from the records themselves.
    records = [json.loads(line) for line in without_references.read_text().splitlines()]
    def calls(items: list[dict[str, object]]) -> list[tuple[str, object]]:
        return [(str(c["name"]), c["args"]) for c in items]

    expected = [
        ragas_tool_call_accuracy(
            calls([c for m in r["user_input"] for c in m.get("tool_calls") or []]), calls(r["reference_tool_calls"])
        ).value
        for r in records
    ]
    assert block["tool_call_accuracy"]["mean"] == pytest.approx(sum(expected) / len(expected))
    assert block["tool_call_accuracy"]["n"] == len(records)


def test_an_answer_metric_asked_for_too_still_needs_an_answer_judge(without_references: Path) -> None:
    code, _, err = _run(str(without_references), "--format", "ragas", "--metrics", "tool_call_accuracy,goal_accuracy")
    assert code == EXIT_NOTHING_SCORED and "nothing could be scored" in err


def test_without_metrics_nothing_scored_still_exits_five(without_references: Path) -> None:
    code, _, err = _run(str(without_references), "--format", "ragas")
    assert code == EXIT_NOTHING_SCORED and "nothing could be scored" in err
