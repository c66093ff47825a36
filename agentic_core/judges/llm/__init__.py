"""The LLM judge's wing: a chat model grading answers with a rubric, through LangChain.

This face is light (no LangChain import): the options and the providers' table. The judge is built through
its typed spec (:class:`agentic_core.judges.spec.LLMSpec`); its modules import LangChain when used.
"""

from agentic_core.judges.llm.options import (
    DEFAULT_CONCURRENCY,
    DEFAULT_MAX_RETRIES,
    DEFAULT_MAX_TOKENS,
    DEFAULT_TIMEOUT_S,
    LLM_OPTIONS,
    STRUCTURED_HELP,
    STRUCTURED_MODES,
    LLMOption,
)
from agentic_core.judges.llm.provider_table import PROVIDERS, ProviderSpec

__all__ = [
    "DEFAULT_CONCURRENCY", "DEFAULT_MAX_RETRIES", "DEFAULT_MAX_TOKENS", "DEFAULT_TIMEOUT_S", "LLM_OPTIONS",
    "PROVIDERS", "STRUCTURED_HELP", "STRUCTURED_MODES", "LLMOption", "ProviderSpec",
]  # fmt: skip
