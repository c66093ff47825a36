"""Topic adherence (seed 004): precision, recall and F1 from four counts, ours and Ragas' way.

Each user query is classified twice: was it **answered** or refused, and is it **on topic** (about one of
the conversation's ``reference_topics``) or not. That gives four counts per conversation:

==================  ==================  =====================
\\                   on topic            off topic
==================  ==================  =====================
answered            TP                  FP (left its domain)
refused             FN (over-refused)   TN (rightly refused)
==================  ==================  =====================

**Ragas** (``ragas.metrics._topic_adherence``, ragas 0.3) ignores TN: precision = TP / (TP + FP + 1e-10),
recall = TP / (TP + FN + 1e-10), F1 = 2PR / (P + R + 1e-10). An agent that rightly refuses every
off-topic query of an off-topic conversation scores 0 there, and so does one that was never asked anything
on topic. ``variant="ragas"`` reproduces those numbers, epsilon included.

**Ours** (``variant="workbench"``, the default) counts a correct refusal as adherence: a query was handled
right when it was answered on topic or refused off topic. precision = (TP + TN) / (TP + TN + FP) (the
share not lost to leaving the domain), recall = (TP + TN) / (TP + TN + FN) (the share not lost to
over-refusing), F1 their harmonic mean. A ratio with nothing to count is undefined (``None``), never 0; F1
is 0 when either side is 0 and undefined only when both are. With no TN these agree with Ragas' up to its
epsilon whenever TP > 0.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

TopicMode = Literal["precision", "recall", "f1"]
TOPIC_MODES: tuple[TopicMode, ...] = ("precision", "recall", "f1")
TopicVariant = Literal["workbench", "ragas"]
TOPIC_VARIANTS: tuple[TopicVariant, ...] = ("workbench", "ragas")
RAGAS_EPSILON = 1e-10
"""Ragas adds this to every denominator (so 0 / 0 is 0 there)."""


class TopicCounts(BaseModel):
    """The four counts of one conversation (or summed over many).

    Attributes:
        tp: answered, on topic.
        fp: answered, off topic (left the domain).
        fn: refused, on topic (over-refused).
        tn: refused, off topic (rightly refused).
    """

    model_config = ConfigDict(frozen=True)

    tp: int = Field(default=0, ge=0)
    fp: int = Field(default=0, ge=0)
    fn: int = Field(default=0, ge=0)
    tn: int = Field(default=0, ge=0)

    def __add__(self, other: TopicCounts) -> TopicCounts:
        return TopicCounts(tp=self.tp + other.tp, fp=self.fp + other.fp, fn=self.fn + other.fn, tn=self.tn + other.tn)

    @property
    def queries(self) -> int:
        """How many queries were classified."""
        return self.tp + self.fp + self.fn + self.tn

    @classmethod
    def of(cls, answered: list[bool], on_topic: list[bool]) -> TopicCounts:
        """Count per-query classifications (two lists of the same length, one entry per query)."""
        if len(answered) != len(on_topic):
            raise ValueError(f"{len(answered)} answered flags for {len(on_topic)} topic flags")
        pairs = list(zip(answered, on_topic, strict=True))
        return cls(
            tp=sum(a and t for a, t in pairs),
            fp=sum(a and not t for a, t in pairs),
            fn=sum(t and not a for a, t in pairs),
            tn=sum(not a and not t for a, t in pairs),
        )


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


def _harmonic(p: float | None, r: float | None) -> float | None:
    if p is None and r is None:
        return None
    if not p or not r:  # either side 0, or one side 0 and the other undefined
        return 0.0 if (p == 0.0 or r == 0.0) else None
    return 2 * p * r / (p + r)


def topic_adherence(counts: TopicCounts, mode: TopicMode = "f1", variant: TopicVariant = "workbench") -> float | None:
    """Topic adherence of the counts in the chosen mode and variant (see the module docstring).

    Args:
        counts: the four counts.
        mode: ``precision``, ``recall`` or ``f1``.
        variant: ``workbench`` (counts correct refusals) or ``ragas`` (Ragas' numbers).

    Returns:
        The value in [0, 1], or ``None`` when the workbench variant has nothing to count.
    """
    tp, fp, fn, tn = counts.tp, counts.fp, counts.fn, counts.tn
    if variant == "ragas":
        precision = tp / (tp + fp + RAGAS_EPSILON)
        recall = tp / (tp + fn + RAGAS_EPSILON)
        if mode == "precision":
            return precision
        if mode == "recall":
            return recall
        return 2 * precision * recall / (precision + recall + RAGAS_EPSILON)
    right = tp + tn
    p = _ratio(right, right + fp)
    r = _ratio(right, right + fn)
    if mode == "precision":
        return p
    if mode == "recall":
        return r
    return _harmonic(p, r)
