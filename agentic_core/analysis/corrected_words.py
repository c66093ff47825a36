"""The headline in words, with every conversation accounted for: what the CLI, the endpoint and the pages say.

Issue 37 §4, "no silent exclusion": wherever a headline is computed without some conversations (those with an
unscored interaction, unless they count as incorrect), it says ``on N of M conversations``
(:func:`conversations_counted`). Beside it, the corrected headline (:func:`corrected_sentence`) uses every
conversation and says how many human labels it rests on and how well the judge agrees with them; without labels,
:data:`NO_LABELS_HINT` says how to get one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from agentic_core.common.wording import plural

if TYPE_CHECKING:
    from agentic_core.analysis.aggregate import Aggregate
    from agentic_core.analysis.corrected_reading import CorrectedReading

NO_LABELS_HINT = (
    "no human labels: the numbers are the judge's alone, with its errors. For a headline corrected for them, "
    "label a random sample of tasks (the dashboard's review queue) or pass --labels FILE (session_id, optional "
    "qa_id, label)"
)
"""What to do for a corrected headline when a run has no human label (the CLI prints it under the headline)."""


def _estimate_text(value: float | None, ci: Sequence[float] | None, digits: int = 2) -> str:
    text = "undefined" if value is None else f"{value:.{digits}f}"
    return text if ci is None else f"{text} [{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]"


def conversations_counted(agg: Aggregate) -> str | None:
    """``on 38 of 56 conversations`` when the headline leaves conversations out; ``None`` when it counts them all.

    Args:
        agg: The aggregation (its counts under the settings: with "count unscored as incorrect" none is left out).
    """
    counts = agg.counts
    if counts.scored_conversations >= counts.conversations:
        return None
    return f"on {counts.scored_conversations} of {plural(counts.conversations, 'conversation')}"


def judge_alone_text(agg: Aggregate, digits: int = 2) -> str:
    """The judge-only success rate with its interval and, when some are left out, the conversations it rests on."""
    head = agg.headline
    counted = conversations_counted(agg)
    return _estimate_text(head.success_rate, head.success_rate_ci, digits) + (f" {counted}" if counted else "")


def corrected_sentence(reading: CorrectedReading, agg: Aggregate, digits: int = 2) -> str:
    """The corrected headline beside the judge-only one, in one sentence.

    ``corrected with 54 human labels on 26 tasks: success rate 0.52 [0.46, 0.58]; judge alone 0.48 [0.32, 0.63]
    on 38 of 56 conversations; judge sensitivity 0.79 [0.62, 0.90], specificity 0.92 [0.75, 0.98]``.

    Args:
        reading: The corrected reading (:attr:`Aggregate.corrected`).
        agg: The aggregation it corrects.
        digits: Decimals of the numbers.
    """
    rate = reading.success_rate
    value = _estimate_text(rate.estimate, rate.ci, digits) if rate.estimate is not None else "not computed (see notes)"
    parts = [
        f"corrected with {plural(reading.n_labelled, 'human label')} on {plural(reading.n_labelled_tasks, 'task')}: "
        f"success rate {value}",
        f"judge alone {judge_alone_text(agg, digits)}",
    ]
    if reading.sensitivity is not None and reading.specificity is not None:
        parts.append(
            f"judge sensitivity {_estimate_text(reading.sensitivity, reading.sensitivity_ci, digits)}, "
            f"specificity {_estimate_text(reading.specificity, reading.specificity_ci, digits)}"
        )
    return "; ".join(parts)


def corrected_at_k_text(reading: CorrectedReading, digits: int = 2) -> str | None:
    """``corrected pass@5 0.81 [0.70, 0.90], pass^5 0.22 [0.12, 0.33]``; ``None`` when K is not measured."""
    if reading.pass_at_k is None or reading.pass_pow_k is None:
        return None
    at, pw = reading.pass_at_k, reading.pass_pow_k
    return (
        f"corrected pass@{reading.k} {_estimate_text(at.estimate, at.ci, digits)}, "
        f"pass^{reading.k} {_estimate_text(pw.estimate, pw.ci, digits)}"
    )
