"""Setting widgets shared by the pages, and the one place that turns them into settings.

Labels, help, choices and defaults come from :mod:`agentic_core.settings`; this module only
chooses the widget and its key. Global statistics controls live in the sidebar of every analysis
page and are mirrored in the URL (``bind="query-params"``) so a view can be shared. Tool weights
live on the Tools page and the prior on the Uncertainty page, where they are needed; their values
persist for the session (``persist_state="session"``) and apply everywhere.

The widget keys are also the URL's parameter names (``/tools?k=5&w_sequence=0``): kept stable.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from agentic_core import AgenticError
from agentic_core.analysis import Aggregate, BandControls, band_controls, judge_band
from agentic_core.glossary import setting_help
from agentic_core.settings import (
    CI_LEVELS,
    K_DASHBOARD_MAX,
    PRIORS,
    SETTINGS,
    AggregateSettings,
    ToolWeights,
    make_settings,
    relabel,
)
from ui.format import md_text
from ui.memo import session_memo
from ui.settings_store import (  # noqa: F401 (re-exported: pages import them from here)
    DEFAULTS,
    KEYS,
    PRIOR_KEY,
    STORE_KEY,
    WEIGHT_KEYS,
    set_value,
    value,
)
from ui.settings_store import session_store as _store
from ui.state import ActiveRun, ensure_run, get_aggregate

PRIOR_CHOICES = [*PRIORS, "custom"]
PRIOR_LABELS = {"uniform": "Uniform Beta(1,1)", "jeffreys": "Jeffreys Beta(½,½)", "custom": "Custom"}
K_SLIDER_MAX = K_DASHBOARD_MAX
"""The K slider's last stop: the settings' dashboard bound (why it is below ``K_MAX``: see there)."""


def _label(key: str) -> str:
    return SETTINGS[KEYS[key]].label


def _help(key: str, extra: str = "") -> str:
    # The setting's one sentence (plus ``extra``), ending with a link to its glossary entry.
    name = KEYS.get(key, key)
    return setting_help(name, f"{SETTINGS[name].help}{extra}")


def _remember(key: str) -> None:
    # on_change: the widget's new value becomes the session's.
    _store()[key] = st.session_state[key]


def _bound(key: str, default: Any = None) -> dict[str, Any]:
    """Widget arguments for setting ``key``: seeded from the store, writing back on change."""
    st.session_state[key] = value(key, default)
    return {"key": key, "on_change": _remember, "args": (key,)}


def _choice(widget: Callable[..., Any], key: str, **extra: Any) -> None:
    """A setting with named choices (unit, mode, estimator, target): its label, choices and their words."""
    spec = SETTINGS[KEYS[key]]
    widget(
        spec.label,
        list(spec.choices),
        format_func=lambda c: spec.choice_labels.get(c, c),  # a choice without words shows as itself
        help=_help(key),
        **extra,
        **_bound(key),
    )


def threshold_default(run: ActiveRun) -> float:
    """The judge's recommended threshold, rounded to the slider's step."""
    return round(float(run.result.recommended_threshold), 2)


def band_default(run: ActiveRun) -> tuple[float, float]:
    """The band slider's start: the judge's fitted band rounded to the slider's step ((0.5, 0.5) when it has none)."""
    fitted, _ = judge_band(run.result)
    return (0.5, 0.5) if fitted is None else (round(fitted.low, 2), round(fitted.high, 2))


def band_setting(run: ActiveRun) -> tuple[float, float] | None:
    """The abstention band the widgets ask for: ``None`` (the exact fitted band) while the slider is at its start.

    The slider's start is the fitted band rounded to its step; read as the exact band, so the numbers do not move
    until the slider does.
    """
    stored = value("band")
    if stored is None:
        return None
    band = (float(stored[0]), float(stored[1]))
    return None if band == band_default(run) else band


def answer_controls(run: ActiveRun) -> BandControls:
    """What one step of the threshold and of the band changes on this run (memoised per session)."""
    threshold = float(value("threshold", threshold_default(run)))
    band = band_setting(run)
    return session_memo(
        CONTROLS_MEMO, (run.run_id, threshold, band), lambda: band_controls(run.result, threshold, band), size=4
    )


CONTROLS_MEMO = "_answer_controls"


def sidebar_controls(run: ActiveRun) -> None:
    """Render the global statistics controls in the sidebar.

    The answer threshold and, for a judge that gives a probability, the abstention band come first and
    together; beside them, what they cannot change on this run and why (:func:`answer_controls`).
    """
    sb = st.sidebar
    sb.markdown("### Settings")
    recommended = threshold_default(run)
    controls = answer_controls(run)
    sb.slider(
        _label("threshold"),
        0.0,
        1.0,
        step=0.01,
        help=_help("threshold", f" The judge ({run.judge_label}) recommends {recommended:.2f}."),
        **_bound("threshold", recommended),
    )
    if controls.threshold_note:
        sb.caption(md_text(controls.threshold_note))
    if controls.has_band:
        fit = controls.fitted
        fitted = "" if fit is None else f" The judge's fitted band: {fit[0]:g} to {fit[1]:g} (the slider's start)."
        sb.slider(_label("band"), 0.0, 1.0, step=0.01, help=_help("band", fitted), **_bound("band", band_default(run)))
    for note in (controls.band_note, controls.holdout_note):
        if note:
            sb.caption(md_text(note))
    sb.select_slider(
        _label("k"),
        ["auto", *range(1, K_SLIDER_MAX + 1)],
        help=_help("k"),
        **_bound("k"),
    )
    for key in ("unit", "mode", "estimator"):
        _choice(sb.selectbox, key)
    _choice(sb.radio, "target", horizontal=True)
    sb.select_slider(
        _label("ci"), list(CI_LEVELS), format_func=lambda x: f"{x:.0%}", help=_help("ci"), **_bound("ci")
    )
    for key in ("unscored_incorrect", "require_tools"):
        sb.toggle(_label(key), help=_help(key), **_bound(key))


def tool_controls() -> None:
    """Render the tool weight sliders, tool threshold and extra-call option (Tools page)."""
    cols = st.columns(4)
    for col, (name, key) in zip(cols, WEIGHT_KEYS.items(), strict=True):
        col.slider(f"Weight: {name}", 0.0, 1.0, step=0.05, help=_help("tool_weights"), **_bound(key))
    row = st.columns([2, 1])
    row[0].slider(
        _label("tool_threshold"),
        0.0,
        1.0,
        step=0.05,
        help=_help("tool_threshold"),
        **_bound("tool_threshold"),
    )
    row[1].toggle(_label("ignore_extra"), help=_help("ignore_extra"), **_bound("ignore_extra"))


def prior_controls() -> None:
    """Render the prior choice (Uncertainty page)."""
    cols = st.columns([2, 1, 1])
    cols[0].radio(
        "Prior on the success rate",
        PRIOR_CHOICES,
        format_func=PRIOR_LABELS.get,
        help=_help("prior"),
        horizontal=True,
        **_bound(PRIOR_KEY),
    )
    custom = value(PRIOR_KEY) == "custom"
    for col, key in zip(cols[1:], ("prior_a", "prior_b"), strict=True):
        col.number_input(
            key[-1], min_value=0.01, step=0.5, disabled=not custom, help=_help(key), **_bound(key)
        )


def current_settings(run: ActiveRun) -> AggregateSettings:
    """Build the aggregation settings from the widgets' current values.

    Raises:
        AgenticError: an invalid combination (e.g. all tool weights 0), for ``st.error``.
    """
    a, b = PRIORS.get(value(PRIOR_KEY), (float(value("prior_a")), float(value("prior_b"))))
    values: dict[str, Any] = {KEYS[key]: value(key) for key in KEYS if key not in ("prior_a", "prior_b", "band")}
    values.update(
        threshold=float(value("threshold", threshold_default(run))),
        k=values["k"] if values["k"] == "auto" else int(values["k"]),
        ci_level=float(values["ci_level"]),
        tool_threshold=float(values["tool_threshold"]),
        tool_weights=ToolWeights.from_mapping({name: float(value(key)) for name, key in WEIGHT_KEYS.items()}),
        prior_a=a,
        prior_b=b,
        abstain_band=band_setting(run),
    )
    return make_settings(**values)


def settings_or_error(run: ActiveRun) -> AggregateSettings | None:
    """:func:`current_settings`, or ``None`` after showing the error (in the page's words)."""
    try:
        return current_settings(run)
    except AgenticError as exc:
        st.error(md_text(relabel(exc, "ui")))
        return None


def results_page() -> tuple[ActiveRun, AggregateSettings, Aggregate]:
    """The opening of every results page: the run, the sidebar controls, the settings, the aggregate.

    Stops the page (after showing the error in the page's words) when the settings are invalid.
    """
    run = ensure_run()
    sidebar_controls(run)
    settings = settings_or_error(run)
    if settings is None:
        st.stop()
    assert settings is not None  # st.stop() ends the script run
    return run, settings, get_aggregate(run, settings)


def page_number(n_rows: int, size: int, key: str, rows_word: str, help: str, jump_to: int | None = None) -> int:
    """The "Page (of N, size each)" box of a table longer than one page; the page asked for (1-based).

    A remembered page past the end (a narrower filter has fewer pages) becomes the last one;
    ``jump_to``, a row's position in the table, opens the page holding it (a deep link).
    """
    n_pages = -(-n_rows // size)
    if jump_to is not None:
        st.session_state[key] = jump_to // size + 1
    elif st.session_state.get(key, 1) > n_pages:
        st.session_state[key] = n_pages
    wanted = st.number_input(
        f"Page (of {n_pages:,}, {size:,} {rows_word} each)",
        min_value=1,
        max_value=n_pages,
        value=1,
        step=1,
        key=key,
        help=help,
    )
    return int(wanted)
