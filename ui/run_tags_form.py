"""The fields of a run's tags, note and metadata, shared by the Run page (before a run) and History (editing one).

The rules are the core's (:meth:`agentic_core.runs.RunTags.checked`): a value that breaks one is shown with
``st.error`` naming the field, and the form returns ``None`` so the caller neither runs nor saves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

from agentic_core import AgenticError
from agentic_core.runs import LIMITS, SUGGESTED_KEYS, RunTags, TagPlaces, parse_meta_pairs
from ui.format import md_text

PLACES = TagPlaces(tag="Tags ({n})", note="Note", key="Metadata {key!r}")
"""The fields' names in the errors the form shows."""


def meta_lines(tags: RunTags) -> str:
    """The metadata as the form's text: ``KEY=VALUE`` per line."""
    return "\n".join(f"{k}={v}" for k, v in tags.metadata.items())


def fill(prefix: str, tags: RunTags) -> None:
    """Put ``tags`` into the form's widgets (before they are drawn): History's editor opening another run."""
    st.session_state[f"{prefix}_tags"] = list(tags.tags)
    st.session_state[f"{prefix}_note"] = tags.note
    st.session_state[f"{prefix}_meta"] = meta_lines(tags)


def tag_fields(prefix: str, known: Sequence[str], **widget: Any) -> RunTags | None:
    """Draw the tags, note and metadata fields; their values checked, or ``None`` after showing the broken rule.

    Args:
        prefix: The widgets' key prefix (``run``: ``run_tags``, ``run_note``, ``run_meta``).
        known: Tags other runs carry, offered first (a new one can be typed).
        widget: Extra keyword arguments for every widget (the Run page keeps its fields across pages).
    """
    chosen = st.multiselect(
        "Tags",
        sorted(set(known) | set(st.session_state.get(f"{prefix}_tags") or []), key=str.casefold),
        accept_new_options=True,
        key=f"{prefix}_tags",
        placeholder="baseline, prompt-v2, ... (type a new one and press Enter)",
        help=f"Short one-word tags (at most {LIMITS['tags']}, each of at most {LIMITS['tag characters']} letters, "
        "digits and _ - . : / @ + # =): History filters on them, trends and Compare group by them.",
        **widget,
    )
    note = st.text_area(
        "Note", key=f"{prefix}_note", height=80, max_chars=LIMITS["note characters"],
        help="What this run is about: the change it tests, what to look at.", **widget,
    )  # fmt: skip
    lines = st.text_area(
        "Metadata (KEY=VALUE, one per line)", key=f"{prefix}_meta", height=100,
        placeholder="\n".join(f"{key}=..." for key in SUGGESTED_KEYS),
        help=f"Free key / value pairs (at most {LIMITS['metadata keys']}; suggested: {', '.join(SUGGESTED_KEYS)}). "
        "Never a credential: keys such as api_key or token, and values that look like a key, are refused.",
        **widget,
    )  # fmt: skip
    try:
        metadata = parse_meta_pairs(lines.splitlines(), "Metadata line {n}")
        return RunTags.checked(chosen, note, metadata, PLACES)
    except AgenticError as exc:
        st.error(md_text(exc), icon=":material/label_off:")
        return None
