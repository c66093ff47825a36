"""The command line's options, derived from the settings table and the judge registry.

Choices, defaults and help of every aggregation option come from :mod:`agentic_core.settings`;
the judge names from :mod:`agentic_core.judges.registry`, the providers from
:mod:`agentic_core.judges.llm.provider_table`, the cache modes from :mod:`agentic_core.judges.runner`. The
option names are a public contract: kept stable.
"""

from __future__ import annotations

import argparse

from agentic_core.cli.calibrate_options import add_calibrate_parser
from agentic_core.cli.engine_options import add_engine_options
from agentic_core.cli.format_options import format_help
from agentic_core.cli.gate_options import EXIT_GATE, add_compare_parser, add_gate_options
from agentic_core.cli.label_options import add_label_options
from agentic_core.cli.llm_option_types import llm_option_help, llm_option_type
from agentic_core.cli.metric_options import add_metric_options
from agentic_core.cli.plan_command import add_plan_parser
from agentic_core.cli.runs_command import add_runs_parser
from agentic_core.cli.serve_command import add_serve_parser
from agentic_core.cli.tag_options import add_tag_options
from agentic_core.io.importers.formats import DEFAULT_FORMAT, FORMAT_CHOICES, FORMAT_LABELS, formats_in_words
from agentic_core.judges.llm.options import LLM_OPTIONS, STRUCTURED_HELP, STRUCTURED_MODES
from agentic_core.judges.registry import JUDGES
from agentic_core.judges.runner import CACHE_MODES
from agentic_core.settings import PRIORS, SETTINGS, default_of

EXIT_OK = 0
EXIT_USER_ERROR = 2
EXIT_STRICT = 3
EXIT_NOTHING_SCORED = 5
EXIT_NOT_STORED = 6
"""``evaluate`` printed its results (and wrote ``--out``) but could not store the run in the history."""

EXIT_CODES_EPILOG = (
    "exit codes: 0 done; 2 bad input, or an --out file could not be written (results are still printed); "
    f"{EXIT_STRICT} --strict and some file or record could not be loaded; {EXIT_GATE} a --fail-under gate failed; "
    f"{EXIT_NOTHING_SCORED} the judge scored nothing; {EXIT_NOT_STORED} results printed and --out written, but the "
    "run could not be stored in the history (damaged, read-only or full; the reason is on stderr). When several "
    f"apply, the first in this order wins: 2, {EXIT_NOTHING_SCORED}, {EXIT_STRICT}, {EXIT_GATE}, {EXIT_NOT_STORED}."
)

# Options whose value the command line takes as text and the settings parse (kept as text here).
_TEXT_OPTIONS = {"tool_weights", "prior", "k", "abstain_band"}
# Booleans are switches that turn the non-default behaviour on.
_SWITCHES = ("ignore_extra_tools", "require_tool_correctness", "unscored_as_incorrect")


def _add_setting(group: argparse._ArgumentGroup, name: str, **overrides: object) -> None:
    """Add the option of setting ``name`` with the settings' flag, choices, default and help."""
    spec = SETTINGS[name]
    kwargs: dict[str, object] = {"help": spec.help, "dest": name}
    if name in _SWITCHES:
        kwargs["action"] = "store_true"
    elif name not in _TEXT_OPTIONS:
        default = default_of(name)
        kwargs["type"] = type(default)
        kwargs["default"] = default
        if spec.choices:
            kwargs["choices"] = list(spec.choices)
        kwargs["help"] = f"{spec.help} (default: {default})"
    kwargs.update(overrides)
    group.add_argument(spec.flag, **kwargs)  # type: ignore[arg-type]


class _PlainHelp(argparse.HelpFormatter):
    """Help texts printed as written: a ``%`` in them ("90% of the tasks") is a percent sign, not a format."""

    def _expand_help(self, action: argparse.Action) -> str:
        return action.help or ""


def build_parser(prog: str = "python -m agentic_core") -> argparse.ArgumentParser:
    """The argument parser (exposed for tests and documentation).

    Args:
        prog: the command as typed, shown in usage lines: ``agentic-eval`` for the console script.
    """
    from agentic_core.cli.dashboard_command import add_dashboard_parser
    from agentic_core.judges.llm.provider_table import PROVIDERS

    parser = argparse.ArgumentParser(
        prog=prog,
        description="Evaluate AI-agent conversations: pass@K / pass^K with intervals, tool correctness.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    ev = sub.add_parser(
        "evaluate",
        help="judge and aggregate one or more dataset files",
        formatter_class=_PlainHelp,
        epilog=EXIT_CODES_EPILOG,
    )
    ev.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help=f"JSON / JSONL files: {formats_in_words()} (detected from the content)",
    )
    ev.add_argument(
        "--format",
        default=DEFAULT_FORMAT,
        choices=list(FORMAT_CHOICES),
        help=f"input format (default: {DEFAULT_FORMAT}, detected from each file's content): "
        + ", ".join(f"{name} = {label}" for name, label in FORMAT_LABELS.items() if name != DEFAULT_FORMAT),
    )
    ev.add_argument(
        "--references",
        metavar="FILE",
        help="reference answers and expected tools for OpenTelemetry traces (JSON / JSONL records keyed by "
        "session_id, the conversation id, or task_id; see docs/data-format.md)",
    )
    j = ev.add_argument_group("judge")
    j.add_argument(
        "--judge",
        default=None,  # None: not given, so evaluate may take the data format's judge (format_options)
        choices=list(JUDGES),
        help=f"answer-correctness judge {format_help('judge')}",
    )
    j.add_argument("--provider", help=f"LLM provider: {', '.join(PROVIDERS)}")
    j.add_argument("--model", help="LLM model name")
    j.add_argument("--base-url", help="base URL of an OpenAI-compatible or Ollama server")
    j.add_argument("--api-key-env", help="name of the environment variable holding the API key")
    for option in LLM_OPTIONS.values():
        j.add_argument(
            option.flag, dest=option.name, type=llm_option_type(option), default=option.unset,
            help=llm_option_help(option),
        )  # fmt: skip
    j.add_argument("--structured-output", choices=STRUCTURED_MODES, default="auto", help=STRUCTURED_HELP)
    j.add_argument("--cache", choices=list(CACHE_MODES), default="use", help="judge cache mode")
    j.add_argument("--cache-path", help="judge cache file (default: the user cache directory)")
    a = ev.add_argument_group("aggregation")
    _add_setting(a, "unit", default=None, help=f"{SETTINGS['unit'].help} {format_help('unit')}")
    _add_setting(a, "estimator")
    _add_setting(a, "mode")
    _add_setting(a, "target")
    _add_setting(a, "k", default="auto", help=f"{SETTINGS['k'].help} (default: auto)")
    _add_setting(
        a, "threshold", type=float, default=None, help=f"{SETTINGS['threshold'].help} (default: the judge's)"
    )
    _add_setting(
        a,
        "abstain_band",
        default=None,
        metavar="LOW,HIGH",
        help=f"{SETTINGS['abstain_band'].help} (default: the judge's fitted band; 'fitted' says so)",
    )
    _add_setting(a, "tool_threshold")
    _add_setting(
        a, "tool_weights", default=None, help=f"{SETTINGS['tool_weights'].help} selection=..,parameters=..,.."
    )
    _add_setting(
        a,
        "ignore_extra_tools",
        action=argparse.BooleanOptionalAction,  # --no-ignore-extra-tools overrides a format that ignores them
        default=None,
        help=f"{SETTINGS['ignore_extra_tools'].help} {format_help('ignore_extra_tools')}",
    )
    _add_setting(a, "require_tool_correctness")
    prior_default = f"{default_of('prior_a'):g},{default_of('prior_b'):g}"
    _add_setting(
        a,
        "prior",
        default=prior_default,
        help=f"Beta prior A,B, or {' / '.join(PRIORS)} (default {prior_default})",
    )
    _add_setting(a, "ci_level")
    _add_setting(a, "seed")
    _add_setting(a, "unscored_as_incorrect")
    o = ev.add_argument_group("output")
    o.add_argument("--out", help="directory for CSV / JSON exports")
    o.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    o.add_argument(
        "--strict",
        action="store_true",
        help=f"exit {EXIT_STRICT} if any file or record could not be loaded (the valid ones are still evaluated)",
    )
    o.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    o.add_argument("--no-save", action="store_true", help="do not store the run in the run history (see 'runs')")
    add_serve_parser(sub)
    add_runs_parser(sub)
    add_calibrate_parser(sub)
    add_gate_options(ev)
    add_metric_options(ev)
    add_engine_options(ev)
    add_tag_options(ev)
    add_label_options(ev)
    add_compare_parser(sub, ev)
    add_dashboard_parser(sub)
    add_plan_parser(sub)
    return parser
