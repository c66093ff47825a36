"""Run page: judge choice, call estimate, progress, failures, cache, LLM key handling."""

from __future__ import annotations

import pickle
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from streamlit.proto.TextInput_pb2 import TextInput as TextInputProto
from streamlit.testing.v1 import AppTest

from agentic_core.evaluate import evaluate, judge_items
from agentic_core.io.samples import SAMPLES, load_sample
from agentic_core.judges.runner import estimate_calls
from tests.fakes import FakeJudge, LatencyChatModel, OpenAIStandIn, SlowStreamJudge, judgement_json, offer_judge

RUN = "pages/run.py"
RAGAS = Path(__file__).resolve().parents[2] / "sample_data" / "ragas_multiturn.jsonl"


def _texts(elements: Any) -> str:
    return "\n".join(str(e.value) for e in elements)


def _metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def _frame(at: AppTest, key: str) -> pd.DataFrame:
    """The table inside the container with ``key``."""
    tables = [node for node in at.container(key) if getattr(node, "type", None) == "dataframe"]
    assert len(tables) == 1, f"expected one table in {key!r}"
    frame: pd.DataFrame = tables[0].value
    return frame


def _register(monkeypatch: pytest.MonkeyPatch, name: str, make: Callable[[], Any], title: str = "Fake") -> None:
    """Offer a fake judge on the page under ``name`` (the registry's one table, patched)."""
    offer_judge(monkeypatch, name, make, title)


def _distinct(sample: str) -> tuple[int, int]:
    """``(interactions, distinct query/answer/ground truth triples)`` of a sample."""
    items = judge_items(load_sample(sample).conversations)
    return len(items), len({(i.query, i.answer, i.ground_truth) for i in items})


def _load_sample(at: AppTest, name: str) -> AppTest:
    at.switch_page("pages/data.py").run()
    at.button(key=f"sample_{name}").click().run()
    assert not at.exception
    return at.switch_page(RUN).run()


def _run(at: AppTest, judge: str, **widgets: Any) -> AppTest:
    at.radio(key="run_judge").set_value(judge).run()
    for key, value in widgets.items():
        at.get_by_key(key).set_value(value)
    at.run()
    assert not at.exception
    at.button(key="run_start").click().run()
    assert not at.exception
    return at


def test_dataset_run_shows_up_on_overview(app: AppTest) -> None:
    before = _metrics(app)
    assert before["Conversations"] == f"{len(load_sample('support').conversations):,}"
    at = _load_sample(app, "travel")
    assert "Not evaluated yet" in _texts(at.caption)
    n_int, _ = _distinct("travel")
    n_conv = len(load_sample("travel").conversations)

    _run(at, "dataset")
    assert f"Done: {n_conv} conversations judged by dataset" in _texts(at.success)
    metrics = _metrics(at)
    # The dataset judge reads scores: no talk of model calls or a cache.
    assert metrics["Scores read"] == f"{n_int:,}" and metrics["Judge calls made"] == "0"
    assert metrics["Failed (unscored)"] == "0"
    assert "no model is called" in _texts(at.caption)
    assert "Model calls" not in _texts(at.caption) and "Tokens" not in _texts(at.caption)
    assert "**Judge:** dataset" in _texts(at.markdown)
    assert f"**Run:** {SAMPLES['travel'].title}" in _texts(at.sidebar.caption)  # the sidebar follows at once
    assert "Already evaluated by dataset" in _texts(at.caption)

    at.switch_page("pages/overview.py").run()
    assert not at.exception
    after = _metrics(at)
    assert after["Conversations"] == f"{n_conv:,}"
    assert after["Success rate (pass@1)"] != before["Success rate (pass@1)"]
    assert any(label.startswith("pass@") for label in after)


def test_failed_items_are_listed_with_reasons(monkeypatch: pytest.MonkeyPatch, app: AppTest) -> None:
    _register(monkeypatch, "fake_flaky", lambda: FakeJudge([0.9, None, 0.8], kind="flaky"))
    at = app.switch_page(RUN).run()
    _run(at, "fake_flaky")
    failed = int(_metrics(at)["Failed (unscored)"].replace(",", ""))
    assert failed > 0
    table = _frame(at, "run_failures")
    assert len(table) == failed
    assert set(table["reason"]) == {"fake failure"}
    assert list(table.columns) == ["session_id", "qa_id", "query", "reason"]
    reasons = _frame(at, "run_failure_reasons")
    assert reasons.to_dict("records") == [{"reason": "fake failure", "interactions": failed}]
    assert f"{failed:,} interaction(s) could not be judged" in _texts(at.error)

    # Overview counts the conversations left unscored (never scored 0).
    at.switch_page("pages/overview.py").run()
    assert "could not be scored by the judge" in _texts(at.warning)


def test_estimate_excludes_cache_hits(monkeypatch: pytest.MonkeyPatch, app: AppTest) -> None:
    _register(monkeypatch, "fake_ok", lambda: FakeJudge(0.9, kind="fake-ok"))
    n_int, distinct = _distinct("support")
    at = app.switch_page(RUN).run()
    at.radio(key="run_judge").set_value("fake_ok").run()
    assert _metrics(at)["Judge calls needed"] == f"{distinct:,}"
    assert f"{n_int:,} interactions, {distinct:,} distinct" in _texts(at.caption)

    at.button(key="run_start").click().run()
    assert not at.exception
    # The estimate and the run's own account agree: calls needed before = calls made after.
    assert _metrics(at)["Judge calls made"] == f"{distinct:,}"
    assert _metrics(at)["Scored by those calls"] == f"{n_int:,}"
    assert f"{distinct:,} judge calls scored {n_int:,} interactions" in _texts(at.success)
    # Everything is cached now: no call is needed, and the page says why.
    assert _metrics(at)["Judge calls needed"] == "0"
    assert f"{distinct:,} of them are already in the cache" in _texts(at.caption)
    at.radio(key="cache_mode").set_value("refresh").run()
    assert _metrics(at)["Judge calls needed"] == f"{distinct:,}"

    at.radio(key="cache_mode").set_value("use").run()
    at.button(key="run_start").click().run()
    metrics = _metrics(at)
    assert metrics["From the cache"] == f"{n_int:,}" and metrics["Judge calls made"] == "0"
    # Items and interactions in one sentence, each with its unit (issue 36: "303 from the cache" beside "248 hits").
    said = f"{distinct:,} distinct items: {distinct:,} from the cache, 0 sent to the judge, covering {n_int:,} "
    assert said in _texts(at.caption)


def test_recommended_threshold_becomes_the_default(monkeypatch: pytest.MonkeyPatch, app: AppTest) -> None:
    _register(monkeypatch, "fake_strict", lambda: FakeJudge(0.9, kind="strict", recommended_threshold=0.55))
    app.slider(key="threshold").set_value(0.3).run()
    at = app.switch_page(RUN).run()
    at.radio(key="run_judge").set_value("fake_strict").run()
    assert "Recommended answer threshold of this judge: **0.55**" in _texts(at.caption)
    at.button(key="run_start").click().run()
    assert "recommended answer threshold is **0.55**" in _texts(at.info)
    at.switch_page("pages/overview.py").run()
    assert at.slider(key="threshold").value == pytest.approx(0.55)


def test_llm_without_key_names_the_env_var(monkeypatch: pytest.MonkeyPatch, app: AppTest) -> None:
    monkeypatch.delenv("GROQ_API_KEY", raising=False)
    at = app.switch_page(RUN).run()
    at.radio(key="run_judge").set_value("llm").run()
    assert not at.exception
    assert at.selectbox(key="llm_provider").value == "groq"
    assert at.text_input(key="llm_model").value == "llama-3.3-70b-versatile"
    assert at.text_input(key="llm_api_key").proto.type == TextInputProto.PASSWORD
    assert "reads its API key from GROQ_API_KEY" in _texts(at.caption)
    error = _texts(at.error)
    assert "environment variable GROQ_API_KEY is not set" in error
    assert "export GROQ_API_KEY=<your key>" in error
    assert at.button(key="run_start").disabled


def test_llm_missing_package_names_the_pip_command(app: AppTest) -> None:
    at = app.switch_page(RUN).run()
    at.radio(key="run_judge").set_value("llm").run()
    at.selectbox(key="llm_provider").set_value("anthropic").run()
    assert at.text_input(key="llm_model").value == "claude-3-5-haiku-latest"  # suggestion follows the provider
    try:
        import langchain_anthropic  # noqa: F401
    except ImportError:
        assert "pip install langchain-anthropic==" in _texts(at.error)
        assert at.button(key="run_start").disabled
    else:  # installed here: then the missing key is what is reported
        assert "ANTHROPIC_API_KEY" in _texts(at.error)


def test_llm_run_keeps_the_key_only_in_its_field(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, app: AppTest) -> None:
    secret = "sk-test-secret-4242"
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    n_int, distinct = _distinct("seeds")
    at = _load_sample(app, "seeds")
    at.radio(key="run_judge").set_value("llm").run()
    at.selectbox(key="llm_provider").set_value("openai-compatible").run()
    assert "Base URL (required)" in at.text_input(key="llm_base_url").label
    with OpenAIStandIn() as server:
        _run(
            at,
            "llm",
            llm_model="judge-model",
            llm_base_url=server.base_url,
            llm_api_key=secret,
            llm_concurrency=4,
        )
        assert server.requests == distinct
        assert set(server.auth_headers) == {f"Bearer {secret}"}
    metrics = _metrics(at)
    assert metrics["Judge calls made"] == f"{distinct:,}" and metrics["Failed (unscored)"] == "0"
    assert metrics["Scored by those calls"] == f"{n_int:,}"
    assert f"Tokens: {120 * distinct:,} in, {18 * distinct:,} out" in _texts(at.caption)
    assert "llm (openai-compatible: judge-model" in _texts(at.markdown)

    # The key is in its password field and nowhere else: not in the run, not in session data,
    # not in the cache file.
    state = at.session_state.to_dict()
    assert state["llm_api_key"] == secret
    assert len(state) > 10
    for key, value in state.items():
        if key != "llm_api_key":
            assert secret not in repr(value), key
    assert secret.encode() not in pickle.dumps(state["_active_run"])
    cache_bytes = b"".join(p.read_bytes() for p in tmp_path.glob("cache.sqlite*"))
    assert cache_bytes and secret.encode() not in cache_bytes


def test_judge_items_are_what_evaluate_judges() -> None:
    report = load_sample("seeds")
    fake = FakeJudge(0.5, cacheable=False)
    result = evaluate(report, fake, cache_mode="off")
    items = judge_items(report.conversations)
    assert len(items) == result.n_interactions
    assert set(items) == set(fake.judged)
    assert estimate_calls(fake, items, None, "off") == len(fake.judged)


def _metric_reply(prompt: str) -> str:
    """A fake LLM: answer verdicts, topic classifications and goal verdicts, by the prompt's data blocks."""
    import json

    if "<conversation-" in prompt:
        return json.dumps({"goal": "", "achieved": True, "score": 0.8, "evidence": [],
                           "reasoning": "Done as the reference says."})
    if "<topics-" in prompt:
        return json.dumps({"answered": True, "on_topic": True, "topic": "weather", "reasoning": "on topic"})
    return judgement_json(0.9)


def test_agentic_metrics_are_computed_with_the_runs_llm_judge(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, open_app: Callable[..., AppTest]
) -> None:
    from agentic_core.runs import RunStore
    from tests.judges.conftest import fast_judge
    from ui import runs

    monkeypatch.setenv("AGENTIC_RUNS_PATH", str(tmp_path / "runs.sqlite3"))
    runs._open_store.clear()
    model = LatencyChatModel(latency_s=0.0, reply=_metric_reply)
    _register(monkeypatch, "fake_llm", lambda: fast_judge(model), "Fake LLM")
    at = open_app(RUN, RAGAS)
    at.radio(key="run_judge").set_value("fake_llm").run()
    at.multiselect(key="run_agentic_metrics").set_value(["topic_adherence", "goal_accuracy"]).run()
    assert not at.exception
    assert "the LLM judge classifies each" in _texts(at.caption)
    at.button(key="run_start").click().run()
    assert not at.exception and not at.error
    assert "Agentic metrics computed" in _texts(at.success)
    assert "**Agentic metrics:** topic adherence, goal accuracy, judged by llm" in _texts(at.markdown)
    prompts = "\n".join(model.prompts)
    assert "<topics-" in prompts and "<conversation-" in prompts  # no network: the fake

    at.switch_page("pages/agentic_metrics.py").run()
    assert not at.exception
    assert not [b for b in at.button if b.key == "agentic_compute"]  # already computed with the run
    labels = [m.label for m in at.metric]
    assert "Goal accuracy" in labels and "Topic adherence (f1)" in labels
    assert "Judged by llm" in next(m.proto.help for m in at.metric if m.label == "Goal accuracy")
    assert not any("approximate" in c.value for c in at.caption)
    [meta] = RunStore().runs()  # kept with the run in the history
    stored = RunStore().open(meta.id).agentic
    assert stored is not None and stored.metrics == ("topic_adherence", "goal_accuracy")
    runs._open_store.clear()


def _wait_for(at: AppTest, done: Callable[[AppTest], bool], timeout: float = 20.0) -> AppTest:
    """Rerun the page (as the progress fragment does every half second) until ``done``."""
    end = time.monotonic() + timeout
    while not done(at):
        assert time.monotonic() < end, "timed out waiting for the page"
        time.sleep(0.1)
        at.run()
        assert not at.exception
    return at


def _progress(at: AppTest) -> str:
    """The progress bars' texts."""
    return "\n".join(str(bar.proto.text) for bar in at.get("progress"))


def _slow_run(monkeypatch: pytest.MonkeyPatch, app: AppTest) -> AppTest:
    _register(monkeypatch, "slow", lambda: SlowStreamJudge(0.9, per_item_s=0.25), title="Slow")
    at = _load_sample(app, "support")
    return _run(at, "slow", cache_mode="off")


def test_a_slow_run_shows_progress_eta_and_partial_results(monkeypatch: pytest.MonkeyPatch, app: AppTest) -> None:
    at = _slow_run(monkeypatch, app)
    total = load_sample("support").n_interactions
    # The run goes on in the background: the page shows its progress, not a finished run.
    assert at.button(key="run_start").disabled
    assert not at.button(key="run_cancel").disabled
    _wait_for(at, lambda a: "per second" in _progress(a))
    text = _progress(at)
    assert f"/ {total:,} interactions" in text and ("left" in text or "measuring" in text)
    metrics = _metrics(at)
    assert int(metrics["Judged now"].replace(",", "")) >= 1
    assert metrics["Answers passing so far"] == "100%"  # every verdict so far is 0.9 >= 0.5
    assert "Latest verdicts" in _texts(at.caption)
    at.button(key="run_cancel").click().run()  # stop it (the test must not wait for the whole run)


def test_cancel_then_keep_the_partial_run(monkeypatch: pytest.MonkeyPatch, app: AppTest) -> None:
    at = _slow_run(monkeypatch, app)
    total = load_sample("support").n_interactions
    at.button(key="run_cancel").click().run()
    _wait_for(at, lambda a: bool(a.get("button")) and any(b.key == "run_keep_partial" for b in a.button))
    warning = _texts(at.warning)
    assert "Run cancelled" in warning and f"of {total:,} interactions had a verdict" in warning
    assert at.button(key="run_start").disabled  # keep or drop first
    at.button(key="run_keep_partial").click().run()
    assert not at.exception
    assert "Kept the partial run" in _texts(at.success)
    assert "(partial)" in _texts(at.markdown)
    assert "not judged" in _texts(at.get("dataframe")) or "could not be judged" in _texts(at.error)
    assert not at.button(key="run_start").disabled


def test_cancel_then_drop_keeps_the_previous_run(monkeypatch: pytest.MonkeyPatch, app: AppTest) -> None:
    at = _slow_run(monkeypatch, app)
    before = _texts(at.markdown)
    at.button(key="run_cancel").click().run()
    _wait_for(at, lambda a: any(b.key == "run_drop_partial" for b in a.button))
    at.button(key="run_drop_partial").click().run()
    assert "Dropped the partial run" in _texts(at.success)
    assert "(partial)" not in _texts(at.markdown)
    assert "**Judge:** dataset" in before and "**Judge:** dataset" in _texts(at.markdown)  # the run before stays


def test_unscored_interactions_are_counted_by_cause(monkeypatch: pytest.MonkeyPatch, app: AppTest) -> None:
    # Issue 40: an LLM judge whose calls all time out; the page says why, in the core's words, with a table.
    from tests.fakes import HangingChatModel, llm_judge_over

    _register(monkeypatch, "fake_hanging", lambda: llm_judge_over(HangingChatModel(), timeout_s=0.05, concurrency=4))
    at = _load_sample(app, "seeds")
    _run(at, "fake_hanging")
    for _ in range(100):  # the run is in the background: wait for its end
        if "Why unscored" in _texts(at.warning):
            break
        time.sleep(0.1)
        at.run()
    failed = int(_metrics(at)["Failed (unscored)"].replace(",", ""))
    assert failed > 0
    assert f"**Why unscored:** {failed} unscored: {failed} timed out after 0.05 s" in _texts(at.warning)
    causes = _frame(at, "run_unscored_causes")
    assert causes.to_dict("records") == [{"cause": "timed out", "interactions": failed}]
