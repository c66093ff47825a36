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

from agentic_core.data.schemas import Conversation, ParameterRule
from agentic_core.errors import show_value
from agentic_core.io.render import join_path
from agentic_core.io.schema_map import CHILD_FIELDS, HOME, KNOWN

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


# The children a validated record can hold unknown keys in: every child model but the parameter
# rules (kind "dict"), which forbid unknown keys, so validation reports them as errors.
_MODEL_CHILDREN: dict[type[BaseModel], tuple[tuple[str, type[BaseModel], str], ...]] = {
    model: tuple(child for child in children if child[2] != "dict") for model, children in CHILD_FIELDS.items()
}


def has_model_extras(conv: Conversation) -> bool:
    """Whether a validated conversation holds any unknown key; stops at the first.

    Runs on every record validated as a model (twins refuse unknown keys and are not walked).
    """
    return _holds_extras(conv, Conversation)


def _holds_extras(obj: BaseModel, model: type[BaseModel]) -> bool:
    if obj.__pydantic_extra__:
        return True
    for name, child, kind in _MODEL_CHILDREN[model]:
        value = getattr(obj, name)
        if value is None:
            continue
        if kind == "one":
            if _holds_extras(value, child):
                return True
        else:
            for item in value:
                if _holds_extras(item, child):
                    return True
    return False


def iter_model_extras(conv: Conversation) -> Iterator[tuple[str, type[BaseModel], str]]:
    """Unknown keys of a validated conversation: ``(path of the holder, holder model, key)``.

    Walks ``__pydantic_extra__`` only, which is ``{}`` for clean data; and returns at once when
    :func:`has_model_extras` finds none (the common case, on every record of a large file).
    """
    if has_model_extras(conv):
        yield from _model_extras(conv, Conversation, "")


def _model_extras(obj: BaseModel, model: type[BaseModel], base: str) -> Iterator[tuple[str, type[BaseModel], str]]:
    for key in obj.__pydantic_extra__ or ():
        yield base, model, key
    for name, child, kind in _MODEL_CHILDREN[model]:
        value = getattr(obj, name)
        if value is None:
            continue
        path = join_path(base, name)
        if kind == "one":
            yield from _model_extras(value, child, path)
        else:
            for j, item in enumerate(value):
                yield from _model_extras(item, child, f"{path}[{j}]")


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
    for name, child, kind in CHILD_FIELDS[model]:
        if name not in obj:
            continue
        value = obj[name]
        path = join_path(base, name)
        if kind == "one":
            yield from iter_raw_extras(value, child, path)
        elif kind == "list" and isinstance(value, list):
            for j, item in enumerate(value):
                yield from iter_raw_extras(item, child, f"{path}[{j}]")
