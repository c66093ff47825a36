"""Setting widgets shared by the pages, and the one place that turns them into settings.

Global statistics controls live in the sidebar of every analysis page and are mirrored in the
URL (``bind="query-params"``) so a view can be shared. Tool weights live on the Tools page and
the prior on the Uncertainty page, where they are needed; their values persist for the session
(``persist_state="session"``) and apply everywhere.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from agentic_core.errors import AgenticError
from agentic_core.settings import AggregateSettings, ToolWeights, make_settings
from ui.state import ActiveRun

UNITS = ["auto", "task", "conversation", "interaction"]
UNIT_LABELS = {
    "auto": "auto (task if tasks repeat)",
    "task": "task (attempts per task)",
    "conversation": "conversation (all = one task)",
    "interaction": "interaction (per conversation, seed 003)",
}
ESTIMATORS = ["unbiased", "plug-in"]
MODES = ["bayesian", "frequentist"]
CI_LEVELS = [0.8, 0.9, 0.95, 0.99]
PRIORS = {"uniform": (1.0, 1.0), "jeffreys": (0.5, 0.5)}
WEIGHT_KEYS = {
    "selection": "w_selection",
    "parameters": "w_parameters",
    "sequence": "w_sequence",
    "utilization": "w_utilization",
}
DEFAULTS: dict[str, Any] = {
    "k": 3,
    "unit": "auto",
    "estimator": "unbiased",
    "mode": "bayesian",
    "ci": 0.95,
    "unscored_incorrect": False,
    "require_tools": False,
    "tool_threshold": 1.0,
    "ignore_extra": False,
    "prior": "uniform",
    "prior_a": 1.0,
    "prior_b": 1.0,
    **{key: 0.25 for key in WEIGHT_KEYS.values()},
}
_URL = {"bind": "query-params", "persist_state": "session"}


def value(key: str) -> Any:
    """The current value of a setting widget (its default when it was never rendered)."""
    return st.session_state.get(key, DEFAULTS.get(key))


def threshold_default(run: ActiveRun) -> float:
    """The judge's recommended threshold, rounded to the slider's step."""
    return round(float(run.result.recommended_threshold), 2)


def sidebar_controls(run: ActiveRun) -> None:
    """Render the global statistics controls in the sidebar."""
    sb = st.sidebar
    sb.markdown("### Settings")
    recommended = threshold_default(run)
    sb.slider(
        "Answer threshold",
        0.0,
        1.0,
        value=recommended,
        step=0.01,
        key="threshold",
        help=f"An interaction is correct when its judge score is at least this. The judge "
        f"({run.judge_label}) recommends {recommended:.2f}.",
        **_URL,
    )
    sb.slider(
        "K (attempts)", 1, 20, value=DEFAULTS["k"], key="k", help="pass@K and pass^K for k = 1..K", **_URL
    )
    sb.selectbox(
        "Unit of trial",
        UNITS,
        index=0,
        format_func=UNIT_LABELS.__getitem__,
        key="unit",
        help="What counts as one attempt. 'task' groups conversations with the same task_id "
        "(or the same questions); 'conversation' treats every conversation as an attempt at one task; "
        "'interaction' scores each conversation over its turns (the reference's semantics).",
        **_URL,
    )
    cols = sb.columns(2)
    cols[0].selectbox("Mode", MODES, key="mode", help="Bayesian: Beta posterior, exact per group.", **_URL)
    cols[1].selectbox(
        "Estimator",
        ESTIMATORS,
        key="estimator",
        help="Frequentist point estimates: unbiased (needs k <= attempts) or plug-in (c/n)^k.",
        **_URL,
    )
    sb.select_slider(
        "Interval level", CI_LEVELS, value=DEFAULTS["ci"], format_func=lambda x: f"{x:.0%}", key="ci", **_URL
    )
    sb.toggle(
        "Count unscored as incorrect",
        value=False,
        key="unscored_incorrect",
        help="Judge failures are excluded by default (and counted on screen).",
        **_URL,
    )
    sb.toggle(
        "Require correct tool use",
        value=False,
        key="require_tools",
        help="An interaction counts as correct only if its tool use also reaches the tool threshold.",
        **_URL,
    )


def tool_controls() -> None:
    """Render the tool weight sliders, tool threshold and extra-call option (Tools page)."""
    cols = st.columns(4)
    for col, (name, key) in zip(cols, WEIGHT_KEYS.items(), strict=True):
        col.slider(f"Weight: {name}", 0.0, 1.0, value=DEFAULTS[key], step=0.05, key=key, **_URL)
    cols = st.columns([2, 1])
    cols[0].slider(
        "Tool threshold",
        0.0,
        1.0,
        value=DEFAULTS["tool_threshold"],
        step=0.05,
        key="tool_threshold",
        help="Tool use is correct when the weighted overall score reaches this (1.0 = perfect).",
        **_URL,
    )
    cols[1].toggle(
        "Ignore extra calls",
        value=False,
        key="ignore_extra",
        help="Extra (unexpected) tool calls do not lower the selection score.",
        **_URL,
    )


def prior_controls() -> None:
    """Render the prior choice (Uncertainty page)."""
    cols = st.columns([2, 1, 1])
    cols[0].radio(
        "Prior on the success rate",
        ["uniform", "jeffreys", "custom"],
        format_func={
            "uniform": "Uniform Beta(1,1)",
            "jeffreys": "Jeffreys Beta(½,½)",
            "custom": "Custom",
        }.get,
        horizontal=True,
        key="prior",
        **_URL,
    )
    custom = value("prior") == "custom"
    cols[1].number_input("a", min_value=0.01, value=1.0, step=0.5, key="prior_a", disabled=not custom, **_URL)
    cols[2].number_input("b", min_value=0.01, value=1.0, step=0.5, key="prior_b", disabled=not custom, **_URL)


def current_settings(run: ActiveRun) -> AggregateSettings:
    """Build the aggregation settings from the widgets' current values.

    Raises:
        AgenticError: an invalid combination (e.g. all tool weights 0), for ``st.error``.
    """
    prior = value("prior")
    a, b = PRIORS.get(prior, (float(value("prior_a")), float(value("prior_b"))))
    weights = {name: float(value(key)) for name, key in WEIGHT_KEYS.items()}
    return make_settings(
        threshold=float(st.session_state.get("threshold", threshold_default(run))),
        k=int(value("k")),
        unit=value("unit"),
        estimator=value("estimator"),
        mode=value("mode"),
        ci_level=float(value("ci")),
        unscored_as_incorrect=bool(value("unscored_incorrect")),
        require_tool_correctness=bool(value("require_tools")),
        tool_threshold=float(value("tool_threshold")),
        ignore_extra_tools=bool(value("ignore_extra")),
        tool_weights=ToolWeights.from_mapping(weights),
        prior_a=a,
        prior_b=b,
    )


def settings_or_error(run: ActiveRun) -> AggregateSettings | None:
    """:func:`current_settings`, or ``None`` after showing the error to the user."""
    try:
        return current_settings(run)
    except AgenticError as exc:
        st.error(str(exc))
        return None
