"""The head of a results page that opens on the active run: sidebar, title, reading guide, what was judged."""

from __future__ import annotations

import streamlit as st

from ui.controls import sidebar_controls
from ui.format import md_text
from ui.guide import how_to_read
from ui.state import ActiveRun, ensure_run


def page_head(title: str, guide: str) -> ActiveRun:
    """Open the active run, draw the sidebar's settings, the title, the guide and the data's caption.

    Args:
        title: The page's title.
        guide: The page's file stem in ``pages/`` (its "How to read this page" text).

    Returns:
        The active run (on a first visit, the default sample judged by the default judge).
    """
    run = ensure_run()
    sidebar_controls(run)
    st.title(title)
    how_to_read(guide)
    st.caption(f"{md_text(run.data_name)} — judged by {md_text(run.judge_label)}")
    return run
