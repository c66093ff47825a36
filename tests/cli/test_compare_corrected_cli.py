"""``compare`` with human labels in the data: the corrected difference line and ``--json``'s
``corrected_difference`` key (issue 37, Compare)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from agentic_core.analysis.compare_runs import Side, compare_sides
from agentic_core.cli import EXIT_OK
from agentic_core.data.schemas import Conversation
from agentic_core.evaluate import evaluate
from agentic_core.settings import make_settings
from tests.analysis.test_compare_runs import agent
from tests.cli.test_compare_command import COMMON, run, write


def labelled(name: str, passing: set[int], wrong_judge: set[int], labels: range) -> list[dict[str, Any]]:
    """``agent``'s records with a ``human_label`` on tasks in ``labels``: the judge is wrong on ``wrong_judge``."""
    records = agent(name, passing)
    for i, rec in enumerate(records):
        if i in labels:
            rec["conversation"][0]["human_label"] = int((i in passing) != (i in wrong_judge))
    return records


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("compare-corrected")
    return {
        "a": write(folder / "a.jsonl", labelled("a", set(range(15)), {3, 20}, range(25))),
        "b": write(folder / "b.jsonl", labelled("b", set(range(23)), {4, 21, 27}, range(2, 30))),
        "plain": write(folder / "plain.jsonl", agent("a", set(range(15)))),
    }


def test_the_text_gives_one_corrected_line_and_the_json_a_new_key(files: dict[str, str]) -> None:
    code, out, err = run("compare", files["a"], files["b"], *COMMON)
    assert code == EXIT_OK, err
    pattern = r"^corrected difference \(B - A\) with 23 human-labelled shared tasks: \+0\.\d\d \[.+\]$"
    line = re.search(pattern, out, re.M)
    assert line, out
    code, out, err = run("compare", files["a"], files["b"], *COMMON, "--json")
    assert code == EXIT_OK, err
    doc = json.loads(out)
    block = doc["corrected_difference"]
    # The same numbers as the core's, from the same files judged in-process.
    results = [
        evaluate([Conversation.model_validate(json.loads(x)) for x in Path(files[s]).read_text().splitlines()],
                 "dataset", cache_mode="off")
        for s in ("a", "b")
    ]  # fmt: skip
    settings = make_settings(threshold=results[0].recommended_threshold)
    core = compare_sides(Side(results[0], settings), Side(results[1], settings)).corrected
    assert core is not None and block == core.as_json()
    assert block["n_shared_tasks"] == 30 and block["n_labelled_both"] == 23 and block["reason"] is None
    assert f"{block['estimate']:+.2f}" in line.group(0)
    # The existing keys are all still there.
    assert {"a", "b", "k", "metrics", "tasks", "notes", "same_verdicts", "k_evidence"} <= set(doc)


def test_without_labels_there_is_no_line_and_the_key_is_null(files: dict[str, str]) -> None:
    code, out, _ = run("compare", files["plain"], files["plain"], *COMMON)
    assert code == EXIT_OK and "corrected difference" not in out
    code, out, _ = run("compare", files["plain"], files["plain"], *COMMON, "--json")
    assert code == EXIT_OK and json.loads(out)["corrected_difference"] is None


def test_labels_in_one_run_only_say_why_there_is_no_value(files: dict[str, str]) -> None:
    code, out, _ = run("compare", files["plain"], files["b"], *COMMON)
    assert code == EXIT_OK
    assert "corrected difference (B - A): none, A has no human label (label the same tasks in both runs)" in out
