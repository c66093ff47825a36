"""The export files: CSV per interaction / conversation / task, the JSON summary, the settings file.

Every export reflects the aggregate it is given (the current slider settings) and carries the
settings and the judge identity, so a file found later says how its numbers were made.
"""

from __future__ import annotations

import io
import json
import math
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from agentic_core import stats
from agentic_core.analysis.aggregate import Aggregate
from agentic_core.analysis.statistics_words import per_group_statistics
from agentic_core.common.frame_columns import AT_K, ConversationCols, InteractionCols, ResultCols, StatCols
from agentic_core.errors import SettingsError
from agentic_core.report.agentic_columns import (
    add_agentic_fields,
    agentic_summary_dict,
    with_agentic_columns,
    with_topic_columns,
)
from agentic_core.report.documents import CurvePointDocument, RunMetadataDocument, SummaryDocument
from agentic_core.result import EvaluationResult
from agentic_core.settings import UNIT_DESCRIPTIONS
from agentic_core.tools import ToolCorrectnessScore, combine
from agentic_core.version import __version__


def json_ready(value: Any) -> Any:
    """JSON-safe value: NaN/inf -> None, numpy scalars -> Python."""
    if isinstance(value, (np.floating, float)):
        f = float(value)
        return None if not math.isfinite(f) else f
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, dict):
        return {str(k): json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    return value


def curve_point_dict(point: stats.CurvePoint) -> CurvePointDocument:
    """One curve point as a JSON-ready dict (intervals as ``[low, high]`` or null)."""
    return json_ready(
        {
            "k": point.k,
            "pass_at_k": point.pass_at_k,
            "pass_pow_k": point.pass_pow_k,
            "pass_at_k_ci": list(point.pass_at_k_ci) if point.pass_at_k_ci is not None else None,
            "pass_pow_k_ci": list(point.pass_pow_k_ci) if point.pass_pow_k_ci is not None else None,
            "n_groups": point.n_groups,
            "n_excluded": point.n_excluded,
            "excluded_reason": point.excluded_reason,
            "interval_method": point.interval_method,
            "mode": point.mode,
            "target": point.target,
            "notes": list(point.notes),
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
    inter = agg.interactions
    applicable = base[ResultCols.TOOL_APPLICABLE]
    selection = ResultCols.TOOL_SELECTION_IGNORE_EXTRA if agg.settings.ignore_extra_tools else ResultCols.TOOL_SELECTION
    # The file's own names (a public contract) where they differ from the frames': conversation, judge_score.
    frame = pd.DataFrame(
        {
            ConversationCols.CONVERSATION: base[ResultCols.CONV],
            **{name: base[name] for name in _AS_LOADED},
            # The score under the settings' abstention band (the judge's own unless the band is set).
            "judge_score": inter[InteractionCols.SCORE],
            ResultCols.JUDGE_STATUS: base[ResultCols.JUDGE_STATUS],
            InteractionCols.CORRECT: np.where(inter[InteractionCols.UNSCORED], None, inter[InteractionCols.CORRECT]),
            ResultCols.JUDGE_REASONING: base[ResultCols.JUDGE_REASONING],
            ResultCols.JUDGE_ERROR: base[ResultCols.JUDGE_ERROR],
            ResultCols.TOOL_SELECTION: np.where(applicable, base[selection], np.nan),
            **{name: base[name] for name in _TOOL_DIMENSIONS},
            InteractionCols.TOOL_OVERALL: inter[InteractionCols.TOOL_OVERALL],
            InteractionCols.TOOL_CORRECT: np.where(applicable, inter[InteractionCols.TOOL_CORRECT], None),
        }
    )
    # A person's verdict, where one replaced the judge's (it decides "correct" above).
    overrides = result.overrides
    frame["human_override"] = [
        ("correct" if overrides[row].correct else "incorrect") if row in overrides else "" for row in range(len(frame))
    ]
    frame["human_note"] = [overrides[row].note if row in overrides else "" for row in range(len(frame))]
    # The judge's calibrated P(correct) (empty when it gives none; an abstention keeps it). Added after the
    # columns scripts already read by position.
    frame[ResultCols.JUDGE_PROBABILITY] = base.get(ResultCols.JUDGE_PROBABILITY, np.nan)
    if with_reasoning:
        frame["tool_reasoning"] = [None if t is None else t.reasoning for t in tool_scores(result, agg)]
    # Abstained on under the settings' abstention band (unscored, carrying its probability); added after the rest.
    frame[InteractionCols.UNCERTAIN] = inter[InteractionCols.UNCERTAIN].to_numpy()
    return with_topic_columns(frame, result)


_AS_LOADED = (
    ResultCols.SESSION_ID, ResultCols.ASSISTANT_ID, ResultCols.TASK_KEY, ResultCols.POSITION, ResultCols.QA_ID,
    ResultCols.QUERY, ResultCols.ANSWER, ResultCols.GROUND_TRUTH,
)  # fmt: skip
"""The interactions file's columns copied as loaded, in the file's order."""
_TOOL_DIMENSIONS = (ResultCols.TOOL_PARAMETERS, ResultCols.TOOL_SEQUENCE, ResultCols.TOOL_UTILIZATION)
"""The tool dimensions the interactions file copies as scored (selection follows ``ignore_extra_tools``)."""


def conversations_table(agg: Aggregate) -> pd.DataFrame:
    """One row per conversation (seed-003 counts, status and per-conversation pass@K).

    The ``statistics`` column says how the per-conversation numbers were made, so a CSV read on its
    own still names its mode, estimator and prior. The per-conversation numbers need a conversation
    with K or more interactions: where no conversation has them, their columns would be empty on
    every row, so they are left out with the ``statistics`` column that describes them (the run's
    curve, in the summary, is over tasks and has them).
    """
    frame = agg.conversations.assign(k=agg.k)
    numbers = [c for c in frame.columns if c not in _CONVERSATION_BASICS]
    values = [c for c in numbers if c != StatCols.DEFINED]  # 'defined' says whether the others have values
    if values and frame[values].isna().all().all():
        return frame.drop(columns=numbers)
    return frame.assign(statistics=per_group_statistics(agg.settings))


_CONVERSATION_BASICS = frozenset({*ConversationCols.OWN, "k"})
"""The conversations table's own columns (the others are its per-conversation statistics)."""


def tasks_table(agg: Aggregate) -> pd.DataFrame:
    """One row per group of the unit actually used (tasks for ``task``), with how its numbers were made."""
    return agg.groups.assign(k=agg.k, statistics=per_group_statistics(agg.settings))


_RECORD_COUNTS = (
    ConversationCols.SESSION_ID, ConversationCols.ASSISTANT_ID, ConversationCols.TASK_KEY, ConversationCols.STATUS,
    ConversationCols.TOTAL_INTERACTIONS, ConversationCols.CORRECT_INTERACTIONS, ConversationCols.UNSCORED_INTERACTIONS,
    ConversationCols.IS_FULLY_CORRECT,
)  # fmt: skip
"""The conversations frame's columns a per-conversation record starts with (seed 003's names)."""


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
    starts, ends = result.conversation_bounds()
    judge_score = inter[InteractionCols.SCORE].to_numpy()  # under the settings' abstention band
    reasoning = result.interactions[ResultCols.JUDGE_REASONING].tolist()
    errors = result.interactions[ResultCols.JUDGE_ERROR].tolist()
    correct = inter[InteractionCols.CORRECT].to_numpy()
    for ci in range(result.n_conversations):
        lo, hi = int(starts[ci]), int(ends[ci])
        row = conv_rows.iloc[ci]
        records.append(
            json_ready(
                {
                    **{name: row[name] for name in _RECORD_COUNTS},
                    "threshold": s.threshold,
                    "correctness_scores": [None if np.isnan(x) else float(x) for x in judge_score[lo:hi]],
                    "correct_indices": [int(i) for i in np.flatnonzero(correct[lo:hi])],
                    "judge_reasoning": [
                        # An abstention the settings' band decides is scored: its reasoning, not "unscored".
                        reasoning[i] if errors[i] is None or not np.isnan(judge_score[i]) else f"unscored: {errors[i]}"
                        for i in range(lo, hi)
                    ],
                    "tool_correctness_scores": [None if t is None else t.model_dump() for t in scores[lo:hi]],
                    "k": agg.k,
                    **{name: row.get(name) for name in AT_K},  # the statistics a record ends with
                }
            )
        )
    return add_agentic_fields(records, result)


def run_metadata(result: EvaluationResult, agg: Aggregate) -> RunMetadataDocument:
    """Settings, judge identity, unit and counts: written beside every export."""
    run = result.judge_run
    return json_ready(
        {
            "tool_version": __version__,
            "settings": agg.settings.model_dump(),
            "unit": agg.unit,
            "unit_description": UNIT_DESCRIPTIONS[agg.unit],
            "unit_reason": agg.unit_reason,
            "k": agg.k,
            "k_reason": agg.k_reason,
            "statistics": agg.statistics.model_dump(),
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
) -> SummaryDocument:
    """The JSON summary: curve, interpretation, K evidence, counts, tool correctness, settings, judge."""
    out: SummaryDocument = {
        **run_metadata(result, agg),
        "curve": [curve_point_dict(p) for p in agg.curve],
        "headline": curve_point_dict(agg.headline),
        "interpretation": agg.interpretation,
        "interpretation_text": stats.explain_label(agg.interpretation) if agg.interpretation else None,
        # An added field: whether the data measures pass@K / pass^K (repeated attempts per task) and, when
        # not, why they are null and what would measure them.
        "k_evidence": agg.k_evidence.model_dump(),
        "counts": agg.counts.model_dump(),
        "conversation_success_rate": {
            "rate": agg.success_rate.value,
            "ci": None if agg.success_rate.ci is None else list(agg.success_rate.ci),
            "interval_method": agg.success_rate.interval_method,
            "observed": agg.success_rate.observed,
            "description": "pass@1 by the curve's method, on the same groups, with the same interval; "
            "observed is the plain share of scored conversations fully correct",
        },
        "excluded_groups": agg.excluded_groups,
        "unscored_bounds": None if agg.unscored is None else agg.unscored.model_dump(),
        "tool_correctness": agg.tool_summary.model_dump(),
    }
    if result.agentic is not None:
        out["agentic_metrics"] = agentic_summary_dict(result, agg.settings.ci_level)
    if include_conversations:
        out["conversations"] = conversation_records(result, agg)
    return json_ready(out)


def write_exports(result: EvaluationResult, agg: Aggregate, out_dir: str | Path) -> dict[str, Path]:
    """Write the three CSVs, the JSON summary and the settings file into ``out_dir``.

    Each file is written whole or not at all (:func:`~agentic_core.common.atomic_file.write_atomic`): a full
    disk leaves no half-written CSV.

    Returns:
        Mapping of export name to the path written.

    Raises:
        OutputError: a file cannot be written (the message names it and the fix).
    """
    from agentic_core.common.atomic_file import write_atomic

    out = Path(out_dir)
    paths = {name: out / file_name for name, file_name in EXPORT_FILES.items()}
    for name, path in paths.items():
        write_atomic(path, export_bytes(result, agg, name))
    return paths



# A spreadsheet runs a cell that starts with one of these as a formula (OWASP, "CSV Injection").
_FORMULA_START = r"^[=+\-@\t\r]"


def csv_bytes(frame: pd.DataFrame) -> bytes:
    """A table as UTF-8 CSV, with every text cell a spreadsheet would run as a formula neutralised.

    An answer such as ``=HYPERLINK("http://evil", "click")`` or ``=cmd|' /C calc'!A0`` would run when
    the CSV is opened in a spreadsheet. Following OWASP's rule, a text cell starting with ``=``,
    ``+``, ``-``, ``@``, a tab or a carriage return gets a leading single quote, which spreadsheets
    show as text; numbers are left alone.
    """
    safe = frame.copy(deep=False)
    for column in safe.columns:
        values = safe[column]
        if values.dtype.kind not in ("O", "U", "T") and not pd.api.types.is_string_dtype(values):
            continue
        texts = values.astype("string")
        risky = texts.str.contains(_FORMULA_START, regex=True, na=False).to_numpy(dtype=bool)
        if risky.any():
            values = values.astype(object).copy()
            values[risky] = "'" + texts[risky].astype(object)
            safe[column] = values
    return safe.to_csv(index=False).encode("utf-8")


EXPORT_FILES: dict[str, str] = {
    "interactions": "interactions.csv",
    "conversations": "conversations.csv",
    "tasks": "tasks.csv",
    "summary": "summary.json",
    "settings": "settings.json",
}
"""Export name -> file name, as :func:`write_exports` writes them."""


def export_bytes(result: EvaluationResult, agg: Aggregate, name: str) -> bytes:
    """One export file's content, byte-identical to what :func:`write_exports` writes.

    Args:
        name: A key of :data:`EXPORT_FILES`.

    Raises:
        SettingsError: unknown export name.
    """
    if name == "interactions":
        return csv_bytes(interactions_table(result, agg))
    if name == "conversations":
        return csv_bytes(with_agentic_columns(conversations_table(agg), result))
    if name == "tasks":
        return csv_bytes(tasks_table(agg))
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
