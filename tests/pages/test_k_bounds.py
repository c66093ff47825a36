"""The dashboard's K bound is derived from the settings, below the engine's, and both are enforced."""

from __future__ import annotations

import pytest

from agentic_core.errors import SettingsError
from agentic_core.settings import K_AUTO_MAX, K_DASHBOARD_MAX, K_MAX, make_settings
from ui.controls import K_SLIDER_MAX
from ui.url_state import read_query


def test_the_slider_bound_is_the_settings_dashboard_bound() -> None:
    assert K_SLIDER_MAX == K_DASHBOARD_MAX
    # Every K that "auto" picks is a stop of the slider, and the slider never offers what the settings reject.
    assert K_AUTO_MAX <= K_DASHBOARD_MAX <= K_MAX


def test_a_link_reaches_the_slider_bound_and_no_further() -> None:
    values, _, messages = read_query({"k": str(K_DASHBOARD_MAX)})
    assert values == {"k": K_DASHBOARD_MAX} and messages == []
    values, _, messages = read_query({"k": str(K_DASHBOARD_MAX + 1)})
    assert "k" not in values
    assert len(messages) == 1 and f"at most {K_DASHBOARD_MAX} on the dashboard" in messages[0]


def test_the_settings_accept_up_to_k_max_beyond_the_dashboard() -> None:
    assert make_settings(k=K_MAX).k == K_MAX
    with pytest.raises(SettingsError, match=f"must be at most {K_MAX}"):
        make_settings(k=K_MAX + 1)
