"""The judge protocol: what every judge (offline, dataset, LLM) takes and returns.

A judge scores an answer against a ground truth in [0, 1]. A failure is *unscored*
(``score is None`` with ``status == "failed"`` and the error kept), never 0. So is an
abstention: a judge that is not sure answers ``status == "uncertain"`` with ``score is None``, its
probability and an error starting with ``uncertain`` (:func:`uncertain_verdict`), never 0 or 1.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import AsyncGenerator, Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict, Field

from agentic_core.judges.causes import UnscoredCause

Status = Literal["ok", "failed", "cached", "uncertain"]
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


def score_key(score: float | None) -> Hashable:
    """An item's score as the runner tells items apart: ``None`` is one value, ``0.0`` and ``-0.0`` two.

    (The two zeros are equal numbers, but a verdict's reasoning shows the sign: "score -0 taken
    from the dataset".)
    """
    return (score, str(score)) if score == 0 else score


_NAN_BITS = np.array([np.nan]).view(np.uint64)[0]


def score_bits(scores: npt.NDArray[np.float64]) -> npt.NDArray[np.uint64]:
    """:func:`score_key` for a column of scores (NaN = no score): equal bits exactly where equal keys.

    Bits keep ``0.0`` and ``-0.0`` apart; every NaN becomes the one "no score".
    """
    values = np.ascontiguousarray(scores, dtype=np.float64)
    bits = values.view(np.uint64).copy()
    bits[np.isnan(values)] = _NAN_BITS
    return bits


def item_key(item: JudgeItem) -> Hashable:
    """What tells items apart for a judge that may read the score too: the texts, and :func:`score_key`."""
    return (item.query, item.answer, item.ground_truth, score_key(item.score))


class Verdict(BaseModel):
    """A judge's answer for one item.

    Frozen: a verdict is shared by every item it answers (repeated items, equal dataset scores),
    so changing one in place would change them all; ``model_copy(update=...)`` makes a new one.

    Attributes:
        score: In [0, 1], or ``None`` when unscored (status ``failed`` or ``uncertain``).
        reasoning: Why this score; precise enough to reproduce it.
        status: ``ok`` (judged now), ``failed`` (unscored), ``cached`` (taken from the cache),
            ``uncertain`` (the judge abstained: unscored, with its probability).
        error: The failure, with raw model output when there was one.
        latency_s: Wall time of this item's judging (0 for cache hits).
        input_tokens: Prompt tokens reported by the provider, if any.
        output_tokens: Completion tokens reported by the provider, if any.
        probability: The judge's calibrated P(correct) when it has one (the ``learned`` judge, for
            its verdicts and its abstentions alike); ``None`` for other judges.
        cause: Why a ``failed`` verdict is unscored, when the judge classified it (the LLM judge does);
            ``None`` otherwise. Read it with :func:`~agentic_core.judges.causes.cause_of`, which also
            classifies verdicts recorded without one.
    """

    model_config = ConfigDict(frozen=True)

    score: float | None = Field(default=None, ge=0.0, le=1.0)
    reasoning: str = ""
    status: Status = "ok"
    error: str | None = None
    latency_s: float = 0.0
    input_tokens: int | None = None
    output_tokens: int | None = None
    probability: float | None = Field(default=None, ge=0.0, le=1.0)
    cause: UnscoredCause | None = None


def uncertain_verdict(probability: float, reasoning: str, why: str, latency_s: float = 0.0) -> Verdict:
    """An abstention: unscored (never 0, never 1), with the judge's probability and its reason.

    Args:
        probability: The judge's P(correct).
        reasoning: What the judge weighed, in words.
        why: Why it is not sure; the error becomes ``"uncertain: " + why``.
        latency_s: Wall time of the judging.
    """
    return Verdict(
        score=None,
        status="uncertain",
        probability=probability,
        reasoning=reasoning,
        error=f"uncertain: {why}",
        latency_s=latency_s,
    )


class FittedBand(BaseModel):
    """The abstention band a judge was fitted with: it decides where P(correct) <= low or >= high.

    Recorded with every run of such a judge (:attr:`~agentic_core.judges.runner.JudgeRun.fitted_band`), so
    the band can be a setting at aggregation time (``abstain_band``; unset means this band) without the
    judge at hand, on a run reopened from the history too.

    Attributes:
        low: At or below this probability the judge decides (the "incorrect" side).
        high: At or above it the judge decides (the "correct" side); strictly between, it abstains.
        holdout: The name of the fitted model whose holdout figures describe the band (the ``learned``
            judge's ``embedding`` or ``lexical``; see :mod:`agentic_core.judges.offline.holdout`), or
            ``None`` when there are none.
    """

    model_config = ConfigDict(frozen=True)

    low: float = Field(ge=0.0, le=1.0)
    high: float = Field(ge=0.0, le=1.0)
    holdout: str | None = None

    @property
    def edges(self) -> tuple[float, float]:
        """``(low, high)``."""
        return (self.low, self.high)


def fitted_band(judge: object) -> FittedBand | None:
    """A judge's fitted abstention band (its optional ``fitted_band`` attribute), ``None`` when it has none."""
    value = getattr(judge, "fitted_band", None)
    return value if isinstance(value, FittedBand) else None


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

    # The capabilities: what callers ask of a judge instead of testing its identity's kind or name. Read them
    # through :func:`capabilities`, which gives judges written before they existed the defaults. Properties
    # here, so a judge may declare them as class attributes, instance attributes or properties.
    @property
    def calls_llm(self) -> bool:
        """Whether judging calls an LLM (the ``llm`` judge, the ``cascade``): long runs over the network."""
        ...

    @property
    def reads_texts(self) -> bool:
        """Whether verdicts depend on the items' texts (false: only on their ``score``, as the dataset judge's)."""
        ...

    @property
    def abstains(self) -> bool:
        """Whether the judge may answer ``uncertain`` (unscored, with its probability): the ``learned`` judge."""
        ...

    @property
    def notice(self) -> str | None:
        """What to say before a run about how the judge runs (e.g. without its embedding model), or ``None``."""
        ...

    async def ajudge(self, items: Sequence[JudgeItem], progress: ProgressFn | None = None) -> list[Verdict]:
        """Judge every item; the result has the same length and order as ``items``."""
        ...


async def gather_stream(
    stream: AsyncGenerator[tuple[int, Verdict], None], total: int, progress: ProgressFn | None = None
) -> list[Verdict]:
    """The verdicts of an ``ajudge_stream`` in item order, reporting ``progress(done, total)`` as they come.

    The stream is closed on the way out (``aclosing``): when ``progress`` raises, a judge's calls still in
    flight are cancelled at once.

    Raises:
        RuntimeError: the stream left an item without a verdict (it must yield every index once).
    """
    results: list[Verdict | None] = [None] * total
    done = 0
    async with contextlib.aclosing(stream) as pairs:
        async for index, verdict in pairs:
            results[index] = verdict
            done += 1
            if progress is not None:
                progress(done, total)
    verdicts = [v for v in results if v is not None]
    if len(verdicts) != total:
        raise RuntimeError(f"{total - len(verdicts)} items were left without a verdict")
    return verdicts


@dataclass(frozen=True)
class Capabilities:
    """What a judge can do (see the :class:`Judge` protocol's properties of the same names)."""

    calls_llm: bool = False
    reads_texts: bool = True
    abstains: bool = False
    notice: str | None = None


def capabilities(judge: object) -> Capabilities:
    """A judge's capabilities, each read from its attribute of that name, with a default where it has none.

    The one way to ask a judge object what it can do. A judge written before the capabilities existed (a
    user's own class, passed to :func:`~agentic_core.evaluate.evaluate`) lacks them and must keep working:
    the defaults describe what such a judge was taken to be before, one that reads the texts, calls no LLM,
    never abstains and has no notice. A value of the wrong type counts as missing.

    ``reads_texts`` false (the dataset judge) lets :func:`~agentic_core.evaluate.evaluate` give the judge one
    text-less item per distinct score (:mod:`agentic_core.judges.score_runner`): building a million items'
    texts and hashing them cost about 3 s per million interactions for verdicts that never looked at them.
    """
    default = Capabilities()

    def flag(name: str) -> bool:
        value = getattr(judge, name, None)
        return value if isinstance(value, bool) else bool(getattr(default, name))

    notice = getattr(judge, "notice", None)
    return Capabilities(
        calls_llm=flag("calls_llm"),
        reads_texts=flag("reads_texts"),
        abstains=flag("abstains"),
        notice=notice if isinstance(notice, str) and notice else None,
    )
