"""The dashboard script: page config, navigation, and the shared sidebar.

Served by ``streamlit run app.py`` (``app.py`` prepares the first-run results when the server
starts; ``bash start.sh`` sets everything up first). Opens on the Overview of a built-in sample
already evaluated by the offline default judge.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from agentic_core import AgenticError
from ui.format import md_text
from ui.housekeeping import remember_script_module, start_housekeeping
from ui.run_job import current_job, settle_job
from ui.state import ensure_run, get_data, running_via_app
from ui.url_state import open_linked_run, sync_url

# The icon ships with the app: an icon name made every page load ask another host for it (fails offline).
ICON = Path(__file__).resolve().parent / "ui" / "static" / "icon.png"
st.set_page_config(page_title="Agent evaluation workbench", page_icon=str(ICON), layout="wide")
start_housekeeping()  # once per process: releases the memory of sessions that ended
remember_script_module()  # so that a closed session's variables can be released with it

OVERVIEW = st.Page(
    # The default page is served at "/"; its own url_path is reserved but never shown.
    "pages/overview.py",
    title="Overview",
    icon=":material/dashboard:",
    url_path="overview-page",
    default=True,
)


def _overview_alias() -> None:
    # "/overview" (a natural link to type or share) would otherwise be "Page not found": it opens
    # Overview, keeping the link's parameters.
    st.switch_page(OVERVIEW, query_params={key: st.query_params[key] for key in st.query_params})


ALIAS = st.Page(_overview_alias, title="Overview (link)", url_path="overview", visibility="hidden")
PAGES = {
    "Evaluate": [
        st.Page("pages/data.py", title="Data", icon=":material/upload_file:", url_path="data"),
        st.Page("pages/run.py", title="Run", icon=":material/play_circle:", url_path="run"),
        st.Page("pages/history.py", title="History", icon=":material/history:", url_path="history"),
    ],
    "Results": [
        OVERVIEW,
        st.Page(
            "pages/uncertainty.py",
            title="Uncertainty",
            icon=":material/stacked_line_chart:",
            url_path="uncertainty",
        ),
        st.Page("pages/tools.py", title="Tools", icon=":material/build:", url_path="tools"),
        st.Page(
            "pages/agentic_metrics.py", title="Agentic metrics", icon=":material/psychology:", url_path="agentic"
        ),
        st.Page("pages/explorer.py", title="Explorer", icon=":material/search:", url_path="explorer"),
        st.Page("pages/review.py", title="Review queue", icon=":material/rule:", url_path="review"),
        st.Page("pages/compare.py", title="Compare", icon=":material/compare_arrows:", url_path="compare"),
        st.Page(
            "pages/calibration.py", title="Calibration", icon=":material/fact_check:", url_path="calibration"
        ),
        ALIAS,
    ],
    "Share": [
        st.Page("pages/export.py", title="Export", icon=":material/download:", url_path="export"),
    ],
    "Help": [
        st.Page("pages/glossary.py", title="Glossary", icon=":material/menu_book:", url_path="glossary"),
    ],
}

page = st.navigation(PAGES)
if page is ALIAS:
    page.run()

with running_via_app():
    settle_job()  # a run judged in the background finished: it becomes the active run on any page
    reopen_problem = open_linked_run()  # a reload or a shared link reopens its stored run
    if reopen_problem:
        st.warning(reopen_problem, icon=":material/history:")
    try:
        run = ensure_run()
    except AgenticError as exc:
        st.error(f"The built-in sample could not be evaluated: {exc}")
        st.stop()

    data = get_data()
    with st.sidebar:
        st.caption(f"**Run:** {md_text(run.data_name)}  \n**Judge:** {md_text(run.judge_label)}")
        if data is not None and data.name != run.data_name:
            st.caption(f":orange[Loaded but not run yet: {md_text(data.name)}] (see Run)")
        job = current_job()
        if job is not None and job.running:
            # No count here: the sidebar is not redrawn while the Run page's progress is.
            st.caption(":blue[Judging in the background] (progress and Cancel on Run)")

    # The Glossary shows no results: its links carry an anchor (/glossary#cohens-kappa), which
    # rewriting the URL with the settings dropped before the browser could scroll to it.
    if page.url_path != "glossary":
        for message in sync_url(run):
            st.warning(message, icon=":material/link:")
    page.run()
