"""``plan --half-width`` with the judge's agreement: the human labels the corrected estimate needs next to the tasks
and attempts (issue 37 §3); the numbers are stats.labels_needed's on the plan's own tasks and attempts."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from agentic_core.analysis.aggregate import aggregate
from agentic_core.cli import EXIT_OK, EXIT_USER_ERROR, main
from agentic_core.evaluate import evaluate
from agentic_core.io.samples import load_sample
from agentic_core.runs import RunStore
from agentic_core.stats.label_plan import labels_needed

BASE = ("plan", "--mean", "0.6", "--spread", "0.25", "--half-width", "0.05", "--k", "1", "--attempts", "1,2",
        "--unscored-share", "0.2")  # fmt: skip


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_stated_agreement_plans_the_labels_as_labels_needed_does() -> None:
    code, out, err = run(*BASE, "--sensitivity", "0.8", "--specificity", "0.9", "--json")
    assert code == EXIT_OK, err
    doc: dict[str, Any] = json.loads(out)
    labels = doc["labels"]
    assert (labels["sensitivity"], labels["specificity"], labels["agreement"]) == (0.8, 0.9, "stated")
    assert labels["abstention_rate"] == pytest.approx(0.2)  # one judge call per attempt: 20% of attempts
    needs = {r["attempts"]: r["tasks"] for r in doc["for_half_width"]}
    assert [row["attempts"] for row in labels["rows"]] == [1, 2]
    for row in labels["rows"]:
        assert row["tasks"] == needs[row["attempts"]]
        direct = labels_needed(
            sensitivity=0.8, specificity=0.9, tasks=row["tasks"], half_width=0.05, abstention_rate=0.2,
            success_rate=doc["mean_success"], spread=doc["spread"], attempts=row["attempts"],
        )  # fmt: skip
        assert row["plan"]["labels"] == direct.labels and direct.labels is not None
        assert direct.labels <= row["tasks"]
    code, out, _ = run(*BASE, "--sensitivity", "0.8", "--specificity", "0.9")
    assert "human labels for ±0.05 with the corrected estimate (judge sensitivity 0.80, specificity 0.90" in out
    assert f"label {labels['rows'][0]['plan']['labels']:,} tasks" in out


def test_without_agreement_no_label_plan_and_a_hint() -> None:
    code, out, _ = run(*BASE, "--json")
    assert code == EXIT_OK and json.loads(out)["labels"] is None
    _, out, _ = run(*BASE)
    assert "give --sensitivity and --specificity" in out
    code, _, err = run(*BASE, "--sensitivity", "0.8")
    assert code == EXIT_USER_ERROR and "--sensitivity/--specificity" in err
    code, _, err = run(*BASE, "--sensitivity", "1.3", "--specificity", "0.9")
    assert code == EXIT_USER_ERROR and "sensitivity" in err


def test_a_pilot_run_with_labels_gives_the_measured_agreement(tmp_path: Path) -> None:
    result = evaluate(load_sample("labelled"), "dataset", cache_mode="off")
    store = RunStore(tmp_path / "runs.sqlite3")
    run_id = store.save(result, "labelled_support.jsonl").id
    reading = aggregate(result).corrected
    assert reading is not None and reading.sensitivity is not None
    code, out, err = run("plan", "--run", run_id, "--runs-path", str(tmp_path / "runs.sqlite3"), "--half-width",
                         "0.05", "--attempts", "1,2", "--json")  # fmt: skip
    assert code == EXIT_OK, err
    labels = json.loads(out)["labels"]
    assert labels["sensitivity"] == pytest.approx(reading.sensitivity)
    assert labels["specificity"] == pytest.approx(reading.specificity)
    assert f"measured on {reading.n_labelled} labelled conversations of run {run_id}" == labels["agreement"]
