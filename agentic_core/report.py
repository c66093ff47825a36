"""Result tables (pandas) and exports: CSV per interaction / conversation / task, JSON summary.

Every export reflects the aggregate it is given (the current slider settings) and carries the
settings and the judge identity, so a file found later says how its numbers were made.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from agentic_core import __version__, stats
from agentic_core.evaluate import Aggregate, EvaluationResult
from agentic_core.schemas import Conversation
from agentic_core.tools import ToolCorrectnessScore, combine

UNIT_DESCRIPTIONS: dict[str, str] = {
    "task": "task: attempts at the same task are grouped; pass@k per task, averaged over tasks",
    "conversation": "conversation: every conversation is one attempt at a single task (n = conversations)",
    "interaction": "interaction: per conversation, its interactions are the attempts (seed-003 compatibility)",
}


def _clean(value: Any) -> Any:
    """JSON-safe value: NaN/inf -> None, numpy scalars -> Python."""
    if isinstance(value, (np.floating, float)):
        f = float(value)
        return None if not math.isfinite(f) else f
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


def curve_point_dict(point: stats.CurvePoint) -> dict[str, Any]:
    """One curve point as a JSON-ready dict (intervals as ``[low, high]`` or null)."""
    return _clean(
        {
            "k": point.k,
            "pass_at_k": point.pass_at_k,
            "pass_pow_k": point.pass_pow_k,
            "pass_at_k_ci": list(point.pass_at_k_ci) if point.pass_at_k_ci is not None else None,
            "pass_pow_k_ci": list(point.pass_pow_k_ci) if point.pass_pow_k_ci is not None else None,
            "n_groups": point.n_groups,
            "n_excluded": point.n_excluded,
            "excluded_reason": point.excluded_reason,
        }
    )


def tool_scores(result: EvaluationResult, agg: Aggregate) -> list[ToolCorrectnessScore | None]:
    """Per-interaction seed-003 tool scores under the aggregate's weights and threshold."""
    s = agg.settings
    return [
        None if c is None else combine(c, s.tool_weights, s.tool_threshold, s.ignore_extra_tools)
        for c in result.tool_components
    ]


def interactions_table(
    result: EvaluationResult, agg: Aggregate, *, with_reasoning: bool = True
) -> pd.DataFrame:
    """One row per interaction, with judge and tool results under the current settings."""
    base = result.interactions
    frame = pd.DataFrame(
        {
            "session_id": base["session_id"],
            "task_key": base["task_key"],
            "position": base["position"],
            "qa_id": base["qa_id"],
            "query": base["query"],
            "answer": base["answer"],
            "ground_truth": base["ground_truth"],
            "judge_score": base["score"],
            "judge_status": base["judge_status"],
            "correct": np.where(agg.interactions["unscored"], None, agg.interactions["correct"]),
            "judge_reasoning": base["judge_reasoning"],
            "judge_error": base["judge_error"],
            "tool_selection": np.where(
                base["tool_applicable"],
                base["tool_selection_ignore_extra" if agg.settings.ignore_extra_tools else "tool_selection"],
                np.nan,
            ),
            "tool_parameters": base["tool_parameters"],
            "tool_sequence": base["tool_sequence"],
            "tool_utilization": base["tool_utilization"],
            "tool_overall": agg.interactions["tool_overall"],
            "tool_correct": np.where(base["tool_applicable"], agg.interactions["tool_correct"], None),
        }
    )
    if with_reasoning:
        frame["tool_reasoning"] = [None if t is None else t.reasoning for t in tool_scores(result, agg)]
    return frame


def conversations_table(agg: Aggregate) -> pd.DataFrame:
    """One row per conversation (seed-003 counts, status and per-conversation pass@K)."""
    return agg.conversations.copy()


def tasks_table(agg: Aggregate) -> pd.DataFrame:
    """One row per group of the unit actually used (tasks for ``task``)."""
    return agg.groups.copy()


def conversation_records(result: EvaluationResult, agg: Aggregate) -> list[dict[str, Any]]:
    """Per-conversation records with the seed-003 field names (plus judge reasoning).

    ``pass_at_k`` etc. are per conversation over its interactions (the seed's semantics),
    ``None`` where undefined (e.g. k above the number of interactions under ``unbiased``).
    """
    s = agg.settings
    scores = tool_scores(result, agg)
    inter = agg.interactions
    conv_rows = agg.conversations
    records: list[dict[str, Any]] = []
    starts = np.searchsorted(result.conv_index, np.arange(result.n_conversations))
    ends = np.append(starts[1:], len(result.conv_index))
    judge_score = result.interactions["score"].to_numpy()
    reasoning = result.interactions["judge_reasoning"].tolist()
    errors = result.interactions["judge_error"].tolist()
    correct = inter["correct"].to_numpy()
    for ci in range(result.n_conversations):
        lo, hi = int(starts[ci]), int(ends[ci])
        row = conv_rows.iloc[ci]
        records.append(
            _clean(
                {
                    "session_id": row["session_id"],
                    "task_key": row["task_key"],
                    "status": row["status"],
                    "total_interactions": row["total_interactions"],
                    "correct_interactions": row["correct_interactions"],
                    "unscored_interactions": row["unscored_interactions"],
                    "is_fully_correct": row["is_fully_correct"],
                    "threshold": s.threshold,
                    "correctness_scores": [None if np.isnan(x) else float(x) for x in judge_score[lo:hi]],
                    "correct_indices": [int(i) for i in np.flatnonzero(correct[lo:hi])],
                    "judge_reasoning": [
                        reasoning[i] if errors[i] is None else f"unscored: {errors[i]}" for i in range(lo, hi)
                    ],
                    "tool_correctness_scores": [None if t is None else t.model_dump() for t in scores[lo:hi]],
                    "k": s.k,
                    "pass_at_k": row.get("pass_at_k"),
                    "pass_at_k_ci_low": row.get("pass_at_k_ci_low"),
                    "pass_at_k_ci_high": row.get("pass_at_k_ci_high"),
                    "pass_pow_k": row.get("pass_pow_k"),
                    "pass_pow_k_ci_low": row.get("pass_pow_k_ci_low"),
                    "pass_pow_k_ci_high": row.get("pass_pow_k_ci_high"),
                }
            )
        )
    return records


def run_metadata(result: EvaluationResult, agg: Aggregate) -> dict[str, Any]:
    """Settings, judge identity, unit and counts: written beside every export."""
    run = result.judge_run
    return _clean(
        {
            "tool_version": __version__,
            "settings": agg.settings.model_dump(),
            "unit": agg.unit,
            "unit_description": UNIT_DESCRIPTIONS[agg.unit],
            "unit_reason": agg.unit_reason,
            "judge": run.identity.model_dump(),
            "judge_label": run.identity.label(),
            "judge_counts": dict(run.counts),
            "cache": {"hits": run.cache_hits, "misses": run.cache_misses, "model_calls": run.model_calls},
            "tokens": {"input": run.input_tokens, "output": run.output_tokens},
            "judge_warnings": list(run.warnings),
            "load": None
            if result.load_report is None
            else {
                "summary": result.load_report.summary(),
                "skipped": len(result.load_report.skipped),
                "warnings": len(result.load_report.warnings),
            },
        }
    )


def summary(
    result: EvaluationResult, agg: Aggregate, *, include_conversations: bool = True
) -> dict[str, Any]:
    """The JSON summary: curve, interpretation, counts, tool correctness, settings, judge."""
    rate, low, high = agg.success_rate
    out: dict[str, Any] = {
        **run_metadata(result, agg),
        "curve": [curve_point_dict(p) for p in agg.curve],
        "headline": curve_point_dict(agg.headline),
        "interpretation": agg.interpretation,
        "interpretation_text": stats.explain(agg.interpretation) if agg.interpretation else None,
        "counts": agg.counts,
        "conversation_success_rate": {"rate": rate, "ci": None if low is None else [low, high]},
        "tool_correctness": agg.tool_summary,
    }
    if include_conversations:
        out["conversations"] = conversation_records(result, agg)
    return _clean(out)


def write_exports(result: EvaluationResult, agg: Aggregate, out_dir: str | Path) -> dict[str, Path]:
    """Write the three CSVs, the JSON summary and the settings file into ``out_dir``.

    Returns:
        Mapping of export name to the path written.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {
        "interactions": out / "interactions.csv",
        "conversations": out / "conversations.csv",
        "tasks": out / "tasks.csv",
        "summary": out / "summary.json",
        "settings": out / "settings.json",
    }
    interactions_table(result, agg).to_csv(paths["interactions"], index=False)
    conversations_table(agg).to_csv(paths["conversations"], index=False)
    tasks_table(agg).to_csv(paths["tasks"], index=False)
    paths["summary"].write_text(
        json.dumps(summary(result, agg), indent=2, ensure_ascii=False), encoding="utf-8"
    )
    paths["settings"].write_text(json.dumps(run_metadata(result, agg), indent=2), encoding="utf-8")
    return paths


def tool_breakdown(result: EvaluationResult) -> pd.DataFrame:
    """Per tool name: expected and used calls, matches, missing, extra, parameter errors.

    Weight-independent (built from the tool components), so it is computed once per run.
    """
    rows: dict[str, dict[str, float]] = {}

    def row(name: str) -> dict[str, float]:
        return rows.setdefault(
            name,
            {
                "expected_calls": 0,
                "used_calls": 0,
                "matched": 0,
                "missing": 0,
                "extra": 0,
                "calls_with_parameter_errors": 0,
                "parameter_errors": 0,
                "agreement_sum": 0.0,
            },
        )

    interactions = [i for c in result.conversations for i in c.conversation]
    for interaction, comp in zip(interactions, result.tool_components, strict=True):
        if comp is None:
            continue
        expected = interaction.ground_truth_agentic.expected_tools if interaction.ground_truth_agentic else []
        used = interaction.agentic.tools_used if interaction.agentic else []
        for expected_call in expected:
            row(expected_call.tool_name)["expected_calls"] += 1
        for used_call in used:
            row(used_call.tool_name)["used_calls"] += 1
        for m in comp.matches:
            if m.expected_index is not None and m.used_index is not None:
                r = row(expected[m.expected_index].tool_name)
                r["matched"] += 1
                r["agreement_sum"] += m.agreement
                if m.agreement < 1.0:
                    r["calls_with_parameter_errors"] += 1
        for name in comp.missing:
            row(name)["missing"] += 1
        for name in comp.extra:
            row(name)["extra"] += 1
        for err in comp.param_errors:
            row(err.tool_name)["parameter_errors"] += 1
    frame = pd.DataFrame.from_dict(rows, orient="index")
    if frame.empty:
        return pd.DataFrame(
            columns=["tool_name", "expected_calls", "used_calls", "matched", "missing", "extra",
                     "calls_with_parameter_errors", "parameter_errors", "mean_parameter_agreement"]
        )
    frame["mean_parameter_agreement"] = np.where(
        frame["matched"] > 0, frame["agreement_sum"] / frame["matched"].where(frame["matched"] > 0, 1), np.nan
    )
    frame = frame.drop(columns="agreement_sum").astype(
        {c: "int64" for c in frame.columns if c not in ("mean_parameter_agreement", "agreement_sum")}
    )
    frame.index.name = "tool_name"
    return frame.reset_index().sort_values(["missing", "extra", "parameter_errors"], ascending=False, kind="stable")


def failing_tool_calls(result: EvaluationResult, agg: Aggregate) -> pd.DataFrame:
    """Interactions whose tool use is below the tool threshold, worst first, with the reasons."""
    inter = agg.interactions
    base = result.interactions
    mask = base["tool_applicable"].to_numpy() & ~inter["tool_correct"].to_numpy()
    idx = np.flatnonzero(mask)
    comps = [result.tool_components[i] for i in idx]
    s = agg.settings
    frame = pd.DataFrame(
        {
            "session_id": base["session_id"].to_numpy()[idx],
            "position": base["position"].to_numpy()[idx],
            "qa_id": base["qa_id"].to_numpy()[idx],
            "tool_overall": inter["tool_overall"].to_numpy()[idx],
            "missing": [", ".join(c.missing) if c else "" for c in comps],
            "extra": [", ".join(c.extra) if c else "" for c in comps],
            "parameter_errors": [len(c.param_errors) if c else 0 for c in comps],
            "reasoning": [
                combine(c, s.tool_weights, s.tool_threshold, s.ignore_extra_tools).reasoning if c else ""
                for c in comps
            ],
            "row": idx,
        }
    )
    return frame.sort_values("tool_overall", kind="stable").reset_index(drop=True)


def interaction_tool_names(result: EvaluationResult) -> pd.Series:
    """Per interaction (in ``result.interactions`` order), the sorted distinct tool names it expected or used.

    Weight-independent: compute once per run, then filter tables such as :func:`failing_tool_calls`
    (whose ``row`` column indexes this series) by tool name.
    """
    names: list[tuple[str, ...]] = []
    for conversation in result.conversations:
        for interaction in conversation.conversation:
            expected = interaction.ground_truth_agentic.expected_tools if interaction.ground_truth_agentic else []
            used = interaction.agentic.tools_used if interaction.agentic else []
            names.append(tuple(sorted({c.tool_name for c in expected} | {c.tool_name for c in used})))
    return pd.Series(names, dtype=object, name="tool_names")


def conversations_preview(conversations: Sequence[Conversation]) -> pd.DataFrame:
    """One row per loaded conversation, for the Data page's preview (before any judging).

    Columns: ``session_id``, ``assistant_id``, ``task_key`` (see
    :meth:`~agentic_core.schemas.Conversation.task_key`), ``interactions``, ``tool_calls`` (calls
    the agent made), ``expected_tool_calls`` (calls the ground truth expects) and ``scored``
    (interactions carrying their own ``score``, which the ``dataset`` judge needs).
    """
    rows = []
    for c in conversations:
        used = expected = scored = 0
        for i in c.conversation:
            used += len(i.agentic.tools_used) if i.agentic else 0
            expected += len(i.ground_truth_agentic.expected_tools) if i.ground_truth_agentic else 0
            scored += i.score is not None
        rows.append((c.session_id, c.assistant_id, c.task_key(), len(c.conversation), used, expected, scored))
    columns = ["session_id", "assistant_id", "task_key", "interactions", "tool_calls", "expected_tool_calls", "scored"]
    return pd.DataFrame.from_records(rows, columns=columns)
