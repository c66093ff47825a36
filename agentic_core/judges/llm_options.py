"""The LLM judge's run options, their defaults and ranges: one table for the judge, the CLI and the Run page.

Kept in a module of its own (no LangChain import) so the command line can build its help without
loading the LLM stack.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LLMOption:
    """One option of an LLM run.

    Attributes:
        name: The keyword of :func:`agentic_core.judges.providers.build_llm_judge`.
        flag: The command-line option.
        label: The words a page shows.
        default: The default (``None``: no limit).
        minimum: The smallest value a page offers.
        maximum: The largest value a page offers.
        help: One sentence for tooltips and ``--help``.
    """

    name: str
    flag: str
    label: str
    default: float | None
    minimum: float
    maximum: float
    help: str


DEFAULT_CONCURRENCY = 8
DEFAULT_TIMEOUT_S = 60.0
DEFAULT_MAX_RETRIES = 4

LLM_OPTIONS: dict[str, LLMOption] = {
    option.name: option
    for option in (
        LLMOption(
            "concurrency", "--concurrency", "Concurrency", DEFAULT_CONCURRENCY, 1, 256, "LLM calls in flight at once."
        ),
        LLMOption(
            "rps",
            "--rps",
            "Requests per second",
            None,
            0.0,
            1000.0,
            "At most this many requests per second (retries included); no limit by default.",
        ),
        LLMOption(
            "timeout_s",
            "--timeout",
            "Timeout (s)",
            DEFAULT_TIMEOUT_S,
            1.0,
            600.0,
            "Seconds per call; a call that times out is retried, then counted as failed (unscored, never 0).",
        ),
    )
}
"""The options an interface offers for an LLM run, by keyword."""
