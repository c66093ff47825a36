"""What a Markdown body would show in Streamlit: its text, its markup tokens and the links remark-gfm would add.

markdown-it-py parses CommonMark plus tables and strikethrough, as Streamlit's renderer has them; the
autolink literals remark-gfm adds after parsing (``www.``, ``http://``, e-mail addresses) are found with
the renderer's own patterns (see :data:`GFM_URL`).
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.token import Token

from agentic_core.common.markdown_text import WORD_JOINER

MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])
MARKUP = {"image", "link_open", "em_open", "strong_open", "code_inline", "s_open", "html_inline", "html_block"}

# remark-gfm's autolink literals as Streamlit's Markdown renderer finds them: a pass over each text node after
# escapes are resolved (mdast-util-gfm-autolink-literal's transform), its two patterns copied from Streamlit
# 1.67's bundle (streamlit/static/static/js/StreamlitMarkdown.*.js). The JavaScript lookbehind before an e-mail
# address and the checks after a match are left out: matching more is the safe side of a test of "no link".
GFM_URL = re.compile(r"(https?://|www(?=\.))([-.\w]+)([^ \t\r\n]*)", re.IGNORECASE)
GFM_EMAIL = re.compile(r"([-.\w+]+)@([-\w]+(?:\.[-\w]+)+)")


def leaves(tokens: list[Token]) -> list[Token]:
    """Every token, the inline ones' children included."""
    out: list[Token] = []
    for token in tokens:
        out.append(token)
        out.extend(leaves(token.children or []))
    return out


def rendered_text(markdown: str) -> tuple[str, set[str]]:
    """The text a reader sees (the invisible word joiner left out), and the kinds of markup tokens the Markdown made."""
    tokens = leaves(MD.parse(markdown))
    text = "".join(t.content for t in tokens if t.type in {"text", "softbreak"})
    return text.replace(WORD_JOINER, ""), {t.type for t in tokens} & MARKUP


def autolinks(markdown: str) -> list[str]:
    """What remark-gfm would turn into links in ``markdown``'s text (markdown-it joins escapes into the text, too)."""
    texts = [t.content for t in leaves(MD.parse(markdown)) if t.type == "text"]
    return [m.group(0) for text in texts for pattern in (GFM_URL, GFM_EMAIL) for m in pattern.finditer(text)]


def fetched_or_linked(markdown: str) -> list[str]:
    """The images, links and autolinks ``markdown`` would show (empty for inert text)."""
    tokens = leaves(MD.parse(markdown))
    found = [str(t.attrs.get("src", "")) for t in tokens if t.type == "image"]
    found += [str(t.attrs.get("href", "")) for t in tokens if t.type in {"link_open", "html_inline", "html_block"}]
    return found + autolinks(markdown)


def visible_text(markdown: str) -> str:
    """Everything a reader sees of ``markdown``: its text and its code spans (the invisible word joiner left out)."""
    tokens = leaves(MD.parse(markdown))
    return "".join(t.content for t in tokens if t.type in {"text", "softbreak", "code_inline"}).replace(WORD_JOINER, "")
