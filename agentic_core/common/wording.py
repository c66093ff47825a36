"""Small wording helpers shared by every message the core writes (one copy each)."""

from __future__ import annotations


def plural(count: int, word: str) -> str:
    """``plural(1, "group")`` -> ``"1 group"``; ``plural(3, "group")`` -> ``"3 groups"``.

    Args:
        count: How many.
        word: The singular noun (regular plurals only: an ``s`` is appended).

    Returns:
        The count followed by the noun in the right number.
    """
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def sentence_case(text: str) -> str:
    """The text with its first character upper-cased (the rest untouched), for reasons used as sentences."""
    return text[:1].upper() + text[1:]
