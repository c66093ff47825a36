"""History schema 2: a schema-1 history upgraded (and read as it is when read-only); live runs grow by parts.

``data/history_schema1_travel.sqlite3`` was written by the workbench before schema 2 (main at 5f07a94): the travel
sample judged by the dataset judge (cache off), stored as "travel, schema 1", with one override (row 0 set to
incorrect, note "checked by hand").
"""

from __future__ import annotations

import shutil
import sqlite3
import stat
from datetime import UTC, datetime
from pathlib import Path

import pytest

from agentic_core import evaluate
from agentic_core.io.loader import load_records
from agentic_core.io.samples import SAMPLES
from agentic_core.result import EvaluationResult
from agentic_core.runs import RunMeta, RunStore, receiving
from agentic_core.runs.parts import merge_accounting
from agentic_core.runs.payload import LiveSource, conversation_dicts
from agentic_core.runs.store import SCHEMA_VERSION

SCHEMA_1 = Path(__file__).parent / "data" / "history_schema1_travel.sqlite3"


def _version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


def _travel() -> EvaluationResult:
    return evaluate(SAMPLES["travel"].path, "dataset", cache_mode="off")


def test_a_schema_1_history_is_upgraded_and_its_run_reopens_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite3"
    shutil.copy(SCHEMA_1, path)
    assert _version(path) == 1
    store = RunStore(path)
    assert _version(path) == SCHEMA_VERSION == 3
    (meta,) = store.runs()
    assert (meta.name, meta.live) == ("travel, schema 1", None)
    reopened = store.open(meta.id)
    fresh = _travel()  # the same data judged again today: the stored verdicts must be these
    assert reopened.n_conversations == fresh.n_conversations == meta.n_conversations
    assert reopened.interactions["score"].tolist() == fresh.interactions["score"].tolist()
    assert [(o.row, o.correct, o.note) for o in reopened.overrides.values()] == [(0, False, "checked by hand")]
    # The upgraded file takes live runs beside it.
    store.add_live(fresh, LiveSource(service="bot", day="2026-01-02", updated_at=1.0), _keys(fresh, 0))
    assert len(store.runs()) == 2


def test_a_read_only_schema_1_history_is_read_without_upgrading(tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite3"
    shutil.copy(SCHEMA_1, path)
    path.chmod(stat.S_IRUSR)
    try:
        store = RunStore(path, read_only=True)
        (meta,) = store.runs()
        assert store.open(meta.id).n_conversations == meta.n_conversations
        assert store.live_held(meta.id, "session_id", ["x"]) == set()
        assert _version(path) == 1  # left as it was
    finally:
        path.chmod(stat.S_IRUSR | stat.S_IWUSR)


def _keys(result: EvaluationResult, first: int) -> list[str]:
    """A spool key per conversation (``s:<seq>``)."""
    return [f"s:{first + n}" for n in range(result.n_conversations)]


def _half(result: EvaluationResult, second: bool) -> EvaluationResult:
    """The first or second half of a run's conversations, judged on their own (dataset judge)."""
    dicts = conversation_dicts(result.conversations)
    middle = len(dicts) // 2
    return evaluate(load_records(dicts[middle:] if second else dicts[:middle]), "dataset", cache_mode="off")


def test_a_live_run_grows_by_parts_and_reads_as_one_run(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "runs.sqlite3")
    whole = _travel()
    first, second = _half(whole, False), _half(whole, True)
    live = LiveSource(service="support-bot", day="2026-11-24", updated_at=100.0)
    meta = store.add_live(first, live, _keys(first, 0))
    assert (meta.n_conversations, meta.name) == (first.n_conversations, "support-bot · live 2026-11-24")
    later = live.model_copy(update={"updated_at": 200.0})
    meta = store.add_live(second, later, _keys(second, 100), meta.id)
    assert meta.n_conversations == whole.n_conversations and meta.n_interactions == whole.n_interactions
    assert store.meta(meta.id).live == later
    # Which conversation ids and spool keys the run holds: looked up, not read from the run.
    ids = [c.session_id for c in whole.conversations]
    assert store.live_held(meta.id, "session_id", [*ids[:3], "nobody"]) == set(ids[:3])
    assert store.live_held(meta.id, "source_key", ["s:0", "s:100", "s:99999"]) == {"s:0", "s:100"}
    # One run, read as if judged at once: the same conversations, verdicts and accounting.
    reopened = store.open(meta.id)
    assert conversation_dicts(reopened.conversations) == conversation_dicts(whole.conversations)
    assert reopened.interactions["score"].tolist() == whole.interactions["score"].tolist()
    assert reopened.judge_run.counts == whole.judge_run.counts
    # Exported and imported: one ordinary run (a copy, which the live path does not grow).
    copy = store.import_(store.export(meta.id))
    assert copy.live is None and store.open(copy.id).n_interactions == whole.n_interactions
    # Deleting the live run removes its parts.
    store.delete(meta.id)
    with sqlite3.connect(store.path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM run_parts").fetchone()[0] == 0
        assert conn.execute("SELECT COUNT(*) FROM live_conversations").fetchone()[0] == 0


def test_agentic_metrics_must_fit_a_live_run_s_conversations(tmp_path: Path) -> None:
    from agentic_core.agentic_metrics.compute import compute_agentic_metrics
    from agentic_core.runs import RunStoreError

    store = RunStore(tmp_path / "runs.sqlite3")
    whole = _travel()
    first, second = _half(whole, False), _half(whole, True)
    meta = store.add_live(first, LiveSource(service="b", day="2026-11-24", updated_at=1.0), _keys(first, 0))
    meta = store.add_live(second, LiveSource(service="b", day="2026-11-24", updated_at=2.0), _keys(second, 100),
                          meta.id)
    with pytest.raises(RunStoreError, match="one entry per conversation"):
        store.set_agentic(meta.id, compute_agentic_metrics(first.conversations, metrics="tool_call_accuracy",
                                                           cache_mode="off"))
    store.set_agentic(meta.id, compute_agentic_metrics(whole.conversations, metrics="tool_call_accuracy",
                                                       cache_mode="off"))
    assert store.open(meta.id).agentic is not None


def test_accounting_merges_counts_and_keeps_each_warning_once() -> None:
    one = {"counts": {"ok": 2, "failed": 1}, "model_calls": 3, "elapsed_s": 1.5, "warnings": ["a"],
           "cache_mode": "use", "cache_path": "x"}
    two = {"counts": {"ok": 1, "uncertain": 4}, "model_calls": 5, "elapsed_s": 0.5, "warnings": ["a", "b"],
           "cache_mode": "off", "cache_path": None}
    merged = merge_accounting(one, two)
    assert merged["counts"] == {"ok": 3, "failed": 1, "uncertain": 4}
    assert (merged["model_calls"], merged["elapsed_s"], merged["warnings"]) == (8, 2.0, ["a", "b"])
    assert (merged["cache_mode"], merged["cache_path"]) == ("off", None)
    assert merge_accounting({}, two) == two


def test_only_a_live_run_of_today_is_receiving() -> None:
    meta = RunMeta.model_validate({
        "id": "r", "name": "n", "created_at": 0.0, "data_name": "d", "data_fingerprint": "f",
        "judge": {"kind": "dataset"}, "n_conversations": 1, "n_interactions": 1,
        "live": {"service": "s", "day": "2026-11-24", "updated_at": 0.0}})
    noon = datetime(2026, 11, 24, 12, tzinfo=UTC).timestamp()
    assert receiving(meta, noon) and receiving(meta, noon + 11 * 3600)
    assert not receiving(meta, noon + 12 * 3600)  # midnight UTC: the next day's run takes over
    assert not receiving(meta.model_copy(update={"live": None}), noon)
