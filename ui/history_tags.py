"""History's tags: the filters above the list (words, tags, a metadata key = value) and the editor of one run's.

What a filter keeps and how runs group are the core's (:class:`agentic_core.runs.RunFilter`); this module
reads the widgets and saves an edit with :meth:`agentic_core.runs.RunStore.set_tags`.
"""

from __future__ import annotations

import streamlit as st

from agentic_core import AgenticError
from agentic_core.common import md_code
from agentic_core.runs import RunFilter, RunMeta, RunStore, known_metadata, known_tags
from ui.format import md_text
from ui.run_tags_form import fill, tag_fields

NOTICE_KEY = "_history_notice"
EDITING_KEY = "_history_editing"  # the run whose tags the editor's fields hold


def history_filter(runs: list[RunMeta]) -> RunFilter:
    """Draw the filters (search, tags, metadata key and value) and return what they keep."""
    tags = known_tags(runs)
    metadata = known_metadata(runs)
    cols = st.columns([3, 2, 2])
    text = cols[0].text_input(
        "Search", key="history_search", placeholder="words in the name, note, tags or metadata",
        help="Runs with every word (any case) in their name, note, tags, data name, id or metadata values.",
    )  # fmt: skip
    chosen = cols[1].multiselect(
        "Tags", tags, key="history_filter_tags", placeholder="any tag" if tags else "no run has a tag yet",
        help="Runs with every tag chosen.",
    )  # fmt: skip
    key = cols[2].selectbox(
        "Metadata", ["", *metadata], key="history_filter_key", format_func=lambda k: k or "any metadata",
        help="Runs whose metadata key has the value chosen below.",
    )  # fmt: skip
    pairs: dict[str, str] = {}
    if key:
        value = cols[2].selectbox(f"{key} =", metadata[key], key="history_filter_value")
        pairs = {key: str(value)}
    return RunFilter(tags=tuple(chosen), metadata=pairs, text=text)


def tag_summary(meta: RunMeta) -> str:
    """``Tags: a, b · model = gpt-4o · Note: ...``: the selected run's tags in one line (Markdown, values escaped)."""
    parts = []
    if meta.tags:
        parts.append("Tags: " + ", ".join(md_code(t) for t in meta.tags))
    parts.extend(f"{md_text(k)} = {md_code(v)}" for k, v in meta.metadata.items())
    if meta.note:
        parts.append(f"Note: {md_text(meta.note)}")
    return " · ".join(parts)


def tag_editor(store: RunStore, meta: RunMeta, known: list[str]) -> None:
    """The selected run's tags, note and metadata, editable; Save writes them to the history."""
    if st.session_state.get(EDITING_KEY) != meta.id:  # another run picked: its own values in the fields
        fill("history_edit", meta.run_tags)
        st.session_state[EDITING_KEY] = meta.id
    tags = tag_fields("history_edit", known)
    if st.button("Save the tags", key="history_save_tags", disabled=tags is None or store.read_only):
        assert tags is not None  # the button is disabled otherwise
        try:
            store.set_tags(meta.id, tags)
        except AgenticError as exc:
            st.error(md_text(exc))
        else:
            st.session_state[NOTICE_KEY] = f"Saved the tags, note and metadata of {meta.name!r}."
            st.rerun()
