"""The command the Export page shows reproduces the same files (agentic_core.cli.reproduce)."""

from __future__ import annotations

import io
import json
import shlex
from pathlib import Path

import pytest

from agentic_core import evaluate, load_paths
from agentic_core.analysis.aggregate import aggregate
from agentic_core.cli import main as cli_main
from agentic_core.cli.reproduce import cli_command
from agentic_core.report import (
    EXPORT_FILES,
    export_bytes,
)
from agentic_core.result import EvaluationResult
from agentic_core.settings import make_settings
from tests.conftest import SEEDS


def test_cli_command_reproduces_the_same_files(
    seeds: EvaluationResult, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENTIC_CACHE_PATH", str(tmp_path / "cache.sqlite"))
    settings = make_settings(
        threshold=0.83,
        k=2,
        unit="conversation",
        mode="frequentist",
        estimator="plug-in",
        ci_level=0.9,
        tool_threshold=0.75,
        tool_weights={"selection": 0.4, "parameters": 0.3, "sequence": 0.2, "utilization": 0.1},
        ignore_extra_tools=True,
        require_tool_correctness=True,
        prior_a=0.5,
        prior_b=0.5,
    )
    agg = aggregate(seeds, settings)
    command = cli_command(seeds, agg, data=str(SEEDS), out=str(tmp_path / "cli"))
    argv = shlex.split(command)
    assert argv[:4] == ["python", "-m", "agentic_core", "evaluate"]
    code = cli_main([*argv[3:], "--no-progress"], stdout=io.StringIO(), stderr=io.StringIO())
    assert code == 0
    for name, file_name in EXPORT_FILES.items():
        assert (tmp_path / "cli" / file_name).read_bytes() == export_bytes(seeds, agg, name), name


def test_the_command_keeps_extra_calls_counted_on_data_whose_format_ignores_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # tau-bench data: evaluate ignores extra calls unless told otherwise, so a run that counted them says so.
    monkeypatch.setenv("AGENTIC_CACHE_PATH", str(tmp_path / "cache.sqlite"))
    tau = SEEDS.parent / "tau_bench_airline.json"
    result = evaluate(load_paths([tau]), "dataset")
    agg = aggregate(result, make_settings(ignore_extra_tools=False))
    argv = shlex.split(cli_command(result, agg, data=str(tau), out=str(tmp_path / "cli")))
    assert "--no-ignore-extra-tools" in argv
    out = io.StringIO()
    assert cli_main([*argv[3:], "--no-progress", "--json", "--no-save"], stdout=out, stderr=io.StringIO()) == 0
    doc = json.loads(out.getvalue())
    assert doc["settings"]["ignore_extra_tools"] is False
    assert doc["tool_correctness"]["correct_interactions"] == agg.tool_summary.correct_interactions
