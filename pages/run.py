"""Run: pick a judge, see how many judge calls it will make, judge the active data with progress.

The API key lives only in its password field (the widget's own session value): it is read into the LLM
judge's spec, which builds the judge, and never copied into the run, the settings store, the URL, the cache
or a log line. What the
page shows is decided in :mod:`ui.views.run_view`; the LLM form is :mod:`ui.llm_form`.
"""

from __future__ import annotations

import logging

import streamlit as st

from agentic_core import AgenticError, judge_items
from agentic_core.agentic_metrics import METRIC_NAMES, MetricName, llm_judges_metrics
from agentic_core.common import mask_secrets
from agentic_core.io import LoadReport
from agentic_core.judges import (
    CACHE_MODE_HELP,
    CACHE_MODES,
    DEFAULT_JUDGE,
    JUDGES,
    CacheMode,
    DatasetSpec,
    Judge,
    JudgeItem,
    JudgeSpecBase,
    LLMSpec,
    RunPlan,
    capabilities,
    default_cache_path,
    judge_spec,
    plan_run,
)
from ui.format import md_text
from ui.format_defaults import preselect_judge
from ui.llm_form import PERSIST, llm_form
from ui.memo import load_token, session_memo
from ui.run_counts import show_run
from ui.run_job import (
    DONE_KEY,
    ERROR_KEY,
    GENERATION_KEY,
    STORE_WARNING_KEY,
    current_job,
    drop_partial,
    job_panel,
    keep_partial,
    start_job,
)
from ui.run_tags_form import tag_fields
from ui.runs import known_run_tags
from ui.state import ensure_run, get_data, is_evaluated
from ui.views import cache_of, metric_calls, plan_note

log = logging.getLogger(__name__)

ITEMS_KEY = "_run_items"
PLAN_KEY = "_run_plan"


def _items(report: LoadReport) -> list[JudgeItem]:
    """The judge items of ``report`` (what the run will judge), built once per load."""
    return session_memo(ITEMS_KEY, load_token(report), lambda: judge_items(report.conversations))


def _plan(report: LoadReport, judge: Judge, cache_mode: CacheMode) -> RunPlan:
    """What a run would cost; memoised until the data, judge, cache mode or cache contents change."""
    signature = (
        load_token(report),
        judge.identity.fingerprint(),
        judge.cacheable,
        cache_mode,
        str(default_cache_path()),
        st.session_state.get(GENERATION_KEY, 0),
    )
    return session_memo(PLAN_KEY, signature, lambda: plan_run(judge, _items(report), cache_mode))


def _build(name: str) -> tuple[JudgeSpecBase, Judge] | None:
    """The chosen judge's spec (the LLM form's for the judges that take it) and the judge; ``None`` after an error."""
    secret = st.session_state.get("llm_api_key")  # the password field, masked out of any message
    try:
        if JUDGES[name].offline:
            spec = judge_spec(name)
        else:  # the LLM judge, and the cascade, whose LLM takes the same settings
            llm = llm_form()
            spec = llm if JUDGES[name] is LLMSpec else judge_spec(name, llm=llm)
        return spec, spec.build()
    except AgenticError as exc:
        st.error(mask_secrets(str(exc), [secret]))
    except Exception as exc:
        log.error("building judge %r failed: %s", name, mask_secrets(f"{type(exc).__name__}: {exc}", [secret]))
        st.error(
            f"The {JUDGES[name].title} judge could not be built ({type(exc).__name__}: "
            f"{mask_secrets(str(exc), [secret])[:300]}). Pick another judge, or repair the installation "
            "(bash start.sh)."
        )
    return None


run = ensure_run()
data = get_data()
st.title("Run")
st.caption(
    "Judge every interaction of the active data once; afterwards every slider on the results pages "
    "only re-aggregates (no judge call)."
)
if data is None or not data.report.conversations:
    st.info("No data is loaded: load files or a built-in sample on the Data page first.")
    st.page_link("pages/data.py", label="Go to Data", icon=":material/upload_file:")
    st.stop()

n_conv = len(data.report.conversations)
n_int = data.report.n_interactions
evaluated = is_evaluated(data, run)
st.markdown(f"**Data:** {md_text(data.name)} — {n_conv:,} conversations, {n_int:,} interactions")
if evaluated:
    st.caption(f"Already evaluated by {md_text(run.judge_label)}; running again replaces that run.")
else:
    st.caption(f"Not evaluated yet (the active run is of {md_text(run.data_name)}).")

# -- judge -------------------------------------------------------------------------------------
st.subheader("Judge")
names = list(JUDGES)
stated = preselect_judge(data.report, "run_judge", names, DEFAULT_JUDGE)
judge_name = st.radio(
    "Judge",
    names,
    index=names.index(DEFAULT_JUDGE) if DEFAULT_JUDGE in names else 0,
    format_func=lambda n: JUDGES[n].title,
    key="run_judge",
    **PERSIST,
)
if stated is not None and stated.judge == judge_name:
    st.info(f"Preselected for this data: {stated.sentence}", icon=":material/tune:")
elif stated is not None and stated.judge:
    st.caption(f"This data's format suggests the {JUDGES[stated.judge].title} judge: {stated.sentence}")
st.caption(JUDGES[judge_name].description)
spec: JudgeSpecBase | None = None
judge: Judge | None = None
if (built := _build(judge_name)) is not None:
    spec, judge = built
# How the judge degraded, if it did (the learned judge running without the ONNX packages).
notice = None if judge is None else capabilities(judge).notice
if notice:
    st.warning(notice)

cache_choice = st.radio(
    "Judge cache",
    CACHE_MODES,
    format_func=CACHE_MODE_HELP.__getitem__,
    horizontal=True,
    key="cache_mode",
    help=f"Verdicts are stored in {default_cache_path()} (never an API key); a second run of the same data and "
    "judge makes no judge calls.",
    **PERSIST,
)
cache_mode: CacheMode = cache_of(cache_choice)

# -- agentic metrics (seed 004) -----------------------------------------------------------------
chosen_metrics: list[MetricName] = st.multiselect(
    "Agentic metrics (computed as part of the run)",
    list(METRIC_NAMES),
    format_func=lambda m: m.replace("_", " "),
    key="run_agentic_metrics",
    help="Tool call accuracy (Ragas' definition), topic adherence and agent goal accuracy, computed with the "
    "judge and key chosen above: with the LLM judge they are LLM-judged (goals without a reference too), with "
    "an offline judge they are the offline approximations (the Agentic metrics page can also compute those "
    "later).",
    **PERSIST,
)
if chosen_metrics:
    st.caption(metric_calls(data.report.conversations, chosen_metrics, llm_judges_metrics(judge)))

# -- estimate ----------------------------------------------------------------------------------
if spec is not None and judge is not None:
    try:
        plan = _plan(data.report, judge, cache_mode)
        distinct, calls = plan.distinct, plan.calls
    except AgenticError as exc:
        st.error(md_text(exc))
        distinct, calls = n_int, n_int
    else:
        if isinstance(spec, DatasetSpec) and plan.without_score:
            st.warning(
                f"{plan.without_score:,} of {n_int:,} interactions have no 'score' field: the dataset judge leaves "
                "them unscored (never 0). Pick another judge, or add scores to the data."
            )
    cols = st.columns([1, 3])
    cols[0].metric(
        "Judge calls needed",
        f"{calls:,}",
        help="Distinct interactions the judge will be asked about (cache hits and duplicates excluded).",
    )
    note = plan_note(spec, judge.cacheable, cache_mode, distinct, calls)
    cols[1].caption(f"{n_int:,} interactions, {distinct:,} distinct (identical items are judged once). {note}")
    st.caption(
        f"Recommended answer threshold of this judge: **{judge.recommended_threshold:.2f}**. After the run it "
        "becomes the default threshold on the results pages."
    )

# -- tags, note and metadata (kept with the run in the history) ----------------------------------
with st.expander("Tags, note and metadata (kept with the run)", icon=":material/sell:"):
    run_tags = tag_fields("run", known_run_tags(), **PERSIST)

job = current_job()
start = st.button(
    "Run evaluation",
    type="primary",
    key="run_start",
    disabled=judge is None or job is not None or run_tags is None,
    icon=":material/play_arrow:",
    help="Judging runs in the background: progress, time left and partial results show below, and it can be "
    "cancelled." if job is None else "A run is in progress or waiting for keep / drop below.",
)
if start and judge is not None and job is None and run_tags is not None:
    start_job(data.name, data.report, judge, cache_mode, list(chosen_metrics), tags=run_tags)
    # Redraw the whole page (the sidebar too): a run that finished within a moment (offline judges on
    # small data) is made the active one by the dashboard script, so it shows as done at once.
    st.rerun()
if job is not None and job.state != "cancelled":
    job_panel()  # running: its progress; just ended: reruns the app, whose script makes it the active run
elif job is not None and job.state == "cancelled":
    snap = job.monitor.snapshot()
    with st.container(border=True, key="run_cancelled"):
        st.warning(
            f"**Run cancelled** after {snap.done:,} of {snap.total:,} interactions had a verdict "
            f"({snap.judged:,} judged now, {snap.cached:,} from the cache, {snap.failed:,} failed) in "
            f"{snap.elapsed_s:.1f} s. What was judged is in the cache: running again continues from there."
        )
        st.caption(
            "Keep the partial run to explore it now (the interactions not judged are unscored, never 0, and the "
            "run says it is partial), or drop it."
        )
        keep_col, drop_col = st.columns(2)
        keep_col.button("Keep the partial run", key="run_keep_partial", on_click=keep_partial,
                       icon=":material/save:")
        drop_col.button("Drop it", key="run_drop_partial", on_click=drop_partial, icon=":material/delete:")
error = st.session_state.pop(ERROR_KEY, None)
if error:
    st.error(error)
done = st.session_state.pop(DONE_KEY, None)
if done:
    st.success(done)
stored_problem = st.session_state.pop(STORE_WARNING_KEY, None)
if stored_problem:
    st.warning(stored_problem)

st.divider()
show_run(run)
