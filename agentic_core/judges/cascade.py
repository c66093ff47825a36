"""The ``cascade`` judge: the offline judge decides what it is sure of, the LLM judges only the rest.

The offline judge runs on every item first. Its verdicts stand where it is sure; the items it
returns as ``uncertain`` (an abstention: unscored, with a calibrated probability) go to the LLM
judge, and the LLM's verdict stands for them. Every verdict's reasoning says which judge decided:

* ``offline judge decided (p=0.97): ...``: the offline judge's verdict, unchanged but for the prefix;
* ``offline judge uncertain (p=0.55: <why>); LLM: ...``: the LLM's verdict;
* ``offline judge failed; not sent to the LLM``: unscored, with the offline judge's error.

An LLM failure stays ``failed`` (unscored): the cascade never falls back to the uncertain offline
probability as a score. An offline *failure* is not sent to the LLM either: the offline judges fail
on inputs they cannot read or when their model cannot run (the embedding model missing or broken,
which fails the whole batch), and a cheap run must not silently turn into one LLM call per item.

An offline verdict whose score falls on a different side of the cascade's threshold (the LLM's)
than of the offline judge's own threshold is not taken as decided (its pass or fail would flip
under the cascade): it goes to the LLM, and its reasoning says why.

The counts (:class:`CascadeCounts`) are read back from any run's verdicts by :func:`cascade_counts`
(cache hits, Ray workers and runs reloaded from the history included), which is what the CLI, the
endpoint and the Run page show.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncGenerator, Sequence
from typing import Any

from pydantic import BaseModel

from agentic_core.common.passing import reaches
from agentic_core.judges.base import (
    FittedBand,
    Judge,
    JudgeIdentity,
    JudgeItem,
    ProgressFn,
    Verdict,
    capabilities,
    fitted_band,
    gather_stream,
)
from agentic_core.judges.llm.timing import CallReport, report_of
from agentic_core.judges.runner import stream_verdicts

CASCADE_VERSION = "cascade-v1"
"""Bump when the routing or the reasoning's prefixes change (cached verdicts are keyed by it)."""
OFFLINE_PREFIX = "offline judge decided"
LLM_PREFIX = "offline judge uncertain"
OFFLINE_FAILED_PREFIX = "offline judge failed"
OFFLINE_CHUNK = 1024
"""Items given to the offline judge at a time: its sure verdicts reach the runner (progress, cache)
chunk by chunk instead of all at the end."""


class CascadeCounts(BaseModel):
    """Who decided, over interactions.

    Attributes:
        decided_offline: Decided by the offline judge (it was sure).
        sent_to_llm: The offline judge was uncertain: the LLM judge was asked.
        llm_failed: Of ``sent_to_llm``, how many the LLM failed on (unscored).
        offline_failed: The offline judge failed (unscored, not sent to the LLM).
        from_cache: Of all the above, how many were answered by the judge cache (no call this run).
        llm_input_tokens: Prompt tokens the LLM reported for the items sent to it.
        llm_output_tokens: Completion tokens the LLM reported.
    """

    decided_offline: int = 0
    sent_to_llm: int = 0
    llm_failed: int = 0
    offline_failed: int = 0
    from_cache: int = 0
    llm_input_tokens: int = 0
    llm_output_tokens: int = 0

    @property
    def total(self) -> int:
        """Everything counted: decided offline, sent to the LLM, and offline failures."""
        return self.decided_offline + self.sent_to_llm + self.offline_failed

    @property
    def llm_share(self) -> float | None:
        """The share sent to the LLM (``None`` when nothing was counted)."""
        return self.sent_to_llm / self.total if self.total else None

    def as_json(self) -> dict[str, Any]:
        """The counts and the LLM share, as ``--json`` and the endpoint give them."""
        share = self.llm_share
        return {**self.model_dump(), "total": self.total, "llm_share": None if share is None else round(share, 6)}

    def summary(self) -> str:
        """One line: how many went to the LLM, e.g. ``12 of 100 interaction(s) went to the LLM judge (12.0%)``."""
        share = self.llm_share
        text = f"{self.sent_to_llm:,} of {self.total:,} interaction(s) went to the LLM judge"
        if share is not None:
            text += f" ({share:.1%})"
        text += f"; {self.decided_offline:,} decided by the offline judge"
        extra = []
        if self.llm_failed:
            extra.append(f"{self.llm_failed:,} LLM failure(s), unscored")
        if self.offline_failed:
            extra.append(f"{self.offline_failed:,} offline failure(s), unscored and not sent")
        if self.from_cache:
            extra.append(f"{self.from_cache:,} answered by the cache")
        return text + (f" ({'; '.join(extra)})" if extra else "")


def _p_text(p: float | None) -> str:
    return "p=n/a" if p is None else f"p={p:.2f}"


def _why_uncertain(verdict: Verdict) -> str:
    """The offline judge's reason for abstaining: its error without the ``uncertain:`` tag, else its reasoning."""
    error = (verdict.error or "").strip()
    if error.lower().startswith("uncertain:"):
        error = error[len("uncertain:") :].strip()
    return error or verdict.reasoning.strip() or "no reason given"


def cascade_counts(verdicts: Sequence[Verdict]) -> CascadeCounts:
    """Who decided each verdict of a cascade run, read from the verdicts' reasoning prefixes.

    Works on any run of the cascade judge (cache hits and Ray runs included, whose judge object
    the caller never saw). Repeated verdict objects (repeated interactions) count once per
    interaction, as the run's status counts do.

    Args:
        verdicts: One verdict per interaction (``result.judge_run.verdicts``).

    Returns:
        The counts; every verdict lands in exactly one of decided_offline, sent_to_llm or
        offline_failed (a verdict without a cascade prefix counts as decided offline, which
        only a verdict from another judge can be).
    """
    decided = sent = llm_failed = offline_failed = cached = tokens_in = tokens_out = 0
    for v in verdicts:
        if v.status == "cached":
            cached += 1
        reasoning = v.reasoning
        if reasoning.startswith(LLM_PREFIX):
            sent += 1
            llm_failed += v.status == "failed"
            if v.status != "cached":  # a cache hit cost no tokens in this run
                tokens_in += v.input_tokens or 0
                tokens_out += v.output_tokens or 0
        elif reasoning.startswith(OFFLINE_FAILED_PREFIX):
            offline_failed += 1
        else:
            decided += 1
    return CascadeCounts(
        decided_offline=decided,
        sent_to_llm=sent,
        llm_failed=llm_failed,
        offline_failed=offline_failed,
        from_cache=cached,
        llm_input_tokens=tokens_in,
        llm_output_tokens=tokens_out,
    )


def result_cascade_counts(result: Any) -> CascadeCounts | None:
    """:func:`cascade_counts` of an evaluation result, or ``None`` when its judge is not the cascade.

    Args:
        result: An :class:`~agentic_core.result.EvaluationResult`.
    """
    run = result.judge_run
    return cascade_counts(run.verdicts) if run.identity.kind == "cascade" else None


class CascadeJudge:
    """The offline judge where it is sure, the LLM judge for the items it is uncertain of.

    Args:
        offline: An offline judge; the items it returns with status ``uncertain`` go to ``llm``.
        llm: The LLM judge (any :class:`~agentic_core.judges.base.Judge`).
    """

    calls_llm, reads_texts = True, True
    abstains = False
    """What the offline judge is unsure of goes to the LLM: the cascade's verdicts are decided or failed."""

    def __init__(self, offline: Judge, llm: Judge) -> None:
        self.offline = offline
        self.llm = llm
        # The LLM's threshold: every verdict the cascade is unsure of is the LLM's, on the LLM's
        # score scale, and an offline verdict that would pass or fail differently at this
        # threshold than at its own is sent to the LLM too (see the module docstring).
        self.recommended_threshold = float(llm.recommended_threshold)
        self.cacheable = bool(offline.cacheable and llm.cacheable)
        self.identity = JudgeIdentity(
            kind="cascade",
            model=llm.identity.model,
            prompt_version=llm.identity.prompt_version,
            params={
                "version": CASCADE_VERSION,
                # Both judges' fingerprints: a change to either changes the cache key.
                "offline": offline.identity.fingerprint(),
                "offline_label": offline.identity.label(),
                "llm": llm.identity.fingerprint(),
                "llm_label": llm.identity.label(),
                **{k: v for k, v in llm.identity.params.items() if k in ("provider", "base_url")},
            },
        )

    @property
    def warnings(self) -> list[str]:
        """Both judges' warnings (the runner copies them into the run)."""
        return [*(getattr(self.offline, "warnings", None) or []), *(getattr(self.llm, "warnings", None) or [])]

    @property
    def notice(self) -> str | None:
        """The offline judge's notice (e.g. running without its embedding model), shown before a run."""
        return capabilities(self.offline).notice

    @property
    def fitted_band(self) -> FittedBand | None:
        """The offline judge's band: at judging time it decided which items the LLM saw."""
        return fitted_band(self.offline)

    @property
    def stats(self) -> Any:
        """The LLM judge's counters (retries, re-asks), which the runner reports per run."""
        return getattr(self.llm, "stats", None)

    def call_report(self) -> CallReport | None:
        """What the LLM judge's calls showed (its timeout, the first reply, the server)."""
        return report_of(self.llm)

    async def ajudge(self, items: Sequence[JudgeItem], progress: ProgressFn | None = None) -> list[Verdict]:
        """Judge every item (see the class); ``progress`` counts verdicts of both stages as they are known."""
        verdicts = await gather_stream(self.ajudge_stream(items), len(items), progress)
        if progress is not None and not items:
            progress(0, 0)
        return verdicts

    async def ajudge_stream(self, items: Sequence[JudgeItem]) -> AsyncGenerator[tuple[int, Verdict], None]:
        """``(index, verdict)`` pairs: the offline judge's sure ones chunk by chunk, then the LLM's as they come."""
        uncertain: list[tuple[int, Verdict, str]] = []  # (index, offline verdict, why it goes to the LLM)
        async with contextlib.aclosing(stream_verdicts(self.offline, items, OFFLINE_CHUNK)) as offline_stream:
            async for index, verdict in offline_stream:
                routed = self._route(verdict)
                if routed is None:
                    yield index, self._offline_verdict(verdict)
                else:
                    uncertain.append((index, verdict, routed))
        if not uncertain:
            return
        async with contextlib.aclosing(stream_verdicts(self.llm, [items[i] for i, _, _ in uncertain])) as stream:
            async for position, verdict in stream:
                index, offline, why = uncertain[position]
                yield index, self._llm_verdict(offline, why, verdict)

    def _route(self, verdict: Verdict) -> str | None:
        """``None`` when the offline verdict stands; else why the item goes to the LLM."""
        if verdict.status == "uncertain":
            return _why_uncertain(verdict)
        if verdict.status == "failed" or verdict.score is None:
            return None
        own = reaches(verdict.score, float(self.offline.recommended_threshold))
        if own != reaches(verdict.score, self.recommended_threshold):
            side = "passes" if own else "fails"
            return (
                f"its score {verdict.score:.3f} {side} at its own threshold "
                f"{float(self.offline.recommended_threshold):g} but not at the cascade's {self.recommended_threshold:g}"
            )
        return None

    def _offline_verdict(self, verdict: Verdict) -> Verdict:
        p = _p_text(verdict.probability)
        if verdict.status == "failed" or verdict.score is None:
            return verdict.model_copy(
                update={"reasoning": f"{OFFLINE_FAILED_PREFIX}; not sent to the LLM. {verdict.reasoning}".strip()}
            )
        return verdict.model_copy(update={"reasoning": f"{OFFLINE_PREFIX} ({p}): {verdict.reasoning}"})

    def _llm_verdict(self, offline: Verdict, why: str, verdict: Verdict) -> Verdict:
        prefix = f"{LLM_PREFIX} ({_p_text(offline.probability)}: {why}); LLM: "
        if verdict.status == "failed" or verdict.score is None:
            # Unscored, never the offline probability as a fallback score.
            return verdict.model_copy(
                update={
                    "status": "failed",
                    "score": None,
                    "reasoning": f"{prefix}failed, so unscored. {verdict.reasoning}".strip(),
                    "latency_s": verdict.latency_s + offline.latency_s,
                }
            )
        return verdict.model_copy(
            update={"reasoning": prefix + verdict.reasoning, "latency_s": verdict.latency_s + offline.latency_s}
        )
