"""Human labels: a person's verdict on a conversation or one of its interactions, kept apart from the judge's.

Unlike an :class:`~agentic_core.data.overrides.Override` (which replaces the judge's verdict in every number),
a label is evidence *about the judge*: the corrected estimates (:mod:`agentic_core.stats.corrected`) compare
the judge's verdicts with the labels on the labelled items and correct the judge-only numbers for its errors.
That correction is unbiased only when the labelled items were drawn by a stated design: a seeded random sample
of tasks or of attempts, or an "uncertain first" draw whose inclusion probabilities weight each label. So every
label says where it came from, the design that chose it and, for a weighted design, the probability its item
had of being chosen.

Labels come from the data (``human_label`` on an interaction), from the dashboard's review queue, from a labels
file (``--labels FILE``: ``session_id``, optional ``assistant_id`` and ``qa_id``, ``label``) or from an endpoint
request; they are stored with the run in the history the moment they are given (:mod:`agentic_core.runs.labels`).
"""

from __future__ import annotations

import time
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

LabelSource = Literal["data", "queue", "file", "endpoint"]
"""Where a label was given: the data's own ``human_label``, the review queue, a labels file, an endpoint request."""

LabelDesign = Literal["random-tasks", "random-attempts", "uncertain-first", "unknown"]
"""How the labelled item was chosen: a uniform random sample of tasks (every attempt of a chosen task labelled) or
of attempts, an "uncertain first" weighted draw (``inclusion`` holds each item's probability), or not said (labels
given in the data or a file: assumed to be a random sample, and every face says so)."""


class HumanLabel(BaseModel):
    """A person's verdict on one conversation (``qa_id`` None) or one interaction of it.

    Attributes:
        session_id: The conversation's ``session_id``.
        assistant_id: Its ``assistant_id`` when ``session_id`` alone is ambiguous (seed-000 data gives every
            attempt the same session id); ``None`` otherwise.
        qa_id: The interaction's ``qa_id``; ``None`` labels the whole conversation (every interaction right).
        label: 1 when the answer (or the whole conversation) is right, 0 when it is wrong.
        source: Where the label was given.
        design: How the item was chosen for labelling.
        inclusion: For a weighted design, the probability the item (a task or an attempt, per the design) had of
            being chosen; ``None`` for a uniform sample or an unknown design.
        labelled_at: When it was given (seconds since the epoch).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    session_id: str = Field(min_length=1)
    assistant_id: str | None = None
    qa_id: str | None = None
    label: Literal[0, 1]
    source: LabelSource = "queue"
    design: LabelDesign = "unknown"
    inclusion: float | None = Field(default=None, gt=0.0, le=1.0)
    labelled_at: float = Field(default_factory=time.time)

    @property
    def key(self) -> tuple[str, str, str]:
        """What one label replaces: the same conversation (and assistant) and the same interaction."""
        return (self.session_id, self.assistant_id or "", self.qa_id or "")
