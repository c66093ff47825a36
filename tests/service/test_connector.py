"""``connector``: the class_path allow-list (nothing imported from the request), params filtered, keys kept."""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
from typing import Any

import pytest

from agentic_core.errors import JudgeConfigError
from agentic_core.judges.llm.judge import LLMJudge
from agentic_core.judges.llm.options import DEFAULT_MAX_TOKENS
from agentic_core.service import Service, ServiceConfig
from agentic_core.service.connector import allowed_class_paths, connector_judge
from tests.service.conftest import FAKE_KEY

SEED_TABLE = (
    "langchain_groq.chat_models.ChatGroq",
    "langchain_openai.chat_models.ChatOpenAI",
    "langchain_google_genai.chat_models.ChatGoogleGenerativeAI",
    "langchain_ollama.chat_models.ChatOllama",
)


def test_the_allow_list_is_the_seed_table_plus_anthropic_and_short_paths() -> None:
    allowed = allowed_class_paths()
    assert set(SEED_TABLE) <= set(allowed)
    assert "langchain_anthropic.chat_models.ChatAnthropic" in allowed
    assert allowed["langchain_openai.ChatOpenAI"] == allowed["langchain_openai.chat_models.ChatOpenAI"] == "openai"
    assert allowed["langchain_groq.ChatGroq"] == "groq"


@pytest.mark.parametrize(
    "class_path",
    [
        "langchain_groq.chat_models.ChatGroq",
        "langchain_groq.ChatGroq",
        "langchain_openai.chat_models.ChatOpenAI",
        "langchain_openai.ChatOpenAI",
    ],
)
def test_installed_providers_build_an_llm_judge(class_path: str) -> None:
    chosen = connector_judge(
        {"class_path": class_path, "params": {"model": "m-1", "api_key": FAKE_KEY, "temperature": 0.0}},
        ServiceConfig(),
        None,
        None,
    )
    assert isinstance(chosen.judge, LLMJudge)
    assert chosen.judge.identity.model == "m-1"
    assert FAKE_KEY not in json.dumps(chosen.judge.identity.model_dump())
    assert not chosen.is_default and chosen.class_path == class_path


REFUSED = [
    "os.system",
    "subprocess.Popen",
    "builtins.eval",
    "builtins.__import__",
    "langchain_openai.chat_models.ChatOpenAI.__init__.__globals__",
    "langchain_openai.chat_models.ChatOpenAI.__init__",
    "langchain_openai.chat_models.base.ChatOpenAI.__class__",
    "langchain_openai.chat_models",
    "langchain_core.language_models.fake_chat_models.FakeListChatModel",
    "LANGCHAIN_OPENAI.CHATOPENAI",
    "langchain_openai..ChatOpenAI",
    "",
]


@pytest.mark.parametrize("class_path", [*REFUSED, 7, None, ["os", "system"]])
def test_anything_else_is_a_422_naming_class_path_and_the_allowed_values_without_any_import(
    class_path: Any, seed_request: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    service = Service(ServiceConfig(cache_mode="off"))
    allowed_class_paths()  # the registry's own (fixed) imports happen outside the watched window
    seed_request["connector"] = {"class_path": class_path, "params": {"model": "m", "api_key": FAKE_KEY}}
    imported: list[str] = []
    real_import_module = importlib.import_module

    def watch(name: str, package: str | None = None) -> Any:
        imported.append(name)
        return real_import_module(name, package)

    monkeypatch.setattr(importlib, "import_module", watch)
    reply = service.run(json.dumps(seed_request))
    assert imported == []
    assert reply.status == 422
    doc = json.loads(reply.json_text())
    assert doc["success"] is False
    assert doc["errors"][0]["place"] == "connector.class_path"
    assert doc["allowed"] == list(allowed_class_paths())
    assert "langchain_openai.chat_models.ChatOpenAI" in doc["error"]
    assert FAKE_KEY not in reply.json_text()


def test_unknown_params_are_reported_and_never_passed() -> None:
    chosen = connector_judge(
        {
            "class_path": "langchain_openai.chat_models.ChatOpenAI",
            "params": {
                "model": "gpt-4o-mini",
                "api_key": FAKE_KEY,
                "http_client": "evil",
                "callbacks": ["x"],
                "max_tokens": 5,
            },
        },
        ServiceConfig(),
        None,
        None,
    )
    assert len(chosen.warnings) == 1
    assert "callbacks, http_client, max_tokens ignored (never passed to ChatOpenAI)" in chosen.warnings[0]
    model = chosen.judge._model  # the chat model the judge calls
    assert getattr(model, "max_tokens", None) == DEFAULT_MAX_TOKENS  # the judge's reply budget, not the caller's 5
    assert not model.callbacks


def test_the_classes_own_names_are_accepted() -> None:
    chosen = connector_judge(
        {
            "class_path": "langchain_openai.ChatOpenAI",
            "params": {
                "model_name": "gpt-x",
                "openai_api_key": FAKE_KEY,
                "openai_api_base": "http://127.0.0.1:9/v1",
                "request_timeout": 12,
                "max_retries": 1,
            },
        },
        ServiceConfig(),
        False,
        4,
    )
    judge = chosen.judge
    assert isinstance(judge, LLMJudge)
    assert judge.identity.model == "gpt-x"
    assert judge.identity.params["base_url"] == "http://127.0.0.1:9/v1"
    assert judge.identity.params["provider"] == "openai-compatible"  # its own server: not OpenAI's
    assert (judge.clock.timeout_s, judge.max_retries, judge.concurrency) == (12.0, 1, 4)
    assert chosen.warnings == []


@pytest.mark.parametrize(
    ("params", "place"),
    [
        ({"api_key": FAKE_KEY}, "connector.params.model"),
        ({"model": "", "api_key": FAKE_KEY}, "connector.params.model"),
        ({"model": "m", "api_key": FAKE_KEY, "temperature": 9}, "connector.params.temperature"),
        ({"model": "m", "api_key": FAKE_KEY, "temperature": True}, "connector.params.temperature"),
        ({"model": "m", "api_key": FAKE_KEY, "timeout": 0}, "connector.params.timeout"),
        ({"model": "m", "api_key": FAKE_KEY, "max_retries": 2.5}, "connector.params.max_retries"),
        ({"model": "m", "model_name": "n", "api_key": FAKE_KEY}, "connector.params.model_name"),
        ({"model": "m", "api_key": 12345}, "connector.params.api_key"),
        ({"model": "m", "api_key": FAKE_KEY, "base_url": "ftp://x"}, "base_url"),
        ({"model": "m"}, "connector.params.api_key"),
    ],
)
def test_bad_params_are_located_and_never_show_the_key(params: dict[str, Any], place: str) -> None:
    with pytest.raises(JudgeConfigError) as info:
        connector_judge({"class_path": "langchain_openai.ChatOpenAI", "params": params}, ServiceConfig(), None, None)
    assert info.value.place == place
    assert FAKE_KEY not in str(info.value) and "12345" not in str(info.value)


def test_params_must_be_an_object() -> None:
    with pytest.raises(JudgeConfigError, match=r"connector\.params: must be an object"):
        connector_judge({"class_path": "langchain_openai.ChatOpenAI", "params": ["x"]}, ServiceConfig(), None, None)


def test_server_keys_are_used_only_when_allowed_and_never_with_a_callers_base_url(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-server-OPERATOR-KEY-000")
    monkeypatch.delenv("LLM_API_KEY", raising=False)
    connector = {"class_path": "langchain_openai.ChatOpenAI", "params": {"model": "gpt-4o-mini"}}
    with pytest.raises(JudgeConfigError, match="does not lend its own keys"):
        connector_judge(connector, ServiceConfig(), None, None)
    allowed = connector_judge(connector, ServiceConfig(allow_env_keys=True), None, None)
    assert allowed.judge._model.openai_api_key.get_secret_value() == "sk-server-OPERATOR-KEY-000"
    # Seed 001's LLM_API_KEY wins when set.
    monkeypatch.setenv("LLM_API_KEY", "sk-seed-LLM-KEY-111")
    seeded = connector_judge(connector, ServiceConfig(allow_env_keys=True), None, None)
    assert seeded.judge._model.openai_api_key.get_secret_value() == "sk-seed-LLM-KEY-111"
    # A base_url of the caller's: the operator's key must not travel there.
    elsewhere = {**connector, "params": {"model": "m", "base_url": "http://127.0.0.1:9/v1"}}
    chosen = connector_judge(elsewhere, ServiceConfig(allow_env_keys=True), None, None)
    key = chosen.judge._model.openai_api_key.get_secret_value()
    assert key not in ("sk-server-OPERATOR-KEY-000", "sk-seed-LLM-KEY-111")
    groq_elsewhere = {"class_path": "langchain_groq.ChatGroq", "params": elsewhere["params"]}
    with pytest.raises(JudgeConfigError, match="base_url of the request's own"):
        connector_judge(groq_elsewhere, ServiceConfig(allow_env_keys=True), None, None)


def test_missing_provider_package_is_a_422_naming_the_install(seed_request: dict[str, Any]) -> None:
    if importlib.util.find_spec("langchain_anthropic") is not None:
        pytest.skip("langchain-anthropic is installed here")
    seed_request["connector"] = {
        "class_path": "langchain_anthropic.chat_models.ChatAnthropic",
        "params": {"model": "claude", "api_key": FAKE_KEY},
    }
    reply = Service(ServiceConfig(cache_mode="off")).run(json.dumps(seed_request))
    assert reply.status == 422
    assert "pip install langchain-anthropic" in reply.body["error"]
    assert FAKE_KEY not in reply.json_text()


def test_a_connector_and_an_offline_judge_name_conflict(seed_request: dict[str, Any]) -> None:
    seed_request["connector"] = {"class_path": "langchain_openai.ChatOpenAI", "params": {"model": "m"}}
    seed_request["config"]["judge"] = "lexical"
    reply = Service(ServiceConfig(cache_mode="off")).run(json.dumps(seed_request))
    assert reply.status == 422 and reply.body["errors"][0]["place"] == "config.judge"


@pytest.mark.parametrize("class_path", ["this.s", "antigravity.webbrowser.open", "__hello__.main", "this"])
def test_a_refused_class_path_is_never_imported_by_any_route(
    class_path: str, seed_request: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Modules with a visible side effect on import, and not imported by anything else: if one ever
    # reaches sys.modules, something imported it from the request (import statement, __import__ or importlib).
    module = class_path.split(".")[0]
    monkeypatch.delitem(sys.modules, module, raising=False)
    seed_request["connector"] = {"class_path": class_path, "params": {"model": "m", "api_key": FAKE_KEY}}
    reply = Service(ServiceConfig(cache_mode="off")).run(json.dumps(seed_request))
    assert reply.status == 422 and reply.body["errors"][0]["place"] == "connector.class_path"
    assert module not in sys.modules


@pytest.mark.parametrize(("module", "class_name"), [("langchain_openai", "ChatOpenAI"), ("langchain_groq", "ChatGroq")])
def test_every_accepted_parameter_is_a_constructor_argument_of_the_installed_class(
    module: str, class_name: str
) -> None:
    from agentic_core.service.connector import _ALIASES, _PARAMS

    cls = getattr(importlib.import_module(module), class_name)
    known = set(cls.model_fields) | {f.alias for f in cls.model_fields.values() if f.alias}
    assert set(_PARAMS) | set(_ALIASES[class_name]) <= known


def test_anthropic_is_on_the_list_with_its_own_parameter_names() -> None:
    from agentic_core.service.connector import _ALIASES

    assert allowed_class_paths()["langchain_anthropic.chat_models.ChatAnthropic"] == "anthropic"
    assert _ALIASES["ChatAnthropic"]["anthropic_api_key"] == "api_key"


@pytest.mark.parametrize(("asked", "steps"), [("json_object", "json_object"), ("text", "text"), (None, "json_schema")])
def test_the_request_may_pin_the_structured_output_format(asked: str | None, steps: str) -> None:
    # Issue 29: the endpoint offers what --structured-output offers, not only true / false.
    from agentic_core.service.models import RunConfig

    RunConfig.model_validate({"use_structured_output": asked})  # accepted by the request model
    chosen = connector_judge(
        {"class_path": "langchain_openai.ChatOpenAI", "params": {"model": "m-1", "api_key": FAKE_KEY}},
        ServiceConfig(),
        asked,  # type: ignore[arg-type]
        None,
    )
    assert chosen.judge.reply_format == steps  # type: ignore[attr-defined]


def test_an_unknown_structured_output_format_is_refused_by_the_request_model() -> None:
    from pydantic import ValidationError

    from agentic_core.service.models import RunConfig

    with pytest.raises(ValidationError):
        RunConfig.model_validate({"use_structured_output": "yaml"})


def test_the_request_may_raise_the_reply_budget() -> None:
    # Reasoning models spend their budget before the verdict: the endpoint offers what --max-tokens offers.
    from agentic_core.service.models import RunConfig

    asked = RunConfig.model_validate({"max_tokens": 4096}).max_tokens
    chosen = connector_judge(
        {"class_path": "langchain_openai.ChatOpenAI", "params": {"model": "m-1", "api_key": FAKE_KEY}},
        ServiceConfig(),
        None,
        None,
        asked,
    )
    assert getattr(chosen.judge._model, "max_tokens", None) == 4096
    with pytest.raises(JudgeConfigError, match=r"config\.max_tokens"):
        connector_judge(
            {"class_path": "langchain_openai.ChatOpenAI", "params": {"model": "m-1", "api_key": FAKE_KEY}},
            ServiceConfig(),
            None,
            None,
            0,
        )
