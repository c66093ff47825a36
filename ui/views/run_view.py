"""The Run page's view model: what a run will cost and what a finished run did, decided without Streamlit.

``pages/run.py`` reads its widgets, calls these functions and renders what they return: the LLM
settings as one validated :class:`~agentic_core.judges.LLMSpec`, the words on what the agentic metrics
add, the note under the estimate, and the finished run's cards and failure tables (:class:`RunSummary`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pandas as pd

from agentic_core import EvaluationResult
from agentic_core.agentic_metrics import MetricName
from agentic_core.analysis import why_llm_scored_nothing
from agentic_core.common import ResultCols
from agentic_core.data import Conversation
from agentic_core.judges import (
    CACHE_MODES,
    CacheMode,
    CascadeSpec,
    DatasetSpec,
    JudgeSpecBase,
    LLMSpec,
    item_words,
    spec_class_of,
    verdict_counts,
)


def llm_settings(
    provider: str, model: str, base_url: str, api_key: str | None, limits: Mapping[str, float | None]
) -> LLMSpec:
    """The LLM judge's spec of the page's fields: an empty text is "not given", a 0 rate is "no limit".

    Args:
        provider: The chosen provider's key.
        model: The model field.
        base_url: The base URL field ("" when empty).
        api_key: The password field ("" or ``None`` when empty: the environment's key is used).
        limits: The number fields by option name (``concurrency``, ``rps``, ``timeout_s``, ``max_tokens``);
            ``None`` where a field was left empty (the timeout's).

    Raises:
        JudgeConfigError: a value the spec refuses (a base URL the provider needs, a key nowhere to be found).
    """
    return LLMSpec(
        provider=provider,
        model=model,
        base_url=base_url or None,
        api_key=api_key or None,
        concurrency=int(limits["concurrency"] or 0),
        # A page's number field needs a number: 0 stands for "no limit" there.
        rps=float(limits["rps"] or 0) or None,
        # An empty timeout field is "not set": 60 s, adapting to the server; a number typed is kept.
        timeout_s=None if limits["timeout_s"] is None else float(limits["timeout_s"]),
        max_tokens=int(limits["max_tokens"] or 0),
    )


def key_caption(label: str, key_env: str, key_required: bool, typed: bool, env_set: bool) -> str:
    """Where the provider's API key is read from now: the field, or the environment variable (set or not)."""
    state = "set" if env_set else "not set"
    where = "the key field above" if typed else f"the environment variable **{key_env}** ({state})"
    need = "" if key_required else " (optional for this provider)"
    return f"{label} reads its API key from {key_env}{need}. Key used now: {where}."


def metric_calls(conversations: Sequence[Conversation], metrics: Sequence[MetricName], llm: bool) -> str:
    """What the asked agentic metrics add to the run, in words.

    Args:
        conversations: The active data's conversations.
        metrics: The metrics asked for.
        llm: Whether the chosen judge is the LLM judge (else the metrics use their offline judges).
    """
    parts = []
    if "tool_call_accuracy" in metrics:
        parts.append("tool call accuracy needs no judge")
    if "topic_adherence" in metrics:
        queries = sum(len(c.conversation) for c in conversations if c.reference_topics)
        how = "the LLM judge classifies each" if llm else "classified offline (approximate)"
        parts.append(f"topic adherence: {queries:,} queries of conversations with reference topics, {how}")
    if "goal_accuracy" in metrics:
        with_ref = sum(1 for c in conversations if c.reference)
        if llm:
            parts.append(
                f"goal accuracy: one LLM call per conversation ({len(conversations):,}; {with_ref:,} "
                "with a reference, the others' goal inferred from the user's turns)"
            )
        else:
            parts.append(
                f"goal accuracy: {with_ref:,} conversations with a reference, scored offline by the "
                "lexical judge (without a reference: unscored, it needs the LLM judge)"
            )
    cached = " Judge calls are cached like answer verdicts." if llm else ""
    return "; ".join(parts) + "." + cached


def cache_of(choice: str | None) -> CacheMode:
    """The cache mode a radio returned, typed (``None``, before a choice exists, is the default ``use``)."""
    if choice is not None and choice not in CACHE_MODES:
        raise ValueError(f"cache mode {choice!r} is not one of {CACHE_MODES}")
    return "refresh" if choice == "refresh" else "off" if choice == "off" else "use"


def plan_note(spec: JudgeSpecBase, cacheable: bool, cache_mode: str, distinct: int, calls: int) -> str:
    """The sentence under "Judge calls needed": what the judge and the cache mode make of the distinct items."""
    if isinstance(spec, DatasetSpec):
        note = "This judge reads each interaction's own score: no model is called and the cache is not used."
    elif not cacheable:
        note = "This judge runs locally and is not cached (recomputing is as fast as a cache lookup)."
    elif cache_mode == "use":
        note = f"{distinct - calls:,} of them are already in the cache."
    elif cache_mode == "refresh":
        note = "Cache mode *refresh*: every distinct item is judged again and the cache overwritten."
    else:
        note = "Cache mode *off*: every distinct item is judged, nothing is stored."
    if isinstance(spec, CascadeSpec):
        note += (
            f" The offline judge looks at the {calls:,} first; the LLM is asked only about those it is "
            "uncertain of (after the run: how many went to the LLM)."
        )
    return note


@dataclass(frozen=True)
class MetricCard:
    """One number card of the finished run: label, value, tooltip."""

    label: str
    value: str
    help: str


@dataclass(frozen=True)
class RunSummary:
    """What the Run page shows of the active run.

    Attributes:
        cards: The five number cards, left to right.
        caption: The calls, cache, tokens and time in one sentence.
        reads_scores: Whether the judge only read the data's own scores (the dataset judge).
        agentic: The agentic metrics' line, or ``""`` when none were computed.
        agentic_notes: The agentic metrics' warnings.
        failure_reasons: Failed interactions by reason (``reason``, ``interactions``); empty when none failed.
        failures: The failed interactions (session, question, query, reason); empty when none failed.
        unscored_summary: The unscored interactions by cause in words, with what to do (``""`` when none).
        unscored_causes: The same as a table (``cause``, ``interactions``); empty when none.
        llm_failed: For a cascade whose LLM scored none of what it was sent: that, and why (else ``""``).
    """

    cards: list[MetricCard]
    caption: str
    reads_scores: bool
    agentic: str = ""
    agentic_notes: list[str] = field(default_factory=list)
    failure_reasons: pd.DataFrame = field(default_factory=pd.DataFrame)
    failures: pd.DataFrame = field(default_factory=pd.DataFrame)
    unscored_summary: str = ""
    unscored_causes: pd.DataFrame = field(default_factory=pd.DataFrame)
    llm_failed: str = ""


def _cards(result: EvaluationResult, reads_scores: bool, uncertain: int) -> list[MetricCard]:
    jr = result.judge_run
    ok, cached, failed = (jr.counts.get(name, 0) for name in ("ok", "cached", "failed"))
    if reads_scores:
        # The dataset judge calls nothing: it reads each interaction's own score.
        first = [
            MetricCard("Scores read", f"{ok:,}", "Interactions whose own score field was read"),
            MetricCard("Judge calls made", "0", "The dataset judge calls no model"),
        ]
    elif spec_class_of(jr.identity) is CascadeSpec:
        first = [
            MetricCard(
                "Items judged",
                f"{jr.model_calls:,}",
                "Distinct items given to the cascade: the offline judge saw "
                "all of them, the LLM only its uncertain ones ('Sent to the LLM' below)",
            ),
            MetricCard(
                "Scored by those calls",
                f"{ok:,}",
                "Interactions scored in this run; identical interactions share one call",
            ),
        ]
    else:
        first = [
            MetricCard(
                "Judge calls made",
                f"{jr.model_calls:,}",
                "Distinct items sent to the judge: what 'Judge calls "
                "needed' estimated (cache hits and duplicates excluded)",
            ),
            MetricCard(
                "Scored by those calls",
                f"{ok:,}",
                "Interactions scored in this run; identical interactions share one call",
            ),
        ]
    return [
        *first,
        MetricCard(
            "From the cache",
            f"{cached:,}",
            f"Interactions answered by the cache: {jr.cache_hits:,} distinct items found there, each covering the "
            "interactions that repeat it",
        ),
        MetricCard(
            "Failed (unscored)", f"{failed:,}", "Interactions the judge could not score: unscored, never counted as 0"
        ),
        MetricCard(
            "Uncertain (unscored)",
            f"{uncertain:,}",
            "Interactions the judge abstained on: unscored, never counted as 0 or 1",
        ),
    ]


def uncertain_count(frame: pd.DataFrame) -> int:
    """Interactions the judge abstained on (status ``uncertain``: unscored, never 0 or 1)."""
    if ResultCols.JUDGE_STATUS not in frame or frame.empty:
        return 0
    return verdict_counts(frame).uncertain


def run_summary(result: EvaluationResult) -> RunSummary:
    """The cards, sentences and failure tables of a finished run."""
    jr = result.judge_run
    reads_scores = spec_class_of(jr.identity) is DatasetSpec  # the run's record: its judge is not at hand
    if reads_scores:
        caption = (
            f"The dataset judge reads each interaction's own score: no model is called and the cache is not "
            f"used. Time: {jr.elapsed_s:.1f} s."
        )
    else:
        # Distinct items (calls, cache hits) and interactions (the cards) in separate clauses: "303 from the
        # cache" beside "248 hits" read as two answers to one question.
        caption = (
            f"{item_words(jr)}. {jr.retries:,} retries, {jr.reasks:,} re-asked after an ambiguous reply. "
            f"Tokens: {jr.input_tokens:,} in, {jr.output_tokens:,} out. Time: {jr.elapsed_s:.1f} s."
        )
    agentic, notes = "", []
    if result.agentic is not None:
        metrics = result.agentic
        goals = f" (goals: {metrics.goal_judge})" if metrics.goal_judge else ""
        agentic = (
            f"**Agentic metrics:** {', '.join(m.replace('_', ' ') for m in metrics.metrics)}, judged by "
            f"{metrics.judge}{goals}; {metrics.model_calls:,} judge calls, {metrics.cache_hits:,} from the cache."
        )
        notes = list(metrics.warnings)
    frame = result.interactions
    failed = frame[frame[ResultCols.JUDGE_STATUS] == "failed"]
    reasons = failed[ResultCols.JUDGE_ERROR].fillna("(no reason given)").value_counts()
    rows = failed[[ResultCols.SESSION_ID, ResultCols.QA_ID, ResultCols.QUERY, ResultCols.JUDGE_ERROR]]
    counts = verdict_counts(result)
    causes = [(cause.replace("_", " "), n) for cause, n in counts.causes.items() if n]
    return RunSummary(
        cards=_cards(result, reads_scores, uncertain_count(frame)),
        caption=caption,
        reads_scores=reads_scores,
        agentic=agentic,
        agentic_notes=notes,
        failure_reasons=reasons.rename_axis("reason").reset_index(name="interactions"),
        failures=rows.rename(columns={ResultCols.JUDGE_ERROR: "reason"}),
        unscored_summary=counts.unscored_words(jr.llm_calls),
        unscored_causes=pd.DataFrame(causes, columns=["cause", "interactions"]),
        llm_failed=why_llm_scored_nothing(result) or "",
    )
