"""History and Overview follow a live run of today (OTLP traces judged as they arrive), and only such a run."""

from __future__ import annotations

import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

from agentic_core import evaluate
from agentic_core.io.loader import load_records
from agentic_core.io.samples import SAMPLES
from agentic_core.runs import LiveSource, RunMeta, RunStore
from agentic_core.runs.payload import conversation_dicts
from tests.pages.conftest import APP, OpenApp

HISTORY = "pages/history.py"


def _today() -> str:
    return time.strftime("%Y-%m-%d", time.gmtime())


def _halves() -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    dicts = conversation_dicts(evaluate(SAMPLES["travel"].path, "dataset", cache_mode="off").conversations)
    return dicts[:10], dicts[10:]


def _live_run(history: Path, day: str, records: list[dict[str, object]], run_id: str | None = None) -> RunMeta:
    result = evaluate(load_records(records), "dataset", cache_mode="off")
    keys = [f"s:{time.monotonic_ns()}-{n}" for n in range(result.n_conversations)]
    return RunStore(history).add_live(result, LiveSource(service="support-bot", day=day, updated_at=time.time()),
                                      keys, run_id)


def _live_captions(at: AppTest) -> list[str]:
    return [c.value for c in at.caption if "Live" in c.value]


def test_history_follows_a_live_run_of_today_and_only_then(open_app: OpenApp, history: Path) -> None:
    first, _ = _halves()
    _live_run(history, "2020-01-01", first)  # yesterday's run (long ago): done growing
    at = open_app(HISTORY)
    assert not at.exception and _live_captions(at) == []
    meta = _live_run(history, _today(), first)
    at.run()
    assert not at.exception
    (caption,) = _live_captions(at)
    assert "support-bot · live" in caption and "checked every 5 s" in caption
    table = at.dataframe[0].value
    assert table.loc[table["id"] == meta.id, "conversations"].tolist() == [10]


def test_overview_reopens_a_live_run_as_it_grows(open_app: OpenApp, history: Path) -> None:
    first, second = _halves()
    meta = _live_run(history, _today(), first)
    open_app()
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["run"] = meta.id
    at.run()
    assert not at.exception
    assert [m.value for m in at.metric if m.label == "Conversations"] == ["10"]
    assert any("Live run of **support-bot**" in c for c in _live_captions(at))
    _live_run(history, _today(), second, meta.id)  # the live path adds a batch
    at.run()  # what the fragment's timer does: it looks, reopens the grown run, draws the page again
    assert not at.exception
    total = RunStore(history).meta(meta.id).n_conversations
    assert [m.value for m in at.metric if m.label == "Conversations"] == [f"{total:,}"] and total > 10
