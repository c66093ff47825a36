"""The headline's pass@K / pass^K lines of the text output (``evaluate`` and ``runs show`` print the same), and
the corrected headline's (issue 37; the words are the core's, :mod:`agentic_core.analysis.corrected_words`).

When the data does not measure pass@K (one attempt per task: the core's
:attr:`~agentic_core.analysis.aggregate.Aggregate.k_evidence`, ``k_evidence`` in the summary document),
no number is printed: the lines say so, why and what K > 1 needs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from agentic_core.analysis.corrected_words import NO_LABELS_HINT, corrected_at_k_text, corrected_sentence
from agentic_core.report.documents import SummaryDocument

if TYPE_CHECKING:
    from agentic_core.analysis.aggregate import Aggregate
    from agentic_core.analysis.corrected_reading import CorrectedReading


def pass_k_lines(doc: SummaryDocument, number: Callable[[float | None, Sequence[float] | None], str]) -> list[str]:
    """pass@K, pass^K and the interpretation, as lines of text.

    Args:
        doc: The summary document.
        number: A value and its interval as text (each command keeps its own format).

    Returns:
        Three lines when pass@K is measured; else two saying it is not, why and what would measure it.
    """
    head, evidence = doc["headline"], doc["k_evidence"]
    k = head["k"]
    if not evidence["measured"]:
        return [
            f"pass@{k} not measured: {evidence['reason']}",
            f"pass^{k} not measured; interpretation: none (it reads pass@{k} and pass^{k})",
        ]
    return [
        f"pass@{k} = {number(head['pass_at_k'], head['pass_at_k_ci'])}",
        f"pass^{k} = {number(head['pass_pow_k'], head['pass_pow_k_ci'])}",
        f"interpretation: {doc['interpretation'] or 'undefined'}",
    ]


def corrected_lines(reading: CorrectedReading | None, agg: Aggregate) -> list[str]:
    """The corrected headline beside the judge-only one, its notes and unmatched labels; or how to get one.

    Args:
        reading: The aggregation's corrected reading (:attr:`Aggregate.corrected`), ``None`` without labels.
        agg: The aggregation it corrects.
    """
    if reading is None:
        return [f"corrected: {NO_LABELS_HINT}"]
    lines = [corrected_sentence(reading, agg)]
    if (at_k := corrected_at_k_text(reading)) is not None:
        lines.append(at_k)
    lines.extend(f"  corrected note: {note}" for note in reading.notes)
    lines.extend(f"  unmatched label: {example}" for example in reading.unmatched_examples)
    return lines
