"""The LLM judge's run options, their defaults and ranges: one table for the judge, the CLI and the Run page.

Kept in a module of its own (no LangChain import) so the command line can build its help without
loading the LLM stack.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, get_args

from agentic_core.errors import JudgeConfigError


@dataclass(frozen=True)
class LLMOption:
    """One option of an LLM run.

    Attributes:
        name: The field of :class:`~agentic_core.judges.spec.LLMSpec`.
        flag: The command-line option.
        label: The words a page shows.
        default: The default (``None``: no limit).
        minimum: The smallest value a page offers (and the endpoint and the CLI accept, where they check it:
            :meth:`check`).
        maximum: The largest value a page offers (likewise).
        help: One sentence for tooltips and ``--help``.
        adapts: Whether the option, left unset, starts at its default and adapts to the server (the
            timeout): an interface then passes ``None`` unless the user gave a value, which is kept as given.
    """

    name: str
    flag: str
    label: str
    default: float | None
    minimum: float
    maximum: float
    help: str
    adapts: bool = False

    @property
    def unset(self) -> float | None:
        """The value of an option the user left unset: ``None`` where it adapts, else its default."""
        return None if self.adapts else self.default

    @property
    def integer(self) -> bool:
        """Whether the option takes whole numbers (its default is one)."""
        return isinstance(self.default, int)

    def check(self, value: Any, place: str | None = None) -> float:
        """``value`` when it lies in ``[minimum, maximum]`` (and is whole, for a whole-number option).

        Args:
            value: The value given.
            place: Where it was given (default: the command-line flag).

        Raises:
            JudgeConfigError: naming the place, the range and the value.
        """
        number = isinstance(value, int) or (isinstance(value, float) and not self.integer)
        if isinstance(value, bool) or not number or not self.minimum <= value <= self.maximum:
            what = "a whole number" if self.integer else "a number"
            example = "" if self.default is None else f", such as {self.default:g}"
            raise JudgeConfigError(
                place or self.flag,
                f"must be {what} in [{self.minimum:g}, {self.maximum:g}]",
                value,
                f"give a value in that range{example}",
            )
        return float(value) if not self.integer else int(value)


DEFAULT_CONCURRENCY = 8
DEFAULT_TIMEOUT_S = 60.0
DEFAULT_MAX_RETRIES = 4
DEFAULT_MAX_TOKENS = 512
"""The reply budget: the rubric's JSON answer needs about a hundred tokens; a small local model that
rambles on would otherwise run until its context is full, far past the timeout."""

ReplyFormat = Literal["auto", "json_schema", "json_object", "text"]
StructuredMode = bool | ReplyFormat
"""What ``use_structured_output`` takes: a reply format, or ``True`` (json_schema) / ``False`` (text)."""
STRUCTURED_MODES: tuple[ReplyFormat, ...] = get_args(ReplyFormat)
"""Reply formats one may ask the LLM judge for: ``auto`` negotiates json_schema -> json_object -> text."""
STRUCTURED_HELP = (
    "LLM reply format: auto (default) tries the provider's structured output (a JSON schema), then JSON mode, "
    "then plain text, and keeps what the server accepted for the run; the others pin one format"
)

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
            "Seconds per call. Unset, it starts at 60 and adapts to the server (4 x its slowest first replies); "
            "a value given is kept. A call that times out is cancelled and counted as failed (unscored, never 0), "
            "retried only where that can help.",
            adapts=True,
        ),
        LLMOption(
            "max_tokens",
            "--max-tokens",
            "Reply budget (tokens)",
            DEFAULT_MAX_TOKENS,
            16,
            32_768,
            "Most tokens a judge reply may use; raise it for models that reason at length before answering.",
        ),
    )
}
"""The options an interface offers for an LLM run, by keyword."""


def _whole_number(name: str, value: Any, minimum: int, fix: str) -> None:
    """Raise :class:`~agentic_core.errors.JudgeConfigError` unless ``value`` is a whole number >= ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise JudgeConfigError(name, f"must be a whole number >= {minimum}", value, fix)


def _positive(name: str, value: Any, fix: str) -> None:
    """Raise :class:`~agentic_core.errors.JudgeConfigError` unless ``value`` is a finite number > 0."""
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not (number and 0 < value < float("inf")):  # NaN fails both comparisons
        raise JudgeConfigError(name, "must be a finite number > 0", value, fix)


_LIMITS: dict[str, Callable[[str, Any], None]] = {
    "concurrency": lambda n, v: _whole_number(n, v, 1, "use a whole number such as 8 (32 for fast servers)"),
    "max_retries": lambda n, v: _whole_number(n, v, 0, "use a whole number >= 0, such as 4"),
    "max_tokens": lambda n, v: _whole_number(n, v, 1, "use a whole number of tokens such as 512"),
    "timeout_s": lambda n, v: _positive(n, v, "use a number of seconds > 0, such as 60, or none to adapt"),
    "timeout_ceiling_s": lambda n, v: _positive(n, v, "use a number of seconds > 0, such as 600"),
    "rps": lambda n, v: _positive(n, v, "use a number of requests per second > 0, or leave it empty"),
}
"""Each LLM judge limit's one rule, with its fix."""
_UNSET_LIMITS = ("timeout_s", "rps", "max_tokens")
"""The limits ``None`` leaves unset: the timeout adapts, no rate limit, the server's own reply budget."""


def check_limit(name: str, value: Any) -> None:
    """Check the LLM judge's limit ``name`` (a field of :class:`~agentic_core.judges.spec.LLMSpec`, which
    validates each with this) by its one rule.

    Raises:
        JudgeConfigError: naming the limit, its rule, the value and the fix.
    """
    if value is not None or name not in _UNSET_LIMITS:
        _LIMITS[name](name, value)


def structured_mode(value: Any) -> ReplyFormat:
    """The reply format asked for, as one of :data:`STRUCTURED_MODES` (``True`` is json_schema, ``False`` text).

    Raises:
        JudgeConfigError: anything else.
    """
    if isinstance(value, bool):
        return "json_schema" if value else "text"
    for mode in STRUCTURED_MODES:
        if value == mode:
            return mode
    rule = f"must be true, false or one of {', '.join(STRUCTURED_MODES)}"
    raise JudgeConfigError("use_structured_output", rule, value, "use 'auto'")
