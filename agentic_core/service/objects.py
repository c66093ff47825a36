"""The one check every part of a request that must be a JSON object goes through."""

from __future__ import annotations

from typing import Any

from agentic_core.errors import AgenticError


def json_object(value: object, error: type[AgenticError], place: str, rule: str, fix: str) -> dict[str, Any]:
    """``value`` when it is a JSON object (a dict), else ``error`` naming its type.

    Args:
        value: The part of the request as parsed.
        error: The exception of the family the part belongs to (``SettingsError`` for settings, ...).
        place: Where the part is, e.g. ``config`` or ``connector.params``.
        rule: What it must be, e.g. ``must be an object``.
        fix: What to write instead.

    Raises:
        AgenticError: ``error``, with the value's type as the value (the value itself may hold a key).
    """
    if not isinstance(value, dict):
        raise error(place, rule, type(value).__name__, fix)
    return value
