"""The Overview's cost of correctness: tokens and latency per conversation, tokens per correct conversation.

Shown only when the data has them (traces read by the OpenTelemetry importer); one call from the page.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from agentic_core.analysis import TelemetryCost, telemetry_cost
from agentic_core.common import ConversationCols
from ui.cards import card, kpi_row
from ui.format import md_text
from ui.memo import session_memo


def _number(value: float | None, unit: str = "") -> str:
    return "n/a" if value is None else f"{value:,.0f}{unit}"


def cost_lines(cost: TelemetryCost) -> list[tuple[str, str, str]]:
    """The cards as (label, value, help); a pure function, so tests read what the page shows."""
    spent = f"{cost.total_tokens:,} tokens ({cost.input_tokens:,} in, {cost.output_tokens:,} out)"
    correct = (
        f"All tokens spent ({spent}) over the {cost.correct_conversations:,} fully correct conversations: what one "
        "correct outcome costs. Tokens of incorrect and unscored conversations count as spent."
    )
    return [
        ("Tokens per correct conversation", _number(cost.tokens_per_correct), correct),
        ("Tokens per conversation", _number(cost.tokens_per_conversation),
         f"Mean over the {cost.with_tokens:,} of {cost.conversations:,} conversations whose traces report tokens."),
        ("Latency per conversation", _number(cost.latency_ms_per_conversation, " ms"),
         f"Mean over the {cost.with_latency:,} conversations whose traces report it: the sum of each turn's time "
         "from its first span's start to its last span's end."),
    ]


def show_cost(run: Any, agg: Any) -> None:
    """The cost-of-correctness cards, when the run's conversations report tokens or latency (else nothing)."""
    status = agg.conversations[ConversationCols.STATUS].tolist()
    cost = session_memo(
        "_overview_telemetry_cost", (run.run_id, tuple(status)),
        lambda: telemetry_cost(run.result.conversations, status),
    )
    if cost is None:
        return
    with st.container(key="overview_telemetry_cost"):
        st.subheader("Cost of correctness")
        row = kpi_row()
        for label, value, help_text in cost_lines(cost):
            card(row, label, value, help=help_text)
        if cost.unscored_conversations:
            st.caption(f"{cost.unscored_conversations:,} unscored conversation(s): their tokens count as spent, "
                       "none of them as correct.")


def telemetry_text(conversation: Any) -> str | None:
    """What the traces say of a conversation's turns (model, agent, tokens, latency), or ``None`` if nothing."""
    parts = []
    for n, turn in enumerate(conversation.conversation):
        tel = turn.telemetry
        if tel is None:
            continue
        bits = [b for b in (tel.model, tel.agent_name and f"agent {tel.agent_name}") if b]
        if tel.input_tokens is not None or tel.output_tokens is not None:
            spent = (tel.input_tokens or 0) + (tel.output_tokens or 0)
            bits.append(f"{spent:,} tokens ({tel.input_tokens or 0:,} in, {tel.output_tokens or 0:,} out)")
        if tel.latency_ms is not None:
            bits.append(f"{tel.latency_ms:,.0f} ms")
        if bits:
            parts.append(f"turn {n + 1}: " + ", ".join(bits))
    return "Traced: " + "; ".join(parts) if parts else None


def telemetry_caption(conversation: Any) -> None:
    """The Explorer's line on a traced conversation's model, agent, tokens and latency per turn (else nothing)."""
    text = telemetry_text(conversation)
    if text is not None:
        st.caption(md_text(text))
