"""The answer and the ground truth side by side, the differing words marked in each (Braintrust, promptfoo).

The word diff (:func:`~agentic_core.report.explorer_filters.word_diff`) interleaves both texts in
one line, which is hard to read. Here each text is shown whole in its own column: the answer with
the words only it has marked, the ground truth with the words only it has marked; a number, a name
or a date that differs is marked in bold in both.
"""

from __future__ import annotations

import difflib
import html

# The word diff's tokens and its test of a number, a name or a date: the same words count as changed here.
from agentic_core.report.explorer_filters import _salient_flags, tokens

SIDE_CSS = (
    "<style>.xs{display:grid;grid-template-columns:1fr 1fr;gap:.8rem;font-size:.9rem}"
    ".xs .col{white-space:pre-wrap;word-break:break-word;padding:.3rem .5rem;border:1px solid rgba(128,128,128,.3);"
    "border-radius:4px}.xs .head{font-weight:600;font-size:.8rem;opacity:.8;white-space:normal}"
    ".xs ins{background:rgba(46,160,67,.25);text-decoration:none}"
    ".xs del{background:rgba(214,39,40,.22);text-decoration:none}"
    ".xs .salient{outline:1px solid currentColor}</style>"
)


def _marked(toks: list[str], flags: list[bool], changed: list[bool], tag: str) -> str:
    """Escaped HTML of one text's tokens, each run of changed tokens in ``tag`` (bold when salient)."""
    out: list[str] = []
    i = 0
    while i < len(toks):
        if not changed[i] or toks[i].isspace():
            out.append(html.escape(toks[i]))
            i += 1
            continue
        j = i
        while j < len(toks) and changed[j] and not (toks[j].isspace() and (j + 1 == len(toks) or not changed[j + 1])):
            j += 1
        text = html.escape("".join(toks[i:j]))
        salient = any(flags[i:j])
        body = f"<b>{text}</b>" if salient else text
        out.append(f'<{tag} class="{"salient" if salient else "plain"}">{body}</{tag}>')
        i = j
    return "".join(out)


def side_by_side(answer: str, truth: str) -> tuple[str, str]:
    """``(answer, ground truth)`` as escaped HTML, each whole, with the words only it has marked.

    The same token diff as :func:`~agentic_core.report.explorer_filters.word_diff` (case ignored when
    matching), but each side keeps its own tokens: unmarked, each side is exactly its text.
    """
    a, b = tokens(answer), tokens(truth)
    matcher = difflib.SequenceMatcher(None, [t.lower() for t in a], [t.lower() for t in b], autojunk=False)
    changed_a, changed_b = [True] * len(a), [True] * len(b)
    for block in matcher.get_matching_blocks():
        changed_a[block.a : block.a + block.size] = [False] * block.size
        changed_b[block.b : block.b + block.size] = [False] * block.size
    return (
        _marked(a, _salient_flags(a), changed_a, "ins"),
        _marked(b, _salient_flags(b), changed_b, "del"),
    )


def side_by_side_html(
    answer: str,
    truth: str,
    left_head: str = "Answer (green: only in the answer)",
    right_head: str = "Ground truth (red: only in the ground truth)",
) -> str:
    """Both sides in two columns with their headings and style, for ``st.html``.

    Args:
        answer: The left text (its own words marked green).
        truth: The right text (its own words marked red).
        left_head: The left column's heading, as text (escaped here): Compare puts run A's answer there.
        right_head: The right column's heading, likewise: run B's answer, or the reference.
    """
    left, right = side_by_side(answer, truth)
    return (
        f'{SIDE_CSS}<div class="xs"><div class="col"><div class="head">{html.escape(left_head)}</div>'
        f'{left}</div><div class="col"><div class="head">{html.escape(right_head)}</div>'
        f"{right}</div></div>"
    )
