"""Formatting of numbers and settings in words (shared by the pages)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from agentic_core.analysis import Aggregate
from agentic_core.common import sentence_case

INTERPRETATION_BADGES = {
    "reliable": ":green-badge[Reliable]",
    "inconsistent": ":orange-badge[Inconsistent]",
    "functional": ":blue-badge[Functional]",
    "needs_improvement": ":red-badge[Needs improvement]",
    None: ":gray-badge[Undefined]",
}


# The characters that start inline markup in Streamlit's Markdown: images and links (! [ ] <), emphasis
# and code (* _ ` ~), tables (|), maths ($), HTML entities (&) and the backslash itself.
# Backslash-escaped ASCII punctuation is always literal in CommonMark, so the escaped text shows as it is.
_INLINE_MARKUP = re.compile(r"([\\`*_\[\]<>!|~$&])")
# At the start of a Markdown body these also start a block: a list item (- + 1. 1)) or a heading (# or a rule of =).
_BLOCK_START = re.compile(r"^(\s*(?:\d+)?)([-+=#](?!\d)|(?<=\d)[.)])")


def md_text(value: object) -> str:
    """A data value (a name, an id, a reasoning) as Markdown that shows exactly its text.

    Data is never markup: ``![x](http://host/p.png)`` in a ``qa_id`` must not make the browser fetch
    an image, and a note with ``**`` must not turn bold. Line breaks become spaces, since a value sits
    inside a sentence of the page.

    Args:
        value: Any value; ``str(value)`` is shown.

    Returns:
        The text with every character that could start Markdown markup escaped.
    """
    text = " ".join(str(value).splitlines())
    text = _INLINE_MARKUP.sub(r"\\\1", text)
    return _BLOCK_START.sub(lambda m: m.group(1) + "\\" + m.group(2), text, count=1)


def pct(x: float | None, digits: int = 1) -> str:
    """``0.945`` -> ``94.5%``; ``None`` -> ``n/a``."""
    return "n/a" if x is None else f"{x:.{digits}%}"


def ci_text(ci: Sequence[float] | None, digits: int = 1) -> str:
    """``(0.77, 0.99)`` -> ``[77.0%, 99.0%]``; empty when there is no interval."""
    return "" if ci is None else f"[{ci[0]:.{digits}%}, {ci[1]:.{digits}%}]"


def prob_text(prob: float) -> str:
    """A probability in words that never prints a Monte Carlo 0 or 1 as certainty."""
    if prob < 0.001:
        return "< 0.1%"
    if prob > 0.999:
        return "> 99.9%"
    return pct(prob)


def settings_sentence(agg: Aggregate) -> str:
    """The unit, K, mode, target, estimator or prior and interval method the core used, in words."""
    return (
        f"Unit of trial: **{agg.unit}**. {sentence_case(agg.unit_reason)}. "
        f"K = **{agg.k}**: {sentence_case(agg.k_reason)}. {agg.statistics.description}"
    )
