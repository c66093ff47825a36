"""The History page's "Trend" section: the headline numbers of every stored run of one dataset, over time."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from agentic_core import AgenticError
from agentic_core.runs import ReopenedRuns, RunGrouping, RunMeta, RunStore, TrendPoint, groupings, run_trend
from agentic_core.settings import AggregateSettings
from ui.format import md_text
from ui.theme import show_chart
from ui.trend_charts import grouped_trend_figure, headline_columns, trend_figure

CACHE_KEY = "_history_trend_runs"
CACHE_SIZE = 24
"""Reopened runs kept per session (a run of 100k interactions holds tens of MB)."""


def _table(points: list[TrendPoint], selected: str) -> pd.DataFrame:
    k = points[-1].k
    return pd.DataFrame(
        {
            "made": [pd.Timestamp.fromtimestamp(p.created_at).strftime("%Y-%m-%d %H:%M") for p in points],
            "name": [p.name for p in points],
            "judge": [p.judge for p in points],
            **headline_columns(points, k),
            "tags": [", ".join(p.tags) for p in points],
            "selected": ["●" if p.run_id == selected else "" for p in points],
            "id": [p.run_id for p in points],
        }
    )


def trend_section(store: RunStore, meta: RunMeta, settings: AggregateSettings | None) -> None:
    """Draw the trend of ``meta``'s dataset (runs with its data fingerprint) under ``settings``."""
    with st.container(key="history_trend"):
        st.subheader("Trend")
        if settings is None:  # the settings' error is already on the page
            return
        cache: ReopenedRuns = st.session_state.setdefault(CACHE_KEY, ReopenedRuns(size=CACHE_SIZE))
        try:
            with st.spinner("Reopening the runs of this dataset (no judge is called)..."):
                points = run_trend(store, meta.data_fingerprint, settings, cache)
        except AgenticError as exc:
            st.error(f"The trend cannot be drawn: {md_text(exc)}")
            return
        if len(points) < 2:
            st.info(
                f"**{meta.name}** is the only stored run of this dataset (data fingerprint "
                f"`{meta.data_fingerprint[:12]}`). Judge the same data again (another judge, model or version) "
                "to see its numbers over time here.",
                icon=":material/timeline:",
            )
            return
        st.caption(
            f"The {len(points)} stored runs of **{meta.data_name}** (the same data: fingerprint "
            f"`{meta.data_fingerprint[:12]}`), oldest first, each recomputed from its verdicts and overrides with "
            f"the current settings of the results pages' sidebar; bars are {settings.ci_level:.0%} intervals. "
            "Differences come from the judge and the verdicts, never from the settings."
        )
        ks = {p.k for p in points}
        if len(ks) > 1:
            st.warning(f"K = 'auto' chose different K for these runs ({', '.join(map(str, sorted(ks)))}); "
                       "set K in a results page's sidebar to compare pass@K and pass^K at one K.")  # fmt: skip
        unmeasured = next((p.not_measured for p in points if p.not_measured), None)
        if unmeasured:  # the core withheld pass@K / pass^K: one attempt per task
            st.info(unmeasured, icon=":material/repeat:")
        labels = [g.label for g in groupings(points)]
        group_label = st.selectbox(
            "Lines per", ["", *labels], key="history_trend_group", disabled=not labels,
            format_func=lambda label: label or "one line per headline number (every run)",
            help="One success-rate line per tag (a run with two tags is on both lines) or per value of a metadata "
            "key (runs without it on a dotted line)." if labels else "Tag the runs, or give them metadata, to "
            "draw one line per tag or value.",
        )  # fmt: skip
        if group_label:
            grouping = RunGrouping.from_label(group_label)
            figure = grouped_trend_figure(grouping.split(points), grouping, settings.ci_level)
            show_chart(figure, key="history_trend_grouped_chart")
        else:
            show_chart(trend_figure(points, settings.ci_level), key="history_trend_chart")
        st.dataframe(_table(points, meta.id), hide_index=True, key="history_trend_table")
