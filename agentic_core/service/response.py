"""Seed 001's response, from one evaluation and one aggregate (no metric is computed here).

Every number comes from :func:`agentic_core.analysis.aggregate.aggregate` through the report functions
the exports use (:func:`agentic_core.report.summary`, :func:`agentic_core.report.conversation_records`),
so the endpoint, the command line and the dashboard cannot disagree.

Seed 001's fields keep their meaning: ``total_conversations`` is every conversation sent,
``fully_correct_conversations`` the correct ones, ``conversation_success_rate`` their share of
the *scored* conversations (a judge failure is unscored, never wrong; ``unscored`` says how
many), ``pass_at_k`` / ``pass_pow_k`` the headline at ``k`` by the estimator named beside them.
"""

from __future__ import annotations

from typing import Any

from agentic_core.analysis.aggregate import Aggregate
from agentic_core.analysis.nothing_scored import why_llm_scored_nothing
from agentic_core.io.load_report import Issue
from agentic_core.judges.cascade import result_cascade_counts
from agentic_core.judges.verdict_counts import verdict_counts
from agentic_core.report import conversation_records, summary
from agentic_core.report.documents import SummaryDocument
from agentic_core.result import EvaluationResult
from agentic_core.service.connector import ConnectorJudge
from agentic_core.service.models import Problem, RunConfig

# Per-conversation fields kept only with ``verbose`` (seed 001's response has no reasoning).
_VERBOSE_ONLY = ("judge_reasoning",)


def issue_problem(issue: Issue) -> Problem:
    """A loader issue as a located problem (place, rule, value, fix and the whole sentence)."""
    return Problem(
        severity=issue.severity, place=issue.place, rule=issue.rule, value=issue.value, fix=issue.fix,
        message=issue.message(),
    )  # fmt: skip


def _undefined_headline(doc: SummaryDocument) -> list[str]:
    """Why ``pass_at_k`` / ``pass_pow_k`` are null, when they are (else nothing)."""
    head = doc["headline"]
    if head["pass_at_k"] is not None and head["pass_pow_k"] is not None:
        return []
    point = next((p for p in doc["curve"] if p["k"] == doc["k"]), None)
    evidence = doc["k_evidence"]  # not measured: too few attempts per task (e.g. unit 'auto' on one-attempt data)
    unmeasured = None if evidence["measured"] else evidence["sentence"]
    reason = (point["excluded_reason"] if point else None) or unmeasured or "no conversation could be scored"
    return [f"pass_at_k and pass_pow_k are null at k = {doc['k']}: {reason}"]


def run_response(
    result: EvaluationResult, agg: Aggregate, chosen: ConnectorJudge, config: RunConfig, warnings: list[str]
) -> dict[str, Any]:
    """The 200 document of ``POST /run``.

    Args:
        result: The evaluation (judged once).
        agg: Its aggregate under the request's settings.
        chosen: The judge and how it was chosen.
        config: The request's config (``verbose``).
        warnings: Notes about the request itself (ignored keys and parameters).

    Returns:
        Seed 001's ``success``, ``per_conversation_metrics`` and ``aggregated_metrics``, plus
        ``mode``, ``estimator``, ``unit``, ``target``, ``intervals``, ``unscored`` (with ``causes`` and their
        ``summary`` in words), ``judge`` (with ``llm_calls``),
        ``curve``, ``statistics``, ``tool_correctness``, ``settings``, ``issues`` and ``warnings``.
    """
    doc = summary(result, agg, include_conversations=False)
    issues = () if result.load_report is None else result.load_report.issues
    records = conversation_records(result, agg)
    if not config.verbose:
        for record in records:
            for name in _VERBOSE_ONLY:
                record.pop(name, None)
    head = doc["headline"]
    counts = doc["counts"]
    rate = doc["conversation_success_rate"]
    stats = doc["statistics"]
    evidence = doc["k_evidence"]
    verdicts = verdict_counts(result)
    calls = result.judge_run.llm_calls
    llm_failed = why_llm_scored_nothing(result)
    aggregated = {
        "total_conversations": counts["conversations"],
        "fully_correct_conversations": counts["correct_conversations"],
        "conversation_success_rate": rate["observed"],
        "k": doc["k"],
        "pass_at_k": head["pass_at_k"],
        "pass_pow_k": head["pass_pow_k"],
        "interpretation": doc["interpretation"],
        "interpretation_text": doc["interpretation_text"],
        "scored_conversations": counts["scored_conversations"],
        "unscored_conversations": counts["unscored_conversations"],
        "pass_at_k_ci": head["pass_at_k_ci"],
        "pass_pow_k_ci": head["pass_pow_k_ci"],
        "success_rate": rate["rate"],
        "success_rate_ci": rate["ci"],
        "groups": head["n_groups"],
        "excluded_groups": doc["excluded_groups"],
        "notes": head["notes"],
        # An added field: null pass_at_k / pass_pow_k because the data has too few attempts per task (why).
        "not_measured": None if evidence["measured"] else evidence["sentence"],
    }
    return {
        "success": True,
        "per_conversation_metrics": records,
        "aggregated_metrics": aggregated,
        "mode": stats["mode"],
        "estimator": stats["estimator"],
        "unit": doc["unit"],
        "unit_description": doc["unit_description"],
        "target": stats["target"],
        "k_reason": doc["k_reason"],
        "statistics": stats,
        "intervals": {
            "level": stats["level"],
            "method": stats["interval_method"],
            "pass_at_k": head["pass_at_k_ci"],
            "pass_pow_k": head["pass_pow_k_ci"],
            "success_rate": rate["ci"],
        },
        "unscored": {
            "interactions": counts["unscored_interactions"],
            "conversations": counts["unscored_conversations"],
            # An added count: of the unscored interactions, those the judge abstains on under config.abstain_band
            # (the judge's fitted band by default).
            "uncertain": agg.counts.uncertain_interactions,
            # Added (issue 40): the unscored interactions by cause, and in words with what to do.
            "causes": verdicts.causes,
            "summary": verdicts.unscored_words(calls),
            "counted_as": "incorrect" if agg.settings.unscored_as_incorrect else "excluded",
            "bounds": doc["unscored_bounds"],
        },
        "judge": {
            **doc["judge"],
            "label": doc["judge_label"],
            "source": chosen.source,
            "default": chosen.is_default,
            "class_path": chosen.class_path,
            "counts": doc["judge_counts"],
            "cache": doc["cache"],
            "tokens": doc["tokens"],
            # Who decided, for config.judge "cascade" (null for the other judges).
            "cascade": None if (cascade := result_cascade_counts(result)) is None else cascade.as_json(),
            # What an LLM judge's calls showed: its timeout (set or adapted), the first reply, the server.
            "llm_calls": None if calls is None else calls.model_dump(mode="json"),
        },
        "curve": doc["curve"],
        "tool_correctness": doc["tool_correctness"],
        "agentic_metrics": doc.get("agentic_metrics"),
        "settings": doc["settings"],
        "issues": [issue_problem(i).model_dump() for i in issues],
        "warnings": [
            *warnings, *_undefined_headline(doc), *doc["judge_warnings"], *([llm_failed] if llm_failed else []),
        ],
        "tool_version": doc["tool_version"],
    }
