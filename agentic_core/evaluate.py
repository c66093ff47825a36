"""Orchestration: judge once (:func:`evaluate`), aggregate many times (:func:`aggregate`).

``evaluate`` is the only expensive step: it loads, judges every interaction through the judge
runner (cache included) and scores tool use (weight-independent components). ``aggregate``
applies every slider setting — thresholds, tool weights, K, unit, estimator, mode, prior,
interval level — with numpy over the stored arrays and never calls a judge.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from agentic_core import stats
from agentic_core.errors import DataError
from agentic_core.gc_control import gc_paused
from agentic_core.io.loader import LoadReport, load_paths
from agentic_core.judges.base import Judge, JudgeIdentity, JudgeItem, ProgressFn
from agentic_core.judges.cache import JudgeCache
from agentic_core.judges.runner import CacheMode, JudgeRun, run_judge_sync
from agentic_core.schemas import Conversation
from agentic_core.settings import DIMENSIONS, AggregateSettings, Unit
from agentic_core.tools import ToolComponents, components_matrix, overall_vectorised, score_tools

# Scores within this distance below a threshold still count as reaching it, so 0.7 stored
# as 0.69999999999 (float arithmetic upstream) is not failed by rounding.
_EPS = 1e-9

DataInput = LoadReport | Sequence[Conversation] | str | Path | Sequence[str | Path]


@dataclass
class EvaluationResult:
    """Everything judged and scored once; input to any number of :func:`aggregate` calls.

    Attributes:
        conversations: The evaluated conversations, in input order.
        interactions: One row per interaction: ``conv`` (conversation index), ``position``,
            ``session_id``, ``task_key``, ``qa_id``, ``query``, ``answer``, ``ground_truth``,
            ``score`` (NaN = unscored), ``judge_status``, ``judge_reasoning``, ``judge_error``,
            ``tool_applicable`` and the tool component columns.
        tool_components: Per interaction, the weight-independent tool components (or None).
        judge_run: The judge run (identity, per-status counts, cache hits, tokens, timing).
        recommended_threshold: The judge's recommended answer threshold.
        load_report: The load report when the input was loaded here (skipped records, warnings).
        elapsed_s: Wall time of the whole evaluation.
    """

    conversations: list[Conversation]
    interactions: pd.DataFrame
    tool_components: list[ToolComponents | None]
    judge_run: JudgeRun
    recommended_threshold: float
    load_report: LoadReport | None = None
    elapsed_s: float = 0.0
    # Arrays derived once for fast aggregation.
    conv_index: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    task_codes: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    task_keys: list[str] = field(default_factory=list)
    session_ids: list[str] = field(default_factory=list)
    tool_arrays: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def judge_identity(self) -> JudgeIdentity:
        """The identity of the judge that produced the scores."""
        return self.judge_run.identity

    @property
    def n_conversations(self) -> int:
        """Number of conversations evaluated."""
        return len(self.conversations)

    @property
    def n_interactions(self) -> int:
        """Number of interactions evaluated."""
        return len(self.interactions)


def _as_conversations(data: DataInput) -> tuple[list[Conversation], LoadReport | None]:
    if isinstance(data, LoadReport):
        report = data
    elif isinstance(data, (str, Path)):
        report = load_paths([data])
    elif isinstance(data, Sequence) and data and all(isinstance(d, (str, Path)) for d in data):
        report = load_paths([d for d in data if isinstance(d, (str, Path))])
    else:
        convs = [c for c in data if isinstance(c, Conversation)]
        if len(convs) != len(data):
            raise DataError(
                "dataset",
                "must be a load report, file paths, or Conversation objects (not a mix)",
                [type(d).__name__ for d in data][:5],
                "pass one kind of input",
            )
        if not convs:
            raise DataError("dataset", "must hold at least one conversation", [], "load a file with conversations")
        return convs, None
    report.raise_if_empty()
    return list(report.conversations), report


def evaluate(
    data: DataInput,
    judge: Judge | str | None = None,
    *,
    cache: JudgeCache | None = None,
    cache_mode: CacheMode = "use",
    progress: ProgressFn | None = None,
    **judge_options: Any,
) -> EvaluationResult:
    """Judge every interaction once and score tool use.

    Args:
        data: A :class:`LoadReport`, conversations, or one or more file paths.
        judge: A judge, or a registry name (``hybrid`` by default).
        cache: The persistent judge cache (the default location when ``None`` and the mode is
            not ``off``; only cacheable judges use it).
        cache_mode: ``use``, ``refresh`` or ``off``.
        progress: Called as ``progress(done, total)`` while judging.
        **judge_options: Passed to the registry when ``judge`` is a name.

    Returns:
        The evaluation result, ready for :func:`aggregate`.

    Raises:
        DataError: no valid conversation.
        JudgeConfigError: the judge cannot be built.
    """
    from agentic_core.judges.registry import DEFAULT_JUDGE, build_judge

    start = time.perf_counter()
    conversations, report = _as_conversations(data)
    if judge is None or isinstance(judge, str):
        judge = build_judge(judge or DEFAULT_JUDGE, **judge_options)

    sizes = np.fromiter((len(c.conversation) for c in conversations), dtype=np.int64, count=len(conversations))
    conv_index = np.repeat(np.arange(len(conversations), dtype=np.int64), sizes)
    positions = np.concatenate([np.arange(s, dtype=np.int64) for s in sizes]) if len(sizes) else sizes
    interactions = [i for c in conversations for i in c.conversation]
    items = judge_items(conversations)
    if cache is None and cache_mode != "off" and judge.cacheable:
        cache = JudgeCache()
    # Offline judges are bounded CPU work: pause the collector during it too. LLM runs can
    # last minutes and create cyclic garbage (asyncio), so the collector stays on for them.
    with gc_paused(judge.identity.kind != "llm"):
        run = run_judge_sync(judge, items, cache=cache, cache_mode=cache_mode, progress=progress)

    with gc_paused():
        components = [score_tools(i.agentic, i.ground_truth_agentic, i.assistant) for i in interactions]
    tool_arrays = components_matrix(components)

    task_keys_per_conv = [c.task_key() for c in conversations]
    codes, uniques = pd.factorize(pd.Series(task_keys_per_conv, dtype="object"), sort=True)
    session_ids = [c.session_id for c in conversations]
    verdicts = run.verdicts
    frame = pd.DataFrame(
        {
            "conv": conv_index,
            "position": positions,
            "session_id": np.asarray(session_ids, dtype=object)[conv_index] if len(conv_index) else [],
            "assistant_id": np.asarray([c.assistant_id for c in conversations], dtype=object)[conv_index]
            if len(conv_index)
            else [],
            "task_key": np.asarray(task_keys_per_conv, dtype=object)[conv_index] if len(conv_index) else [],
            "qa_id": [i.qa_id for i in interactions],
            "query": [i.query for i in interactions],
            "answer": [i.assistant for i in interactions],
            "ground_truth": [i.ground_truth_assistant for i in interactions],
            "score": np.array([np.nan if v.score is None else v.score for v in verdicts], dtype=float),
            "judge_status": [v.status for v in verdicts],
            "judge_reasoning": [v.reasoning for v in verdicts],
            "judge_error": [v.error for v in verdicts],
            "tool_applicable": tool_arrays["applicable"],
        }
    )
    for name in ("selection", "selection_ignore_extra", "parameters", "sequence", "utilization"):
        frame[f"tool_{name}"] = tool_arrays[name]
    return EvaluationResult(
        conversations=conversations,
        interactions=frame,
        tool_components=components,
        judge_run=run,
        recommended_threshold=float(judge.recommended_threshold),
        load_report=report,
        elapsed_s=time.perf_counter() - start,
        conv_index=conv_index,
        task_codes=np.asarray(codes, dtype=np.int64),
        task_keys=[str(u) for u in uniques],
        session_ids=session_ids,
        tool_arrays=tool_arrays,
    )


@dataclass
class Aggregate:
    """The numbers for one choice of settings.

    Attributes:
        settings: The settings applied.
        unit: The unit of trial actually used (``auto`` resolved).
        unit_reason: Why that unit (for ``auto``) in words.
        curve: Dataset-level pass@k / pass^k for k = 1..K with intervals.
        headline: The curve point at k = K.
        interpretation: Seed-001 label on the headline pass@K / pass^K (None if undefined).
        conversations: One row per conversation (seed-003 numbers, status, per-conversation pass@K).
        interactions: One row per interaction: score, correct, unscored, tool overall / correct.
        groups: One row per unit group (task, the single conversation group, or conversation):
            ``n``, ``c``, per-group pass@K / pass^K with intervals.
        tool_summary: Mean of each tool dimension and overall with intervals, and counts.
        counts: Conversation / interaction counts, unscored and excluded numbers.
        success_rate: Conversation success rate c/n with its interval (``(rate, low, high)``).
    """

    settings: AggregateSettings
    unit: Unit
    unit_reason: str
    curve: list[stats.CurvePoint]
    headline: stats.CurvePoint
    interpretation: str | None
    conversations: pd.DataFrame
    interactions: pd.DataFrame
    groups: pd.DataFrame
    tool_summary: dict[str, Any]
    counts: dict[str, int]
    success_rate: tuple[float | None, float | None, float | None]
    elapsed_s: float = 0.0


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
        result: The output of :func:`evaluate`.
        settings: Aggregation settings (defaults when ``None``).

    Returns:
        The :class:`Aggregate` for these settings.
    """
    start = time.perf_counter()
    settings = settings or AggregateSettings()
    n_conv = result.n_conversations
    conv = result.conv_index
    score = result.interactions["score"].to_numpy(dtype=float)
    unscored = np.isnan(score)

    overall = tool_overall(result, settings)
    tool_applicable = result.tool_arrays["applicable"]
    # NaN overall on an applicable row (every weighted dimension unassessable) is not correct,
    # matching tools.combine; rows without tool expectations never fail on tools.
    with np.errstate(invalid="ignore"):
        reaches = overall >= settings.tool_threshold - _EPS
    tool_correct = np.where(tool_applicable, reaches, True)
    correct = ~unscored & (score >= settings.threshold - _EPS)
    if settings.require_tool_correctness:
        correct &= tool_correct

    n_int = np.bincount(conv, minlength=n_conv)
    n_correct = np.bincount(conv, weights=correct, minlength=n_conv).astype(np.int64)
    n_unscored = np.bincount(conv, weights=unscored, minlength=n_conv).astype(np.int64)
    conv_unscored = (n_unscored > 0) & (not settings.unscored_as_incorrect)
    conv_correct = (n_correct == n_int) & ~conv_unscored
    conv_scored = ~conv_unscored

    unit, unit_reason = resolve_unit(result, settings)
    ks = list(range(1, settings.k + 1))
    prior = (settings.prior_a, settings.prior_b)

    # Per-conversation (interaction-unit) counts: unscored interactions are left out of n
    # unless they count as incorrect.
    conv_n = n_int - (0 if settings.unscored_as_incorrect else n_unscored)
    if unit == "task":
        n_tasks = len(result.task_keys)
        g_n = np.bincount(result.task_codes, weights=conv_scored, minlength=n_tasks).astype(np.int64)
        g_c = np.bincount(result.task_codes, weights=conv_correct, minlength=n_tasks).astype(np.int64)
        group_keys = np.asarray(result.task_keys, dtype=object)
    elif unit == "conversation":
        g_n = np.array([int(conv_scored.sum())], dtype=np.int64)
        g_c = np.array([int(conv_correct.sum())], dtype=np.int64)
        group_keys = np.array(["all conversations"], dtype=object)
    else:
        g_n = conv_n.astype(np.int64)
        g_c = n_correct.astype(np.int64)
        group_keys = np.asarray(result.session_ids, dtype=object)

    keep = g_n > 0
    curve = stats.dataset_curve(
        g_n[keep],
        g_c[keep],
        ks,
        mode=settings.mode,
        estimator=settings.estimator,
        prior=prior,
        level=settings.ci_level,
        seed=settings.seed,
        n_samples=settings.n_samples,
    )
    headline = curve[-1]
    interpretation = (
        stats.interpret(headline.pass_at_k, headline.pass_pow_k)
        if headline.pass_at_k is not None and headline.pass_pow_k is not None
        else None
    )

    groups = stats.group_table(
        g_n,
        g_c,
        settings.k,
        mode=settings.mode,
        estimator=settings.estimator,
        prior=prior,
        level=settings.ci_level,
    )
    groups.insert(0, "group", group_keys)

    per_conv = stats.group_table(
        conv_n.astype(np.int64),
        n_correct,
        settings.k,
        mode=settings.mode,
        estimator=settings.estimator,
        prior=prior,
        level=settings.ci_level,
    )
    status = np.where(conv_unscored, "unscored", np.where(conv_correct, "correct", "incorrect"))
    conversations = pd.DataFrame(
        {
            # Row number and assistant_id: seed-000 data gives every attempt the same session_id.
            "conversation": np.arange(n_conv),
            "session_id": result.session_ids,
            "assistant_id": [c.assistant_id for c in result.conversations],
            "task_key": np.asarray(result.task_keys, dtype=object)[result.task_codes] if result.task_keys else [],
            "total_interactions": n_int,
            "correct_interactions": n_correct,
            "unscored_interactions": n_unscored,
            "is_fully_correct": conv_correct,
            "status": status,
            "tool_interactions": np.bincount(conv, weights=tool_applicable, minlength=n_conv).astype(np.int64),
            "tool_correct_interactions": np.bincount(
                conv, weights=tool_applicable & tool_correct, minlength=n_conv
            ).astype(np.int64),
            "min_score": _group_min(score, conv, n_conv),
        }
    )
    for col in per_conv.columns:
        if col not in ("n", "c"):
            conversations[col] = per_conv[col].to_numpy()

    interactions = pd.DataFrame(
        {
            "conv": conv,
            "position": result.interactions["position"].to_numpy(),
            "score": score,
            "unscored": unscored,
            "correct": correct,
            "tool_overall": overall,
            "tool_correct": np.where(tool_applicable, tool_correct, False),
        }
    )

    scored_convs = int(conv_scored.sum())
    correct_convs = int(conv_correct.sum())
    rate = stats.success_rate_interval(
        scored_convs, correct_convs, mode=settings.mode, prior=prior, level=settings.ci_level
    )
    counts = {
        "conversations": n_conv,
        "scored_conversations": scored_convs,
        "unscored_conversations": int(conv_unscored.sum()),
        "correct_conversations": correct_convs,
        "interactions": len(score),
        "unscored_interactions": int(unscored.sum()),
        "correct_interactions": int(correct.sum()),
        "tool_interactions": int(tool_applicable.sum()),
        "groups": len(g_n),
        "empty_groups": int((~keep).sum()),
    }
    agg = Aggregate(
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
        success_rate=rate,
    )
    agg.elapsed_s = time.perf_counter() - start
    return agg


def _group_min(values: np.ndarray, index: np.ndarray, n_groups: int) -> np.ndarray:
    """Minimum of ``values`` per group (NaN-aware: NaN only when the group has no value)."""
    out = np.full(n_groups, np.inf)
    finite = ~np.isnan(values)
    np.minimum.at(out, index[finite], values[finite])
    out[np.isinf(out)] = np.nan
    return out


def _mean_ci(x: np.ndarray, level: float) -> tuple[float | None, float | None, float | None]:
    """Mean with a t interval (a normal-theory interval for a bounded mean; None when undefined)."""
    from scipy import stats as sps

    x = x[~np.isnan(x)]
    if len(x) == 0:
        return (None, None, None)
    mean = float(x.mean())
    if len(x) < 2:
        return (mean, None, None)
    sem = float(x.std(ddof=1)) / np.sqrt(len(x))
    if sem == 0:
        return (mean, mean, mean)
    half = float(sps.t.ppf(0.5 + level / 2, len(x) - 1)) * sem
    return (mean, max(0.0, mean - half), min(1.0, mean + half))


def tool_summary(
    result: EvaluationResult, overall: np.ndarray, tool_correct: np.ndarray, settings: AggregateSettings
) -> dict[str, Any]:
    """Mean of each tool dimension and of the overall score, with intervals and counts."""
    arrays = result.tool_arrays
    applicable = arrays["applicable"]
    selection = arrays["selection_ignore_extra" if settings.ignore_extra_tools else "selection"]
    columns = {
        "selection": selection,
        "parameters": arrays["parameters"],
        "sequence": arrays["sequence"],
        "utilization": arrays["utilization"],
    }
    dims: dict[str, Any] = {}
    for name in DIMENSIONS:
        values = np.where(applicable, columns[name], np.nan)
        mean, low, high = _mean_ci(values, settings.ci_level)
        dims[name] = {
            "mean": mean,
            "ci": None if low is None else [low, high],
            "n": int((~np.isnan(values)).sum()),
        }
    mean, low, high = _mean_ci(overall, settings.ci_level)
    n_scored = int(applicable.sum())
    return {
        "dimensions": dims,
        "overall": {"mean": mean, "ci": None if low is None else [low, high], "n": n_scored},
        "scored_interactions": n_scored,
        "correct_interactions": int((applicable & tool_correct).sum()),
        "tool_threshold": settings.tool_threshold,
        "weights": dict(zip(DIMENSIONS, settings.tool_weights.as_tuple(), strict=True)),
        "ignore_extra_tools": settings.ignore_extra_tools,
    }


def judge_items(conversations: Sequence[Conversation]) -> list[JudgeItem]:
    """The items :func:`evaluate` sends to the judge, one per interaction in order.

    For estimates before a run (``runner.estimate_calls``): the same items as the run itself.
    """
    return [
        JudgeItem(i.query, i.assistant, i.ground_truth_assistant, i.score)
        for c in conversations
        for i in c.conversation
    ]
