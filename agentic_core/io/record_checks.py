"""Checks on a raw record before validation: values nested too deeply, text no encoding can store.

Both are legal JSON and both once crashed a whole run:

- Tool parameters or results nested a few hundred levels deep made tool comparison (which recurses)
  hit Python's recursion limit. A record whose tool values nest deeper than
  :data:`MAX_TOOL_NESTING` is reported and skipped; the rest of the data is evaluated.
- A lone UTF-16 surrogate (``"\\ud800"`` in the JSON text) decodes to a Python string that cannot
  be encoded, so building the result tables failed. Such characters are replaced by U+FFFD (the
  replacement character) and each repair is reported with its place.

Both walks are iterative (no recursion of their own) and touch only what they must: the depth walk
only the tool values, the surrogate walk only records parsed by the standard library (orjson refuses
lone surrogates, so files it parsed cannot hold one).
"""

from __future__ import annotations

import copy
import re
from typing import Any

from agentic_core.io.load_report import Issue, SkippedRecord
from agentic_core.io.parsed import UNPARSABLE, Parsed

MAX_TOOL_NESTING = 64
"""Deepest nesting accepted in a tool call's parameters or result (real tools use a handful)."""

_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


_TOOL_BLOCKS = (
    ("agentic", "tools_used", ("parameters", "result")),
    ("ground_truth_agentic", "expected_tools", ("parameters", "parameter_rules")),
)


def _depth(value: Any, limit: int) -> int:
    """Nesting depth of ``value`` (a scalar is 0), counted up to ``limit + 1`` at most."""
    deepest = 0
    stack = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children: Any = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        depth += 1
        if depth > deepest:
            deepest = depth
            if deepest > limit:
                return deepest
        stack.extend((child, depth) for child in children if isinstance(child, (dict, list)))
    return deepest


def too_deep(raw: Any, limit: int = MAX_TOOL_NESTING) -> str | None:
    """The path of the first tool value nested deeper than ``limit`` levels, or ``None``.

    Runs on every record, so the common case (flat parameters) is kept to one scan of their
    values with no function call per value.
    """
    turns = raw.get("conversation") if type(raw) is dict else None
    if type(turns) is not list:
        return None
    containers = (dict, list)
    for i, turn in enumerate(turns):
        if type(turn) is not dict:
            continue
        for side, calls_key, fields in _TOOL_BLOCKS:
            block = turn.get(side)
            if type(block) is not dict:
                continue
            calls = block.get(calls_key)
            if type(calls) is not list:
                continue
            for j, call in enumerate(calls):
                if type(call) is not dict:
                    continue
                for name in fields:
                    value: Any = call.get(name)
                    kind = type(value)
                    if kind is dict:
                        nested = any(type(x) in containers for x in value.values())
                    elif kind is list:
                        nested = any(type(x) in containers for x in value)
                    else:
                        continue
                    if nested and _depth(value, limit) > limit:
                        return f"conversation[{i}].{side}.{calls_key}[{j}].{name}"
    return None


def _key_text(key: Any) -> str:
    return f".{key}" if isinstance(key, str) and key.isidentifier() else f"[{key!r}]"


def _repair_slot(node: Any, slot: Any, child: str, stack: list[tuple[Any, str]], repaired: list[str]) -> None:
    """Repair the string at ``node[slot]`` (a dict's key or a list's index), or queue the container there."""
    value = node[slot]
    if isinstance(value, str):
        if not value.isascii() and _SURROGATE.search(value):
            node[slot] = _SURROGATE.sub(REPLACEMENT, value)
            repaired.append(child)
    elif isinstance(value, (dict, list)):
        stack.append((value, child))


def repair_surrogates(raw: Any) -> list[str]:
    """Replace lone surrogates in every string of ``raw`` (keys included), in place.

    Returns:
        The paths of the repaired strings (``conversation[0].assistant``), sorted.
    """
    repaired: list[str] = []
    stack: list[tuple[Any, str]] = [(raw, "")]
    while stack:
        node, path = stack.pop()
        if isinstance(node, dict):
            for key in list(node):
                child = path + _key_text(key) if path else (key if isinstance(key, str) else f"[{key!r}]")
                if isinstance(key, str) and not key.isascii() and _SURROGATE.search(key):
                    new_key = _SURROGATE.sub(REPLACEMENT, key)
                    node[new_key] = node.pop(key)
                    repaired.append(child)
                    key = new_key
                _repair_slot(node, key, child, stack, repaired)
        elif isinstance(node, list):
            for i in range(len(node)):
                _repair_slot(node, i, f"{path}[{i}]", stack, repaired)
    return sorted(repaired)


def has_surrogates(raw: Any) -> bool:
    """Whether any string of ``raw`` (keys included) holds a lone surrogate (nothing is changed)."""
    stack = [raw]
    while stack:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in items:
            for text in (key, value):
                if isinstance(text, str) and not text.isascii() and _SURROGATE.search(text):
                    return True
            if isinstance(value, (dict, list)):
                stack.append(value)
    return False


def check_records(
    name: str,
    parsed: Parsed,
    owned: bool,
    issues: list[Issue],
    skipped: list[SkippedRecord],
    start: int = 0,
    stop: int | None = None,
) -> None:
    """Skip records with tool values too deep to compare; repair text no encoding can store.

    A skipped record becomes :data:`UNPARSABLE` (with its error in ``record_errors``), so the
    loader's validation passes over it like a record whose line was not valid JSON. Records the
    caller owns (``owned`` false: given in memory) are copied before a repair, never changed.
    Only records ``[start, stop)`` are checked (the loader streams a file chunk by chunk).
    """
    records, lines = parsed.records, parsed.lines
    for index in range(start, len(records) if stop is None else stop):
        raw = records[index]
        if raw is UNPARSABLE or not isinstance(raw, dict):
            continue
        session = raw.get("session_id")
        session_id = session if isinstance(session, str) else None
        repaired: list[str] = []
        if owned and parsed.stdlib:
            repaired = repair_surrogates(raw)
        elif not owned and has_surrogates(raw):
            raw = records[index] = copy.deepcopy(raw)
            repaired = repair_surrogates(raw)
        for path in repaired:
            issues.append(
                Issue(
                    "warning",
                    name,
                    index,
                    path,
                    "held a lone UTF-16 surrogate (a \\ud800-\\udfff escape without its pair), "
                    "which no text encoding can store; it was replaced by U+FFFD",
                    None,
                    "fix the program that wrote the file so it writes valid UTF-8 text",
                    parsed.line_of(index),
                    None,
                    session_id,
                )
            )
        line = lines[index] if lines is not None else None
        # A line with no more than MAX_TOOL_NESTING brackets cannot nest deeper (a C-speed count
        # spares the walk on almost every record of a JSON Lines file).
        deep = None if line is not None and line.count(b"{") + line.count(b"[") <= MAX_TOOL_NESTING else too_deep(raw)
        if deep is not None:
            issue = Issue(
                "error",
                name,
                index,
                deep,
                f"is nested more than {MAX_TOOL_NESTING} levels deep, too deep to compare",
                None,
                "flatten the tool call's parameters / result (real tools nest a few levels); the other "
                "records are evaluated",
                parsed.line_of(index),
                None,
                session_id,
            )
            issues.append(issue)
            skipped.append(SkippedRecord(name, index, issue.line, session_id, issue.message(with_place=False)))
            records[index] = UNPARSABLE
            parsed.record_errors[index] = issue
