"""One memoisation helper for the pages: results kept per browser session, keyed by what they depend on.

Pages recompute tables and posteriors only when their inputs change (the run, the settings, a
search term); a rerun from an unrelated widget reuses them. Kept in ``st.session_state`` (per
session, released with it), never in a process-wide cache, because results hold the session's data.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TypeVar

import streamlit as st

T = TypeVar("T")


def session_memo(key: str, signature: Hashable, build: Callable[[], T], *, size: int = 1) -> T:
    """``build()``, memoised under ``key`` for the ``size`` most recently used signatures.

    Args:
        key: The session-state key of this memo (one per kind of result).
        signature: Everything the result depends on (compared with ``==``). For an object
            compared by identity (a loaded dataset), pass ``id(obj)`` and keep the object alive
            elsewhere for as long as the signature is in use (the active data is).
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
