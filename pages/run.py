"""Run: pick a judge, see how many judge calls it will make, judge the active data with progress.

The API key lives only in its password field: it is passed straight to the judge builder and is
never put in the run, the session data, the cache or a log line.
"""

from __future__ import annotations

import logging
import os
from typing import Any

import streamlit as st

from agentic_core.agentic_metrics.results import METRIC_NAMES, MetricName
from agentic_core.common.secrets import mask_secrets
from agentic_core.errors import AgenticError
from agentic_core.evaluate import judge_items
from agentic_core.io.load_report import LoadReport
from agentic_core.judges.base import Judge, JudgeItem
from agentic_core.judges.cache import default_cache_path
from agentic_core.judges.llm_options import LLM_OPTIONS
from agentic_core.judges.planning import RunPlan, plan_run
from agentic_core.judges.providers import PROVIDERS
from agentic_core.judges.registry import DEFAULT_JUDGE, JUDGES, LLM_OPTION_JUDGES, build_judge
from agentic_core.judges.runner import CACHE_MODE_HELP, CACHE_MODES, CacheMode
from ui.format import md_text
from ui.format_defaults import preselect_judge
from ui.memo import session_memo
from ui.run_counts import show_cascade, show_uncertain, uncertain_count
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
from ui.state import ActiveRun, ensure_run, get_data, is_evaluated

log = logging.getLogger(__name__)

ITEMS_KEY = "_run_items"
PLAN_KEY = "_run_plan"
_PERSIST: dict[str, Any] = {"persist_state": "session"}


def _items(report: LoadReport) -> list[JudgeItem]:
    """The judge items of ``report`` (what the run will judge), built once per load."""
    return session_memo(ITEMS_KEY, id(report), lambda: judge_items(report.conversations))


def _plan(report: LoadReport, judge: Judge, cache_mode: CacheMode) -> RunPlan:
    """What a run would cost; memoised until the data, judge, cache mode or cache contents change."""
    signature = (
        id(report),
        judge.identity.fingerprint(),
        judge.cacheable,
        cache_mode,
        str(default_cache_path()),
        st.session_state.get(GENERATION_KEY, 0),
    )
    return session_memo(PLAN_KEY, signature, lambda: plan_run(judge, _items(report), cache_mode))


def _suggest_model() -> None:
    st.session_state["llm_model"] = PROVIDERS[st.session_state.get("llm_provider", "groq")].suggested_model


def _scrub(text: str, secret: str | None) -> str:
    return mask_secrets(text, [secret])


def _llm_options() -> tuple[dict[str, Any], str | None]:
    """Render the LLM settings; return the builder options (key included) and the key alone."""
    names = list(PROVIDERS)
    if "llm_model" not in st.session_state:
        st.session_state["llm_model"] = PROVIDERS[names[0]].suggested_model
    cols = st.columns(2)
    provider = cols[0].selectbox(
        "Provider",
        names,
        format_func=lambda p: PROVIDERS[p].label,
        key="llm_provider",
        on_change=_suggest_model,
        **_PERSIST,
    )
    spec = PROVIDERS[provider]
    model = cols[1].text_input(
        "Model",
        key="llm_model",
        placeholder="the model name your server serves" if not spec.suggested_model else None,
        help="The provider's model name.",
        **_PERSIST,
    )
    base_url = st.text_input(
        "Base URL" + (" (required)" if spec.base_url_required else " (optional)"),
        key="llm_base_url",
        placeholder="http://127.0.0.1:8000/v1" if provider != "ollama" else "http://127.0.0.1:11434",
        help="The server's URL: required for an OpenAI-compatible server (vLLM, llama.cpp, LM Studio, ...); "
        "optional otherwise.",
        **_PERSIST,
    )
    api_key: str | None = None
    if spec.key_env is not None:
        api_key = st.text_input(
            "API key",
            type="password",
            key="llm_api_key",
            help=f"Leave empty to use the environment variable {spec.key_env}. The key is used for this run "
            "only: never stored in the run, the cache, exports or logs.",
        )
        env_state = "set" if os.environ.get(spec.key_env, "").strip() else "not set"
        where = "the key field above" if api_key else f"the environment variable **{spec.key_env}** ({env_state})"
        need = "" if spec.key_required else " (optional for this provider)"
        st.caption(f"{spec.label} reads its API key from {spec.key_env}{need}. Key used now: {where}.")
    else:
        st.caption(f"{spec.label} needs no API key.")
    values: dict[str, Any] = {}
    steps = {"concurrency": 1, "rps": 0.5, "timeout_s": 5.0, "max_tokens": 64}
    keys = {"concurrency": "llm_concurrency", "rps": "llm_rps", "timeout_s": "llm_timeout"}
    keys["max_tokens"] = "llm_max_tokens"
    for col, option in zip(st.columns(len(LLM_OPTIONS)), LLM_OPTIONS.values(), strict=True):
        whole = isinstance(option.default, int)
        # A page's number field needs a number: 0 stands for "no limit" where the default is None.
        default = 0.0 if option.default is None else option.default
        values[option.name] = col.number_input(
            option.label,
            min_value=int(option.minimum) if whole else float(option.minimum),
            max_value=int(option.maximum) if whole else float(option.maximum),
            value=default,
            step=steps[option.name],
            key=keys[option.name],
            help=option.help + (" 0 = no limit." if option.default is None else ""),
            **_PERSIST,
        )
    options: dict[str, Any] = {
        "provider": provider,
        "model": model,
        "base_url": base_url or None,
        "api_key": api_key or None,
        "concurrency": int(values["concurrency"]),
        "rps": float(values["rps"]) or None,
        "timeout_s": float(values["timeout_s"]),
        "max_tokens": int(values["max_tokens"]),
    }
    return options, api_key or None


def _build(name: str, options: dict[str, Any], secret: str | None) -> Judge | None:
    try:
        return build_judge(name, **options)
    except AgenticError as exc:
        st.error(_scrub(str(exc), secret))
    except Exception as exc:
        log.error("building judge %r failed: %s", name, _scrub(f"{type(exc).__name__}: {exc}", secret))
        st.error(
            f"The {JUDGES[name].title} judge could not be built ({type(exc).__name__}: "
            f"{_scrub(str(exc), secret)[:300]}). Pick another judge, or repair the installation (bash start.sh)."
        )
    return None


def _metric_calls(report: LoadReport, metrics: list[MetricName], llm: bool) -> str:
    """What the asked agentic metrics add to the run, in words."""
    convs = report.conversations
    parts = []
    if "tool_call_accuracy" in metrics:
        parts.append("tool call accuracy needs no judge")
    if "topic_adherence" in metrics:
        queries = sum(len(c.conversation) for c in convs if c.reference_topics)
        how = "the LLM judge classifies each" if llm else "classified offline (approximate)"
        parts.append(f"topic adherence: {queries:,} queries of conversations with reference topics, {how}")
    if "goal_accuracy" in metrics:
        with_ref = sum(1 for c in convs if c.reference)
        if llm:
            parts.append(f"goal accuracy: one LLM call per conversation ({len(convs):,}; {with_ref:,} with a "
                         "reference, the others' goal inferred from the user's turns)")
        else:
            parts.append(f"goal accuracy: {with_ref:,} conversations with a reference, scored offline by the "
                         "lexical judge (without a reference: unscored, it needs the LLM judge)")
    cached = " Judge calls are cached like answer verdicts." if llm else ""
    return "; ".join(parts) + "." + cached


def _show_run(run: ActiveRun) -> None:
    result = run.result
    jr = result.judge_run
    st.subheader("Active run")
    kept = (
        f"  \n**In the history as** `{run.stored_id}` (reopen it on **History**, or with this page's link)"
        if run.stored_id
        else ""
    )
    st.markdown(f"**Data:** {md_text(run.data_name)}  \n**Judge:** {md_text(run.judge_label)}{kept}")
    with st.expander("Judge identity (recorded with every result and used as the cache key)"):
        st.json(jr.identity.model_dump(mode="json"))
    ok, cached, failed = (jr.counts.get(name, 0) for name in ("ok", "cached", "failed"))
    reads_scores = jr.identity.kind == "dataset"
    cols = st.columns(5)
    if reads_scores:
        # The dataset judge calls nothing: it reads each interaction's own score.
        cols[0].metric("Scores read", f"{ok:,}", help="Interactions whose own score field was read")
        cols[1].metric("Judge calls made", "0", help="The dataset judge calls no model")
    else:
        cascade = jr.identity.kind == "cascade"
        cols[0].metric(
            "Items judged" if cascade else "Judge calls made",
            f"{jr.model_calls:,}",
            help="Distinct items given to the cascade: the offline judge saw all of them, the LLM only its "
            "uncertain ones ('Sent to the LLM' below)"
            if cascade
            else "Distinct items sent to the judge: what 'Judge calls needed' estimated (cache hits and "
            "duplicates excluded)",
        )
        cols[1].metric(
            "Scored by those calls",
            f"{ok:,}",
            help="Interactions scored in this run; identical interactions share one call",
        )
    cols[2].metric("From the cache", f"{cached:,}", help="Interactions answered by the cache")
    cols[3].metric(
        "Failed (unscored)",
        f"{failed:,}",
        help="Interactions the judge could not score: unscored, never counted as 0",
    )
    cols[4].metric(
        "Uncertain (unscored)",
        f"{uncertain_count(result.interactions):,}",
        help="Interactions the judge abstained on: unscored, never counted as 0 or 1",
    )
    show_cascade(result)
    show_uncertain(result)
    if reads_scores:
        st.caption(
            f"The dataset judge reads each interaction's own score: no model is called and the cache is not used. "
            f"Time: {jr.elapsed_s:.1f} s."
        )
    else:
        st.caption(
            f"Judge calls: {jr.model_calls:,} for {ok:,} interactions ({jr.duplicates:,} duplicates judged once); "
            f"{jr.retries:,} retries, {jr.reasks:,} re-asked after an ambiguous reply. "
            f"Cache ({jr.cache_mode}): {jr.cache_hits:,} hits, {jr.cache_misses:,} misses. "
            f"Tokens: {jr.input_tokens:,} in, {jr.output_tokens:,} out. Time: {jr.elapsed_s:.1f} s."
        )
    st.info(
        f"This judge's recommended answer threshold is **{result.recommended_threshold:.2f}**: it is the default "
        "of the *Answer threshold* slider in the sidebar of the results pages (move it there)."
    )
    for warning in jr.warnings:
        st.warning(warning)
    agentic = result.agentic
    if agentic is not None:
        st.markdown(
            f"**Agentic metrics:** {', '.join(m.replace('_', ' ') for m in agentic.metrics)}, judged by "
            f"{agentic.judge}{f' (goals: {agentic.goal_judge})' if agentic.goal_judge else ''}; "
            f"{agentic.model_calls:,} judge calls, {agentic.cache_hits:,} from the cache."
        )
        for warning in agentic.warnings:
            st.caption(f"Note: {md_text(warning)}")
        st.page_link("pages/agentic_metrics.py", label="See them on Agentic metrics", icon=":material/psychology:")
    frame = result.interactions
    failed = frame[frame["judge_status"] == "failed"]
    if not failed.empty:
        st.error(
            f"**{len(failed):,} interaction(s) could not be judged.** They are unscored, not 0: by default their "
            "conversations are excluded from the statistics (and counted on Overview)."
        )
        reasons = failed["judge_error"].fillna("(no reason given)").value_counts()
        with st.container(key="run_failure_reasons"):
            st.dataframe(reasons.rename_axis("reason").reset_index(name="interactions"), hide_index=True)
        with st.container(key="run_failures"):
            st.dataframe(
                failed[["session_id", "qa_id", "query", "judge_error"]].rename(columns={"judge_error": "reason"}),
                hide_index=True,
            )
    st.page_link("pages/overview.py", label="See the results on Overview", icon=":material/dashboard:")


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
    **_PERSIST,
)
if stated is not None and stated.judge == judge_name:
    st.info(f"Preselected for this data: {stated.sentence}", icon=":material/tune:")
elif stated is not None and stated.judge:
    st.caption(f"This data's format suggests the {JUDGES[stated.judge].title} judge: {stated.sentence}")
st.caption(JUDGES[judge_name].description)
options: dict[str, Any] = {}
secret: str | None = None
if judge_name in LLM_OPTION_JUDGES:  # the cascade's LLM takes the LLM judge's settings
    options, secret = _llm_options()
judge = _build(judge_name, options, secret)
del options  # holds the key; not needed any more
if judge is not None and getattr(judge, "notice", None):
    st.warning(judge.notice)  # e.g. the hybrid judge running lexical-only without the ONNX packages

cache_mode: CacheMode = st.radio(
    "Judge cache",
    list(CACHE_MODES),
    format_func=CACHE_MODE_HELP.__getitem__,
    horizontal=True,
    key="cache_mode",
    help=f"Verdicts are stored in {default_cache_path()} (never an API key); a second run of the same data and "
    "judge makes no judge calls.",
    **_PERSIST,
)

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
    **_PERSIST,
)
if chosen_metrics:
    st.caption(_metric_calls(data.report, chosen_metrics, judge is not None and judge.identity.kind == "llm"))

# -- estimate ----------------------------------------------------------------------------------
if judge is not None:
    try:
        plan = _plan(data.report, judge, cache_mode)
        distinct, calls = plan.distinct, plan.calls
    except AgenticError as exc:
        st.error(md_text(exc))
        distinct, calls = n_int, n_int
    else:
        if judge_name == "dataset" and plan.without_score:
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
    if judge_name == "dataset":
        note = "This judge reads each interaction's own score: no model is called and the cache is not used."
    elif not judge.cacheable:
        note = "This judge runs locally and is not cached (recomputing is as fast as a cache lookup)."
    elif cache_mode == "use":
        note = f"{distinct - calls:,} of them are already in the cache."
    elif cache_mode == "refresh":
        note = "Cache mode *refresh*: every distinct item is judged again and the cache overwritten."
    else:
        note = "Cache mode *off*: every distinct item is judged, nothing is stored."
    if judge_name == "cascade":
        note += (f" The offline judge looks at the {calls:,} first; the LLM is asked only about those it is "
                 "uncertain of (after the run: how many went to the LLM).")
    cols[1].caption(f"{n_int:,} interactions, {distinct:,} distinct (identical items are judged once). {note}")
    st.caption(
        f"Recommended answer threshold of this judge: **{judge.recommended_threshold:.2f}**. After the run it "
        "becomes the default threshold on the results pages."
    )

job = current_job()
start = st.button(
    "Run evaluation",
    type="primary",
    key="run_start",
    disabled=judge is None or job is not None,
    icon=":material/play_arrow:",
    help="Judging runs in the background: progress, time left and partial results show below, and it can be "
    "cancelled." if job is None else "A run is in progress or waiting for keep / drop below.",
)
if start and judge is not None and job is None:
    start_job(data.name, data.report, judge, cache_mode, list(chosen_metrics))
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
        cols = st.columns(2)
        cols[0].button("Keep the partial run", key="run_keep_partial", on_click=keep_partial,
                       icon=":material/save:")
        cols[1].button("Drop it", key="run_drop_partial", on_click=drop_partial, icon=":material/delete:")
error = st.session_state.pop(ERROR_KEY, None)
if error:
    st.error(error)
done = st.session_state.pop(DONE_KEY, None)
if done:
    st.success(done)
stored_problem = st.session_state.pop(STORE_WARNING_KEY, None)
if stored_problem:
    st.warning(stored_problem)
del secret

st.divider()
_show_run(run)
