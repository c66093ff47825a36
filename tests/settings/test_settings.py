"""Settings validation: every invalid value is a SettingsError naming place, rule, value and fix."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentic_core.errors import SettingsError
from agentic_core.settings import AggregateSettings, ToolWeights, make_settings


def test_defaults_match_the_seeds() -> None:
    s = AggregateSettings()
    # seed 003: threshold 0.7, tool_threshold 1.0, weights 0.25 each.
    assert (s.threshold, s.tool_threshold) == (0.7, 1.0)
    assert s.tool_weights.as_tuple() == (0.25, 0.25, 0.25, 0.25)


@pytest.mark.parametrize("k", [0, -1, 2.5, True, "3"])
def test_invalid_k_is_an_error_naming_k(k: object) -> None:
    with pytest.raises(SettingsError) as info:
        make_settings(k=k)
    assert info.value.place == "k"
    assert "Fix:" in str(info.value)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("threshold", 1.5),
        ("threshold", -0.1),
        ("threshold", math.nan),
        ("tool_threshold", 2.0),
        ("ci_level", 1.0),
        ("ci_level", 0.0),
        ("prior_a", 0.0),
        ("prior_b", -1.0),
    ],
)
def test_out_of_range_values_name_the_setting(name: str, value: float) -> None:
    with pytest.raises(SettingsError) as info:
        make_settings(**{name: value})
    assert info.value.place == name
    assert repr(value) in str(info.value)


def test_unknown_setting_is_rejected() -> None:
    with pytest.raises(SettingsError):
        make_settings(treshold=0.5)


def test_weights_parse_and_partial_weights_mean_only_those() -> None:
    w = ToolWeights.parse("selection=0.4, parameters=0.3,sequence=0.2,utilization=0.1")
    assert w.as_tuple() == (0.4, 0.3, 0.2, 0.1)
    only = ToolWeights.from_mapping({"selection": 1})
    assert only.as_tuple() == (1.0, 0.0, 0.0, 0.0)


@pytest.mark.parametrize(
    ("text", "place_part"),
    [
        ("selection=-1", "selection"),
        ("selection=nan", "selection"),
        ("selection=inf", "selection"),
        ("selektion=1", "selektion"),
        ("selection", "tool_weights"),
        (",", "tool_weights"),
        (" , ,", "tool_weights"),
        ("", "tool_weights"),
        ("selection=abc", "selection"),
    ],
)
def test_bad_weights_are_errors(text: str, place_part: str) -> None:
    with pytest.raises(SettingsError) as info:
        ToolWeights.parse(text)
    assert place_part in info.value.place


@given(st.lists(st.floats(min_value=0, max_value=10, allow_nan=False), min_size=4, max_size=4))
def test_any_non_negative_weights_are_accepted(ws: list[float]) -> None:
    names = ["selection", "parameters", "sequence", "utilization"]
    weights = ToolWeights.from_mapping(dict(zip(names, ws, strict=True)))
    assert weights.as_tuple() == tuple(ws)
    # All 0 is accepted and means "tool use is not scored".
    assert weights.scores_tools == (sum(ws) > 0)


def test_normalised_tool_weights_sum_to_one_and_keep_ratios() -> None:
    out = ToolWeights(selection=2.0, parameters=1.0, sequence=1.0, utilization=0.0).normalised()
    assert out == pytest.approx({"selection": 0.5, "parameters": 0.25, "sequence": 0.25, "utilization": 0.0})
    assert ToolWeights().normalised() == pytest.approx(dict.fromkeys(out, 0.25))
    assert ToolWeights(selection=0, parameters=0, sequence=0, utilization=0).normalised() == dict.fromkeys(out, 0.0)



# -- weights whose sum overflows (issue 23) ------------------------------------------------------------

_HUGE = {"selection": 1e308, "parameters": 1e308}


@pytest.mark.parametrize(
    "build",
    [
        lambda: ToolWeights.from_mapping(_HUGE),
        lambda: ToolWeights.parse("selection=1e308,parameters=1e308"),
        lambda: ToolWeights(selection=1e308, parameters=1e308, sequence=0, utilization=0),
        lambda: make_settings(tool_weights=_HUGE),
        lambda: ToolWeights(selection=8e307, parameters=8e307, sequence=8e307, utilization=8e307),
    ],
)
def test_weights_whose_sum_overflows_are_refused_with_the_rule(build: object) -> None:
    # Was: each weight finite, so accepted; their sum is inf and every overall tool score was null.
    with pytest.raises(SettingsError) as info:
        build()  # type: ignore[operator]
    assert info.value.place == "tool_weights"
    assert "sum is finite" in info.value.rule and "Fix:" in str(info.value)


def test_the_largest_weights_whose_sum_is_finite_are_accepted_and_normalise() -> None:
    w = ToolWeights.from_mapping({"selection": 8e307, "parameters": 8e307})
    assert w.normalised() == pytest.approx({"selection": 0.5, "parameters": 0.5, "sequence": 0.0, "utilization": 0.0})


def test_the_cli_refuses_overflowing_weights_with_exit_2() -> None:
    import io

    from agentic_core.cli import EXIT_USER_ERROR, main
    from agentic_core.io.samples import SAMPLES

    out, err = io.StringIO(), io.StringIO()
    argv = ["evaluate", str(SAMPLES["travel"].path), "--judge", "dataset", "--no-progress", "--cache", "off"]
    code = main([*argv, "--tool-weights", "selection=1e308,parameters=1e308"], stdout=out, stderr=err)
    assert code == EXIT_USER_ERROR == 2 and out.getvalue() == ""
    assert "tool-weights" in err.getvalue() and "sum is finite" in err.getvalue()
