"""One memoisation helper for the pages: results kept per browser session, keyed by what they depend on.

Pages recompute tables and posteriors only when their inputs change (the run, the settings, a
search term); a rerun from an unrelated widget reuses them. Kept in ``st.session_state`` (per
session, released with it), never in a process-wide cache, because results hold the session's data.
"""

from __future__ import annotations

import uuid
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TypeVar

import streamlit as st

from agentic_core.io import LoadReport

T = TypeVar("T")

TOKENS_KEY = "_load_tokens"


def session_memo(key: str, signature: Hashable, build: Callable[[], T], *, size: int = 1) -> T:
    """``build()``, memoised under ``key`` for the ``size`` most recently used signatures.

    Args:
        key: The session-state key of this memo (one per kind of result).
        signature: Everything the result depends on (compared with ``==``). For a loaded dataset,
            pass :func:`load_token` (never ``id(report)``: a freed report's id is given to the next).
        build: Computes the result.
        size: How many signatures to keep (least recently used dropped first).

    Returns:
        The memoised or freshly built result.
    """
    memo: OrderedDict[Hashable, T] = st.session_state.setdefault(key, OrderedDict())
    if signature in memo:
        memo.move_to_end(signature)
        return memo[signature]
    value = build()
    memo[signature] = value
    while len(memo) > size:
        memo.popitem(last=False)
    return value


def forget(key: str) -> None:
    """Drop every memoised result under ``key`` (e.g. the aggregates of a replaced run)."""
    st.session_state.pop(key, None)


def load_token(report: LoadReport) -> str:
    """A name for this one load that no other load of the session ever gets: the key of its memos.

    ``id(report)`` is not that: once a report is freed, the next one can be given its id and would
    then read the old one's memoised tables. The token is made on first sight and kept with a weak
    reference to its report, so a report that has gone takes its token with it and is never pinned
    in memory by this table.

    Args:
        report: A loaded dataset (the active data's, or the last load's on the Data page).

    Returns:
        A fresh hex string for a report not seen before, the same one for a report seen before.
    """
    tokens: dict[int, tuple[weakref.ref[LoadReport], str]] = st.session_state.setdefault(TOKENS_KEY, {})
    seen = tokens.get(id(report))
    if seen is not None and seen[0]() is report:
        return seen[1]
    # Forget the reports that have gone (an id in use by a dead entry is reused here): the table
    # stays as long as the loads still alive.
    for gone in [key for key, (ref, _) in tokens.items() if ref() is None or key == id(report)]:
        del tokens[gone]
    token = uuid.uuid4().hex
    tokens[id(report)] = (weakref.ref(report), token)
    return token
