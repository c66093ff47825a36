"""The headline's pass@K / pass^K lines of the text output (``evaluate`` and ``runs show`` print the same).

When the data does not measure pass@K (one attempt per task: the core's
:attr:`~agentic_core.analysis.aggregate.Aggregate.k_evidence`, ``k_evidence`` in the summary document),
no number is printed: the lines say so, why and what K > 1 needs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from agentic_core.report.documents import SummaryDocument


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
