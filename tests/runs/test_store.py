"""The run history: stored runs reopen exactly, overrides count, files move between machines, versions are checked."""

from __future__ import annotations

import gzip
import json
import sqlite3
import zlib
from pathlib import Path

import orjson
import pandas as pd
import pytest

from agentic_core.analysis.aggregate import aggregate
from agentic_core.data.overrides import Override
from agentic_core.errors import AgenticError, DataError
from agentic_core.evaluate import evaluate
from agentic_core.io.samples import load_sample
from agentic_core.report.exports import interactions_table
from agentic_core.result import EvaluationResult
from agentic_core.runs import PAYLOAD_VERSION, RunStore, RunStoreError, age_text
from agentic_core.runs.store import SCHEMA_VERSION
from agentic_core.settings import make_settings


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    return RunStore(tmp_path / "runs.sqlite3")


def test_a_stored_run_reopens_exactly(store: RunStore, travel: EvaluationResult) -> None:
    meta = store.save(travel, "Travel sample")
    reopened = store.open(meta.id)
    pd.testing.assert_frame_equal(reopened.interactions, travel.interactions)
    assert reopened.judge_identity == travel.judge_identity
    assert reopened.recommended_threshold == travel.recommended_threshold
    for settings in (make_settings(), make_settings(mode="bayesian", k=2, require_tool_correctness=True)):
        a, b = aggregate(travel, settings), aggregate(reopened, settings)
        assert a.counts == b.counts and a.headline == b.headline
    assert meta.name == f"Travel sample · {travel.judge_identity.label()}"
    assert [m.id for m in store.runs()] == [meta.id]


def test_the_same_data_has_the_same_fingerprint(store: RunStore, travel: EvaluationResult) -> None:
    first = store.save(travel, "a")
    again = store.save(evaluate(load_sample("travel"), "dataset", cache_mode="off"), "b")
    other = store.save(evaluate(load_sample("seeds"), "dataset", cache_mode="off"), "c")
    assert first.data_fingerprint == again.data_fingerprint != other.data_fingerprint
    assert [m.id for m in store.runs()] == [other.id, again.id, first.id]  # newest first


def test_overrides_replace_the_judge_in_aggregates_and_exports(store: RunStore, travel: EvaluationResult) -> None:
    meta = store.save(travel, "travel")
    settings = make_settings(threshold=0.7)
    before = aggregate(store.open(meta.id), settings)
    row = int(before.interactions.index[~before.interactions["correct"]][0])
    store.set_override(meta.id, Override(row=row, correct=True, note="the answer is right; the grade was wrong"))
    result = store.open(meta.id)
    after = aggregate(result, settings)
    assert after.counts.correct_interactions == before.counts.correct_interactions + 1
    assert bool(after.interactions["overridden"][row]) and bool(after.interactions["correct"][row])
    table = interactions_table(result, after)
    assert table.loc[row, "human_override"] == "correct"
    assert table.loc[row, "human_note"] == "the answer is right; the grade was wrong"
    store.clear_override(meta.id, row)
    assert aggregate(store.open(meta.id), settings).counts == before.counts


def test_an_override_scores_an_unscored_interaction(store: RunStore, travel: EvaluationResult) -> None:
    result = store.open(store.save(travel, "t").id)
    result.interactions.loc[0, "score"] = float("nan")
    assert aggregate(result).counts.unscored_interactions == 1
    result.overrides = {0: Override(row=0, correct=False)}
    assert aggregate(result).counts.unscored_interactions == 0


def test_rename_delete_and_unknown_ids(store: RunStore, travel: EvaluationResult) -> None:
    meta = store.save(travel, "t")
    store.rename(meta.id, "  renamed  ")
    assert store.meta(meta.id).name == "renamed"
    assert store.payload(meta.id).meta.name == "renamed"
    with pytest.raises(RunStoreError, match="must not be blank"):
        store.rename(meta.id, " ")
    store.delete(meta.id)
    for action in (store.open, store.meta, store.delete, store.export):
        with pytest.raises(RunStoreError, match="is not in the history"):
            action(meta.id)


def test_export_and_import_move_a_run_with_its_overrides(tmp_path: Path, travel: EvaluationResult) -> None:
    here, there = RunStore(tmp_path / "a.sqlite3"), RunStore(tmp_path / "b.sqlite3")
    meta = here.save(travel, "t")
    here.set_override(meta.id, Override(row=1, correct=False, note="wrong date"))
    blob = here.export(meta.id)
    assert blob[:2] == b"\x1f\x8b"
    imported = there.import_(blob)
    assert imported.id == meta.id
    assert there.payload(meta.id).overrides[0].note == "wrong date"
    pd.testing.assert_frame_equal(there.open(meta.id).interactions, travel.interactions)
    again = there.import_(blob)  # the id is taken now: a new one
    assert again.id != meta.id and len(there.runs()) == 2
    plain = gzip.decompress(blob)
    assert there.import_(plain).id not in (meta.id, again.id)  # uncompressed JSON is accepted too


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"not json", "is not a run file"),
        (b"[1, 2]", "is not a run file"),
        (json.dumps({"format": "something-else", "version": 1}).encode(), "is not a workbench run"),
        (json.dumps({"format": "agentic-workbench-run", "version": PAYLOAD_VERSION + 1}).encode(), "newer workbench"),
    ],
)
def test_a_file_that_is_not_a_run_of_this_version_is_refused(store: RunStore, content: bytes, said: str) -> None:
    with pytest.raises(DataError, match=said):
        store.import_(content, "upload.json")


def test_a_history_from_a_newer_version_is_refused_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite3"
    RunStore(path)
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(RunStoreError, match="newer workbench"):
        RunStore(path)


def test_a_run_stored_by_an_older_version_still_opens(store: RunStore, travel: EvaluationResult) -> None:
    meta = store.save(travel, "t")
    with sqlite3.connect(store.path) as conn:
        (blob,) = conn.execute("SELECT payload FROM runs WHERE id = ?", (meta.id,)).fetchone()
        document = orjson.loads(zlib.decompress(blob))
        document["meta"]["app_version"] = "0.0.1"  # as an older release wrote it
        conn.execute("UPDATE runs SET payload = ? WHERE id = ?", (zlib.compress(orjson.dumps(document)), meta.id))
    assert store.open(meta.id).n_interactions == travel.n_interactions


def test_a_damaged_run_is_named(store: RunStore, travel: EvaluationResult) -> None:
    meta = store.save(travel, "t")
    with sqlite3.connect(store.path) as conn:
        conn.execute("UPDATE runs SET payload = ? WHERE id = ?", (b"garbage", meta.id))
    with pytest.raises(AgenticError, match="is damaged"):
        store.open(meta.id)


def test_no_api_key_reaches_the_history(tmp_path: Path) -> None:
    from tests.fakes import OpenAIStandIn

    secret = "sk-history-test-7731"
    store = RunStore(tmp_path / "runs.sqlite3")
    with OpenAIStandIn() as server:
        result = evaluate(
            load_sample("seeds"), "llm", cache_mode="off",
            provider="openai-compatible", model="m", base_url=server.base_url, api_key=secret,
        )  # fmt: skip
    meta = store.save(result, "seeds")
    assert secret.encode() not in store.path.read_bytes()
    assert secret.encode() not in gzip.decompress(store.export(meta.id))


def test_age_text() -> None:
    assert age_text(1000.0, now=1030.0) == "just now"
    assert age_text(0.0, now=600.0) == "10 min ago"
    assert age_text(0.0, now=7200.0) == "2 h ago"
    assert age_text(0.0, now=3 * 86400.0) == "3 days ago"


def test_agentic_metrics_computed_later_are_kept(store: RunStore, travel: EvaluationResult) -> None:
    import dataclasses

    from agentic_core.evaluate import add_agentic_metrics

    meta = store.save(travel, "Travel sample")
    assert store.open(meta.id).agentic is None
    later = dataclasses.replace(travel, agentic=None)
    metrics = add_agentic_metrics(later, metrics="tool_call_accuracy", cache_mode="off")
    store.set_override(meta.id, Override(row=0, correct=False))
    store.set_agentic(meta.id, metrics)
    reopened = store.open(meta.id)
    assert reopened.agentic == metrics and set(reopened.overrides) == {0}  # overrides untouched
    assert store.payload(meta.id).version == PAYLOAD_VERSION
    with sqlite3.connect(store.path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert store.open(store.import_(store.export(meta.id)).id).agentic == metrics  # exported with the run
    store.set_agentic(meta.id, None)
    assert store.open(meta.id).agentic is None


def test_agentic_metrics_must_fit_the_run(store: RunStore, travel: EvaluationResult) -> None:
    from agentic_core.agentic_metrics.compute import compute_agentic_metrics

    meta = store.save(travel, "Travel sample")
    other = compute_agentic_metrics(travel.conversations[:1], metrics="tool_call_accuracy", cache_mode="off")
    with pytest.raises(RunStoreError, match="one entry per conversation"):
        store.set_agentic(meta.id, other)
    with pytest.raises(RunStoreError, match="not in the history"):
        store.set_agentic("nope", None)
