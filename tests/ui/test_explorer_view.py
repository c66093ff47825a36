"""The Explorer's view model (no Streamlit): the words of the list, the drill-down and the verdicts."""

from __future__ import annotations

import dataclasses

import pandas as pd

from agentic_core.analysis import aggregate
from agentic_core.data import Override
from agentic_core.report import ConversationFacts, conversation_detail, conversation_facts
from agentic_core.result import EvaluationResult
from agentic_core.settings import make_settings
from ui import views
from ui.format import md_text


def first_with_tools(travel: EvaluationResult) -> tuple[int, int]:
    """(conversation row, turn) of the first interaction whose tool correctness applies."""
    agg = aggregate(travel, make_settings())
    for row in range(travel.n_conversations):
        for k, detail in enumerate(conversation_detail(travel, agg, row)):
            if detail.tool is not None:
                return row, k
    raise AssertionError("the travel sample has tool calls")


def test_an_interaction_in_words(travel: EvaluationResult) -> None:
    row, k = first_with_tools(travel)
    detail = conversation_detail(travel, aggregate(travel, make_settings()), row)[k]
    view = views.interaction_view(detail, None)
    assert view.heading.startswith(f"**Turn {detail.position + 1}** · ")
    assert view.verdict == f"**Verdict:** {detail.verdict}"
    assert view.tool is not None and "**Tool calls: expected vs used**" in view.tool
    assert view.tool_reasoning.startswith("**Tool reasoning:** ")
    marked = views.interaction_view(detail, Override(row=0, correct=False, note="wrong *city*"))
    assert marked.verdict == (
        "**Verdict:** :violet-badge[marked incorrect by hand] (replaces the judge's) — wrong \\*city\\*"
    )
    without_tools = views.interaction_view(dataclasses.replace(detail, tool=None, tool_diff=None), None)
    assert without_tools.tool is None and without_tools.tool_reasoning == ""


def test_what_the_judge_said(travel: EvaluationResult) -> None:
    detail = conversation_detail(travel, aggregate(travel, make_settings()), 0)[0]
    failed = dataclasses.replace(detail, judge_score=None, judge_status="error", judge_error="timeout")
    assert views.interaction_view(failed, None).judge == ("**Judge failure:** timeout",)
    unsure = dataclasses.replace(
        detail, judge_score=None, judge_status="uncertain", judge_error=None, judge_reasoning="two readings"
    )
    assert views.interaction_view(unsure, None).judge == (
        "**Judge uncertain** (unscored, never 0 or 1): uncertain",
        "**Judge reasoning:** two readings",
    )
    scored = dataclasses.replace(detail, judge_score=0.9, judge_status="ok", judge_reasoning="")
    assert views.interaction_view(scored, None).judge == ()


def test_the_diff_is_styled_by_kind() -> None:
    diff = pd.DataFrame({"diff": ["match", "missing", "extra"], "agreement": [1.0, None, 0.5]})
    html = views.styled_diff(diff).to_html()
    assert "MISSING" in html and "EXTRA" in html and "rgba(214, 39, 40, 0.16)" in html
    assert "50%" in html


def test_highlighting_escapes_the_data() -> None:
    marked = views.highlighted("Book <b>Paris</b> now", "paris")
    assert marked is not None and "<mark>Paris</mark>" in marked and "&lt;b&gt;" in marked
    assert views.highlighted("Book Rome", "paris") is None
    assert views.highlighted("", "paris") is None and views.highlighted("Paris", "") is None


def test_the_conversation_heading_lines() -> None:
    facts = ConversationFacts(
        row=4, session_id="s", assistant_id="a", status="incorrect", task_key="t_*1*", correct=1, total=3,
        pass_at_k=0.25, k=3, context="", language="fr",
    )  # fmt: skip
    assert views.facts_line(facts) == (
        ":red-badge[incorrect] · row 4 · task t\\_\\*1\\* · 1 of 3 interactions correct · "
        "per-conversation pass@3 25.0% (over its interactions)"
    )
    assert "pass@" not in views.facts_line(dataclasses.replace(facts, pass_at_k=None))
    assert views.about_line(facts) == "language: fr"
    assert views.about_line(dataclasses.replace(facts, language="")) == ""


def test_facts_of_the_travel_sample_read_as_words(travel: EvaluationResult) -> None:
    facts = conversation_facts(travel, aggregate(travel, make_settings()), 0)
    assert f"row 0 · task {md_text(facts.task_key)} · {facts.correct} of {facts.total}" in views.facts_line(facts)


def test_list_captions_and_the_empty_list() -> None:
    assert views.list_caption(3, 1200, {"incorrect": 2, "unscored": 0, "correct": 1198}) == (
        "Showing **3** of 1,200 conversations. In the run: 2 incorrect, 0 unscored, 1,198 correct."
    )
    assert views.empty_message([], ["search: x"]) == "Select at least one status to list conversations."
    assert views.empty_message(["correct"], ["search: x", "task: t"]) == (
        "No conversation matches these filters (search: x; task: t). Clear the search or a filter, or select "
        "more statuses."
    )


def test_labels_of_conversations_turns_and_verdicts(travel: EvaluationResult) -> None:
    table = pd.DataFrame(
        {"row": [7, 2], "session_id": ["s7", "s2"], "assistant_id": ["a", "b"], "status": ["correct", "unscored"]}
    )
    assert views.conversation_labels(table) == {7: "s7 · a — correct", 2: "s2 · b — unscored"}
    detail = conversation_detail(travel, aggregate(travel, make_settings()), 0)[0]
    assert views.turn_label(detail) == f"Turn {detail.position + 1} · {detail.qa_id} ({detail.status})"
    assert views.override_line(12, "q_1", Override(row=12, correct=True, note="")) == "Row 12 · q\\_1 · marked correct"
    assert (
        views.override_line(12, "q", Override(row=12, correct=False, note="why"))
        == "Row 12 · q · marked incorrect — why"
    )
