"""The LLM options table: each option's range checked in one place (the CLI's --max-tokens uses it)."""

from __future__ import annotations

import math

import pytest

from agentic_core.errors import JudgeConfigError
from agentic_core.judges.llm.options import LLM_OPTIONS


def test_a_whole_number_option_accepts_its_range_and_refuses_the_rest() -> None:
    budget = LLM_OPTIONS["max_tokens"]
    assert budget.integer and (budget.minimum, budget.maximum) == (16, 32_768)
    assert budget.check(16) == 16 and budget.check(32_768) == 32_768
    for value in (15, 32_769, 512.0, True, "512", None):
        with pytest.raises(JudgeConfigError) as err:
            budget.check(value)
        assert str(err.value).startswith("--max-tokens: must be a whole number in [16, 32768]")
        assert f"(got {value!r})" in str(err.value) and "such as 512" in str(err.value)
    with pytest.raises(JudgeConfigError, match=r"^config\.max_tokens: "):
        budget.check(8, "config.max_tokens")


def test_a_number_option_takes_whole_and_decimal_numbers_but_not_nan() -> None:
    timeout = LLM_OPTIONS["timeout_s"]
    assert not timeout.integer
    assert timeout.check(1) == 1.0 and timeout.check(0.5 + 0.5) == 1.0 and timeout.check(600) == 600.0
    for value in (0.5, 600.5, math.nan, math.inf):
        with pytest.raises(JudgeConfigError, match=r"must be a number in \[1, 600\]"):
            timeout.check(value)
