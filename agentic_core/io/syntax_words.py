"""What a JSON syntax error means, in words: the rule broken and the usual cause, or a file cut short.

The standard library's messages name the symptom (``Expecting value``); the fix names what usually
causes it. A text that ends inside the value being read is named as cut off (a download or copy that
stopped early), whatever the symptom: "close the string with a double quote" sent people hunting for
a typo in a truncated file.
"""

from __future__ import annotations

import json


def syntax_fix(msg: str) -> str:
    # stdlib messages, translated into what usually causes them.
    if msg.startswith("Expecting ',' delimiter"):
        return "a comma is missing between two items, or a string contains an unescaped double quote"
    if msg.startswith("Expecting property name"):
        return "keys need double quotes, and JSON allows no trailing comma before } or ]"
    if msg.startswith("Expecting ':' delimiter"):
        return "put a colon between each key and its value"
    if msg.startswith("Expecting value"):
        return (
            "a value is missing or invalid here: a trailing comma, single quotes, a bare word, "
            "or Python's None/True/False instead of null/true/false"
        )
    if msg.startswith("Extra data"):
        return "put exactly one conversation on each line (JSON Lines), or wrap them all in a JSON array"
    if msg.startswith("Unterminated string"):
        return "close the string with a double quote"
    if msg.startswith("Invalid control character"):
        return r"write newlines and tabs inside strings as \n and \t"
    if msg.startswith("Invalid \\escape") or msg.startswith("Invalid \\uXXXX"):
        return r"write a backslash inside a string as \\"
    return "correct the JSON at that position (an editor with JSON support will point at it)"


def cut_off(err: json.JSONDecodeError) -> bool:
    """Whether the text ends inside the value the parser was reading (a file cut short, not a typo)."""
    doc, pos = err.doc, err.pos
    if not isinstance(doc, str) or not doc.strip():
        return False
    rest = doc[pos:].strip()
    # Nothing left to read, or a string (a key or a value) opened and never closed.
    return not rest or (rest.startswith('"') and '"' not in rest[1:])


def syntax_words(err: json.JSONDecodeError, what: str = "file") -> tuple[str, str]:
    """The rule and the fix of a JSON syntax error; a text that ends mid-value is named as cut off."""
    if cut_off(err):
        return (
            f"is not valid JSON: it ends in the middle of a value ({err.msg}), so the {what} looks cut off",
            f"the {what} is incomplete (a download or copy stopped early, or the program writing it stopped): "
            "get the whole file again; if it is complete, a closing double quote or bracket is missing here",
        )
    return f"is not valid JSON: {err.msg}", syntax_fix(err.msg)
