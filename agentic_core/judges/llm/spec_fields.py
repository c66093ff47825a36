"""What the LLM judge's modules read off its spec: a protocol that :class:`~agentic_core.judges.spec.LLMSpec` meets.

The spec lives above this wing (``judges/spec.py`` builds every judge); the judge, its chat model and its clock
take the validated spec through this protocol, so no module of the wing imports the module that imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from pydantic import SecretStr

    from agentic_core.judges.llm.options import ReplyFormat
    from agentic_core.judges.llm.provider_table import ProviderSpec


class LLMSpecFields(Protocol):
    """The validated options of one LLM judge (see :class:`~agentic_core.judges.spec.LLMSpec` for each)."""

    @property
    def provider(self) -> str: ...
    @property
    def model(self) -> str: ...
    @property
    def base_url(self) -> str | None: ...
    @property
    def concurrency(self) -> int: ...
    @property
    def rps(self) -> float | None: ...
    @property
    def timeout_s(self) -> float | None: ...
    @property
    def max_tokens(self) -> int | None: ...
    @property
    def max_retries(self) -> int: ...
    @property
    def temperature(self) -> float: ...
    @property
    def use_structured_output(self) -> ReplyFormat: ...
    @property
    def timeout_ceiling_s(self) -> float: ...
    @property
    def adaptive_timeout(self) -> bool | None: ...
    @property
    def provider_entry(self) -> ProviderSpec: ...

    def key(self) -> SecretStr | None:
        """The API key: given, or read from the provider's variable (``None`` where none is needed)."""
        ...
