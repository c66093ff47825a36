"""The command the Export page shows reproduces the same files (agentic_core.cli.reproduce)."""

from __future__ import annotations

import io
import shlex
from pathlib import Path

import pytest

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
