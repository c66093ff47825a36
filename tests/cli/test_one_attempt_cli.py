"""Issue 36: one-attempt data on the command line: no pass@K number for K > 1, the reason, and a gate that says so.

``agentic-eval evaluate sample_data/travel_agent.jsonl`` printed ``pass@18 = 1.000 [0.998, 1.000]`` and
"inconsistent" for 40 different questions with one attempt each; the core now withholds them.
"""

from __future__ import annotations

import io
import json
from typing import Any

from agentic_core.cli import EXIT_OK, EXIT_USER_ERROR, main
from agentic_core.io.samples import SAMPLES

TRAVEL = str(SAMPLES["travel"].path)
COMMON = ("--judge", "dataset", "--no-progress")


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_travel_text_says_pass_at_k_is_not_measured_and_why() -> None:
    code, out, err = run("evaluate", TRAVEL, "--no-save", *COMMON)
    assert code == EXIT_OK, err
    k = int(out.split("'auto' chose K = ")[1].split()[0].rstrip(":"))
    assert k > 1  # the public 'auto' K is unchanged
    assert f"pass@{k} not measured: every task has one attempt" in out
    assert "task_id" in out and f"pass^{k} not measured" in out
    assert f"pass@{k} =" not in out and f"pass^{k} =" not in out
    assert "interpretation: inconsistent" not in out and "interpretation: none" in out
    assert "success rate (pass@1): 0." in out  # the success rate keeps its number
    table = out.split(" k  pass@k")[1]
    assert "\n 1  0." in table and f" 2..{k}: not measured" in table and "\n 2  " not in table


def test_travel_json_has_null_pass_at_k_and_the_reason() -> None:
    code, out, err = run("evaluate", TRAVEL, "--no-save", *COMMON, "--json")
    assert code == EXIT_OK, err
    doc: dict[str, Any] = json.loads(out)
    head = doc["headline"]
    assert [head[name] for name in ("pass_at_k", "pass_pow_k", "pass_at_k_ci", "pass_pow_k_ci")] == [None] * 4
    assert doc["interpretation"] is None and doc["interpretation_text"] is None
    evidence = doc["k_evidence"]
    assert evidence["measured"] is False and evidence["k"] == doc["k"] > 1 and evidence["max_attempts"] == 1
    assert evidence["sentence"].startswith(f"pass@{doc['k']} and pass^{doc['k']} are not measured")
    assert head["notes"][-1] == evidence["sentence"]
    assert doc["curve"][0]["pass_at_k"] == doc["conversation_success_rate"]["rate"]
    assert all(p["pass_at_k"] is None and p["pass_pow_k"] is None for p in doc["curve"][1:])


def test_a_gate_on_unmeasured_pass_at_k_is_a_clear_error_never_a_pass() -> None:
    code, out, err = run("evaluate", TRAVEL, "--no-save", *COMMON, "--fail-under", "pass_at_k=0.1")
    assert code == EXIT_USER_ERROR
    assert "--fail-under pass_at_k: cannot gate this run: pass@" in err and "gate success_rate" in err
    assert "success rate (pass@1)" in out  # the results are still printed first
    assert run("evaluate", TRAVEL, "--no-save", *COMMON, "--fail-under", "success_rate=0.1")[0] == EXIT_OK


def test_compare_labels_unmeasured_rows_and_refuses_to_gate_on_them() -> None:
    code, out, err = run("compare", TRAVEL, TRAVEL, *COMMON, "--k", "3", "--estimator", "plug-in")
    assert code == EXIT_OK, err
    assert "pass_at_k@3        not measured" in out and "pass_pow_k@2       not measured" in out
    assert "note: pass@3 and pass^3 are not measured" in out
    code, out, err = run("compare", TRAVEL, TRAVEL, *COMMON, "--k", "3", "--estimator", "plug-in", "--json")
    doc = json.loads(out)
    assert doc["k_evidence"]["measured"] is False
    rows = {(m["metric"], m["k"]): m for m in doc["metrics"]}
    assert rows[("pass_at_k", 3)]["a"] is None and rows[("pass_at_k", 1)]["a"] is not None
    code, _, err = run("compare", TRAVEL, TRAVEL, *COMMON, "--k", "3", "--fail-if-worse", "pass_pow_k")
    assert code == EXIT_USER_ERROR and "--fail-if-worse pass_pow_k (k = 3): cannot gate this run" in err
