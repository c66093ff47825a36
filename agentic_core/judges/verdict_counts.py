"""Verdicts counted by status and by unscored cause, and said in words.

One place for the counts every surface shows (the CLI summary, ``--json``, the endpoint, the Run
page): a verdict is *judged* (``ok`` now, or ``cached``), *uncertain* (the judge abstained:
unscored, never 0 or 1) or *failed* (unscored). Both unscored kinds are kept apart because they
mean different things: a failure is a fault to fix, an abstention is the judge saying it does not
know.

Two units are counted and never mixed in one breath: *interactions* (one verdict each, the status
counts above) and *distinct judge items* (identical interactions share one; cache hits and judge calls
count these). :func:`item_words` says the items first and then the interactions they cover.

Each unscored verdict also has its cause (:mod:`agentic_core.judges.causes`), counted and worded here once: "2
unscored: 2 timed out after 60 s (the server answered the first call in 29 s; try --timeout 120 or
--concurrency 1)".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

import pandas as pd
from pydantic import BaseModel, Field

from agentic_core.common.wording import plural
from agentic_core.judges.base import Verdict
from agentic_core.judges.causes import CAUSES, UnscoredCause, cause_from_text, cause_of
from agentic_core.judges.llm.timing import CallReport

__all__ = ["STATUSES", "VerdictCounts", "cause_counts", "item_words", "status_counts", "verdict_counts"]

STATUSES: tuple[str, ...] = ("ok", "failed", "cached", "uncertain")
"""Every verdict status, in the order a run's ``counts`` lists them."""


def status_counts(verdicts: Iterable[Verdict]) -> dict[str, int]:
    """Verdicts by status, every status present: ``{"ok": .., "failed": .., "cached": .., "uncertain": ..}``."""
    counts = dict.fromkeys(STATUSES, 0)
    for v in verdicts:
        counts[v.status] = counts.get(v.status, 0) + 1
    return counts


def cause_counts(verdicts: Iterable[Verdict]) -> dict[str, int]:
    """Unscored verdicts by cause, every cause present (see :func:`~agentic_core.judges.causes.cause_of`)."""
    counts = dict.fromkeys((str(c) for c in CAUSES), 0)
    known: dict[int, UnscoredCause | None] = {}  # repeated items share one verdict object: classify it once
    for v in verdicts:
        if v.status == "ok" or v.status == "cached":
            continue
        key = id(v)
        if key not in known:
            known[key] = cause_of(v)
        cause = known[key]
        if cause is not None:
            counts[str(cause)] += 1
    return counts


def _frame_causes(frame: pd.DataFrame) -> dict[str, int]:
    """:func:`cause_counts` of an interactions frame, read from its status and error columns."""
    counts = dict.fromkeys((str(c) for c in CAUSES), 0)
    unscored = frame[frame["judge_status"].isin(("failed", "uncertain"))]
    if unscored.empty or "judge_error" not in frame:
        return counts
    pairs = unscored.groupby(["judge_status", unscored["judge_error"].fillna("")], observed=True).size()
    for (status, error), n in pairs.items():
        cause = cause_from_text(str(status), str(error))
        if cause is not None:
            counts[str(cause)] += int(n)
    return counts


def _seconds(value: float) -> str:
    """``29 s``, ``1.5 s``: seconds as a person reads them (a decimal only below ten)."""
    return f"{value:.1f} s" if value < 10 else f"{value:.0f} s"


def _timed_out_words(n: int, calls: CallReport | None) -> str:
    """``2 timed out after 60 s (the server answered the first call in 29 s; try --timeout 120 or --concurrency 1)``."""
    if calls is None:
        return f"{n:,} timed out (raise --timeout, or lower --concurrency)"
    after = calls.timed_out_after_s if calls.timed_out_after_s is not None else calls.timeout_s
    first = (
        f"the server answered the first call in {_seconds(calls.first_reply_s)}"
        if calls.first_reply_s is not None
        else f"no call was answered within {after:g} s"
    )
    advice = [f"--timeout {calls.suggested_timeout_s:g}"] if calls.suggested_timeout_s else []
    if calls.concurrency > 1:
        advice.append("--concurrency 1")
    tried = f"; try {' or '.join(advice)}" if advice else ""
    return f"{n:,} timed out after {after:g} s ({first}{tried})"


_CAUSE_WORDS: dict[UnscoredCause, str] = {
    UnscoredCause.REFUSED_FORMAT: "{n} refused: the server would not answer in the reply format asked for "
    "(set --structured-output auto, or text)",
    UnscoredCause.INVALID_REPLY: "{replies} that are not judgements (unreadable, out of range, cut at the reply "
    "budget, or copying the rubric: each interaction's error says which)",
    UnscoredCause.RATE_LIMITED: "{n} rate limited beyond the retries (set --rps, or lower --concurrency)",
    UnscoredCause.SERVER_ERROR: "{errors} beyond the retries (HTTP 5xx: each interaction's error says which)",
    UnscoredCause.UNREACHABLE: "{n} could not reach the server (check --base-url and that the server runs)",
    UnscoredCause.REJECTED: "{n} rejected by the server (HTTP 4xx: check the API key, the model name and --base-url)",
    UnscoredCause.UNCERTAIN: "{n} uncertain (the judge abstained)",
    UnscoredCause.NOT_JUDGED: "{n} not judged (the run was cancelled first)",
    UnscoredCause.OTHER: "{n} failed otherwise (each interaction's error says why)",
}


def cause_words(cause: UnscoredCause, n: int, calls: CallReport | None = None) -> str:
    """One cause's count in words, with what to do about it (``calls``: the LLM judge's account, for timeouts)."""
    if cause is UnscoredCause.TIMED_OUT:
        return _timed_out_words(n, calls)
    replies = f"{n:,} {'reply' if n == 1 else 'replies'}"
    return _CAUSE_WORDS[cause].format(n=f"{n:,}", replies=replies, errors=plural(n, "server error"))


class VerdictCounts(BaseModel):
    """A run's verdicts in the three kinds a reader needs, and the unscored ones by cause.

    Attributes:
        judged: Scored verdicts (judged now or taken from the cache).
        uncertain: Abstentions (unscored, the reason starts with ``uncertain``).
        failed: Judge failures (unscored).
        causes: Unscored verdicts by cause (every cause present), or empty when only status counts were
            given (a stored ``counts`` mapping).
    """

    judged: int
    uncertain: int
    failed: int
    causes: dict[str, int] = Field(default_factory=dict)

    @property
    def unscored(self) -> int:
        """Verdicts without a score: abstentions and failures."""
        return self.uncertain + self.failed

    def words(self) -> str:
        """``"120 judged, 14 uncertain (unscored), 2 failed"`` (the uncertain part only with a judge that abstains)."""
        parts = [f"{self.judged:,} judged"]
        if self.uncertain:
            parts.append(f"{self.uncertain:,} uncertain (unscored)")
        parts.append(f"{self.failed:,} failed")
        return ", ".join(parts)

    def unscored_words(self, calls: CallReport | None = None) -> str:
        """The unscored verdicts by cause, each with what to do: ``"2 unscored: 2 timed out after 60 s (...)"``.

        Args:
            calls: The LLM judge's account of its calls (``JudgeRun.llm_calls``): the timeout and the first
                reply a timeout's words quote.

        Returns:
            The sentence; ``""`` when nothing is unscored. Without causes (status counts only), the unscored
            count alone.
        """
        if not self.unscored:
            return ""
        parts = self.cause_parts(calls)
        return f"{self.unscored:,} unscored" + (f": {'; '.join(parts)}" if parts else "")

    def cause_parts(self, calls: CallReport | None = None, *, uncertain: bool = True) -> list[str]:
        """Each cause's count in words (:func:`cause_words`), in :data:`~agentic_core.judges.causes.CAUSES` order.

        Args:
            calls: As :meth:`unscored_words`.
            uncertain: Whether to include the abstentions.
        """
        return [
            cause_words(UnscoredCause(c), n, calls)
            for c, n in self.causes.items()
            if n and (uncertain or c != UnscoredCause.UNCERTAIN)
        ]


def verdict_counts(source: Mapping[str, int] | Any) -> VerdictCounts:
    """The counts of a run, from its ``counts``, a run, a result or an interactions frame.

    Args:
        source: A status -> count mapping (``JudgeRun.counts``; older stored runs lack
            ``uncertain``), anything with a ``judge_run`` (an evaluation result) or ``counts``
            (a judge run), or a frame with a ``judge_status`` column (one row per interaction).

    Returns:
        The counts.

    Raises:
        TypeError: ``source`` is none of these.
    """
    if hasattr(source, "judge_run"):
        source = source.judge_run
    verdicts = getattr(source, "verdicts", None)
    frame = source if isinstance(source, pd.DataFrame) and "judge_status" in source.columns else None
    if hasattr(source, "counts") and isinstance(source.counts, Mapping):
        source = source.counts
    if frame is not None:
        source = frame["judge_status"].value_counts().to_dict()
    if not isinstance(source, Mapping):
        raise TypeError(f"verdict_counts takes counts, a run, a result or a frame, not {type(source).__name__}")
    count = {str(k): int(v) for k, v in source.items()}
    causes: dict[str, int] = {}
    if isinstance(verdicts, list) or frame is not None:
        causes = dict.fromkeys((str(c) for c in CAUSES), 0)
        if count.get("failed", 0) or count.get("uncertain", 0):  # a million scored verdicts need no walk
            causes = cause_counts(verdicts) if isinstance(verdicts, list) else _frame_causes(frame)
    return VerdictCounts(
        judged=count.get("ok", 0) + count.get("cached", 0),
        uncertain=count.get("uncertain", 0),
        failed=count.get("failed", 0),
        causes=causes,
    )


class ItemTally(Protocol):
    """What :func:`item_words` reads of a judge run (:class:`~agentic_core.judges.runner.JudgeRun` has it)."""

    counts: dict[str, int]
    cache_hits: int
    model_calls: int
    duplicates: int
    cache_mode: str


def item_words(run: ItemTally) -> str:
    """Distinct judge items, where their verdicts came from, then the interactions they cover.

    ``"248 distinct items: 248 from the cache, 0 sent to the judge, covering 344 interactions (96 repeat an
    earlier item and share its verdict)"``. Cache hits and judge calls count distinct items, the status
    counts interactions: "303 from the cache" beside "248 hits" read as two answers to one question.

    Args:
        run: A judge run.
    """
    interactions = sum(run.counts.values())
    distinct = interactions - run.duplicates
    if run.cache_mode == "use":
        parts = [f"{run.cache_hits:,} from the cache", f"{run.model_calls:,} sent to the judge"]
    else:
        parts = [f"{run.model_calls:,} sent to the judge (cache {run.cache_mode})"]
    rest = distinct - run.cache_hits - run.model_calls
    if rest > 0:  # a run stopped early: what was neither found nor judged
        parts.append(f"{rest:,} not judged")
    verb = "repeats an earlier item and shares" if run.duplicates == 1 else "repeat an earlier item and share"
    repeats = f" ({run.duplicates:,} {verb} its verdict)" if run.duplicates else ""
    covered = f"{interactions:,} interaction{'' if interactions == 1 else 's'}"
    return f"{distinct:,} distinct item{'' if distinct == 1 else 's'}: {', '.join(parts)}, covering {covered}{repeats}"
