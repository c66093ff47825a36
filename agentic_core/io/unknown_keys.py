"""Unknown keys: finding them in a record, and the "did you mean" fix for each.

An unknown key is kept (``extra="allow"``) but never used, so it is a warning, not an error;
usually it is a typo (``tools_usde``) or a key in the wrong object (``tools_used`` next to
``query``), and the fix says which. Keys are found in validated models (cheap: only
``__pydantic_extra__`` is walked) and in rejected raw records, where a typo often is the
reason a required field is missing.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from pydantic import BaseModel

from agentic_core.data.schemas import (
    Agentic,
    Conversation,
    ExpectedTool,
    GroundTruthAgentic,
    Interaction,
    ParameterRule,
    ToolCall,
)
from agentic_core.errors import show_value
from agentic_core.io.render import join_path
from agentic_core.io.schema_map import CHILDREN, HOME, KNOWN

# How close a word must be to a known one to be suggested (difflib ratio).
SIMILARITY = 0.7


def close_match(word: str, candidates: frozenset[str] | tuple[str, ...]) -> str | None:
    """The candidate closest to ``word`` (what a typo most likely meant), or ``None``."""
    matches = difflib.get_close_matches(word, sorted(candidates), n=1, cutoff=SIMILARITY)
    return matches[0] if matches else None


@lru_cache(maxsize=4096)
def unknown_key_fix(model: type[BaseModel], key: str) -> str:
    """The fix for an unknown key in ``model``: a close known key, or where the key belongs.

    Cached because one typo usually repeats in thousands of records.
    """
    close = close_match(key, KNOWN[model])
    if close is not None:
        return f"did you mean {close!r}? Rename it; an unknown key is kept but never used"
    homes = [home for m, home in HOME.items() if m is not model and key in KNOWN[m]]
    if homes:
        return f"{key!r} belongs in {' or '.join(homes)}; move it there, or remove it"
    known = ", ".join(sorted(KNOWN[model]))
    return f"remove it if it is a mistake (the keys here are {known}); if it is intended, ignore this warning"


def unknown_key_rule(key: str) -> str:
    """The rule text of an unknown-key warning."""
    return f"unknown key {show_value(key)} (kept, but not used)"


def has_model_extras(conv: Conversation) -> bool:
    """Whether a validated conversation holds any unknown key (one tight pass: this runs on every record)."""
    if conv.__pydantic_extra__:
        return True
    for inter in conv.conversation:
        if inter.__pydantic_extra__:
            return True
        agentic = inter.agentic
        if agentic is not None:
            if agentic.__pydantic_extra__:
                return True
            for call in agentic.tools_used:
                if call.__pydantic_extra__:
                    return True
        truth = inter.ground_truth_agentic
        if truth is not None:
            if truth.__pydantic_extra__:
                return True
            for expected in truth.expected_tools:
                if expected.__pydantic_extra__:
                    return True
    return False


def iter_model_extras(conv: Conversation) -> Iterator[tuple[str, type[BaseModel], str]]:
    """Unknown keys of a validated conversation: ``(path of the holder, holder model, key)``.

    Walks ``__pydantic_extra__`` only, which is ``{}`` for clean data; and returns at once when
    :func:`has_model_extras` finds none (the common case, on every record of a large file).
    """
    if not has_model_extras(conv):
        return
    if conv.__pydantic_extra__:
        for key in conv.__pydantic_extra__:
            yield "", Conversation, key
    for i, inter in enumerate(conv.conversation):
        base = f"conversation[{i}]"
        if inter.__pydantic_extra__:
            for key in inter.__pydantic_extra__:
                yield base, Interaction, key
        agentic = inter.agentic
        if agentic is not None:
            if agentic.__pydantic_extra__:
                for key in agentic.__pydantic_extra__:
                    yield f"{base}.agentic", Agentic, key
            for j, call in enumerate(agentic.tools_used):
                if call.__pydantic_extra__:
                    for key in call.__pydantic_extra__:
                        yield f"{base}.agentic.tools_used[{j}]", ToolCall, key
        truth = inter.ground_truth_agentic
        if truth is not None:
            if truth.__pydantic_extra__:
                for key in truth.__pydantic_extra__:
                    yield f"{base}.ground_truth_agentic", GroundTruthAgentic, key
            for j, expected in enumerate(truth.expected_tools):
                if expected.__pydantic_extra__:
                    for key in expected.__pydantic_extra__:
                        yield f"{base}.ground_truth_agentic.expected_tools[{j}]", ExpectedTool, key


def iter_raw_extras(
    obj: Any, model: type[BaseModel] = Conversation, base: str = ""
) -> Iterator[tuple[str, type[BaseModel], str]]:
    """Unknown keys of a raw (not validated, possibly invalid) record, like :func:`iter_model_extras`.

    Used for skipped records: a typo such as ``sesion_id`` often *is* the reason a required
    field is missing, so the warning is worth showing next to the error.
    """
    if not isinstance(obj, dict):
        return
    if model is ParameterRule:  # extra keys there are errors, reported by validation
        return
    known = KNOWN[model]
    for key in obj:
        if isinstance(key, str) and key not in known:
            yield base, model, key
    for (parent, name), (child, kind) in CHILDREN.items():
        if parent is not model or name not in obj:
            continue
        value = obj[name]
        path = join_path(base, name)
        if kind == "one":
            yield from iter_raw_extras(value, child, path)
        elif kind == "list" and isinstance(value, list):
            for j, item in enumerate(value):
                yield from iter_raw_extras(item, child, f"{path}[{j}]")
