"""Build a LangChain chat model (and an LLM judge over it) from a provider *name*.

The reference implementation imported whatever class path a caller sent; here the provider is
chosen from a fixed table, and the module and class come from that table only.

API keys come from an argument or an environment variable, travel as ``SecretStr``, are checked
*before* the model is built (``ChatOpenAI`` and ``ChatGroq`` raise an unhelpful error at
construction without one) and never appear in the judge identity, an error message, a log line
or the cache.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from pydantic import SecretStr

from agentic_core.common.secrets import mask_secrets, register_secret, secret_text
from agentic_core.errors import JudgeConfigError
from agentic_core.judges.llm.judge import LLMJudge, StructuredMode
from agentic_core.judges.llm.options import (
    DEFAULT_CONCURRENCY,
    DEFAULT_MAX_RETRIES,
    DEFAULT_MAX_TOKENS,
    DEFAULT_TIMEOUT_S,
    LLM_OPTIONS,
    check_int,
    check_positive,
)
from agentic_core.judges.llm.provider_table import PROVIDERS as PROVIDERS  # re-exported: callers read it here too
from agentic_core.judges.llm.provider_table import ProviderSpec, get_provider
from agentic_core.judges.llm.timing import BACKSTOP_FACTOR

NO_KEY_PLACEHOLDER = "not-needed"
"""Sent as the key to OpenAI-compatible servers that need none (the client insists on one)."""

# The keyword each chat model class takes for the reply budget (checked against the pinned versions).
_BUDGET_KEYWORD = {"ollama": "num_predict", "google": "max_output_tokens"}


def resolve_api_key(
    spec: ProviderSpec, api_key: str | SecretStr | None = None, api_key_env: str | None = None
) -> SecretStr | None:
    """Find the key: the argument, else ``api_key_env``, else the provider's default variable.

    A variable the user *named* must hold a key, whatever the provider: for providers whose key
    is optional the fallback would otherwise be a placeholder key, and the only sign of the
    typo would be a wall of 401s after the run had started.

    Args:
        spec: The provider.
        api_key: The key itself (from a password field); wins over every variable.
        api_key_env: The variable the user named to hold the key (``--api-key-env``); an empty
            name counts as none.

    Returns:
        The key; a placeholder for providers whose key is optional when none was given and no
        variable was named; ``None`` for providers that take no key (Ollama).

    Raises:
        JudgeConfigError: the named variable is unset or empty, or a required key is missing;
            the message names the variable to set (never a key).
    """
    api_key = secret_text(api_key)
    named = (api_key_env or "").strip() or None
    if api_key is not None and api_key.strip():
        return None if spec.key_env is None else SecretStr(api_key.strip())
    if named is not None:
        value = os.environ.get(named, "").strip()
        if not value:
            # Checked before the provider's own rules: a misspelt name must not fall back to a
            # placeholder (optional keys) or be ignored (providers without keys).
            raise JudgeConfigError(
                f"environment variable {named}",
                f"was named to hold the {spec.label} API key, but it is not set or empty",
                fix=f"run `export {named}=<your key>` before starting, or fix the variable name",
                show=False,
            )
        return None if spec.key_env is None else SecretStr(value)
    if spec.key_env is None:
        return None
    value = os.environ.get(spec.key_env, "").strip()
    if value:
        return SecretStr(value)
    if not spec.key_required:
        return SecretStr(NO_KEY_PLACEHOLDER)
    raise JudgeConfigError(
        f"{spec.label} API key",
        f"is required but no key was given and the environment variable {spec.key_env} is not set",
        fix=f"run `export {spec.key_env}=<your key>` before starting, or enter the key in the key field",
        show=False,
    )


def _load_class(spec: ProviderSpec) -> type[BaseChatModel]:
    """Import the provider's chat model class from the fixed table."""
    install = f"install it with `{spec.install_command}` (in the workbench's environment), then run again"
    if importlib.util.find_spec(spec.module) is None:
        raise JudgeConfigError(
            f"provider {spec.name}",
            f"needs the Python package {spec.package}, which is not installed",
            fix=install,
            show=False,
        )
    try:
        module = importlib.import_module(spec.module)
    except ImportError as exc:
        raise JudgeConfigError(
            f"provider {spec.name}",
            f"the package {spec.package} failed to import ({exc})",
            fix=install,
            show=False,
        ) from None
    cls: type[BaseChatModel] = getattr(module, spec.class_name)
    return cls


def _check_base_url(spec: ProviderSpec, base_url: str | None) -> str | None:
    url = (base_url or "").strip() or None
    if url is None:
        if spec.base_url_required:
            raise JudgeConfigError(
                "base_url",
                f"is required for provider {spec.name}",
                base_url,
                "give the server's OpenAI-style URL, such as http://127.0.0.1:8000/v1",
            )
        return None
    if not url.startswith(("http://", "https://")):
        raise JudgeConfigError(
            "base_url", "must start with http:// or https://", url, "such as http://127.0.0.1:8000/v1"
        )
    return url


def build_chat_model(
    provider: str,
    model: str,
    *,
    api_key: str | SecretStr | None = None,
    api_key_env: str | None = None,
    base_url: str | None = None,
    temperature: float = 0.0,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    max_tokens: int | None = DEFAULT_MAX_TOKENS,
) -> BaseChatModel:
    """Build the chat model of ``provider`` for ``model``.

    The provider SDK's own retries are switched off: the judge retries with jitter and counts
    the retries, and two layers of retries would multiply. Keyword names were checked against
    the pinned versions in :data:`PROVIDERS`.

    Args:
        provider: One of :data:`PROVIDERS`.
        model: The provider's model name (``llama-3.3-70b-versatile``, ``gpt-4o-mini``, ...).
        api_key: The key itself (from a password field); wins over the environment.
        api_key_env: Name of the environment variable holding the key (default: the
            provider's usual one, such as ``GROQ_API_KEY``).
        base_url: Server URL (required for ``openai-compatible``; optional for ``ollama``).
        temperature: Sampling temperature (0 for reproducible judging).
        timeout_s: Request timeout handed to the client.
        max_tokens: The reply budget (``None``: the server's own, often the whole context). For
            ``openai-compatible`` servers it is sent both as ``max_completion_tokens`` (what
            ``ChatOpenAI`` sends) and as ``max_tokens`` (all that llama-cpp-python reads).

    Raises:
        JudgeConfigError: unknown provider, empty model name, missing package (naming the pip
            command), missing key (naming the variable), bad base URL, or a constructor error.
    """
    spec = get_provider(provider)
    if not str(model or "").strip():
        example = f", such as {spec.suggested_model}" if spec.suggested_model else " (the name the server serves)"
        raise JudgeConfigError(
            "model", f"must be a model name of the {spec.label} provider", model, f"name the model{example}"
        )
    url = _check_base_url(spec, base_url)
    if max_tokens is not None:
        check_int("max_tokens", max_tokens, 1, "use a whole number of tokens such as 512")
    cls = _load_class(spec)
    # Before constructing: ChatOpenAI / ChatGroq fail at construction without a key, with a
    # message that does not say which variable to set.
    key = resolve_api_key(spec, api_key, api_key_env)
    if key is not None and key.get_secret_value() != NO_KEY_PLACEHOLDER:
        # Known to the whole process from now on (see agentic_core.common.secrets), whatever the model
        # class does with it.
        register_secret(key)

    kwargs: dict[str, Any] = {"model": str(model).strip(), "temperature": temperature}
    if max_tokens is not None:
        kwargs[_BUDGET_KEYWORD.get(spec.name, "max_tokens")] = max_tokens
        if spec.name == "openai-compatible":
            kwargs["extra_body"] = {"max_tokens": max_tokens}
    if spec.name == "ollama":
        if url:
            kwargs["base_url"] = url
        kwargs["client_kwargs"] = {"timeout": timeout_s}
    else:
        # langchain-google-genai reads max_retries=0 as "the Google SDK's default (5 retries)";
        # 1 means a single attempt there.
        kwargs.update(api_key=key, timeout=timeout_s, max_retries=1 if spec.name == "google" else 0)
        if url:
            kwargs["base_url"] = url
    try:
        return cls(**kwargs)
    except Exception as exc:
        message = mask_secrets(str(exc), [key])
        raise JudgeConfigError(
            f"provider {spec.name}",
            f"could not build {spec.class_name} ({type(exc).__name__}: {message[:500]})",
            fix="check the model name and base URL",
            show=False,
        ) from None


def build_llm_judge(
    provider: str,
    model: str,
    *,
    api_key: str | SecretStr | None = None,
    api_key_env: str | None = None,
    base_url: str | None = None,
    temperature: float = 0.0,
    concurrency: int = DEFAULT_CONCURRENCY,
    timeout_s: float | None = None,
    max_retries: int = DEFAULT_MAX_RETRIES,
    rps: float | None = None,
    use_structured_output: StructuredMode = "auto",
    max_tokens: int | None = DEFAULT_MAX_TOKENS,
    timeout_ceiling_s: float = LLM_OPTIONS["timeout_s"].maximum,
    adaptive_timeout: bool | None = None,
) -> LLMJudge:
    """Build an :class:`~agentic_core.judges.llm.judge.LLMJudge` for ``provider`` / ``model``.

    Arguments are those of :func:`build_chat_model` and :class:`LLMJudge`; ``timeout_s`` ``None`` (the
    default) is 60 s adapting to the server, a number is the user's and never changes. The chat model's
    client gets a far longer timeout (:data:`~agentic_core.judges.llm.timing.BACKSTOP_FACTOR`): the judge
    cancels its calls itself.

    Raises:
        JudgeConfigError: see :func:`build_chat_model` and :class:`LLMJudge`.
    """
    if timeout_s is not None:
        check_positive("timeout_s", timeout_s, "use a number of seconds > 0, such as 60, or none to adapt")
    chat_model = build_chat_model(
        provider,
        model,
        api_key=api_key,
        api_key_env=api_key_env,
        base_url=base_url,
        temperature=temperature,
        timeout_s=BACKSTOP_FACTOR * max(timeout_ceiling_s, timeout_s or 0.0),
        max_tokens=max_tokens,
    )
    return LLMJudge(
        chat_model,
        provider=get_provider(provider).name,
        model_name=str(model).strip(),
        concurrency=concurrency,
        timeout_s=timeout_s,
        max_retries=max_retries,
        rps=rps,
        use_structured_output=use_structured_output,
        temperature=temperature,
        base_url=base_url,
        max_tokens=max_tokens,
        timeout_ceiling_s=timeout_ceiling_s,
        adaptive_timeout=adaptive_timeout,
    )
