"""Build the LangChain chat model of a validated :class:`~agentic_core.judges.spec.LLMSpec`.

The reference implementation imported whatever class path a caller sent; here the provider is
chosen from a fixed table, and the module and class come from that table only.

The spec was checked when it was made (the provider, its package, the model name, the base URL, the
limits, a key to be found): nothing here checks it again. The key travels as ``SecretStr`` and never
appears in the judge identity, an error message, a log line or the cache.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from langchain_core.language_models.chat_models import BaseChatModel

from agentic_core.common.secrets import mask_secrets, register_secret
from agentic_core.errors import JudgeConfigError
from agentic_core.judges.llm.provider_table import NO_KEY_PLACEHOLDER, ProviderSpec
from agentic_core.judges.llm.provider_table import PROVIDERS as PROVIDERS  # re-exported: callers read it here too
from agentic_core.judges.llm.timing import BACKSTOP_FACTOR

if TYPE_CHECKING:
    from agentic_core.judges.llm.spec_fields import LLMSpecFields

# The keyword each chat model class takes for the reply budget (checked against the pinned versions).
_BUDGET_KEYWORD = {"ollama": "num_predict", "google": "max_output_tokens"}


def _load_class(provider: ProviderSpec) -> type[BaseChatModel]:
    """Import the provider's chat model class from the fixed table (the spec found its package installed)."""
    try:
        module = importlib.import_module(provider.module)
    except ImportError as exc:
        raise JudgeConfigError(
            f"provider {provider.name}",
            f"the package {provider.package} failed to import ({exc})",
            fix=provider.install_hint,
            show=False,
        ) from None
    cls: type[BaseChatModel] = getattr(module, provider.class_name)
    return cls


def build_chat_model(spec: LLMSpecFields) -> BaseChatModel:
    """Build the chat model of ``spec``: its provider's class for its model, key, base URL, temperature and
    reply budget.

    The provider SDK's own retries are switched off: the judge retries with jitter and counts the
    retries, and two layers of retries would multiply. The client's timeout is a backstop far past the
    judge's (:data:`~agentic_core.judges.llm.timing.BACKSTOP_FACTOR` times the longest the judge may wait):
    the judge cancels its calls itself. Keyword names were checked against the pinned versions in
    :data:`PROVIDERS`. The reply budget of an ``openai-compatible`` server is sent both as
    ``max_completion_tokens`` (what ``ChatOpenAI`` sends) and as ``max_tokens`` (all that llama-cpp-python
    reads).

    Raises:
        JudgeConfigError: the provider's package fails to import, or its class refuses the options (the
            message masked of the key).
    """
    provider = spec.provider_entry
    cls = _load_class(provider)
    # Before constructing: ChatOpenAI / ChatGroq fail at construction without a key, with a
    # message that does not say which variable to set (the spec found one; it is read now).
    key = spec.key()
    if key is not None and key.get_secret_value() != NO_KEY_PLACEHOLDER:
        # Known to the whole process from now on (see agentic_core.common.secrets), whatever the model
        # class does with it.
        register_secret(key)

    timeout_s = BACKSTOP_FACTOR * max(spec.timeout_ceiling_s, spec.timeout_s or 0.0)
    kwargs: dict[str, Any] = {"model": spec.model, "temperature": spec.temperature}
    if spec.max_tokens is not None:
        kwargs[_BUDGET_KEYWORD.get(provider.name, "max_tokens")] = spec.max_tokens
        if provider.name == "openai-compatible":
            kwargs["extra_body"] = {"max_tokens": spec.max_tokens}
    if provider.name == "ollama":
        kwargs["client_kwargs"] = {"timeout": timeout_s}
    else:
        # langchain-google-genai reads max_retries=0 as "the Google SDK's default (5 retries)";
        # 1 means a single attempt there.
        kwargs.update(api_key=key, timeout=timeout_s, max_retries=1 if provider.name == "google" else 0)
    if spec.base_url:
        kwargs["base_url"] = spec.base_url
    try:
        return cls(**kwargs)
    except Exception as exc:
        message = mask_secrets(str(exc), [key])
        raise JudgeConfigError(
            f"provider {provider.name}",
            f"could not build {provider.class_name} ({type(exc).__name__}: {message[:500]})",
            fix="check the model name and base URL",
            show=False,
        ) from None
