"""Tests of agentic_core.report: result tables, seed-003 records, exports, tool tables, explorer helpers.

Golden files live in tests/golden/. They are compared exactly; regenerate them only on purpose:
``UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_report.py -k golden`` (then review the diff).
"""

from __future__ import annotations

import io
import json
import math
import os
import shlex
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from agentic_core.cli import main as cli_main
from agentic_core.errors import DataError, SettingsError
from agentic_core.evaluate import EvaluationResult, aggregate, evaluate
from agentic_core.io.loader import load_records
from agentic_core.io.samples import load_sample
from agentic_core.report import (
    EXPORT_FILES,
    STATUS_ORDER,
    SearchIndex,
    cli_command,
    conversation_detail,
    conversation_index,
    conversation_records,
    conversations_table,
    explorer_table,
    export_bytes,
    export_zip,
    failing_tool_calls,
    interactions_table,
    summary,
    tasks_table,
    tool_breakdown,
    tool_diff,
    write_exports,
)
from agentic_core.settings import AggregateSettings, make_settings
from tests.fakes import FakeJudge

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "sample_data" / "seed_examples.json"
GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE_GOLDEN = os.environ.get("UPDATE_GOLDEN") == "1"

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
    "tool_reasoning",
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


def _by_session(result: EvaluationResult, session_id: str, assistant_id: str | None = None) -> int:
    rows = [
        i
        for i, c in enumerate(result.conversations)
        if c.session_id == session_id and (assistant_id is None or c.assistant_id == assistant_id)
    ]
    assert len(rows) == 1, rows
    return rows[0]


# --------------------------------------------------------------------------------------------
# A small hand-made dataset with known tool mistakes
# --------------------------------------------------------------------------------------------


def _call(name: str, step: int, **params: Any) -> dict[str, Any]:
    return {"tool_name": name, "parameters": params, "result": {"ok": True}, "step": step}


def _turn(
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
            _turn(
                "i1",
                [_call("search", 1, q="a"), _call("book", 2, id=1)],
                [_call("search", 1, q="a"), _call("search", 2, q="a"), _call("book", 3, id=2)],
            ),
            # weather never called (missing)
            _turn("i2", [_call("weather", 1, city="Paris", date="d")], []),
            # convert with from/to swapped (2 parameter errors) and an unexpected lookup (extra)
            _turn(
                "i3",
                [_call("convert", 1, amount=5, src="USD", dst="EUR")],
                [_call("convert", 1, amount=5, src="EUR", dst="USD"), _call("lookup", 2)],
            ),
        ],
    },
    {
        "session_id": "h2",
        "assistant_id": "bot",
        "conversation": [
            # search with an unexpected parameter (1 error); optional weather not called (not missing)
            _turn(
                "i4",
                [_call("search", 1, q="b"), {**_call("weather", 2, city="Rome"), "optional": True}],
                [_call("search", 1, q="b", page=2)],
                score=0.3,
            ),
            _turn("i5", None, None),  # no tools: not applicable
        ],
    },
]


@pytest.fixture(scope="module")
def hand_made() -> EvaluationResult:
    report = load_records(HAND_MADE)
    assert not report.skipped
    return evaluate(report, "dataset", cache_mode="off")


# --------------------------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------------------------


def test_interactions_table_columns_and_row_count(seeds: EvaluationResult, travel: EvaluationResult) -> None:
    for result, n in ((seeds, 12), (travel, 108)):
        agg = aggregate(result, make_settings(threshold=0.7))
        table = interactions_table(result, agg)
        assert list(table.columns) == INTERACTION_COLUMNS
        assert len(table) == n == result.n_interactions
        assert int((table["correct"] == True).sum()) == agg.counts["correct_interactions"]  # noqa: E712
        # tool columns are empty exactly where tool correctness does not apply
        applicable = result.interactions["tool_applicable"].to_numpy()
        assert table["tool_overall"].isna().to_numpy().tolist() == (~applicable).tolist()
        assert table["tool_reasoning"].isna().to_numpy().tolist() == (~applicable).tolist()
    assert "tool_reasoning" not in interactions_table(seeds, aggregate(seeds), with_reasoning=False).columns


def test_unscored_interactions_have_no_verdict_in_the_table() -> None:
    result = evaluate(load_records(HAND_MADE), FakeJudge([0.9, None, 0.9, 0.9, 0.9]), cache_mode="off")
    agg = aggregate(result, make_settings(threshold=0.7))
    table = interactions_table(result, agg)
    assert table["correct"].isna().tolist() == [False, True, False, False, False]
    assert table["judge_status"].tolist()[1] == "failed"
    assert conversations_table(agg)["status"].tolist() == ["unscored", "correct"]


def test_conversation_records_carry_the_seed_003_fields(seeds: EvaluationResult) -> None:
    agg = aggregate(seeds, make_settings(threshold=0.7, k=3))
    records = conversation_records(seeds, agg)
    assert len(records) == seeds.n_conversations == 11
    for rec in records:
        assert set(rec) >= SEED003_FIELDS
        assert rec["threshold"] == 0.7 and rec["k"] == 3
        assert len(rec["correctness_scores"]) == rec["total_interactions"]
        assert len(rec["tool_correctness_scores"]) == rec["total_interactions"]
        for score in rec["tool_correctness_scores"]:
            assert score is None or set(score) == TOOL_SCORE_FIELDS
        assert rec["correct_interactions"] == len(rec["correct_indices"])
        assert rec["is_fully_correct"] == (rec["correct_interactions"] == rec["total_interactions"])
    conv1 = records[_by_session(seeds, "conversation_001")]
    assert conv1["total_interactions"] == 2 and conv1["correct_indices"] == [0, 1]
    # Bayesian (default), 2 of 2 correct, uniform prior: Beta(3, 1); E[1-(1-p)^3] = 1 - (1/4)(2/5)(3/6)
    assert conv1["pass_at_k"] == pytest.approx(0.95)
    assert conv1["pass_pow_k"] == pytest.approx((3 / 4) * (4 / 5) * (5 / 6))
    assert conv1["pass_at_k_ci_low"] < conv1["pass_at_k"] <= conv1["pass_at_k_ci_high"]
    # frequentist unbiased, k = 3 > 2 interactions: undefined, never a number
    unbiased = aggregate(seeds, make_settings(threshold=0.7, k=3, mode="frequentist", estimator="unbiased"))
    rec = conversation_records(seeds, unbiased)[_by_session(seeds, "conversation_001")]
    assert rec["pass_at_k"] is None and rec["pass_pow_k"] is None
    kyoto = records[_by_session(seeds, "agentic_eval_session_08")]
    assert kyoto["is_fully_correct"] is False and kyoto["correct_indices"] == []
    tool = kyoto["tool_correctness_scores"][0]
    assert tool["is_correct"] is False and "'city'" in tool["reasoning"] and tool["parameter_accuracy"] < 1
    # plug-in is defined for any k: pass_at_k and its interval bounds are numbers
    plug_in = make_settings(threshold=0.7, mode="frequentist", estimator="plug-in")
    plug = conversation_records(seeds, aggregate(seeds, plug_in))
    rec = plug[_by_session(seeds, "conversation_001")]
    assert rec["pass_at_k"] == pytest.approx(1 - (1 - 2 / 2) ** 3)
    assert rec["pass_at_k_ci_low"] is not None and rec["pass_pow_k_ci_high"] is not None


def test_exports_reflect_the_threshold(seeds: EvaluationResult) -> None:
    low = aggregate(seeds, make_settings(threshold=0.7))
    high = aggregate(seeds, make_settings(threshold=0.95))
    conv_low = pd.read_csv(io.BytesIO(export_bytes(seeds, low, "conversations")))
    conv_high = pd.read_csv(io.BytesIO(export_bytes(seeds, high, "conversations")))
    assert conv_low["correct_interactions"].sum() == low.counts["correct_interactions"] == 10
    assert conv_high["correct_interactions"].sum() == high.counts["correct_interactions"]
    assert conv_high["correct_interactions"].sum() < conv_low["correct_interactions"].sum()
    inter_high = pd.read_csv(io.BytesIO(export_bytes(seeds, high, "interactions")))
    assert inter_high["correct"].sum() == high.counts["correct_interactions"]
    doc = json.loads(export_bytes(seeds, high, "summary"))
    assert doc["settings"]["threshold"] == 0.95
    assert doc["counts"]["correct_interactions"] == high.counts["correct_interactions"]
    assert json.loads(export_bytes(seeds, high, "settings"))["settings"]["threshold"] == 0.95


def test_write_exports_writes_five_files_identical_to_the_page_builders(
    seeds: EvaluationResult, tmp_path: Path
) -> None:
    agg = aggregate(seeds, make_settings(threshold=0.8, k=2))
    paths = write_exports(seeds, agg, tmp_path / "out")
    assert sorted(paths) == sorted(EXPORT_FILES)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(EXPORT_FILES.values())
    doc = json.loads(paths["summary"].read_text(encoding="utf-8"))
    assert doc["settings"]["k"] == 2 and len(doc["curve"]) == 2 and len(doc["conversations"]) == 11
    assert json.loads(paths["settings"].read_text())["judge"]["kind"] == "dataset"
    assert len(pd.read_csv(paths["interactions"])) == 12
    assert len(pd.read_csv(paths["conversations"])) == 11
    assert len(pd.read_csv(paths["tasks"])) == len(tasks_table(agg)) == 5
    for name, path in paths.items():
        assert export_bytes(seeds, agg, name) == path.read_bytes(), name
    with zipfile.ZipFile(io.BytesIO(export_zip(seeds, agg))) as archive:
        assert sorted(archive.namelist()) == sorted(EXPORT_FILES.values())
        for name, file_name in EXPORT_FILES.items():
            assert archive.read(file_name) == paths[name].read_bytes()
    assert export_zip(seeds, agg) == export_zip(seeds, agg)  # deterministic (fixed timestamps)


def test_export_bytes_rejects_an_unknown_name(seeds: EvaluationResult) -> None:
    with pytest.raises(SettingsError, match="interactions"):
        export_bytes(seeds, aggregate(seeds), "everything")


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


# --------------------------------------------------------------------------------------------
# Tool tables on the hand-made dataset
# --------------------------------------------------------------------------------------------


def test_tool_breakdown_counts_missing_extra_and_parameter_errors(hand_made: EvaluationResult) -> None:
    table = tool_breakdown(hand_made).set_index("tool_name")
    expected = {
        # expected, used, matched, missing, extra, calls with parameter errors, parameter errors
        "search": (2, 3, 2, 0, 1, 1, 1),
        "book": (1, 1, 1, 0, 0, 1, 1),
        "weather": (2, 0, 0, 1, 0, 0, 0),
        "convert": (1, 1, 1, 0, 0, 1, 2),
        "lookup": (0, 1, 0, 0, 1, 0, 0),
    }
    columns = [
        "expected_calls",
        "used_calls",
        "matched",
        "missing",
        "extra",
        "calls_with_parameter_errors",
        "parameter_errors",
    ]
    assert sorted(table.index) == sorted(expected)
    for name, counts in expected.items():
        assert tuple(int(x) for x in table.loc[name, columns]) == counts, name
    agreement = table["mean_parameter_agreement"]
    assert agreement["search"] == pytest.approx((1.0 + 0.5) / 2)
    assert agreement["book"] == 0.0 and agreement["convert"] == pytest.approx(1 / 3)
    assert math.isnan(agreement["weather"]) and math.isnan(agreement["lookup"])
    # worst first: missing, then extra, then parameter errors
    assert list(table.index) == ["weather", "search", "lookup", "convert", "book"]


def test_failing_tool_calls_are_worst_first(hand_made: EvaluationResult) -> None:
    agg = aggregate(hand_made, make_settings(threshold=0.7, tool_threshold=1.0))
    failing = failing_tool_calls(hand_made, agg)
    assert sorted(failing["qa_id"]) == ["i1", "i2", "i3", "i4"]  # i5 has no tools
    overall = failing["tool_overall"].tolist()
    assert overall == sorted(overall)
    assert failing["qa_id"].iloc[0] == "i2" and overall[0] == 0.0  # nothing called: worst
    assert failing.loc[failing["qa_id"] == "i2", "missing"].item() == "weather"
    assert failing.loc[failing["qa_id"] == "i3", "extra"].item() == "lookup"
    assert failing.loc[failing["qa_id"] == "i3", "parameter_errors"].item() == 2
    assert hand_made.interactions["qa_id"].iloc[failing["row"]].tolist() == failing["qa_id"].tolist()
    # a lower tool threshold keeps only the calls below it
    lenient = failing_tool_calls(hand_made, aggregate(hand_made, make_settings(tool_threshold=0.8)))
    assert set(lenient["qa_id"]) == set(failing.loc[failing["tool_overall"] < 0.8 - 1e-9, "qa_id"])
    assert len(lenient) < len(failing)


# --------------------------------------------------------------------------------------------
# Explorer helpers
# --------------------------------------------------------------------------------------------


def test_explorer_table_lists_failing_first_and_filters(travel: EvaluationResult) -> None:
    agg = aggregate(travel, make_settings(threshold=0.7))
    index = conversation_index(travel)
    table = explorer_table(agg, index)
    assert len(table) == 40
    ranks = table["status"].map(STATUS_ORDER).tolist()
    assert ranks == sorted(ranks) and table["status"].iloc[0] == "incorrect"
    assert (table["status"] == "correct").sum() == 19  # sample README: 19 of 40 fully correct
    correct_only = explorer_table(agg, index, statuses=["correct"])
    assert len(correct_only) == 19 and set(correct_only["status"]) == {"correct"}
    mask = np.zeros(40, dtype=bool)
    mask[[0, 5]] = True
    assert sorted(explorer_table(agg, index, mask=mask)["row"]) == [0, 5]
    # a stricter threshold moves conversations to incorrect
    strict = explorer_table(aggregate(travel, make_settings(threshold=0.95)), index)
    assert (strict["status"] == "incorrect").sum() > (table["status"] == "incorrect").sum()


def test_conversation_index_identifies_repeated_session_ids_by_row() -> None:
    records = [
        {"session_id": "same", "assistant_id": f"agent_response_{i}", "conversation": [_turn("q", None, None)]}
        for i in (1, 2, 3)
    ]
    result = evaluate(load_records(records, duplicate_key="session_id+assistant_id"), "dataset", cache_mode="off")
    index = conversation_index(result)
    assert index["row"].tolist() == [0, 1, 2]
    assert index["session_id"].tolist() == ["same"] * 3
    assert index["assistant_id"].tolist() == ["agent_response_1", "agent_response_2", "agent_response_3"]
    assert SearchIndex(result).search("RESPONSE_2").tolist() == [False, True, False]


def test_search_matches_ids_queries_and_answers_literally(travel: EvaluationResult) -> None:
    search = SearchIndex(travel)
    assert search.search("").all() and search.search("   ").all()
    by_id = search.search("TRV-007")
    assert by_id.tolist() == [c.session_id == "trv-007" for c in travel.conversations]
    lisbon = search.search("lisbon")
    expected = [
        any("lisbon" in (i.query + "\n" + i.assistant).lower() for i in c.conversation) for c in travel.conversations
    ]
    assert lisbon.tolist() == expected and 0 < lisbon.sum() < 40
    assert not search.search("(.*)").any()  # literal, not a regular expression
    assert not search.search("no such text anywhere").any()


def test_conversation_detail_shows_verdicts_and_the_tool_diff(seeds: EvaluationResult) -> None:
    agg = aggregate(seeds, make_settings(threshold=0.7))
    kyoto = conversation_detail(seeds, agg, _by_session(seeds, "agentic_eval_session_08"))
    assert len(kyoto) == 1
    detail = kyoto[0]
    assert detail.status == "incorrect" and "<" in detail.verdict and "0.70" in detail.verdict
    assert detail.tool is not None and not detail.tool.is_correct
    assert detail.tool_diff is not None
    mismatch = detail.tool_diff[detail.tool_diff["diff"] == "parameter mismatch"]
    # the wrong city, and the converter fed the wrong city's temperature: one mismatch per pair
    assert mismatch["mismatches"].tolist() == [
        'city: expected "Tokyo", got "Kyoto" (values differ)',
        "value: expected 18, got 21 (values differ)",
    ]
    skipped = conversation_detail(seeds, agg, _by_session(seeds, "agentic_eval_session_09"))[0]
    assert skipped.tool_diff is not None
    missing = skipped.tool_diff[skipped.tool_diff["diff"] == "missing"]
    assert missing["expected_call"].str.contains("unit_converter").all() and len(missing) == 1
    assert skipped.tool is not None and "unit_converter" in skipped.tool.reasoning
    capital = conversation_detail(seeds, agg, _by_session(seeds, "agentic_eval_session_04"))[0]
    assert capital.tool is None and capital.tool_diff is None and capital.status == "correct"
    # the same interaction is incorrect under a stricter threshold
    strict = conversation_detail(seeds, aggregate(seeds, make_settings(threshold=0.99)), 0)[0]
    assert strict.status == "incorrect" and "0.99" in strict.verdict


def test_conversation_detail_explains_unscored_and_bad_rows() -> None:
    result = evaluate(load_records(HAND_MADE), FakeJudge([0.9, None, 0.9, 0.9, 0.9]), cache_mode="off")
    agg = aggregate(result, AggregateSettings())
    turns = conversation_detail(result, agg, 0)
    assert [t.status for t in turns] == ["correct", "unscored", "correct"]
    assert turns[1].judge_score is None and "Unscored" in turns[1].verdict and "excluded" in turns[1].verdict
    counted = conversation_detail(result, aggregate(result, make_settings(unscored_as_incorrect=True)), 0)
    assert "counted as incorrect" in counted[1].verdict
    for bad in (-1, 2, 99):
        with pytest.raises(DataError, match="conversation"):
            conversation_detail(result, agg, bad)


def test_tool_diff_pairs_calls_and_splits_parameter_errors_per_pair(hand_made: EvaluationResult) -> None:
    interactions = [i for c in hand_made.conversations for i in c.conversation]
    comps = hand_made.tool_components
    first = tool_diff(interactions[0], comps[0])  # type: ignore[arg-type]
    assert first["diff"].tolist() == ["match", "extra", "parameter mismatch"]
    assert first["used_call"].tolist() == ["#1 search (step 1)", "#2 search (step 2)", "#3 book (step 3)"]
    assert first["mismatches"].iloc[2] == "id: expected 1, got 2 (values differ)"
    assert json.loads(first["expected_parameters"].iloc[2]) == {"id": 1}
    assert first["result"].iloc[0] == '{"ok": true}'
    assert first["agreement"].iloc[0] == 1.0 and math.isnan(first["agreement"].iloc[1])
    second = tool_diff(interactions[1], comps[1])  # type: ignore[arg-type]
    assert second["diff"].tolist() == ["missing"] and second["used_call"].tolist() == [""]
    third = tool_diff(interactions[2], comps[2])  # type: ignore[arg-type]
    assert third["diff"].tolist() == ["parameter mismatch", "extra"]
    assert third["mismatches"].iloc[0].count("expected") == 2  # both swapped parameters, in this pair only
    assert "dst" in third["mismatches"].iloc[0] and "src" in third["mismatches"].iloc[0]
    fourth = tool_diff(interactions[3], comps[3])  # type: ignore[arg-type]
    assert fourth["diff"].tolist() == ["parameter mismatch", "optional, not called"]
    assert fourth["mismatches"].iloc[0] == "page: not expected, got 2"
    assert fourth["expected_call"].iloc[1] == "#2 weather (step 2) (optional)"


# --------------------------------------------------------------------------------------------
# Golden files: the seed examples with the dataset judge and fixed settings
# --------------------------------------------------------------------------------------------

GOLDEN_SETTINGS: dict[str, dict[str, Any]] = {
    "default": {"threshold": 0.7, "k": 3},
    "frequentist_conversation": {
        "threshold": 0.9,
        "k": 2,
        "unit": "conversation",
        "mode": "frequentist",
        "estimator": "plug-in",
        "tool_threshold": 0.8,
    },
}
VOLATILE = ("tool_version",)  # changes with every release, not with the numbers


def _check_golden(path: Path, text: str) -> None:
    if UPDATE_GOLDEN:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path}: run with UPDATE_GOLDEN=1 once and review it"
    assert text == path.read_text(encoding="utf-8"), f"{path.name} differs (UPDATE_GOLDEN=1 regenerates it)"


@pytest.mark.parametrize("name", sorted(GOLDEN_SETTINGS))
def test_golden_seed_summary(seeds: EvaluationResult, name: str) -> None:
    agg = aggregate(seeds, make_settings(**GOLDEN_SETTINGS[name]))
    doc = {k: v for k, v in summary(seeds, agg).items() if k not in VOLATILE}
    _check_golden(GOLDEN / f"seed_summary_{name}.json", json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


def test_golden_seed_interactions_csv(seeds: EvaluationResult) -> None:
    agg = aggregate(seeds, make_settings(**GOLDEN_SETTINGS["default"]))
    _check_golden(GOLDEN / "seed_interactions_default.csv", export_bytes(seeds, agg, "interactions").decode())
