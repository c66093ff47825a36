"""History: every stored run, filtered by words, tags and metadata; open, rename, tag, download, delete, import; the
trend of the selected run's dataset (one line per tag or metadata value if asked)."""

from __future__ import annotations

from functools import partial

import pandas as pd
import streamlit as st

from agentic_core import AgenticError
from agentic_core.runs import age_text, known_tags
from ui.controls import settings_or_error
from ui.format import md_text
from ui.guide import how_to_read
from ui.history_tags import history_filter, tag_editor, tag_summary
from ui.history_trend import trend_section
from ui.live_follow import follow_history
from ui.runs import open_stored_run, run_store, store_error
from ui.state import ensure_run

run = ensure_run()
st.title("History")
how_to_read("history")
store = run_store()
if store is None:
    st.error(f"The run history cannot be used: {store_error()}")
    st.stop()
assert store is not None  # st.stop() ends the script run

try:
    runs = store.runs()
except AgenticError as exc:  # a damaged file: said with its fix, not a traceback
    st.error(f"The run history cannot be read: {md_text(exc)}")
    st.stop()
if store.read_only:
    st.info(
        f"`{store.path}` is read-only: its runs can be opened and downloaded here, not renamed, deleted or added "
        "(new runs are not stored). Make the file and its folder writable to change it."
    )
st.caption(
    f"Every run made on the Run page (or with the command line) is kept in `{store.path}` with its data, verdicts "
    "and settings, never an API key. Opening one shows its results again without calling a judge. "
    "`python -m agentic_core runs list` reads the same history."
)
notice = st.session_state.pop("_history_notice", None)
if notice:
    st.success(notice)

shown = history_filter(runs).apply(runs) if runs else []  # the filters are drawn once there are runs
if not runs:
    st.info(
        "No stored run yet. Judge some data on the **Run** page (the built-in sample shown at first is not stored), "
        "or import a run file below.",
        icon=":material/history:",
    )
elif not shown:
    st.info(f"None of the {len(runs):,} stored runs matches the filters above: clear them to see every run.",
            icon=":material/filter_alt_off:")  # fmt: skip
else:
    follow_history(store, runs)  # a live run of today in the list: it follows the run's growth
    table = pd.DataFrame(
        {
            "name": [m.name for m in shown],
            "data": [m.data_name for m in shown],
            "judge": [m.judge.label() for m in shown],
            "made": [age_text(m.created_at) for m in shown],
            "conversations": [m.n_conversations for m in shown],
            "interactions": [m.n_interactions for m in shown],
            "tags": [", ".join(m.tags) for m in shown],
            "note": [m.note for m in shown],
            "active": ["●" if m.id == run.stored_id else "" for m in shown],
            "id": [m.id for m in shown],
        }
    )
    with st.container(key="history_table"):
        picked = st.dataframe(
            table,
            hide_index=True,
            on_select="rerun",
            selection_mode="single-row",
            key="history_selection",
            column_config={
                "active": st.column_config.TextColumn("", width="small", help="The run the results pages show"),
                "made": st.column_config.TextColumn("Made"),
            },
        )
    rows = picked.selection.rows if picked is not None else []
    ids = [m.id for m in shown]
    default = ids.index(run.stored_id) if run.stored_id in ids else 0
    chosen = st.selectbox(
        "Run",
        ids,
        index=rows[0] if rows and rows[0] < len(ids) else default,  # a row picked before the filters changed
        format_func=lambda i: f"{table.loc[ids.index(i), 'name']} ({i})",
        key="history_run",
        help="Click a row above, or pick a run here.",
    )
    meta = shown[ids.index(chosen)]
    st.markdown(
        f"**{meta.name}** — {meta.data_name}, judged by {meta.judge.label()}, {meta.n_conversations:,} "
        f"conversations, made {age_text(meta.created_at)} with version {meta.app_version}. "
        f"Data fingerprint `{meta.data_fingerprint[:12]}`."
        + (f" Live: traces of service {md_text(meta.live.service)} on {meta.live.day} (UTC), last added "
           f"{age_text(meta.live.updated_at)}." if meta.live is not None else "")
    )
    if meta.tags or meta.metadata or meta.note:
        st.caption(tag_summary(meta))
    cols = st.columns(5)
    if cols[0].button("Open", key="history_open", type="primary", icon=":material/open_in_new:"):
        try:
            with st.spinner("Reopening the run (no judge is called)..."):
                open_stored_run(meta.id)
        except AgenticError as exc:
            st.error(md_text(exc))
        else:
            st.switch_page("pages/overview.py")
    cols[1].download_button(
        "Download",
        data=partial(store.export, meta.id),  # bound now: a lambda would lose that the store is not None
        file_name=f"run-{meta.id}.json.gz",
        mime="application/gzip",
        key="history_download",
        icon=":material/download:",
        help="One file with the data, verdicts and overrides: import it here or with 'runs import'.",
    )
    with cols[2].popover("Rename", icon=":material/edit:"):
        new_name = st.text_input("New name", value=meta.name, key="history_new_name")
        if st.button("Save the name", key="history_rename"):
            try:
                store.rename(meta.id, new_name)
            except AgenticError as exc:
                st.error(md_text(exc))
            else:
                st.session_state["_history_notice"] = f"Renamed to {new_name.strip()!r}."
                st.rerun()
    with cols[3].popover("Tags", icon=":material/sell:"):
        tag_editor(store, meta, known_tags(runs))
    with cols[4].popover("Delete", icon=":material/delete:"):
        st.markdown(f"Delete **{md_text(meta.name)}** and its overrides from the history? This cannot be undone.")
        if st.button("Delete for good", key="history_delete", type="primary"):
            try:
                store.delete(meta.id)
            except AgenticError as exc:  # a read-only or damaged history
                st.error(md_text(exc))
                st.stop()
            if meta.id == run.stored_id:
                run.stored_id = None  # still open in this session, no longer in the history
            st.session_state["_history_notice"] = f"Deleted {meta.name!r}."
            st.rerun()

    trend_section(store, meta, settings_or_error(run))

st.subheader("Import a run")
upload = st.file_uploader(
    "A run file (from Download above or `python -m agentic_core runs export`)",
    type=["gz", "json"],
    key="history_import",
)
if upload is not None and st.session_state.get("_history_imported") != upload.file_id:
    st.session_state["_history_imported"] = upload.file_id
    try:
        imported = store.import_(upload.getvalue(), upload.name)
    except AgenticError as exc:
        st.error(md_text(exc))
    else:
        st.session_state["_history_notice"] = f"Imported {imported.name!r} as {imported.id}."
        st.rerun()
