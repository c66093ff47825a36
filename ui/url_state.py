"""The settings in the page's URL: a shared link opens with its settings on every page.

The URL holds every setting that differs from its default, under the widget keys
(``/tools?k=5&w_sequence=0``), and ``data=`` names the data the view was made on. A link is
read when a session starts (or when the URL changes to something this session did not write):
each value may be raw (``ci=0.9``, ``unit=task``) or a page's label (``ci=90%``); a value that
cannot be used is reported on the page with what is accepted, never dropped silently. After that
the session's settings are the truth and the URL follows them on every page, so switching pages
keeps them (Streamlit's own binding of widgets to the URL kept a value only on its own page).

:func:`read_query` and :func:`url_params` are pure (tested without a browser); :func:`sync_url`
does the session work once per script run, :func:`write_url` again after a fragment's change.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import streamlit as st

from agentic_core import AgenticError, SettingsError
from agentic_core.io import SAMPLES
from agentic_core.report import COMPARE_PARAMS
from agentic_core.report import PAGE_PARAMS as EXPLORER_PARAMS
from agentic_core.settings import CI_LEVELS, setting_from_text
from ui.controls import (
    DEFAULTS,
    K_SLIDER_MAX,
    KEYS,
    PRIOR_CHOICES,
    PRIOR_KEY,
    PRIOR_LABELS,
    STORE_KEY,
    WEIGHT_KEYS,
    set_value,
    threshold_default,
)
from ui.runs import open_stored_run
from ui.state import ActiveRun, get_run

PAGE_PARAMS = (*EXPLORER_PARAMS, *COMPARE_PARAMS)
"""The pages' own URL parameters (the Explorer's filters and conversation, Compare's two runs): kept as they are."""
DATA_PARAM = "data"
RUN_PARAM = "run"
LAST_KEY = "_url_last"
# Parameters Streamlit itself reads; never reported as unknown.
_STREAMLIT_PARAMS = ("embed", "embed_options")
# Widget key -> setting name (the tool weights as tool_weights.<dimension>).
URL_SETTINGS: dict[str, str] = {**KEYS, **{key: f"tool_weights.{name}" for name, key in WEIGHT_KEYS.items()}}


def _widget_value(key: str, text: str) -> Any:
    """The value for widget ``key`` from URL text, within what the widget can show.

    Raises:
        AgenticError: the text is not a valid setting, or outside the widget's range.
    """
    if key == PRIOR_KEY:
        wanted = text.strip().lower()
        for choice in PRIOR_CHOICES:
            if wanted in (choice, PRIOR_LABELS[choice].lower()):
                return choice
        raise SettingsError(
            "prior", f"must be one of {', '.join(PRIOR_CHOICES)}", text, "write e.g. prior=jeffreys"
        )
    name = URL_SETTINGS[key]
    value = setting_from_text(name, text)
    if key == "k" and value != "auto" and value > K_SLIDER_MAX:
        raise SettingsError(
            name, f"must be at most {K_SLIDER_MAX} on the dashboard", text, "use the command line for a larger K"
        )
    if key == "ci":
        level = next((lv for lv in CI_LEVELS if math.isclose(lv, value)), None)
        if level is None:
            raise SettingsError(
                name,
                f"must be one of {', '.join(f'{lv:.0%}' for lv in CI_LEVELS)} on the dashboard",
                text,
                "write e.g. ci=0.95 or ci=95% (the command line takes any level)",
            )
        return level
    if key in WEIGHT_KEYS.values() and value > 1:
        raise SettingsError(
            name,
            "must be between 0 and 1 (the weight sliders' range)",
            text,
            "scale the weights down: they are normalised, so 0.5 and 0.25 weigh like 2 and 1",
        )
    if key in ("prior_a", "prior_b"):
        return float(value)
    return value


def read_query(query: Mapping[str, str]) -> tuple[dict[str, Any], str | None, list[str]]:
    """The widget values a link asks for, the data it names, and what could not be used.

    Args:
        query: The URL's parameters (last value of each).

    Returns:
        ``(values by widget key, data name or None, messages)``: one message per value that was
        left out (the setting, the value, the rule, what is accepted).
    """
    values: dict[str, Any] = {}
    messages: list[str] = []
    for key, text in query.items():
        if key in (DATA_PARAM, RUN_PARAM) or key in _STREAMLIT_PARAMS or key in PAGE_PARAMS:
            continue  # the Explorer reads its own parameters
        if key not in URL_SETTINGS and key != PRIOR_KEY:
            known = ", ".join(sorted([*URL_SETTINGS, PRIOR_KEY, DATA_PARAM, RUN_PARAM]))
            messages.append(f"The link's `{key}={text}` was ignored: `{key}` is not a setting (they are: {known}).")
            continue
        try:
            values[key] = _widget_value(key, text)
        except AgenticError as exc:
            messages.append(f"The link's `{key}={text}` was ignored (the default is kept): {exc.rule}; {exc.fix}.")
    return values, query.get(DATA_PARAM), messages


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):  # the abstention band: LOW,HIGH
        return ",".join(_text(float(v)) for v in value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def url_params(
    state: Mapping[str, Any], threshold_default: float, data_name: str, run_id: str | None = None
) -> dict[str, str]:
    """The URL parameters for the current settings: those that differ from their defaults, the data and the run.

    Args:
        state: The session's widget values (a missing key is at its default).
        threshold_default: The answer threshold's default (the run's judge recommends it).
        data_name: The name of the data the results are computed on.
        run_id: The run's id in the history, when it is stored (a reload reopens it).
    """
    defaults = {**DEFAULTS, "threshold": threshold_default}
    params: dict[str, str] = {}
    for key in [*URL_SETTINGS, PRIOR_KEY]:
        if key in ("prior_a", "prior_b") and state.get(PRIOR_KEY) != "custom":
            continue  # only a custom prior has parameters of its own
        if key in state and state[key] != defaults.get(key):
            params[key] = _text(state[key])
    params[DATA_PARAM] = data_name
    if run_id:
        params[RUN_PARAM] = run_id
    return params


def open_linked_run() -> str | None:
    """On a session's first run, reopen the stored run the URL names (a reload, a shared link).

    Returns:
        A message for the page when the link names a run that cannot be reopened.
    """
    run_id = st.query_params.get(RUN_PARAM)
    if not run_id or get_run() is not None:
        return None
    try:
        open_stored_run(run_id)
    except AgenticError as exc:
        return (
            f"The link's run `{run_id}` could not be reopened, so the built-in sample is shown: "
            f"{str(exc).rstrip('.')}. Open another run from the **History** page, or import the run's file there."
        )
    return None


def _data_notice(linked: str, run: ActiveRun) -> str:
    sample = next((s.title for s in SAMPLES.values() if s.title == linked), None)
    how = (
        f"load the sample *{sample}* on the **Data** page and run it"
        if sample
        else f"upload **{linked}** again on the **Data** page and run it"
    )
    return (
        f"This link was made on **{linked}**, but this session shows **{run.data_name}**. A link carries "
        "settings, not data: a new browser session (a reload, or the link opened elsewhere) starts on the "
        f"built-in sample, and uploaded data and its runs are not kept. To see the link's view, {how}; the "
        "link's settings are already applied."
    )


def sync_url(run: ActiveRun) -> list[str]:
    """Apply a new link's settings to the session, then write the session's settings into the URL.

    Call once per script run, before the page runs.

    Returns:
        Messages for the page: values of the link that could not be used, and a note when the
        link names other data than the run shown.
    """
    query = {key: st.query_params[key] for key in st.query_params}
    last = st.session_state.get(LAST_KEY)
    messages: list[str] = []
    settings_query = {key: value for key, value in query.items() if key not in PAGE_PARAMS}
    if settings_query and settings_query != last:
        values, linked, messages = read_query(query)
        for key, value in values.items():
            set_value(key, value)
        if linked is not None and linked != run.data_name:
            messages.append(_data_notice(linked, run))
    write_url(run, query)
    return messages


def write_url(run: ActiveRun, query: Mapping[str, str] | None = None) -> None:
    """Write the session's settings (those not at their defaults) and the run's data into the URL.

    Args:
        run: The run the pages show.
        query: The URL's parameters as read this run (read again when ``None``).
    """
    if query is None:
        query = {key: st.query_params[key] for key in st.query_params}
    params = url_params(st.session_state.get(STORE_KEY, {}), threshold_default(run), run.data_name, run.stored_id)
    st.session_state[LAST_KEY] = dict(params)
    params.update({key: value for key, value in query.items() if key in PAGE_PARAMS})  # the Explorer's own
    if params != query:
        st.query_params.from_dict(params)
