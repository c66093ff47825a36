"""The JSON documents the exports write and the command line and the endpoint read, as typed dicts.

Their keys are a public contract (``--json``, ``summary.json``, ``settings.json``, the endpoint's
``POST /run``): the values stay plain JSON (dicts and lists, no models), and these types let mypy
check every key a reader uses against the one that is written.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class CurvePointDocument(TypedDict):
    """One point of the curve (:func:`agentic_core.report.exports.curve_point_dict`); intervals as ``[low, high]``."""

    k: int
    pass_at_k: float | None
    pass_pow_k: float | None
    pass_at_k_ci: list[float] | None
    pass_pow_k_ci: list[float] | None
    n_groups: int
    n_excluded: int
    excluded_reason: str | None
    interval_method: str | None
    mode: str
    target: str
    notes: list[str]


class RunMetadataDocument(TypedDict):
    """Settings, judge identity, unit and counts (:func:`agentic_core.report.exports.run_metadata`)."""

    tool_version: str
    settings: dict[str, Any]
    unit: str
    unit_description: str
    unit_reason: str
    k: int
    k_reason: str
    statistics: dict[str, Any]
    judge: dict[str, Any]
    judge_label: str
    judge_counts: dict[str, int]
    cache: dict[str, int]
    tokens: dict[str, int]
    judge_warnings: list[str]
    load: dict[str, Any] | None


class SuccessRateDocument(TypedDict):
    """The conversation success rate: pass@1 by the curve's method, and the observed share."""

    rate: float | None
    ci: list[float] | None
    interval_method: str | None
    observed: float | None
    description: str


class SummaryDocument(RunMetadataDocument):
    """The JSON summary (:func:`agentic_core.report.exports.summary`)."""

    curve: list[CurvePointDocument]
    headline: CurvePointDocument
    interpretation: str | None
    interpretation_text: str | None
    k_evidence: dict[str, Any]
    """Whether the data measures pass@K / pass^K at this K (:class:`~agentic_core.analysis.k_evidence.KEvidence`):
    when ``measured`` is false, the headline's and the curve's pass@k / pass^k beyond ``measured_up_to`` are null and
    ``sentence`` says why and what data would measure them."""
    counts: dict[str, int]
    conversation_success_rate: SuccessRateDocument
    excluded_groups: list[str]
    unscored_bounds: dict[str, Any] | None
    tool_correctness: dict[str, Any]
    agentic_metrics: NotRequired[dict[str, Any] | None]
    """Present when the run computed seed 004's agentic metrics."""
    conversations: NotRequired[list[dict[str, Any]]]
    """Present unless the caller left the per-conversation records out."""
