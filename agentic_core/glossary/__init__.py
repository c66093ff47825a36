"""The glossary: every word the dashboard uses, in plain words with its formula, and each page's reading guide.

Data only (no streamlit): the Glossary page renders it, setting tooltips link to its anchors
(``/glossary#pass-k``), and the command line or the README can print the same text.
"""

from __future__ import annotations

from agentic_core.glossary.entries import ENTRIES, GlossaryEntry
from agentic_core.glossary.guides import PAGE_GUIDES, SETTING_ANCHORS

__all__ = [
    "ANCHORS",
    "ENTRIES",
    "PAGE_GUIDES",
    "SETTING_ANCHORS",
    "GlossaryEntry",
    "glossary_link",
    "glossary_markdown",
    "search_entries",
    "setting_help",
]

ANCHORS: dict[str, GlossaryEntry] = {entry.anchor: entry for entry in ENTRIES}
"""Every entry by its anchor (``pass-k`` -> the pass@k entry)."""

GLOSSARY_PATH = "/glossary"


def glossary_link(anchor: str, text: str = "Glossary") -> str:
    """A markdown link to one glossary entry, e.g. ``[Glossary](/glossary#pass-k)``.

    Raises:
        KeyError: no entry has that anchor (a link must never point nowhere).
    """
    if anchor not in ANCHORS:
        raise KeyError(f"no glossary entry with anchor {anchor!r}")
    return f"[{text}]({GLOSSARY_PATH}#{anchor})"


def setting_help(name: str, help_text: str) -> str:
    """A setting's tooltip ending with a link to its glossary entry (unchanged when it has none)."""
    anchor = SETTING_ANCHORS.get(name)
    return help_text if anchor is None else f"{help_text} {glossary_link(anchor)}"


def search_entries(query: str) -> tuple[GlossaryEntry, ...]:
    """The entries whose term, words or formula contain every word of ``query`` (case-insensitive).

    An empty query returns every entry, in glossary order.
    """
    words = query.casefold().split()
    if not words:
        return ENTRIES
    return tuple(entry for entry in ENTRIES if all(word in entry.haystack for word in words))


def glossary_markdown(heading_level: int = 3) -> str:
    """Every entry as markdown (a heading per term, its words, its formula), e.g. for the README or a terminal."""
    hashes = "#" * heading_level
    parts = []
    for entry in ENTRIES:
        text = f"{hashes} {entry.term}\n\n{entry.plain}"
        if entry.formula:
            text += f"\n\nFormula: `{entry.formula}`"
        parts.append(text)
    return "\n\n".join(parts) + "\n"
