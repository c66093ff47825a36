"""The input formats a load can be told to read, named once: the CLI, the Data page and the loader derive them.

``auto`` (the default) detects the format from the content of the first records
(:mod:`agentic_core.io.importers.detect`); ``seed`` is the workbench's own format; the others are
read by the importers of this package and mapped to it.
"""

from __future__ import annotations

from agentic_core.errors import SettingsError

FORMAT_LABELS: dict[str, str] = {
    "auto": "Detect automatically",
    "seed": "Seed format (conversations)",
    "openai": "OpenAI chat traces",
    "ragas": "Ragas multi-turn samples",
    "tau-bench": "tau-bench results",
    "inspect": "Inspect AI eval log",
    "otel": "OpenTelemetry GenAI traces",
}
"""Each format's name (as typed: ``--format tau-bench``) and its words on screen, in menu order."""

FORMAT_CHOICES: tuple[str, ...] = tuple(FORMAT_LABELS)
"""The accepted ``format`` values, ``auto`` first."""

DEFAULT_FORMAT = FORMAT_CHOICES[0]


def formats_in_words(seed: str = "the seed format") -> str:
    """Every format a file may be in, for a sentence, from :data:`FORMAT_LABELS` (so no list goes stale).

    Args:
        seed: How to name the workbench's own format in that sentence.

    Returns:
        ``"the seed format, OpenAI chat traces, ..., Inspect AI eval log or OpenTelemetry GenAI traces"``.
    """
    names = [seed, *(label for name, label in FORMAT_LABELS.items() if name not in ("auto", "seed"))]
    return ", ".join(names[:-1]) + " or " + names[-1]


def check_format(name: str) -> str:
    """Return ``name`` if it is a known format.

    Args:
        name: A format name such as ``"auto"`` or ``"tau-bench"``.

    Returns:
        ``name`` itself.

    Raises:
        SettingsError: ``name`` is not one of :data:`FORMAT_CHOICES` (the message lists them).
    """
    if name not in FORMAT_LABELS:
        raise SettingsError(
            "format",
            f"must be one of {', '.join(FORMAT_CHOICES)}",
            name,
            "leave it at auto (the format is detected from the content) or name one of these",
        )
    return name
