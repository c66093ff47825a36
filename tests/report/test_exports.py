"""Exports: the tables, the seed-003 records and the files (agentic_core.report.exports)."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pandas as pd
import pytest

from agentic_core.analysis.aggregate import aggregate
from agentic_core.errors import SettingsError
from agentic_core.evaluate import evaluate
from agentic_core.io.loader import load_records
from agentic_core.report import (
    EXPORT_FILES,
    conversation_records,
    conversations_table,
    export_bytes,
    export_zip,
    interactions_table,
    tasks_table,
    write_exports,
)
from agentic_core.result import EvaluationResult
from agentic_core.settings import make_settings
from tests.conftest import HAND_MADE, INTERACTION_COLUMNS, SEED003_FIELDS, TOOL_SCORE_FIELDS, by_session
from tests.fakes import FakeJudge


def test_interactions_table_columns_and_row_count(seeds: EvaluationResult, travel: EvaluationResult) -> None:
    for result, n in ((seeds, 12), (travel, 108)):
        agg = aggregate(result, make_settings(threshold=0.7))
        table = interactions_table(result, agg)
        assert list(table.columns) == INTERACTION_COLUMNS
        assert len(table) == n == result.n_interactions
        assert int((table["correct"] == True).sum()) == agg.counts.correct_interactions  # noqa: E712
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
    agg = aggregate(seeds, make_settings(threshold=0.7, k=3, mode="bayesian"))
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
    conv1 = records[by_session(seeds, "conversation_001")]
    assert conv1["total_interactions"] == 2 and conv1["correct_indices"] == [0, 1]
    # Bayesian, 2 of 2 correct, uniform prior: Beta(3, 1); E[1-(1-p)^3] = 1 - (1/4)(2/5)(3/6)
    assert conv1["pass_at_k"] == pytest.approx(0.95)
    assert conv1["pass_pow_k"] == pytest.approx((3 / 4) * (4 / 5) * (5 / 6))
    assert conv1["pass_at_k_ci_low"] < conv1["pass_at_k"] <= conv1["pass_at_k_ci_high"]
    # frequentist unbiased, k = 3 > 2 interactions: undefined, never a number
    unbiased = aggregate(seeds, make_settings(threshold=0.7, k=3, mode="frequentist", estimator="unbiased"))
    rec = conversation_records(seeds, unbiased)[by_session(seeds, "conversation_001")]
    assert rec["pass_at_k"] is None and rec["pass_pow_k"] is None
    kyoto = records[by_session(seeds, "agentic_eval_session_08")]
    assert kyoto["is_fully_correct"] is False and kyoto["correct_indices"] == []
    tool = kyoto["tool_correctness_scores"][0]
    assert tool["is_correct"] is False and "'city'" in tool["reasoning"] and tool["parameter_accuracy"] < 1
    # plug-in is defined for any k: pass_at_k and its interval bounds are numbers
    plug_in = make_settings(threshold=0.7, mode="frequentist", estimator="plug-in")
    plug = conversation_records(seeds, aggregate(seeds, plug_in))
    rec = plug[by_session(seeds, "conversation_001")]
    assert rec["pass_at_k"] == pytest.approx(1 - (1 - 2 / 2) ** 3)
    assert rec["pass_at_k_ci_low"] is not None and rec["pass_pow_k_ci_high"] is not None


def test_exports_reflect_the_threshold(seeds: EvaluationResult) -> None:
    low = aggregate(seeds, make_settings(threshold=0.7))
    high = aggregate(seeds, make_settings(threshold=0.95))
    conv_low = pd.read_csv(io.BytesIO(export_bytes(seeds, low, "conversations")))
    conv_high = pd.read_csv(io.BytesIO(export_bytes(seeds, high, "conversations")))
    assert conv_low["correct_interactions"].sum() == low.counts.correct_interactions == 10
    assert conv_high["correct_interactions"].sum() == high.counts.correct_interactions
    assert conv_high["correct_interactions"].sum() < conv_low["correct_interactions"].sum()
    inter_high = pd.read_csv(io.BytesIO(export_bytes(seeds, high, "interactions")))
    assert inter_high["correct"].sum() == high.counts.correct_interactions
    doc = json.loads(export_bytes(seeds, high, "summary"))
    assert doc["settings"]["threshold"] == 0.95
    assert doc["counts"]["correct_interactions"] == high.counts.correct_interactions
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


def test_every_csv_of_numbers_says_how_they_were_made(seeds: EvaluationResult) -> None:
    for settings, words in (
        (make_settings(mode="frequentist", estimator="plug-in"), ["frequentist", "plug-in", "Wilson"]),
        (make_settings(mode="bayesian", prior_a=0.5, prior_b=0.5), ["Bayesian", "Beta(0.5, 0.5)", "credible"]),
    ):
        agg = aggregate(seeds, settings)
        for name in ("tasks", "conversations"):
            frame = pd.read_csv(io.BytesIO(export_bytes(seeds, agg, name)))
            assert set(frame["statistics"]) == {frame["statistics"].iloc[0]}
            for word in words:
                assert word in frame["statistics"].iloc[0], (name, word)
            assert (frame["k"] == agg.k).all()
        summary_doc = json.loads(export_bytes(seeds, agg, "summary"))
        assert summary_doc["statistics"]["description"] == agg.statistics.description


def test_the_often_empty_columns_carry_data_in_some_runs() -> None:
    # Issue 36 saw four always-empty columns in interactions.csv (judge_error, human_override, human_note,
    # judge_probability: the dataset judge, no override). They are empty in many runs, not in all, so they stay
    # (docs/cli.md says when each is filled): here an abstaining judge and one answer marked by hand fill them.
    import dataclasses

    from agentic_core.data.overrides import Override
    from agentic_core.io.samples import load_sample

    result = evaluate(load_sample("support"), "learned")  # abstains: a reason and a probability
    result = dataclasses.replace(result, overrides={0: Override(row=0, correct=False, note="checked by hand")})
    table = interactions_table(result, aggregate(result, make_settings()))
    for column in ("judge_error", "human_override", "human_note", "judge_probability"):
        assert table[column].replace("", None).notna().any(), column
