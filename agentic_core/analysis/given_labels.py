"""Labels given beside a comparison (``compare --labels FILE``): given to both sides, and where each one matched.

The same labels go to both runs of a comparison, each run reading them as ``evaluate --labels`` does
(:func:`with_given_labels`: after the run's own, a given label replacing a stored one on the same item). Which
items they then correct is decided by the one matching rule,
:func:`~agentic_core.analysis.corrected_reading.match_labels`, run once per distinct run; a side that names an
assistant (``--assistants X,Y``) counts only the labels of its assistant's conversations. :func:`labels_on_sides`
counts the labels that matched an item of A, of B and of both, and names those that matched neither: nothing is
silently dropped (they stay out of the corrected difference, which reads only matched labels).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from agentic_core.analysis.corrected_reading import label_name, match_labels, merged_labels
from agentic_core.common.wording import plural

if TYPE_CHECKING:
    from agentic_core.analysis.compare_runs import Side
    from agentic_core.data.labels import HumanLabel
    from agentic_core.result import EvaluationResult

UNMATCHED_SHOWN = 5
"""How many labels that matched neither side are named (the others are counted)."""


class LabelsOnSides(BaseModel):
    """Where labels given beside a comparison matched.

    Attributes:
        n_labels: Labels given (one per item, after merging the files).
        matched_a: Labels that matched an item of side A (of its assistant, when it names one).
        matched_b: The same for side B.
        matched_both: Labels that matched an item of both sides (the two runs share the item's ids).
        unmatched: Labels that matched no item of either side.
        unmatched_examples: The first :data:`UNMATCHED_SHOWN` of them, as ``session_id[/assistant_id][#qa_id]``
            with why each side did not take it.
    """

    model_config = ConfigDict(frozen=True)

    n_labels: int
    matched_a: int
    matched_b: int
    matched_both: int
    unmatched: int
    unmatched_examples: tuple[str, ...] = ()

    def lines(self, a_label: str, b_label: str) -> list[str]:
        """What ``compare`` says on stderr: the matches per side, labels on both sides, the labels matching none.

        Args:
            a_label: Side A's name on screen.
            b_label: Side B's.
        """
        lines = [
            f"labels: {self.matched_a} of {plural(self.n_labels, 'label')} matched items of A ({a_label}), "
            f"{self.matched_b} of B ({b_label})"
        ]
        if self.matched_both:
            lines.append(
                f"note: {plural(self.matched_both, 'label')} matched items of both A and B (the runs share those "
                "ids): each labels the answer on both sides; to label one run's answer only, give its assistant_id"
            )
        if self.unmatched:
            lines.append(f"labels: {self.unmatched} matched no item of A or B (not used by the corrected difference)")
            lines.extend(f"  unmatched label: {example}" for example in self.unmatched_examples)
            if self.unmatched > len(self.unmatched_examples):
                lines.append(f"  ... and {self.unmatched - len(self.unmatched_examples)} more")
        return lines


def with_given_labels(result: EvaluationResult, labels: Sequence[HumanLabel]) -> EvaluationResult:
    """Give a run labels from outside it (``--labels FILE``): after its own, a given label wins on the same item.

    ``evaluate`` and ``compare`` both add their ``--labels`` files this way. The run is changed in place (its
    ``labels``, one per item) and returned; nothing else of it changes, and no judge is called.
    """
    result.labels = merged_labels(result.labels, labels)
    return result


def _why_not_on_side(
    side: Side, labels: Sequence[HumanLabel], cache: dict[int, tuple[list[int], list[str]]]
) -> list[str]:
    """Per label, ``""`` when it matched an item of the side, else why not."""
    key = id(side.result)
    if key not in cache:  # --assistants X,Y: one run, matched once
        matched = match_labels(side.result, labels)
        cache[key] = (matched.label_conv, matched.label_why)
    convs, whys = cache[key]
    if side.assistant is None:
        return whys
    assistants = side.result.assistant_ids()
    why_not = list(whys)
    for i, conv in enumerate(convs):
        if conv >= 0 and assistants[conv] != side.assistant:  # matched in the run, but another assistant's
            why_not[i] = f"a conversation of assistant {assistants[conv]}, not {side.assistant}"
    return why_not


def labels_on_sides(labels: Sequence[HumanLabel], a: Side, b: Side) -> LabelsOnSides:
    """Where the labels given beside a comparison matched: items of A, of B, of both, of neither.

    Args:
        labels: The given labels (one per item: :func:`~agentic_core.analysis.corrected_reading.merged_labels`).
        a: Side A (its run, and its assistant when it names one).
        b: Side B.

    Returns:
        The counts and the first labels that matched neither side, each with why.
    """
    cache: dict[int, tuple[list[int], list[str]]] = {}
    why_a, why_b = _why_not_on_side(a, labels, cache), _why_not_on_side(b, labels, cache)
    examples: list[str] = []
    unmatched = 0
    for label, not_a, not_b in zip(labels, why_a, why_b, strict=True):
        if not_a and not_b:
            unmatched += 1
            if len(examples) < UNMATCHED_SHOWN:
                why = not_a if not_a == not_b else f"A: {not_a}; B: {not_b}"
                examples.append(f"{label_name(label)} ({why})")
    return LabelsOnSides(
        n_labels=len(labels),
        matched_a=sum(not why for why in why_a),
        matched_b=sum(not why for why in why_b),
        matched_both=sum(not x and not y for x, y in zip(why_a, why_b, strict=True)),
        unmatched=unmatched,
        unmatched_examples=tuple(examples),
    )
