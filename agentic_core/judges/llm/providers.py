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
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from pydantic import SecretStr

from agentic_core.common.secrets import mask_secrets, register_secret
from agentic_core.errors import JudgeConfigError
from agentic_core.judges.llm.judge import LLMJudge
from agentic_core.judges.llm.options import (
    DEFAULT_CONCURRENCY,
    DEFAULT_MAX_RETRIES,
    DEFAULT_MAX_TOKENS,
    DEFAULT_TIMEOUT_S,
    LLM_OPTIONS,
    StructuredMode,
    check_judge_limits,
)
from agentic_core.judges.llm.provider_table import (
    NO_KEY_PLACEHOLDER,
    ProviderSpec,
    check_base_url,
    check_installed,
    check_model_name,
    get_provider,
    resolve_api_key,
)
from agentic_core.judges.llm.provider_table import PROVIDERS as PROVIDERS  # re-exported: callers read it here too
from agentic_core.judges.llm.timing import BACKSTOP_FACTOR

# The keyword each chat model class takes for the reply budget (checked against the pinned versions).
_BUDGET_KEYWORD = {"ollama": "num_predict", "google": "max_output_tokens"}


def _load_class(spec: ProviderSpec) -> type[BaseChatModel]:
    """Import the provider's chat model class from the fixed table."""
    check_installed(spec)
    try:
        module = importlib.import_module(spec.module)
    except ImportError as exc:
        raise JudgeConfigError(
            f"provider {spec.name}",
            f"the package {spec.package} failed to import ({exc})",
            fix=spec.install_hint,
            show=False,
        ) from None
    cls: type[BaseChatModel] = getattr(module, spec.class_name)
    return cls


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
    check_model_name(spec, model)
    url = check_base_url(spec, base_url)
    if max_tokens is not None:
        check_judge_limits(max_tokens=max_tokens)
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
    check_judge_limits(timeout_s=timeout_s)  # before the client's timeout is made from it
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
