"""Data values inside Markdown, shown as exactly their text: no image fetched, no link, no emphasis.

The dashboard writes its sentences in Markdown (Streamlit's ``st.markdown``, captions, alerts) and
the core writes some of its messages in it (a link's parameter in backticks). A data value put in
them (a ``session_id``, a ``qa_id``, a tool parameter, a file name) is never markup:
``![x](http://host/p.png)`` in an id must not make the reader's browser fetch an image, and
``http://host/`` must not become a live link.

Escaping alone does not stop links: Streamlit renders Markdown with remark-gfm, whose autolink
literals (``www.``, ``http://``, ``https://``, ``name@host.tld``) are found by a pass over the text
*after* escapes are resolved (mdast-util-gfm-autolink-literal). So :func:`md_text` also puts a word
joiner (U+2060: invisible, zero width, no line break) inside each of those patterns, which no
longer match; what the reader sees is unchanged. A value copied from the page carries the joiner
(only where it broke such a pattern).
"""

from __future__ import annotations

import re

WORD_JOINER = "\u2060"
"""The invisible character that breaks an autolink pattern (:func:`md_text`)."""

# The characters that start inline markup in Streamlit's Markdown: images and links (! [ ] <), emphasis
# and code (* _ ` ~), tables (|), maths ($), HTML entities (&) and the backslash itself.
# Backslash-escaped ASCII punctuation is always literal in CommonMark, so the escaped text shows as it is.
_INLINE_MARKUP = re.compile(r"([\\`*_\[\]<>!|~$&])")
# At the start of a Markdown body these also start a block: a list item (- + 1. 1)) or a heading (# or a rule of =).
_BLOCK_START = re.compile(r"^(\s*(?:\d+)?)([-+=#](?!\d)|(?<=\d)[.)])")
# Where GFM's autolink literals need two characters side by side: "://" (http://, https://), "www."
# and the "@" of an e-mail address and its domain (which has a dot: "pass@3" is left alone). A word
# joiner between them breaks each pattern.
_AUTOLINK_JOINTS = re.compile(r"(?<=:)(?=//)|(?<=www)(?=\.)|(?<=@)(?=[-\w]+\.[-\w])", re.IGNORECASE)


def md_text(value: object) -> str:
    """A data value (a name, an id, a reasoning) as Markdown that shows exactly its text.

    Data is never markup: ``![x](http://host/p.png)`` in a ``qa_id`` must not make the browser fetch
    an image, ``http://host/`` must not become a link, and a note with ``**`` must not turn bold.
    Line breaks become spaces, since a value sits inside a sentence of the page.

    Args:
        value: Any value; ``str(value)`` is shown.

    Returns:
        The text with every character that could start Markdown markup escaped and every autolink
        pattern broken by an invisible word joiner.
    """
    text = " ".join(str(value).splitlines())
    text = _AUTOLINK_JOINTS.sub(WORD_JOINER, text)
    text = _INLINE_MARKUP.sub(r"\\\1", text)
    return _BLOCK_START.sub(lambda m: m.group(1) + "\\" + m.group(2), text, count=1)


def md_code(value: object) -> str:
    """A data value as a Markdown code span (monospace) that shows exactly its text, whatever it holds.

    Inside a code span nothing is markup and no autolink is made, but a backtick in the value would
    end a span fenced with one: the fence is one backtick longer than the value's longest run of
    them (CommonMark's rule), with a space inside each end when the value starts or ends with a
    backtick or a space (CommonMark strips one space from each end). Line breaks become spaces.

    Args:
        value: Any value; ``str(value)`` is shown.

    Returns:
        The code span.
    """
    text = " ".join(str(value).splitlines())
    runs = re.findall(r"`+", text)
    fence = "`" * (max(map(len, runs), default=0) + 1)
    if text.strip(" ") and (text[0] in "` " or text[-1] in "` "):
        text = f" {text} "  # the one space CommonMark strips from each end
    elif not text:
        text = " "  # an empty span is no span; an all-space one is shown as it is
    return f"{fence}{text}{fence}"
