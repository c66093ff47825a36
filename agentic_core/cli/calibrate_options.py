"""The options of ``python -m agentic_core calibrate`` (the command: :mod:`agentic_core.cli.calibrate_command`).

Apart from the command so that the parser, which registers them, imports no command code.
"""

from __future__ import annotations

import argparse

from agentic_core.cli.llm_option_types import llm_option_help, llm_option_type
from agentic_core.judges.llm.options import LLM_OPTIONS, STRUCTURED_HELP, STRUCTURED_MODES
from agentic_core.judges.registry import DEFAULT_JUDGE, JUDGES
from agentic_core.judges.runner import CACHE_MODES


def add_calibrate_parser(sub: argparse._SubParsersAction) -> None:
    """Register the ``calibrate`` command and its options on the command line's subparsers."""
    from agentic_core.judges.llm.provider_table import PROVIDERS

    cal = sub.add_parser("calibrate", help="check a judge against human labels (human_label / human_score)")
    cal.add_argument(
        "paths",
        nargs="+",
        metavar="FILE",
        help="JSON / JSONL files whose interactions carry human_label or human_score, or one stored run id",
    )
    cal.add_argument(
        "--judge", default=DEFAULT_JUDGE, choices=list(JUDGES), help=f"the judge to check (default: {DEFAULT_JUDGE})"
    )
    cal.add_argument("--provider", help=f"LLM provider: {', '.join(PROVIDERS)}")
    cal.add_argument("--model", help="LLM model name")
    cal.add_argument("--base-url", help="base URL of an OpenAI-compatible or Ollama server")
    cal.add_argument("--api-key-env", help="name of the environment variable holding the API key")
    for option in LLM_OPTIONS.values():
        cal.add_argument(
            option.flag, dest=option.name, type=llm_option_type(option), default=option.unset,
            help=llm_option_help(option),
        )  # fmt: skip
    cal.add_argument("--structured-output", choices=STRUCTURED_MODES, default="auto", help=STRUCTURED_HELP)
    cal.add_argument("--cache", choices=list(CACHE_MODES), default="use", help="judge cache mode (default: use)")
    cal.add_argument("--cache-path", help="judge cache file (default: the user cache directory)")
    cal.add_argument("--threshold", type=float, help="answer threshold of the confusion matrix (default: the judge's)")
    cal.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    cal.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
