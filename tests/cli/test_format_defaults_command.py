"""``evaluate`` applies what the data's format needs to the options not given, says so, and lets given ones win."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from agentic_core import aggregate, evaluate, load_paths
from agentic_core.cli import main
from agentic_core.settings import make_settings

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
TAU = SAMPLES / "tau_bench_airline.json"
PAPER_PASS_POW = [0.420, 0.273, 0.220, 0.200]  # Yao et al. 2024 (tau-bench), gpt-4o, airline, 50 tasks x 4 trials


def _evaluate(*argv: str) -> tuple[dict[str, Any], str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["evaluate", *argv, "--json", "--no-progress", "--no-save"], stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    return json.loads(out.getvalue()), err.getvalue()


def test_the_published_tau_bench_run_gives_the_papers_pass_pow_k_without_flags() -> None:
    doc, err = _evaluate(str(TAU))
    assert [round(p["pass_pow_k"], 3) for p in doc["curve"]] == PAPER_PASS_POW
    assert doc["judge"]["kind"] == "dataset" and doc["judge_counts"]["failed"] == 0
    assert (doc["settings"]["unit"], doc["settings"]["ignore_extra_tools"]) == ("task", True)
    assert doc["format_defaults"]["format"] == "tau-bench"
    assert doc["format_defaults"]["applied"] == {"judge": "dataset", "ignore_extra_tools": True, "unit": "task"}
    assert doc["format_defaults"]["kept"] == {}
    # Said in one line, naming the options applied and how to choose otherwise.
    (line,) = [text for text in err.splitlines() if text.startswith("format defaults")]
    assert line == doc["format_defaults"]["message"]
    assert "--judge dataset --ignore-extra-tools --unit task" in line and "--no-ignore-extra-tools" in line
    # The success rate is the rewards' (84 of 200 trials solved), and tool use is scored with extra calls ignored:
    # the same counts as the Python API with those settings.
    rewards = json.loads(TAU.read_text(encoding="utf-8"))
    assert doc["counts"]["correct_conversations"] == sum(1 for t in rewards if t["reward"] == 1)
    api = aggregate(evaluate(load_paths([TAU]), "dataset"), make_settings(ignore_extra_tools=True, unit="task"))
    assert doc["tool_correctness"]["correct_interactions"] == api.tool_summary.correct_interactions > 0


def test_options_given_on_the_command_line_win_over_the_format() -> None:
    doc, err = _evaluate(
        str(TAU), "--judge", "lexical", "--no-ignore-extra-tools", "--unit", "conversation", "--cache", "off"
    )
    assert doc["judge"]["kind"] == "lexical"
    assert (doc["settings"]["unit"], doc["settings"]["ignore_extra_tools"]) == ("conversation", False)
    assert doc["format_defaults"]["applied"] == {}
    assert doc["format_defaults"]["kept"] == {"judge": "lexical", "ignore_extra_tools": False, "unit": "conversation"}
    assert "format defaults for tau-bench results not applied: --judge lexical --no-ignore-extra-tools" in err


def test_an_option_given_with_the_formats_value_is_not_reported_and_the_rest_is_applied() -> None:
    doc, err = _evaluate(str(TAU), "--ignore-extra-tools", "--unit", "task")
    assert doc["format_defaults"]["applied"] == {"judge": "dataset"}
    assert doc["format_defaults"]["kept"] == {}
    assert [round(p["pass_pow_k"], 3) for p in doc["curve"]] == PAPER_PASS_POW
    assert "format defaults for tau-bench results: --judge dataset. Why:" in err


def test_seed_data_takes_the_workbench_defaults_and_says_nothing() -> None:
    doc, err = _evaluate(str(SAMPLES / "support_bot_attempts.jsonl"), "--judge", "lexical", "--cache", "off")
    assert doc["format_defaults"] is None and "format defaults" not in err
    assert (doc["settings"]["unit"], doc["settings"]["ignore_extra_tools"]) == ("auto", False)
