"""Data: upload conversation files (validated, with a report per record) or load a built-in sample.

Loading makes the data active; judging happens on the Run page.
"""

from __future__ import annotations

import logging

import pandas as pd
import streamlit as st

from agentic_core import AgenticError
from agentic_core.common import md_code
from agentic_core.io import (
    DEFAULT_FORMAT,
    FORMAT_CHOICES,
    FORMAT_LABELS,
    SAMPLES,
    LoadReport,
    formats_in_words,
    load_uploads,
    max_upload_mb,
)
from agentic_core.report import VIEW_MAX_CHARS, VIEW_MAX_DEPTH, conversations_preview, record_view
from ui import views
from ui.data_tables import PREVIEW_CONFIG, keyed_table, show_report
from ui.format import md_text
from ui.format_defaults import defaults_of
from ui.memo import load_token, session_memo
from ui.state import ActiveData, ensure_run, get_data, is_evaluated, load_sample_data, set_data
from ui.streamlit_internals import UploadedFile

log = logging.getLogger(__name__)


# Per file. The upload widget lets files up to twice the limit through (within the server's own
# cap, server.maxUploadSize) so that the load report names an oversized file on the page: the
# browser's own refusal shows only as a tooltip on the file.
MAX_UPLOAD_MB = max_upload_mb()
WIDGET_MAX_MB = max(MAX_UPLOAD_MB, min(2 * MAX_UPLOAD_MB, int(st.get_option("server.maxUploadSize"))))
UPLOAD_TYPES = ["json", "jsonl", "ndjson"]
LAST_LOAD_KEY = "_data_last_load"
UPLOAD_SIGNATURE_KEY = "_data_upload_signature"
PREVIEW_KEY = "_data_preview"
ISSUES_KEY = "_data_issues"


def _load_uploads(files: list[UploadedFile], fmt: str, references: UploadedFile | None = None) -> bool:
    """Load every uploaded file together (duplicates are checked across files), read as ``fmt``."""
    with st.spinner(f"Loading and validating {len(files)} file(s)..."):
        report, oversized = load_uploads(files, MAX_UPLOAD_MB, format=fmt, references=references)
    name = views.data_name([f.name for f in files])
    loaded = bool(report.conversations)
    if loaded:
        set_data(ActiveData(name=name, report=report, source="upload"))
    st.session_state[LAST_LOAD_KEY] = views.LastLoad(name, report, loaded, oversized)
    return loaded


def _load_sample(key: str) -> bool:
    try:
        data = load_sample_data(key)
    except AgenticError as exc:
        st.error(md_text(exc))
        return False
    except Exception:
        log.exception("loading sample %s failed", key)
        st.error(f"The sample {key!r} could not be loaded. Restore sample_data/ (git checkout sample_data) and retry.")
        return False
    st.session_state[LAST_LOAD_KEY] = views.LastLoad(data.name, data.report, True)
    return True


def _preview(report: LoadReport) -> pd.DataFrame:
    """The preview table of ``report``, built once per load."""
    return session_memo(PREVIEW_KEY, load_token(report), lambda: conversations_preview(report.conversations))


def _issues(report: LoadReport) -> pd.DataFrame:
    """The issues of ``report`` as a table, built once per load."""
    return session_memo(ISSUES_KEY, load_token(report), report.to_frame)


run = ensure_run()
st.title("Data")
st.caption(
    "Upload your agent's conversations or pick a built-in sample. Loading validates every record "
    "and makes the data active; nothing is judged until you start a run on the Run page."
)
status_box = st.container()

# -- upload ------------------------------------------------------------------------------------
st.subheader("Upload files")
upload_format = st.selectbox(
    "File format",
    FORMAT_CHOICES,
    index=FORMAT_CHOICES.index(DEFAULT_FORMAT),
    format_func=FORMAT_LABELS.__getitem__,
    key="upload_format",
    help="How the uploaded files are read. Detect automatically (the default) recognises each file from its "
    f"content: {formats_in_words()}. Choose a format to force it: a file plainly in another format is then refused "
    "with a message saying which one it is.",
)
files = st.file_uploader(
    f"Conversation files: JSON or JSON Lines, up to {MAX_UPLOAD_MB} MB per file",
    type=UPLOAD_TYPES,
    accept_multiple_files=True,
    max_upload_size=WIDGET_MAX_MB,
    key="upload",
    help='A JSON array of conversations, one conversation object, a {"datasets": [...]} request or JSON '
    "Lines (one conversation per line), or agent traces in one of the formats above (mapped to conversations; "
    "what could not be mapped is listed in the validation report). Several files are loaded together, so a "
    "session_id repeated across files is caught.",
)
with st.expander("Expected answers for OpenTelemetry traces (a reference file)"):
    references = st.file_uploader(
        "Reference file: JSON or JSON Lines",
        type=UPLOAD_TYPES,
        key="upload_references",
        help="Production traces carry no expected answers: give them as records keyed by session_id or task_id "
        "(the format of the OpenAI traces' reference records), joined to the traces' conversations. Records that "
        "match no conversation are listed in the validation report.",
    )
st.caption(
    f"Limit: **{MAX_UPLOAD_MB} MB per file** (split larger files; JSON Lines split at any line break). The upload "
    f"box accepts up to {WIDGET_MAX_MB} MB so that a file over the limit is named in the validation report below; "
    f"the browser itself refuses a file over {WIDGET_MAX_MB} MB (a red mark on the file, its message on hover)."
)
st.info(
    "Every run you make is stored in **History**, which reopens it after a reload or in a new tab (the page's "
    "link names the run, so a reload reopens it). The uploaded files themselves stay in this browser session "
    "only: to judge them again after a reload, upload them again (your files are untouched).",
    icon=":material/info:",
)
if files:
    signature = views.upload_signature(upload_format, files, references)
    if st.session_state.get(UPLOAD_SIGNATURE_KEY) != signature:
        # Remember first: an unexpected failure must not reload on every rerun.
        st.session_state[UPLOAD_SIGNATURE_KEY] = signature
        try:
            changed = _load_uploads(files, upload_format, references)
        except AgenticError as exc:
            changed = False
            st.error(md_text(exc))
        except Exception as exc:
            changed = False
            log.exception("loading uploads failed")
            st.error(
                f"The upload could not be loaded ({type(exc).__name__}). Check that the files are UTF-8 JSON "
                "or JSON Lines, then upload them again."
            )
        if changed:
            st.rerun()  # the shared sidebar (drawn before this page) then shows the new data too

# -- samples -----------------------------------------------------------------------------------
st.subheader("Built-in samples")
st.caption("Small realistic datasets, one click away (no upload needed).")
for col, (key, sample) in zip(st.columns(len(SAMPLES)), SAMPLES.items(), strict=True):
    with col.container(border=True):
        st.markdown(f"**{sample.title}**")
        st.caption(sample.description)
        if st.button("Load this sample", key=f"sample_{key}", icon=":material/dataset:") and _load_sample(key):
            st.rerun()

# -- status ------------------------------------------------------------------------------------
data = get_data()
last: views.LastLoad | None = st.session_state.get(LAST_LOAD_KEY)
with status_box:
    if last is not None and not last.loaded:
        try:
            last.report.raise_if_empty()
        except AgenticError as exc:
            st.error(f"Nothing was loaded from {md_text(last.name)}. {md_text(exc)}")
        if data is not None:
            st.caption(f"The active data is still **{md_text(data.name)}**.")
    if data is None:
        st.info("No data loaded yet: upload files below or pick a built-in sample.")
    else:
        stated = defaults_of(data.report)
        if stated is not None:
            # Visible, not in the notes: the workbench's defaults would grade this format wrongly.
            with st.container(key="data_format_defaults"):
                st.info(stated.sentence, icon=":material/tune:")
        n_conv = len(data.report.conversations)
        n_int = data.report.n_interactions
        evaluated = is_evaluated(data, run)
        st.success(views.active_sentence(data.name, n_conv, n_int, run.judge_label if evaluated else None))
        if evaluated:
            cols = st.columns(2)
            cols[0].page_link("pages/overview.py", label="See the results on Overview", icon=":material/dashboard:")
            cols[1].page_link("pages/run.py", label="Judge again on Run", icon=":material/play_circle:")
        else:
            st.page_link("pages/run.py", label="Go to Run to evaluate", icon=":material/play_circle:")

# -- validation report -------------------------------------------------------------------------
shown = (last.name, last.report) if last is not None else (data.name, data.report) if data is not None else None
if shown is not None:
    report_name, report = shown
    show_report(report_name, report, _issues(report))

# -- preview -----------------------------------------------------------------------------------
if data is not None and data.report.conversations:
    st.subheader(f"Preview: {md_text(data.name)}")
    table = _preview(data.report)
    keyed_table(table, "preview_table", hide_index=False, column_config=PREVIEW_CONFIG)
    st.caption(views.preview_caption(table))
    index = st.number_input(
        "Show one record: row number in the table above",
        min_value=0,
        max_value=len(table) - 1,
        value=0,
        step=1,
        key="preview_record",
    )
    conv = data.report.conversations[int(index)]
    st.caption(
        f"Record {int(index)}: session_id {md_code(conv.session_id)}, assistant_id {md_code(conv.assistant_id)}. "
        f"Strings over "
        f"{VIEW_MAX_CHARS:,} characters and nesting deeper than {VIEW_MAX_DEPTH} levels are shortened here."
    )
    st.json(record_view(conv), expanded=2)
