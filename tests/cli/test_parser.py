"""The command line's options derive from the settings table, the judge registry and the LLM options."""

from __future__ import annotations

import argparse

import pytest

from agentic_core.cli import build_parser
from agentic_core.cli.format_options import chosen
from agentic_core.judges.llm.options import LLM_OPTIONS
from agentic_core.judges.registry import DEFAULT_JUDGE, JUDGES
from agentic_core.judges.runner import CACHE_MODES
from agentic_core.settings import SETTINGS, default_of


def _evaluate_actions() -> dict[str, argparse.Action]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {flag: action for action in sub.choices["evaluate"]._actions for flag in action.option_strings}


ACTIONS = _evaluate_actions()


@pytest.mark.parametrize("name", ["estimator", "mode", "k", "tool_threshold", "ci_level", "seed"])
def test_setting_options_take_their_choices_and_defaults_from_the_settings(name: str) -> None:
    spec = SETTINGS[name]
    action = ACTIONS[spec.flag]
    assert action.dest == name
    assert action.default == default_of(name)
    assert list(action.choices or []) == list(spec.choices)
    assert spec.help in (action.help or "")


def test_options_a_format_may_set_are_none_until_given_and_read_the_workbench_defaults() -> None:
    # None = not given: evaluate then takes what the data's format needs (format_options); compare and the rest
    # read the workbench's defaults through chosen().
    assert (ACTIONS["--unit"].default, ACTIONS["--judge"].default, ACTIONS["--ignore-extra-tools"].default) == (
        None, None, None,
    )  # fmt: skip
    assert list(ACTIONS["--unit"].choices or []) == list(SETTINGS["unit"].choices)
    assert isinstance(ACTIONS["--no-ignore-extra-tools"], argparse.BooleanOptionalAction)
    args = build_parser().parse_args(["evaluate", "data.jsonl"])
    assert chosen(args, "unit") == default_of("unit") and chosen(args, "judge") == DEFAULT_JUDGE
    assert chosen(args, "ignore_extra_tools") is default_of("ignore_extra_tools") is False
    given = build_parser().parse_args(["evaluate", "data.jsonl", "--unit", "auto", "--no-ignore-extra-tools"])
    assert (given.unit, given.ignore_extra_tools) == ("auto", False)  # given, even as the default: never None


@pytest.mark.parametrize("name", ["require_tool_correctness", "unscored_as_incorrect"])
def test_switches_turn_on_the_non_default(name: str) -> None:
    assert default_of(name) is False
    action = ACTIONS[SETTINGS[name].flag]
    assert isinstance(action, argparse._StoreTrueAction) and action.dest == name


def test_judges_cache_modes_and_llm_options_come_from_their_tables() -> None:
    assert list(ACTIONS["--judge"].choices or []) == list(JUDGES)
    assert list(ACTIONS["--cache"].choices or []) == list(CACHE_MODES)
    for option in LLM_OPTIONS.values():
        # The timeout adapts when not given (issue 40): its option is unset (None), never the default itself.
        assert ACTIONS[option.flag].default == option.unset and ACTIONS[option.flag].dest == option.name


def test_the_contract_option_names_are_all_there() -> None:
    # README: these names are a public contract (extend, never rename).
    contract = [
        "--judge", "--provider", "--model", "--base-url", "--api-key-env", "--concurrency", "--rps", "--timeout",
        "--cache", "--cache-path", "--unit", "--estimator", "--mode", "--k", "--threshold", "--tool-threshold",
        "--tool-weights", "--ignore-extra-tools", "--require-tools", "--prior", "--ci", "--seed",
        "--unscored-as-incorrect", "--out", "--json", "--strict", "--no-progress",
    ]
    assert set(contract) <= set(ACTIONS)


def _refusal(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exc:
        build_parser().parse_args(argv)
    assert exc.value.code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize("command", [["evaluate", "data.jsonl"], ["calibrate", "data.jsonl"]])
def test_max_tokens_takes_the_endpoints_bounds(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    from agentic_core.errors import JudgeConfigError
    from agentic_core.service import ServiceConfig
    from agentic_core.service.connector import connector_judge

    limits = LLM_OPTIONS["max_tokens"]
    low, high = int(limits.minimum), int(limits.maximum)
    assert (low, high) == (16, 32_768)  # the bounds: the endpoint's
    for inside in (low, high):
        assert build_parser().parse_args([*command, "--max-tokens", str(inside)]).max_tokens == inside
    for outside in (str(low - 1), str(high + 1), "0", "-5", "512.5", "lots"):
        err = _refusal([*command, "--max-tokens", outside], capsys)
        assert f"argument --max-tokens: must be a whole number in [{low}, {high}]" in err, err
        shown = int(outside) if outside.lstrip("-").isdigit() else outside  # text that is no whole number: as given
        assert f"(got {shown!r})" in err, err
    # The endpoint refuses the same values with the same range (one table: LLM_OPTIONS).
    connector = {"class_path": "langchain_openai.ChatOpenAI", "params": {"model": "m-1", "api_key": "sk-test"}}
    for outside in (low - 1, high + 1):
        with pytest.raises(JudgeConfigError, match=rf"config\.max_tokens: must be a whole number in \[{low}, {high}\]"):
            connector_judge(connector, ServiceConfig(), None, None, outside)


def test_the_other_llm_options_keep_their_number_types() -> None:
    args = build_parser().parse_args(["evaluate", "d.jsonl", "--concurrency", "300", "--timeout", "0.5", "--rps", "2"])
    assert (args.concurrency, args.timeout_s, args.rps) == (300, 0.5, 2.0)  # checked when the judge is built
