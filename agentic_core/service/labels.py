"""A ``POST /run`` request's human labels (issue 37): checked, capped, and turned into labels of source ``endpoint``.

A request may carry ``labels``: a list of ``{"session_id", "assistant_id"?, "qa_id"?, "label": 1 | 0, "design"?,
"inclusion"?}`` objects (a labels file's rows as JSON). The answer then gains the ``corrected`` block
(:meth:`~agentic_core.analysis.corrected_reading.CorrectedReading.as_json`, the same as ``evaluate --json``'s);
a request without ``labels`` is answered exactly as before. A bad label is a 422 located at ``labels[i].field``;
more than the server's ``max_labels`` is a 422 too, like its other request limits.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from agentic_core.data.labels import HumanLabel, LabelDesign
from agentic_core.errors import DataError

_FIX = 'give each label as {"session_id": "...", "qa_id": "..." (optional), "label": 1 or 0}'


class RequestLabel(BaseModel):
    """One human label in a request (the endpoint sets its source; it is ``endpoint``)."""

    model_config = ConfigDict(extra="forbid")

    session_id: str = Field(min_length=1, description="the conversation's session_id")
    assistant_id: str | None = Field(default=None, description="when several conversations share the session_id")
    qa_id: str | None = Field(default=None, description="the interaction; omitted: the whole conversation")
    label: Literal[0, 1] = Field(description="1 right, 0 wrong")
    design: LabelDesign = Field(default="unknown", description="how the item was chosen for labelling")
    inclusion: float | None = Field(default=None, gt=0.0, le=1.0, description="its inclusion probability")


def request_labels(doc: dict[str, Any], max_labels: int) -> list[HumanLabel] | None:
    """The request's labels; ``None`` when it has no ``labels`` key (the answer is then as without this feature).

    Raises:
        DataError: not a list, more than ``max_labels``, or a label breaking its rules (located at ``labels[i]``).
    """
    if "labels" not in doc:
        return None
    raw = doc["labels"]
    if not isinstance(raw, list):
        raise DataError("labels", "must be a list of label objects", type(raw).__name__, _FIX)
    if len(raw) > max_labels:
        raise DataError(
            "labels", f"must hold at most {max_labels:,} labels (this server's limit)", f"{len(raw):,} labels",
            "send the labels of a sample of tasks, or split the request",
        )  # fmt: skip
    labels = []
    for i, item in enumerate(raw):
        try:
            given = RequestLabel.model_validate(item)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = "".join(f".{p}" for p in first["loc"])
            raise DataError(f"labels[{i}]{where}", first["msg"].lower(), first.get("input"), _FIX) from None
        labels.append(HumanLabel(**given.model_dump(), source="endpoint"))
    return labels
