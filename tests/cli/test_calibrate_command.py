"""``calibrate FILE --judge ...``: the judge against the labelled sample, as text and JSON."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from agentic_core.cli import EXIT_OK, EXIT_USER_ERROR, main
from agentic_core.data.overrides import Override
from agentic_core.io.samples import SAMPLES
from agentic_core.runs import RunStore

LABELLED = SAMPLES["labelled"].path
SEEDS = SAMPLES["seeds"].path


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def calibrate_json(*argv: str) -> dict[str, Any]:
    code, out, err = run("calibrate", *argv, "--json", "--no-progress")
    assert code == EXIT_OK, err
    doc: dict[str, Any] = json.loads(out)
    return doc


def test_json_has_every_figure_of_the_calibration() -> None:
    doc = calibrate_json(str(LABELLED), "--judge", "dataset", "--cache", "off")
    assert doc["n_labelled"] == 56 and doc["judge"]["kind"] == "dataset"
    c = doc["confusion"]
    assert c["tp"] + c["fp"] + c["fn"] + c["tn"] == 56
    assert doc["accuracy"] == pytest.approx((c["tp"] + c["tn"]) / 56)
    assert -1 <= doc["kappa"] <= 1 and 0.5 < doc["auc"] <= 1
    assert doc["roc"][0] == [0.0, 0.0] or doc["roc"][0][0] == 0.0
    best = max(p["kappa"] for p in doc["sweep"])
    assert doc["at_suggested"]["kappa"] == pytest.approx(best, abs=1e-12)
    low, high = doc["suggested_range"]
    assert low <= doc["suggested_threshold"] <= high and "gives the highest kappa" in doc["suggestion"]
    assert sum(b["n"] for b in doc["reliability"]) == 56
    # The sample's people disagree with the grader on a few cases, and the document lists them.
    assert {d["cell"] for d in doc["disagreements"]} == {"fp", "fn"}
    assert len(doc["disagreements"]) == c["fp"] + c["fn"] > 0


def test_the_threshold_option_moves_the_confusion_matrix() -> None:
    lenient = calibrate_json(str(LABELLED), "--judge", "dataset", "--cache", "off", "--threshold", "0")
    assert lenient["threshold"] == 0 and lenient["confusion"]["fn"] == 0 and lenient["confusion"]["tn"] == 0


def test_text_output_names_the_suggested_threshold() -> None:
    code, out, _ = run("calibrate", str(LABELLED), "--judge", "dataset", "--cache", "off", "--no-progress")
    assert code == EXIT_OK
    for text in (
        "Cohen's kappa", "human correct", "ROC AUC", "suggested threshold", "threshold sweep", "reliability",
        "gives the highest kappa",
    ):  # fmt: skip
        assert text in out


def test_data_without_labels_is_refused_with_the_fix() -> None:
    code, out, err = run("calibrate", str(SEEDS), "--judge", "dataset", "--cache", "off", "--no-progress")
    assert code == EXIT_USER_ERROR and out == ""
    assert "human_label" in err and "Fix:" in err


def test_a_stored_run_counts_its_overrides_as_human_verdicts(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AGENTIC_RUNS_PATH", str(tmp_path / "runs.sqlite3"))
    from agentic_core.evaluate import evaluate
    from agentic_core.io.samples import load_sample

    store = RunStore()
    meta = store.save(evaluate(load_sample("seeds"), "dataset", cache_mode="off"), "seeds")
    store.set_override(meta.id, Override(row=0, correct=False, note="wrong"))
    store.set_override(meta.id, Override(row=1, correct=True))
    doc = calibrate_json(meta.id)
    assert doc["n_labelled"] == 2
    assert {d["human_source"] for d in doc["disagreements"]} <= {"override"}


def test_a_judge_that_failed_every_call_is_named_with_its_reasons_not_the_labels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.fakes import OpenAIStandIn

    monkeypatch.setenv("CALIBRATE_TEST_KEY", "sk-calibrate-0123456789")
    with OpenAIStandIn(status=401) as server:
        code, out, err = run(
            "calibrate", str(LABELLED), "--judge", "llm", "--provider", "openai-compatible", "--model", "m",
            "--base-url", server.base_url, "--api-key-env", "CALIBRATE_TEST_KEY", "--cache", "off", "--no-progress",
        )
    assert code == EXIT_USER_ERROR and out == ""
    assert "scored none of the 56 interactions people labelled" in err
    assert "first reasons: " in err and "401 - invalid api key" in err
    assert "add human_label" not in err and "sk-calibrate-0123456789" not in err
