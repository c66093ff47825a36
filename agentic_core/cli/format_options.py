"""``evaluate``'s format defaults: the choices the data's format needs, for each option not given.

The format states them once (:func:`agentic_core.io.importers.defaults.format_defaults`, which the
dashboard's Data, Run and Tools pages preselect from). Here ``evaluate`` applies them to ``--judge``,
``--ignore-extra-tools`` and ``--unit`` when those are not on the command line: their parser default
is ``None``, so an option given explicitly, even with the workbench's default value, always wins. What
was applied is said in one line on stderr and in ``--json``'s ``format_defaults`` field.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, TextIO, TypedDict

from agentic_core.io.importers.defaults import FORMAT_NEEDS, GRADE_JUDGE, format_defaults
from agentic_core.io.importers.formats import FORMAT_LABELS
from agentic_core.judges.registry import DEFAULT_JUDGE
from agentic_core.settings import SETTINGS, default_of

if TYPE_CHECKING:
    from agentic_core.io.load_report import LoadReport

WORKBENCH_DEFAULTS: dict[str, Any] = {
    "judge": DEFAULT_JUDGE,
    "ignore_extra_tools": default_of("ignore_extra_tools"),
    "unit": default_of("unit"),
}
"""What an option a format may set takes when neither the command line nor the data's format says."""


def _stating(name: str) -> str:
    """The formats stating a value for ``name``, as ``format value`` pairs (for ``--help``)."""
    if name == "judge":
        graded = [fmt for fmt, needs in FORMAT_NEEDS.items() if needs.score_is_grade]
        return f"{', '.join(graded)}: {GRADE_JUDGE}, when every interaction has a score"
    pairs = [(fmt, getattr(needs, name)) for fmt, needs in FORMAT_NEEDS.items()]
    return ", ".join(f"{fmt}: {_value_words(name, value)}" for fmt, value in pairs if value is not None)


def _value_words(name: str, value: Any) -> str:
    if name == "ignore_extra_tools":
        return "ignored" if value else "counted"
    return str(value)


def format_help(name: str) -> str:
    """The end of option ``name``'s help: its default, and the formats that choose another one."""
    default = _value_words(name, WORKBENCH_DEFAULTS[name])
    return (
        f"(default: {default}; evaluate takes what the data's format needs when this option is not given: "
        f"{_stating(name)})"
    )


def chosen(args: argparse.Namespace, name: str) -> Any:
    """Option ``name``'s value: as given or set from the format, else the workbench's default.

    ``compare`` shares these options with ``evaluate`` and applies no format defaults: it reads the
    workbench's defaults through here.
    """
    value = getattr(args, name, None)
    return WORKBENCH_DEFAULTS[name] if value is None else value


def option_text(name: str, value: Any) -> str:
    """Option ``name`` with ``value`` as typed on the command line (``--judge dataset``, ``--ignore-extra-tools``)."""
    if name == "ignore_extra_tools":
        return SETTINGS[name].flag if value else f"--no-{SETTINGS[name].flag[2:]}"
    flag = "--judge" if name == "judge" else SETTINGS[name].flag
    return f"{flag} {value}"


def _override_text(name: str, value: Any) -> str:
    """How to choose otherwise than ``value``."""
    if name == "ignore_extra_tools":
        return option_text(name, not value)
    return option_text(name, "NAME")


class FormatDefaultsDocument(TypedDict):
    """``evaluate --json``'s ``format_defaults``: what the data's format set, and what the command line kept.

    Attributes:
        format: The format every file was read as.
        applied: The options the format set, by name (``judge``, ``ignore_extra_tools``, ``unit``).
        kept: The options given on the command line where the format states another value.
        message: The line printed on stderr.
    """

    format: str
    applied: dict[str, Any]
    kept: dict[str, Any]
    message: str


def apply_format_defaults(
    args: argparse.Namespace, loaded: LoadReport, stderr: TextIO
) -> FormatDefaultsDocument | None:
    """Set the options not given to what ``loaded``'s format needs, and say so in one line on ``stderr``.

    Args:
        args: ``evaluate``'s parsed options (changed in place: each option set from the format).
        loaded: The loaded data.
        stderr: Where the line goes.

    Returns:
        What was applied and kept, or ``None`` when the format states nothing or the command line
        already gave what it states.
    """
    found = format_defaults(loaded)
    if found is None:
        return None
    applied: dict[str, Any] = {}
    kept: dict[str, Any] = {}
    for name, value in found.stated().items():
        given = getattr(args, name, None)
        if given is None:
            setattr(args, name, value)
            applied[name] = value
        elif given != value:
            kept[name] = given
    if not applied and not kept:
        return None
    head = f"format defaults for {FORMAT_LABELS[found.format]}"
    sentences = []
    if applied:
        why = "; ".join(found.reasons[name] for name in applied)
        sentences.append(f"{head}: {' '.join(option_text(n, v) for n, v in applied.items())}. Why: {why}")
    if kept:
        given = " ".join(option_text(n, v) for n, v in kept.items())
        stated = " ".join(option_text(n, getattr(found, n)) for n in kept)
        lead = "Kept as given" if applied else f"{head} not applied"
        sentences.append(f"{lead}: {given} (the format needs {stated})")
    if applied:
        overrides = ", ".join(_override_text(n, v) for n, v in applied.items())
        sentences.append(f"An option given on the command line wins ({overrides})")
    message = ". ".join(sentences) + "."
    print(message, file=stderr)
    return FormatDefaultsDocument(format=found.format, applied=applied, kept=kept, message=message)
