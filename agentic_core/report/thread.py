"""An imported conversation's whole trace as a readable thread (HTML), the judged messages marked.

Like the trace views of Inspect's log viewer, Phoenix and LangSmith: every message in order, who
said it, an assistant's tool calls with their arguments, each tool's result, and the messages the
judge graded (each interaction's query and final answer) outlined with the interaction's verdict.
Every text is escaped: data never becomes markup. Long texts are shortened (the full record stays
on the Data page and in the exports), so a page stays readable and its size bounded.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import orjson

from agentic_core.data.trace import TraceStep
from agentic_core.report.explorer_filters import highlight

MAX_CHARS = 4_000
"""Characters of one message shown (a tau-bench system policy runs to many thousands)."""

THREAD_CSS = (
    "<style>.xt{font-size:.9rem}.xt .m{border-left:3px solid rgba(128,128,128,.35);margin:.35rem 0;"
    "padding:.25rem .6rem;border-radius:4px}.xt .who{font-weight:600;font-size:.8rem;opacity:.8}"
    ".xt .txt{white-space:pre-wrap;word-break:break-word}.xt pre{white-space:pre-wrap;word-break:break-word;"
    "margin:.2rem 0;padding:.3rem;background:rgba(128,128,128,.12);border-radius:3px;font-size:.8rem}"
    ".xt .user{border-left-color:#1f77b4}.xt .assistant{border-left-color:#2ca02c}.xt .tool{border-left-color:#9467bd}"
    ".xt .system{border-left-color:#7f7f7f}.xt .judged{outline:2px solid #ff7f0e;background:rgba(255,127,14,.08)}"
    ".xt .tag{font-size:.75rem;background:#ff7f0e;color:#fff;border-radius:3px;padding:0 4px;margin-left:.4rem}"
    ".xt mark{background:rgba(255,200,0,.45);color:inherit}</style>"
)

_WHO = {"system": "System", "user": "User", "assistant": "Assistant", "tool": "Tool result"}


def judged_steps(trace: Sequence[TraceStep]) -> dict[int, tuple[int, str]]:
    """The messages the judge graded: step index -> (interaction, ``query`` or ``answer``).

    An interaction's query is its first user message (later user messages before the reply joined
    it); its answer is its last assistant message with text.
    """
    marked: dict[int, tuple[int, str]] = {}
    seen_query: set[int] = set()
    last_answer: dict[int, int] = {}
    for i, step in enumerate(trace):
        n = step.interaction
        if n is None:
            continue
        if step.role == "user" and n not in seen_query:
            seen_query.add(n)
            marked[i] = (n, "query")
        elif step.role == "assistant" and step.content.strip():
            last_answer[n] = i
    for n, i in last_answer.items():
        marked[i] = (n, "answer")
    return marked


def _shorten(text: str) -> tuple[str, str]:
    if len(text) <= MAX_CHARS:
        return text, ""
    return text[:MAX_CHARS], f" … ({len(text) - MAX_CHARS:,} more characters not shown)"


def _block(text: str, term: str) -> str:
    shown, more = _shorten(text)
    return f'<div class="txt">{highlight(shown, term)}{html.escape(more)}</div>'


def thread_html(trace: Sequence[TraceStep], statuses: Sequence[str], term: str = "") -> str:
    """The trace as one HTML block (with its style), the judged messages outlined.

    Args:
        trace: The conversation's ``trace``.
        statuses: Per interaction, its status (``correct``, ``incorrect``, ``unscored``), for the marks.
        term: A search term to mark in the texts (empty: none).

    Returns:
        Escaped HTML for ``st.html``.
    """
    judged = judged_steps(trace)
    out = [THREAD_CSS, '<div class="xt">']
    for i, step in enumerate(trace):
        mark = judged.get(i)
        classes = f"m {step.role}" + (" judged" if mark else "")
        who = _WHO[step.role]
        if step.role == "tool" and step.name:
            who += f" · {html.escape(step.name)}"
        tag = ""
        if mark is not None:
            n, part = mark
            status = statuses[n] if 0 <= n < len(statuses) else ""
            tag = (
                f'<span class="tag">judged {part} · turn {n + 1}{" · " + html.escape(status) if status else ""}</span>'
            )
        body = [f'<div class="who">{who}{tag}</div>']
        if step.content:
            if step.role == "tool":
                shown, more = _shorten(step.content)
                body.append(f"<pre>{highlight(shown, term)}{html.escape(more)}</pre>")
            else:
                body.append(_block(step.content, term))
        for call in step.tool_calls:
            args = orjson.dumps(call.arguments, option=orjson.OPT_INDENT_2, default=str).decode()
            shown, more = _shorten(args)
            body.append(
                f"<div>calls <b>{html.escape(call.name)}</b></div><pre>{html.escape(shown)}{html.escape(more)}</pre>"
            )
        out.append(f'<div class="{classes}" data-step="{i}">{"".join(body)}</div>')
    out.append("</div>")
    return "".join(out)
