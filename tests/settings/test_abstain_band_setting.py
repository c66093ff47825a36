"""The abstention band setting (issue 41): validation, text, and its words in every face."""

from __future__ import annotations

import math

import pytest

from agentic_core.errors import SettingsError
from agentic_core.settings import SETTINGS, make_settings, relabel, setting_from_text


def test_unset_is_the_judges_fitted_band_and_a_pair_is_kept() -> None:
    assert make_settings().abstain_band is None
    assert make_settings(abstain_band=(0.2, 0.8)).abstain_band == (0.2, 0.8)
    assert make_settings(abstain_band=[0.5, 0.5]).abstain_band == (0.5, 0.5)  # JSON gives a list; width 0 allowed
    assert make_settings(abstain_band=(0, 1)).abstain_band == (0.0, 1.0)


@pytest.mark.parametrize(
    ("band", "rule"),
    [
        ((0.8, 0.2), "LOW <= HIGH"),
        ((-0.1, 0.5), "between 0 and 1"),
        ((0.5, 1.5), "between 0 and 1"),
        ((math.nan, 0.5), "between 0 and 1"),
        ((0.2,), "pair of numbers"),
        ((True, 1.0), "pair of numbers"),
        ("0.2,0.8", "pair of numbers"),
    ],
)
def test_a_bad_band_names_the_setting_the_rule_and_the_fix(band: object, rule: str) -> None:
    with pytest.raises(SettingsError) as caught:
        make_settings(abstain_band=band)
    assert caught.value.place == "abstain_band" and rule in caught.value.rule
    assert "0.5,0.5" in caught.value.fix and "fitted band" in caught.value.fix
    assert relabel(caught.value, "cli").place == "--abstain-band"
    assert relabel(caught.value, "ui").place == "setting 'Abstention band'"


def test_the_band_as_text() -> None:
    assert setting_from_text("abstain_band", "0.2,0.8") == (0.2, 0.8)
    assert setting_from_text("abstain_band", " 20% , 80% ") == (0.2, 0.8)
    assert setting_from_text("abstain_band", "fitted") is None
    for bad in ("0.2", "0.2,0.8,0.9", "a,b", "0.9,0.1"):
        with pytest.raises(SettingsError):
            setting_from_text("abstain_band", bad)


def test_the_setting_has_its_words() -> None:
    spec = SETTINGS["abstain_band"]
    assert spec.flag == "--abstain-band" and spec.label == "Abstention band"
    assert "never abstains" in spec.help
