"""Text a judge returns, made safe to keep: clipped to a bounded length, valid Unicode.

Kept apart from the judges (and free of heavy imports) because the cache applies the same rules to
whatever any judge hands it.
"""

from __future__ import annotations

MAX_REASONING_CHARS = 20_000
"""The longest judge reasoning kept (stored, cached, printed); longer reasoning is clipped with a note."""


# Room kept for the note, so a clipped reasoning is never longer than the limit (and clipping it
# again, as the cache does with whatever a judge hands it, changes nothing).
_NOTE_ROOM = 120


def clip_reasoning(text: str) -> str:
    """``text`` cut to at most :data:`MAX_REASONING_CHARS`, with a note saying how much was left out.

    A judge can reply with megabytes of reasoning; kept whole, it filled the cache, the run
    history and stdout with text nobody reads.
    """
    if len(text) <= MAX_REASONING_CHARS:
        return text
    keep = MAX_REASONING_CHARS - _NOTE_ROOM
    return f"{text[:keep]} [… clipped: {len(text) - keep:,} more characters of the judge's reasoning not kept]"


def lone_surrogate_at(text: str) -> int | None:
    """Where ``text`` holds a lone surrogate (not encodable as UTF-8), or ``None``.

    Such a character crashes every writer downstream (stdout, CSV, SQLite), so a reply holding one
    is refused at the source instead.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return exc.start
    return None


def printable(text: str) -> str:
    """``text`` with lone surrogates written as ``\\udxxx`` escapes, so every writer accepts it."""
    if lone_surrogate_at(text) is None:
        return text
    return text.encode("utf-8", "backslashreplace").decode("utf-8")
