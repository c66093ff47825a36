"""The "How to read this page" expander at the top of each results page (text in agentic_core.glossary)."""

from __future__ import annotations

import streamlit as st

from agentic_core.glossary import PAGE_GUIDES


def how_to_read(page: str) -> None:
    """Draw the page's collapsed "How to read this page" expander (``page``: its file stem in ``pages/``)."""
    with st.expander("How to read this page", icon=":material/help:"):
        st.markdown(PAGE_GUIDES[page])
        st.caption("Every word in full: [Glossary](/glossary)")
