"""Glossary page: every word the dashboard uses, in plain words, with its formula.

Each entry has an anchor (``/glossary#pass-k``) that tooltips and "How to read this page" link to.
The text lives in :mod:`agentic_core.glossary`.
"""

from __future__ import annotations

import streamlit as st

from agentic_core.glossary import ANCHORS, search_entries
from ui.anchor_scroll import land_on_anchor

st.title("Glossary")
st.caption(
    "The words the dashboard uses, in plain words and with their formulas. Every setting's tooltip links "
    "here; link to one entry with /glossary#anchor (e.g. /glossary#pass-k)."
)
query = st.text_input(
    "Search the glossary", key="glossary_search", placeholder="e.g. kappa, prior, pass^k", icon=":material/search:"
)
entries = search_entries(query)
if not entries:
    st.info(f"No entry mentions “{query}”. Try a shorter word.", icon=":material/search_off:")
else:
    # A table of contents: the page is long, and each term jumps to its entry.
    with st.expander(f"Contents: {len(entries)} entries", expanded=not query, key="glossary_contents"):
        st.markdown(" · ".join(f"[{entry.term}](#{entry.anchor})" for entry in entries))
for entry in entries:
    st.subheader(entry.term, anchor=entry.anchor, divider="gray")
    st.markdown(entry.plain)
    if entry.formula:
        st.markdown(f"**Formula:** `{entry.formula}`")
    if entry.see_also:
        links = ", ".join(f"[{ANCHORS[a].term}](#{a})" for a in entry.see_also)
        st.caption(f"See also: {links}")
land_on_anchor()
