"""Result tables (pandas) and exports: CSV per interaction / conversation / task, JSON summary.

Every export reflects the aggregate it is given (the current slider settings) and carries the
settings and the judge identity, so a file found later says how its numbers were made.
"""

from __future__ import annotations

import io
import json
import math
import shlex
import zipfile
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from agentic_core import __version__, stats
from agentic_core.errors import DataError, SettingsError
from agentic_core.evaluate import Aggregate, EvaluationResult
from agentic_core.schemas import Conversation, Interaction
from agentic_core.settings import DIMENSIONS, ToolWeights
from agentic_core.tools import ToolComponents, ToolCorrectnessScore, combine

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
            "conversation": base["conv"],
            "session_id": base["session_id"],
            "assistant_id": base["assistant_id"],
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
                    "assistant_id": row["assistant_id"],
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


# --------------------------------------------------------------------------------------------
# Explorer (pages/explorer.py): conversation list, search, drill-down, expected-vs-used diff.
# Export page helpers: in-memory files, a ZIP of everything, the equivalent CLI command.
# --------------------------------------------------------------------------------------------

STATUS_ORDER: dict[str, int] = {"incorrect": 0, "unscored": 1, "correct": 2}
"""Order of conversation statuses in the explorer: failing first."""

EXPORT_FILES: dict[str, str] = {
    "interactions": "interactions.csv",
    "conversations": "conversations.csv",
    "tasks": "tasks.csv",
    "summary": "summary.json",
    "settings": "settings.json",
}
"""Export name -> file name, as :func:`write_exports` writes them."""

_CELL_CHARS = 400  # parameter / result text shown in one diff cell


def conversation_bounds(result: EvaluationResult) -> tuple[np.ndarray, np.ndarray]:
    """First and one-past-last interaction row of every conversation (``conv_index`` is sorted)."""
    starts = np.searchsorted(result.conv_index, np.arange(result.n_conversations)).astype(np.int64)
    ends = np.append(starts[1:], len(result.conv_index)).astype(np.int64)
    return starts, ends


def conversation_index(result: EvaluationResult) -> pd.DataFrame:
    """Weight-independent identity of every conversation, built once per run.

    ``session_id`` alone is not unique (seed-000 data reuses it across attempts), so the
    conversation is identified by ``row`` (its position in the run) and shown with its
    ``assistant_id``.

    Returns:
        Columns ``row``, ``session_id``, ``assistant_id``, ``task_key``, ``first_query``.
    """
    n = result.n_conversations
    starts, _ = conversation_bounds(result)
    queries = result.interactions["query"].to_numpy(dtype=object)
    return pd.DataFrame(
        {
            "row": np.arange(n, dtype=np.int64),
            "session_id": pd.Series(result.session_ids, dtype=object),
            "assistant_id": pd.Series([c.assistant_id for c in result.conversations], dtype=object),
            "task_key": pd.Series(
                np.asarray(result.task_keys, dtype=object)[result.task_codes] if n else [], dtype=object
            ),
            "first_query": pd.Series(queries[starts] if n else [], dtype=object),
        }
    )


class SearchIndex:
    """Lower-cased text to search conversations in, built once per run (vectorised search).

    Args:
        result: The evaluated run.
    """

    def __init__(self, result: EvaluationResult) -> None:
        inter = result.interactions
        self.n_conversations = result.n_conversations
        self.conv_index = result.conv_index
        self.interaction_text = (inter["query"].astype(str) + "\n" + inter["answer"].astype(str)).str.lower()
        ids = pd.Series(result.session_ids, dtype=object).astype(str)
        assistants = pd.Series([c.assistant_id for c in result.conversations], dtype=object).astype(str)
        self.id_text = (ids + "\n" + assistants).str.lower()

    def search(self, term: str) -> np.ndarray:
        """Conversations whose session id, assistant id, queries or answers contain ``term``.

        Case-insensitive, literal (not a regular expression); an empty term matches everything.

        Returns:
            Boolean mask, one entry per conversation.
        """
        needle = term.strip().lower()
        if not needle:
            return np.ones(self.n_conversations, dtype=bool)
        mask = self.id_text.str.contains(needle, regex=False).fillna(False).to_numpy(dtype=bool)
        hits = self.interaction_text.str.contains(needle, regex=False).fillna(False).to_numpy(dtype=bool)
        mask = mask.copy()
        mask[self.conv_index[hits]] = True
        return mask


def explorer_table(
    agg: Aggregate,
    index: pd.DataFrame,
    *,
    mask: np.ndarray | None = None,
    statuses: Collection[str] | None = None,
) -> pd.DataFrame:
    """Conversations under the current settings, failing first (incorrect, unscored, correct).

    Args:
        agg: The aggregate (current settings).
        index: From :func:`conversation_index` for the same run.
        mask: Optional boolean mask per conversation (e.g. :meth:`SearchIndex.search`).
        statuses: Keep only these statuses (``None`` keeps all).

    Returns:
        One row per kept conversation, ordered by status then ``row``.
    """
    conv = agg.conversations
    frame = pd.DataFrame(
        {
            "row": index["row"].to_numpy(),
            "status": conv["status"].to_numpy(),
            "session_id": index["session_id"].to_numpy(),
            "assistant_id": index["assistant_id"].to_numpy(),
            "task_key": index["task_key"].to_numpy(),
            "interactions": conv["total_interactions"].to_numpy(),
            "correct": conv["correct_interactions"].to_numpy(),
            "unscored": conv["unscored_interactions"].to_numpy(),
            "min_score": conv["min_score"].to_numpy(),
            "tool_correct": conv["tool_correct_interactions"].to_numpy(),
            "tool_scored": conv["tool_interactions"].to_numpy(),
            "first_query": index["first_query"].to_numpy(),
        }
    )
    keep = np.ones(len(frame), dtype=bool)
    if mask is not None:
        keep &= np.asarray(mask, dtype=bool)
    if statuses is not None:
        keep &= frame["status"].isin(list(statuses)).to_numpy()
    frame = frame[keep]
    rank = frame["status"].map(STATUS_ORDER).to_numpy(dtype=np.int64)
    return frame.iloc[np.argsort(rank, kind="stable")].reset_index(drop=True)


def _json_text(value: Any, limit: int = _CELL_CHARS) -> str:
    """Compact JSON of a value with sorted keys, shortened for one table cell."""
    try:
        text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _call_label(index: int, name: str, step: int | None) -> str:
    return f"#{index + 1} {name}" + (f" (step {step})" if step is not None else "")


def tool_diff(interaction: Interaction, components: ToolComponents) -> pd.DataFrame:
    """Expected-vs-used tool calls of one interaction, one row per call pairing.

    ``diff`` is ``match`` (same tool, parameters agree), ``parameter mismatch`` (same tool,
    some parameter disagrees: listed in ``mismatches``), ``missing`` (a required expected call
    never made), ``optional, not called`` or ``extra`` (a used call matching no expected call).
    Rows follow :attr:`ToolComponents.matches` (expected order, extras after the match before them).

    Returns:
        Columns ``diff``, ``expected_call``, ``expected_parameters``, ``used_call``,
        ``used_parameters``, ``result``, ``agreement`` (NaN when unmatched), ``mismatches``.
    """
    expected = interaction.ground_truth_agentic.expected_tools if interaction.ground_truth_agentic else []
    used = interaction.agentic.tools_used if interaction.agentic else []
    errors = list(components.param_errors)
    cursor = 0
    rows: list[dict[str, Any]] = []
    for m in components.matches:
        exp = expected[m.expected_index] if m.expected_index is not None else None
        call = used[m.used_index] if m.used_index is not None else None
        mismatches: list[str] = []
        if exp is not None and call is not None:
            kind = "match" if m.agreement >= 1.0 else "parameter mismatch"
            # The pair's errors are consecutive in param_errors (display order); how many is
            # fixed by its agreement over the compared (non-ignored) parameter names.
            names = set(exp.parameters) | set(call.parameters)
            compared = sum(
                1 for n in names if not (n in exp.parameter_rules and exp.parameter_rules[n].rule == "ignore")
            )
            n_err = compared - round(m.agreement * compared) if compared else 0
            for err in errors[cursor : cursor + n_err]:
                if err.why == "missing from the call":
                    mismatches.append(f"{err.param_name}: expected {_json_text(err.expected_value, 80)}, omitted")
                elif err.why == "not an expected parameter":
                    mismatches.append(f"{err.param_name}: not expected, got {_json_text(err.used_value, 80)}")
                else:
                    mismatches.append(
                        f"{err.param_name}: expected {_json_text(err.expected_value, 80)}, "
                        f"got {_json_text(err.used_value, 80)} ({err.why})"
                    )
            cursor += n_err
        elif exp is not None:
            kind = "optional, not called" if exp.optional else "missing"
        else:
            kind = "extra"
        rows.append(
            {
                "diff": kind,
                "expected_call": "" if exp is None else _call_label(m.expected_index or 0, exp.tool_name, exp.step)
                + (" (optional)" if exp.optional else ""),
                "expected_parameters": "" if exp is None else _json_text(exp.parameters),
                "used_call": "" if call is None else _call_label(m.used_index or 0, call.tool_name, call.step),
                "used_parameters": "" if call is None else _json_text(call.parameters),
                "result": "" if call is None else _json_text(call.result),
                "agreement": m.agreement if exp is not None and call is not None else math.nan,
                "mismatches": "; ".join(mismatches),
            }
        )
    return pd.DataFrame(
        rows,
        columns=[
            "diff",
            "expected_call",
            "expected_parameters",
            "used_call",
            "used_parameters",
            "result",
            "agreement",
            "mismatches",
        ],
    )


@dataclass(frozen=True)
class InteractionDetail:
    """One interaction of a conversation under the current settings (for the drill-down).

    ``status`` is ``correct`` / ``incorrect`` / ``unscored`` as counted by the aggregate (it
    includes the tool requirement when that option is on); ``verdict`` says why in words.
    ``tool`` is ``None`` when tool correctness does not apply (no tools expected nor used).
    """

    row: int
    position: int
    qa_id: str
    query: str
    answer: str
    ground_truth: str
    judge_score: float | None
    judge_status: str
    judge_reasoning: str | None
    judge_error: str | None
    status: str
    verdict: str
    tool: ToolCorrectnessScore | None
    tool_diff: pd.DataFrame | None


def conversation_detail(result: EvaluationResult, agg: Aggregate, row: int) -> list[InteractionDetail]:
    """The interactions of conversation ``row`` with judge, verdict, tool score and diff.

    Only this conversation's interactions are combined, so it is cheap on any dataset size.

    Raises:
        DataError: ``row`` is not a conversation of the run.
    """
    n = result.n_conversations
    if not (isinstance(row, (int, np.integer)) and 0 <= int(row) < n):
        raise DataError("conversation", f"must be a row between 0 and {n - 1}", row, "pick one from the list")
    row = int(row)
    starts, ends = conversation_bounds(result)
    lo, hi = int(starts[row]), int(ends[row])
    s = agg.settings
    base = result.interactions
    inter = agg.interactions
    out: list[InteractionDetail] = []
    for j, interaction in enumerate(result.conversations[row].conversation):
        i = lo + j
        if i >= hi:  # defensive: the conversation list and the frame disagree
            break
        raw = float(base["score"].iat[i])
        score = None if math.isnan(raw) else raw
        comp = result.tool_components[i]
        tool = None if comp is None else combine(comp, s.tool_weights, s.tool_threshold, s.ignore_extra_tools)
        error = base["judge_error"].iat[i]
        if score is None:
            status = "unscored"
            verdict = f"Unscored: the judge failed ({error or 'no score'})"
            verdict += (
                "; counted as incorrect by option." if s.unscored_as_incorrect else "; its conversation is excluded."
            )
        else:
            correct = bool(inter["correct"].iat[i])
            status = "correct" if correct else "incorrect"
            passes = score >= s.threshold - 1e-9
            verdict = (
                f"Judge score {score:.2f} {'≥' if passes else '<'} answer threshold {s.threshold:.2f}"
            )
            if s.require_tool_correctness and tool is not None:
                verdict += (
                    f"; tool use {'meets' if tool.is_correct else 'is below'} the tool threshold "
                    f"{s.tool_threshold:g} (required)"
                )
            verdict += f": {status}."
        reasoning = base["judge_reasoning"].iat[i]
        out.append(
            InteractionDetail(
                row=row,
                position=int(base["position"].iat[i]),
                qa_id=str(base["qa_id"].iat[i]),
                query=str(base["query"].iat[i]),
                answer=str(base["answer"].iat[i]),
                ground_truth=str(base["ground_truth"].iat[i]),
                judge_score=score,
                judge_status=str(base["judge_status"].iat[i]),
                judge_reasoning=None if reasoning is None or reasoning != reasoning else str(reasoning),
                judge_error=None if error is None or error != error else str(error),
                status=status,
                verdict=verdict,
                tool=tool,
                tool_diff=None if comp is None else tool_diff(interaction, comp),
            )
        )
    return out


def export_bytes(result: EvaluationResult, agg: Aggregate, name: str) -> bytes:
    """One export file's content, byte-identical to what :func:`write_exports` writes.

    Args:
        name: A key of :data:`EXPORT_FILES`.

    Raises:
        SettingsError: unknown export name.
    """
    if name == "interactions":
        return interactions_table(result, agg).to_csv(index=False).encode("utf-8")
    if name == "conversations":
        return conversations_table(agg).to_csv(index=False).encode("utf-8")
    if name == "tasks":
        return tasks_table(agg).to_csv(index=False).encode("utf-8")
    if name == "summary":
        return json.dumps(summary(result, agg), indent=2, ensure_ascii=False).encode("utf-8")
    if name == "settings":
        return json.dumps(run_metadata(result, agg), indent=2).encode("utf-8")
    raise SettingsError("export", f"must be one of {', '.join(EXPORT_FILES)}", name, "pick a listed export")


def export_zip(result: EvaluationResult, agg: Aggregate) -> bytes:
    """A ZIP holding every file of :data:`EXPORT_FILES` (deterministic: fixed timestamps)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, file_name in EXPORT_FILES.items():
            info = zipfile.ZipInfo(file_name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, export_bytes(result, agg, name))
    return buffer.getvalue()


_CLI_JUDGES = ("hybrid", "lexical", "embedding", "dataset", "llm")


def cli_command(result: EvaluationResult, agg: Aggregate, data: str = "DATA.jsonl", out: str = "exports") -> str:
    """The ``python -m agentic_core evaluate`` command producing the same exports.

    Args:
        data: The data path to show (the dashboard does not know where an upload came from).
        out: The output directory to show.
    """
    s = agg.settings
    identity = result.judge_identity
    parts = ["python", "-m", "agentic_core", "evaluate", data]
    if identity.kind in _CLI_JUDGES:
        parts += ["--judge", identity.kind]
    if identity.kind == "llm":
        if identity.params.get("provider"):
            parts += ["--provider", str(identity.params["provider"])]
        if identity.model:
            parts += ["--model", identity.model]
    weights = ",".join(f"{n}={w!r}" for n, w in zip(DIMENSIONS, s.tool_weights.as_tuple(), strict=True))
    parts += [
        "--threshold", repr(s.threshold),
        "--k", str(s.k),
        "--unit", s.unit,
        "--estimator", s.estimator,
        "--mode", s.mode,
        "--prior", f"{s.prior_a!r},{s.prior_b!r}",
        "--ci", repr(s.ci_level),
        "--seed", str(s.seed),
        "--tool-threshold", repr(s.tool_threshold),
        "--tool-weights", weights,
    ]  # fmt: skip
    if s.ignore_extra_tools:
        parts.append("--ignore-extra-tools")
    if s.require_tool_correctness:
        parts.append("--require-tools")
    if s.unscored_as_incorrect:
        parts.append("--unscored-as-incorrect")
    parts += ["--out", out]
    return shlex.join(parts)


def normalised_tool_weights(weights: ToolWeights) -> dict[str, float]:
    """The tool weights as used: each divided by their sum (which validation keeps above 0).

    Where utilization is not assessable for an interaction, the other three are renormalised
    over themselves for that interaction (see :func:`agentic_core.tools.combine`).
    """
    values = weights.as_tuple()
    total = sum(values)
    return {name: w / total for name, w in zip(DIMENSIONS, values, strict=True)}
