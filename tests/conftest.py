"""Shared fixtures of the tests: the seed examples, the travel sample and a hand-made tool dataset."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

if os.environ.get("PYTEST_XDIST_WORKER"):
    # One BLAS thread per xdist worker, set before numpy loads OpenBLAS (the servers and processes tests start
    # inherit it): the workers already take one core each, and OpenBLAS's own threads (one per core, spinning
    # while they wait for work) made the statistics tests spend 1.5x the CPU time on a 2-core machine.
    for _threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(_threads, "1")

from agentic_core.evaluate import evaluate
from agentic_core.io.loader import load_records
from agentic_core.io.samples import load_sample
from agentic_core.result import EvaluationResult
from tests.scheduling import heavy_files_first

ROOT = Path(__file__).resolve().parents[1]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long files first (tests/scheduling.py): xdist hands them out in this order under test.sh."""
    items[:] = heavy_files_first(items)


SEEDS = ROOT / "sample_data" / "seed_examples.json"

# No per-example deadline in any property test: time is measured by benchmarks, never asserted by a test, and on a
# loaded 2-core machine running two workers one example's first call can take 0.7 s (a "flaky" deadline failure
# that says nothing about the property).
settings.register_profile("workbench", deadline=None)
settings.load_profile("workbench")


@pytest.fixture(scope="session", autouse=True)
def _private_run_history(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Runs made by tests go to a history of their own, never the user's."""
    import os

    before = os.environ.get("AGENTIC_RUNS_PATH")
    os.environ["AGENTIC_RUNS_PATH"] = str(tmp_path_factory.mktemp("history") / "runs.sqlite3")
    yield
    if before is None:
        os.environ.pop("AGENTIC_RUNS_PATH", None)
    else:
        os.environ["AGENTIC_RUNS_PATH"] = before


INTERACTION_COLUMNS = [
    "conversation",
    "session_id",
    "assistant_id",
    "task_key",
    "position",
    "qa_id",
    "query",
    "answer",
    "ground_truth",
    "judge_score",
    "judge_status",
    "correct",
    "judge_reasoning",
    "judge_error",
    "tool_selection",
    "tool_parameters",
    "tool_sequence",
    "tool_utilization",
    "tool_overall",
    "tool_correct",
    "human_override",
    "human_note",
    "judge_probability",
    "tool_reasoning",
    "uncertain",
]


SEED003_FIELDS = {
    "session_id",
    "total_interactions",
    "correct_interactions",
    "is_fully_correct",
    "threshold",
    "correctness_scores",
    "correct_indices",
    "tool_correctness_scores",
    "k",
    "pass_at_k",
    "pass_pow_k",
    "pass_at_k_ci_low",
    "pass_at_k_ci_high",
    "pass_pow_k_ci_low",
    "pass_pow_k_ci_high",
}


TOOL_SCORE_FIELDS = {
    "tool_selection_correct",
    "parameter_accuracy",
    "sequence_correct",
    "result_utilization",
    "overall_correctness",
    "is_correct",
    "reasoning",
}


@pytest.fixture(scope="module")
def seeds() -> EvaluationResult:
    return evaluate(SEEDS, "dataset", cache_mode="off")


@pytest.fixture(scope="module")
def travel() -> EvaluationResult:
    return evaluate(load_sample("travel"), "dataset", cache_mode="off")


def by_session(result: EvaluationResult, session_id: str, assistant_id: str | None = None) -> int:
    rows = [
        i
        for i, c in enumerate(result.conversations)
        if c.session_id == session_id and (assistant_id is None or c.assistant_id == assistant_id)
    ]
    assert len(rows) == 1, rows
    return rows[0]


def tool_call(name: str, step: int, **params: Any) -> dict[str, Any]:
    return {"tool_name": name, "parameters": params, "result": {"ok": True}, "step": step}


def turn(
    qa_id: str,
    expected: list[dict[str, Any]] | None,
    used: list[dict[str, Any]] | None,
    score: float = 0.9,
) -> dict[str, Any]:
    item: dict[str, Any] = {
        "qa_id": qa_id,
        "query": f"question {qa_id}",
        "assistant": f"answer {qa_id}",
        "ground_truth_assistant": f"truth {qa_id}",
        "score": score,
    }
    if used is not None:
        item["agentic"] = {"tools_used": used, "final_answer_uses_tools": True}
    if expected is not None:
        item["ground_truth_agentic"] = {"expected_tools": expected, "tool_sequence_matters": False}
    return item


HAND_MADE = [
    {
        "session_id": "h1",
        "assistant_id": "bot",
        "conversation": [
            # search: retried (one match + one extra); book: wrong id (1 parameter error)
            turn(
                "i1",
                [tool_call("search", 1, q="a"), tool_call("book", 2, id=1)],
                [tool_call("search", 1, q="a"), tool_call("search", 2, q="a"), tool_call("book", 3, id=2)],
            ),
            # weather never called (missing)
            turn("i2", [tool_call("weather", 1, city="Paris", date="d")], []),
            # convert with from/to swapped (2 parameter errors) and an unexpected lookup (extra)
            turn(
                "i3",
                [tool_call("convert", 1, amount=5, src="USD", dst="EUR")],
                [tool_call("convert", 1, amount=5, src="EUR", dst="USD"), tool_call("lookup", 2)],
            ),
        ],
    },
    {
        "session_id": "h2",
        "assistant_id": "bot",
        "conversation": [
            # search with an unexpected parameter (1 error); optional weather not called (not missing)
            turn(
                "i4",
                [tool_call("search", 1, q="b"), {**tool_call("weather", 2, city="Rome"), "optional": True}],
                [tool_call("search", 1, q="b", page=2)],
                score=0.3,
            ),
            turn("i5", None, None),  # no tools: not applicable
        ],
    },
]


@pytest.fixture(scope="module")
def hand_made() -> EvaluationResult:
    report = load_records(HAND_MADE)
    assert not report.skipped
    return evaluate(report, "dataset", cache_mode="off")
