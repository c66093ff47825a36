"""The Run page's background evaluation: start it, watch it (progress, ETA, partial results), cancel it.

The job runs in a thread (:class:`~agentic_core.evaluation_job.EvaluationJob`), so the page stays
live while a judge works: a fragment redraws the progress every half second, Cancel stops it
cleanly, and leaving the page does not stop it. Whichever page is open when it finishes makes it
the active run (:func:`settle_job`, called by the dashboard script on every page).
"""

from __future__ import annotations

import logging

import numpy as np
import streamlit as st

from agentic_core import AgenticError, EvaluationJob
from agentic_core.common import mask_secrets, plural, reaches
from agentic_core.io import LoadReport
from agentic_core.judges import (
    STATUS_CODES,
    CacheMode,
    CascadeSpec,
    DatasetSpec,
    Judge,
    RunSnapshot,
    duration_words,
    result_cascade_counts,
    spec_class_of,
)
from agentic_core.runs import RunTags
from ui.controls import set_value, threshold_default
from ui.runs import store_run
from ui.state import ActiveRun, set_run

log = logging.getLogger(__name__)

JOB_KEY = "_run_job"
JOB_DATA_KEY = "_run_job_data"
JOB_TAGS_KEY = "_run_job_tags"  # the Run page's tags, note and metadata, stored with the run when it is kept
GENERATION_KEY = "_run_generation"
DONE_KEY = "_run_done_message"
ERROR_KEY = "_run_error_message"
STORE_WARNING_KEY = "_run_store_warning"
# A run that finishes this quickly (offline judges on small data) is shown finished at once,
# without a progress panel blinking in and out.
QUICK_S = 1.5
REFRESH_S = 0.5


def current_job() -> EvaluationJob | None:
    """The session's evaluation job (running, or cancelled and waiting for keep / drop)."""
    job = st.session_state.get(JOB_KEY)
    return job if isinstance(job, EvaluationJob) else None


def start_job(
    data_name: str,
    report: LoadReport,
    judge: Judge,
    cache_mode: CacheMode,
    metrics: list[str],
    tags: RunTags | None = None,
) -> None:
    """Start judging ``report`` in the background; wait briefly so quick runs finish in this rerun."""
    job = EvaluationJob(report, judge, cache_mode=cache_mode, metrics=metrics).start()
    st.session_state[JOB_KEY] = job
    st.session_state[JOB_DATA_KEY] = data_name
    st.session_state[JOB_TAGS_KEY] = tags
    job.wait(QUICK_S)


def _secret() -> str | None:
    key = st.session_state.get("llm_api_key")
    return key if isinstance(key, str) and key else None


def _adopt(result_run: ActiveRun) -> None:
    problem = store_run(result_run)  # kept in the history: a reload or a later visit reopens it
    if problem:
        st.session_state[STORE_WARNING_KEY] = problem
    set_run(result_run)
    # The new judge's recommendation becomes the default answer threshold on every results page.
    set_value("threshold", threshold_default(result_run))
    st.session_state[GENERATION_KEY] = st.session_state.get(GENERATION_KEY, 0) + 1


def _done_message(new: ActiveRun, n_conv: int) -> str:
    jr = new.result.judge_run
    ok, cached, failed = (jr.counts.get(name, 0) for name in ("ok", "cached", "failed"))
    spec = spec_class_of(jr.identity)
    if spec is DatasetSpec:
        done_how = f"{ok:,} scores read"
    elif spec is CascadeSpec:
        # The cascade's items all go to the offline judge; only its uncertain ones cost an LLM call.
        counts = result_cascade_counts(new.result)
        done_how = f"{counts.summary() if counts else 'the cascade'}; {cached:,} came from the cache"
    else:
        done_how = f"{jr.model_calls:,} judge calls scored {ok:,} interactions, {cached:,} came from the cache"
    agentic = new.result.agentic
    agentic_done = f" Agentic metrics computed ({agentic.model_calls:,} judge calls)." if agentic is not None else ""
    uncertain = jr.counts.get("uncertain", 0)
    abstained = f"{uncertain:,} uncertain (unscored: the judge abstained), " if uncertain else ""
    return (
        f"Done: {n_conv:,} conversations judged by {new.judge_label} in {jr.elapsed_s:.1f} s: {done_how}, "
        f"{abstained}{failed:,} failed (unscored).{agentic_done}"
    )


def settle_job() -> None:
    """Finish the session's job if it ended: a finished run becomes the active run, a failure a message.

    Called by the dashboard script before any page runs, so every page shows the new run at once.
    """
    job = current_job()
    if job is None or job.running or job.state == "cancelled":
        return
    data_name = st.session_state.pop(JOB_DATA_KEY, "data")
    tags = st.session_state.pop(JOB_TAGS_KEY, None)
    st.session_state.pop(JOB_KEY, None)
    if job.state == "done" and job.result is not None:
        label = job.result.judge_identity.label()
        new = ActiveRun(data_name=data_name, result=job.result, judge_label=label, tags=tags)
        _adopt(new)
        st.session_state[DONE_KEY] = _done_message(new, len(job.report.conversations))
        return
    exc = job.error
    if isinstance(exc, AgenticError):
        st.session_state[ERROR_KEY] = mask_secrets(str(exc), [_secret()])
    else:
        what = mask_secrets(f"{type(exc).__name__}: {exc}", [_secret()])
        log.error("run with judge %s failed: %s", job.identity.label(), what)
        st.session_state[ERROR_KEY] = (
            f"The run stopped ({what[:300]}). Verdicts judged before the failure are in the cache, so running "
            "again continues from there; if it keeps failing, pick another judge."
        )


def keep_partial() -> None:
    """Make the cancelled job's partial run the active run (kept in the history)."""
    job = current_job()
    if job is None or job.state != "cancelled":
        return
    result = job.partial_result()
    data_name = st.session_state.pop(JOB_DATA_KEY, "data")
    tags = st.session_state.pop(JOB_TAGS_KEY, None)
    st.session_state.pop(JOB_KEY, None)
    new = ActiveRun(
        data_name=data_name, result=result, judge_label=f"{result.judge_identity.label()} (partial)", tags=tags
    )
    _adopt(new)
    snap = job.monitor.snapshot()
    st.session_state[DONE_KEY] = (
        f"Kept the partial run: {snap.done:,} of {snap.total:,} interactions have a verdict; the other "
        f"{plural(snap.total - snap.done, 'interaction')} are unscored (not judged)."
    )


def drop_partial() -> None:
    """Forget the cancelled job (its verdicts stay in the cache for the next run)."""
    st.session_state.pop(JOB_KEY, None)
    st.session_state.pop(JOB_DATA_KEY, None)
    st.session_state.pop(JOB_TAGS_KEY, None)
    st.session_state[DONE_KEY] = (
        "Dropped the partial run. Its verdicts stay in the cache: running again continues from there."
    )


def progress_words(snap: RunSnapshot) -> str:
    """``"Judging: 1,200 / 5,000 interactions · 40.0 per second · about 1 min 35 s left"``."""
    words = [f"Judging: {snap.done:,} / {snap.total:,} interactions"]
    if snap.rate_per_s is not None:
        words.append(f"{snap.rate_per_s:,.1f} per second")
    if snap.cancel_requested:
        words.append("stopping…")
    elif snap.eta_s is not None:
        words.append(f"about {duration_words(snap.eta_s)} left" if snap.eta_s >= 1 else "finishing")
    else:
        words.append("measuring the rate…")
    return " · ".join(words)


def _partial_results(job: EvaluationJob) -> None:
    """What the verdicts so far say (provisional: the rest of the data may differ)."""
    snap = job.monitor.snapshot()
    scores = job.monitor.scores
    scored = ~np.isnan(scores)
    threshold = job.recommended_threshold
    n_scored = int(scored.sum())
    cols = st.columns(5)
    cols[0].metric("Judged now", f"{snap.judged:,}")
    cols[1].metric("From the cache", f"{snap.cached:,}")
    cols[2].metric("Failed (unscored)", f"{snap.failed:,}")
    cols[3].metric(
        "Uncertain (unscored)", f"{snap.uncertain:,}", help="The judge abstained: unscored, never 0 or 1"
    )
    share = float(reaches(scores[scored], threshold).mean()) if n_scored else None
    cols[4].metric(
        "Answers passing so far",
        f"{share:.0%}" if share is not None else "—",
        help=f"Share of the {n_scored:,} scored interactions so far whose score reaches the judge's recommended "
        f"threshold {threshold:.2f}. Provisional: the interactions still to judge may differ.",
    )
    status = job.monitor.status
    recent = np.flatnonzero(status == STATUS_CODES["ok"])[-8:][::-1]
    if len(recent):
        rows = []
        for r in recent:
            session, query = job.describe_row(int(r))
            score = None if np.isnan(scores[r]) else round(float(scores[r]), 3)
            rows.append({"session": session, "query": query[:120], "score": score})
        st.caption("Latest verdicts")
        st.dataframe(rows, hide_index=True, key="run_partial_latest")


@st.fragment(run_every=REFRESH_S)
def job_panel() -> None:
    """The running job's progress, ETA, Cancel and partial results (redrawn every half second)."""
    job = current_job()
    if job is None:
        return
    if not job.running:
        st.rerun()  # the whole app: the finished run becomes the active one everywhere
    snap = job.monitor.snapshot()
    st.progress(min(1.0, snap.done / snap.total) if snap.total else 1.0, text=progress_words(snap))
    st.button(
        "Cancel",
        key="run_cancel",
        icon=":material/stop_circle:",
        on_click=job.cancel,
        disabled=snap.cancel_requested,
        help="Stop judging. What was judged stays in the cache; you can then keep the partial run or drop it.",
    )
    st.caption(f"Running for {duration_words(snap.elapsed_s)}. Leaving this page does not stop the run.")
    _partial_results(job)
