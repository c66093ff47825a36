"""docs/judges.md's recipe for a local judge on a CPU, tested: its commands parse as documented, and the first
runs against the stand-in of a llama-cpp-python server (one request at a time, abandoned requests worked to the
end). No network: the stand-in listens on loopback."""

from __future__ import annotations

import io
import json
import re
import shlex
from pathlib import Path

import pytest

from agentic_core.cli import CONSOLE_NAME, EXIT_OK, main
from agentic_core.cli.parser import build_parser
from tests.judges.standin import StandInServer

ROOT = Path(__file__).resolve().parents[2]
MARK = "<!-- recipe: local-cpu -->"


def recipe() -> list[list[str]]:
    """The commands of the recipe's block, each as argv without the program name."""
    text = (ROOT / "docs" / "judges.md").read_text(encoding="utf-8")
    assert MARK in text, "docs/judges.md lost its recipe block"
    block = re.search(r"```bash\n(.*?)```", text[text.index(MARK) :], re.S)
    assert block is not None
    lines = [line for line in block.group(1).splitlines() if line.startswith(CONSOLE_NAME + " ")]
    return [shlex.split(line)[1:] for line in lines]


def test_the_recipe_commands_parse_as_documented() -> None:
    commands = recipe()
    assert {argv[0] for argv in commands} == {"evaluate", "calibrate"} and len(commands) == 3
    parser = build_parser(CONSOLE_NAME)
    for argv in commands:
        args = parser.parse_args(argv)
        assert args.judge == "llm" and args.concurrency == 1
        assert args.timeout_s is None  # not given: it starts at 60 s and adapts to the server


@pytest.mark.timeout(120)
def test_the_recipe_runs_against_a_server_like_llama_cpp_python(tmp_path: Path) -> None:
    argv = recipe()[0]
    turns = [{"qa_id": f"q{i}", "query": f"What is {i} + 1?", "assistant": f"It is {i + 1}.",
              "ground_truth_assistant": f"{i + 1}"} for i in range(6)]  # fmt: skip
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps({"session_id": "s1", "assistant_id": "a1", "conversation": turns}) + "\n")
    with StandInServer("llama.cpp", latency_s=0.05, on_disconnect="keep-working") as server:
        run = [data.as_posix() if a == "data.jsonl" else a for a in argv]
        run[run.index("--base-url") + 1] = server.base_url
        out, err = io.StringIO(), io.StringIO()
        code = main([*run, "--cache", "off", "--no-save", "--no-progress", "--json"], stdout=out, stderr=err)
        received, refused = server.stats.received, server.stats.refused
    assert code == EXIT_OK, err.getvalue()
    doc = json.loads(out.getvalue())
    assert doc["judge_counts"]["ok"] == 6 and doc["unscored_summary"] == ""
    # One completion per item, no retry; the json_schema request llama.cpp refuses is counted apart.
    assert received == 6 and refused == 1
    assert doc["llm_calls"]["timeout_explicit"] is False and doc["llm_calls"]["concurrency"] == 1
