"""The judge protocol: what every judge (offline, dataset, LLM) takes and returns.

A judge scores an answer against a ground truth in [0, 1]. A failure is *unscored*
(``score is None`` with ``status == "failed"`` and the error kept), never 0.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

Status = Literal["ok", "failed", "cached"]
ProgressFn = Callable[[int, int], None]
"""Called as ``progress(done, total)`` while judging."""


@dataclass(frozen=True, slots=True)
class JudgeItem:
    """One thing to judge. ``score`` is the dataset's own score (used by the ``dataset`` judge).

    A slotted dataclass rather than a pydantic model: items are built from already-validated
    interactions, 100k at a time, where model construction alone cost about a second.
    """

    query: str
    answer: str
    ground_truth: str
    score: float | None = None


class Verdict(BaseModel):
    """A judge's answer for one item.

    Attributes:
        score: In [0, 1], or ``None`` when unscored (status ``failed``).
        reasoning: Why this score; precise enough to reproduce it.
        status: ``ok`` (judged now), ``failed`` (unscored), ``cached`` (taken from the cache).
        error: The failure, with raw model output when there was one.
        latency_s: Wall time of this item's judging (0 for cache hits).
        input_tokens: Prompt tokens reported by the provider, if any.
        output_tokens: Completion tokens reported by the provider, if any.
    """

    score: float | None = Field(default=None, ge=0.0, le=1.0)
    reasoning: str = ""
    status: Status = "ok"
    error: str | None = None
    latency_s: float = 0.0
    input_tokens: int | None = None
    output_tokens: int | None = None


class JudgeIdentity(BaseModel):
    """What produced a score: recorded with every result and used as the cache key.

    Never holds an API key.
    """

    model_config = ConfigDict(frozen=True)

    kind: str
    model: str | None = None
    prompt_version: str | None = None
    params: dict[str, Any] = Field(default_factory=dict)

    def fingerprint(self) -> str:
        """A stable hash of the identity (the cache's judge key)."""
        blob = json.dumps(self.model_dump(), sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()

    def label(self) -> str:
        """A short human label, e.g. ``llm (groq: llama-3.3-70b-versatile, prompt v1)``."""
        extra = []
        if self.params.get("provider"):
            extra.append(f"{self.params['provider']}: {self.model}")
        elif self.model:
            extra.append(str(self.model))
        if self.prompt_version:
            extra.append(f"prompt {self.prompt_version}")
        return f"{self.kind} ({', '.join(extra)})" if extra else self.kind


@runtime_checkable
class Judge(Protocol):
    """Scores answers against ground truths.

    Implementations must never raise for a single bad item: they return a ``failed``
    verdict with the error instead. They may raise :class:`~agentic_core.errors.JudgeConfigError`
    at construction (missing package, missing key).
    """

    identity: JudgeIdentity
    recommended_threshold: float
    """The threshold at which this judge's scores best separate right from wrong."""
    cacheable: bool
    """Whether verdicts may be stored in the persistent cache (false for the dataset judge)."""

    async def ajudge(self, items: Sequence[JudgeItem], progress: ProgressFn | None = None) -> list[Verdict]:
        """Judge every item; the result has the same length and order as ``items``."""
        ...
