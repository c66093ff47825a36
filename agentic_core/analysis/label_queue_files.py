"""The review queue as a file: exported to label elsewhere (CSV or JSONL), imported back as queue labels.

An exported row holds the label columns a labels file is read by (``session_id``, ``assistant_id``, ``qa_id``,
``label`` — empty until labelled —, ``design``, ``inclusion``), then what a person reads to label: the task, the
question, the answer, the reference and the judge's verdict and probability. Importing it back reads the label
columns only (:func:`agentic_core.io.labels_file.read_labels_file`, source ``queue``): rows left blank are
counted, not labels; the design and inclusion probability written with each row come back with its label.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Literal

from agentic_core.analysis.label_queue import LabelQueue
from agentic_core.common.frame_columns import InteractionCols, ResultCols
from agentic_core.common.passing import reaches
from agentic_core.io.labels_file import LabelsFile, read_labels_file, write_labels

if TYPE_CHECKING:
    from agentic_core.analysis.aggregate import Aggregate
    from agentic_core.result import EvaluationResult

QUEUE_EXTRA_COLUMNS = ("task", "question", "answer", "reference", "judge_verdict", "judge_probability")
"""The columns an exported queue adds after the label columns, for the person labelling."""


def judge_verdict(score: float, threshold: float) -> str:
    """The judge's verdict in words: ``correct``, ``incorrect`` or ``no verdict`` (abstained or failed)."""
    if not math.isfinite(score):
        return "no verdict"
    return "correct" if bool(reaches(score, threshold)) else "incorrect"


def queue_rows(result: EvaluationResult, agg: Aggregate, queue: LabelQueue) -> list[dict[str, Any]]:
    """One row per queue item, in queue order: the label columns, then :data:`QUEUE_EXTRA_COLUMNS`."""
    frame = result.interactions
    scores = agg.interactions[InteractionCols.SCORE].to_numpy(dtype=float)
    probability = frame[ResultCols.JUDGE_PROBABILITY].to_numpy(dtype=float)
    rows = []
    for item in queue.items:
        p = float(probability[item.row])
        rows.append(
            {
                "session_id": item.session_id,
                "assistant_id": item.assistant_id,
                "qa_id": item.qa_id,
                "label": item.label,
                "design": queue.design,
                "inclusion": item.inclusion,
                "task": item.task,
                "question": str(frame[ResultCols.QUERY].iat[item.row]),
                "answer": str(frame[ResultCols.ANSWER].iat[item.row]),
                "reference": str(frame[ResultCols.GROUND_TRUTH].iat[item.row]),
                "judge_verdict": judge_verdict(float(scores[item.row]), agg.settings.threshold),
                "judge_probability": round(p, 4) if math.isfinite(p) else None,
            }
        )
    return rows


def export_queue(result: EvaluationResult, agg: Aggregate, queue: LabelQueue, fmt: Literal["csv", "jsonl"]) -> bytes:
    """The queue as a CSV or JSONL file (labels given so far filled in, the others empty)."""
    return write_labels(queue_rows(result, agg, queue), fmt, extra=QUEUE_EXTRA_COLUMNS)


def import_queue_file(data: bytes, name: str) -> LabelsFile:
    """Labels read back from an exported (and labelled) queue file, as queue labels.

    Raises:
        DataError: a row without session_id or with a label that is not 1 / 0 (the message names the line).
    """
    return read_labels_file(data, name, source="queue")
