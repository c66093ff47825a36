"""The Run page's view model (ui/views/run_view.py) and the LLM judge's spec of its form, without Streamlit."""

from __future__ import annotations

import pytest
from pydantic import SecretStr

from agentic_core.common import ResultCols
from agentic_core.common.secrets import secret_text
from agentic_core.errors import JudgeConfigError
from agentic_core.evaluate import evaluate
from agentic_core.io import load_sample
from agentic_core.judges import CascadeSpec, DatasetSpec, LexicalSpec, LLMSpec
from tests.fakes import FakeJudge
from ui import views

LIMITS = {"concurrency": 4.0, "rps": 0.0, "timeout_s": 30.0, "max_tokens": 256.0}


def test_the_form_values_become_the_llm_spec_with_the_key_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = views.llm_settings("ollama", "m", "", None, LIMITS)
    assert settings.base_url is None and settings.rps is None  # empty field, 0 = no limit
    assert settings.concurrency == 4 and isinstance(settings.concurrency, int)
    assert settings.max_tokens == 256 and settings.timeout_s == 30.0
    keyed = views.llm_settings("openai-compatible", "m", "http://h/v1", "sk-secret-1", LIMITS)
    assert secret_text(keyed.api_key) == "sk-secret-1"
    assert "sk-secret-1" not in repr(keyed) and "sk-secret-1" not in keyed.model_dump_json()
    monkeypatch.setenv("GROQ_API_KEY", "sk-from-the-environment")  # an empty key field: the variable's key
    given = views.llm_settings("groq", "m", "http://h/v1", "", {**LIMITS, "rps": 2.5})
    assert given.api_key is None
    assert given.base_url == "http://h/v1" and given.rps == 2.5


def test_each_form_field_fills_the_spec_field_of_its_own_name() -> None:
    # A distinct value in every field: an option filled from the wrong field (timeout_s from rps, say) differs.
    limits = {"concurrency": 3, "rps": 2.5, "timeout_s": 7.0, "max_tokens": 99}
    spec = views.llm_settings("openai-compatible", "m-1", "http://h/v1", "sk-7", limits)
    assert isinstance(spec, LLMSpec) and isinstance(spec.api_key, SecretStr) and secret_text(spec.api_key) == "sk-7"
    assert (spec.provider, spec.model, spec.base_url) == ("openai-compatible", "m-1", "http://h/v1")
    assert {name: getattr(spec, name) for name in limits} == limits


def test_the_form_values_are_held_to_the_specs_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(JudgeConfigError, match="concurrency"):
        views.llm_settings("openai-compatible", "m", "http://127.0.0.1:9/v1", "k", {**LIMITS, "concurrency": 0})
    with pytest.raises(JudgeConfigError, match="base_url: is required"):  # the provider needs its server
        views.llm_settings("openai-compatible", "m", "", "k", LIMITS)
    monkeypatch.delenv("GROQ_API_KEY", raising=False)
    with pytest.raises(JudgeConfigError, match="GROQ_API_KEY"):  # no key field, no variable
        views.llm_settings("groq", "m", "", None, LIMITS)


def test_the_key_caption_says_where_the_key_comes_from() -> None:
    assert "Key used now: the key field above." in views.key_caption("Groq", "GROQ_API_KEY", True, True, False)
    unset = views.key_caption("Groq", "GROQ_API_KEY", True, False, False)
    assert "**GROQ_API_KEY** (not set)" in unset and "optional" not in unset
    assert "(optional for this provider)" in views.key_caption("Ollama", "OLLAMA_KEY", False, False, True)
    assert "(set)" in views.key_caption("Ollama", "OLLAMA_KEY", False, False, True)


def test_cache_of_types_the_radio_value() -> None:
    assert [views.cache_of(m) for m in ("use", "refresh", "off", None)] == ["use", "refresh", "off", "use"]
    with pytest.raises(ValueError):
        views.cache_of("sometimes")


def test_plan_note_follows_judge_and_cache_mode() -> None:
    llm = LLMSpec(provider="ollama", model="m")
    assert "reads each interaction's own score" in views.plan_note(DatasetSpec(), False, "use", 10, 10)
    assert "not cached" in views.plan_note(LexicalSpec(), False, "use", 10, 10)
    assert views.plan_note(llm, True, "use", 10, 3) == "7 of them are already in the cache."
    assert "*refresh*" in views.plan_note(llm, True, "refresh", 10, 10)
    assert "*off*" in views.plan_note(llm, True, "off", 10, 10)
    cascade = views.plan_note(CascadeSpec(llm=llm), True, "use", 10, 4)
    assert cascade.startswith("6 of them") and "looks at the 4 first" in cascade


def test_metric_calls_count_what_each_metric_adds() -> None:
    # Topics on every other conversation, a reference on every third: each count is its own.
    seeds = load_sample("seeds").conversations
    convs = [
        c.model_copy(update={"reference_topics": ["weather"] if i % 2 else None, "reference": "ok" if i % 3 else None})
        for i, c in enumerate(seeds)
    ]
    with_topics = sum(len(c.conversation) for c in convs if c.reference_topics)
    with_ref = sum(1 for c in convs if c.reference)
    assert 0 < with_ref < len(convs) and with_topics > 0
    llm = views.metric_calls(convs, ["tool_call_accuracy", "topic_adherence", "goal_accuracy"], True)
    assert llm.startswith("tool call accuracy needs no judge; ")
    assert f"topic adherence: {with_topics:,} queries" in llm and "the LLM judge classifies each" in llm
    assert f"one LLM call per conversation ({len(convs):,}; {with_ref:,} with a reference" in llm
    assert llm.endswith("cached like answer verdicts.")
    offline = views.metric_calls(convs, ["goal_accuracy"], False)
    assert offline == (f"goal accuracy: {with_ref:,} conversations with a reference, scored offline by the lexical "
                       "judge (without a reference: unscored, it needs the LLM judge).")


def test_run_summary_counts_and_failures() -> None:
    report = load_sample("seeds")
    # Every third item fails: the failures table lists exactly the failed interactions.
    result = evaluate(report, FakeJudge([0.9, 0.2, None]), cache_mode="off")
    frame = result.interactions
    failed = int((frame[ResultCols.JUDGE_STATUS] == "failed").sum())
    assert failed > 0
    summary = views.run_summary(result)
    cards = {card.label: card.value for card in summary.cards}
    assert list(cards) == ["Judge calls made", "Scored by those calls", "From the cache", "Failed (unscored)",
                           "Uncertain (unscored)"]
    assert cards["Failed (unscored)"] == f"{failed:,}" and cards["From the cache"] == "0"
    assert len(summary.failures) == failed
    assert list(summary.failures.columns) == ["session_id", "qa_id", "query", "reason"]
    assert int(summary.failure_reasons["interactions"].sum()) == failed
    assert not summary.reads_scores and "sent to the judge (cache off)" in summary.caption and summary.agentic == ""


def test_run_summary_of_the_dataset_judge_reads_scores() -> None:
    result = evaluate(load_sample("seeds"), "dataset", cache_mode="off")
    summary = views.run_summary(result)
    assert summary.reads_scores and summary.cards[0].label == "Scores read"
    assert summary.cards[1].value == "0" and "no model is called" in summary.caption


def test_run_summary_says_why_items_are_unscored() -> None:
    # Issue 40: the unscored interactions by cause, in the words the CLI and the endpoint use.
    from tests.fakes import HangingChatModel, llm_judge_over

    judge = llm_judge_over(HangingChatModel(), timeout_s=0.05, concurrency=4)
    result = evaluate(load_sample("seeds"), judge, cache_mode="off")
    n = result.n_interactions
    summary = views.run_summary(result)
    said = f"{n} unscored: {n} timed out after 0.05 s (no call was answered within 0.05 s"
    assert summary.unscored_summary.startswith(said)
    assert summary.unscored_causes.to_dict("records") == [{"cause": "timed out", "interactions": n}]
    assert summary.llm_failed == ""  # not a cascade: "nothing scored" is the run's own message


def test_the_timeout_field_left_empty_is_not_set() -> None:
    settings = views.llm_settings("ollama", "m", "", None, {**LIMITS, "timeout_s": None})
    assert settings.timeout_s is None
