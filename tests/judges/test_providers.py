"""Providers by name: keys from the environment, never echoed; no class path accepted.

What a provider needs (its package, a model name, a base URL, a key) is refused when the LLM judge's spec is
made (:class:`~agentic_core.judges.spec.LLMSpec`); the chat model is built from that spec only.
"""


from __future__ import annotations

import importlib
import importlib.util
import sys
from typing import Any

import pytest
from pydantic import SecretStr

from agentic_core.errors import JudgeConfigError
from agentic_core.judges import spec as spec_module
from agentic_core.judges.llm import options as llm_options
from agentic_core.judges.llm import providers
from agentic_core.judges.llm.judge import LLMJudge
from agentic_core.judges.llm.options import structured_mode
from agentic_core.judges.llm.provider_table import (
    NO_KEY_PLACEHOLDER,
    check_base_url,
    check_installed,
    check_model_name,
    get_provider,
    resolve_api_key,
)
from agentic_core.judges.llm.providers import PROVIDERS, build_chat_model
from agentic_core.judges.llm.timing import BACKSTOP_FACTOR
from agentic_core.judges.runner import judge_sync
from agentic_core.judges.spec import LLMSpec
from tests.fakes import (
    RaisingChatModel,
)
from tests.judges.conftest import ITEM, SECRET, fast_judge

LOCAL = "http://127.0.0.1:9/v1"  # nothing listens there: no test calls a model


def test_identity_never_holds_the_key() -> None:
    judge = LLMSpec(
        provider="openai-compatible", model="stand-in", api_key=SECRET, base_url="http://user:pw@127.0.0.1:9/v1?token=abc"
    ).build()
    blob = (
        judge.identity.model_dump_json() + judge.identity.fingerprint() + judge.identity.label() + repr(judge)
    )
    assert SECRET not in blob and "pw" not in blob and "token" not in blob
    assert judge.identity.params["base_url"] == "http://127.0.0.1:9/v1"
    assert SECRET not in repr(judge._model)


def test_provider_table_and_names() -> None:
    assert list(PROVIDERS) == ["groq", "openai", "openai-compatible", "anthropic", "google", "ollama"]
    assert PROVIDERS["anthropic"].install_command == "pip install langchain-anthropic==1.7.10"


def test_class_paths_are_not_providers() -> None:
    with pytest.raises(JudgeConfigError) as info:
        LLMSpec(provider="langchain_openai.chat_models.ChatOpenAI", model="gpt-4o-mini", api_key="x")
    assert "groq" in str(info.value) and "openai-compatible" in str(info.value)


def _hide_module(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    real = importlib.util.find_spec

    def fake_find_spec(module: str, *args: Any, **kwargs: Any) -> Any:
        return None if module == name else real(module, *args, **kwargs)

    monkeypatch.setattr(importlib.util, "find_spec", fake_find_spec)


@pytest.mark.parametrize(
    ("provider", "module", "command"),
    [
        ("anthropic", "langchain_anthropic", "pip install langchain-anthropic==1.7.10"),
        ("google", "langchain_google_genai", "pip install langchain-google-genai==4.4.2"),
        ("ollama", "langchain_ollama", "pip install langchain-ollama==1.1.0"),
        ("groq", "langchain_groq", "pip install langchain-groq==1.1.3"),
    ],
)
def test_missing_provider_package_names_the_pip_command(
    monkeypatch: pytest.MonkeyPatch, provider: str, module: str, command: str
) -> None:
    _hide_module(monkeypatch, module)
    with pytest.raises(JudgeConfigError) as info:
        LLMSpec(provider=provider, model="some-model", api_key=SECRET)
    assert command in str(info.value)
    assert SECRET not in str(info.value)


def test_missing_key_names_the_env_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GROQ_API_KEY", raising=False)
    with pytest.raises(JudgeConfigError) as info:
        LLMSpec(provider="groq", model="llama-3.3-70b-versatile")
    assert "GROQ_API_KEY" in str(info.value) and "export GROQ_API_KEY=" in str(info.value)

    monkeypatch.delenv("MY_JUDGE_KEY", raising=False)
    with pytest.raises(JudgeConfigError) as info:
        LLMSpec(provider="openai", model="gpt-4o-mini", api_key_env="MY_JUDGE_KEY")
    assert "MY_JUDGE_KEY" in str(info.value)


def test_key_from_env_variable_is_a_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_JUDGE_KEY", SECRET)
    model = build_chat_model(LLMSpec(provider="groq", model="llama-3.3-70b-versatile", api_key_env="MY_JUDGE_KEY"))
    assert type(model).__name__ == "ChatGroq"
    key = model.groq_api_key  # type: ignore[attr-defined]
    assert isinstance(key, SecretStr) and key.get_secret_value() == SECRET
    assert SECRET not in repr(model) and SECRET not in str(model)
    assert model.max_retries == 0  # type: ignore[attr-defined]  # the judge retries, not the SDK


def test_openai_compatible_needs_base_url_not_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(JudgeConfigError) as info:
        LLMSpec(provider="openai-compatible", model="local-model")
    assert info.value.place == "base_url"
    model = build_chat_model(LLMSpec(provider="openai-compatible", model="local-model", base_url=LOCAL))
    assert model.openai_api_key.get_secret_value() == NO_KEY_PLACEHOLDER  # type: ignore[attr-defined]
    with pytest.raises(JudgeConfigError) as info:
        LLMSpec(provider="openai-compatible", model="local-model", base_url="ftp://x")
    assert info.value.place == "base_url" and "http://" in info.value.rule


def test_openai_compatible_never_sends_the_openai_key_to_another_server(monkeypatch: pytest.MonkeyPatch) -> None:
    # A user's OpenAI key must not travel to an arbitrary base URL by fallback.
    monkeypatch.setenv("OPENAI_API_KEY", "sk-real-openai-key")
    monkeypatch.delenv("OPENAI_COMPATIBLE_API_KEY", raising=False)
    spec = LLMSpec(provider="openai-compatible", model="local-model", base_url=LOCAL)
    model = build_chat_model(spec)
    assert model.openai_api_key.get_secret_value() == NO_KEY_PLACEHOLDER  # type: ignore[attr-defined]
    monkeypatch.setenv("OPENAI_COMPATIBLE_API_KEY", "local-server-key")
    model = build_chat_model(spec)  # the variable is read when the model is built
    assert model.openai_api_key.get_secret_value() == "local-server-key"  # type: ignore[attr-defined]


@pytest.mark.parametrize("provider", list(PROVIDERS))
@pytest.mark.parametrize("value", [None, "", "   "])
def test_named_key_variable_unset_or_empty_is_an_error_for_every_provider(
    monkeypatch: pytest.MonkeyPatch, provider: str, value: str | None
) -> None:
    # openai-compatible used to send a placeholder key here: the only sign was a wall of 401s.
    if value is None:
        monkeypatch.delenv("MY_JUDGE_KEY", raising=False)
    else:
        monkeypatch.setenv("MY_JUDGE_KEY", value)
    monkeypatch.setenv("OPENAI_COMPATIBLE_API_KEY", "never-a-fallback")  # the default variable is set
    built: list[Any] = []

    class NeverBuilt:
        def __init__(self, **kwargs: Any) -> None:
            built.append(kwargs)

    monkeypatch.setattr(providers, "_load_class", lambda spec: NeverBuilt)
    monkeypatch.setattr(spec_module, "check_installed", lambda spec: None)  # the key's rule, for every provider
    with pytest.raises(JudgeConfigError) as info:
        LLMSpec(provider=provider, model="some-model", api_key_env="MY_JUDGE_KEY", base_url=LOCAL).build()
    message = str(info.value)
    assert "MY_JUDGE_KEY" in message and "not set or empty" in message and "export MY_JUDGE_KEY=" in message
    assert NO_KEY_PLACEHOLDER not in message and "never-a-fallback" not in message
    assert built == []  # failed before any model was built (let alone called)


def test_optional_key_keeps_its_placeholder_only_when_no_variable_is_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spec = PROVIDERS["openai-compatible"]
    monkeypatch.delenv("OPENAI_COMPATIBLE_API_KEY", raising=False)
    for unnamed in (None, "", "  "):
        key = resolve_api_key(spec, api_key_env=unnamed)
        assert key is not None and key.get_secret_value() == NO_KEY_PLACEHOLDER
    monkeypatch.setenv("MY_JUDGE_KEY", f" {SECRET} ")
    key = resolve_api_key(spec, api_key_env=" MY_JUDGE_KEY ")
    assert key is not None and key.get_secret_value() == SECRET
    # A key given directly wins over any variable, named or not.
    monkeypatch.delenv("MY_JUDGE_KEY")
    key = resolve_api_key(spec, api_key=SecretStr("direct-key"), api_key_env="MY_JUDGE_KEY")
    assert key is not None and key.get_secret_value() == "direct-key"
    # Ollama takes no key: a named, set variable is accepted and nothing is sent.
    monkeypatch.setenv("MY_JUDGE_KEY", SECRET)
    assert resolve_api_key(PROVIDERS["ollama"], api_key_env="MY_JUDGE_KEY") is None


def test_judge_copies_model_to_apply_temperature() -> None:
    model = build_chat_model(LLMSpec(provider="openai-compatible", model="m", base_url=LOCAL, temperature=0.7))
    judge = LLMJudge(LLMSpec(provider="openai-compatible", model="m", base_url=LOCAL), model)
    assert judge._model.temperature == 0.0  # type: ignore[attr-defined]
    assert model.temperature == 0.7  # type: ignore[attr-defined]  # the caller's model is untouched
    assert judge.identity.params["temperature"] == 0.0


class KeyedRaisingChatModel(RaisingChatModel):
    """Holds a key like real provider models do, and raises errors that quote it."""

    api_key: SecretStr = SecretStr(SECRET)


def test_provider_exception_never_echoes_the_key() -> None:
    model = KeyedRaisingChatModel(make_error=lambda: RuntimeError(f"bad request with key {SECRET}"))
    verdict = judge_sync(fast_judge(model), [ITEM])[0]
    assert verdict.status == "failed"
    assert SECRET not in (verdict.error or "") and "with key ***" in (verdict.error or "")


def test_the_chat_model_and_the_judge_take_every_option_from_the_spec() -> None:
    spec = LLMSpec(provider="openai-compatible", model="m", base_url=LOCAL, temperature=0.3, max_tokens=99,
                   timeout_s=30.0, timeout_ceiling_s=120.0, max_retries=2, concurrency=3, rps=5.0,
                   use_structured_output="text")  # fmt: skip
    judge = spec.build()
    model: Any = judge._model
    assert (model.model_name, model.temperature, model.max_tokens) == ("m", 0.3, 99)
    assert model.extra_body == {"max_tokens": 99}  # what llama-cpp-python reads
    assert model.openai_api_base == LOCAL and model.max_retries == 0
    # The client's timeout is only a backstop behind the judge's own: the factor times the longest wait.
    assert model.request_timeout == BACKSTOP_FACTOR * max(120.0, 30.0)
    assert (judge.concurrency, judge.max_retries, judge.max_tokens, judge.reply_format) == (3, 2, 99, "text")
    assert judge.clock.timeout_s == 30.0 and judge.clock.explicit and judge.rate_limiter is not None
    assert judge.identity.model == "m" and judge.identity.params["temperature"] == 0.3


def test_building_runs_none_of_the_specs_rules_again() -> None:
    # The spec is checked once, when it is made; the builders trust it (they used to check it all again).
    rules = {f.__code__ for f in (get_provider, check_model_name, check_base_url, check_installed, structured_mode)}
    rules |= {f.__code__ for f in llm_options._LIMITS.values()}
    ran: list[str] = []

    def watch(frame: Any, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code in rules:
            ran.append(frame.f_code.co_name)

    options = {"provider": "groq", "model": "m", "api_key": SECRET, "concurrency": 2, "rps": 1.0, "timeout_s": 5.0}
    sys.setprofile(watch)
    try:
        spec = LLMSpec(**options)
        made = list(ran)
        ran.clear()
        spec.build()
    finally:
        sys.setprofile(None)
    assert {"get_provider", "check_model_name", "check_base_url", "check_installed", "<lambda>"} <= set(made)
    assert ran == []
