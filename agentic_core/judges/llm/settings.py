"""The settings of one LLM run, typed: what an interface gathers for the LLM and cascade judges.

An interface (the Run page) fills one :class:`LLMSettings`; :meth:`LLMSettings.builder_options`
turns it into the keywords of :func:`agentic_core.judges.registry.build_judge` at the last moment,
so no string-keyed dict of options travels through the interface. No LangChain import here.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, SecretStr

from agentic_core.judges.llm.options import DEFAULT_CONCURRENCY, DEFAULT_MAX_TOKENS


class LLMSettings(BaseModel):
    """Provider, model, endpoint, key and limits of an LLM run.

    The rules (a known provider, a key where one is needed, positive limits) are checked by the
    judge builder, which raises :class:`~agentic_core.errors.JudgeConfigError` naming the option;
    this model only carries the values with their types.

    Attributes:
        provider: A key of :data:`agentic_core.judges.PROVIDERS`.
        model: The provider's model name.
        base_url: The server's URL, or ``None`` for the provider's default.
        api_key: The key, or ``None`` to read the provider's environment variable. A
            :class:`~pydantic.SecretStr`, so printing or dumping the settings never shows it.
        concurrency: LLM calls in flight at once.
        rps: Most requests per second, or ``None`` for no limit.
        timeout_s: Seconds per call, or ``None`` (the default): 60 s, adapting to the server's latency.
        max_tokens: Most tokens a judge reply may use.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    provider: str
    model: str
    base_url: str | None = None
    api_key: SecretStr | None = None
    concurrency: int = DEFAULT_CONCURRENCY
    rps: float | None = None
    timeout_s: float | None = None
    max_tokens: int = DEFAULT_MAX_TOKENS

    def secret(self) -> str | None:
        """The key in clear (for masking it out of error messages), or ``None``."""
        return None if self.api_key is None else self.api_key.get_secret_value()

    def builder_options(self) -> dict[str, Any]:
        """The keywords of ``build_judge`` for the LLM and cascade judges (the key stays a SecretStr)."""
        return {
            "provider": self.provider,
            "model": self.model,
            "base_url": self.base_url,
            "api_key": self.api_key,
            "concurrency": self.concurrency,
            "rps": self.rps,
            "timeout_s": self.timeout_s,
            "max_tokens": self.max_tokens,
        }
