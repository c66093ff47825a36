"""The argparse ``type`` of each LLM option (``--max-tokens``, ``--timeout``, ...), for every command that takes them.

The ranges are the LLM options table's (:data:`agentic_core.judges.llm.options.LLM_OPTIONS`), the same the
endpoint checks: one home for each bound.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable
from typing import Any

from agentic_core.errors import JudgeConfigError
from agentic_core.judges.llm.options import LLMOption

BOUNDED_LLM_OPTIONS = ("max_tokens",)
"""LLM options held to their table's range on the command line as at the endpoint (a reply budget outside it
is refused before any call); the others are checked when the judge is built."""


def llm_option_type(option: LLMOption) -> Callable[[str], Any]:
    """An argparse ``type`` for ``option``: a number, refused outside its range where it is bounded (exit 2)."""
    number: type = int if option.integer else float
    if option.name not in BOUNDED_LLM_OPTIONS:
        return number

    def convert(text: str) -> float:
        value: Any = text
        with contextlib.suppress(ValueError):
            value = number(text)
        try:
            return option.check(value)
        except JudgeConfigError as exc:  # argparse names the option itself: the place is not repeated
            raise argparse.ArgumentTypeError(str(exc).removeprefix(f"{option.flag}: ")) from None

    return convert


def llm_option_help(option: LLMOption) -> str:
    """``option``'s help with its default, and its range where it is bounded."""
    default = "no limit" if option.default is None else f"{option.default:g}"
    if option.adapts:
        default += ", adapting to the server unless given"
    bounds = f"; {option.minimum:g} to {option.maximum:g}" if option.name in BOUNDED_LLM_OPTIONS else ""
    return f"{option.help} (default: {default}{bounds})"
