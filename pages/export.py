"""Export: CSV per interaction / conversation / task, the JSON summary and the settings file.

Every file reflects the current slider settings. The buttons get functions that build a file
only when clicked, so nothing heavy is built on a rerun; the previews show the first rows.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from pathlib import Path

import streamlit as st

from agentic_core import report
from agentic_core.analysis import Aggregate
from agentic_core.cli import cli_command
from agentic_core.io import SAMPLES
from agentic_core.settings import DIMENSIONS
from ui.controls import results_page
from ui.format import settings_sentence
from ui.state import ActiveRun

BUILDERS_KEY = "_export_builders"  # name -> the zero-argument function a download button calls
PREVIEW_ROWS = 10
MIME = {".csv": "text/csv", ".json": "application/json"}
LABELS = {
    "interactions": ("Interactions (CSV)", "One row per interaction: judge score, verdict, tool scores and reasoning."),
    "conversations": ("Conversations (CSV)", "One row per conversation: counts, status, per-conversation pass@K."),
    "tasks": ("Tasks / groups (CSV)", "One row per group of the unit of trial: n, c, pass@K and pass^K."),
    "summary": ("Summary (JSON)", "Curve, interpretation, counts, tool correctness, settings, judge, conversations."),
    "settings": ("Settings (JSON)", "The settings, unit and judge identity the numbers were made with."),
}


def _slug(name: str) -> str:
    """A file-name-safe prefix from the data name."""
    stem = Path(name).stem if Path(name).suffix in (".json", ".jsonl") else name
    return re.sub(r"[^A-Za-z0-9]+", "-", stem).strip("-").lower()[:40] or "run"


def _data_hint(run: ActiveRun) -> str:
    """The data path to show in the CLI command."""
    for sample in SAMPLES.values():
        if sample.title == run.data_name:
            return f"sample_data/{sample.file}"
    return run.data_name if Path(run.data_name).suffix in (".json", ".jsonl") else "DATA.jsonl"


def _builders(run: ActiveRun, agg: Aggregate) -> dict[str, Callable[[], bytes]]:
    """Zero-argument builders of every file, bound to this run and aggregate."""
    built: dict[str, Callable[[], bytes]] = {
        name: partial(report.export_bytes, run.result, agg, name) for name in report.EXPORT_FILES
    }
    built["zip"] = partial(report.export_zip, run.result, agg)
    return built


def _settings_lines(run: ActiveRun, agg: Aggregate) -> list[str]:
    s = agg.settings
    c = agg.counts
    answer = f"Answer threshold **{s.threshold:.2f}**: an interaction is correct when its judge score is at least this"
    if s.require_tool_correctness:
        answer += f" *and* its tool use reaches the tool threshold {s.tool_threshold:g}"
    weights = ", ".join(f"{n} {w:g}" for n, w in zip(DIMENSIONS, s.tool_weights.as_tuple(), strict=True))
    return [
        answer + ".",
        "Unscored interactions (judge failures and abstentions): "
        + (
            "counted as **incorrect**."
            if s.unscored_as_incorrect
            else "their conversations are **excluded** from the rates (and counted)."
        ),
        f"**K = {agg.k}**: pass@k and pass^k for k = 1..{agg.k} ({agg.k_reason}).",
        settings_sentence(agg),
        f"Tool correctness: weights {weights} (normalised before use); tool threshold {s.tool_threshold:g}; "
        f"extra calls {'ignored' if s.ignore_extra_tools else 'penalised'}.",
        f"Judge: **{run.judge_label}** (recommended threshold {run.result.recommended_threshold:.2f}).",
        f"Data: {run.data_name}: {c.conversations:,} conversations ({c.correct_conversations:,} correct, "
        f"{c.unscored_conversations:,} unscored), {c.interactions:,} interactions.",
    ]


run, settings, agg = results_page()
result = run.result

st.title("Export")
st.caption(
    f"{run.data_name} — judged by {run.judge_label}. Every file reflects the settings below: move a slider "
    "and the files follow. CSVs are plain CSV (pandas.read_csv reads them back); the settings and the judge "
    "identity are in settings.json and inside summary.json."
)

st.subheader("Settings applied")
st.markdown("\n".join(f"- {line}" for line in _settings_lines(run, agg)))

st.subheader("Download")
builders = _builders(run, agg)
st.session_state[BUILDERS_KEY] = builders
slug = _slug(run.data_name)
st.download_button(
    "Everything (ZIP: 3 CSVs, summary.json, settings.json)",
    data=builders["zip"],
    file_name=f"{slug}_exports.zip",
    mime="application/zip",
    key="download_zip",
    type="primary",
    icon=":material/folder_zip:",
    on_click="ignore",
    help="The same five files the command line writes with --out.",
)
cols = st.columns(len(report.EXPORT_FILES))
for col, (name, file_name) in zip(cols, report.EXPORT_FILES.items(), strict=True):
    label, about = LABELS[name]
    col.download_button(
        label,
        data=builders[name],
        file_name=f"{slug}_{file_name}",
        mime=MIME[Path(file_name).suffix],
        key=f"download_{name}",
        icon=":material/download:",
        on_click="ignore",
        help=about,
    )

st.markdown("**The same files from the command line** (no dashboard needed, e.g. in CI):")
st.code(cli_command(result, agg, data=_data_hint(run), out="exports"), language="bash", wrap_lines=True)

st.subheader(f"Preview (first {PREVIEW_ROWS} rows)")
tabs = st.tabs(["Interactions", "Conversations", "Tasks / groups", "Summary", "Settings"])
with tabs[0]:
    st.caption(
        f"{result.n_interactions:,} rows in the file. The file also has a tool_reasoning column "
        "(built when you download)."
    )
    st.dataframe(
        report.interactions_table(result, agg, with_reasoning=False).head(PREVIEW_ROWS),
        key="export_preview_interactions",
        hide_index=True,
    )
with tabs[1]:
    conversations = report.conversations_table(agg)
    st.caption(f"{len(conversations):,} rows in the file.")
    st.dataframe(conversations.head(PREVIEW_ROWS), key="export_preview_conversations", hide_index=True)
with tabs[2]:
    groups = report.tasks_table(agg)
    st.caption(f"{len(groups):,} rows in the file; unit of trial: {agg.unit}.")
    st.dataframe(groups.head(PREVIEW_ROWS), key="export_preview_tasks", hide_index=True)
with tabs[3]:
    st.caption(
        "summary.json without its per-conversation records (the file lists every conversation with the "
        "seed-003 fields: correctness_scores, correct_indices, tool_correctness_scores, pass_at_k, ...)."
    )
    st.json(report.summary(result, agg, include_conversations=False), expanded=1)
with tabs[4]:
    st.json(report.run_metadata(result, agg), expanded=2)
