"""Each importer states the defaults its format needs; format_defaults reads them off a load report."""

from __future__ import annotations

import json
from pathlib import Path

from agentic_core import aggregate, evaluate, load_paths
from agentic_core.io.importers.defaults import FORMAT_NEEDS, format_defaults
from agentic_core.io.importers.formats import FORMAT_CHOICES
from agentic_core.io.loader import load_bytes
from agentic_core.settings import make_settings

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"


def test_every_importer_is_known_to_the_formats() -> None:
    assert set(FORMAT_NEEDS) <= set(FORMAT_CHOICES) - {"auto", "seed"}


def test_tau_bench_needs_the_dataset_judge_and_ignores_extra_calls() -> None:
    report = load_paths([SAMPLES / "tau_bench_airline.json"])
    assert list(report.formats.values()) == ["tau-bench"]
    found = format_defaults(report)
    assert found is not None
    assert (found.format, found.judge, found.ignore_extra_tools) == ("tau-bench", "dataset", True)
    assert "reward" in found.sentence and "read-only" in found.sentence and "Change" in found.sentence
    # What the defaults buy: the dataset judge reproduces the rewards' success rate, and with extra calls
    # ignored more trials have correct tool use than with the workbench's default.
    result = evaluate(report, "dataset")
    rewards = json.loads((SAMPLES / "tau_bench_airline.json").read_text())
    solved = sum(1 for t in rewards if t["reward"] == 1) / len(rewards)
    assert aggregate(result).counts.correct_conversations / len(rewards) == solved
    strict = aggregate(result, make_settings(ignore_extra_tools=False)).tool_summary
    lenient = aggregate(result, make_settings(ignore_extra_tools=True)).tool_summary
    assert lenient.correct_interactions > strict.correct_interactions


def test_seed_data_states_nothing() -> None:
    report = load_paths([SAMPLES / "travel_agent.jsonl"])
    assert set(report.formats.values()) == {"seed"}
    assert format_defaults(report) is None


def test_scores_optional_formats_state_the_judge_only_when_every_interaction_has_one() -> None:
    trace = {
        "id": "t1",
        "messages": [{"role": "user", "content": "Where is order 7?"}, {"role": "assistant", "content": "Shipped."}],
        "reference": ["It has shipped."],
    }
    without = load_bytes("traces.jsonl", json.dumps(trace).encode())
    assert without.formats == {"traces.jsonl": "openai"}
    assert format_defaults(without) is None
    scored = load_bytes("traces.jsonl", json.dumps({**trace, "score": 1.0}).encode())
    found = format_defaults(scored)
    assert found is not None and found.judge == "dataset" and found.ignore_extra_tools is None
    lines = json.dumps({**trace, "score": 1.0}) + "\n" + json.dumps({**trace, "id": "t2"})
    mixed = load_bytes("traces.jsonl", lines.encode())
    assert format_defaults(mixed) is None


def test_ragas_states_nothing() -> None:
    report = load_paths([SAMPLES / "ragas_multiturn.jsonl"])
    assert list(report.formats.values()) == ["ragas"]
    assert format_defaults(report) is None


def test_tau_bench_states_the_task_as_its_unit_with_a_reason_for_each_choice() -> None:
    report = load_paths([SAMPLES / "tau_bench_airline.json"])
    found = format_defaults(report)
    assert found is not None
    assert found.stated() == {"judge": "dataset", "ignore_extra_tools": True, "unit": "task"}
    assert set(found.reasons) == set(found.stated()) and all(found.reasons.values())
    assert "per task over its trials" in found.reasons["unit"] and "Unit of trial" in found.sentence
    # The same numbers as the workbench's auto unit on this file (every task has 4 trials, so auto picks task).
    result = evaluate(report, "dataset")
    assert aggregate(result, make_settings(unit="task")).curve == aggregate(result).curve


def test_a_format_stating_only_the_judge_states_nothing_else() -> None:
    trace = {"id": "t1", "messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]}
    found = format_defaults(load_bytes("traces.jsonl", json.dumps({**trace, "score": 1.0}).encode()))
    assert found is not None and found.stated() == {"judge": "dataset"} and set(found.reasons) == {"judge"}
    assert "Change it if" in found.sentence
