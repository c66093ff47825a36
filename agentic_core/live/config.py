"""The live path's settings (``agentic-eval serve`` options): completion, bounds, judge, references, files.

Every bound has a flag and a default, said in ``serve --help`` and docs/live-traces.md.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from agentic_core.errors import SettingsError
from agentic_core.judges.spec import DEFAULT_JUDGE, OFFLINE_JUDGES

DEFAULT_IDLE_S = 30.0
"""Seconds without a span after which a conversation is complete."""
DEFAULT_MAX_SPANS_PER_REQUEST = 10_000
"""Spans one export request may hold (the SDKs' batch processors send 512 at most by default)."""
DEFAULT_MAX_PENDING = 10_000
"""Conversations held at once (waiting to be complete, or being judged); one more request is answered 429."""
DEFAULT_BATCH_CONVERSATIONS = 200
"""Complete conversations judged together (one evaluation, one part of the live run)."""


def live_judges() -> list[str]:
    """The judges the live path may use: the offline ones (an LLM judge needs a connector per request)."""
    return list(OFFLINE_JUDGES)


class LiveConfig(BaseModel):
    """How ``POST /v1/traces`` takes, completes, judges and stores live traces.

    Attributes:
        idle_s: Seconds without a span after which a conversation is complete (``--idle-s``).
        max_spans_per_request: Spans one request may hold; more: 413 (``--max-spans-per-request``).
        max_pending: Conversations held at once, waiting or being judged; when full, requests are answered 429
            with ``Retry-After`` (``--max-pending-conversations``). Their spans wait on the disk, not in memory.
        batch_conversations: Complete conversations judged together.
        judge: The judge of live conversations (an offline judge; default: the offline default judge).
        references: The golden set joined to each conversation (``--references``; the importer's format).
        spool_path: The spool file (default: ``live-spool.sqlite3`` beside the run history).
        runs_path: The run history (default: ``$AGENTIC_RUNS_PATH``, else the user data folder).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    idle_s: float = Field(default=DEFAULT_IDLE_S, gt=0, allow_inf_nan=False)
    max_spans_per_request: int = Field(default=DEFAULT_MAX_SPANS_PER_REQUEST, ge=1)
    max_pending: int = Field(default=DEFAULT_MAX_PENDING, ge=1)
    batch_conversations: int = Field(default=DEFAULT_BATCH_CONVERSATIONS, ge=1)
    judge: str = DEFAULT_JUDGE
    references: str | None = None
    spool_path: str | None = None
    runs_path: str | None = None

    @field_validator("judge")
    @classmethod
    def _judge(cls, v: str) -> str:
        if v not in live_judges():
            raise ValueError(f"must be an offline judge: {', '.join(live_judges())}")
        return v

    @classmethod
    def build(cls, **values: object) -> LiveConfig:
        """Build the settings, naming the first invalid one for the operator.

        Raises:
            SettingsError: its name, rule, value and fix.
        """
        try:
            return cls.model_validate(values)
        except ValidationError as exc:
            err = exc.errors()[0]
            name = ".".join(str(p) for p in err["loc"]) or "live settings"
            rule = err["msg"].removeprefix("Value error, ")
            raise SettingsError(name, rule[:1].lower() + rule[1:], err.get("input"),
                                "see `agentic-eval serve --help`") from None
