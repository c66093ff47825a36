"""Shared links: settings in the URL apply on every page, raw values and labels, errors said, data named."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from agentic_core.io.samples import SAMPLES
from tests.pages.conftest import APP, OpenApp
from ui.controls import DEFAULTS
from ui.url_state import read_query, url_params

DEFAULT_DATA = SAMPLES["support"].title


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"ci": "0.9"}, {"ci": 0.9}),
        ({"ci": "90%"}, {"ci": 0.9}),
        ({"ci": "95 %"}, {"ci": 0.95}),
        ({"unit": "task"}, {"unit": "task"}),
        ({"unit": "Task (attempts per task)"}, {"unit": "task"}),
        ({"target": "these tasks"}, {"target": "these-tasks"}),
        ({"k": "AUTO"}, {"k": "auto"}),
        ({"k": "5"}, {"k": 5}),
        ({"threshold": "70%"}, {"threshold": 0.7}),
        ({"require_tools": "yes", "unscored_incorrect": "0"}, {"require_tools": True, "unscored_incorrect": False}),
        ({"w_sequence": "0"}, {"w_sequence": 0.0}),
        ({"prior": "Jeffreys Beta(½,½)"}, {"prior": "jeffreys"}),
        ({"prior": "custom", "prior_a": "2", "prior_b": "8"}, {"prior": "custom", "prior_a": 2.0, "prior_b": 8.0}),
    ],
)
def test_raw_values_and_page_labels_are_both_read(query: dict[str, str], expected: dict[str, object]) -> None:
    values, data, messages = read_query(query)
    assert values == expected
    assert data is None and messages == []


@pytest.mark.parametrize(
    ("key", "text", "said"),
    [
        ("ci", "0.42", "must be one of 80%, 90%, 95%, 99%"),
        ("ci", "ninety", "must be a number"),
        ("unit", "turn", "must be one of auto, task, conversation, interaction"),
        ("k", "99", "at most 20"),
        ("k", "2.5", "whole number"),
        ("threshold", "1.5", "between 0 and 1"),
        ("w_selection", "3", "between 0 and 1"),
        ("require_tools", "maybe", "true or false"),
        ("prior", "flat", "must be one of"),
        ("treshold", "0.7", "not a setting"),
    ],
)
def test_an_unusable_value_is_reported_not_dropped(key: str, text: str, said: str) -> None:
    values, _, messages = read_query({key: text, "ci": "0.8"} if key != "ci" else {key: text})
    assert key not in values
    assert len(messages) == 1
    assert f"`{key}={text}`" in messages[0] and said in messages[0]


def test_url_holds_changed_settings_and_the_data() -> None:
    state = {**DEFAULTS, "threshold": 0.7, "ci": 0.9, "unit": "task", "require_tools": True, "prior_a": 3.0}
    params = url_params(state, 0.7, "my data.jsonl")
    # Defaults are left out (a short link), the prior's parameters only with a custom prior.
    assert params == {"ci": "0.9", "unit": "task", "require_tools": "true", "data": "my data.jsonl"}
    # What is written reads back to the same values.
    values, data, messages = read_query(params)
    assert values == {"ci": 0.9, "unit": "task", "require_tools": True}
    assert data == "my data.jsonl" and messages == []


def _open_link(open_app: OpenApp, **query: str) -> AppTest:
    open_app()  # sets the offline judge and the temporary cache for this test
    at = AppTest.from_file(APP, default_timeout=60)
    for key, text in query.items():
        at.query_params[key] = text
    at.run()
    assert not at.exception
    return at


def test_a_shared_link_applies_on_every_page(open_app: OpenApp) -> None:
    at = _open_link(open_app, ci="0.9", unit="task", w_sequence="0", threshold="0.6")
    assert at.select_slider(key="ci").value == 0.9
    assert at.selectbox(key="unit").value == "task"
    assert at.slider(key="threshold").value == 0.6
    # Switching pages keeps the link's settings, the one on a page not opened yet included.
    at.switch_page("pages/explorer.py").run()
    assert "answer threshold 0.60" in at.caption[0].value
    at.switch_page("pages/tools.py").run()
    assert at.slider(key="w_sequence").value == 0.0
    assert at.select_slider(key="ci").value == 0.9
    # A change follows the user across pages and into the URL.
    at.slider(key="threshold").set_value(0.8).run()
    at.switch_page("pages/uncertainty.py").run()
    assert at.slider(key="threshold").value == 0.8
    assert at.query_params["threshold"] == ["0.8"] or at.query_params["threshold"] == "0.8"
    assert "w_sequence" in at.query_params and "ci" in at.query_params


def test_an_invalid_link_value_is_said_on_the_page(open_app: OpenApp) -> None:
    at = _open_link(open_app, ci="0.42", k="7")
    warnings = [w.value for w in at.warning]
    assert any("`ci=0.42` was ignored" in w and "95%" in w for w in warnings), warnings
    assert at.select_slider(key="k").value == 7  # the valid part of the link applies
    assert at.select_slider(key="ci").value == DEFAULTS["ci"]


def test_the_link_names_its_data_and_says_when_it_is_not_loaded(open_app: OpenApp) -> None:
    at = _open_link(open_app)
    assert at.query_params["data"] in (DEFAULT_DATA, [DEFAULT_DATA])
    # A reload starts a new session on the sample: the link's data is named, and what to do.
    other = _open_link(open_app, data="agent_runs.jsonl", k="3")
    warnings = " ".join(w.value for w in other.warning)
    assert "This link was made on **agent_runs.jsonl**" in warnings
    assert "upload **agent_runs.jsonl** again on the **Data** page" in warnings
    assert other.select_slider(key="k").value == 3

