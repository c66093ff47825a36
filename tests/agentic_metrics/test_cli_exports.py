"""The agentic metrics in the CLI (options, JSON records, text) and in the CSV / JSON exports."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pandas as pd
import pytest

from agentic_core.cli import EXIT_USER_ERROR, main

RAGAS = "sample_data/ragas_multiturn.jsonl"


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["evaluate", RAGAS, "--judge", "lexical", "--cache", "off", "--no-save", "--no-progress", *argv],
                stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_json_conversation_records_carry_the_three_metrics() -> None:
    code, out, err = _run("--json", "--metrics", "all", "--topic-variant", "ragas", "--topic-mode", "recall")
    assert code == 0, err
    doc = json.loads(out)
    first = doc["conversations"][0]
    assert first["tool_call_accuracy"] == 1.0 and first["tool_call_order"] == "strict"
    assert first["topic_counts"] == {"tp": 2, "fp": 0, "fn": 0, "tn": 0}
    assert first["topic_mode"] == "recall" and first["topic_variant"] == "ragas" and first["topic_approximate"]
    # The lexical judge's graded score is its fitted P(correct) since issue 38: high, not 1.0.
    assert first["goal_accuracy"] == 1 and first["goal_accuracy_graded"] >= 0.7 and first["goal_evidence"]
    block = doc["agentic_metrics"]
    assert block["metrics"] == ["tool_call_accuracy", "topic_adherence", "goal_accuracy"]
    assert block["goal_accuracy"]["interval_method"] == "wilson" and block["tool_call_accuracy"]["ci"]
    assert block["goal_judge"].startswith("lexical")
    assert "approximate" in err


def test_the_goal_judge_option_is_checked_and_reported() -> None:
    code, out, err = _run("--metrics", "goal_accuracy", "--goal-judge", "lexical")
    assert code == 0, err
    assert "goal accuracy (judge: lexical" in out
    with pytest.raises(SystemExit):  # argparse's own message: invalid choice
        _run("--metrics", "goal_accuracy", "--goal-judge", "minilm")


def test_without_metrics_nothing_is_added() -> None:
    code, out, _ = _run("--json")
    doc = json.loads(out)
    assert code == 0 and "agentic_metrics" not in doc and "tool_call_accuracy" not in doc["conversations"][0]


def test_the_text_output_and_the_order_option() -> None:
    code, out, _ = _run("--metrics", "tool_call_accuracy", "--tool-call-order", "flexible")
    assert code == 0 and "tool call accuracy (flexible, Ragas): 0.800" in out


def test_an_unknown_metric_is_a_user_error_before_judging() -> None:
    code, _, err = _run("--metrics", "tool_accuracy")
    assert code == EXIT_USER_ERROR and "must name some of" in err


def test_csv_exports_gain_the_columns(tmp_path: Path) -> None:
    code, _, err = _run("--metrics", "all", "--out", str(tmp_path))
    assert code == 0, err
    convs = pd.read_csv(tmp_path / "conversations.csv")
    for column in ("tool_call_accuracy", "topic_adherence", "topic_tn", "goal_accuracy", "goal_accuracy_graded",
                   "goal_evidence", "tool_call_order", "topic_mode", "topic_variant"):
        assert column in convs.columns
    inter = pd.read_csv(tmp_path / "interactions.csv")
    assert {"topic_answered", "topic_on_topic", "topic_reasoning"} <= set(inter.columns)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["agentic_metrics"]["topic_counts"]["tp"] == 5


def test_the_reproducing_command_names_the_metrics_and_their_view() -> None:
    from agentic_core.agentic_metrics.results import AgenticView
    from agentic_core.cli.reproduce import cli_command
    from agentic_core.evaluate import aggregate, evaluate
    from agentic_core.settings import make_settings

    result = evaluate(RAGAS, "lexical", metrics="tool_call_accuracy,goal_accuracy", cache_mode="off")
    assert result.agentic is not None
    result.agentic.view = AgenticView(order="flexible")
    command = cli_command(result, aggregate(result, make_settings()))
    assert "--metrics tool_call_accuracy,goal_accuracy --tool-call-order flexible" in command
    assert "--goal-judge" not in command  # lexical: the default
    result.agentic = result.agentic.model_copy(update={"goal_judge": "hybrid (minilm)"})
    assert "--goal-judge hybrid" in cli_command(result, aggregate(result, make_settings()))
