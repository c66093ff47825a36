"""Run page with the cascade judge: the LLM fields, and after the run how many went to the LLM.

The offline judge is the fake abstaining judge (as the registry's default); the LLM the loopback
OpenAI-compatible stand-in. The data file holds answers the fake is sure of and answers it abstains on.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from tests.cascade_fakes import AbstainingJudge, cascade_dataset, use_abstaining_default
from tests.fakes import OpenAIStandIn
from tests.pages.conftest import OpenApp

RUN = "pages/run.py"


def _texts(elements: Any) -> str:
    return "\n".join(str(e.value) for e in elements)


def _metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


@pytest.fixture
def cascade_page(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, open_app: OpenApp) -> tuple[AppTest, AbstainingJudge]:
    data = tmp_path / "cascade.json"
    data.write_text(json.dumps(cascade_dataset(n_sure=4, n_unsure=3)))
    offline = use_abstaining_default(monkeypatch)
    at = open_app(page=RUN, data=data)
    at.radio(key="run_judge").set_value("cascade").run()
    assert not at.exception
    return at, offline


def test_cascade_shows_the_llm_fields_and_after_the_run_how_many_went_to_the_llm(
    cascade_page: tuple[AppTest, AbstainingJudge], monkeypatch: pytest.MonkeyPatch
) -> None:
    at, offline = cascade_page
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    at.selectbox(key="llm_provider").set_value("openai-compatible").run()
    assert "Base URL (required)" in at.text_input(key="llm_base_url").label  # the LLM choice's own fields
    with OpenAIStandIn() as server:
        at.text_input(key="llm_model").set_value("judge-model")
        at.text_input(key="llm_base_url").set_value(server.base_url)
        at.run()
        assert not at.exception
        assert "the LLM is asked only about those it is uncertain of" in _texts(at.caption)
        at.button(key="run_start").click().run()
        assert not at.exception
        assert server.requests == 3  # only the 3 abstentions went to the LLM
    assert len(offline.judged) == 7
    metrics = _metrics(at)
    assert metrics["Sent to the LLM"] == "3" and metrics["Decided offline"] == "4"
    assert metrics["LLM failed (unscored)"] == "0" and metrics["Uncertain (unscored)"] == "0"
    assert "Cascade: 3 of 7 interaction(s) went to the LLM judge (42.9%)" in _texts(at.caption)


def test_the_offline_judge_alone_shows_its_uncertain_count(
    monkeypatch: pytest.MonkeyPatch, cascade_page: tuple[AppTest, AbstainingJudge]
) -> None:
    at, _ = cascade_page
    from agentic_core.judges import registry

    # The fake abstaining judge on its own (the default's name): its abstentions are counted, unscored.
    at.radio(key="run_judge").set_value(registry.DEFAULT_JUDGE).run()
    at.button(key="run_start").click().run()
    assert not at.exception
    metrics = _metrics(at)
    assert metrics["Uncertain (unscored)"] == "3"
    assert "3 interaction(s) uncertain" in _texts(at.info)
    assert "Sent to the LLM" not in metrics
