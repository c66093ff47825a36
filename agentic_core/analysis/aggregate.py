"""Aggregation: every slider setting applied to a judged run, vectorised; never calls a judge.

Thresholds, tool weights, K, unit, estimator, mode, prior and interval level are applied here with
numpy over the arrays :func:`~agentic_core.evaluate.evaluate` stored. Whether each interaction
passes is decided once, here, by :func:`agentic_core.common.passing.reaches`, and stored in
:attr:`Aggregate.interactions`: tables, verdict sentences and exports read that column.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cached_property, partial

import numpy as np
import pandas as pd
from pydantic import BaseModel, ConfigDict

from agentic_core import stats
from agentic_core.analysis.abstention import band_verdicts, judge_probabilities
from agentic_core.analysis.corrected_reading import CorrectedReading, corrected_reading
from agentic_core.analysis.k_evidence import KEvidence, k_evidence, withhold
from agentic_core.analysis.statistics_words import StatisticsUsed, curve_options, describe_statistics, table_options
from agentic_core.analysis.tool_summary import ToolSummary, tool_summary
from agentic_core.common.frame_columns import (
    AT_K,
    CORRECT,
    INCORRECT,
    PER_CONVERSATION,
    UNSCORED,
    ConversationCols,
    GroupCols,
    InteractionCols,
    ResultCols,
    StatCols,
)
from agentic_core.common.passing import reaches
from agentic_core.common.wording import plural
from agentic_core.result import EvaluationResult
from agentic_core.settings import K_AUTO_MAX, K_AUTO_SUPPORT, N_SAMPLES_RANGE, AggregateSettings, Unit
from agentic_core.tools import NOT_SCORED, overall_vectorised


class Counts(BaseModel):
    """How many conversations and interactions the numbers rest on.

    Attributes:
        conversations: Conversations evaluated.
        scored_conversations: Conversations counted in the rates.
        unscored_conversations: Conversations left out because an interaction is unscored.
        correct_conversations: Conversations with every interaction correct.
        interactions: Interactions evaluated.
        unscored_interactions: Interactions the judge could not score.
        correct_interactions: Interactions counted correct.
        tool_interactions: Interactions where tool correctness applies.
        groups: Groups of the unit of trial.
        empty_groups: Groups with no scored attempt (excluded).
        uncertain_interactions: Of the unscored interactions, those the judge abstains on under the
            settings' abstention band (the others failed).
    """

    model_config = ConfigDict(frozen=True)

    conversations: int
    scored_conversations: int
    unscored_conversations: int
    correct_conversations: int
    interactions: int
    unscored_interactions: int
    correct_interactions: int
    tool_interactions: int
    groups: int
    empty_groups: int
    uncertain_interactions: int = 0


class Rate(BaseModel):
    """The success rate (pass@1 by the curve's own method) with its interval.

    Attributes:
        value: The rate, or ``None`` when undefined (nothing scored).
        ci: ``(low, high)`` at the settings' level, or ``None``.
        interval_method: How ``ci`` was obtained (see :func:`agentic_core.stats.describe_method`).
        observed: The plain share of scored conversations that are fully correct (no model, no
            prior); shown only labelled "observed".
    """

    model_config = ConfigDict(frozen=True)

    value: float | None
    ci: tuple[float, float] | None
    interval_method: stats.IntervalMethod | None
    observed: float | None = None


class PointValues(BaseModel):
    """Point values of the success rate, pass@K and pass^K (no intervals)."""

    model_config = ConfigDict(frozen=True)

    success_rate: float | None
    pass_at_k: float | None
    pass_pow_k: float | None


class UnscoredBounds(BaseModel):
    """What the headline would be if every unscored interaction were incorrect, or correct.

    Excluding judge failures can flatter a result (an answer that confuses the judge leaves the
    denominator); these two bracket it.

    Attributes:
        unscored_interactions: How many interactions the judge could not score.
        as_incorrect: The headline counting all of them incorrect.
        as_correct: The headline counting all of them correct.
    """

    model_config = ConfigDict(frozen=True)

    unscored_interactions: int
    as_incorrect: PointValues
    as_correct: PointValues


@dataclass
class Aggregate:
    """The numbers for one choice of settings.

    Attributes:
        settings: The settings applied.
        unit: The unit of trial actually used (``auto`` resolved).
        unit_reason: Why that unit (for ``auto``) in words.
        curve: Dataset-level pass@k / pass^k for k = 1..K with intervals; ``None`` at a k the data does not
            measure (one attempt per task), the point's last note saying why (:attr:`k_evidence`).
        headline: The curve point at k = K.
        interpretation: Seed-001 label on the headline pass@K / pass^K (None if undefined or not measured).
        conversations: One row per conversation (seed-003 numbers, status, per-conversation pass@K);
            columns :class:`~agentic_core.common.frame_columns.ConversationCols`.
        interactions: One row per interaction: ``score`` (under the abstention band), ``unscored``,
            ``passes_threshold`` (the answer score reaches the threshold), ``correct`` (what the rates
            count: passes, and tool use correct when required; a human override's verdict where there is
            one), ``tool_overall``, ``tool_correct``, ``overridden``, ``judge_probability`` (the judge's
            P(correct), NaN when none) and ``uncertain`` (the band abstains on it)
            (:class:`~agentic_core.common.frame_columns.InteractionCols`).
        groups: One row per unit group (task, the single conversation group, or conversation):
            ``n``, ``c``, per-group pass@K / pass^K with intervals
            (:class:`~agentic_core.common.frame_columns.GroupCols`).
        tool_summary: Mean of each tool dimension and overall with intervals, and counts.
        counts: Conversation / interaction counts, unscored and excluded numbers.
        success_rate: The success rate: pass@1 by the curve's method over every group with an attempt
            (the same at every K; the curve names the groups each k leaves out).
        k: The K used (``auto`` resolved).
        k_reason: Why that K, in words.
        excluded_groups: Keys of the groups left out of the curve (too few attempts, none scored).
        statistics: The mode, target, estimator, prior and interval method, in words.
        k_evidence: Whether the data measures pass@K / pass^K at this K (repeated attempts per task) and,
            when not, the sentence saying why and what would: then the headline's pass@K / pass^K, the
            curve beyond the measured k, the interpretation and the unscored bounds' pass@K / pass^K are
            ``None`` (:mod:`agentic_core.analysis.k_evidence`).
        unscored: The headline with unscored interactions counted incorrect and correct (``None``
            when everything was scored).
        elapsed_s: Wall time of the aggregation.
        result: The run aggregated (what :attr:`corrected` reads).
    """

    settings: AggregateSettings
    unit: Unit
    unit_reason: str
    curve: list[stats.CurvePoint]
    headline: stats.CurvePoint
    interpretation: stats.Label | None
    conversations: pd.DataFrame
    interactions: pd.DataFrame
    groups: pd.DataFrame
    tool_summary: ToolSummary
    counts: Counts
    success_rate: Rate
    k: int
    k_reason: str
    excluded_groups: list[str]
    statistics: StatisticsUsed
    k_evidence: KEvidence
    unscored: UnscoredBounds | None = None
    elapsed_s: float = 0.0
    result: EvaluationResult | None = field(default=None, repr=False)

    @cached_property
    def corrected(self) -> CorrectedReading | None:
        """The headline corrected for the judge's errors with the run's human labels (None without labels).

        Computed on first use, so a slider move pays for it only where it is shown.
        """
        return None if self.result is None else corrected_reading(self.result, self)


def resolve_unit(result: EvaluationResult, settings: AggregateSettings) -> tuple[Unit, str]:
    """Resolve ``auto`` to ``task`` when some task has 2+ attempts, else ``conversation``."""
    if settings.unit != "auto":
        return settings.unit, f"unit '{settings.unit}' chosen in the settings"
    attempts = np.bincount(result.task_codes, minlength=len(result.task_keys))
    multi = int(np.sum(attempts >= 2))
    if multi:
        return "task", (
            f"'auto' chose 'task': {multi} of {len(result.task_keys)} tasks have 2 or more attempts, "
            "so pass@k is computed per task over its attempts and averaged over tasks"
        )
    return "conversation", (
        "'auto' chose 'conversation': no task has 2 or more attempts, so all conversations are "
        "treated as attempts at one task"
    )


def tool_overall(result: EvaluationResult, settings: AggregateSettings) -> np.ndarray:
    """Overall tool score per interaction under the settings' weights (NaN = not applicable)."""
    return overall_vectorised(result.tool_arrays, settings.tool_weights, settings.ignore_extra_tools)


def aggregate(result: EvaluationResult, settings: AggregateSettings | None = None) -> Aggregate:
    """Apply the settings to the judged result. Vectorised; never calls a judge.

    Args:
        result: The output of :func:`~agentic_core.evaluate.evaluate`.
        settings: Aggregation settings (defaults when ``None``).

    Returns:
        The :class:`Aggregate` for these settings.
    """
    start = time.perf_counter()
    settings = settings or AggregateSettings()
    n_conv = result.n_conversations
    conv = result.conv_index
    probability = judge_probabilities(result)
    # The abstention band re-decides every item carrying the judge's probability; the threshold then applies.
    score, uncertain = band_verdicts(
        result.interactions[ResultCols.SCORE].to_numpy(dtype=float), probability, settings.abstain_band
    )
    unscored = np.isnan(score)

    overall = tool_overall(result, settings)
    tool_applicable = result.tool_arrays["applicable"]
    # NaN overall on an applicable row (every weighted dimension unassessable) does not reach the
    # threshold, as in tools.combine; rows without tool expectations never fail on tools.
    # All weights 0: tool use is not scored, so it never makes a conversation incorrect.
    scores_tools = settings.tool_weights.scores_tools
    tool_correct = np.where(tool_applicable & scores_tools, reaches(overall, settings.tool_threshold), True)
    passes = reaches(score, settings.threshold)
    correct = passes & tool_correct if settings.require_tool_correctness else passes
    overridden = np.zeros(len(score), dtype=bool)
    if result.overrides:
        # A person's verdict replaces the judge's (and the tool requirement) for that interaction;
        # an unscored interaction a person judged is scored.
        rows = np.fromiter(result.overrides, dtype=np.int64, count=len(result.overrides))
        correct = correct.copy()
        correct[rows] = np.fromiter((o.correct for o in result.overrides.values()), dtype=bool, count=len(rows))
        unscored, uncertain = unscored.copy(), uncertain.copy()
        unscored[rows] = uncertain[rows] = False
        overridden[rows] = True

    n_int = np.bincount(conv, minlength=n_conv)
    n_correct = np.bincount(conv, weights=correct, minlength=n_conv).astype(np.int64)
    n_unscored = np.bincount(conv, weights=unscored, minlength=n_conv).astype(np.int64)
    conv_unscored = (n_unscored > 0) & (not settings.unscored_as_incorrect)
    conv_correct = (n_correct == n_int) & ~conv_unscored
    conv_scored = ~conv_unscored

    unit, unit_reason = resolve_unit(result, settings)
    # Per-conversation (interaction-unit) counts: unscored interactions are left out of n
    # unless they count as incorrect.
    conv_n = (n_int - (0 if settings.unscored_as_incorrect else n_unscored)).astype(np.int64)
    g_n, g_c, group_keys = _groups(result, unit, conv_scored, conv_correct, conv_n, n_correct)
    k, k_reason = resolve_k(g_n, settings)

    # The unit 'auto' pools one-attempt tasks as attempts at one task: only the data's tasks say whether
    # k > 1 is measured, and pass@k / pass^k are withheld (None, with the reason) where it is not.
    pooled = unit == "conversation" and settings.unit != "conversation"
    attempts = _scored_per_task(result, conv_scored) if pooled else g_n
    evidence = k_evidence(attempts, k, settings.mode, settings.estimator)
    curve = stats.dataset_curve(g_n, g_c, list(range(1, k + 1)), **curve_options(settings))
    curve = withhold(curve, attempts, settings.mode, settings.estimator)
    if not scores_tools and tool_applicable.any():
        curve[-1] = curve[-1].model_copy(update={"notes": [*curve[-1].notes, NOT_SCORED]})
    headline = curve[-1]
    keep = stats.included_groups(g_n, k, settings.mode, settings.estimator)
    excluded = [str(key) for key in group_keys[~keep]]
    interpretation = (
        stats.interpret(headline.pass_at_k, headline.pass_pow_k)
        if headline.pass_at_k is not None and headline.pass_pow_k is not None
        else None
    )
    per_group = table_options(settings)
    groups = stats.group_table(g_n, g_c, k, **per_group)
    groups.insert(0, GroupCols.GROUP, group_keys)
    if pooled and not evidence.measured:  # the one pooled group's pass@K is the headline's: withheld alike
        groups.loc[:, list(AT_K)] = np.nan
    per_conv = stats.group_table(conv_n, n_correct, k, **per_group)
    unscored_bounds = None
    if unscored.any():
        # Whether K is measured is decided once (on the scored attempts): the bounds follow the headline.
        bounds = partial(_headline_points, result, unit, settings, k, evidence.measured)
        unscored_bounds = UnscoredBounds(
            unscored_interactions=int(unscored.sum()),
            as_incorrect=bounds(n_correct == n_int, n_int, n_correct),
            as_correct=bounds(n_correct + n_unscored == n_int, n_int, n_correct + n_unscored),
        )

    status = np.where(conv_unscored, UNSCORED, np.where(conv_correct, CORRECT, INCORRECT))
    conversations = pd.DataFrame(
        {
            # Row number and assistant_id: seed-000 data gives every attempt the same session_id.
            ConversationCols.CONVERSATION: np.arange(n_conv),
            ConversationCols.SESSION_ID: result.session_ids,
            ConversationCols.ASSISTANT_ID: result.assistant_ids(),
            ConversationCols.TASK_KEY: result.task_key_per_conversation(),
            ConversationCols.TOTAL_INTERACTIONS: n_int,
            ConversationCols.CORRECT_INTERACTIONS: n_correct,
            ConversationCols.UNSCORED_INTERACTIONS: n_unscored,
            ConversationCols.IS_FULLY_CORRECT: conv_correct,
            ConversationCols.STATUS: status,
            ConversationCols.TOOL_INTERACTIONS: np.bincount(
                conv, weights=tool_applicable, minlength=n_conv
            ).astype(np.int64),
            ConversationCols.TOOL_CORRECT_INTERACTIONS: np.bincount(
                conv, weights=tool_applicable & tool_correct, minlength=n_conv
            ).astype(np.int64),
            ConversationCols.MIN_SCORE: _group_min(score, conv, n_conv),
        }
    )
    for col in PER_CONVERSATION:
        conversations[col] = per_conv[col].to_numpy()

    interactions = pd.DataFrame(
        {
            InteractionCols.CONV: conv,
            InteractionCols.POSITION: result.interactions[ResultCols.POSITION].to_numpy(),
            InteractionCols.SCORE: score,
            InteractionCols.UNSCORED: unscored,
            InteractionCols.PASSES_THRESHOLD: passes,
            InteractionCols.CORRECT: correct,
            InteractionCols.TOOL_OVERALL: overall,
            InteractionCols.TOOL_CORRECT: np.where(tool_applicable, tool_correct, False),
            InteractionCols.OVERRIDDEN: overridden,
            InteractionCols.JUDGE_PROBABILITY: probability,
            InteractionCols.UNCERTAIN: uncertain,
        }
    )

    scored_convs = int(conv_scored.sum())
    correct_convs = int(conv_correct.sum())
    counts = Counts(
        conversations=n_conv,
        scored_conversations=scored_convs,
        unscored_conversations=int(conv_unscored.sum()),
        correct_conversations=correct_convs,
        interactions=len(score),
        unscored_interactions=int(unscored.sum()),
        correct_interactions=int(correct.sum()),
        tool_interactions=int(tool_applicable.sum()),
        groups=len(g_n),
        empty_groups=int((~keep).sum()),
        uncertain_interactions=int(uncertain.sum()),
    )
    return Aggregate(
        settings=settings,
        unit=unit,
        unit_reason=unit_reason,
        curve=curve,
        headline=headline,
        interpretation=interpretation,
        conversations=conversations,
        interactions=interactions,
        groups=groups,
        tool_summary=tool_summary(result, overall, tool_correct, settings),
        counts=counts,
        success_rate=Rate(
            value=headline.success_rate,
            ci=headline.success_rate_ci,
            interval_method=headline.interval_method,
            observed=correct_convs / scored_convs if scored_convs else None,
        ),
        k=k,
        k_reason=k_reason,
        excluded_groups=excluded,
        statistics=describe_statistics(settings, headline),
        k_evidence=evidence,
        unscored=unscored_bounds,
        elapsed_s=time.perf_counter() - start,
        result=result,
    )


def task_attempts(conversations: pd.DataFrame) -> pd.DataFrame:
    """Per task, over some rows of :attr:`Aggregate.conversations`: its attempts and who made them.

    Returns:
        One row per task key (as text, sorted): scored attempts ``n``, fully correct ones ``c`` and the
        ``sessions`` (session ids, in row order).
    """
    cols = ConversationCols
    scored = (conversations[cols.STATUS] != UNSCORED).to_numpy()
    table = pd.DataFrame(
        {
            "task": conversations[cols.TASK_KEY].astype(str).to_numpy(),
            StatCols.N: scored.astype(np.int64),
            StatCols.C: (conversations[cols.IS_FULLY_CORRECT].to_numpy(dtype=bool) & scored).astype(np.int64),
            "sessions": conversations[cols.SESSION_ID].astype(str).to_numpy(),
        }
    )
    sums = {StatCols.N: (StatCols.N, "sum"), StatCols.C: (StatCols.C, "sum"), "sessions": ("sessions", tuple)}
    return table.groupby("task", sort=True).agg(**sums)


def resolve_k(g_n: np.ndarray, settings: AggregateSettings) -> tuple[int, str]:
    """Resolve ``k = "auto"``: the largest k that at least 90% of the groups support (n >= k), 1..20.

    Args:
        g_n: Scored attempts per group of the unit of trial.
        settings: The settings (an explicit K is returned as it is).

    Returns:
        ``(K, reason in words)``.
    """
    if settings.k != "auto":
        return settings.k, f"K = {settings.k} chosen in the settings"
    sizes = g_n[g_n > 0]
    if sizes.size == 0:
        return 1, "'auto' chose K = 1: no group has a scored attempt"
    # The share of groups with at least k attempts, for k = 1..K_AUTO_MAX (non-increasing in k).
    support = np.array([(sizes >= k).mean() for k in range(1, K_AUTO_MAX + 1)])
    k = int(np.flatnonzero(support >= K_AUTO_SUPPORT - 1e-12).max()) + 1 if support[0] >= K_AUTO_SUPPORT else 1
    share = float(support[k - 1])
    cap = " (the most 'auto' takes)" if k == K_AUTO_MAX else ""
    return k, (
        f"'auto' chose K = {k}{cap}: {share:.0%} of the {plural(sizes.size, 'group')} have at least "
        f"{plural(k, 'attempt')} (the largest k that at least {K_AUTO_SUPPORT:.0%} of them support)"
    )


def _headline_points(
    result: EvaluationResult,
    unit: Unit,
    settings: AggregateSettings,
    k: int,
    measured: bool,
    conv_correct: np.ndarray,
    conv_n: np.ndarray,
    n_correct: np.ndarray,
) -> PointValues:
    """Point values at K when every conversation is scored (for the unscored bounds; no pass@K unless measured)."""
    everyone = np.ones(result.n_conversations, dtype=bool)
    g_n, g_c, _ = _groups(result, unit, everyone, conv_correct, conv_n.astype(np.int64), n_correct)
    # Only the points are kept, and no point depends on the resampling: the fewest draws allowed (at 100k
    # interactions with many unscored, Bayesian these-tasks' bounds took 1.7 s of a 2 s slider move with 4000).
    options = curve_options(settings)
    options["n_samples"] = N_SAMPLES_RANGE[0]
    point = stats.dataset_curve(g_n, g_c, [k], **options)[0]
    at, pow_k = (point.pass_at_k, point.pass_pow_k) if measured else (None, None)
    return PointValues(success_rate=point.success_rate, pass_at_k=at, pass_pow_k=pow_k)


def _scored_per_task(result: EvaluationResult, conv_scored: np.ndarray) -> np.ndarray:
    """Scored attempts of each of the data's tasks (``task_id``, else the questions' ``qa_id``s)."""
    n_tasks = len(result.task_keys)
    return np.bincount(result.task_codes, weights=conv_scored, minlength=n_tasks).astype(np.int64)


def _groups(
    result: EvaluationResult,
    unit: Unit,
    conv_scored: np.ndarray,
    conv_correct: np.ndarray,
    conv_n: np.ndarray,
    n_correct: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Attempts n, correct c and the key of every group of the unit of trial."""
    if unit == "task":
        n_tasks = len(result.task_keys)
        g_n = np.bincount(result.task_codes, weights=conv_scored, minlength=n_tasks).astype(np.int64)
        g_c = np.bincount(result.task_codes, weights=conv_correct, minlength=n_tasks).astype(np.int64)
        return g_n, g_c, np.asarray(result.task_keys, dtype=object)
    if unit == "conversation":
        return (
            np.array([int(conv_scored.sum())], dtype=np.int64),
            np.array([int(conv_correct.sum())], dtype=np.int64),
            np.array(["all conversations"], dtype=object),
        )
    return conv_n, n_correct.astype(np.int64), np.asarray(result.session_ids, dtype=object)


def _group_min(values: np.ndarray, index: np.ndarray, n_groups: int) -> np.ndarray:
    """Minimum of ``values`` per group (NaN-aware: NaN only when the group has no value)."""
    out = np.full(n_groups, np.inf)
    finite = ~np.isnan(values)
    np.minimum.at(out, index[finite], values[finite])
    out[np.isinf(out)] = np.nan
    return out
