"""Values, JSON kinds and JSON paths rendered for messages.

Every issue shows the offending value and where it is; these helpers make both short, safe
and readable: a value is shortened and its credential-looking keys are masked
(:func:`safe_value`), a parsed value is named by its JSON kind (:func:`json_type`), and a
location becomes a JSON path such as ``conversation[2].agentic.tools_used[0]``
(:func:`render_path`, :func:`join_path`). Shared by the parsers, the unknown-key warnings and
the error explanations.
"""

from __future__ import annotations

import re
import reprlib
from typing import Any

from agentic_core.common.secrets import redact
from agentic_core.errors import show_value

# A location inside a record as pydantic gives it: keys and list indexes.
Loc = tuple[int | str, ...]

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxdict, _REPR.maxlist, _REPR.maxstring, _REPR.maxother = 3, 6, 6, 100, 60


def safe_value(value: Any) -> str:
    """Shortened repr of ``value`` for a message; credential-looking keys are masked."""
    if isinstance(value, dict | list):
        return show_value(_Shown(_REPR.repr(redact(value, max_items=_REPR.maxdict + 1))))
    return show_value(value)


class _Shown(str):
    """A pre-rendered text whose repr is itself (so show_value does not quote it again)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return str(self)


def json_type(value: Any) -> str:
    """The JSON kind of a parsed value, with an article: ``a string``, ``null``, ``an object``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"


def render_path(loc: Loc) -> str:
    """JSON path of a location inside a record: ``conversation[2].agentic.final_answer_uses_tools``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _IDENTIFIER.match(part):
            out += f".{part}" if out else part
        else:
            out += f"[{show_value(part)}]"
    return out


def join_path(base: str, key: str) -> str:
    """Append a key to a rendered JSON path."""
    if _IDENTIFIER.match(key):
        return f"{base}.{key}" if base else key
    return f"{base}[{show_value(key)}]"
