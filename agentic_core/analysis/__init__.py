"""Everything computed from a judged run without calling a judge: aggregates, comparisons, calibration, gate, words.

This face is what callers outside use. Eager: nothing here needs an optional package. ``aggregate``, ``label_queue``,
``k_evidence``, ``telemetry_cost`` and ``band_controls`` name both a module and its function; here they are the
functions.
"""

from agentic_core.analysis.abstention import band_in_force, judge_band
from agentic_core.analysis.agentic_summary import AgenticSummary, agentic_table, conversations_below, summarise_agentic
from agentic_core.analysis.aggregate import Aggregate, aggregate
from agentic_core.analysis.assistant_breakdown import AssistantRow, by_assistant
from agentic_core.analysis.band_advice import TARGET_ACCURACY, BandAdvice, BandSuggestion, run_band_advice
from agentic_core.analysis.band_controls import BandControls, band_controls
from agentic_core.analysis.calibration import CELLS, Calibration, calibrate_run, has_human_verdicts, threshold_text
from agentic_core.analysis.calibration_guard import MIN_PER_VERDICT, run_threshold_advice
from agentic_core.analysis.compare_corrected import CorrectedComparison, corrected_comparison
from agentic_core.analysis.compare_runs import SAME_VERDICTS_TEXT, RunComparison, Side, compare_sides, leaderboard_of
from agentic_core.analysis.headline_numbers import HeadlineNumbers
from agentic_core.analysis.k_evidence import KEvidence, k_evidence
from agentic_core.analysis.label_queue import (
    QUEUE_DESIGNS,
    LabelGain,
    LabelQueue,
    QueueDesign,
    QueueItem,
    QueueSize,
    label_gain,
    label_queue,
    queue_label,
    queue_size,
)
from agentic_core.analysis.label_queue_files import export_queue, import_queue_file
from agentic_core.analysis.nothing_scored import why_llm_scored_nothing
from agentic_core.analysis.selective import AbstentionPoint, run_selective_accuracy
from agentic_core.analysis.task_ranking import RANK_METRICS, RankMetric, TaskRanking, rank_tasks
from agentic_core.analysis.telemetry_cost import TelemetryCost, telemetry_cost
from agentic_core.analysis.tool_summary import ToolSummary
from agentic_core.analysis.uncertainty import PosteriorView, posterior_view

__all__ = [
    "CELLS", "MIN_PER_VERDICT", "QUEUE_DESIGNS", "RANK_METRICS", "SAME_VERDICTS_TEXT", "TARGET_ACCURACY",
    "AbstentionPoint", "AgenticSummary", "Aggregate", "AssistantRow", "BandAdvice", "BandControls", "BandSuggestion",
    "Calibration", "CorrectedComparison", "HeadlineNumbers", "KEvidence", "LabelGain", "LabelQueue", "PosteriorView",
    "QueueDesign", "QueueItem", "QueueSize", "RankMetric", "RunComparison", "Side", "TaskRanking", "TelemetryCost",
    "ToolSummary", "agentic_table", "aggregate", "band_controls", "band_in_force", "by_assistant", "calibrate_run",
    "compare_sides", "conversations_below", "corrected_comparison", "export_queue", "has_human_verdicts",
    "import_queue_file", "judge_band", "k_evidence", "label_gain", "label_queue", "leaderboard_of", "posterior_view",
    "queue_label", "queue_size", "rank_tasks", "run_band_advice", "run_selective_accuracy", "run_threshold_advice",
    "summarise_agentic", "telemetry_cost", "threshold_text", "why_llm_scored_nothing",
]  # fmt: skip
